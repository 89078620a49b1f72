"""The WebSocket transport: a shell that frames messages for the server's Connection.

Each text message a peer sends is handed to the connection as one message, exactly as a
line; each line the connection writes goes out as one text frame (without its newline).
The limits, errors, rate limits, timeouts and heartbeats are the connection's own, so
they are the same as over TCP (spec.md, "WebSocket transport").

The HTTP request, the upgrade, the framing and the closing handshake are the ``websockets``
package's Sans-I/O protocol (h11's lesson: a state machine that turns bytes into events and
events into bytes); :class:`WebPeer` only moves bytes between it and the socket, so a frame
is read and answered in the same turn of the loop as a line.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from typing import Any, cast

import structlog
from websockets.frames import Frame, Opcode
from websockets.http11 import Request
from websockets.protocol import State
from websockets.server import ServerProtocol

from setback.server.app import Server
from setback.server.connection import Connection
from setback.web.records import Records
from setback.web.site import Site

log = structlog.get_logger("setback.web")

FRAME_LIMIT_FACTOR = 4
"""A message up to this many times ``max_line_bytes`` is read whole and answered like an
overlong line (``line_too_long``, fatal); the WebSocket layer refuses a longer one before
reading it (close code 1009), so that no peer can make the server hold much."""

REQUEST_TIMEOUT = 10.0
"""Seconds a peer has to send its HTTP request (the hello's timeout starts after the upgrade)."""

CLOSE_TIMEOUT = 2.0
"""Seconds the closing handshake may take before the socket is simply dropped."""


class WebPeer(asyncio.Protocol):
    """One peer of the browser table's port: an HTTP request for a file, or a WebSocket whose
    messages go to a :class:`Connection`. To that connection it is the transport it writes to."""

    def __init__(self, server: Server, site: Site) -> None:
        self.server = server
        self.site = site
        limit = FRAME_LIMIT_FACTOR * server.config.max_line_bytes
        self.protocol = ServerProtocol(max_size=limit)
        self.transport: asyncio.Transport | None = None
        self.connection: Connection | None = None
        self._fragments: list[bytes] = []
        self._fragmented: Opcode | None = None
        self._timer: asyncio.TimerHandle | None = None

    # -- the socket --------------------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)
        self._timer = asyncio.get_running_loop().call_later(REQUEST_TIMEOUT, self.abort)

    def data_received(self, data: bytes) -> None:
        self.protocol.receive_data(data)
        self._events()

    def eof_received(self) -> bool | None:
        self.protocol.receive_eof()
        self._events()
        return None

    def connection_lost(self, exc: Exception | None) -> None:
        if self._timer is not None:
            self._timer.cancel()
        if self.connection is not None:
            self.connection.connection_lost(exc)

    def _events(self) -> None:
        for event in self.protocol.events_received():
            if isinstance(event, Request):
                self._request(event)
            elif isinstance(event, Frame):
                self._frame(event)
        self._send()

    def _send(self) -> None:
        """Write what the protocol has to say; close the socket once it expects that."""
        transport = self.transport
        if transport is None or transport.is_closing():
            return
        for data in self.protocol.data_to_send():
            if data:
                transport.write(data)
            elif transport.can_write_eof():
                transport.write_eof()
            else:  # (TLS cannot half-close: close once what was written is sent)
                transport.close()
                return
        if self.protocol.close_expected() and self._timer is None:
            self._timer = asyncio.get_running_loop().call_later(CLOSE_TIMEOUT, self.abort)
        if self.protocol.state is State.CLOSED:
            transport.close()

    def _request(self, request: Request) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        response = self.site.answer(request)
        if response is None:
            response = self.protocol.accept(request)
        self.protocol.send_response(response)
        if response.status_code == 101:
            self.connection = Connection(self.server)
            self.connection.connection_made(self)  # type: ignore[arg-type]  # the part of a transport it uses

    def _frame(self, frame: Frame) -> None:
        """A data frame: a whole message to the connection (pings, pongs and closes are the
        protocol's own)."""
        connection = self.connection
        if connection is None or frame.opcode not in (Opcode.TEXT, Opcode.BINARY, Opcode.CONT):
            return
        if frame.opcode is not Opcode.CONT:
            self._fragmented = frame.opcode
        if not frame.fin:
            self._fragments.append(bytes(frame.data))
            return
        message = b"".join([*self._fragments, frame.data]) if self._fragments else bytes(frame.data)
        self._fragments.clear()
        if self._fragmented is Opcode.TEXT:
            connection.message_received(message)
        else:
            connection.binary_received()

    # -- the transport the connection writes to ---------------------------------------------------

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return self.transport.get_extra_info(name, default) if self.transport is not None else default

    def write(self, data: bytes) -> None:
        self.writelines([data])

    def writelines(self, lines: Iterable[bytes]) -> None:
        """Each line (one message, ending with its newline) as a text frame of its own."""
        protocol = self.protocol
        if protocol.state is not State.OPEN:
            return
        for line in lines:
            for start, end in _line_spans(line):
                protocol.send_text(memoryview(line)[start:end])
        if self.transport is not None and not self.transport.is_closing():
            self.transport.writelines(protocol.data_to_send())

    def get_write_buffer_size(self) -> int:
        return self.transport.get_write_buffer_size() if self.transport is not None else 0

    def is_closing(self) -> bool:
        return self.transport is None or self.transport.is_closing() or self.protocol.state is not State.OPEN

    def close(self) -> None:
        """Close the WebSocket (after what was written): the peer's answer closes the socket."""
        if self.protocol.state is State.OPEN:
            self.protocol.send_close(1000)
        self._send()

    def abort(self) -> None:
        if self.transport is not None:
            self.transport.abort()


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
        site = Site(tls=tls is not None, records=Records(server.store))
        listener = await asyncio.get_running_loop().create_server(
            lambda: WebPeer(server, site), host, port, ssl=tls, reuse_address=True,
        )
        web = cls(server, site, listener)
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
