"""How ``search`` bids, learned from its own decisions: the expert's model of the other seat's bid.

The rollouts and the samples of :mod:`setback.bots.search` take every other seat to bid the
tactics' point count (:func:`setback.bots.tactics.bid_amount`). The seat that matters heads up,
``search`` itself, bids by its own rollouts, bolder: it bids 3 on hands the count bids 2 on,
and its dealer outbids a 3 with 4 far more often. This model gives, for one heads-up seat
(eldest or dealer) facing a high bid (0: none), the chance of each bid (0: pass) from its
hand's count: the raw points :func:`setback.bots.tactics.best_trump` counts in its best suit,
in bins of :data:`WIDTH`, and whether the hand is near solid there (the count's hand for 4).

``search`` values a hand by the change of the scores, plus a win's worth when the hand decides
the game, so it bids the same at every score from which no hand can reach the target and
otherwise not (bolder to go out, bolder to stop the other going out). So each decision has a
context (:func:`context`): the bidder's and the other side's points to go, each 1 to
:data:`TOP` or "far" (:data:`FAR`, more than a hand can score). The far context, 0-0 among
them, has the base table; every other context recorded has its own.

The base table is of smoothed frequencies (:func:`fit`): a cell (bin, near solid) draws
:data:`SMOOTHING` pseudo-decisions from its bin's (with half-weight neighbours), and that from
the role and high bid's own frequencies, so a rare cell leans on the commoner ones. A
context's cell draws as many from its bin's in that context, that from the same cell of every
context in which the same sides can reach the target (the bidder's, the other's, or both), and
that from the base table's cell. The probabilities ship in ``answers.json``, made reproducibly
by ``python -m setback.bots.make_answers`` (:mod:`setback.bots.make_answers`); a table whose
rules have none (:data:`TABLES`) gets no model.
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Final

from setback.bots.odds import key_of
from setback.bots.shipped import FOLDER
from setback.bots.tactics import best_trump, choose_bid, near_solid
from setback.engine import PASS_CODE, Rules

FILE: Final = FOLDER / "answers.json"
TABLES: Final = (Rules(players=2),)
"""The tables the model is made for: the standard game heads up (the expert against ``search``)."""
WIDTH: Final = 0.125
"""The width of a bin of the count's raw points."""
BINS: Final = 40
"""Bins of the raw points: the last takes every hand from ``(BINS - 1) * WIDTH`` up."""
SMOOTHING: Final = 4.0
"""Pseudo-decisions each level draws from the coarser one (module docstring)."""
TOP: Final = 4
"""The top bid of :data:`TABLES`."""
FAR: Final = TOP + 1
"""The points to go of a side no hand of :data:`TABLES` takes to the target (a hand scores at most
:data:`TOP` points heads up)."""

Context = tuple[int, int]
"""The bidder's points to go and the other side's, each 1 to :data:`FAR` (:func:`context`)."""


def context(mine: int, theirs: int, target: int) -> Context:
    """The context of a bid made at a score of ``mine`` (the bidder's side) to ``theirs``: each
    side's points to ``target``, at least 1 and at most :data:`FAR`."""
    return max(1, min(FAR, target - mine)), max(1, min(FAR, target - theirs))


def inputs(hand: int, rules: Rules) -> tuple[float, bool]:
    """The count's raw points of ``hand`` (a mask) in its best suit and whether it is near solid there."""
    suit, value = best_trump(hand, rules.players, 0, rules.variant)
    return value, near_solid(hand, suit)


def cell(value: float, solid: bool) -> int:
    """The index of the table's cell of a hand with the count's ``value`` and near solid or not."""
    return min(BINS - 1, max(0, int(value / WIDTH))) * 2 + solid


def legal_bids(role: str, high: int) -> list[int]:
    """The bids (0: pass) a heads-up seat of ``role`` may make facing ``high`` (a forced dealer
    may not pass)."""
    if role == "dealer" and high == 0:
        return list(range(1, TOP + 1))
    return [0, *range(high + 1, TOP + 1)]


def count_bid(value: float, solid: bool, role: str, high: int) -> int:
    """The bid the tactics' count makes (:func:`setback.bots.tactics.choose_bid`) with such a hand."""
    amount = 4 if value >= 3.0 and solid else 3 if value >= 2.5 else 2 if value >= 1.75 else 1 if value >= 0.7 else 0
    legal = tuple(PASS_CODE + b for b in legal_bids(role, high))
    return choose_bid(legal, amount, high, False, top=TOP) - PASS_CODE


Chances = dict[tuple[str, int], list[list[float]]]
"""``chances[(role, high)][cell]``: the chance of each bid 0 to :data:`TOP`."""


@dataclass(frozen=True, slots=True)
class Answers:
    """One table's chances in the far context (``chances``) and in each other context recorded
    (``scored``; :func:`context`)."""

    chances: Chances
    scored: dict[Context, Chances] = field(default_factory=dict)

    def at(self, mine: int, theirs: int, target: int) -> Answers:
        """The chances of a bid made at a score of ``mine`` (the bidder's side) to ``theirs``."""
        chances = self.scored.get(context(mine, theirs, target))
        return self if chances is None else Answers(chances)

    def of_side(self, scores: Sequence[int], side: int, target: int) -> Answers:
        """The chances of a bid made by ``side`` at ``scores`` (one a side; the highest other counts)."""
        return self.at(scores[side], max(v for s, v in enumerate(scores) if s != side), target)

    def chance(self, role: str, high: int, value: float, solid: bool, bid: int) -> float:
        """The chance a seat of ``role`` facing ``high`` with such a hand bids ``bid`` (0: pass); a
        situation never recorded gives every legal bid the same chance."""
        table = self.chances.get((role, high))
        if table is None:
            legal = legal_bids(role, high)
            return 1 / len(legal) if bid in legal else 0.0
        return table[cell(value, solid)][bid]

    def most(self, role: str, high: int, bid: int) -> float:
        """The highest chance of ``bid`` over every hand (what :meth:`chance` is read against)."""
        table = self.chances.get((role, high))
        if table is None:
            return 1.0
        return max(row[bid] for row in table)

    def draw(self, role: str, high: int, value: float, solid: bool, u: float) -> int:
        """The bid at ``u`` (in [0, 1)) of the chances of such a hand, the bids in rising order,
        so the same ``u`` answers a higher bid no lower."""
        table = self.chances.get((role, high))
        if table is None:
            return count_bid(value, solid, role, high)
        row = table[cell(value, solid)]
        total = 0.0
        for bid, chance in enumerate(row):
            total += chance
            if u < total:
                return bid
        return max(b for b, c in enumerate(row) if c > 0)


def row_context(row: dict[str, Any]) -> Context:
    """The context of a recorded decision (one recorded without the score was made at 0-0)."""
    return context(row.get("mine", 0), row.get("theirs", 0), TABLES[0].target)


def fit(rows: Sequence[dict[str, Any]], smoothing: float = SMOOTHING) -> Answers:
    """The model of ``rows`` (:mod:`setback.bots.make_answers`' decisions; module docstring)."""
    by_context: dict[Context, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        by_context[row_context(row)].append(row)
    base = _fit_base(by_context.pop((FAR, FAR), []), smoothing)
    by_reach: dict[tuple[bool, bool], list[dict[str, Any]]] = defaultdict(list)
    for key, mine in by_context.items():
        by_reach[_reach(key)].extend(mine)
    reach = {key: Answers(_fit_context(mine, base, smoothing)) for key, mine in by_reach.items()}
    scored = {key: _fit_context(mine, reach[_reach(key)], smoothing) for key, mine in sorted(by_context.items())}
    return Answers(base.chances, scored)


def _reach(key: Context) -> tuple[bool, bool]:
    """Which sides a hand may take to the target in context ``key``: the bidder's, the other."""
    return key[0] < FAR, key[1] < FAR


def _counts(rows: Sequence[dict[str, Any]]) -> dict[tuple[str, int], list[list[float]]]:
    counts: dict[tuple[str, int], list[list[float]]] = defaultdict(lambda: [[0.0] * (TOP + 1) for _ in range(2 * BINS)])
    for row in rows:
        counts[row["role"], row["high"]][cell(row["value"], row["solid"])][row["bid"]] += 1
    return counts


def _pooled(cells: list[list[float]]) -> list[list[float]]:
    """Each bin's decisions, near solid or not, with its neighbours' at half weight."""
    pooled = [[0.0] * (TOP + 1) for _ in range(BINS)]
    for b in range(BINS):
        for near, weight in ((b - 1, 0.5), (b, 1.0), (b + 1, 0.5)):
            if 0 <= near < BINS:
                for solid in (0, 1):
                    for bid in range(TOP + 1):
                        pooled[b][bid] += weight * cells[2 * near + solid][bid]
    return pooled


def _fit_context(rows: Sequence[dict[str, Any]], base: Answers, smoothing: float) -> Chances:
    """The chances of ``rows``: each cell leans on its bin's in them, that on ``base``'s cell."""
    chances = {}
    counts = _counts(rows)
    for key in sorted(base.chances):
        cells = counts[key]
        pooled = _pooled(cells)
        table = []
        for b in range(BINS):
            for solid in (0, 1):
                prior = [base.chance(*key, (b + 0.5) * WIDTH, bool(solid), bid) for bid in range(TOP + 1)]
                of_bin = _smooth(pooled[b], prior, smoothing)
                table.append([round(p, 5) for p in _smooth(cells[2 * b + solid], of_bin, smoothing)])
        chances[key] = table
    return chances


def _fit_base(rows: Sequence[dict[str, Any]], smoothing: float) -> Answers:
    """The far context's chances (module docstring)."""
    chances = {}
    for key, cells in sorted(_counts(rows).items()):
        legal = legal_bids(*key)
        overall = [sum(c[b] for c in cells) + (0.5 if b in legal else 0.0) for b in range(TOP + 1)]
        prior = _share(overall)
        pooled = _pooled(cells)
        seen = [b for b in range(BINS) if sum(pooled[b])]
        table = []
        for b in range(BINS):
            # a bin no decision fell near takes the nearest bin's chances (its own, hand for hand)
            near = min(seen, key=lambda s: (abs(s - b), s), default=b)
            of_bin = _smooth(pooled[near], prior, smoothing)
            for solid in (0, 1):
                table.append([round(p, 5) for p in _smooth(cells[2 * near + solid], of_bin, smoothing)])
        chances[key] = table
    return Answers(chances)


def _share(counts: Sequence[float]) -> list[float]:
    total = sum(counts)
    return [c / total for c in counts]


def _smooth(counts: Sequence[float], prior: Sequence[float], weight: float) -> list[float]:
    """``counts`` as chances, with ``weight`` pseudo-counts drawn from ``prior``."""
    total = sum(counts) + weight
    if not total:
        return list(prior)
    return [(c + weight * p) / total for c, p in zip(counts, prior, strict=True)]


def report(answers: Answers, rows: Sequence[dict[str, Any]]) -> dict[str, dict[str, float]]:
    """On ``rows`` (decisions not fitted, each read in its context), per role: how often the
    model's likeliest bid and the tactics' count bid as the search did, the mean chance the model
    gave the search's bid, and the model's log-loss
    (natural log, per decision) against the count's (its bid at the chance it hits on these rows,
    the rest shared by the other legal bids: the best any fixed trust in the count does)."""
    out: dict[str, dict[str, float]] = {}
    for seat in ("eldest", "dealer"):
        mine = [r for r in rows if r["role"] == seat]
        n = max(1, len(mine))
        hits_model = hits_count = 0
        loss = given = 0.0
        for r in mine:
            at = answers.at(r.get("mine", 0), r.get("theirs", 0), TABLES[0].target)
            row = [at.chance(seat, r["high"], r["value"], r["solid"], b) for b in range(TOP + 1)]
            hits_model += max(range(TOP + 1), key=lambda b: row[b]) == r["bid"]
            hits_count += count_bid(r["value"], r["solid"], seat, r["high"]) == r["bid"]
            given += row[r["bid"]]
            loss -= math.log(max(row[r["bid"]], 1e-9))
        hit = min(max(hits_count / n, 1e-6), 1 - 1e-6)
        counted = 0.0
        for r in mine:
            others = len(legal_bids(seat, r["high"])) - 1
            right = count_bid(r["value"], r["solid"], seat, r["high"]) == r["bid"]
            counted -= math.log(hit if right else (1 - hit) / others)
        out[seat] = {"decisions": len(mine), "model_accuracy": round(hits_model / n, 4),
                     "model_chance": round(given / n, 4),
                     "count_accuracy": round(hits_count / n, 4), "model_log_loss": round(loss / n, 4),
                     "count_log_loss": round(counted / n, 4)}
    return out


def write(answers: Answers, meta: dict[str, Any]) -> None:
    """Write ``answers`` as the model of :data:`TABLES` to ``answers.json``."""
    key = key_of(TABLES[0])
    scored = {f"{m}/{t}": _named(chances, 4) for (m, t), chances in sorted(answers.scored.items())}
    made = {"width": WIDTH, "bins": BINS, "made": meta, "tables": {key: _named(answers.chances, 5)},
            "scored": {key: scored}}
    FILE.write_text(json.dumps(made, separators=(",", ":")) + "\n")


def _named(chances: Chances, digits: int) -> dict[str, list[list[float | int]]]:
    """``chances`` by ``role/high``, to ``digits`` decimals (a bid never made: 0)."""
    return {f"{r}/{h}": [[round(p, digits) or 0 for p in row] for row in rows]
            for (r, h), rows in sorted(chances.items())}


def _chances(table: dict[str, list[list[float]]]) -> Chances:
    chances = {}
    for name, rows in table.items():
        seat, high = name.split("/")
        chances[seat, int(high)] = [list(map(float, row)) for row in rows]
    return chances


@cache
def _models() -> dict[str, Answers]:
    return load(FILE)


def load(path: Path) -> dict[str, Answers]:
    """The models an ``answers.json`` at ``path`` holds, by table (:func:`setback.bots.odds.key_of`)."""
    if not path.exists():
        return {}
    loaded = json.loads(path.read_text())
    out = {}
    for key, table in loaded["tables"].items():
        scored = loaded.get("scored", {}).get(key, {})
        contexts = {(int(m), int(t)): _chances(chances) for m, t, chances in
                    ((*name.split("/"), chances) for name, chances in scored.items())}
        out[key] = Answers(_chances(table), contexts)
    return out


def model(rules: Rules) -> Answers | None:
    """The model of ``rules``' table, or None when it has none."""
    key = key_of(rules)
    return None if key is None else _models().get(key)
