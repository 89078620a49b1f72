"""A match's totals, bot by bot, tallied from its game records alone.

Because the totals come from the records (spec.md section 5), a resumed match counts
the games in its file and the games it plays alike.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from setback.bots.registry import EXTERNAL, bot_name
from setback.bots.seat import DecisionStats
from setback.engine import plain

if TYPE_CHECKING:
    from setback.match.plan import MatchPlan


def wilson_interval(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for ``wins`` (or points, a draw half of one) out of ``games`` (0, 1 when
    there are none)."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


PAIRED_MIN_DEALS = 20
"""Deals a duplicate match needs before a bot's win rate is given an interval paired by deal."""


def mean_interval(values: list[float], z: float = 1.96) -> tuple[float, float]:
    """The normal interval of the mean of ``values`` (at least two)."""
    n = len(values)
    mean = sum(values) / n
    spread = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = z * spread / math.sqrt(n)
    return mean - half, mean + half


def paired_interval(rates: list[float], z: float = 1.96) -> tuple[float, float]:
    """The normal interval of the mean of per-deal win rates (clamped to 0..1)."""
    low, high = mean_interval(rates, z)
    return max(0.0, low), min(1.0, high)


class OpenSkill:
    """OpenSkill (Plackett-Luce) ratings of bots, brought up to date game by game."""

    def __init__(self, names: list[str]) -> None:
        from openskill.models import PlackettLuce

        self.model = PlackettLuce()
        self.ratings = [self.model.rating(name=name) for name in names]

    def add(self, sides: list[list[int]], winner: int) -> None:
        """One game: the bots (by their place in ``names``) of each side, and the winning side,
        ranked first, every other side second."""
        teams = [[self.ratings[b] for b in bots] for bots in sides if bots]
        ranks: list[float] = [1 if side == winner else 2 for side, bots in enumerate(sides) if bots]
        for bots, rated in zip([b for b in sides if b], self.model.rate(teams, ranks=ranks), strict=True):
            for b, rating in zip(bots, rated, strict=True):
                self.ratings[b] = rating

    def mu_sigma(self) -> list[tuple[float, float]]:
        return [(rating.mu, rating.sigma) for rating in self.ratings]


def openskill_ratings(
    names: list[str], games: list[tuple[list[list[int]], int]]
) -> list[tuple[float, float]]:
    """Each bot's OpenSkill (Plackett-Luce) rating, mu and sigma, after ``games`` in order:
    each game the bots of each side (by their place in ``names``) and the winning side."""
    rater = OpenSkill(names)
    for sides, winner in games:
        rater.add(sides, winner)
    return rater.mu_sigma()


@dataclass
class BotStats:
    """One bot's totals over a match (a bot playing a whole side counts each hand once)."""

    spec: str
    name: str
    games: int = 0
    wins: int = 0
    hands: int = 0
    points: int = 0
    """Points taken in the hands played (before any set-back)."""
    net: int = 0
    """The score's change over the hands played: set-backs counted, as the scores count them."""
    bids_won: int = 0
    bids_made: int = 0
    bids_set: int = 0
    deciding: DecisionStats = field(default_factory=DecisionStats)
    peak_rss_mb: float | None = None
    """The highest peak resident set size, in MB, of a process while it played one of the bot's games
    (:mod:`setback.match.memory`): the interpreter, the engine and every bot at the table, so a bound
    from above on the bot's own; None when no game measured it (a game through a server)."""
    rating: tuple[float, float] | None = None
    duplicate: bool = False
    """Whether the match is duplicate: every deal played once a seating."""
    by_deal: dict[int, list[int]] = field(default_factory=dict)
    """Wins and games on each deal."""

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def paired(self) -> bool:
        """Whether :meth:`win_interval` is paired by deal: a duplicate match of enough deals."""
        return self.duplicate and len(self.by_deal) >= PAIRED_MIN_DEALS

    def win_interval(self) -> tuple[float, float]:
        """The 95% confidence interval of the win rate. In a duplicate match of at least
        :data:`PAIRED_MIN_DEALS` deals, paired by deal: the normal interval of the mean of
        each deal's win rate, which leaves out the luck of the cards every seating shared;
        otherwise the Wilson score interval of the games."""
        if self.paired:
            return paired_interval([wins / games for wins, games in self.by_deal.values()])
        return wilson_interval(self.wins, self.games)

    @property
    def decision_ms(self) -> float | None:
        """The average time of one decision, in milliseconds (as the results show it); None when
        there is none to show: no decisions, or an external ``cmd:`` program's, which the runner
        cannot time."""
        seconds = None if self.spec.startswith(EXTERNAL) else self.deciding.seconds_per_decision
        return None if seconds is None else 1000 * seconds

    @property
    def decision_p99_ms(self) -> float | None:
        """The time within which 99% of the bot's decisions were made, in milliseconds (the top
        of its bucket, :meth:`DecisionStats.quantile_seconds`); None as for :attr:`decision_ms`."""
        seconds = None if self.spec.startswith(EXTERNAL) else self.deciding.quantile_seconds(0.99)
        return None if seconds is None else 1000 * seconds

    def peak_rss(self, mb: float) -> None:
        """Count a game whose process peaked at ``mb``."""
        self.peak_rss_mb = mb if self.peak_rss_mb is None else max(self.peak_rss_mb, mb)

    def clock_fields(self) -> dict[str, Any]:
        """What the results say of the bot's decisions and memory (a match's and a tournament's alike)."""
        return {
            "decisions": self.deciding.decisions,
            "decision_ms": None if self.decision_ms is None else round(self.decision_ms, 3),
            "decision_p99_ms": None if (p99 := self.decision_p99_ms) is None else round(p99, 3),
            "peak_rss_mb": self.peak_rss_mb,
            "timeouts": self.deciding.timeouts,
            "errors": self.deciding.errors,
        }

    def as_dict(self) -> dict[str, Any]:
        low, high = self.win_interval()
        return {
            "spec": self.spec,
            "name": self.name,
            "games": self.games,
            "wins": self.wins,
            "win_rate": round(self.win_rate, 4),
            "win_rate_ci95": [round(low, 4), round(high, 4)],
            "ci95_paired_by_deal": self.paired,
            "hands": self.hands,
            "points_per_hand": round(self.points / self.hands, 4) if self.hands else 0.0,
            "net_per_hand": round(self.net / self.hands, 4) if self.hands else 0.0,
            "bids_won": self.bids_won,
            "bids_made": self.bids_made,
            "bids_set": self.bids_set,
            **self.clock_fields(),
            **({"rating": {"mu": round(self.rating[0], 3), "sigma": round(self.rating[1], 3)}}
               if self.rating else {}),
        }


@dataclass
class MatchResult:
    """The totals of a match, bot by bot, in the order the bots were named."""

    plan: MatchPlan
    games: int = 0
    stats: list[BotStats] = field(default_factory=list)
    sides: dict[int, tuple[list[list[int]], int]] = field(default_factory=dict, repr=False)
    """Each game (by index): the bots (by place) of each side, and the winning side."""
    pairs: list[int] = field(default_factory=lambda: [0, 0, 0], repr=False)
    """In a duplicate match of two bots, the first bot's finished deals (both games played)
    by its wins in them: none, one, both (what a sequential test counts)."""

    rater: OpenSkill | None = field(default=None, repr=False, compare=False)
    """At tables of three or more bots, the ratings of games ``0`` to ``rated - 1``, brought up to
    date as the games come (in a match played in order, every game as it comes: the workers
    play on meanwhile, where a rating of every game at the end would keep them waiting)."""
    rated: int = field(default=0, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.stats:
            self.stats = [BotStats(spec, bot_name(spec), duplicate=self.plan.duplicate) for spec in self.plan.specs]
        if len(self.plan.specs) > 2 and self.rater is None:
            self.rater = OpenSkill([s.spec for s in self.stats])

    def add(self, record: dict[str, Any]) -> None:
        """Count one game from its record."""
        rules = self.plan.rules
        seating: list[int] = record["match"]["seating"]
        winner = record["outcome"]["winner"]
        side_of = [rules.side_of(seat) for seat in range(rules.players)]
        bots_of_side: list[list[int]] = [[] for _ in range(rules.sides)]
        for seat, b in enumerate(seating):
            if b not in bots_of_side[side_of[seat]]:
                bots_of_side[side_of[seat]].append(b)
            self.stats[b].deciding.add(DecisionStats.of(record["match"]["clock"][seat]))
        if (peak := record["match"].get("peak_rss_mb")) is not None:
            for b in set(seating):
                self.stats[b].peak_rss(peak)
        self.sides[record["match"]["game"]] = (bots_of_side, winner)
        self.games += 1
        if self.rater is not None:
            while (game := self.sides.get(self.rated)) is not None:
                self.rater.add(*game)
                self.rated += 1
        deal = record["match"]["deal"]
        for side, bots in enumerate(bots_of_side):
            for b in bots:
                stats = self.stats[b]
                stats.games += 1
                stats.wins += side == winner
                tally = stats.by_deal.setdefault(deal, [0, 0])
                tally[0] += side == winner
                tally[1] += 1
                if b == 0 and tally[1] == 2 and self.plan.duplicate and len(self.stats) == 2:
                    self.pairs[tally[0]] += 1
        for hand in record["hands"]:
            result = hand["result"]
            if result is None:
                continue
            for side, bots in enumerate(bots_of_side):
                for b in bots:
                    self.stats[b].hands += 1
                    self.stats[b].points += result["points"][side]
                    self.stats[b].net += result["deltas"][side]
            pitcher = self.stats[seating[result["pitcher"]]]
            pitcher.bids_won += 1
            pitcher.bids_set += result["set_back"]
            pitcher.bids_made += not result["set_back"]

    def rate(self) -> None:
        """OpenSkill (Plackett-Luce) ratings from every game in index order, winners first."""
        if self.rater is not None and self.rated == len(self.sides):
            rated = self.rater.mu_sigma()
        else:  # (a game is missing before some others: rated from scratch in the games' order)
            rated = openskill_ratings([s.spec for s in self.stats], [self.sides[i] for i in sorted(self.sides)])
        for stats, rating in zip(self.stats, rated, strict=True):
            stats.rating = rating

    def labels(self) -> list[str]:
        """Each bot's SPEC, numbered ``#1``, ``#2``... by its place in the match when the same
        SPEC plays more than once, so that its rows can be told apart."""
        specs = [s.spec for s in self.stats]
        return [f"{spec} #{n}" if specs.count(spec) > 1 else spec for n, spec in enumerate(specs, 1)]

    def as_dict(self) -> dict[str, Any]:
        plan = self.plan
        return {
            "rules": plain(plan.rules),
            "seed": plan.seed,
            "duplicate": plan.duplicate,
            "games": self.games,
            "bots": [{"label": label, **s.as_dict()} for label, s in zip(self.labels(), self.stats, strict=True)],
        }
