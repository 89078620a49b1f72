"""The server: listening, admitting connections, the once-a-second sweep, and a clean stop."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
import signal
import socket
import sqlite3
import time
from collections.abc import Sequence
from typing import Protocol

import structlog

from setback import compiled
from setback.protocol import encode
from setback.protocol.messages import Goodbye
from setback.server.config import ServerConfig
from setback.server.connection import Connection
from setback.server.files import soft_limit
from setback.server.guard import PasswordGuard
from setback.server.lobby import Lobby
from setback.server.outgoing import Outgoing
from setback.server.store import Holder, Store
from setback.server.timesource import LoopTime, TimeSource

log = structlog.get_logger("setback.server")


class Listener(Protocol):
    """Another way in to the same lobby (the browser table's WebSocket listener): it makes a
    :class:`Connection` for each peer, and the server closes it when it stops."""

    def close(self) -> None:
        """Stop taking new peers; those connected stay until the server says goodbye."""

    async def wait_closed(self) -> None:
        """Return once every peer it took is gone."""


class Occupant(Protocol):
    """Anything a peer makes the server hold memory for: a connection, or a request not yet
    answered on the browser table's port. Each counts against ``max_connections`` and its
    bytes against ``max_unread_output``."""

    held: int
    """Its bytes as last counted (:meth:`Server.hold`)."""

    def holding(self) -> int:
        """Its bytes now: what it was sent and has not read, and what it sent and was not read whole."""

    def drop_as_dead(self, why: str) -> None:
        """Close at once, forgetting what it holds, with a log line saying ``why``."""


class Server:
    """``setback serve``: a lobby of tables behind a TCP listener (and any other :class:`Listener`)."""

    def __init__(self, config: ServerConfig | None = None, time: TimeSource | None = None) -> None:
        """``time``: where the tables keep their clocks, paces and grace periods (the running
        loop's unless given another, as tests do)."""
        self.config = config or ServerConfig()
        self.outgoing: Outgoing[Connection] = Outgoing(self.config.max_unread_output, self._over_budget, self._end_turn)
        """The bytes every peer makes the server hold (queued for it or written and not yet read,
        and what it sent that was not read whole), as last counted (:meth:`hold`), and the
        connections to write at the end of this turn."""
        self.store = Store(self.config.db)
        self.store.wake = self.outgoing.end_turn
        self.lobby = Lobby(self.config, self.store, time=time or LoopTime())
        self.lobby.wake = self.outgoing.end_turn
        self.connections: set[Connection] = set()
        self.opening: set[Occupant] = set()
        """Peers of the browser table's port whose request is not answered by an upgrade yet
        (or whose answer they have not read): they count against ``max_connections`` too."""
        self._refused_at = 0.0
        self.passwords = PasswordGuard()
        self._stopping = False
        self._fatal_stop: asyncio.Future[None] | None = None
        self._listener: asyncio.Server | None = None
        self._listeners: list[Listener] = []
        self._sweeper: asyncio.Task[None] | None = None
        self._stopped = asyncio.Event()

    @property
    def port(self) -> int:
        """The port listened on (useful with port 0)."""
        assert self._listener is not None
        sockets: Sequence[socket.socket] = getattr(self._listener, "sockets")  # noqa: B009 (uvloop's is a list, typeshed's a tuple)
        return int(sockets[0].getsockname()[1])

    async def start(self) -> None:
        self.store.claim()
        self.lobby.restore()
        self.store.commit()
        self.store.start_checkpoints(self.config.wal_sync)
        loop = asyncio.get_running_loop()
        self._listener = await loop.create_server(
            lambda: Connection(self), self.config.host, self.config.port, reuse_address=True,
            ssl=self.config.tls_context(),
        )
        self._sweeper = asyncio.create_task(self._sweep())
        self.store.name_holder(Holder(os.getpid(), self.config.host, self.port, self.config.local))
        log.info(
            "listening", host=self.config.host, port=self.port, name=self.config.name,
            tls=self.config.tls_cert is not None, db=self.config.db or ":memory:", hot_path=compiled.STATUS,
            max_connections=self.config.max_connections, open_files=soft_limit(),
        )

    def add_listener(self, listener: Listener) -> None:
        """Let ``listener`` bring peers in too; :meth:`stop` closes it with the TCP listener."""
        self._listeners.append(listener)

    def _end_turn(self) -> None:
        """Commit, then write, at the end of this turn of the loop (:class:`Outgoing` asks it once a turn)."""
        asyncio.get_running_loop().call_soon(self.flush)

    def flush(self) -> None:
        """End of a turn: send the table updates put off to it, commit its records in one
        transaction, then write its messages.

        The disk is always ahead of the wire. (A writer thread was tried: the hand-off cost
        more than the commit, which in WAL mode without fsync is cheap.) A commit that fails,
        for whatever reason, leaves the games ahead of the disk: the server stops, telling
        everyone, rather than play on what it could not record.
        """
        self.lobby.publish()  # the turn's table updates, before the turn is over (and what it sent, flushed)
        outgoing = self.outgoing
        outgoing.turn_ends = outgoing.heard_this_turn = False
        dirty, outgoing.dirty = outgoing.dirty, []
        try:
            self.store.commit()
        except Exception as exc:  # sqlite3.Error, or a value the file cannot hold (a bug)
            log.critical("store_failed", error=repr(exc), exc_info=not isinstance(exc, sqlite3.Error))
            for connection in dirty:  # what it would have said is not on the disk: only the goodbye goes
                connection.discard_out()
            if self._fatal_stop is None:
                self._fatal_stop = asyncio.ensure_future(self.stop("the server could not record the game and stopped"))
            return
        for connection in dirty:
            connection.flush_out()

    async def settle(self) -> None:
        """Commit every queued record and write its messages now."""
        self.flush()

    def hold(self, holder: Occupant, held: int) -> None:
        """``holder`` now makes the server hold ``held`` bytes. Past the server's budget for all
        peers together, the peers holding the most are dropped as dead, until the rest fits."""
        by = held - holder.held
        holder.held = held
        self.outgoing.change(by)

    def _over_budget(self) -> None:
        """Count every peer's bytes again (what the peers have read since it was last counted
        is not held any more), then cut the ones holding the most until the rest fits the budget."""
        occupants: list[Occupant] = [*self.connections, *self.opening]
        outgoing = self.outgoing
        for holder in occupants:
            held = holder.holding()
            outgoing.unread += held - holder.held
            holder.held = held
        for holder in sorted(occupants, key=lambda h: h.held, reverse=True):
            if outgoing.unread <= outgoing.limit:
                return
            holder.drop_as_dead("unread_budget_exceeded")

    def _room(self) -> bool:
        """Whether one more peer fits ``max_connections``; a refusal is logged (once a second at most)."""
        if len(self.connections) + len(self.opening) < self.config.max_connections:
            return True
        now = time.monotonic()
        if now - self._refused_at >= 1.0:
            self._refused_at = now
            log.warning("server_full", max_connections=self.config.max_connections, opening=len(self.opening))
        return False

    def admit(self, connection: Connection) -> bool:
        """Take ``connection`` in, if it fits ``max_connections``."""
        if not self._room():
            return False
        self.connections.add(connection)
        return True

    def admit_opening(self, peer: Occupant) -> bool:
        """Take in a peer of the browser table's port, its request not read yet, if it fits
        ``max_connections``; :meth:`release_opening` once it is a connection or gone."""
        if not self._room():
            return False
        self.opening.add(peer)
        return True

    def release_opening(self, peer: Occupant) -> None:
        if peer in self.opening:
            self.hold(peer, 0)
            self.opening.discard(peer)

    def release(self, connection: Connection) -> None:
        if connection in self.connections:
            self.connections.discard(connection)
            if connection.greeted:
                self.lobby.drop(connection)

    async def _sweep(self) -> None:
        config = self.config
        interval = min(1.0, config.heartbeat / 3, config.hello_timeout / 3, config.idle_timeout / 3)
        while True:
            await asyncio.sleep(interval)
            now = time.monotonic()
            for connection in list(self.connections):
                connection.tick(now)

    async def stop(self, reason: str = "server shutting down") -> None:
        """Tell every client, commit every record, close every connection, stop listening."""
        if self._stopping:
            return
        self._stopping = True
        if self._listener is not None:
            self._listener.close()
        for listener in self._listeners:
            listener.close()
        self.lobby.halt()
        await self.settle()  # what the tables last did, recorded and said (or, if the disk fails, neither)
        goodbye = encode(Goodbye(reason=reason))  # records nothing: said even when the disk has failed
        for connection in list(self.connections):
            connection.close_with(goodbye)
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
        if self._listener is not None:
            await self._listener.wait_closed()
            self._listener = None
        for listener in self._listeners:
            await listener.wait_closed()
        self._listeners.clear()
        self.store.close()
        self._stopped.set()
        log.info("stopped", reason=reason)

    async def wait_stopped(self) -> None:
        """Return once :meth:`stop` has finished."""
        await self._stopped.wait()

    async def run_until_stopped(self) -> None:
        """Once started: wait until SIGINT or SIGTERM, then stop cleanly."""
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError):
                loop.add_signal_handler(sig, lambda: asyncio.ensure_future(self.stop()))
        await self.wait_stopped()


GC_YOUNG_THRESHOLD = 5000
"""Allocations between young collections: a decision allocates a few dozen short-lived
objects, and at Python's default of 700 the collector ran so often that it took several
percent of the server's time, with pauses of milliseconds in older generations."""


def tune_gc() -> None:
    """For a long-running server: what was loaded at start is never collected again (it is
    frozen out of the collector's sight), and young collections are rarer."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(GC_YOUNG_THRESHOLD, 10, 10)
