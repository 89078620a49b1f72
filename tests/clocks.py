"""A clock moved by hand for the tables of a test server, and the ways a test lets its time pass.

A table reads the time and sets its timers through a ``TimeSource`` (``setback.server.timesource``);
a server given a :class:`ManualClock` (``running_server(time=clock)``) runs its decision clocks,
bots' paces and pauses and grace periods on it, so no test waits them out in real time. Time
moves only when the test says so, and then only once the server has nothing left to do at the
time it stands at: every message sent before is read (a ``ping`` answered is the barrier: a
connection's lines arrive in order) and no built-in bot is still thinking (they think in
threads, in real time). So a test sees what it would see on a real clock, in order, without
sleeping, and never a timer fired early because the machine was slow.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from wire import Endpoint, RawClient

from setback.server.app import Server


class ManualHandle:
    """A callback set on a :class:`ManualClock`; :meth:`cancel` calls it off."""

    __slots__ = ("args", "callback", "cancelled")

    def __init__(self, callback: Callable[..., object], args: tuple[object, ...]) -> None:
        self.callback = callback
        self.args = args
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class ManualClock:
    """A ``TimeSource`` whose time stands still until :meth:`advance` moves it on."""

    def __init__(self, start: float = 1000.0) -> None:
        self._now = start
        self._due: list[tuple[float, int, ManualHandle]] = []
        self._order = itertools.count()
        self._set = asyncio.Event()
        """Set whenever a callback is set (what :meth:`timer_set` waits for)."""

    def now(self) -> float:
        return self._now

    def call_later(self, delay: float, callback: Callable[..., object], *args: object) -> ManualHandle:
        handle = ManualHandle(callback, args)
        heapq.heappush(self._due, (self._now + max(0.0, delay), next(self._order), handle))
        self._set.set()
        return handle

    def next_due(self) -> float | None:
        """When the next callback not called off is due, if one is set."""
        while self._due and self._due[0][2].cancelled:
            heapq.heappop(self._due)
        return self._due[0][0] if self._due else None

    def advance(self, seconds: float) -> None:
        """Move the time on by ``seconds``, calling every callback that falls due on the way, in
        the order they fall due (each at its own time), those they set included."""
        end = self._now + seconds
        while (due := self.next_due()) is not None and due <= end:
            _, _, handle = heapq.heappop(self._due)
            self._now = due
            handle.cancelled = True  # called: a cancel now does nothing
            handle.callback(*handle.args)
        self._now = end

    def advance_to_next(self) -> float:
        """Move the time on to the next callback due and call it (with any due at the same time):
        how long that was."""
        due = self.next_due()
        assert due is not None, "no callback is set"
        passed = due - self._now
        self.advance(passed)
        return passed

    async def timer_set(self) -> None:
        """Return once a callback (not called off) is set."""
        while self.next_due() is None:
            self._set.clear()
            await self._set.wait()


def thinking(server: Server) -> list[asyncio.Future[Any]]:
    """The decisions built-in bots are thinking over at the server's tables."""
    found = []
    for table in server.lobby.tables.values():
        pending = table.pending
        if pending is not None and pending.thinking is not None and not pending.thinking.done():
            found.append(pending.thinking)
    return found


async def bots_done(server: Server) -> bool:
    """Wait until no built-in bot is thinking (their answers taken in); whether one was."""
    waited = False
    while busy := thinking(server):
        await asyncio.wait(busy)
        waited = True
    return waited


async def run_for(server: Server, clock: ManualClock, seconds: float) -> None:
    """Let ``seconds`` of the tables' time pass, each callback at its time, the bots thinking
    in between as long as they need (in real time): what a sleep on a real clock would see."""
    end = clock.now() + seconds
    while True:
        await bots_done(server)
        due = clock.next_due()
        if due is None or due > end:
            break
        clock.advance(due - clock.now())
    clock.advance(end - clock.now())


class TimedClient(RawClient):
    """A raw client of a server on a :class:`ManualClock`: reading, it lets the clock run on to
    the next callback whenever the server has nothing more to send it before that."""

    clock: ManualClock
    server: Server

    @classmethod
    async def on(cls, server: Server, clock: ManualClock) -> TimedClient:
        client = await cls.connect(server.port)
        client.clock = clock
        client.server = server
        client._settled = deque()
        client._reading = None
        client._nonces = itertools.count(1)
        return client

    _settled: deque[dict[str, Any]]
    """Messages read while settling (see :meth:`_settle`), handed out first."""
    _reading: asyncio.Future[dict[str, Any]] | None
    _nonces: itertools.count[int]

    async def _read_wire(self, timeout: float) -> dict[str, Any]:
        async with asyncio.timeout(timeout):
            while not self._settled:
                if self._reading is None:
                    self._reading = asyncio.ensure_future(super()._read_wire(timeout))
                timer = asyncio.ensure_future(self.clock.timer_set())
                racing: set[asyncio.Future[Any]] = {self._reading, timer}
                await asyncio.wait(racing, return_when=asyncio.FIRST_COMPLETED)
                timer.cancel()
                if self._reading.done():
                    message, self._reading = self._reading.result(), None
                    return message
                await self._settle()
                if self._settled or await bots_done(self.server):
                    continue  # (a bot's answer may have been sent, or set a pause: look again)
                if self.clock.next_due() is not None:
                    self.clock.advance_to_next()
            return self._settled.popleft()

    async def _settle(self) -> None:
        """Read everything the server sent before it answers a ``ping`` (kept for :meth:`read`)."""
        nonce = next(self._nonces)
        await self.send(type="ping", id=f"settle-{nonce}", nonce=nonce)
        while True:
            if self._reading is None:
                self._reading = asyncio.ensure_future(super()._read_wire(10.0))
            message, self._reading = await self._reading, None
            if message["type"] == "pong" and message.get("id") == f"settle-{nonce}":
                self.received.remove(message)
                return
            self._settled.append(message)


@dataclass(frozen=True)
class TimedEndpoint(Endpoint):
    """A server on a :class:`ManualClock` as ``greeted`` and ``start_duel`` reach it: by :class:`TimedClient`."""

    server: Server
    clock: ManualClock

    @classmethod
    def of(cls, server: Server, clock: ManualClock) -> TimedEndpoint:
        return cls("tcp", server.port, server, clock)

    async def connect(self) -> TimedClient:
        return await TimedClient.on(self.server, self.clock)


async def noticed(condition: Callable[[], bool], timeout: float = 10.0) -> None:
    """Return once the server has taken in what the network brought it (``condition`` holds):
    a wait for the socket, never for the tables' clock, which stands still meanwhile."""
    async with asyncio.timeout(timeout):
        while not condition():  # noqa: ASYNC110 (the server offers no event to wait on for it)
            await asyncio.sleep(0.001)
