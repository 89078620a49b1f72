"""A player's actions: pass, bid, play a card; their codes and text forms.

Every action has a small integer code, used by the engine's fast core and by
search bots: ``0``-``51`` play that card, ``52`` passes, ``53``-``62`` bid 1-10 (a variant's
bid range decides which are ever legal), ``63``-``65`` play a joker (``JK``, ``BJ``, ``LJ``):
a play's code is always its card's index.
The text forms are ``pass``, ``bid 2`` and ``play 10H``; :func:`parse_action`
reads them back, and ``str(action)`` writes them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from setback.engine.cards import CARDS, JOKERS, Card
from setback.engine.variants import TOP_BID

PASS_CODE: Final = 52
"""The code of a pass; a bid of ``n`` is ``PASS_CODE + n``; a play is the card's index."""

MAX_BID: Final = TOP_BID
"""The highest bid of any variant (each variant's own range is in :mod:`setback.engine.variants`)."""


@dataclass(frozen=True, slots=True)
class Pass:
    """Decline to bid."""

    code: int = field(default=PASS_CODE, init=False, repr=False, compare=False)
    """The action's code (read on every move, so kept, not computed)."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Bid:
    """Bid to win at least ``amount`` of the hand's points (1 to :data:`MAX_BID`; the table's
    variant and options say which amounts are legal)."""

    amount: int
    code: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not 1 <= self.amount <= MAX_BID:
            raise ValueError(f"a bid is 1 to {MAX_BID}, not {self.amount}")
        object.__setattr__(self, "code", PASS_CODE + self.amount)

    def __str__(self) -> str:
        return f"bid {self.amount}"


@dataclass(frozen=True, slots=True)
class Play:
    """Play ``card`` to the current trick."""

    card: Card
    code: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "code", int(self.card))

    def __str__(self) -> str:
        return f"play {self.card}"


Action = Pass | Bid | Play
"""Anything a seat can do when it is its turn."""

ACTIONS: Final[tuple[Action, ...]] = (
    *(Play(card) for card in CARDS),
    Pass(),
    *(Bid(n) for n in range(1, MAX_BID + 1)),
    *(Play(card) for card in JOKERS),
)
"""Every action, indexed by its code."""


def action_of(code: int) -> Action:
    """The action with ``code``; ValueError for a code that is none."""
    if not 0 <= code < len(ACTIONS):
        raise ValueError(f"not an action code: {code}")
    return ACTIONS[code]


_BY_TEXT: Final = {str(action): action for action in ACTIONS}


def parse_action(text: str) -> Action:
    """Read ``pass``, ``bid 2`` or ``play 10H`` (case-insensitive); ValueError otherwise."""
    exact = _BY_TEXT.get(text)
    if exact is not None:
        return exact
    words = text.split()
    verb = words[0].lower() if words else ""
    if verb == "pass" and len(words) == 1:
        return ACTIONS[PASS_CODE]
    if verb == "bid" and len(words) == 2 and words[1].isdigit():
        return Bid(int(words[1]))
    if verb == "play" and len(words) == 2:
        return ACTIONS[Card.parse(words[1])]
    raise ValueError(f"not an action: {text!r} (expected 'pass', 'bid N' or 'play CARD')")
