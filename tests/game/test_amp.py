"""The Portal-Server link survives TCP cutting its stream anywhere (server/conf/amp.py), and
a command's answer to its typist goes over it at once.

Under load the Server's output reaches the Portal in reads cut at arbitrary places. Evennia's
AMP protocol took a read that did not start with a NUL byte, after one that ended with two,
for a stray HTTP request and dropped the link: the Server reconnected and every player saw
"... Server restarted."."""

from types import SimpleNamespace
from unittest import mock

import evennia
from evennia.server import amp_client
from evennia.server.portal import amp_server
from evennia.server.portal.amp import MsgServer2Portal, dumps
from twisted.internet import abstract
from twisted.internet.testing import StringTransport
from twisted.protocols import amp

from server.conf.amp import PortalAMP, ServerAMP, use_server_amp
from world.text import answering


def stream(count: int = 3) -> bytes:
    """``count`` boxes as the Server sends narration to the Portal, back to back."""
    data = b""
    for ask in range(1, count + 1):
        box = amp.AmpBox(_command=b"MsgServer2Portal", _ask=str(ask).encode())
        text = f"<Combat> Ann's punch at Bob: 3 successes, Bob takes {ask} bashing. " * 3
        box.update(MsgServer2Portal.makeArguments({"packed_data": dumps((ask, {"text": ((text,), {})}))}, None))
        data += box.serialize()
    return data


def link(protocol_class):
    """A protocol of ``protocol_class`` on a fake transport, keeping the boxes it parses."""
    received = []
    protocol = type("Kept", (protocol_class,), {"ampBoxReceived": lambda self, box: received.append(box),
                                                "connectionMade": lambda self: None})()   # no Portal sync
    transport = StringTransport()
    protocol.makeConnection(transport)
    return protocol, transport, received


def cuts(data: bytes) -> list[int]:
    """The places where a read ending there ends with two NULs and the next read does not
    start with one (the three NULs between boxes, cut after the second)."""
    return [at for at in range(2, len(data)) if data[at - 2:at] == b"\0\0" and data[at:at + 1] != b"\0"]


def test_a_stream_cut_after_two_nuls_dropped_evennias_link():
    data = stream()
    at = cuts(data)[0]
    protocol, transport, received = link(amp_server.AMPServerProtocol)
    protocol.dataReceived(data[:at])
    protocol.dataReceived(data[at:])
    assert transport.disconnecting                     # taken for HTTP: the link is dropped
    assert transport.value().startswith(b"HTTP/1.1")
    assert len(received) == 1                          # the boxes after the cut are lost


def test_every_box_arrives_wherever_tcp_cuts_the_stream():
    data = stream()
    assert len(cuts(data)) == 2                        # between box 1 and 2, and 2 and 3
    for protocol_class in (PortalAMP, ServerAMP):
        for at in range(1, len(data)):
            protocol, transport, received = link(protocol_class)
            protocol.dataReceived(data[:at])
            protocol.dataReceived(data[at:])
            assert not transport.disconnecting, (protocol_class, at)
            assert [box[b"_ask"] for box in received] == [b"1", b"2", b"3"], (protocol_class, at)


def test_a_stream_read_a_byte_at_a_time_arrives_whole():
    protocol, transport, received = link(PortalAMP)
    for byte in stream(5):
        protocol.dataReceived(bytes([byte]))
    assert not transport.disconnecting
    assert len(received) == 5


def test_a_stray_http_request_is_still_answered_and_closed():
    protocol, transport, received = link(PortalAMP)
    protocol.dataReceived(b"GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
    assert transport.disconnecting
    assert transport.value().startswith(b"HTTP/1.1")
    assert received == []


def test_the_servers_client_factory_builds_the_stream_reading_protocol():
    kept = amp_client.AMPServerClientProtocol
    try:
        use_server_amp()
        server = type("Server", (), {"amp_protocol": None})()
        assert isinstance(amp_client.AMPClientFactory(server).buildProtocol(None), ServerAMP)
    finally:
        amp_client.AMPServerClientProtocol = kept


class _TcpTransport(StringTransport):
    """A fake transport that notes ``setTcpNoDelay`` as a TCP transport takes it."""

    no_delay = None

    def setTcpNoDelay(self, enabled):
        self.no_delay = enabled


def test_both_ends_of_the_link_send_each_write_at_once_not_after_an_ack():
    from unittest import mock

    for protocol_class in (PortalAMP, ServerAMP):
        evennias = protocol_class.__mro__[2]   # after the stream-reading mixin: Evennia's protocol
        with mock.patch.object(evennias, "connectionMade") as made:
            protocol = protocol_class()
            transport = _TcpTransport()
            protocol.makeConnection(transport)
        assert transport.no_delay is True, protocol_class
        made.assert_called_once_with()   # Evennia's own start of the link still runs


def test_no_delay_sets_tcp_nodelay_on_a_real_socket_and_leaves_other_transports():
    import socket

    from twisted.internet import tcp

    from server.conf.amp import no_delay

    listener = socket.create_server(("127.0.0.1", 0))
    client = socket.create_connection(listener.getsockname())
    accepted, _ = listener.accept()
    try:
        assert client.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) == 0   # Nagle on, as Twisted leaves it
        no_delay(tcp.Connection(client, None))
        assert client.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) == 1
        no_delay(StringTransport())   # no TCP socket: nothing to set, no error
    finally:
        for sock in (client, accepted, listener):
            sock.close()


class _Reactor:
    """What a descriptor asks of the reactor to be written later (nothing polls here)."""

    def __init__(self):
        self.writers = set()

    def addWriter(self, writer):
        self.writers.add(writer)

    def removeWriter(self, writer):
        self.writers.discard(writer)


class _Link(abstract.FileDescriptor):
    """The link to the Portal with Twisted's own buffering: a write waits until the reactor
    finds the socket writable (here: ``sent`` is the socket)."""

    def __init__(self):
        super().__init__(reactor=_Reactor())
        self.connected = True
        self.sent: list[bytes] = []

    def writeSomeData(self, data):
        self.sent.append(bytes(data))
        return len(data)


def test_what_a_command_sends_its_typist_leaves_at_once_and_the_rest_waits_for_the_reactor():
    from server.conf.serversession import ServerSession

    link = _Link()
    service = SimpleNamespace(amp_protocol=SimpleNamespace(
        transport=link, send_MsgServer2Portal=lambda session, **kwargs: link.write(f"{session.sessid}:{kwargs['text']};".encode())))
    typist, watcher = ServerSession(), ServerSession()
    for number, session in enumerate((typist, watcher), start=1):
        session.sessid, session.protocol_flags = number, {}
        session.sessionhandler = SimpleNamespace(data_out=lambda session, **kwargs: service.amp_protocol.send_MsgServer2Portal(session, **kwargs))
    with mock.patch.object(evennia, "EVENNIA_SERVER_SERVICE", service):
        with answering(typist):
            watcher.data_out(text="before")
            assert link.sent == [] and link in link.reactor.writers   # for the reactor's next write
            typist.data_out(text="answer")
            assert link.sent == [b"2:before;1:answer;"]               # in order, now
            assert link not in link.reactor.writers
            watcher.data_out(text="copy")
            assert link.sent == [b"2:before;1:answer;"]               # the room's copies wait
        typist.data_out(text="later")                                 # no command running
        assert link.sent == [b"2:before;1:answer;"]
        link.doWrite()                                                # the reactor writes
        assert link.sent == [b"2:before;1:answer;", b"2:copy;1:later;"]
        link.connected = False
        with answering(typist):
            typist.data_out(text="gone")                              # a closed link: nothing
        assert link.sent == [b"2:before;1:answer;", b"2:copy;1:later;"]
