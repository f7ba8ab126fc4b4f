"""
MSSP (Mud Server Status Protocol): what MUD listing crawlers learn about the game.

A crawler connects to the telnet port, answers ``IAC DO MSSP`` (option 70) and gets this
table. Evennia adds PLAYERS and UPTIME itself. Everything comes from
``server/conf/settings.py`` (read when the Portal starts: after a change, stop and start
the server, a reload does not restart the Portal):

* NAME is ``SERVERNAME``; PORT the ports in ``TELNET_PORTS`` (``FRAY_TELNET_PORT``);
  SSL the ``SSL_PORTS`` when ``SSL_ENABLED``, else ``0``; ``WEB PORT`` (an extended
  variable) ``FRAY_WEB_PORT``; WEBSITE ``FRAY_MSSP_WEBSITE``, else
  ``http://<FRAY_MSSP_HOSTNAME>:<FRAY_WEB_PORT>/`` when a hostname is set, else empty.
* ``FRAY_MSSP_HOSTNAME``, ``FRAY_MSSP_CODEBASE``, ``FRAY_MSSP_GENRE``,
  ``FRAY_MSSP_CONTACT``, ``FRAY_MSSP_WEBSITE``, ``FRAY_MSSP_STATUS``,
  ``FRAY_MSSP_LANGUAGE``, ``FRAY_MSSP_LOCATION``, ``FRAY_MSSP_CREATED``; and
  ``FRAY_MSSP_EXTRA``, a dict of any other MSSP variables (it wins over everything here).
"""

from django.conf import settings


def _setting(name, default=""):
    value = getattr(settings, name, None)
    return default if value is None else value


def _evennia_version():
    try:
        from evennia.utils.utils import get_evennia_version

        return get_evennia_version(mode="pretty")
    except Exception:  # noqa: BLE001 - only decoration
        return "Evennia"


def _uptime():
    """The Portal's start as a whole Unix time (MSSP wants an integer; Evennia sends a float)."""
    from evennia.server.portal.portalsessionhandler import PORTAL_SESSIONS

    return str(int(float(PORTAL_SESSIONS.uptime)))


def build_table():
    """The MSSP table from the settings in use."""
    web_port = _setting("FRAY_WEB_PORT", None)
    hostname = _setting("FRAY_MSSP_HOSTNAME")
    website = _setting("FRAY_MSSP_WEBSITE")
    if not website and hostname and web_port:
        website = f"http://{hostname}:{web_port}/"
    ssl_ports = [str(p) for p in reversed(settings.SSL_PORTS)] if settings.SSL_ENABLED else "0"
    table = {
        # Required
        "NAME": settings.SERVERNAME,
        # Generic
        "UPTIME": _uptime,
        "CRAWL DELAY": "-1",
        "HOSTNAME": hostname,
        "PORT": [str(p) for p in reversed(settings.TELNET_PORTS)],  # the main port last
        "SSL": ssl_ports,
        "WEB PORT": str(web_port) if web_port else "0",
        "CODEBASE": _setting("FRAY_MSSP_CODEBASE") or f"Fray ({_evennia_version()})",
        "CONTACT": _setting("FRAY_MSSP_CONTACT"),
        "CREATED": str(_setting("FRAY_MSSP_CREATED")),
        "LANGUAGE": _setting("FRAY_MSSP_LANGUAGE", "English"),
        "LOCATION": _setting("FRAY_MSSP_LOCATION"),
        "MINIMUM AGE": "0",
        "WEBSITE": website,
        # Categorisation
        "FAMILY": "Custom",
        "GENRE": _setting("FRAY_MSSP_GENRE", "Fantasy"),
        "GAMEPLAY": "Roleplaying",
        "STATUS": _setting("FRAY_MSSP_STATUS", "Alpha"),
        "GAMESYSTEM": "Custom",
        "SUBGENRE": "None",
        # Protocols (what Evennia's portal really offers)
        "ANSI": "1",
        "GMCP": "1",
        "MSDP": "1",
        "MXP": "1" if settings.MXP_ENABLED else "0",
        "MCCP": "1",
        "UTF-8": "1",
        "XTERM 256 COLORS": "1",
        "XTERM TRUE COLORS": "0",
        "VT100": "0",
        "ATCP": "0",
        "MCP": "0",
        "MSP": "0",
        "PUEBLO": "0",
        "ZMP": "0",
        # Commercial, hiring
        "PAY TO PLAY": "0",
        "PAY FOR PERKS": "0",
        "HIRING BUILDERS": "0",
        "HIRING CODERS": "0",
        # Game
        "ADULT MATERIAL": "0",
        "MULTICLASSING": "0",
        "NEWBIE FRIENDLY": "0",
        "PLAYER CITIES": "0",
        "PLAYER CLANS": "0",
        "PLAYER CRAFTING": "0",
        "PLAYER GUILDS": "0",
        "EQUIPMENT SYSTEM": "None",
        "MULTIPLAYING": "None",
        "PLAYERKILLING": "Restricted",
        "QUEST SYSTEM": "None",
        "ROLEPLAYING": "Encouraged",
        "TRAINING SYSTEM": "None",
        "WORLD ORIGINALITY": "All Original",
    }
    table.update(_setting("FRAY_MSSP_EXTRA", None) or {})
    return table


MSSPTable = build_table()
