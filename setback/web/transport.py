"""The WebSocket transport: a shell that frames messages for the server's Connection.

Each text message a peer sends is handed to the connection as one message, exactly as a
line; each line the connection writes goes out as one text frame (without its newline).
The limits, errors, rate limits, timeouts and heartbeats are the connection's own, so
they are the same as over TCP (spec.md, "WebSocket transport").

The HTTP request, the upgrade, the framing and the closing handshake are the ``websockets``
package's Sans-I/O protocol (h11's lesson: a state machine that turns bytes into events and
events into bytes); :class:`WebPeer` only moves bytes between it and the socket, so a frame
is read and answered in the same turn of the loop as a line (past :data:`FEED_BYTES` handed
over at once, the rest in the turns after, every other peer served in between).

The common frame, a whole masked text frame (a message) from the peer and a whole unmasked
one to it, is read and written here (the lean path, :meth:`WebPeer._receive`; a read that is
just one such frame under 126 bytes, as a bot's act comes, and a write of one line, the
common ones, take a shorter way still, to the same effect): every other
frame (control frames, fragments, a frame the socket handed over in parts, anything
malformed or too long) goes to ``websockets``, fed whole frames from a frame's start, so
that its parser stands at a frame's start whenever a frame is read here; once it is no
longer open (a close, an error) every byte goes to it.
"""

from __future__ import annotations

import asyncio
import http
import struct
from collections.abc import Iterable
from typing import Any, Final, cast

import structlog
from websockets.frames import CloseCode, Frame, Opcode
from websockets.http11 import Request, Response
from websockets.protocol import State
from websockets.server import ServerProtocol
from websockets.typing import StatusLike

from setback.server.app import Server

try:
    from websockets.speedups import apply_mask  # (C, as websockets' own parser uses when it can)
except ImportError:  # pragma: no cover  (an install of websockets without its C extension)
    from websockets.utils import apply_mask
from setback.server.connection import Connection, bound_send_buffer
from setback.web.records import Records
from setback.web.site import Site, own_hosts, plain

log = structlog.get_logger("setback.web")

FRAME_LIMIT_FACTOR = 4
"""A message up to this many times ``max_line_bytes`` is read whole and answered like an
overlong line (``line_too_long``, fatal); the WebSocket layer refuses a longer one before
reading it (close code 1009), so that no peer can make the server hold much."""

MAX_FRAGMENTS = 128
"""The most frames one message may come in (empty ones too); past it, close code 1009."""

MAX_REQUEST_BYTES = 16 * 1024
"""The most an HTTP request's line and headers may take; past it, 431 and the socket closes."""

FEED_BYTES = 16 * 1024
"""What is parsed of a peer's bytes in one turn of the loop: the rest of what the socket
handed over waits for the next turns, with the socket's reading paused, so that a peer
flooding frames (pings, fragments) delays the others by no more than this each turn; and a
peer the server must close is closed before it has made it parse much more."""

REQUEST_TIMEOUT = 10.0
"""Seconds a peer has to send its HTTP request (the hello's timeout starts after the upgrade);
an answer other than the upgrade must be read within as long."""

CLOSE_TIMEOUT = 2.0
"""Seconds the closing handshake may take before the socket is simply dropped."""

PONG = 0x8A
"""The first byte of a pong frame the server sends (FIN, opcode 0xA; unmasked)."""

TEXT = 0x81
"""The first byte of a whole text frame (FIN, no RSV bits, opcode 1): the frame the lean path
reads (masked, from a peer) and writes (unmasked, to one)."""


class PageProtocol(ServerProtocol):
    """``websockets``' server side, whose own refusals (400, 414, 426, 431) carry every header
    the page's answers do."""

    def reject(self, status: StatusLike, text: str) -> Response:
        return plain(http.HTTPStatus(status), text)


class WebPeer(asyncio.Protocol):
    """One peer of the browser table's port: an HTTP request for a file, or a WebSocket whose
    messages go to a :class:`Connection`. To that connection it is the transport it writes to.

    Until its request is answered it is one of the server's connections too (``opening``): it
    counts against ``max_connections``, and what it sent against the server's budget."""

    def __init__(self, server: Server, site: Site, lean: bool = True) -> None:
        self.server = server
        self.site = site
        limit = FRAME_LIMIT_FACTOR * server.config.max_line_bytes
        self.protocol = PageProtocol(max_size=limit)
        self.transport: asyncio.Transport | None = None
        self.connection: Connection | None = None
        self.held = 0
        """What this peer makes the server hold before its upgrade, as last counted."""
        self._head: bytearray | None = bytearray()
        """The request read so far, until its headers end (None: it has been answered)."""
        self._message = bytearray()
        self._pieces = 0
        """The frames of the message in :attr:`_message` so far."""
        self._fragmented: Opcode | None = None
        self._paused = False
        self._pong: bytes | None = None
        """The pong answering the latest ping while the peer does not read (RFC 6455 lets the
        latest ping alone be answered), written once it reads again."""
        self._timer: asyncio.TimerHandle | None = None
        self._unparsed = b""
        """What the socket handed over and is not parsed yet (reading is paused meanwhile)."""
        self._parsed_to = 0
        self._max_size = limit
        self.lean = lean
        """Whether whole text frames are read and written here (False: by ``websockets``, every
        frame; it becomes False once the protocol is no longer open)."""
        self._owed = 0
        """The bytes ``websockets`` still needs to end the frame it holds the start of."""
        self._cut = b""
        """The start of a frame's header, cut short where the socket's read ended (under 14 bytes)."""
        self._closing = False
        """The server has begun the closing handshake (or failed the WebSocket): what the peer
        sent after is not read. (What it sent before an error or a close of its own is read.)"""

    # -- the socket --------------------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)
        bound_send_buffer(transport, self.server.config.socket_send_buffer)
        if not self.server.admit_opening(self):
            self._head = None
            full = f"the server holds its maximum of {self.server.config.max_connections} connections\n"
            self.transport.write(plain(http.HTTPStatus.SERVICE_UNAVAILABLE, full).serialize())
            self.transport.close()
            return
        self._timer = asyncio.get_running_loop().call_later(REQUEST_TIMEOUT, self._timed_out)

    def data_received(self, data: bytes) -> None:
        connection = self.connection
        if (  # the common read: one whole masked text frame under 126 bytes, as bots send an act
            connection is not None and 6 <= len(data) <= 131 and data[0] == TEXT and data[1] == 0x80 | (len(data) - 6)
            and self.lean and not self._unparsed and not self._cut and not self._owed and not self._message
            and not connection.input_held and len(data) - 6 <= self._max_size
            and self.protocol.current_size is None and self.protocol.state is State.OPEN
        ):
            transport = self.transport
            if transport is not None and not transport.is_closing():
                message = apply_mask(data[6:], data[2:6])
                if message.isascii():  # (as :meth:`_message_read` reads it)
                    connection.message_received(message)
                else:
                    self._message_read(Opcode.TEXT, message)
                self.lean = self.protocol.state is State.OPEN  # (no longer open: every byte to ``websockets``)
            return
        head = self._head
        if head is not None:  # the request: read whole (up to its limit) before it is parsed
            head += data
            end = head.find(b"\r\n\r\n", max(0, len(head) - len(data) - 3))
            if end < 0 and len(head) <= MAX_REQUEST_BYTES:
                self.server.hold(self, self.holding())
                return
            self._head = None
            if end < 0 or end + 4 > MAX_REQUEST_BYTES:
                self._refuse(http.HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE,
                             f"a request's line and headers are at most {MAX_REQUEST_BYTES} bytes\n")
                return
            self.protocol.receive_data(bytes(head[: end + 4]))
            self._events()
            if self.connection is None:  # answered (anything after the request is not read)
                return
            data = bytes(head[end + 4 :])
        elif self.connection is None:
            return
        if self._unparsed:  # (handed over before the pause took effect) parsed after what waits
            self._unparsed += data
            return
        self._unparsed, self._parsed_to = data, 0
        self._parse()

    def _parse(self) -> None:
        """Parse :data:`FEED_BYTES` of what waits; while more waits, the socket's reading is
        paused and the rest is parsed in later turns of the loop, the other peers served between."""
        transport, data, start = self.transport, self._unparsed, self._parsed_to
        if transport is None or transport.is_closing():
            self._unparsed = b""
        else:
            whole = start == 0 and len(data) <= FEED_BYTES  # (then it is parsed uncopied)
            self._receive(data if whole else data[start : start + FEED_BYTES])
            self._parsed_to = start + FEED_BYTES
            if self._parsed_to >= len(self._unparsed) or transport.is_closing():
                self._unparsed = b""
        if self._unparsed:
            if transport is not None and start == 0:
                transport.pause_reading()
            asyncio.get_running_loop().call_soon(self._parse)
        elif start and transport is not None and not transport.is_closing():
            transport.resume_reading()
        self._count_input()

    def eof_received(self) -> bool | None:
        if self._head is not None:
            self._head = None
            self.abort()
            return None
        if self._cut:
            self.protocol.receive_data(self._cut)
            self._cut = b""
        self.protocol.receive_eof()
        self._events()
        return None

    def connection_lost(self, exc: Exception | None) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self.server.release_opening(self)
        if self.connection is not None:
            self.connection.connection_lost(exc)

    def pause_writing(self) -> None:
        self._paused = True
        if self.connection is not None:
            self.connection.pause_writing()

    def resume_writing(self) -> None:
        self._paused = False
        if self._pong is not None and self.transport is not None and not self.transport.is_closing():
            self.transport.write(self._pong)
            self._pong = None
        if self.connection is not None:
            self.connection.resume_writing()

    def _receive(self, data: bytes) -> None:
        """Parse ``data``, the next of the peer's bytes, a frame at a time and in order: a whole
        masked text frame here (unless ``websockets`` holds a message in fragments), any other
        frame by ``websockets``, handed it whole; a frame cut short goes to it as far as it came,
        and it is owed the rest. Once the WebSocket is no longer open, every byte goes to it."""
        protocol = self.protocol
        if not self.lean:
            protocol.receive_data(data)
            self._events()
            return
        if self._cut:
            data, self._cut = self._cut + data, b""
        end = len(data)
        at = min(self._owed, end)
        self._owed -= at
        opened = self._feed(data[:at]) if at else True
        view = memoryview(data)
        while opened and end - at >= 2:
            second = data[at + 1]
            length, head = second & 0x7F, 2
            if length >= 126:
                head += 2 if length == 126 else 8
                if end - at < head:
                    break
                length = int.from_bytes(data[at + 2 : at + head], "big")
            if second & 0x80:
                head += 4
            size = head + length
            if size > end - at:
                self._owed = size - (end - at)
                opened, at = self._feed(data[at:]), end
            elif data[at] == TEXT and second & 0x80 and length <= self._max_size and protocol.current_size is None:
                mask = data[at + head - 4 : at + head]
                self._message_read(Opcode.TEXT, apply_mask(view[at + head : at + size], mask))
                opened, at = protocol.state is State.OPEN, at + size
            else:
                opened, at = self._feed(data[at : at + size]), at + size
        if not opened:
            self.lean = False
            if at < end:
                self._feed(data[at:])
        elif at < end:
            self._cut = data[at:]

    def _feed(self, data: bytes) -> bool:
        """Hand ``data`` (frames from a frame's start) to ``websockets`` and answer what it read;
        whether the WebSocket is still open."""
        self.protocol.receive_data(data)
        self._events()
        return self.protocol.state is State.OPEN

    def _events(self) -> None:
        for event in self.protocol.events_received():
            if isinstance(event, Request):
                self._request(event)
            elif isinstance(event, Frame):
                self._frame(event)
        self._send()

    def _send(self) -> None:
        """Write what the protocol has to say (to a peer that does not read, only the latest
        pong); close the socket once it expects that. It counts as the peer's, as all output does."""
        transport = self.transport
        if transport is None or transport.is_closing():
            return
        for data in self.protocol.data_to_send():
            if data and data[0] == PONG and (self._paused or self._pong is not None):
                self._pong = data
            elif data:
                transport.write(data)
            elif transport.can_write_eof() and self.connection is not None:
                transport.write_eof()
            else:  # an answer that is no upgrade, or TLS (which cannot half-close): close once written
                transport.close()
                break
        if self.protocol.close_expected() and self._timer is None:
            self._timer = asyncio.get_running_loop().call_later(CLOSE_TIMEOUT, self.abort)
        if self.protocol.state is State.CLOSED:
            transport.close()
        self._count_output()

    def _count_output(self) -> None:
        if self.connection is not None:
            self.connection.account()
        elif self in self.server.opening:
            self.server.hold(self, self.holding())

    def _count_input(self) -> None:
        """What the peer sent that is not read whole yet (a frame in parts, a message in
        fragments) counts as its connection's, as output does."""
        connection = self.connection
        if connection is None:
            return
        buffer = self.protocol.reader.buffer
        held = (buffer.__alloc__() if buffer else 0) + (self._message.__alloc__() if self._message else 0)
        held += len(self._unparsed) + len(self._cut)
        if held or connection.input_held:
            connection.input_held = held
            connection.account()

    def _timed_out(self) -> None:
        """No whole request within :data:`REQUEST_TIMEOUT` (or its answer not read): dropped."""
        log.info("request_timeout", peer=self.get_extra_info("peername"), unread=self.held)
        self.abort()

    def _refuse(self, status: http.HTTPStatus, text: str) -> None:
        """Answer the request unread and close (once the answer is written), with a log line."""
        log.info("request_refused", peer=self.get_extra_info("peername"), status=status.value)
        self.protocol.send_response(self.protocol.reject(status, text))
        self._send()

    def _request(self, request: Request) -> None:
        response = self.site.answer(request)
        if response is None:
            response = self.protocol.accept(request)
        self.protocol.send_response(response)
        if response.status_code == 101:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            self.server.release_opening(self)
            self.connection = Connection(self.server)
            self.connection.connection_made(self)  # type: ignore[arg-type]  # the part of a transport it uses
            if self._paused:
                self.connection.pause_writing()

    def _frame(self, frame: Frame) -> None:
        """A frame of the peer's: a whole message goes to the connection (in fragments, at most
        :data:`MAX_FRAGMENTS`; a text one must be UTF-8, else close code 1007, RFC 6455 8.1);
        a ping or pong pays the rate limit (the protocol answers pings, and closes)."""
        connection = self.connection
        opcode = frame.opcode
        if connection is None or self._closing:
            return
        if opcode is Opcode.PING or opcode is Opcode.PONG:
            connection.control_received()
            return
        if opcode is not Opcode.TEXT and opcode is not Opcode.BINARY and opcode is not Opcode.CONT:
            return
        if opcode is not Opcode.CONT:
            self._fragmented = opcode
        if not frame.fin:
            self._pieces += 1
            if self._pieces >= MAX_FRAGMENTS:
                log.info("closed", peer=connection.address, code="too_many_fragments")
                self._fail(CloseCode.MESSAGE_TOO_BIG, f"a message is at most {MAX_FRAGMENTS} frames")
                return
            self._message += frame.data
            return
        if self._message:
            self._message += frame.data
            message = bytes(self._message)
            self._message = bytearray()
        else:
            message = bytes(frame.data)
        self._pieces = 0
        self._message_read(self._fragmented, message)

    def _message_read(self, opcode: Opcode | None, message: bytes) -> None:
        """A whole message of the peer's (``opcode``: of its first frame) to the connection; a text
        one must be UTF-8, else the WebSocket fails with close code 1007 (RFC 6455 8.1)."""
        connection = self.connection
        assert connection is not None, "only an upgraded peer sends messages"
        if opcode is Opcode.TEXT:
            if not message.isascii():
                try:
                    message.decode()
                except UnicodeDecodeError:
                    log.info("closed", peer=connection.address, code="not_utf8")
                    self._fail(CloseCode.INVALID_DATA, "a text message is UTF-8")
                    self._send()
                    return
            connection.message_received(message)
        else:
            connection.binary_received()

    # -- the transport the connection writes to ---------------------------------------------------

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return self.transport.get_extra_info(name, default) if self.transport is not None else default

    def write(self, data: bytes) -> None:
        size = len(data) - 1
        transport = self.transport
        if (  # the common write: one line, framed here
            0 <= size < 1 << 16 and data.find(b"\n") == size and self.lean and self.protocol.state is State.OPEN
            and not self.protocol.writes and transport is not None and not transport.is_closing()
        ):
            header = _SHORT_HEADERS[size] if size < 126 else _MEDIUM_HEADER.pack(TEXT, 126, size)
            transport.write(b"".join((header, memoryview(data)[:size])))
            return
        self.writelines((data,))

    def writelines(self, lines: Iterable[bytes]) -> None:
        """Each line (one message, ending with its newline) as a text frame of its own, written
        to the socket as one buffer (framed here on the lean path, else by ``websockets``)."""
        protocol, transport = self.protocol, self.transport
        if protocol.state is not State.OPEN:
            return
        if self.lean and not protocol.writes:
            if transport is not None and not transport.is_closing():
                transport.write(b"".join(_text_frames(lines)))
            return
        for line in lines:
            for start, end in _line_spans(line):
                protocol.send_text(memoryview(line)[start:end])
        if transport is not None and not transport.is_closing():
            transport.write(b"".join(protocol.data_to_send()))

    def get_write_buffer_size(self) -> int:
        """What the socket holds unwritten, the latest pong waiting included."""
        waiting = len(self._pong) if self._pong is not None else 0
        return waiting + (self.transport.get_write_buffer_size() if self.transport is not None else 0)

    def is_closing(self) -> bool:
        return self.transport is None or self.transport.is_closing() or self.protocol.state is not State.OPEN

    def close(self) -> None:
        """Close the WebSocket (after what was written): the peer's answer closes the socket."""
        if self.protocol.state is State.OPEN:
            self._closing = True
            self.protocol.send_close(1000)
        self._send()

    def _fail(self, code: CloseCode, reason: str) -> None:
        """Fail the WebSocket for what the peer sent (RFC 6455 7.1.7): closed with ``code``."""
        self._closing = True
        self.protocol.fail(code, reason)

    def abort(self) -> None:
        if self.transport is not None:
            self.transport.abort()

    # -- what the server counts of it before its upgrade -------------------------------------------

    def holding(self) -> int:
        """The request read so far and the answer not yet read, in bytes."""
        head = self._head.__alloc__() if self._head else 0
        return head + (self.transport.get_write_buffer_size() if self.transport is not None else 0)

    def drop_as_dead(self, why: str) -> None:
        log.warning(why, peer=self.get_extra_info("peername"), unread=self.held)
        self._head = None
        self.server.release_opening(self)
        self.abort()


_SHORT_HEADERS: Final = tuple(bytes((TEXT, size)) for size in range(126))
"""The header of an unmasked text frame of each length under 126 bytes."""

_MEDIUM_HEADER: Final = struct.Struct("!BBH")
"""The header of an unmasked text frame of 126 bytes up to 64 KB: the first byte, 126, the length."""


def _text_frames(lines: Iterable[bytes]) -> list[bytes | memoryview]:
    """Each line of ``lines`` as an unmasked text frame: its header, then the line without its
    newline (the pieces, to be joined)."""
    pieces: list[bytes | memoryview] = []
    for line in lines:
        for start, end in _line_spans(line):
            size = end - start
            if size < 126:
                pieces.append(_SHORT_HEADERS[size])
            elif size < 1 << 16:
                pieces.append(_MEDIUM_HEADER.pack(TEXT, 126, size))
            else:
                pieces.append(bytes((TEXT, 127)) + size.to_bytes(8, "big"))
            pieces.append(memoryview(line)[start:end])
    return pieces


def _line_spans(line: bytes) -> list[tuple[int, int]]:
    """Where each line of ``line`` (one, as the server writes them, or more) starts and ends,
    without its newline."""
    if line.find(b"\n") == len(line) - 1:
        return [(0, len(line) - 1)]
    spans, start = [], 0
    while (end := line.find(b"\n", start)) >= 0:
        spans.append((start, end))
        start = end + 1
    if start < len(line):
        spans.append((start, len(line)))
    return spans


class WebListener:
    """The browser table's listener: the page's files over HTTP, the protocol over a
    WebSocket at :data:`~setback.web.site.SOCKET_PATH`, on one port (TLS too when the server
    has a certificate). A :class:`~setback.server.app.Listener` of the server it feeds."""

    def __init__(self, server: Server, site: Site, listener: asyncio.Server) -> None:
        self.server = server
        self.site = site
        self._listener = listener

    @classmethod
    async def start(cls, server: Server, host: str, port: int) -> WebListener:
        """Listen on ``host``:``port`` (0: a free port) for ``server``, which closes it when it stops."""
        tls = server.config.tls_context()
        site = Site(tls=tls is not None, hosts=own_hosts(host, server.config.name), records=Records(server.store))
        listener = await asyncio.get_running_loop().create_server(
            lambda: WebPeer(server, site), host, port, ssl=tls, reuse_address=True,
        )
        web = cls(server, site, listener)
        site.port = web.port
        server.add_listener(web)
        log.info("web_listening", host=host, port=web.port, tls=tls is not None, page_bytes=site.size)
        return web

    @property
    def port(self) -> int:
        """The port listened on (useful with port 0)."""
        return int(self._listener.sockets[0].getsockname()[1])

    def close(self) -> None:
        self._listener.close()

    async def wait_closed(self) -> None:
        await self._listener.wait_closed()
