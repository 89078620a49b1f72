"""An asyncio connection to a Setback server, for clients and bots written in Python.

:class:`ServerLink` says hello, sends typed messages, hands back typed ones (answering
the server's pings by itself), and reconnects with the seat token after a drop.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import ssl
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

import structlog

from setback.protocol import (
    DEFAULT_PORT,
    MAX_SERVER_LINE_BYTES,
    PROTOCOL_VERSION,
    ProtocolError,
    decode_server,
    encode,
)
from setback.protocol.messages import (
    ClientMessage,
    Error,
    Goodbye,
    Hello,
    Joined,
    Pong,
    ServerMessage,
    ServerPing,
    Welcome,
)

log = structlog.get_logger("setback.link")


class LinkClosedError(ConnectionError):
    """The server closed the connection (``goodbye`` says why, when it said)."""

    def __init__(self, reason: str, goodbye: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.goodbye = goodbye
        """True when the server said goodbye (it is stopping): it will not be back at once."""


class RefusedError(ConnectionError):
    """The server refused the hello with a fatal error."""

    def __init__(self, error: Error) -> None:
        super().__init__(f"{error.code}: {error.message}")
        self.error = error


@dataclass(frozen=True)
class Address:
    host: str = "127.0.0.1"
    port: int = DEFAULT_PORT

    @classmethod
    def parse(cls, text: str) -> Address:
        """``host``, ``host:port``, ``[v6]`` or ``[v6]:port`` (a bare IPv6 address has no port;
        the port is 1 to 65535, :data:`~setback.protocol.DEFAULT_PORT` when left out).
        ValueError saying what is wrong with anything else."""
        port_text: str | None = None
        if text.startswith("["):
            host, bracket, rest = text[1:].partition("]")
            if not bracket or (rest and not rest.startswith(":")):
                raise ValueError(f"{text!r} is not [IPv6] or [IPv6]:PORT")
            port_text = rest[1:] if rest else None
        elif text.count(":") == 1:
            host, _, port_text = text.partition(":")
        else:  # a name, an IPv4 address or a bare IPv6 one
            host = text
        if not host or not host.isprintable() or any(c.isspace() for c in host):
            raise ValueError(f"{text!r} names no host")
        if port_text is None:
            return cls(host, DEFAULT_PORT)
        if not (port_text.isascii() and port_text.isdigit() and 1 <= int(port_text) <= 65535):
            raise ValueError(f"the port of {text!r} is a number from 1 to 65535, not {port_text!r}")
        return cls(host, int(port_text))

    def __str__(self) -> str:
        return f"{self.host}:{self.port}"


def tls_context(ca_file: str | None = None, verify: bool = True) -> ssl.SSLContext:
    """A client TLS context: the system's trusted roots, or ``ca_file`` (a LAN server's own CA
    or self-signed certificate); ``verify=False`` accepts any certificate (encryption only)."""
    context = ssl.create_default_context(cafile=ca_file)
    if not verify:
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
    return context


def backoff(attempt: int, delay: float, max_delay: float) -> float:
    """Seconds to wait after failed attempt number ``attempt`` (from 1): ``delay``, doubling, at most ``max_delay``."""
    return min(max_delay, delay * 2.0 ** min(attempt - 1, 32))


class ServerLink:
    """One connection; :meth:`connect` again after a drop to take the seat back."""

    def __init__(
        self,
        address: Address,
        name: str,
        kind: Literal["human", "bot"] = "human",
        password: str | None = None,
        events: bool = True,
        tls: ssl.SSLContext | None = None,
    ) -> None:
        self.address = address
        self.name = name
        self.kind = kind
        self.password = password
        self.events = events
        self.tls = tls
        self.token: str | None = None
        self.welcome: Welcome | None = None
        self.table: str | None = None
        self.seat: int | None = None
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._ids = itertools.count(1)

    def next_id(self) -> int:
        return next(self._ids)

    async def connect(self) -> Welcome:
        """Open the connection and say hello (with the token, if this link had a seat)."""
        await self.close()
        self._reader, self._writer = await asyncio.open_connection(
            self.address.host, self.address.port, ssl=self.tls, limit=MAX_SERVER_LINE_BYTES
        )
        hello = Hello(
            version=PROTOCOL_VERSION, name=self.name, kind=self.kind, token=self.token,
            password=self.password, events=self.events,
        )
        await self.send(hello)
        while True:
            message = await self.receive()
            if isinstance(message, Welcome):
                self.welcome = message
                self.token = message.token
                return message
            if isinstance(message, Error) and message.fatal:
                raise RefusedError(message)

    async def reconnect(
        self, attempts: int = 30, delay: float = 0.5, max_delay: float = 5.0,
        waiting: Callable[[float], None] | None = None,
    ) -> Welcome:
        """Connect again, backing off between attempts; raises the last error after ``attempts``.
        ``waiting``, when given, is told the seconds before each next attempt."""
        for attempt in itertools.count(1):
            try:
                return await self.connect()
            except (OSError, LinkClosedError) as exc:
                if attempt >= attempts:
                    raise
                pause = backoff(attempt, delay, max_delay)
                log.info("reconnecting", address=str(self.address), attempt=attempt, error=str(exc), pause=pause)
                if waiting is not None:
                    waiting(pause)
                await asyncio.sleep(pause)
        raise AssertionError("unreachable")

    async def send(self, message: ClientMessage) -> None:
        writer = self._writer
        if writer is None:
            raise LinkClosedError("not connected")
        writer.write(encode(message))
        await writer.drain()

    async def receive(self) -> ServerMessage:
        """The next message for the caller; pings are answered here and not returned."""
        reader = self._reader
        if reader is None:
            raise LinkClosedError("not connected")
        while True:
            try:
                line = await reader.readline()
            except (ConnectionError, asyncio.LimitOverrunError, ValueError) as exc:
                raise LinkClosedError(str(exc)) from exc
            if not line:
                raise LinkClosedError("the server closed the connection")
            try:
                message = decode_server(line)
            except ProtocolError as unknown:  # a newer server's message or event kind: skip it
                log.warning("skipped_message", code=str(unknown.code), detail=unknown.message)
                continue
            if isinstance(message, ServerPing):
                await self.send(Pong(nonce=message.nonce))
                continue
            if isinstance(message, Joined):
                self.table, self.seat, self.token = message.table, message.seat, message.token
            if isinstance(message, Goodbye):
                await self.close()
                raise LinkClosedError(message.reason, goodbye=True)
            return message

    async def close(self) -> None:
        writer = self._writer
        self._reader = self._writer = None
        if writer is not None:
            writer.close()
            with contextlib.suppress(ConnectionError, OSError):
                await writer.wait_closed()
