"""A table's rules: the number of players, the sides, the variant and the house options."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Final

from setback.engine.variants import VARIANTS, Variant, VariantRules

TARGETS: Final = (7, 10, 11, 21, 31, 52)
"""The targets a table may play to, at any variant (RULES.md, "Variants")."""
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


class RefusedCombination(ValueError):  # noqa: N818 - the name the wire's `refused` answers use
    """Two table options that do not go together (RULES.md, "Variants"). ``options`` are the two
    options' names (``variant``, ``teams``, ``min_bid``: the command line and the wire spell them
    the same way); the message names both with their values and says why."""

    def __init__(self, first: tuple[str, str], second: tuple[str, str], why: str) -> None:
        super().__init__(f"{first[0]} {first[1]} does not go with {second[0]} {second[1]}: {why}")
        self.options = (first[0], second[0])


class VariantDefault(Enum):
    """The value of an option left to the table's variant (``teams``: pedro plays in pairs)."""

    TEAMS = "the variant's sides"


VARIANT_TEAMS: Final = VariantDefault.TEAMS


@dataclass(frozen=True, slots=True, init=False)
class Rules:
    """The options a table announces before play (spec.md, section 3).

    ``variant`` is the game played (RULES.md, "Variants"; the standard game by default) and
    ``target`` the score to reach: one of :data:`TARGETS`, the variant's default when not given.

    ``teams`` is ``None`` for cutthroat (every player a side of its own) or the
    number of partnerships T: T divides ``players``, each side has at least two
    players, and seat ``s`` sits on side ``s % T``. Left out, it is the variant's: cutthroat,
    but pairs (``players // 2`` sides) in a variant played in partnerships only.

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

    players: int
    teams: int | None
    target: int
    forced_dealer_bid: bool
    smudge: bool
    no_junk: bool
    hand_limit: int | None
    min_bid: int
    dealer_steal: bool
    low: LowRule
    variant: Variant

    def __init__(
        self,
        players: int = 4,
        teams: int | VariantDefault | None = VARIANT_TEAMS,
        target: int | None = None,
        forced_dealer_bid: bool = True,
        smudge: bool = False,
        no_junk: bool = False,
        hand_limit: int | None = DEFAULT_HAND_LIMIT,
        min_bid: int = 1,
        dealer_steal: bool = False,
        low: LowRule = LowRule.DEALT,
        variant: Variant = Variant.STANDARD,
    ) -> None:
        if not isinstance(variant, Variant):
            raise ValueError(f"variant must be one of {', '.join(v.value for v in Variant)}, not {variant!r}")
        if teams is VARIANT_TEAMS:
            teams = players // 2 if VARIANTS[variant].partnerships_only else None
        values = (
            ("players", players), ("teams", teams),
            ("target", VARIANTS[variant].default_target if target is None else target),
            ("forced_dealer_bid", forced_dealer_bid), ("smudge", smudge), ("no_junk", no_junk),
            ("hand_limit", hand_limit), ("min_bid", min_bid), ("dealer_steal", dealer_steal),
            ("low", low), ("variant", variant),
        )
        for name, value in values:
            object.__setattr__(self, name, value)
        self._check()

    @property
    def of_variant(self) -> VariantRules:
        """What the table's variant changes (its deck, trump, points and bids)."""
        return VARIANTS[self.variant]

    @property
    def lowest_bid(self) -> int:
        """The lowest bid at this table, for a forced dealer too: the variant's, else ``min_bid``."""
        fixed = VARIANTS[self.variant].lowest_bid
        return self.min_bid if fixed is None else fixed

    @property
    def top_bid(self) -> int:
        """The highest bid, which is the smudge bid."""
        return VARIANTS[self.variant].top_bid

    def _check(self) -> None:
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
        variant = VARIANTS[self.variant]
        name = ("variant", self.variant.value)
        if variant.lowest_bid is not None and self.min_bid != 1:
            raise RefusedCombination(
                name, ("min_bid", str(self.min_bid)),
                f"its bids are {variant.lowest_bid} to {variant.top_bid}, whatever min_bid says",
            )
        if variant.partnerships_only and self.teams is None:
            raise RefusedCombination(name, ("teams", "none (cutthroat)"), "it is played in partnerships only")

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
