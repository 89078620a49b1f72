"""Where a table reads the time and sets its timers: the running event loop's, unless given another.

A table never asks asyncio for the time itself: every clock, pace, pause and grace period it
keeps goes through a :class:`TimeSource`, so that a test can hand it a clock it moves by hand.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Protocol


class Cancellable(Protocol):
    """A callback set for later, which may be called off (``asyncio.TimerHandle`` is one)."""

    def cancel(self) -> None:
        """Call the callback off; once it has run, or been called off, this does nothing."""


class TimeSource(Protocol):
    """A monotonic time in seconds, and callbacks set for a moment of it."""

    def now(self) -> float:
        """The time now, in seconds (only differences between two readings mean anything)."""

    def call_later(self, delay: float, callback: Callable[..., object], *args: object) -> Cancellable:
        """Call ``callback(*args)`` once, ``delay`` seconds from now (at once if ``delay`` <= 0),
        on the table's event loop."""


class LoopTime:
    """The running event loop's time and timers (what a server's tables run on)."""

    __slots__ = ()

    def now(self) -> float:
        return asyncio.get_running_loop().time()

    def call_later(self, delay: float, callback: Callable[..., object], *args: object) -> Cancellable:
        return asyncio.get_running_loop().call_later(delay, callback, *args)
