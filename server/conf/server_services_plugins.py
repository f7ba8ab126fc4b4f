"""Server plugin services (Evennia's ``SERVER_SERVICES_PLUGIN_MODULES``): called while the
Server starts, before it connects to the Portal, so nothing here is seen by a player.

Fray checks its message catalogue here (``world.catalogue``): a game's message file with an
unknown key, a template that does not parse or an unknown or missing placeholder stops the
Server before it takes a connection, with one line per problem naming the file, the key and
the problem, in ``server/logs/server.log`` (``make run`` says it and stops what it started).
"""

import os

#: What the Server's log says before each problem (``server/startup.py`` looks for it).
REFUSED = "Fray does not start: message catalogue:"


def start_plugin_services(server):
    """Called by Evennia last in the Server's own startup, before the Portal connects."""
    from world import narration

    problems = narration.check()
    if problems:
        refuse(problems)


def refuse(problems):
    """Say each problem in one line and end the Server process (exit status 1). Nothing has
    been started that needs stopping: the Portal has not connected yet."""
    from evennia.utils import logger

    for problem in problems:
        logger.log_err(f"{REFUSED} {problem}")
    os._exit(1)
