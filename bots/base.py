"""What a bot is: a class that bids and plays, given its seat's view."""

from __future__ import annotations

import random

from setback.engine import Action, Phase, View


class Bot:
    """A bot: override :meth:`bid` and :meth:`play`; the hooks are optional.

    Both methods get the seat's :class:`~setback.engine.View` (own hand, bids, trump,
    trick so far, tricks played, scores, rules and ``view.legal``) and return one of
    ``view.legal``. A bot is created once per game seat; ``seed`` makes any randomness
    it uses reproducible.
    """

    name = "bot"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def bid(self, view: View) -> Action:
        """Pass or bid; ``view.legal`` holds the legal choices."""
        raise NotImplementedError

    def play(self, view: View) -> Action:
        """Play a card; ``view.legal`` holds the cards that follow the rules."""
        raise NotImplementedError

    def act(self, view: View) -> Action:
        """Dispatch to :meth:`bid` or :meth:`play` by the view's phase."""
        return self.play(view) if view.phase is Phase.PLAYING else self.bid(view)


class RandomBot(Bot):
    """Uniform over the legal actions."""

    name = "random"

    def bid(self, view: View) -> Action:
        return self.rng.choice(view.legal)

    def play(self, view: View) -> Action:
        return self.rng.choice(view.legal)
