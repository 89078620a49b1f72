"""Python SDK bots broken on purpose, one way each, for ``setback check-bot`` to fail:
the SDK's seat plays the fallback for each of them, so only what it replaced shows it."""

from __future__ import annotations

import time

from setback.bots.base import Bot
from setback.engine import Action, View


class Raises(Bot):
    """Every method raises."""

    def bid(self, view: View) -> Action:
        raise RuntimeError("no bid from me")

    def play(self, view: View) -> Action:
        raise RuntimeError("no card from me")

    def on_hand_start(self, view: View) -> None:
        raise RuntimeError("no hook from me")


class PlaysZZ(Bot):
    """Plays a card that is no card."""

    def bid(self, view: View) -> Action:
        return view.legal[0]

    def play(self, view: View) -> str:  # type: ignore[override]
        return "play ZZ"


class BidsZero(Bot):
    """Bids 0, which is no legal bid."""

    def bid(self, view: View) -> str:  # type: ignore[override]
        return "bid 0"

    def play(self, view: View) -> Action:
        return view.legal[0]


class ReturnsNone(Bot):
    """Forgets to return its action."""

    def bid(self, view: View) -> None:  # type: ignore[override]
        return None

    def play(self, view: View) -> None:  # type: ignore[override]
        return None


class Sleeps(Bot):
    """Takes 1.5 s a decision whenever the clock gives 1 s or less (it would at any clock;
    only the clock's session needs to see it, and the others stay quick)."""

    def bid(self, view: View) -> Action:
        return self._slowly(view)

    def play(self, view: View) -> Action:
        return self._slowly(view)

    @staticmethod
    def _slowly(view: View) -> Action:
        if view.time_left is not None and view.time_left <= 1.0:
            time.sleep(1.5)
        return view.legal[0]
