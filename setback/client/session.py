"""The client's network task: one :class:`ServerLink` feeding one :class:`ClientState`.

:class:`Session` connects, folds every message into the state, sends what the state
answers, and, when the connection drops, takes the seat back with the token
(:meth:`ServerLink.reconnect`): the server then sends ``joined``, a ``snapshot`` and the
pending ``decide`` again, and the state comes back to where the game is. After the server
said goodbye (it stopped) it keeps trying, less often. It tells the
screen after every change through ``changed``; it never raises into the screen.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable

import msgspec
import structlog

from setback.client.state import ClientState, Link, LogKind
from setback.client.words import error_text, unreachable
from setback.link.seat_tokens import SeatTokens
from setback.link.server_link import LinkClosedError, RefusedError, ServerLink
from setback.protocol import ProtocolError
from setback.protocol.messages import ClientMessage, Error, Joined, Left, ListTables, ServerMessage

log = structlog.get_logger("setback.session")

STOPPED_FIRST_WAIT = 1.0
STOPPED_LONGEST_WAIT = 30.0
"""After the server said goodbye (it stopped), the waits between tries to reconnect start at
the first and double up to the longest: a restarted server brings its tables back."""

POLL_SECONDS = 3.0
"""How often the table list is asked for: a seated connection gets no table updates, and no
message says that a table was closed."""


class Session:
    """Runs the connection for the screen; see the module docstring."""

    def __init__(
        self, link: ServerLink, state: ClientState, changed: Callable[[], None], reconnect_attempts: int = 30,
        tokens: SeatTokens | None = None,
    ) -> None:
        self.link = link
        self.state = state
        self.changed = changed
        self.reconnect_attempts = reconnect_attempts
        self.tokens = tokens
        """Where the seat's token is kept for the next run of the client (None: nowhere)."""
        self.offered = link.token
        """The token the last hello offered to take a seat back with: the one to forget when
        the server says it holds no seat."""
        self.closing = False

    async def run(self) -> None:
        """Connect and serve the state until :meth:`close`, or until the server cannot be reached."""
        state = self.state
        state.address = str(self.link.address)
        state.connection(Link.CONNECTING)
        self.changed()
        self.offered = self.link.token
        try:
            welcome = await self.link.connect()
        except RefusedError as exc:
            self.state.needs_password = exc.error.code == "bad_password"
            self._offline(error_text(exc.error))
            return
        except (OSError, LinkClosedError) as exc:
            self._offline(unreachable(str(self.link.address), exc))
            return
        poller = asyncio.create_task(self._poll())
        try:
            await self._fold(welcome)
            await self._serve()
        finally:
            poller.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await poller

    async def _serve(self) -> None:
        while not self.closing:
            try:
                message = await self.link.receive()
            except ProtocolError as exc:
                log.warning("unreadable_message", error=exc.message)
                continue
            except (LinkClosedError, OSError) as exc:
                if self.closing or not await self._reconnect(exc):
                    return
                continue
            await self._fold(message)

    async def _reconnect(self, closed: LinkClosedError | OSError) -> bool:
        stopped = isinstance(closed, LinkClosedError) and closed.goodbye
        if self.state.seat is None:  # no seat to take back: a new token, and no bad_token for the old one
            self.link.token = None
        self.state.connection(Link.RECONNECTING, str(closed), stopped=stopped)
        self.changed()
        attempts = self.reconnect_attempts
        self.offered = self.link.token
        if stopped:
            reconnecting = self.link.reconnect(attempts, STOPPED_FIRST_WAIT, STOPPED_LONGEST_WAIT, self._waiting)
        else:
            reconnecting = self.link.reconnect(attempts, waiting=self._waiting)
        try:
            welcome = await reconnecting
        except RefusedError as exc:
            self._offline(error_text(exc.error))
            return False
        except (OSError, LinkClosedError) as exc:
            if not self.closing:
                self._offline(unreachable(str(self.link.address), exc))
            return False
        await self._fold(welcome)
        return True

    def _keep_token(self, message: ServerMessage) -> None:
        """A seat taken is kept for the next run; one given up, or no longer held, is forgotten."""
        assert self.tokens is not None
        server, name = str(self.link.address), self.link.name
        match message:
            case Joined(table=table, seat=seat, token=token):
                self.tokens.keep(server, name, token, table, seat)
            case Left() if self.link.token is not None:
                self.tokens.forget(server, self.link.token)
            case Error(code="bad_token") if self.state.table is None and self.offered is not None:
                self.tokens.forget(server, self.offered)  # not "taken by your other connection"

    def _waiting(self, seconds: float) -> None:
        self.state.retrying(time.monotonic() + seconds)
        self.changed()

    def _offline(self, why: str) -> None:
        self.state.connection(Link.OFFLINE, why)
        self.changed()

    async def _fold(self, message: ServerMessage) -> None:
        if self.tokens is not None:
            self._keep_token(message)
        try:
            answers = self.state.receive(message, time.monotonic())
        except ValueError as exc:
            log.warning("unusable_message", error=str(exc))
            self.state.say(LogKind.ERROR, f"The server sent something this client cannot use: {exc}")
            answers = []
        self.changed()
        for answer in answers:
            await self.send(answer)

    async def send(self, message: ClientMessage) -> bool:
        """Send a request with a fresh id; False (and a notice) when the connection is down."""
        if message.id is None:
            message = msgspec.structs.replace(message, id=self.link.next_id())
        if self.state.link is not Link.ONLINE:
            self.state.tell("Not connected to the server right now; try again in a moment.")
            self.changed()
            return False
        self.state.sending(message)
        try:
            await self.link.send(message)
        except (LinkClosedError, OSError):
            self.state.requests.pop(message.id, None)
            self.state.tell("The connection dropped before that was sent; reconnecting.")
            self.changed()
            return False
        self.changed()
        return True

    async def _poll(self) -> None:
        while True:
            await asyncio.sleep(POLL_SECONDS)
            if self.state.link is Link.ONLINE:
                with contextlib.suppress(LinkClosedError, OSError):
                    await self.link.send(ListTables())

    async def close(self) -> None:
        """Stop: no reconnection after this."""
        self.closing = True
        await self.link.close()
