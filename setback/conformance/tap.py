"""A relay between the bot under test and the server that hears every line and may meddle.

The bot connects to the :class:`Tap`; the tap connects on to the server and passes each
line along, keeping a :class:`Heard` of it. A :class:`Meddler` sees every message first and
may send its own (a ``ping`` to the bot, an ``error``, a ``resync`` to the server), hold one
back, or cut the connection: that is how the checks put a bot in the situations spec.md
describes without changing the server.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from setback.protocol import MAX_SERVER_LINE_BYTES

Sender = Literal["bot", "server", "tap"]
"""Who wrote a line: the bot, the server, or the tap itself (``tap`` lines go to the bot
unless :attr:`Heard.to_server`)."""


@dataclass(frozen=True)
class Heard:
    """One line that crossed the tap."""

    at: float
    """``time.monotonic()`` when it crossed."""
    sender: Sender
    connection: int
    """The bot's connection it belongs to, numbered from 1 in the order they came."""
    message: dict[str, Any] | None
    """The line as a JSON object, or None when it is not one."""
    line: str
    to_server: bool = False

    @property
    def type(self) -> str | None:
        return None if self.message is None else self.message.get("type")


class Meddler(Protocol):
    """What the checks do to the conversation. Each hook returns True when it has dealt with
    the message (it is then not passed along), False to pass it on unchanged."""

    async def from_server(self, pipe: Pipe, message: dict[str, Any]) -> bool: ...

    async def from_bot(self, pipe: Pipe, message: dict[str, Any]) -> bool: ...


class PassAll:
    """A meddler that meddles with nothing."""

    async def from_server(self, pipe: Pipe, message: dict[str, Any]) -> bool:
        return False

    async def from_bot(self, pipe: Pipe, message: dict[str, Any]) -> bool:
        return False


class Pipe:
    """One connection of the bot, relayed to its own connection to the server."""

    def __init__(
        self, tap: Tap, number: int, bot: tuple[asyncio.StreamReader, asyncio.StreamWriter],
        server: tuple[asyncio.StreamReader, asyncio.StreamWriter],
    ) -> None:
        self.tap = tap
        self.number = number
        self._bot_reader, self._bot_writer = bot
        self._server_reader, self._server_writer = server
        self.closed = asyncio.Event()

    async def to_bot(self, message: dict[str, Any], *, made_up: bool = True) -> None:
        """Send ``message`` to the bot: one the tap ``made_up``, or one of the server's it held back."""
        line = json.dumps(message, separators=(",", ":"))
        if made_up:
            self.tap.note("tap", self.number, message, line)
        with contextlib.suppress(OSError):
            self._bot_writer.write(line.encode() + b"\n")
            await self._bot_writer.drain()

    async def to_server(self, message: dict[str, Any], *, made_up: bool = True) -> None:
        """Send ``message`` to the server: one the tap ``made_up``, or one of the bot's it held back."""
        line = json.dumps(message, separators=(",", ":"))
        if made_up:
            self.tap.note("tap", self.number, message, line, to_server=True)
        with contextlib.suppress(OSError):
            self._server_writer.write(line.encode() + b"\n")
            await self._server_writer.drain()

    def cut(self) -> None:
        """Drop both sides at once, as a network that fails would."""
        for writer in (self._bot_writer, self._server_writer):
            with contextlib.suppress(OSError, RuntimeError):
                writer.transport.abort()
        self.closed.set()

    async def run(self) -> None:
        try:
            await asyncio.gather(self._pump("bot"), self._pump("server"))
        finally:
            self.cut()

    async def _pump(self, sender: Literal["bot", "server"]) -> None:
        reader = self._bot_reader if sender == "bot" else self._server_reader
        writer = self._server_writer if sender == "bot" else self._bot_writer
        meddler = self.tap.meddler
        try:
            while raw := await reader.readline():
                line = raw.decode(errors="replace").rstrip("\r\n")
                message = _object(line)
                self.tap.note(sender, self.number, message, line, to_server=sender == "bot")
                if message is not None:
                    hook = meddler.from_bot if sender == "bot" else meddler.from_server
                    if await hook(self, message):
                        continue
                writer.write(raw if raw.endswith(b"\n") else raw + b"\n")
                await writer.drain()
        except (OSError, ValueError, asyncio.LimitOverrunError):
            pass
        finally:
            self.cut()


def _object(line: str) -> dict[str, Any] | None:
    try:
        value = json.loads(line)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


class Tap:
    """Listens on 127.0.0.1 for the bot and relays it to ``upstream`` (changeable: a
    restarted server listens on another port). While :attr:`down`, a connection is closed
    at once, as when nothing listens."""

    def __init__(self, upstream: int) -> None:
        self.upstream = upstream
        self.down = False
        self.meddler: Meddler = PassAll()
        self.heard: list[Heard] = []
        self.pipes: list[Pipe] = []
        self._numbers = itertools.count(1)
        self._news = asyncio.Event()
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self) -> int:
        """Listen; the port to give the bot."""
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", 0, limit=MAX_SERVER_LINE_BYTES + 1)
        port: int = self._server.sockets[0].getsockname()[1]
        return port

    async def stop(self) -> None:
        """Stop listening and cut every connection; its relays end on their own."""
        if self._server is not None:
            self._server.close()
        self.down = True
        for pipe in self.pipes:
            pipe.cut()
        if self._tasks:
            await asyncio.wait(self._tasks, timeout=5)
        await asyncio.sleep(0)  # an aborted transport closes its socket on the loop's next turn

    def note(
        self, sender: Sender, connection: int, message: dict[str, Any] | None, line: str, to_server: bool = False,
    ) -> None:
        self.heard.append(Heard(time.monotonic(), sender, connection, message, line, to_server))
        self._news.set()

    def cut_all(self) -> None:
        for pipe in self.pipes:
            pipe.cut()

    async def wait_for(self, found: Callable[[], bool], seconds: float) -> bool:
        """Wait until ``found()`` holds, checked each time a line crosses; False after ``seconds``."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + seconds
        while not found():
            left = deadline - loop.time()
            if left <= 0:
                return False
            self._news.clear()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(min(left, 0.25)):
                    await self._news.wait()
        return True

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        if task is not None:  # from the start: a stop while it dials the server waits for it too
            self._tasks.add(task)
        try:
            if self.down:
                writer.transport.abort()
                return
            try:
                server = await asyncio.open_connection("127.0.0.1", self.upstream, limit=MAX_SERVER_LINE_BYTES + 1)
            except OSError:
                writer.transport.abort()
                return
            pipe = Pipe(self, next(self._numbers), (reader, writer), server)
            self.pipes.append(pipe)
            if self._server is None or not self._server.is_serving():  # stopped while it dialled: missed by its cut
                pipe.cut()
            await pipe.run()
        finally:
            if task is not None:
                self._tasks.discard(task)
