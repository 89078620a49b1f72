"""Bot-vs-bot matches played straight through the engine (no network).

Game ``i`` of a match with seed ``S`` is dealt from :func:`game_seed` ``(S, i)`` and
seats bot ``(s + i) % n`` at seat ``s``, so every bot plays from every seat in turn
and the whole match is reproducible from its seed.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from setback.bots.base import Bot
from setback.bots.registry import bot_name, load_bot_class
from setback.engine import Game, HandScored, Rules, game_record, plain

_MASK64 = (1 << 64) - 1


def game_seed(match_seed: int, index: int) -> int:
    """The seed of game ``index`` in a match seeded ``match_seed`` (splitmix64 of both)."""
    z = (match_seed * 0x9E3779B97F4A7C15 + (index + 1) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return (z ^ (z >> 31)) >> 1


def play_game(game: Game, bots: list[Bot]) -> Game:
    """Play ``game`` to its end, asking ``bots[seat]`` for every decision."""
    while not game.is_over:
        seat = game.to_act
        assert seat is not None
        game.apply(bots[seat].act(game.view(seat)), seat)
    return game


@dataclass
class BotStats:
    """One bot's totals over a match."""

    spec: str
    name: str
    games: int = 0
    wins: int = 0
    hands: int = 0
    points: int = 0
    bids_won: int = 0
    bids_made: int = 0
    bids_set: int = 0

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def win_interval(self) -> tuple[float, float]:
        """The Wilson score 95% confidence interval of the win rate."""
        return wilson_interval(self.wins, self.games)

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
        }


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
class MatchResult:
    """The totals of a match, bot by bot, in the order the bots were named."""

    rules: Rules
    seed: int
    games: int = 0
    stats: list[BotStats] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {
            "rules": plain(self.rules),
            "seed": self.seed,
            "games": self.games,
            "bots": [s.as_dict() for s in self.stats],
        }


def seating(n_bots: int, index: int) -> list[int]:
    """Which bot (by position in the match) sits at each seat in game ``index``."""
    return [(seat + index) % n_bots for seat in range(n_bots)]


def play_match(
    specs: list[str],
    games: int,
    seed: int,
    rules: Rules,
    on_game: Callable[[int, Game, list[int]], None] | None = None,
) -> MatchResult:
    """Play ``games`` games between the bots named by ``specs`` (one a seat)."""
    if len(specs) != rules.players:
        raise ValueError(f"{len(specs)} bots named for a table of {rules.players} players")
    classes = [load_bot_class(spec) for spec in specs]
    result = MatchResult(rules, seed, stats=[BotStats(spec, bot_name(spec)) for spec in specs])
    for index, game, seats in _games(classes, games, seed, rules):
        _tally(result, game, seats)
        if on_game is not None:
            on_game(index, game, seats)
    return result


def _games(
    classes: list[type[Bot]], games: int, seed: int, rules: Rules
) -> Iterator[tuple[int, Game, list[int]]]:
    for index in range(games):
        gseed = game_seed(seed, index)
        seats = seating(len(classes), index)
        bots = [classes[b](seed=gseed + seat) for seat, b in enumerate(seats)]
        yield index, play_game(Game(rules, gseed), bots), seats


def _tally(result: MatchResult, game: Game, seats: list[int]) -> None:
    rules = game.rules
    outcome = game.outcome
    assert outcome is not None
    result.games += 1
    for seat, b in enumerate(seats):
        stats = result.stats[b]
        stats.games += 1
        if rules.side_of(seat) == outcome.winner:
            stats.wins += 1
    for event in game.events:
        if not isinstance(event, HandScored):
            continue
        hand = event.result
        for seat, b in enumerate(seats):
            stats = result.stats[b]
            stats.hands += 1
            stats.points += hand.points[rules.side_of(seat)]
        pitcher = result.stats[seats[hand.pitcher]]
        pitcher.bids_won += 1
        if hand.set_back:
            pitcher.bids_set += 1
        else:
            pitcher.bids_made += 1


def match_record(game: Game, specs: list[str], seats: list[int], seed: int, index: int) -> dict[str, Any]:
    """The JSONL record of one match game: the game record plus who sat where."""
    return game_record(
        game,
        players=[specs[b] for b in seats],
        match={"seed": seed, "game": index},
    )
