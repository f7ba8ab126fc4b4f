"""
Runs once, when the server starts for the very first time: Limbo gets Fray's welcome text
instead of Evennia's stock one.
"""

from evennia import search_object

LIMBO_DESC = (
    "Welcome to |wFray|n, a combat server for MUSH roleplay.\n"
    "Type |whelp Fray|n for the combat commands, |w+sheet|n for your sheet and |w+combat|n "
    "to see a fight in this room.\n"
    "Storytellers start a fight with |w+combat/start|n; players join it with |w+combat/join|n."
)


def at_initial_setup():
    limbo = search_object("#2")
    if limbo:
        limbo[0].db.desc = LIMBO_DESC
