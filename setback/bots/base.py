"""What a bot is: a class that bids and plays, given its seat's view.

A bot overrides :meth:`Bot.bid` and :meth:`Bot.play`; each gets the seat's
:class:`~setback.engine.View` and returns one of ``view.legal``. Either may be a plain
method or an ``async def``: whoever runs the bot (the offline match runner, later the
network client) awaits what an async method returns. The hooks are optional and may be
async too. How a bot is asked, timed and replaced when it fails is
:class:`setback.bots.seat.BotSeat`'s job, not the bot's.
"""

from __future__ import annotations

import random
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import Any

from setback.engine import Action, HandResult, Outcome, Rules, View

Decision = Action | Awaitable[Action]
"""What :meth:`Bot.bid` and :meth:`Bot.play` return: an action, or an awaitable of one."""

Notice = None | Awaitable[None]
"""What a hook returns: nothing, or an awaitable of nothing."""


@dataclass(frozen=True, slots=True)
class GameStart:
    """Who plays the game a bot is about to play: told to :meth:`Bot.on_game_start`."""

    seat: int
    """The bot's own seat."""
    players: tuple[str, ...]
    """Each seat's player: a SPEC in a match, a name at a server."""
    rules: Rules


class BotFailedError(RuntimeError):
    """A bot failed in a way its match cannot go past (its text says which bot, and why)."""


class BotStuckError(BotFailedError):
    """A bot's call still ran well after its game was over: every later game would share the
    machine with it (a thread cannot be stopped), so a match stops instead."""


class Bot:
    """A bot: override :meth:`bid` and :meth:`play`; the hooks are optional.

    Both methods get the seat's :class:`~setback.engine.View` (own hand, bids, trump,
    trick so far, tricks played, scores, rules, ``view.legal`` and ``view.time_left``,
    the seconds left on this decision's clock) and return one of ``view.legal``. A bot
    instance plays one seat of one game; ``seed`` makes any randomness it uses
    reproducible. Constructor keywords after ``seed`` may be given in a SPEC
    (``search@budget_ms=20``).
    """

    name = "bot"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    @classmethod
    def plays_by_the_clock(cls, options: dict[str, Any]) -> bool:
        """Whether a bot made with these constructor ``options`` decides by time spent (so its
        games differ from run to run and machine to machine); a match says so."""
        return False

    def bid(self, view: View) -> Decision:
        """Pass or bid; ``view.legal`` holds the legal choices."""
        raise NotImplementedError

    def play(self, view: View) -> Decision:
        """Play a card; ``view.legal`` holds the cards that follow the rules."""
        raise NotImplementedError

    def on_game_start(self, start: GameStart) -> Notice:
        """The game is about to begin: the bot's seat, who sits where, the rules."""
        return None

    def on_hand_start(self, view: View) -> Notice:
        """A hand was dealt: ``view`` shows the new hand before the first bid."""
        return None

    def on_hand_end(self, result: HandResult) -> Notice:
        """A hand was scored (a thrown-in hand has no result and no call)."""
        return None

    def on_game_end(self, outcome: Outcome) -> Notice:
        """The game is over."""
        return None


def overrides(bot: Bot, hook: str) -> bool:
    """Whether ``bot`` has a ``hook`` (``on_hand_start``, ...) of its own: :class:`Bot`'s hooks
    do nothing, so whoever runs the bot need not call them, nor make what they would be told."""
    mine = getattr(bot, hook)
    return getattr(mine, "__func__", None) is not getattr(Bot, hook)


class RandomBot(Bot):
    """Uniform over the legal actions."""

    name = "random"

    def bid(self, view: View) -> Action:
        return self.rng.choice(view.legal)

    def play(self, view: View) -> Action:
        return self.rng.choice(view.legal)
