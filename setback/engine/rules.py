"""A table's rules: the number of players, the sides and the house options."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Final

TARGETS: Final = (7, 11, 21)
MIN_BIDS: Final = (1, 2)
"""The lowest bids a table may allow (the ``min_bid`` club option)."""
MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 7
HAND_SIZE: Final = 6


DEFAULT_HAND_LIMIT = 100
"""The hand limit a table has unless it says otherwise (see :class:`Rules`)."""


class LowRule(Enum):
    """Which side Low goes to (the ``low`` club option, RULES.md "Club options")."""

    DEALT = "dealt"
    """To the side of the player dealt the lowest trump in play, whoever captures it (the seeds' rule)."""
    CAPTURED = "captured"
    """To the side that captures the lowest trump in play in a trick."""


@dataclass(frozen=True, slots=True)
class Rules:
    """The options a table announces before play (spec.md, section 3).

    ``teams`` is ``None`` for cutthroat (every player a side of its own) or the
    number of partnerships T: T divides ``players``, each side has at least two
    players, and seat ``s`` sits on side ``s % T``.

    ``hand_limit`` is this project's own safeguard, not a rule of the seeds: when a hand
    is scored and its number is at least the limit (thrown-in hands count), a side alone
    on top of the scores wins, if no side has won by the rules (None: no limit). Sensible play
    ends a game long before the default of 100; players who never make their bids
    (uniformly random bots, say) can otherwise drift below zero for ever.

    The club options (RULES.md, "Club options") come last: ``min_bid`` is the lowest bid
    (1 or 2, also for a forced dealer); with ``dealer_steal`` the dealer may take the bid at
    the highest bid so far; ``low`` says whether Low goes to the side dealt the lowest trump
    or to the side that captures it. Their defaults are the seeds' game.
    """

    players: int = 4
    teams: int | None = None
    target: int = 11
    forced_dealer_bid: bool = True
    smudge: bool = False
    no_junk: bool = False
    hand_limit: int | None = DEFAULT_HAND_LIMIT
    min_bid: int = 1
    dealer_steal: bool = False
    low: LowRule = LowRule.DEALT

    def __post_init__(self) -> None:
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise ValueError(f"players must be {MIN_PLAYERS} to {MAX_PLAYERS}, not {self.players}")
        teams = self.teams
        if teams is not None and (teams < 2 or self.players % teams or self.players // teams < 2):
            raise ValueError(
                f"teams={teams} does not fit {self.players} players: the number of "
                "teams must be at least 2, divide the players, and seat two or more a side"
            )
        if self.hand_limit is not None and self.hand_limit < 1:
            raise ValueError(f"hand_limit must be at least 1 (or None), not {self.hand_limit}")
        if self.target not in TARGETS:
            raise ValueError(f"target must be one of {TARGETS}, not {self.target}")
        if self.min_bid not in MIN_BIDS:
            raise ValueError(f"min_bid must be one of {MIN_BIDS}, not {self.min_bid}")
        if not isinstance(self.low, LowRule):
            raise ValueError(f"low must be a LowRule ({', '.join(r.value for r in LowRule)}), not {self.low!r}")

    @property
    def sides(self) -> int:
        """How many sides score separately."""
        return self.players if self.teams is None else self.teams

    def side_of(self, seat: int) -> int:
        """The side that ``seat`` scores for."""
        return seat if self.teams is None else seat % self.teams

    def seats_of(self, side: int) -> tuple[int, ...]:
        """The seats on ``side``."""
        return tuple(s for s in range(self.players) if self.side_of(s) == side)
