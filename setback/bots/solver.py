"""Exact play of a hand on one determinization, heads up, on bit masks: fast enough for the whole hand.

:func:`setback.bots.endgame.solve` searches every line on the engine's :class:`GameState`, one
copy a card: exact, but too slow for more than a hand's last three tricks. :class:`Solver`
gives the same values (a test compares them on seeded positions) by alpha-beta on the side to
act's value, on a position of integers: the two hands, the seat to act, the card led to the
trick in progress, and of what the finished tricks took only what can still change the hand's
score: the scoring cards (the variant's point cards such as the jack; the lowest trump when Low
goes to its captor) each side took and side 0's Game pips. A transposition table keeps each
position's bounds, so lines that reach a position by another order of tricks are searched once.

A finished hand is worth what the engine says: the first line that ends in a class of result
(which scoring cards each side took, and which side has more Game pips) is replayed on a copy of
the engine's state and valued by a :data:`setback.bots.endgame.Value`; every other line that ends
in that class shares the value. Nothing of the score is worked out here.

It plays two seats, one a side (heads up), once trump is named; :func:`solvable` says whether a
position is one. Other tables are left to :mod:`setback.bots.endgame`.
"""

from __future__ import annotations

from collections.abc import Callable

from setback.engine import GameState, Phase
from setback.engine.rules import LowRule
from setback.engine.tables import PIPS_BY_SUIT_BITS, SUIT_BITS

Value = Callable[[GameState, list[int], int], float]
"""What a finished hand (the state, the scores it began at, a side) was worth to the side
(as :data:`setback.bots.endgame.Value`)."""

INF = float("inf")


def pips_of(mask: int) -> int:
    """The Game pips of the cards of ``mask``."""
    return (
        PIPS_BY_SUIT_BITS[mask & SUIT_BITS] + PIPS_BY_SUIT_BITS[mask >> 13 & SUIT_BITS]
        + PIPS_BY_SUIT_BITS[mask >> 26 & SUIT_BITS] + PIPS_BY_SUIT_BITS[mask >> 39 & SUIT_BITS]
    )


def solvable(state: GameState) -> bool:
    """Whether :class:`Solver` can play ``state`` out: heads up, in play, trump named."""
    return state.players == 2 and state.rules.sides == 2 and state.phase is Phase.PLAYING and state.trump is not None


def scoring_cards(state: GameState) -> int:
    """The cards whose taker can change the score of the hand in ``state`` (trump named): the
    variant's point cards, and the lowest trump when Low goes to its captor."""
    tables = state.trump_tables
    assert tables is not None
    mask = 0
    for _, _, card in tables.point_cards:
        mask |= 1 << card
    if state.rules.low is LowRule.CAPTURED and state.low_card is not None:
        mask |= 1 << state.low_card
    return mask


class Solver:
    """Solves positions of one deal with one trump (see the module docstring).

    Make one for a sample once trump is named and call :meth:`solve` on any position of its
    hand (those after each of a seat's cards, say): they share what was worked out. ``nodes``
    counts the positions searched.
    """

    def __init__(self, state: GameState, before: list[int], value: Value) -> None:
        assert solvable(state)
        tables = state.trump_tables
        assert tables is not None
        self.before = before
        self.value = value
        self.lead_suit = tables.lead_suit
        self.lead_strength = tables.lead_strength
        self.suit_masks = tables.suit_masks
        self.trumps = tables.members
        self.trump = tables.trump
        self.scoring = scoring_cards(state)
        self.side_of = state.side_of
        self.table: dict[tuple[int, int, int, int, int, int], tuple[float, float]] = {}
        self.ends: dict[tuple[int, int], tuple[float, float]] = {}
        self.lines: dict[tuple[int, int], list[int]] = {}
        self.nodes = 0
        self.origin = state
        self.line: list[int] = []
        self.total_pips = 0

    def solve(self, state: GameState) -> list[float]:
        """What the rest of the hand in ``state`` is worth to each side when both seats play it
        perfectly for their sides (:func:`setback.bots.endgame.solve`'s values)."""
        assert solvable(state) and state.trump_tables is not None and state.trump_tables.trump == self.trump
        self.origin = state
        self.line = []
        hands = state.hands
        captured = state.captured
        self.total_pips = pips_of(hands[0] | hands[1] | captured[0] | captured[1])
        for card in state.trick:
            self.total_pips += pips_of(1 << card)
        led = state.trick[0] if state.trick else -1
        side0 = 0 if self.side_of[0] == 0 else 1
        v0 = self.search(
            hands[0], hands[1], state.to_act, led, captured[0] & self.scoring, pips_of(captured[0]), -INF, INF,
        )
        v1 = self.other(v0)
        return [v0, v1] if side0 == 0 else [v1, v0]

    def other(self, v0: float) -> float:
        """Side 1's value of a position that side 0 values ``v0`` (the values of a finished hand
        are looked up: two sides' values go together)."""
        for a, b in self.ends.values():
            if a == v0:
                return b
        raise AssertionError("a value that no finished hand had")

    def search(self, h0: int, h1: int, seat: int, led: int, w0: int, p0: int, alpha: float, beta: float) -> float:
        """Side 0's value (seat 0's side) of the position, exact when inside ``(alpha, beta)``,
        else a bound on the side of the window it fell."""
        self.nodes += 1
        if led < 0 and not (h0 | h1):
            return self.end(w0, p0)
        key = (h0, h1, seat, led, w0, p0)
        entry = self.table.get(key)
        low = -INF
        high = INF
        if entry is not None:
            low, high = entry
            if low >= beta:
                return low
            if high <= alpha:
                return high
            if low == high:
                return low
            alpha = max(alpha, low)
            beta = min(beta, high)
        a0 = alpha
        b0 = beta
        hand = h0 if seat == 0 else h1
        maximizing = self.side_of[seat] == 0
        best = -INF if maximizing else INF
        for card in self.moves(hand, led, h0 | h1):
            bit = 1 << card
            n0 = h0 & ~bit if seat == 0 else h0
            n1 = h1 & ~bit if seat == 1 else h1
            self.line.append(card)
            if led < 0:
                v = self.search(n0, n1, 1 - seat, card, w0, p0, alpha, beta)
            else:
                strength = self.lead_strength[led]
                winner = seat if strength[card] > strength[led] else 1 - seat
                taken = bit | 1 << led
                nw0 = w0
                np0 = p0
                if self.side_of[winner] == 0:
                    nw0 = w0 | taken & self.scoring
                    np0 = p0 + pips_of(taken)
                v = self.search(n0, n1, winner, -1, nw0, np0, alpha, beta)
            self.line.pop()
            if maximizing:
                best = max(best, v)
                alpha = max(alpha, best)
            else:
                best = min(best, v)
                beta = min(beta, best)
            if alpha >= beta:
                break
        if best <= a0:
            self.table[key] = (low, best)
        elif best >= b0:
            self.table[key] = (best, high)
        else:
            self.table[key] = (best, best)
        return best

    def moves(self, hand: int, led: int, left: int) -> list[int]:
        """The legal cards of ``hand`` (``led`` the card led, -1 for a lead), the likeliest best first."""
        if led >= 0:
            suit = self.lead_suit[led]
            follow = hand & self.suit_masks[suit]
            if follow:
                hand = follow if suit == self.trump else follow | hand & self.trumps
            strength = self.lead_strength[led]
            above = strength[led]
            winners: list[tuple[int, int]] = []
            losers: list[tuple[int, int]] = []
            while hand:
                bit = hand & -hand
                card = bit.bit_length() - 1
                hand ^= bit
                s = strength[card]
                if s > above:
                    winners.append((s, card))
                else:
                    losers.append((s, card))
            winners.sort()
            losers.sort()
            return [c for _, c in winners] + [c for _, c in losers]
        order: list[tuple[int, int]] = []
        while hand:
            bit = hand & -hand
            card = bit.bit_length() - 1
            hand ^= bit
            order.append((-self.lead_strength[card][card], card))
        order.sort()
        return [c for _, c in order]

    def end(self, w0: int, p0: int) -> float:
        """Side 0's value of a finished hand where side 0 took the scoring cards ``w0`` and
        ``p0`` Game pips (the first such line replayed on the engine)."""
        p1 = self.total_pips - p0
        key = (w0, (p0 > p1) - (p0 < p1))
        known = self.ends.get(key)
        if known is None:
            state = self.origin.clone(self.origin.rng)
            for card in self.line:
                state.apply_action(card)
            v = [self.value(state, self.before, s) for s in range(2)]
            side0 = 0 if self.side_of[0] == 0 else 1
            known = (v[0], v[1]) if side0 == 0 else (v[1], v[0])
            self.ends[key] = known
            self.lines[key] = self.line[:]
        return known[0]

    def line_to(self, v0: float) -> list[int]:
        """A line of play from the position last solved to a finished hand side 0 values ``v0``
        (its solved value: so the line ends where perfect play ends, though its cards need not be
        the perfect ones)."""
        for key, (a, _) in self.ends.items():
            if a == v0:
                return self.lines[key]
        raise AssertionError("a value that no finished hand had")
