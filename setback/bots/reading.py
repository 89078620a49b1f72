"""Samples of the hidden cards that read the whole auction and the pitch, not only the bids made.

:class:`setback.bots.search.Sampler` gives a seat that bid a hand the tactics' point count
would bid as much on. :class:`Reader` also reads what the other moves of the auction say:

- a seat that passed when it might have outbid was dealt a hand worth no more than the high
  bid it passed (a seat whose partner held the high bid passes hands worth less than three
  quarters of the top bid, as :func:`setback.bots.tactics.choose_bid` does);
- the pitcher named the suit its hand was best in.

Other bots (and people) do not bid exactly by the tactics' count, so no reading is a hard rule:
a sample is kept with a chance of :data:`MISREAD` for each reading it breaks (each point of a
bid or pass it misses by), drawn again otherwise, at most ``tries`` times (then the best
drawn is kept). The voids a seat showed stay hard, as in the sampler.
"""

from __future__ import annotations

import random

from setback.bots.search import Sampler
from setback.bots.tactics import best_trump, bid_amount
from setback.engine import BidMade, View

MISREAD = 0.3
"""The chance a sample is kept for each point by which it misses a reading."""
TRIES = 12
"""Samples drawn at most for one kept."""


class Reader(Sampler):
    """A :class:`Sampler` whose samples read the bids, the passes and the pitch (module docstring)."""

    def __init__(self, view: View, tries: int = TRIES) -> None:
        super().__init__(view, infer_bids=True)
        self.tries = tries
        rules = view.rules
        top = rules.top_bid
        lowest = rules.lowest_bid
        # per seat: (at least, at most) what the tactics' count should bid on its hand
        floor = [0] * rules.players
        ceiling = [top] * rules.players
        for seat, amount, _ in self.bids:
            floor[seat] = max(floor[seat], amount)
        high = 0
        high_side = -1
        for bid in view.bids:
            seat = bid.seat
            if isinstance(bid, BidMade):
                high = bid.amount
                high_side = rules.side_of(seat)
            elif seat != self.seat and high < top:
                limit = max(high, lowest - 1)
                if high_side == rules.side_of(seat):
                    limit = max(limit, (3 * top + 3) // 4 - 1)
                ceiling[seat] = min(ceiling[seat], limit)
        self.limits = [
            (seat, floor[seat], ceiling[seat], len(rules.seats_of(rules.side_of(seat))) - 1)
            for seat in range(rules.players)
            if seat != self.seat and (floor[seat] > 0 or ceiling[seat] < top)
        ]
        pitcher = view.pitcher
        self.pitch = (
            (pitcher, int(view.trump), len(rules.seats_of(rules.side_of(pitcher))) - 1)
            if pitcher is not None and pitcher != self.seat and view.trump is not None
            else None
        )

    def misses(self, holdings: list[int]) -> int:
        """How many points (and pitches) the sample ``holdings`` misses the readings by."""
        missed = 0
        for seat, low, high, partners in self.limits:
            amount = bid_amount(holdings[seat] | self.played[seat], self.players, partners, 0.0, self.variant)
            missed += max(0, low - amount) + max(0, amount - high)
        if self.pitch is not None:
            seat, trump, partners = self.pitch
            suit, _ = best_trump(holdings[seat] | self.played[seat], self.players, partners, self.variant)
            missed += suit != trump
        return missed

    def deal(self, rng: random.Random, tries: int = 0) -> list[int]:
        """Each seat's holding: the viewer's own, the others sampled to read the auction and pitch."""
        best: list[int] | None = None
        fewest = -1
        for _ in range(tries or self.tries):
            holdings = self._deal_within_voids(rng)
            missed = self.misses(holdings)
            if missed == 0 or rng.random() < MISREAD**missed:
                return holdings
            if best is None or missed < fewest:
                best, fewest = holdings, missed
        assert best is not None
        return best
