"""Tournaments of many bots: a round robin or a gauntlet of matches, with a cross table and standings.

A table seats *k* bots: one a seat (*k* = players) or one a side (*k* = teams). A
**pairing** is *k* of the tournament's bots, in the order named: in a **round robin** every
*k* of them (every two for heads-up tables), in a **gauntlet** the first bot with every
*k* - 1 of the others. In round *r* (0, 1, ...) each pairing plays a match of its own
(:class:`~setback.match.runner.MatchPlan`: seats rotating from game to game, duplicate deals
with ``duplicate``) seeded ``seed + r``, so that every pairing of a round is dealt the same
cards. A game's record carries ``tournament`` (spec.md section 5) beside its ``match``
fields, and everything below is tallied from the records alone, so a stopped tournament
resumes from them and ends with the same table.

Two bots of a game *meet* when they play on different sides: the one whose side won scores
1 against the other, 0 the other way round, 1/2 each when a third side won. The cross table
is each two bots' score over their meetings, with a 95% interval (in a duplicate tournament
of 20 deals or more, paired by deal: the interval of the mean of each deal's score). The
standings give each bot's Elo, the Bradley-Terry (logistic) ratings likeliest to give all
the meetings, one virtual draw added to each two bots that met so that a clean sweep stays
finite, centred on 0, with 95% error bars from the inverse of the likelihood's curvature
(taking the meetings as independent, which errs wide for duplicate deals); for tables of
more than two, each bot's OpenSkill rating over every game in order; and its totals.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from setback.bots.registry import bot_name
from setback.bots.seat import Limits
from setback.engine import Rules, plain
from setback.match.plan import MatchPlan
from setback.match.runner import GameTask, check_record
from setback.match.tally import (
    PAIRED_MIN_DEALS,
    BotStats,
    MatchResult,
    openskill_ratings,
    paired_interval,
    wilson_interval,
)

FORMATS = ("round-robin", "gauntlet")
"""The ways to choose a tournament's pairings."""
ELO_SCALE = 400 / math.log(10)
"""Logistic Elo per unit of the log-odds of a meeting's score."""


@dataclass(frozen=True)
class TournamentPlan:
    """What a tournament is: its bots, format, table, games a pairing each round, rounds and seed."""

    specs: tuple[str, ...]
    rules: Rules
    format: str = "round-robin"
    games: int = 2
    """Games each pairing plays in each round."""
    rounds: int = 1
    seed: int = 0
    duplicate: bool = False
    limits: Limits = field(default_factory=Limits)

    def __post_init__(self) -> None:
        if self.format not in FORMATS:
            raise ValueError(f"a tournament's format is {' or '.join(FORMATS)}, not {self.format!r}")
        if len(self.specs) < self.seats:
            raise ValueError(f"a tournament of tables of {self.seats} bots needs at least {self.seats} bots, "
                             f"not {len(self.specs)}")
        if self.rounds < 1:
            raise ValueError(f"rounds are 1 or more, not {self.rounds}")
        self.matches()  # each match's plan checks that the table, the games and duplicate play fit

    @property
    def seats(self) -> int:
        """The bots at a table: one a side with teams, else one a seat."""
        return self.rules.teams or self.rules.players

    def pairings(self) -> list[tuple[int, ...]]:
        """Each pairing's bots, by their place in ``specs``, in the order the matches are played."""
        n, k = len(self.specs), self.seats
        if self.format == "gauntlet":
            return [(0, *others) for others in itertools.combinations(range(1, n), k - 1)]
        return list(itertools.combinations(range(n), k))

    def matches(self) -> list[MatchPlan]:
        """Every match, round by round, pairing by pairing (its place is its number)."""
        return [
            MatchPlan(tuple(self.specs[b] for b in bots), self.rules, self.games, self.seed + r, self.duplicate,
                      self.limits)
            for r in range(self.rounds) for bots in self.pairings()
        ]

    def place(self, number: int) -> tuple[int, int]:
        """The round and pairing of match ``number``."""
        return divmod(number, len(self.pairings()))

    def tournament_fields(self, number: int) -> dict[str, Any]:
        """The ``tournament`` object of match ``number``'s records (spec.md section 5)."""
        round_, pairing = self.place(number)
        return {"seed": self.seed, "format": self.format, "round": round_, "pairing": pairing,
                "bots": list(self.pairings()[pairing])}

    def match_of(self, record: dict[str, Any]) -> int:
        """The number of the match a record of this tournament belongs to; ValueError for any other record."""
        fields = record.get("tournament") or {}
        round_, pairing = fields.get("round"), fields.get("pairing")
        pairings = self.pairings()
        if (
            fields.get("seed") != self.seed or fields.get("format") != self.format
            or not isinstance(round_, int) or not isinstance(pairing, int)
            or not (0 <= round_ < self.rounds and 0 <= pairing < len(pairings))
            or fields.get("bots") != list(pairings[pairing])
        ):
            raise ValueError("a record is not from this tournament (other bots, format, seed or rounds)")
        return round_ * len(pairings) + pairing

    def as_dict(self) -> dict[str, Any]:
        return {"bots": list(self.specs), "format": self.format, "rules": plain(self.rules), "seed": self.seed,
                "games_per_pairing": self.games, "rounds": self.rounds, "duplicate": self.duplicate,
                "limit": self.limits.decision_seconds}


@dataclass
class Meetings:
    """What two bots scored against each other: points of the first, meetings, and by deal."""

    points: float = 0.0
    games: int = 0
    by_deal: dict[tuple[int, int], list[float]] = field(default_factory=dict)
    """Points and meetings on each deal, a deal named by its match and its number there."""

    def interval(self, duplicate: bool) -> tuple[float, float]:
        if duplicate and len(self.by_deal) >= PAIRED_MIN_DEALS:
            return paired_interval([points / games for points, games in self.by_deal.values()])
        return wilson_interval(self.points, self.games)


@dataclass
class TournamentResult:
    """A tournament's results, tallied from its records: each match's, and each two bots' meetings."""

    plan: TournamentPlan
    matches: list[MatchResult] = field(default_factory=list)
    meetings: dict[tuple[int, int], Meetings] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.matches:
            self.matches = [MatchResult(plan) for plan in self.plan.matches()]

    @property
    def games(self) -> int:
        return sum(m.games for m in self.matches)

    def add(self, number: int, record: dict[str, Any]) -> None:
        """Count one game of match ``number`` from its record."""
        result = self.matches[number]
        result.add(record)
        bots = self.plan.pairings()[self.plan.place(number)[1]]
        sides, winner = result.sides[record["match"]["game"]]
        deal = (number, record["match"]["deal"])
        for (side_a, at_a), (side_b, at_b) in itertools.combinations(enumerate(sides), 2):
            for a, b in itertools.product(at_a, at_b):
                score = 1.0 if winner == side_a else 0.0 if winner == side_b else 0.5
                for one, other, points in ((bots[a], bots[b], score), (bots[b], bots[a], 1 - score)):
                    met = self.meetings.setdefault((one, other), Meetings())
                    met.points += points
                    met.games += 1
                    tally = met.by_deal.setdefault(deal, [0.0, 0])
                    tally[0] += points
                    tally[1] += 1

    def totals(self) -> list[BotStats]:
        """Each bot's totals over all its matches."""
        totals = [BotStats(spec, bot_name(spec), duplicate=self.plan.duplicate) for spec in self.plan.specs]
        for number, result in enumerate(self.matches):
            bots = self.plan.pairings()[self.plan.place(number)[1]]
            for b, stats in zip(bots, result.stats, strict=True):
                into = totals[b]
                for name in ("games", "wins", "hands", "points", "net", "bids_won", "bids_made", "bids_set"):
                    setattr(into, name, getattr(into, name) + getattr(stats, name))
                into.deciding.add(stats.deciding)
                if stats.peak_rss_mb is not None:
                    into.peak_rss(stats.peak_rss_mb)
        return totals

    def elo(self) -> list[tuple[float, float]]:
        """Each bot's Elo and the half-width of its 95% interval (see the module's docstring)."""
        return bradley_terry(len(self.plan.specs), {
            pair: (met.points + 0.5, met.games + 1) for pair, met in self.meetings.items()
        })

    def openskill(self) -> list[tuple[float, float]] | None:
        """Each bot's OpenSkill mu and sigma over every game in order, for tables of more than two bots."""
        if self.plan.seats <= 2:
            return None
        games = []
        for number, result in enumerate(self.matches):
            bots = self.plan.pairings()[self.plan.place(number)[1]]
            for index in sorted(result.sides):
                sides, winner = result.sides[index]
                games.append(([[bots[b] for b in side] for side in sides], winner))
        return openskill_ratings(list(self.plan.specs), games)

    def labels(self) -> list[str]:
        specs = list(self.plan.specs)
        return [f"{spec} #{n}" if specs.count(spec) > 1 else spec for n, spec in enumerate(specs, 1)]

    def cross_table(self) -> list[list[dict[str, Any] | None]]:
        """Row ``i``, column ``j``: bot ``i``'s score against bot ``j`` (None where they never met)."""
        n = len(self.plan.specs)
        rows: list[list[dict[str, Any] | None]] = []
        for i in range(n):
            row: list[dict[str, Any] | None] = []
            for j in range(n):
                met = self.meetings.get((i, j))
                if met is None or not met.games:
                    row.append(None)
                    continue
                low, high = met.interval(self.plan.duplicate)
                row.append({"score": round(met.points / met.games, 4), "games": met.games,
                            "ci95": [round(low, 4), round(high, 4)]})
            rows.append(row)
        return rows

    def standings(self) -> list[dict[str, Any]]:
        """One row a bot, best Elo first, each with its ``rank`` (1 for the best) beside its
        number in the order the bots were named (``bot``)."""
        elo = self.elo()
        skill = self.openskill()
        rows: list[dict[str, Any]] = []
        for b, (label, stats) in enumerate(zip(self.labels(), self.totals(), strict=True)):
            met = [m for (one, _), m in self.meetings.items() if one == b]
            points, games = sum(m.points for m in met), sum(m.games for m in met)
            row = {
                "bot": b + 1, "label": label, "spec": stats.spec, "elo": round(elo[b][0], 1),
                "elo_ci95": round(elo[b][1], 1), "games": stats.games, "wins": stats.wins,
                "score": round(points / games, 4) if games else None,
                "points_per_hand": round(stats.points / stats.hands, 4) if stats.hands else 0.0,
                "set_rate": round(stats.bids_set / stats.bids_won, 4) if stats.bids_won else 0.0,
                "bids_won": stats.bids_won, **stats.clock_fields(),
            }
            if skill is not None:
                row["openskill"] = {"mu": round(skill[b][0], 3), "sigma": round(skill[b][1], 3)}
            rows.append(row)
        ranked = sorted(rows, key=lambda row: -row["elo"])
        return [{"rank": place, **row} for place, row in enumerate(ranked, start=1)]

    def as_dict(self) -> dict[str, Any]:
        return {
            "tournament": self.plan.as_dict(), "games": self.games, "standings": self.standings(),
            "cross_table": self.cross_table(),
            "matches": [{**self.plan.tournament_fields(number), "result": result.as_dict()}
                        for number, result in enumerate(self.matches)],
        }


def bradley_terry(n: int, scores: dict[tuple[int, int], tuple[float, float]]) -> list[tuple[float, float]]:
    """The Elo of ``n`` players likeliest to give ``scores[(i, j)]``, the points ``i`` took from
    ``j`` and their games, centred on 0, each with the half-width of its 95% interval
    (infinite for a player who met nobody)."""
    ratings = [0.0] * n
    played = {i for pair in scores for i in pair}
    for _ in range(100):
        gradient, information = _curvature(n, ratings, scores)
        step = _solve_centred(information, gradient, played)
        ratings = [r + s for r, s in zip(ratings, step, strict=True)]
        if max(map(abs, step), default=0.0) < 1e-9:
            break
    _, information = _curvature(n, ratings, scores)
    covariance = _centred_inverse(information, played)
    mean = sum(ratings[i] for i in played) / len(played) if played else 0.0
    return [
        ((ratings[i] - mean) * ELO_SCALE, 1.96 * ELO_SCALE * math.sqrt(max(covariance[i][i], 0.0)))
        if i in played else (0.0, math.inf)
        for i in range(n)
    ]


def _curvature(
    n: int, ratings: list[float], scores: dict[tuple[int, int], tuple[float, float]]
) -> tuple[list[float], list[list[float]]]:
    """The log-likelihood's gradient and its negative Hessian (the information) at ``ratings``
    (in natural units: a log-odds of 1 per unit)."""
    gradient = [0.0] * n
    information = [[0.0] * n for _ in range(n)]
    for (i, j), (points, games) in scores.items():
        expected = 1 / (1 + math.exp(ratings[j] - ratings[i]))
        gradient[i] += points - games * expected
        weight = games * expected * (1 - expected) / 2  # each two players are counted from both sides
        information[i][i] += weight
        information[j][j] += weight
        information[i][j] -= weight
        information[j][i] -= weight
    return gradient, information


def _centred_inverse(information: list[list[float]], players: Iterable[int]) -> list[list[float]]:
    """The covariance of ratings centred on their mean: the pseudo-inverse of the information
    over ``players``, found with the first of them held at 0, then centred."""
    chosen = sorted(players)
    n = len(information)
    covariance = [[0.0] * n for _ in range(n)]
    if len(chosen) < 2:
        return covariance
    free = chosen[1:]
    reduced = _inverse([[information[a][b] for b in free] for a in free])
    full = {a: {b: 0.0 for b in chosen} for a in chosen}
    for x, a in enumerate(free):
        for y, b in enumerate(free):
            full[a][b] = reduced[x][y]
    m = len(chosen)
    row_mean = {a: sum(full[a].values()) / m for a in chosen}
    total_mean = sum(row_mean.values()) / m
    for a in chosen:
        for b in chosen:
            covariance[a][b] = full[a][b] - row_mean[a] - row_mean[b] + total_mean
    return covariance


def _solve_centred(information: list[list[float]], gradient: list[float], players: set[int]) -> list[float]:
    """The Newton step: the information's (pseudo-)inverse applied to the gradient, over ``players``."""
    covariance = _centred_inverse(information, players)
    n = len(gradient)
    return [sum(covariance[i][j] * gradient[j] for j in range(n)) for i in range(n)]


def _inverse(matrix: list[list[float]]) -> list[list[float]]:
    """The inverse of a small positive definite matrix, by Gauss-Jordan elimination."""
    n = len(matrix)
    work = [[*row, *(1.0 if i == j else 0.0 for j in range(n))] for i, row in enumerate(matrix)]
    for column in range(n):
        pivot = max(range(column, n), key=lambda r: abs(work[r][column]))
        work[column], work[pivot] = work[pivot], work[column]
        lead = work[column][column]
        if lead == 0:
            raise ValueError("the ratings are not tied together: some bots never met the others")
        work[column] = [v / lead for v in work[column]]
        for r in range(n):
            if r != column and work[r][column]:
                factor = work[r][column]
                work[r] = [v - factor * w for v, w in zip(work[r], work[column], strict=True)]
    return [row[n:] for row in work]


def tournament_tasks(plan: TournamentPlan, done: list[set[int]]) -> list[tuple[int, GameTask]]:
    """Every game still to play, match by match, with its match's number (``done``: the games each has)."""
    return [
        (number, (match, index))
        for number, match in enumerate(plan.matches())
        for index in range(match.games) if index not in done[number]
    ]


def take_finished(plan: TournamentPlan, result: TournamentResult, records: Iterable[dict[str, Any]]) -> list[set[int]]:
    """Count ``records`` of a stopped run into ``result`` (each game once), refusing any from
    elsewhere; the games each match already has."""
    matches = plan.matches()
    done: list[set[int]] = [set() for _ in matches]
    kept: dict[tuple[int, int], dict[str, Any]] = {}
    for record in records:
        number = plan.match_of(record)
        index = check_record(matches[number], record)
        kept.setdefault((number, index), record)
    for (number, index), record in sorted(kept.items(), key=lambda item: item[0]):
        done[number].add(index)
        result.add(number, record)
    return done
