"""What the server holds for its peers, shared by the server and its connections.

The server (:class:`~setback.server.app.Server`) owns one :class:`Outgoing`; each connection
is handed it, and counts into it at every line it queues and every write. It is a plain
object of the compiled hot path, so those counts are a few native operations, not calls
back into the server through what a connection knows of it (:class:`~setback.server.host.Host`).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Final, Generic, TypeVar

_monotonic: Final = time.monotonic
"""Held here: compiled, ``time.monotonic`` is two lookups by name at each call."""

C = TypeVar("C")
"""The server's connections."""


class Outgoing(Generic[C]):
    """The bytes every peer makes the server hold, against ``max_unread_output``, and the
    connections with lines queued this turn of the loop (written at its end)."""

    def __init__(self, limit: int, over_budget: Callable[[], None], end_turn: Callable[[], None]) -> None:
        """``over_budget`` is called when a count grows past ``limit`` (the server then drops the
        peers holding the most until the rest fits); ``end_turn`` schedules the end of this turn
        of the loop, once a turn (``turn_ends`` says whether it is scheduled)."""
        self.limit = limit
        self.unread = 0
        """The bytes every peer makes the server hold, as last counted: at most ``limit``."""
        self.dirty: list[C] = []
        """The connections with lines queued this turn, each once."""
        self.turn_ends = False
        """Whether the end of this turn is scheduled (commit, then write)."""
        self.heard_this_turn = False
        """Whether :meth:`heard_at` read the clock this turn (its end, scheduled then, forgets it)."""
        self._heard_at = 0.0
        self._over_budget = over_budget
        self._end_turn = end_turn

    def change(self, by: int) -> None:
        """A peer makes the server hold ``by`` bytes more (fewer, if negative)."""
        self.unread += by
        if by > 0 and self.unread > self.limit:
            self._over_budget()

    def queued(self, connection: C) -> None:
        """``connection`` has its first line of this turn queued: write it at the turn's end."""
        self.dirty.append(connection)
        if not self.turn_ends:
            self.end_turn()

    def heard_at(self) -> float:
        """The time a line heard this turn of the loop is heard at: ``time.monotonic()`` as first
        read this turn, the same for every line after it until the turn ends (the clock is read
        once a turn, not at every line: a turn is over within milliseconds, the idle timeout
        counts in seconds). Reading it schedules the turn's end, which forgets it."""
        if not self.heard_this_turn:
            self._heard_at = _monotonic()
            self.heard_this_turn = True
            self.end_turn()
        return self._heard_at

    def end_turn(self) -> None:
        """Commit, then write, at the end of this turn of the loop (scheduled once)."""
        if not self.turn_ends:
            self.turn_ends = True
            self._end_turn()


class LineSink(asyncio.Protocol):
    """A connection, as code that cannot import it reaches it (the play: the connection imports
    the lobby, which imports the play). Compiled, :meth:`send_line` through this class is a
    native call, where through the :class:`~setback.server.peer.Peer` protocol it is a call by
    name: a decide line is sent this way at every decision."""

    def send_line(self, line: bytes) -> None:
        """Queue an already encoded line (newline included)."""
        raise NotImplementedError
