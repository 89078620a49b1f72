"""Two matches of the same deals, compared game by game.

A bot author changes a bot and plays the same match again (same opponents, ``--seed``,
``--games`` and ``--duplicate``): the games of the two record files are then dealt alike,
game for game, and differ only by what the first bot did. Comparing them game by game, a
deal at a time, cancels the luck of the cards that each score alone carries, so the paired
difference of the first bot's scores is far tighter than either score's own interval.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from setback.engine import Rules
from setback.engine.record import rules_of
from setback.match.tally import mean_interval


@dataclass(frozen=True)
class Played:
    """One game of a match file, as the comparison needs it."""

    deal: int
    seed: int
    seating: tuple[int, ...]
    won: float
    """The match's first bot's result: 1 if its side won the game, else 0."""


@dataclass(frozen=True)
class Match:
    """A match file's games by index, with what must agree for two of them to be compared."""

    players: tuple[str, ...]
    match_seed: int
    rules: dict[str, Any]
    games: dict[int, Played]

    @classmethod
    def of(cls, records: Iterable[dict[str, Any]]) -> Match:
        """The match of ``records`` (a ``setback match --out`` file's); ValueError when they are
        no match's records or not all of one match."""
        games: dict[int, Played] = {}
        first: dict[str, Any] | None = None
        rules = Rules()
        for record in records:
            if "match" not in record:
                raise ValueError("a record with no match data: compare the files of `setback match --out`")
            if first is None:
                first, rules = record, rules_of(record["rules"])
            elif (bots_of(record), record["match"]["seed"], record["rules"]) != (
                bots_of(first), first["match"]["seed"], first["rules"]
            ):
                raise ValueError(f"game {record['match']['game']} is of another match than game "
                                 f"{first['match']['game']} (its bots, seed or rules differ)")
            games[record["match"]["game"]] = played(record, rules)
        if first is None:
            raise ValueError("no games in the file")
        return cls(bots_of(first), first["match"]["seed"], first["rules"], games)


def bots_of(record: dict[str, Any]) -> tuple[str, ...]:
    """The match's bots in the order they were named (a record names its players seat by seat)."""
    seating: list[int] = record["match"]["seating"]
    bots = [""] * (max(seating) + 1)
    for seat, bot in enumerate(seating):
        bots[bot] = record["players"][seat]
    return tuple(bots)


def played(record: dict[str, Any], rules: Rules) -> Played:
    """The game of one record, played by ``rules``."""
    seating = tuple(record["match"]["seating"])
    winner = record["outcome"]["winner"]
    won = any(bot == 0 and rules.side_of(seat) == winner for seat, bot in enumerate(seating))
    return Played(record["match"]["deal"], record["seed"], seating, float(won))


@dataclass(frozen=True)
class Comparison:
    """The first bot of ``new`` against that of ``base``, on the games both files hold."""

    base: tuple[str, ...]
    new: tuple[str, ...]
    games: int
    deals: int
    base_score: float
    new_score: float
    difference: float
    """``new_score - base_score``: the mean over the deals of each deal's difference."""
    interval: tuple[float, float] | None
    """The difference's 95% interval, paired by deal (None under two deals)."""
    changed: int
    """Games whose winner changed."""
    deals_up: int
    deals_down: int

    @property
    def same_opponents(self) -> bool:
        """Whether both files' first bot met the same other bots (else the difference is not its alone)."""
        return self.base[1:] == self.new[1:]

    def as_dict(self) -> dict[str, Any]:
        return {
            "base": list(self.base), "new": list(self.new), "games": self.games, "deals": self.deals,
            "base_score": self.base_score, "new_score": self.new_score, "difference": self.difference,
            "interval": list(self.interval) if self.interval else None, "changed": self.changed,
            "deals_up": self.deals_up, "deals_down": self.deals_down, "same_opponents": self.same_opponents,
        }


def compare(base: Match, new: Match) -> Comparison:
    """Pair the games ``base`` and ``new`` both hold by index; ValueError when they are not the
    same deals (another ``--seed``, other rules or other seats) or share no game."""
    if base.rules != new.rules:
        raise ValueError("the matches were played by different rules")
    if len(base.players) != len(new.players):
        raise ValueError(f"the matches seat {len(base.players)} and {len(new.players)} bots")
    common = sorted(set(base.games) & set(new.games))
    if not common:
        raise ValueError("the matches share no game (compare files of the same --games and --seed)")
    by_deal: dict[int, list[tuple[float, float]]] = {}
    for index in common:
        old, now = base.games[index], new.games[index]
        if (old.seed, old.seating, old.deal) != (now.seed, now.seating, now.deal):
            raise ValueError(f"game {index} was dealt differently in the two matches: compare matches "
                             "played with the same --seed and --duplicate")
        by_deal.setdefault(old.deal, []).append((old.won, now.won))
    differences = [sum(n - o for o, n in results) / len(results) for results in by_deal.values()]
    mean = sum(differences) / len(differences)
    return Comparison(
        base=base.players,
        new=new.players,
        games=len(common),
        deals=len(by_deal),
        base_score=sum(base.games[i].won for i in common) / len(common),
        new_score=sum(new.games[i].won for i in common) / len(common),
        difference=mean,
        interval=mean_interval(differences) if len(differences) > 1 else None,
        changed=sum(base.games[i].won != new.games[i].won for i in common),
        deals_up=sum(d > 0 for d in differences),
        deals_down=sum(d < 0 for d in differences),
    )

