"""What a match is, before any game of it is played: its plan and the seed of each deal.

The runner (:mod:`setback.match.runner`) plays a plan and the tally
(:mod:`setback.match.tally`) counts its games; both read this, neither the other's plan.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from setback.bots.seat import Limits
from setback.engine import Rules

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
            raise ValueError(f"a table of {rules.players} players takes one bot a seat ({rules.players}){sides}, "
                             f"not {n}")
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
