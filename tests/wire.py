"""Raw line clients for end-to-end tests: JSON in, JSON out, over a real loopback socket."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from typing import Any

from setback.server.app import Server
from setback.server.config import ServerConfig


@asynccontextmanager
async def running_server(**settings: Any) -> AsyncIterator[Server]:
    """A server on 127.0.0.1, port 0, stopped afterwards."""
    server = Server(ServerConfig(host="127.0.0.1", port=0, **settings))
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


class RawClient:
    """A peer that speaks the protocol by hand, keeping every message it received."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.received: list[dict[str, Any]] = []
        self.backlog: list[dict[str, Any]] = []
        """Messages passed over by :meth:`expect`, handed out first by :meth:`read`."""

    @classmethod
    async def connect(cls, port: int) -> RawClient:
        reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=2**21)
        return cls(reader, writer)

    async def send(self, **message: Any) -> None:
        self.writer.write(json.dumps(message).encode() + b"\n")
        await self.writer.drain()

    async def send_raw(self, data: bytes) -> None:
        self.writer.write(data)
        await self.writer.drain()

    async def read(self, timeout: float = 10.0) -> dict[str, Any]:
        """The next message: first any that :meth:`expect` passed over, then the wire's."""
        if self.backlog:
            return self.backlog.pop(0)
        return await self._read_wire(timeout)

    async def _read_wire(self, timeout: float) -> dict[str, Any]:
        line = await asyncio.wait_for(self.reader.readline(), timeout)
        if not line.endswith(b"\n"):  # the end, or a server killed in the middle of a line
            raise ConnectionError("closed by the server")
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

    async def hello(self, name: str, kind: str = "bot", **extra: Any) -> dict[str, Any]:
        await self.send(type="hello", version="1.0", name=name, kind=kind, **extra)
        return await self.expect("welcome")

    async def closed(self, timeout: float = 10.0) -> bool:
        """Whether the server closes the connection (reading to the end). A server that closes
        while lines it has not read are still coming resets the connection: closed too."""
        async with asyncio.timeout(timeout):
            while True:
                try:
                    line = await self.reader.readline()
                except ConnectionResetError:
                    line = b""
                if not line:
                    await self.close()
                    return True
                self.received.append(json.loads(line))

    async def close(self) -> None:
        self.writer.close()
        with suppress(ConnectionError, OSError):
            await self.writer.wait_closed()


async def play_until_over(client: RawClient, choose: str = "first") -> dict[str, Any]:
    """Answer every decide with a legal action until the game_won event; return it."""
    while True:
        message = await client.read(30)
        if message["type"] == "decide":
            legal = message["view"]["legal"]
            action = legal[0] if choose == "first" else legal[-1]
            await client.send(type="act", request=message["request"], action=action)
        elif message["type"] == "event" and message["event"]["kind"] == "game_won":
            return message
