"""The Portal-Server link (AMP over TCP), read as the byte stream TCP delivers.

Evennia's AMP protocol (``evennia.server.portal.amp.AMPMultiConnectionProtocol``) guesses
from each read whether the bytes are AMP: a read that does not start with a NUL byte is
taken for a stray HTTP request, answered with an HTML page and the connection closed,
unless the read before it did not end with the two NULs that end a box. TCP cuts a stream
anywhere. Under load the Server's output to the Portal arrives in reads cut at arbitrary
places, and a read that ends inside the three NULs between two boxes (the end of one, the
key-length prefix of the next), or inside a compressed value holding two NULs, makes the
next read look like HTTP: the Portal drops the Server's link, the Server reconnects, and
every player sees "... Server restarted." while what was in flight is lost
(``tests/game/test_amp.py`` cuts a real stream so).

Here only a connection's first bytes are checked (a stray HTTP request is still answered as
Evennia answers it); after them every read goes to AMP's own parser, which reassembles
boxes across any cut. ``server/conf/settings.py`` names these classes.

Both ends also send each write at once (``TCP_NODELAY``): with Nagle's algorithm, which
Twisted leaves on, a small write waits until the other end acknowledges the one before, and
the other end may hold its acknowledgement for up to 40 ms; every command and every answer
crosses this link (``docs/performance.md``, "500 clients").
"""

from __future__ import annotations

from evennia.server import amp_client
from evennia.server.portal import amp_server
from evennia.server.portal.amp import NUL, AMPMultiConnectionProtocol
from evennia.utils import logger


def no_delay(transport) -> None:
    """Send ``transport``'s writes at once, not held for Nagle's algorithm (``TCP_NODELAY``);
    a transport with no TCP socket (a test's) is left as it is."""
    try:
        transport.setTcpNoDelay(True)
    except (AttributeError, OSError):
        pass


def send_now() -> None:
    """Write what the Server has for the Portal now, not when the reactor next polls: a
    command's answer to its typist leaves while the room's copies are still being made
    (``server/conf/serversession.py``). A link that cannot take it all keeps the rest for the
    reactor, as any write."""
    import evennia

    transport = getattr(getattr(evennia.EVENNIA_SERVER_SERVICE, "amp_protocol", None), "transport", None)
    if transport is not None and getattr(transport, "_tempDataLen", 0) and transport.connected \
            and not transport.disconnecting:
        transport.doWrite()


class StreamRead:
    """AMP protocol mixin: after a connection's first read, every byte is AMP; writes go at
    once (:func:`no_delay`)."""

    amp_started = False

    def connectionMade(self) -> None:
        no_delay(self.transport)
        super().connectionMade()

    def dataReceived(self, data: bytes) -> None:
        if not self.amp_started:
            if data[:1] != NUL:
                super().dataReceived(data)   # Evennia's answer to a stray HTTP request
                return
            self.amp_started = True
        try:
            super(AMPMultiConnectionProtocol, self).dataReceived(data)
        except KeyError:   # as Evennia: a box answering nothing asked (evennia#2053)
            logger.log_trace(f"Discarded incoming AMP data (len {len(data)})")


class PortalAMP(StreamRead, amp_server.AMPServerProtocol):
    """The Portal's end (``AMP_SERVER_PROTOCOL_CLASS``)."""


class ServerAMP(StreamRead, amp_client.AMPServerClientProtocol):
    """The Server's end (``AMP_CLIENT_PROTOCOL_CLASS``). Evennia's client factory builds
    ``amp_client.AMPServerClientProtocol`` by that name whatever the setting says, so the
    Server puts this class under the name as it starts (``use_server_amp``)."""


def use_server_amp() -> None:
    """Have the Server's AMP client factory build :class:`ServerAMP` (called as the Server
    starts, before its link to the Portal is made)."""
    amp_client.AMPServerClientProtocol = ServerAMP
