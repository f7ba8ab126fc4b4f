r"""
Evennia settings file.

The available options are found in the default settings file found
here:

https://www.evennia.com/docs/latest/Setup/Settings-Default.html

Remember:

Don't copy more from the default file than you actually intend to
change; this will make sure that you don't overload upstream updates
unnecessarily.

When changing a setting requiring a file system path (like
path/to/actual/file.py), use GAME_DIR and EVENNIA_DIR to reference
your game folder and the Evennia library folders respectively. Python
paths (path.to.module) should be given relative to the game's root
folder (typeclasses.foo) whereas paths within the Evennia library
needs to be given explicitly (evennia.foo).

If you want to share your game dir, including its settings, you can
put secret game- or server-specific settings in secret_settings.py.

"""

import os

# Use the defaults from Evennia unless explicitly overridden
from evennia.settings_default import *  # noqa: F401,F403

######################################################################
# Evennia base server config
######################################################################

# This is the name of your game. Make it catchy!
SERVERNAME = "Fray"
GAME_SLOGAN = "A combat server for MUSH roleplay"  # under the name on every web page

# Ports are read from the environment so several servers (dev, tests, CI)
# can run side by side. With the defaults (4000/4001) this gives Evennia's
# usual layout: telnet 4000, web 4001 (internal 4005), websocket 4002,
# AMP 4006.
FRAY_TELNET_PORT = int(os.environ.get("FRAY_TELNET_PORT", "4000"))
FRAY_WEB_PORT = int(os.environ.get("FRAY_WEB_PORT", "4001"))

TELNET_PORTS = [FRAY_TELNET_PORT]
WEBSERVER_PORTS = [(FRAY_WEB_PORT, FRAY_WEB_PORT + 4)]
WEBSOCKET_CLIENT_PORT = FRAY_WEB_PORT + 1
AMP_PORT = FRAY_WEB_PORT + 5

# Database: DATABASE_URL unset -> Evennia's SQLite file server/evennia.db3;
# postgres://user:password@host:5432/dbname -> PostgreSQL (driver: the
# `postgres` extra, `pip install -e '.[postgres]'`); sqlite:////abs/path.db3
# -> SQLite there. See server/database.py and the README.
from server.database import databases_from_env  # noqa: E402

DATABASES = databases_from_env() or DATABASES

# SQLite's page cache (the Server's connection; PostgreSQL has its own settings): Evennia asks
# for 10000 pages, 40 MB at SQLite's 4 kB page, which fills as the fights' rows are written and
# read and stays: the Server's memory grew by 40 MB over its first half hour of play
# (docs/performance.md, "An hour of play"). 8 MB keeps the hot tables and indexes; the rest
# of the file is in the OS's cache, read back in microseconds.
#
# The journal is a rollback journal, not a write-ahead log (WAL): a reload runs the old Server
# and the new one side by side for a moment, and the old one, closing last as far as SQLite
# can tell, deleted the log the new one was writing to. Every later commit went to a deleted
# file and was lost when the Server was killed (the storyteller e2e's kill after a reload;
# docs/performance.md, "One commit a command"). The journal persists (PERSIST): a commit
# zeroes its header instead of deleting the file, so a command's first write does not create
# the file again (attack and defend cost about 0.15 x look less, docs/performance.md). A
# journal with a zeroed header is no journal: a killed Server's half-written transaction
# still rolls back, and a connection of the default mode may still delete the file.
SQLITE3_PRAGMAS = tuple("PRAGMA cache_size=-8192" if pragma.startswith("PRAGMA cache_size") else pragma
                        for pragma in SQLITE3_PRAGMAS) + ("PRAGMA journal_mode=PERSIST",)

# "Narrator" (game-runner / storyteller staff) sits between Player and Helper.
PERMISSION_HIERARCHY = [
    "Guest",  # note-only used if GUEST_ENABLED=True
    "Player",
    "Narrator",
    "Helper",
    "Builder",
    "Admin",
    "Developer",
]


######################################################################
# --- Fray game settings ---
# (append game-specific settings below this line)
######################################################################

FRAY_DEFAULT_SYSTEM = "storyteller"

# One account, one character, as many connections as the player opens (a MUSH's way: telnet,
# the webclient and the web tracker at once; Evennia's mode 1). Every connection plays the
# same character and is sent everything it is told; logging in again ends no other
# connection. The character is idle in a fight only once its last connection has gone.
MULTISESSION_MODE = 1
AUTO_PUPPET_ON_LOGIN = True
MAX_NR_CHARACTERS = 1

# Fray's own tables (the fight and its roll log): world/models.py
INSTALLED_APPS += ["world.apps.WorldConfig"]

# The website's pages (the fight tracker's Storyteller buttons, the admin) are not framed by
# other sites' pages (X-Frame-Options; same-origin frames, such as the webclient's, stay), and
# every answer says "nosniff" (Django's SecurityMiddleware, first in the list).
MIDDLEWARE = ["django.middleware.security.SecurityMiddleware", *MIDDLEWARE,
              "django.middleware.clickjacking.XFrameOptionsMiddleware"]
X_FRAME_OPTIONS = "SAMEORIGIN"

# Text for a screen reader made plain (server/conf/serversession.py)
SERVER_SESSION_CLASS = "server.conf.serversession.ServerSession"
# Typed lines carry the Portal's receive time (a late +combat/next is refused, not applied).
PORTAL_SESSION_HANDLER_CLASS = "server.conf.portal_sessions.FrayPortalSessionHandler"

# --- MUSH codes (Evennia's color_markups contrib, read by the Portal and the Server) ---
# Beside Evennia's |r codes: %r (line break), %t (tab), %b (space), %cn (normal), %ch (bright),
# %cr %cg %cy %cb %cm %cc %cw %cx (colours), %cR ... %cX (backgrounds), %c500 / %c[500 (xterm)
# and %% (a literal %, what world.text's escaping writes for a player's %). Restart the Portal
# and the Server after changing these.
from evennia.contrib.base_systems import color_markups  # noqa: E402

COLOR_ANSI_EXTRA_MAP = [(r"%%", "%"), *color_markups.MUX_COLOR_ANSI_EXTRA_MAP]
# The xterm256 codes are read before the map above: not after a %, so %%c500 stays literal.
COLOR_XTERM256_EXTRA_FG = [r"(?<!%)" + regex for regex in color_markups.MUX_COLOR_XTERM256_EXTRA_FG]
COLOR_XTERM256_EXTRA_BG = [r"(?<!%)" + regex for regex in color_markups.MUX_COLOR_XTERM256_EXTRA_BG]
COLOR_XTERM256_EXTRA_GFG = [r"(?<!%)" + regex for regex in color_markups.MUX_COLOR_XTERM256_EXTRA_GFG]
COLOR_XTERM256_EXTRA_GBG = [r"(?<!%)" + regex for regex in color_markups.MUX_COLOR_XTERM256_EXTRA_GBG]
COLOR_ANSI_XTERM256_BRIGHT_BG_EXTRA_MAP = color_markups.MUX_COLOR_ANSI_XTERM256_BRIGHT_BG_EXTRA_MAP

# --- The Portal-Server link (server/conf/amp.py) ---
# AMP read as a byte stream: Evennia's own protocol takes a read cut by TCP in the wrong
# place for a stray HTTP request and drops the link under load ("... Server restarted.").
AMP_SERVER_PROTOCOL_CLASS = "server.conf.amp.PortalAMP"
AMP_CLIENT_PROTOCOL_CLASS = "server.conf.amp.ServerAMP"

# --- Telnet (server/conf/telnet.py, runs in the Portal) ---
# Fray's telnet protocol: malformed telnet input never wedges a session, a line ended
# by CR alone runs at once, and every line sent is wrapped to the client's width.
TELNET_PROTOCOL_CLASS = "server.conf.telnet.FrayTelnetProtocol"
# Wrap telnet output to the width the client reports (NAWS), else CLIENT_DEFAULT_WIDTH
# (Evennia's, 78); continuation lines indented FRAY_TELNET_WRAP_INDENT more spaces.
FRAY_TELNET_WRAP = True
FRAY_TELNET_WRAP_INDENT = 2

# --- MSSP (server/conf/mssp.py): what MUD listing crawlers are told ---
# NAME, PORT and WEB PORT come from SERVERNAME, TELNET_PORTS and FRAY_WEB_PORT; SSL is
# "0" unless SSL_ENABLED. Read when the Portal starts (stop + start, not reload).
FRAY_MSSP_HOSTNAME = ""  # the public host name players connect to
FRAY_MSSP_WEBSITE = ""  # default: http://<FRAY_MSSP_HOSTNAME>:<FRAY_WEB_PORT>/ if a hostname is set
FRAY_MSSP_CONTACT = ""  # e-mail address for the game
FRAY_MSSP_CODEBASE = ""  # default: "Fray (Evennia <version>)"
FRAY_MSSP_GENRE = "Fantasy"  # Adult, Fantasy, Historical, Horror, Modern, None, Science Fiction
FRAY_MSSP_STATUS = "Alpha"  # Alpha, Closed Beta, Open Beta, Live
FRAY_MSSP_EXTRA = {}  # any other MSSP variables, e.g. {"LOCATION": "Germany", "CREATED": "2026"}


# Character generation (+chargen): may a character whose sheet staff have not approved join a
# fight on their own (+combat/join)? False: only when the fight's Storyteller adds them
# (+combat/add).
FRAY_UNAPPROVED_MAY_JOIN = False

######################################################################
# Settings given in secret_settings.py override those in this file.
######################################################################
try:
    from server.conf.secret_settings import *  # noqa: F401,F403
except ImportError:
    print("secret_settings.py file not found or failed to import.")
