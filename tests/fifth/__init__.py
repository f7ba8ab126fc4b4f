"""``duel``: a minimal fifth rule system that lives only in the tests, to show that a system
needs no file outside its own package: it is registered at run time
(``rules.systems.register``) and plays through the engine's shared actions."""
