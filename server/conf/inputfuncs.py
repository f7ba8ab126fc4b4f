"""
Input functions

Input functions are always called from the client (they handle server
input, hence the name).

This module is loaded by being included in the
`settings.INPUT_FUNC_MODULES` tuple.

All *global functions* included in this module are considered
input-handler functions and can be called by the client to handle
input.

An input function must have the following call signature:

    cmdname(session, *args, **kwargs)

Where session will be the active session and *args, **kwargs are extra
incoming arguments and keyword properties.

A special command is the "default" command, which is will be called
when no other cmdname matches. It also receives the non-found cmdname
as argument.

    default(session, cmdname, *args, **kwargs)

"""

# def oob_echo(session, *args, **kwargs):
#     """
#     Example echo function. Echoes args, kwargs sent to it.
#
#     Args:
#         session (Session): The Session to receive the echo.
#         args (list of str): Echo text.
#         kwargs (dict of str, optional): Keyed echo text
#
#     """
#     session.msg(oob=("echo", args, kwargs))
#
#
# def default(session, cmdname, *args, **kwargs):
#     """
#     Handles commands without a matching inputhandler func.
#
#     Args:
#         session (Session): The active Session.
#         cmdname (str): The (unmatched) command name
#         args, kwargs (any): Arguments to function.
#
#     """
#     pass


def default(session, cmdname, *args, **kwargs):
    """Out-of-band input Fray does not take (a GMCP package such as ``Char.Login`` or
    ``Core.Ping``): ignored, and logged by its name only, never its data, which a client may
    fill with a password (Evennia's own default logs it all, in three error lines)."""
    from evennia.utils import logger

    logger.log_info(f"Session {session.sessid}: ignored out-of-band input {str(cmdname)[:40]!r}")


def fray_track(session, *args, **kwargs):
    """A web tracker page follows a fight (``world.live.watch``): ``[ticket, seq, log]``, the
    page's signed ticket and the last event and roll-log entry it shows."""
    from world import live

    ticket, seq, log = (list(args) + ["", 0, 0])[:3]
    live.watch(session, ticket, seq, log)


def fray_act(session, *args, **kwargs):
    """A player's button on a web tracker page (``world.live.act``): ``{fight, action, target,
    option, seen}``."""
    from world import live

    live.act(session, **{key: kwargs.get(key) for key in ("fight", "action", "target", "option", "seen")})
