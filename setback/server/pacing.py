"""How a built-in bot (or a stand-in) takes its turn at a table: it thinks off the event loop,
then waits, if people are to see its move land, before the move is made."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from setback.bots import BotSeat
from setback.engine import Action, View
from setback.protocol.views import WireViews
from setback.server.seats import Pending, Seat
from setback.server.timesource import TimeSource

QUIET_THINK_SECONDS = 0.01
"""What a built-in bot or stand-in is given to think at a table nobody is at (``search`` keeps to
half of it): a game played to an empty room must cost next to nothing."""


def think(
    bot: BotSeat, view: View, pending: Pending, time: TimeSource, paced: float, pause: float,
    wanted: Callable[[Pending], bool], move: Callable[[Pending, Action], None],
) -> None:
    """``bot`` decides ``pending`` on ``view`` (its own thread or task), and ``move(pending,
    action)`` is called with its answer no sooner than ``paced`` seconds after it was asked and
    ``pause`` seconds after it answered, if the decision is still wanted when the answer
    comes: ``wanted(pending)`` says so, and ``pending.thinking`` is still this bot's (a table
    that calls the bot off sets it to None; ``move`` is to check again after a wait)."""
    asked = time.now()
    task = asyncio.ensure_future(bot.decide(view))
    pending.thinking = task

    def done(finished: asyncio.Future[Action]) -> None:
        if finished.cancelled() or pending.thinking is not finished or not wanted(pending):
            return  # (called off: its answer was taken from it)
        action = finished.result()
        now = time.now()
        wait = max(asked + paced, now + pause) - now
        if wait > 0:
            pending.timer = time.call_later(wait, move, pending, action)
            return
        move(pending, action)

    task.add_done_callback(done)


def pause_for_people(bot_pace: float, seats: list[Seat], views: WireViews) -> float:
    """How long a bot waits, once it has decided, before its move, so that the people at the
    table see every card land: the table's ``bot_pace`` while a person sits here connected,
    twice that for the lead after a finished trick and the first bid after a scored hand (the
    trick, or the hand's summary, stays in view a moment); nothing at a table of bots and
    bot programs (matches, benchmarks). Counted from the decision, which comes after the
    move before it has been sent: the moves reach people at least this far apart. A person's
    clock starts only once their turn comes, after the bots' pauses."""
    if not bot_pace or not any(s.kind == "human" and s.peer is not None for s in seats):
        return 0.0
    after_trick = views.phase == "playing" and not views.trick and bool(views.tricks)
    after_hand = views.phase == "bidding" and not views.bids and views.last_result is not None
    return 2 * bot_pace if after_trick or after_hand else bot_pace
