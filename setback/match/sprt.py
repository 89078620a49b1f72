"""The sequential probability ratio test of one bot against another, as fastchess and OpenBench run it.

A test names two Elo differences, ``elo0`` (H0) and ``elo1`` (H1), and the error rates
``alpha`` (accepting H1 when H0 holds) and ``beta`` (the reverse). After every result the
log-likelihood ratio (LLR) of H1 against H0 is compared with the bounds
``log(beta / (1 - alpha))`` and ``log((1 - beta) / alpha)``: below the first H0 is accepted,
above the second H1, in between the test goes on.

The LLR is the generalized one of Michel Van den Bergh ("Comments on Normalized Elo"): the
ratio of the empirical distribution's likelihood under the two most likely distributions
of the results that have the score (``logistic`` model) or the normalized Elo (``normalized``,
the default, as fishtest's and fastchess's) that each hypothesis names. In a duplicate match
the results are *pairs*, the two games of one deal with the seats swapped, scored 0, 1/4,
1/2, 3/4 or 1 (the pentanomial model: the luck of the deal cancels within a pair, so the
test needs fewer games); otherwise single games, scored 0, 1/2 or 1 (trinomial). A result
that never happened is counted as 0.001 of one, as fastchess does.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from setback.match.tally import MatchResult

PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
"""A pair's score for the bot under test: its points in the pair's two games, halved."""
GAME_SCORES = (0.0, 0.5, 1.0)
"""A game's score: a loss, a draw, a win."""
NEVER = 1e-3
"""What a result that never happened counts for, so that every likelihood is defined."""
ELO_PER_NATURAL = 800 / math.log(10)
"""A normalized Elo of 1 is this many units of t, the score's distance from 1/2 in standard deviations."""


class Verdict(Enum):
    """Where a sequential test stands."""

    H1 = "H1"
    """The LLR reached the upper bound: the new bot is at least ``elo1`` better."""
    H0 = "H0"
    """The LLR reached the lower bound: the new bot is no more than ``elo0`` better."""
    UNDECIDED = "undecided"
    """Neither bound reached (yet, or before the games ran out)."""


EXIT_STATUS = {Verdict.H1: 0, Verdict.H0: 4, Verdict.UNDECIDED: 3}
"""``setback match --sprt``'s exit status for each verdict (1 and 2 stay a failure and a usage error)."""


@dataclass(frozen=True)
class Sprt:
    """A test's hypotheses and error rates: ``elo0`` against ``elo1``, ``alpha``, ``beta``, the model."""

    elo0: float = 0.0
    elo1: float = 5.0
    alpha: float = 0.05
    beta: float = 0.05
    model: str = "normalized"
    """``normalized`` (Elo in standard deviations of the results, fishtest's) or ``logistic``."""

    def __post_init__(self) -> None:
        if not self.elo0 < self.elo1:
            raise ValueError(f"SPRT: elo0 must be below elo1, not {self.elo0:g} and {self.elo1:g}")
        if not (0 < self.alpha < 1 and 0 < self.beta < 1 and self.alpha + self.beta < 1):
            raise ValueError("SPRT: alpha and beta are between 0 and 1, and add up to less than 1")
        if self.model not in ("normalized", "logistic"):
            raise ValueError(f"SPRT: the model is normalized or logistic, not {self.model!r}")

    @classmethod
    def parse(cls, text: str) -> Sprt:
        """Read ``elo0=0,elo1=5,alpha=0.05,beta=0.05[,model=logistic]`` (any left out: the default)."""
        fields: dict[str, Any] = {}
        for item in filter(None, text.split(",")):
            key, eq, value = item.partition("=")
            key = key.strip()
            if not eq or key not in ("elo0", "elo1", "alpha", "beta", "model"):
                raise ValueError(f"SPRT: {item!r} is not one of elo0=, elo1=, alpha=, beta=, model=")
            try:
                fields[key] = value.strip() if key == "model" else float(value)
            except ValueError:
                raise ValueError(f"SPRT: {key} is a number, not {value!r}") from None
        return cls(**fields)

    @property
    def lower(self) -> float:
        """The LLR at or below which H0 is accepted."""
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        """The LLR at or above which H1 is accepted."""
        return math.log((1 - self.beta) / self.alpha)

    def verdict(self, llr: float) -> Verdict:
        if llr >= self.upper:
            return Verdict.H1
        if llr <= self.lower:
            return Verdict.H0
        return Verdict.UNDECIDED

    def llr_pairs(self, pairs: Sequence[int]) -> float:
        """The LLR of pentanomial counts: pairs scored 0, 1/4, 1/2, 3/4 and 1 (:data:`PAIR_SCORES`)."""
        return self._llr(pairs, PAIR_SCORES, math.sqrt(2))

    def llr_games(self, games: Sequence[int]) -> float:
        """The LLR of trinomial counts: games lost, drawn and won (:data:`GAME_SCORES`)."""
        return self._llr(games, GAME_SCORES, 1.0)

    def _llr(self, counts: Sequence[int], scores: Sequence[float], spread: float) -> float:
        """``spread``: a result's standard deviation in units of one game's, so that a
        normalized Elo means the same of pairs as of games."""
        seen = [float(c) if c else NEVER for c in counts]
        total = sum(seen)
        observed = [c / total for c in seen]
        if self.model == "logistic":
            p0 = _with_score(observed, scores, _logistic_score(self.elo0))
            p1 = _with_score(observed, scores, _logistic_score(self.elo1))
        else:
            p0 = _with_t(observed, scores, spread * self.elo0 / ELO_PER_NATURAL)
            p1 = _with_t(observed, scores, spread * self.elo1 / ELO_PER_NATURAL)
        return total * sum(o * (math.log(b) - math.log(a)) for o, a, b in zip(observed, p0, p1, strict=True))

    def as_dict(self) -> dict[str, Any]:
        return {"elo0": self.elo0, "elo1": self.elo1, "alpha": self.alpha, "beta": self.beta, "model": self.model,
                "lower": round(self.lower, 4), "upper": round(self.upper, 4)}


def _logistic_score(elo: float) -> float:
    """The expected score of a player ``elo`` logistic Elo stronger."""
    return 1 / (1 + 10 ** (-elo / 400))


def _tilted(observed: Sequence[float], phi: Sequence[float], theta: float = 0.0) -> tuple[list[float], float]:
    """The distribution ``observed_i / (1 + theta * phi_i)`` whose ``theta`` makes the mean
    of ``phi`` under it 0: the likeliest with that constraint (the paper's equation 1.2), and
    that ``theta``. It is the root of a decreasing function on (-1 / max phi, -1 / min phi),
    found by Newton's method from ``theta`` (when inside), kept inside the bracket by bisection."""
    low, high = -1 / max(phi), -1 / min(phi)
    if not low < theta < high:
        theta = 0.0
    for _ in range(400):
        value = slope = 0.0
        for o, f in zip(observed, phi, strict=True):
            q = 1 + theta * f
            value += o * f / q
            slope -= o * f * f / (q * q)
        if value > 0:
            low = theta
        else:
            high = theta
        if abs(value) <= 1e-13 or high - low <= 1e-15 * max(1.0, abs(theta)):
            break
        guess = theta - value / slope
        theta = guess if low < guess < high else (low + high) / 2
    return [o / (1 + theta * f) for o, f in zip(observed, phi, strict=True)], theta


def _with_score(observed: Sequence[float], scores: Sequence[float], score: float) -> list[float]:
    """The likeliest distribution of results with expected score ``score``."""
    return _tilted(observed, [a - score for a in scores])[0]


def _with_t(observed: Sequence[float], scores: Sequence[float], t: float, epsilon: float = 1e-9) -> list[float]:
    """The likeliest distribution of results whose (mean - 1/2) / standard deviation is ``t``
    (the paper's section 4.1: a fixed point, started from the uniform distribution)."""
    p = [1 / len(scores)] * len(scores)
    theta = 0.0
    for _ in range(1000):
        mean = sum(q * a for q, a in zip(p, scores, strict=True))
        sigma = math.sqrt(sum(q * (a - mean) ** 2 for q, a in zip(p, scores, strict=True)))
        phi = [a - 0.5 - 0.5 * t * sigma * (1 + ((a - mean) / sigma) ** 2) for a in scores]
        new, theta = _tilted(observed, phi, theta)
        moved = max(abs(a - b) for a, b in zip(new, p, strict=True))
        p = new
        if moved < epsilon:
            break
    return p


@dataclass(frozen=True)
class Standing:
    """A test's state after some results: the counts, the LLR and the verdict."""

    sprt: Sprt
    paired: bool
    """Whether the counts are of pairs (pentanomial) or of games (trinomial)."""
    counts: tuple[int, ...]
    llr: float

    @property
    def verdict(self) -> Verdict:
        return self.sprt.verdict(self.llr)

    @property
    def results(self) -> int:
        """How many pairs (or games) the counts hold."""
        return sum(self.counts)

    def elo(self) -> tuple[float, float, float]:
        """The logistic Elo of the bot under test from its mean score, with a 95% interval
        from the results' own spread (pairs' in a duplicate match)."""
        scores = PAIR_SCORES if self.paired else GAME_SCORES
        n = self.results
        if n == 0:
            return 0.0, -math.inf, math.inf
        mean = sum(c * a for c, a in zip(self.counts, scores, strict=True)) / n
        variance = sum(c * (a - mean) ** 2 for c, a in zip(self.counts, scores, strict=True)) / n
        half = 1.96 * math.sqrt(variance / n)
        return _elo(mean), _elo(mean - half), _elo(mean + half)

    def as_dict(self) -> dict[str, Any]:
        elo, low, high = self.elo()
        return {
            **self.sprt.as_dict(), "llr": round(self.llr, 4), "verdict": self.verdict.value,
            "model_of_results": "pentanomial" if self.paired else "trinomial",
            "counts": list(self.counts), "pairs" if self.paired else "games": self.results,
            "elo": _rounded(elo), "elo_ci95": [_rounded(low), _rounded(high)],
        }


def _elo(score: float) -> float:
    """The logistic Elo difference that expects ``score`` (infinite at 0 and 1)."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1)


def _rounded(elo: float) -> float | None:
    return round(elo, 2) if math.isfinite(elo) else None


def standing(sprt: Sprt, result: MatchResult) -> Standing:
    """Where ``sprt`` stands on a match of two bots, bot 0 under test: on its finished pairs
    (both games of a deal played) when the match is duplicate, else on its games."""
    if result.plan.duplicate:
        lost, split, won = result.pairs
        pairs = (lost, 0, split, 0, won)
        return Standing(sprt, True, pairs, _llr(sprt, pairs))
    stats = result.stats[0]
    counts = (stats.games - stats.wins, 0, stats.wins)
    return Standing(sprt, False, counts, _llr(sprt, counts))


@functools.lru_cache(maxsize=16)
def _llr(sprt: Sprt, counts: tuple[int, ...]) -> float:
    """The LLR of pentanomial (five) or trinomial (three) counts, found once for each (a match
    asks after every game; the counts change at most once a pair)."""
    return sprt.llr_pairs(counts) if len(counts) == 5 else sprt.llr_games(counts)
