"""
Portal service plugins: Fray's Server watchdog.

Evennia runs two processes: the Portal (owns the player connections) and the
Server (the game), linked by AMP. When the Server stops the way Evennia stops
it (`evennia stop`/`reload`/`reset`, in-game `shutdown`/`reload`), the Portal
knows beforehand: it records a restart mode or waits on a callback for the
disconnect. When the Server process simply dies (kill -9, the out-of-memory
killer, a segfault), the Portal keeps running and keeps the players' telnet
connections open, but nobody starts the Server again.

The watchdog notices exactly that case -- the Server's AMP connection dropped
with no shutdown, reload or reset asked for -- waits until the old Server
process is really gone, and then starts the Server again the way Evennia's
launcher does (the Portal's own ``start_server`` with the command line the
launcher gave it), in "reset" mode: a cold start that keeps the sessions still
connected to the Portal. Should the Server's connection come back by itself
(the Server's AMP client reconnects), nothing is started.

A Server that keeps dying is not restarted forever: after
``MAX_RESTARTS`` restarts within ``RESTART_WINDOW`` seconds the watchdog logs
that it gives up (see server/logs/portal.log) until the next `evennia start`.
"""

from __future__ import annotations

import os
import time

from evennia.utils import logger
from twisted.internet import reactor

#: seconds between noticing the loss and the first look at the old process
RESTART_DELAY = 1.0
#: how long to wait for a dead Server's process to disappear (or reconnect)
PROCESS_GONE_TIMEOUT = 30.0
#: how long a restarted Server may take to connect while its process lives
FOLLOW_UP_TIMEOUT = 600.0
MAX_RESTARTS = 5
RESTART_WINDOW = 300.0


def _pid_alive(pid) -> bool:
    if not pid:
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except (PermissionError, ValueError, TypeError):
        return True
    try:  # a zombie is dead
        with open(f"/proc/{int(pid)}/stat") as f:
            return f.read().rsplit(")", 1)[-1].split()[0] != "Z"
    except OSError:
        return True


class ServerWatchdog:
    def __init__(self, portal, factory):
        self.portal = portal
        self.factory = factory
        self.restarts: list[float] = []
        self.pending = None  # the scheduled check, while one is running

    # -- install --------------------------------------------------------------
    def install(self):
        """Watch every AMP connection the Portal makes from now on."""
        watchdog = self
        base = self.factory.protocol

        class WatchedAMPServerProtocol(base):
            def connectionLost(self, reason):
                factory = self.factory
                was_server = factory.server_connection is self
                # Evennia stopping the Server on purpose leaves one of these
                expected = (
                    self in factory.disconnect_callbacks
                    or factory.portal.server_restart_mode is not None
                )
                super().connectionLost(reason)
                if was_server:
                    watchdog.server_lost(expected)

        WatchedAMPServerProtocol.__name__ = f"Watched{base.__name__}"
        self.factory.protocol = WatchedAMPServerProtocol

    # -- events ---------------------------------------------------------------
    def server_lost(self, expected: bool):
        if expected or self._portal_stopping():
            return
        pid = self.portal.server_process_id
        logger.log_warn(
            f"Fray watchdog: the Server (pid {pid}) dropped its connection without a "
            "shutdown, reload or reset; it is started again once its process is gone."
        )
        self._schedule(RESTART_DELAY, self._check, pid, time.monotonic() + PROCESS_GONE_TIMEOUT)

    def _schedule(self, delay, func, *args):
        if self.pending is not None and self.pending.active():
            self.pending.cancel()
        self.pending = reactor.callLater(delay, func, *args)

    def _check(self, pid, deadline):
        """After a loss: restart once the old process is gone (unless it reconnected)."""
        self.pending = None
        if self._portal_stopping() or self._server_connected():
            if self._server_connected():
                logger.log_info("Fray watchdog: the Server reconnected by itself.")
            return
        if self.portal.server_restart_mode is not None:
            return  # someone (the launcher, an admin) took over in the meantime
        if _pid_alive(pid):
            if time.monotonic() < deadline:
                self._schedule(0.5, self._check, pid, deadline)
            else:
                logger.log_err(
                    f"Fray watchdog: the Server (pid {pid}) lost its connection but its "
                    "process did not end; not starting a second one."
                )
            return
        self.restart()

    def _follow_up(self, deadline):
        """After a restart: the Server connects (PSYNC), or its process is still
        starting, or it failed -- then try again (counted)."""
        self.pending = None
        if self._portal_stopping() or self._server_connected():
            return
        if self.portal.server_restart_mode != "reset":
            return  # the launcher or an admin took over
        pid = self._pidfile_pid()
        if _pid_alive(pid) and time.monotonic() < deadline:
            self._schedule(2.0, self._follow_up, deadline)
            return
        if _pid_alive(pid):
            logger.log_err(
                f"Fray watchdog: the restarted Server (pid {pid}) has not connected within "
                f"{FOLLOW_UP_TIMEOUT:.0f}s; leaving it (see server.log)."
            )
            return
        logger.log_warn("Fray watchdog: the restarted Server did not come up; trying again.")
        self.restart()

    def restart(self):
        now = time.monotonic()
        self.restarts = [t for t in self.restarts if now - t < RESTART_WINDOW]
        if len(self.restarts) >= MAX_RESTARTS:
            logger.log_err(
                f"Fray watchdog: the Server died {len(self.restarts)} times within "
                f"{RESTART_WINDOW:.0f}s; giving up (start it with `evennia start`)."
            )
            self.portal.server_restart_mode = None
            return
        self.restarts.append(now)
        cmd = self.portal.server_twistd_cmd
        self._remove_stale_pidfile()
        logger.log_info(f"Fray watchdog: starting the Server again: {' '.join(cmd)}")
        # "reset": a cold start for the game (at_server_cold_start) that keeps
        # the sessions still connected to the Portal; PSYNC clears it again.
        self.portal.server_restart_mode = "reset"
        protocol = self.portal.amp_protocol
        if protocol is None:  # never happens once a Server has connected
            protocol = self.factory.protocol()
            protocol.factory = self.factory
        protocol.start_server(cmd)
        self._schedule(2.0, self._follow_up, time.monotonic() + FOLLOW_UP_TIMEOUT)

    # -- state ----------------------------------------------------------------
    def _pidfile(self):
        for arg in self.portal.server_twistd_cmd or ():
            if str(arg).startswith("--pidfile="):
                return str(arg).split("=", 1)[1]
        return None

    def _pidfile_pid(self):
        path = self._pidfile()
        try:
            with open(path) as f:
                return int(f.read().strip())
        except (TypeError, OSError, ValueError):
            return None

    def _remove_stale_pidfile(self):
        """twistd refuses to start while the pid in server.pid exists -- a
        killed Server not yet reaped by its parent (a zombie) counts -- so a
        pidfile of a dead process is removed first."""
        path, pid = self._pidfile(), self._pidfile_pid()
        if path and pid and not _pid_alive(pid):
            try:
                os.remove(path)
            except OSError:
                pass

    def _server_connected(self) -> bool:
        conn = self.factory.server_connection
        return bool(conn and conn.transport and conn.transport.connected)

    def _portal_stopping(self) -> bool:
        return hasattr(self.portal, "shutdown_complete") or not reactor.running


def _amp_factory(portal):
    try:
        service = portal.getServiceNamed("PortalAMPServer")
    except KeyError:
        return None
    return service.args[1]  # internet.TCPServer(port, factory, ...)


def start_plugin_services(portal):
    """
    This hook is called by Evennia, last in the Portal startup process.

    portal - a reference to the main portal application.
    """
    factory = _amp_factory(portal)
    if factory is None:
        logger.log_warn("Fray watchdog: no AMP server in this Portal; not watching the Server.")
        return
    portal.fray_watchdog = ServerWatchdog(portal, factory)
    portal.fray_watchdog.install()
