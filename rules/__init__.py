"""Pure-Python game rules for Fray: no Evennia or Django imports."""
