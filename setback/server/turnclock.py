"""A table's decision clock: how long a seat has to decide, and how much of it is left.

The clock runs on the table's :class:`~setback.server.timesource.TimeSource`. It starts when
a person's (or a bot program's) decision is asked for, never while a built-in bot or a
stand-in plays the seat, and it may be held (after a restart, until the player is back:
spec.md, section 18).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from setback.protocol.messages import DecisionClock
from setback.server.seats import Pending
from setback.server.timesource import TimeSource

NO_CLOCK: Final = DecisionClock(limit_ms=None, remaining_ms=None)
"""The clock of every decision at a table without one (shared: never changed)."""


class TurnClock:
    """The limit a decision has (None: no clock), counted on ``time``; and the number of the
    table's last decision."""

    __slots__ = ("limit", "requests", "time")

    def __init__(self, limit: float | None, time: TimeSource) -> None:
        self.limit = limit
        self.time = time
        self.requests = 0
        """The last decision's request number: it counts on across the table's games, so an
        answer meant for an earlier game's decision is never taken for this one's."""

    def next_request(self) -> int:
        """The request number of the decision asked for now."""
        self.requests += 1
        return self.requests

    def start(self, pending: Pending, callback: Callable[..., object], *args: object) -> None:
        """Start the clock of ``pending`` (at a table that has one): ``callback(*args)`` once it runs out."""
        limit = self.limit
        if limit is not None:
            pending.deadline = self.time.now() + limit
            pending.timer = self.time.call_later(limit, callback, *args)

    @staticmethod
    def hold(pending: Pending) -> None:
        """Stop the clock of ``pending`` where it is not yet running (the server was away, not
        the player): it starts afresh when the decision is asked for again."""
        if pending.timer is not None:
            pending.timer.cancel()
        pending.timer = pending.deadline = None

    def limit_ms(self, by_bot: bool) -> int | None:
        """The limit of a decision in ms as a ``turn`` event gives it (None: no clock, or a bot plays)."""
        limit = self.limit
        return round(limit * 1000) if limit is not None and not by_bot else None

    def _remaining_ms(self, deadline: float) -> int:
        return max(0, round((deadline - self.time.now()) * 1000))

    def for_decide(self, pending: Pending) -> DecisionClock:
        """The clock a ``decide`` for ``pending`` carries."""
        limit = self.limit
        if limit is None:
            return NO_CLOCK
        remaining = None if pending.deadline is None else self._remaining_ms(pending.deadline)
        return DecisionClock(limit_ms=round(limit * 1000), remaining_ms=remaining)

    def for_turn(self, pending: Pending | None, by_bot: bool) -> DecisionClock | None:
        """The clock of the seat to act as of now, as its ``turn`` event gave it (None between games)."""
        limit = self.limit
        if pending is None:
            return None
        if limit is None or by_bot:
            return NO_CLOCK
        limit_ms = round(limit * 1000)
        if pending.deadline is None:  # held until its player is back (section 18)
            return DecisionClock(limit_ms=limit_ms, remaining_ms=limit_ms)
        return DecisionClock(limit_ms=limit_ms, remaining_ms=self._remaining_ms(pending.deadline))
