"""Samples of the hidden cards that read the whole auction and the pitch, not only the bids made.

:class:`setback.bots.playout.Sampler` gives a seat that bid a hand the tactics' point count
would bid as much on. :class:`Reader` also reads what the other moves of the auction say:

- a seat that passed when it might have outbid was dealt a hand worth no more than the high
  bid it passed (a seat whose partner held the high bid passes hands worth less than three
  quarters of the top bid, as :func:`setback.bots.tactics.choose_bid` does);
- the pitcher named the suit its hand was best in.

Other bots (and people) do not bid exactly by the tactics' count, so no reading is a hard rule:
a sample is kept with a chance of :data:`MISREAD` for each reading it breaks (each point of a
bid or pass it misses by), drawn again otherwise, at most ``tries`` times (then the best
drawn is kept). The voids a seat showed stay hard, as in the sampler.

:class:`AnswerReader` reads a heads-up seat's bids and passes by a model of how ``search`` bids
instead (:mod:`setback.bots.answers`): a sample is kept with the chance the model gives what the
seat did with the hand it was dealt.
"""

from __future__ import annotations

import random

from setback.bots.answers import Answers
from setback.bots.playout import Sampler
from setback.bots.tactics import best_trump, bid_amount, near_solid
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


class AnswerReader(Reader):
    """A :class:`Reader` that reads the other seat's bids and passes by how ``search`` bids
    (:mod:`setback.bots.answers`) rather than by the tactics' count: a sample is kept with the
    chance the model gives each bid or pass the seat made, at the score of the view, with the hand
    it was dealt there, read against the likeliest hand for it (the pitch is read as the reader
    reads it)."""

    def __init__(self, view: View, answers: Answers, tries: int = TRIES) -> None:
        super().__init__(view, tries)
        self.rules = view.rules
        self.readings: list[tuple[int, Answers, str, int, int, float]] = []
        high = 0
        for bid in view.bids:
            amount = bid.amount if isinstance(bid, BidMade) else 0
            if bid.seat != self.seat:
                role = "dealer" if bid.seat == view.dealer else "eldest"
                at = answers.of_side(view.scores, view.rules.side_of(bid.seat), view.rules.target)
                most = at.most(role, high, amount)
                if most > 0:
                    self.readings.append((bid.seat, at, role, high, amount, most))
            high = max(high, amount)

    def weight(self, holdings: list[int]) -> float:
        """The chance, against the likeliest, that the sample ``holdings`` bids as the auction went
        and pitches as the pitcher did."""
        weight = 1.0
        counted = best = -1  # the last hand counted (as :func:`setback.bots.answers.inputs` counts) and its suit
        for seat, at, role, high, amount, most in self.readings:
            counted = holdings[seat] | self.played[seat]
            best, value = best_trump(counted, self.players, 0, self.variant)
            weight *= at.chance(role, high, value, near_solid(counted, best), amount) / most
        if self.pitch is not None:
            seat, trump, partners = self.pitch
            hand = holdings[seat] | self.played[seat]
            if hand != counted or partners:
                best, _ = best_trump(hand, self.players, partners, self.variant)
            if best != trump:
                weight *= MISREAD
        return weight

    def deal(self, rng: random.Random, tries: int = 0) -> list[int]:
        """Each seat's holding: the viewer's own, the others sampled to read the auction and pitch."""
        best: list[int] | None = None
        heaviest = -1.0
        for _ in range(tries or self.tries):
            holdings = self._deal_within_voids(rng)
            weight = self.weight(holdings)
            if rng.random() < weight:
                return holdings
            if weight > heaviest:
                best, heaviest = holdings, weight
        assert best is not None
        return best
