"""Raw clients for end-to-end tests: JSON in, JSON out, over a real loopback socket, TCP or
WebSocket (one message a text frame), with the same methods either way."""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass
from typing import Any, Self

import websockets
from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed

from setback.server.app import Server
from setback.server.config import ServerConfig
from setback.server.timesource import TimeSource
from setback.web import SOCKET_PATH, WebListener

TRANSPORTS = ("tcp", "ws")

_web_ports: dict[int, int] = {}
"""The browser table's port of each running test server that serves one, by the server's id."""


@asynccontextmanager
async def running_server(time: TimeSource | None = None, /, **settings: Any) -> AsyncIterator[Server]:
    """A server on 127.0.0.1, port 0, stopped afterwards, its tables on ``time`` (a test's
    ``clocks.ManualClock``) or the loop's. Its bots do not wait for people to see their moves
    (``bot_pace`` 0) unless ``settings`` say so."""
    settings.setdefault("bot_pace", 0.0)
    server = Server(ServerConfig(host="127.0.0.1", port=0, **settings), time)
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


@asynccontextmanager
async def running_web_server(**settings: Any) -> AsyncIterator[Server]:
    """:func:`running_server` serving the browser table too, on a port :func:`web_port` tells."""
    async with running_server(**settings) as server:
        _web_ports[id(server)] = (await WebListener.start(server, "127.0.0.1", 0)).port
        try:
            yield server
        finally:
            _web_ports.pop(id(server), None)


def web_port(server: Server) -> int:
    """The port of the browser table of a server started by :func:`running_web_server`."""
    return _web_ports[id(server)]


async def small_window(port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """Streams to ``port`` on a socket whose receive buffer is small (4 KiB): a peer that stops
    reading soon fills its side of the connection, and what the server sends it then waits
    on the server (a peer's real socket lets several megabytes through first)."""
    probe = socket.socket()
    probe.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    probe.setblocking(False)
    await asyncio.get_running_loop().sock_connect(probe, ("127.0.0.1", port))
    return await asyncio.open_connection(sock=probe, limit=2**22)


class Client:
    """A peer that speaks the protocol by hand, keeping every message it received."""

    def __init__(self) -> None:
        self.received: list[dict[str, Any]] = []
        self.backlog: list[dict[str, Any]] = []
        """Messages passed over by :meth:`expect`, handed out first by :meth:`read`."""

    async def send(self, **message: Any) -> None:
        await self.send_raw(json.dumps(message).encode() + b"\n")

    async def send_raw(self, data: bytes) -> None:
        """Send ``data``: bytes on the stream, or over a WebSocket a frame for each line."""
        raise NotImplementedError

    async def _next_message(self) -> bytes:
        """The next message's bytes; ConnectionError once the server has closed."""
        raise NotImplementedError

    async def read(self, timeout: float = 10.0) -> dict[str, Any]:
        """The next message: first any that :meth:`expect` passed over, then the wire's."""
        if self.backlog:
            return self.backlog.pop(0)
        return await self._read_wire(timeout)

    async def _read_wire(self, timeout: float) -> dict[str, Any]:
        line = await asyncio.wait_for(self._next_message(), timeout)
        message: dict[str, Any] = json.loads(line)
        self.received.append(message)
        return message

    async def expect(self, type_: str, timeout: float = 10.0, **fields: Any) -> dict[str, Any]:
        """The first message of ``type_`` (with ``fields``), waiting for it; others are kept for later."""

        def matches(message: dict[str, Any]) -> bool:
            return message["type"] == type_ and all(message.get(k) == v for k, v in fields.items())

        for index, message in enumerate(self.backlog):
            if matches(message):
                return self.backlog.pop(index)
        async with asyncio.timeout(timeout):
            while True:
                message = await self._read_wire(timeout)
                if matches(message):
                    return message
                self.backlog.append(message)

    async def hello(self, name: str, kind: str = "bot", version: str = "1.0", **extra: Any) -> dict[str, Any]:
        await self.send(type="hello", version=version, name=name, kind=kind, **extra)
        return await self.expect("welcome")

    async def closed(self, timeout: float = 10.0) -> bool:
        """Whether the server closes the connection (reading to the end). A server that closes
        while lines it has not read are still coming resets the connection: closed too."""
        async with asyncio.timeout(timeout):
            while True:
                try:
                    line = await self._next_message()
                except ConnectionError:
                    await self.close()
                    return True
                self.received.append(json.loads(line))

    async def close(self) -> None:
        raise NotImplementedError


class RawClient(Client):
    """Over TCP: one message a line."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        super().__init__()
        self.reader = reader
        self.writer = writer

    @classmethod
    async def connect(cls, port: int) -> Self:
        reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=2**21)
        return cls(reader, writer)

    async def send_raw(self, data: bytes) -> None:
        self.writer.write(data)
        await self.writer.drain()

    async def _next_message(self) -> bytes:
        try:
            line = await self.reader.readline()
        except ConnectionResetError:
            line = b""
        if not line.endswith(b"\n"):  # the end, or a server killed in the middle of a line
            raise ConnectionError("closed by the server")
        return line

    async def close(self) -> None:
        self.writer.close()
        with suppress(ConnectionError, OSError):
            await self.writer.wait_closed()


class WsClient(Client):
    """Over the browser table's WebSocket: one message a text frame."""

    def __init__(self, websocket: ClientConnection) -> None:
        super().__init__()
        self.websocket = websocket

    @classmethod
    async def connect(cls, port: int, origin: str | None = None) -> WsClient:
        websocket = await websockets.connect(
            f"ws://127.0.0.1:{port}{SOCKET_PATH}", origin=origin,  # type: ignore[arg-type]
            max_size=2**21, compression=None, ping_interval=None,
        )
        return cls(websocket)

    async def send_raw(self, data: bytes) -> None:
        """Each line of ``data`` (its newline dropped) as one text frame, sent as it is."""
        with suppress(ConnectionClosed):
            for line in data.split(b"\n")[:-1] if data.endswith(b"\n") else [data]:
                await self.websocket.send(line, text=True)

    async def send_binary(self, data: bytes) -> None:
        await self.websocket.send(data)

    async def _next_message(self) -> bytes:
        try:
            message = await self.websocket.recv()
        except ConnectionClosed:
            raise ConnectionError("closed by the server") from None
        return message.encode() if isinstance(message, str) else message

    async def close(self) -> None:
        await self.websocket.close()


@dataclass(frozen=True)
class Endpoint:
    """Where a test server listens over one transport."""

    transport: str
    port: int

    async def connect(self) -> Client:
        if self.transport == "ws":
            return await WsClient.connect(self.port)
        return await RawClient.connect(self.port)


@dataclass(frozen=True)
class Net:
    """One transport for a test to run over: servers that speak it, and where to reach them."""

    transport: str

    def serve(self, **settings: Any) -> Any:
        """A running server, serving the browser table too when the transport is the WebSocket."""
        return running_web_server(**settings) if self.transport == "ws" else running_server(**settings)

    def at(self, server: Server) -> Endpoint:
        return Endpoint(self.transport, web_port(server) if self.transport == "ws" else server.port)


async def play_until_over(client: Client, choose: str = "first") -> dict[str, Any]:
    """Answer every decide with a legal action until the game_won event; return it."""
    while True:
        message = await client.read(30)
        if message["type"] == "decide":
            legal = message["view"]["legal"]
            action = legal[0] if choose == "first" else legal[-1]
            await client.send(type="act", request=message["request"], action=action)
        elif message["type"] == "event" and message["event"]["kind"] == "game_won":
            return message
