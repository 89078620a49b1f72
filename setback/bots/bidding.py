"""The expert's bidding model: what a bid is worth, learned from hands played out by the search.

The expert's rollouts play every seat by the tactics, which misjudge what a bid is worth
(heads up, at 0-0, they overvalue a pass by about 0.7 points of the hand and undervalue a bid
of 3: setback/benchmarks/README.md, issue 34). The model corrects them from hands played out
by stronger play. For each bid a seat may make, it predicts the hand's value to the bidder's
side (its points less the other side's, as :func:`setback.bots.rollouts.hand_value` counts
them) when the rest of the hand is played by ``search`` on both sides. The deals played out
record, for each bid, the bidder's hand (:func:`features`: its best suit by the tactics'
count and what it holds there, its second suit, off-suit aces and tens, the points it counts
towards Game), the high bid it faces, and the rollouts' own mean value of that bid; the
shipped model uses the few of them (:data:`INPUTS`) that did not overfit, at the seats they
helped (:data:`MODELLED`).

It is a ridge regression per seat and bid (:func:`fit`), so its inference is a few
multiplications in pure Python. The weights ship in ``bidding.json``, made reproducibly by
``python -m setback.bots.make_bidding`` (:mod:`setback.bots.make_bidding` says how). A
table whose rules have no weights there (:data:`TABLES`) gets no model: the expert then
bids by its rollouts alone.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Final

from setback.bots.odds import key_of
from setback.bots.tactics import (
    ACE,
    JACK,
    KING,
    PIPS,
    QUEEN,
    SUIT,
    TEN,
    TRUMPS,
    best_trump,
    near_solid,
    pitch_value,
    pitchable,
)
from setback.engine import BidMade, Rules, View, mask_of

FILE: Final = Path(__file__).with_name("bidding.json")
TABLES: Final = (Rules(players=2),)
"""The tables the model is trained for: the standard game heads up (the expert's match against ``search``)."""
ROLES: Final = ("eldest", "dealer")
"""The seats that bid heads up, in the order they bid."""
FEATURES: Final = (
    "one", "count", "count^2", "second", "trumps", "ace", "king", "queen", "jack", "ten", "lowest",
    "deuce", "near_solid", "side_aces", "side_tens", "pips", "faces_1", "faces_2", "faces_3", "rollout",
)
"""What is known of one bid, in order (:func:`features` gives all but the last, the rollouts'
mean value of the bid): what the deals played out record, and what a model may use."""
INPUTS: Final = ("one", "count", "rollout")
"""The inputs the shipped model uses, of :data:`FEATURES`: a constant, the tactics' count of the
hand and the rollouts' mean, per bid. Chosen by five-fold cross-validation on the training deals
(setback/benchmarks/README.md, "A learned bidding model"): every input overfitted the deals
there are, and the count did better than the rollouts alone."""
MODELLED: Final = ("eldest",)
"""The seats the shipped model corrects: the dealer's bid (against a bid it must beat) was
chosen no better by any model than by the rollouts, so the dealer bids by them alone."""
RIDGE: Final = 30.0
"""The ridge penalty on every weight but the constant's (the best of 3, 30 and 300 in the
cross-validation of :data:`INPUTS`)."""


def role(view: View) -> str:
    """Which of :data:`ROLES` the seat to bid in ``view`` holds."""
    return "dealer" if view.seat == view.dealer else "eldest"


def high_bid(view: View) -> int:
    """The highest bid made so far in ``view``'s auction (0: none)."""
    return max((bid.amount for bid in view.bids if isinstance(bid, BidMade)), default=0)


def features(view: View) -> list[float]:
    """The inputs :data:`FEATURES` (but the rollouts' value) of the seat to bid in ``view``."""
    rules = view.rules
    variant = rules.variant
    hand = mask_of(view.hand)
    players = rules.players
    suit, count = best_trump(hand, players, 0, variant)
    trumps = TRUMPS[variant]
    others = (pitch_value(hand, trumps[s], players) for s in range(4) if s != suit and pitchable(hand, s))
    second = max(others, default=0.0)
    t = trumps[suit]
    printed = (hand >> (13 * suit)) & 0x1FFF
    lowest = (printed & -printed).bit_length() - 1 if printed else 12
    side = hand & ~SUIT[suit]
    aces = sum(side >> (13 * s + ACE) & 1 for s in range(4))
    tens = sum(side >> (13 * s + TEN) & 1 for s in range(4))
    pips = sum(PIPS[c] for c in range(52) if hand >> c & 1)
    high = high_bid(view)
    return [
        1.0, count, count * count, second, float((hand & t.members).bit_count()),
        float(printed >> ACE & 1), float(printed >> KING & 1), float(printed >> QUEEN & 1),
        float(printed >> JACK & 1), float(printed >> TEN & 1), lowest / 12, float(lowest <= 1),
        float(near_solid(hand, suit)), float(aces), float(tens), pips / 10,
        float(high == 1), float(high == 2), float(high == 3),
    ]


@dataclass(frozen=True, slots=True)
class Model:
    """The weights of one table: ``weights[role][amount]`` (amount 0: pass) over ``inputs``, names
    of :data:`FEATURES`."""

    weights: dict[str, dict[int, list[float]]]
    inputs: tuple[str, ...] = INPUTS

    def value(self, seat_role: str, amount: int, inputs: Sequence[float], rollout: float) -> float | None:
        """The predicted value of bidding ``amount`` (0: passing) to the bidder's side, in points
        of the hand, from the :func:`features` ``inputs`` and the rollouts' mean; None when the
        model has no weights for it."""
        weights = self.weights.get(seat_role, {}).get(amount)
        if weights is None:
            return None
        return sum(w * x for w, x in zip(weights, select(self.inputs, inputs, rollout), strict=True))


def select(names: Sequence[str], inputs: Sequence[float], rollout: float) -> list[float]:
    """The inputs called ``names`` (of :data:`FEATURES`) of one bid."""
    known = (*inputs, rollout)
    return [known[FEATURES.index(name)] for name in names]


@cache
def _models() -> dict[str, Model]:
    if not FILE.exists():
        return {}
    loaded = json.loads(FILE.read_text())
    inputs = tuple(loaded["inputs"])
    return {
        key: Model({r: {int(a): list(map(float, w)) for a, w in bids.items()} for r, bids in table.items()}, inputs)
        for key, table in loaded["tables"].items()
    }


def model(rules: Rules) -> Model | None:
    """The bidding model of ``rules``' table, or None when it has none."""
    key = key_of(rules)
    return None if key is None else _models().get(key)


def fit(rows: Sequence[tuple[Sequence[float], float]], ridge: float = RIDGE) -> list[float]:
    """The ridge regression of the values on the inputs of ``rows`` (``(inputs, value)``): the
    weights minimising the squared error plus ``ridge`` times their squares (not the first, the
    constant's), solved exactly, so the same rows always give the same weights."""
    size = len(rows[0][0])
    gram = [[0.0] * size for _ in range(size)]
    target = [0.0] * size
    for inputs, value in rows:
        for i, x in enumerate(inputs):
            if x:
                target[i] += x * value
                row = gram[i]
                for j, y in enumerate(inputs):
                    row[j] += x * y
    for i in range(1, size):
        gram[i][i] += ridge
    return _solve(gram, target)


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """``x`` with ``matrix @ x == vector`` (Gaussian elimination with partial pivoting)."""
    n = len(vector)
    a = [[*row, vector[i]] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        lead = a[col][col]
        for r in range(col + 1, n):
            factor = a[r][col] / lead
            if factor:
                for c in range(col, n + 1):
                    a[r][c] -= factor * a[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (a[r][n] - sum(a[r][c] * x[c] for c in range(r + 1, n))) / a[r][r]
    return x
