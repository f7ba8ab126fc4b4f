"""Server plugin services (Evennia's ``SERVER_SERVICES_PLUGIN_MODULES``): called while the
Server starts, before it connects to the Portal, so nothing here is seen by a player.

Fray checks its message catalogue here (``world.catalogue``): a game's message file with an
unknown key, a template that does not parse or an unknown or missing placeholder stops the
Server before it takes a connection, with one line per problem naming the file, the key and
the problem, in ``server/logs/server.log`` (``make run`` says it and stops what it started).
So does a rule system's chargen table that does not load (``rules/data/chargen/``). It also
puts Fray's end of the Portal link in place (``server/conf/amp.py``).
"""

import os

from server.startup import REFUSED  # what the Server's log says before each problem


def start_plugin_services(server):
    """Called by Evennia last in the Server's own startup, before the Portal connects."""
    from server.conf.amp import use_server_amp

    use_server_amp()   # before the link to the Portal is made (server/conf/amp.py)
    problems = start_problems()
    if problems:
        refuse(problems)


def start_problems() -> list[str]:
    """Every reason the Server would not start, one line each: the message catalogue's
    problems, then the chargen tables'. ``@reload`` asks it too before it restarts the Server."""
    from world import narration

    return [f"message catalogue: {problem}" for problem in narration.check()] + chargen_check()


def refuse(problems):
    """Say each problem in one line and end the Server process (exit status 1). Nothing has
    been started that needs stopping: the Portal has not connected yet."""
    from evennia.utils import logger

    for problem in problems:
        logger.log_err(f"{REFUSED} {problem}")
    os._exit(1)


def chargen_check() -> list[str]:
    """What is wrong with the rule systems' chargen tables (``rules/data/chargen/``): one line
    each, empty when every table loads."""
    from rules.chargen import load
    from rules.data import RulesDataError
    from rules.systems import get_system, system_keys

    problems = []
    for key in system_keys():
        try:
            load(key, get_system(key).trait_names)
        except RulesDataError as error:
            problems.append(f"Chargen table of {key}: {error}")
    return problems
