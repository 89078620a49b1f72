"""Bot-vs-bot matches played straight through the engine (no network).

A :class:`MatchPlan` names the bots (SPECs), the rules, the number of games and the
match seed; everything else follows from it. Seating: with one SPEC a seat, game ``i``
seats bot ``(s + i) % n`` at seat ``s``; with one SPEC a side (``--teams T`` and T SPECs),
side ``j`` is played by bot ``(j + i) % T``, every seat of the side by its own instance.
Game ``i`` is dealt from :func:`game_seed` ``(S, i)``; in duplicate play deal ``i // n`` is
replayed ``n`` times (n: the number of SPECs), once per rotation, with new bots each time.

Each game becomes a JSONL record (:func:`setback.engine.game_record` plus the ``match``
fields of spec.md section 5), and the match's totals are tallied from the records
alone, so a stopped match resumes from its file.
"""

from __future__ import annotations

import asyncio
import functools
import math
import multiprocessing
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from setback.bots.base import Bot
from setback.bots.registry import bot_factory, bot_name
from setback.bots.seat import BotSeat, Clock, Limits
from setback.engine import Event, Game, GameWon, HandDealt, HandScored, Rules, game_record, plain, rules_of

_MASK64 = (1 << 64) - 1


def game_seed(match_seed: int, index: int) -> int:
    """The seed of deal ``index`` in a match seeded ``match_seed`` (splitmix64 of both)."""
    z = (match_seed * 0x9E3779B97F4A7C15 + (index + 1) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return (z ^ (z >> 31)) >> 1


@dataclass(frozen=True)
class MatchPlan:
    """What a match is: its bots (SPECs, in order), rules, games, seed, duplicate play and clock."""

    specs: tuple[str, ...]
    rules: Rules
    games: int
    seed: int = 0
    duplicate: bool = False
    limits: Limits = field(default_factory=Limits)

    def __post_init__(self) -> None:
        n, rules = len(self.specs), self.rules
        if n != rules.players and (rules.teams is None or n != rules.teams):
            sides = f" or one a side ({rules.teams})" if rules.teams else ""
            raise ValueError(f"{n} bots named for a table of {rules.players} players: "
                             f"name one bot a seat ({rules.players}){sides}")
        if self.games < 0:
            raise ValueError(f"games must be 0 or more, not {self.games}")
        if self.duplicate and self.games % n:
            raise ValueError(f"duplicate play replays each deal {n} times: --games must be a multiple of {n}")

    @property
    def by_side(self) -> bool:
        """True when each SPEC plays a whole side rather than one seat."""
        return len(self.specs) != self.rules.players

    def seating(self, index: int) -> tuple[int, ...]:
        """Which bot (by its position in ``specs``) plays each seat in game ``index``."""
        n = len(self.specs)
        unit = self.rules.side_of if self.by_side else int
        return tuple((unit(seat) + index) % n for seat in range(self.rules.players))

    def deal(self, index: int) -> int:
        """The deal game ``index`` is played from: the game itself, or in duplicate play ``index // n``."""
        return index // len(self.specs) if self.duplicate else index

    def game_seed(self, index: int) -> int:
        return game_seed(self.seed, self.deal(index))


async def play_game(game: Game, seats: list[BotSeat]) -> Game:
    """Play ``game`` to its end, asking ``seats[s]`` for seat ``s``'s decisions and telling the hooks."""
    news: list[Event] = list(game.events)
    while True:
        for event in news:
            if isinstance(event, HandDealt):
                for s in seats:
                    await s.notify(s.bot.on_hand_start, game.view(s.seat))
            elif isinstance(event, HandScored):
                for s in seats:
                    await s.notify(s.bot.on_hand_end, event.result)
            elif isinstance(event, GameWon):
                for s in seats:
                    await s.notify(s.bot.on_game_end, event.outcome)
        seat = game.to_act
        if seat is None:
            return game
        news = game.apply(await seats[seat].decide(game.view(seat)), seat)


def play_with(game: Game, bots: list[Bot], limits: Limits) -> tuple[Game, list[Clock]]:
    """Play ``game`` to its end with ``bots[seat]`` at each seat; the game and each seat's clock."""
    seats = [BotSeat(bot, seat, limits) for seat, bot in enumerate(bots)]
    try:
        asyncio.run(play_game(game, seats))
    finally:
        for s in seats:
            s.close()
    return game, [s.clock for s in seats]


def run_game(plan: MatchPlan, index: int) -> dict[str, Any]:
    """Play game ``index`` of ``plan`` with new bots and return its record."""
    seating = plan.seating(index)
    seed = plan.game_seed(index)
    bots = [bot_factory(plan.specs[b])(seed + seat) for seat, b in enumerate(seating)]
    game, clocks = play_with(Game(plan.rules, seed), bots, plan.limits)
    return game_record(
        game,
        players=[plan.specs[b] for b in seating],
        match={
            "seed": plan.seed,
            "game": index,
            "deal": plan.deal(index),
            "duplicate": plan.duplicate,
            "seating": list(seating),
            "limit": plan.limits.decision,
            "clock": [plain(c) for c in clocks],
        },
    )


def wilson_interval(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for ``wins`` out of ``games`` (0, 1 when there are none)."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class BotStats:
    """One bot's totals over a match (a bot playing a whole side counts each hand once)."""

    spec: str
    name: str
    games: int = 0
    wins: int = 0
    hands: int = 0
    points: int = 0
    bids_won: int = 0
    bids_made: int = 0
    bids_set: int = 0
    clock: Clock = field(default_factory=Clock)
    rating: tuple[float, float] | None = None

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def win_interval(self) -> tuple[float, float]:
        """The Wilson score 95% confidence interval of the win rate."""
        return wilson_interval(self.wins, self.games)

    @property
    def decision_ms(self) -> float:
        """The average time of one decision, in milliseconds."""
        return 1000 * self.clock.seconds / self.clock.decisions if self.clock.decisions else 0.0

    def as_dict(self) -> dict[str, Any]:
        low, high = self.win_interval()
        return {
            "spec": self.spec,
            "name": self.name,
            "games": self.games,
            "wins": self.wins,
            "win_rate": round(self.win_rate, 4),
            "win_rate_ci95": [round(low, 4), round(high, 4)],
            "hands": self.hands,
            "points_per_hand": round(self.points / self.hands, 4) if self.hands else 0.0,
            "bids_won": self.bids_won,
            "bids_made": self.bids_made,
            "bids_set": self.bids_set,
            "decisions": self.clock.decisions,
            "decision_ms": round(self.decision_ms, 3),
            "timeouts": self.clock.timeouts,
            "errors": self.clock.errors,
            **({"rating": {"mu": round(self.rating[0], 3), "sigma": round(self.rating[1], 3)}}
               if self.rating else {}),
        }


@dataclass
class MatchResult:
    """The totals of a match, bot by bot, in the order the bots were named."""

    plan: MatchPlan
    games: int = 0
    stats: list[BotStats] = field(default_factory=list)
    _sides: dict[int, tuple[list[list[int]], int]] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        if not self.stats:
            self.stats = [BotStats(spec, bot_name(spec)) for spec in self.plan.specs]

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
            self.stats[b].clock.add(Clock(**record["match"]["clock"][seat]))
        self._sides[record["match"]["game"]] = (bots_of_side, winner)
        self.games += 1
        for side, bots in enumerate(bots_of_side):
            for b in bots:
                self.stats[b].games += 1
                self.stats[b].wins += side == winner
        for hand in record["hands"]:
            result = hand["result"]
            if result is None:
                continue
            for side, bots in enumerate(bots_of_side):
                for b in bots:
                    self.stats[b].hands += 1
                    self.stats[b].points += result["points"][side]
            pitcher = self.stats[seating[result["pitcher"]]]
            pitcher.bids_won += 1
            pitcher.bids_set += result["set_back"]
            pitcher.bids_made += not result["set_back"]

    def rate(self) -> None:
        """OpenSkill (Plackett-Luce) ratings from every game in index order, winners first."""
        from openskill.models import PlackettLuce

        model = PlackettLuce()
        ratings = [model.rating(name=s.spec) for s in self.stats]
        for index in sorted(self._sides):
            sides, winner = self._sides[index]
            teams = [[ratings[b] for b in bots] for bots in sides if bots]
            ranks: list[float] = [1 if side == winner else 2 for side, bots in enumerate(sides) if bots]
            for bots, rated in zip([b for b in sides if b], model.rate(teams, ranks=ranks), strict=True):
                for b, rating in zip(bots, rated, strict=True):
                    ratings[b] = rating
        for stats, rating in zip(self.stats, ratings, strict=True):
            stats.rating = (rating.mu, rating.sigma)

    def as_dict(self) -> dict[str, Any]:
        plan = self.plan
        return {
            "rules": plain(plan.rules),
            "seed": plan.seed,
            "duplicate": plan.duplicate,
            "games": self.games,
            "bots": [s.as_dict() for s in self.stats],
        }


def check_record(plan: MatchPlan, record: dict[str, Any]) -> int:
    """The game index of a record written by ``plan``'s match; ValueError if another match wrote it."""
    match = record.get("match") or {}
    index = match.get("game")
    if (
        not isinstance(index, int)
        or not 0 <= index < plan.games
        or match.get("seed") != plan.seed
        or match.get("duplicate", False) != plan.duplicate
        or rules_of(record["rules"]) != plan.rules
        or tuple(match.get("seating", ())) != plan.seating(index)
        or record["players"] != [plan.specs[b] for b in plan.seating(index)]
        or record.get("outcome") is None
    ):
        raise ValueError(f"record of game {index} is not from this match (other bots, seed, rules or games)")
    return index


def play_match(
    plan: MatchPlan,
    *,
    jobs: int = 1,
    finished: Iterable[dict[str, Any]] = (),
    on_record: Callable[[dict[str, Any]], None] | None = None,
) -> MatchResult:
    """Play the games of ``plan`` not among ``finished`` records, on ``jobs`` processes; tally them all.

    ``on_record`` gets each new game's record, in game order. With deterministic bots the
    result is the same for any ``jobs``.
    """
    result = MatchResult(plan)
    done: set[int] = set()
    for record in finished:
        index = check_record(plan, record)
        if index not in done:
            done.add(index)
            result.add(record)
    for record in _records(plan, [i for i in range(plan.games) if i not in done], jobs):
        result.add(record)
        if on_record is not None:
            on_record(record)
    if len(plan.specs) > 2:
        result.rate()
    return result


def _records(plan: MatchPlan, indexes: list[int], jobs: int) -> Iterator[dict[str, Any]]:
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, not {jobs}")
    if jobs == 1 or len(indexes) < 2:
        for index in indexes:
            yield run_game(plan, index)
        return
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=context)
    try:
        yield from pool.map(functools.partial(run_game, plan), indexes)
    finally:
        pool.shutdown(cancel_futures=True)
