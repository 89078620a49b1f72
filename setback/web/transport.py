"""The WebSocket transport: a shell that frames messages for the server's Connection.

Each text frame a peer sends is handed to the connection as one message, exactly as a
line; each line the connection writes goes out as one text frame (without its newline).
The limits, errors, rate limits, timeouts and heartbeats are the connection's own, so
they are the same as over TCP (spec.md, "WebSocket transport").
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import Iterable
from typing import Any

import structlog
from websockets.asyncio.server import Server as WebSocketServer
from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from setback.server.app import Server
from setback.server.connection import Connection
from setback.web.site import Site

log = structlog.get_logger("setback.web")

FRAME_LIMIT_FACTOR = 4
"""A frame up to this many times ``max_line_bytes`` is read whole and answered like an
overlong line (``line_too_long``, fatal); the WebSocket layer refuses a longer one before
reading it (close code 1009), so that no peer can make the server hold much."""

CLOSE_TIMEOUT = 2.0
"""Seconds the closing handshake may take before the socket is simply dropped."""


class FrameTransport:
    """What a :class:`Connection` writes to for one WebSocket: the few methods of an asyncio
    transport it uses. Lines are queued and sent in order, one text frame each, by one task;
    what is queued counts as the transport's write buffer, so a page that stops reading is
    dropped past the same limit as a TCP peer."""

    def __init__(self, websocket: ServerConnection) -> None:
        self._websocket = websocket
        self._frames: deque[memoryview] = deque()
        self._queued = 0
        self._wake = asyncio.Event()
        self._closing = False
        self._writer = asyncio.ensure_future(self._write())

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return self._websocket.remote_address if name == "peername" else default

    def write(self, data: bytes) -> None:
        self.writelines([data])

    def writelines(self, lines: Iterable[bytes]) -> None:
        """Queue each line (one message, ending with its newline) as a frame."""
        for line in lines:
            for end in _line_ends(line):
                self._frames.append(memoryview(line)[end[0]:end[1]])
                self._queued += end[1] - end[0]
        self._wake.set()

    def get_write_buffer_size(self) -> int:
        return self._queued + self._websocket.transport.get_write_buffer_size()

    def is_closing(self) -> bool:
        return self._closing

    def close(self) -> None:
        """Send what is queued, then close the socket."""
        self._closing = True
        self._wake.set()

    def abort(self) -> None:
        """Drop the socket now, unsent frames and all."""
        self._closing = True
        self._frames.clear()
        self._queued = 0
        self._writer.cancel()
        self._websocket.transport.abort()

    async def _write(self) -> None:
        websocket, frames = self._websocket, self._frames
        with contextlib.suppress(ConnectionClosed):
            while True:
                while frames:
                    frame = frames.popleft()
                    self._queued -= len(frame)
                    await websocket.send(frame, text=True)
                if self._closing:
                    await websocket.close()
                    return
                self._wake.clear()
                await self._wake.wait()

    async def finished(self) -> None:
        """Wait until everything queued before a close is sent (or the socket is gone)."""
        if not self._closing:
            self._writer.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._writer


def _line_ends(line: bytes) -> list[tuple[int, int]]:
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

    def __init__(self, server: Server, site: Site) -> None:
        self.server = server
        self.site = site
        self._websockets: WebSocketServer | None = None

    @classmethod
    async def start(cls, server: Server, host: str, port: int) -> WebListener:
        """Listen on ``host``:``port`` (0: a free port) for ``server``, which closes it when it stops."""
        config = server.config
        tls = config.tls_context()
        listener = cls(server, Site(tls=tls is not None))
        listener._websockets = await serve(
            listener._play, host, port, ssl=tls, process_request=listener._answer, compression=None,
            max_size=FRAME_LIMIT_FACTOR * config.max_line_bytes, ping_interval=None, close_timeout=CLOSE_TIMEOUT,
            server_header=None, reuse_address=True,
        )
        server.add_listener(listener)
        log.info("web_listening", host=host, port=listener.port, tls=tls is not None, page_bytes=listener.site.size)
        return listener

    @property
    def port(self) -> int:
        """The port listened on (useful with port 0)."""
        assert self._websockets is not None
        return int(next(iter(self._websockets.sockets)).getsockname()[1])

    def close(self) -> None:
        if self._websockets is not None:
            self._websockets.close(close_connections=False)  # the server says goodbye to each first

    async def wait_closed(self) -> None:
        if self._websockets is not None:
            await self._websockets.wait_closed()

    def _answer(self, _: ServerConnection, request: Request) -> Response | None:
        return self.site.answer(request)

    async def _play(self, websocket: ServerConnection) -> None:
        """One peer: every frame to its connection until either side closes."""
        transport = FrameTransport(websocket)
        connection = Connection(self.server)
        connection.connection_made(transport)  # type: ignore[arg-type]  # the part of a transport it uses
        try:
            async for message in websocket:
                if isinstance(message, str):
                    connection.message_received(message.encode())
                else:
                    connection.binary_received()
        except ConnectionClosed:
            pass
        finally:
            connection.connection_lost(None)
            await transport.finished()
