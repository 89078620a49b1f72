"""A finished (or unfinished) game as a plain, JSON-ready record.

The record holds the rules, the seed and every action (enough to replay the game
with :meth:`setback.engine.Game.replay`), and, for readers without the engine,
every hand's deal, bids, tricks and result and the final scores: enough to
re-score the game independently. Cards are written ``AS``/``10H``, suits as their
letter, actions as ``pass``/``bid 2``/``play 10H``. The same format is written by
``setback match --out`` and by the server's exports.
"""

from __future__ import annotations

import dataclasses
from enum import Enum
from typing import Any

from setback.engine.actions import ACTIONS, parse_action
from setback.engine.cards import CARD_TEXT, Card, Suit
from setback.engine.events import (
    BidMade,
    CardPlayed,
    CardsDrawn,
    DealerChosen,
    HandDealt,
    HandScored,
    HandThrownIn,
    Passed,
    TrickWon,
    Value,
)
from setback.engine.game import Game, Setup
from setback.engine.rules import LowRule, Rules
from setback.engine.variants import Variant

RECORD_VERSION = 1


def plain(value: Any) -> Any:
    """``value`` as JSON-ready Python: dataclasses and the engine's values (:class:`Value`) as
    dicts, cards and suits as text."""
    kind = type(value)
    if kind in _AS_IS:
        return value
    if kind is tuple or kind is list:
        return [plain(v) for v in value]
    if kind is Card:
        return CARD_TEXT[value]
    if kind is Suit:
        return value.letter
    names = _FIELDS.get(kind)
    if names is not None:
        return {name: plain(getattr(value, name)) for name in names}
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, Suit):
        return value.letter
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, Value):
        names = _FIELDS[kind] = value.__match_args__
        return {name: plain(getattr(value, name)) for name in names}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        names = _FIELDS[kind] = tuple(f.name for f in dataclasses.fields(value))
        return {name: plain(getattr(value, name)) for name in names}
    if isinstance(value, tuple | list):
        return [plain(v) for v in value]
    return value


_AS_IS: frozenset[type] = frozenset({int, str, bool, float, type(None)})
"""The types :func:`plain` gives back as they are (a record holds many of them)."""
_FIELDS: dict[type, tuple[str, ...]] = {}
_ACTION_TEXT: tuple[str, ...] = tuple(map(str, ACTIONS))
"""Each action's text form, by its code."""
"""Each dataclass :func:`plain` has met, with its fields' names (looked up once a class)."""


def rules_of(data: dict[str, Any]) -> Rules:
    """The :class:`Rules` written by :func:`plain` (unknown keys are an error); an option a
    record leaves out (one written before the option existed) has its default."""
    if "low" in data:
        data = {**data, "low": LowRule(data["low"])}
    if "variant" in data:
        data = {**data, "variant": Variant(data["variant"])}
    return Rules(**data)


def game_record(game: Game, **extra: Any) -> dict[str, Any]:
    """The record of ``game`` so far; ``extra`` keys (players' names, match data) are added."""
    draws: list[Any] = []
    hands: list[dict[str, Any]] = []
    first_dealer = None
    for event in game.events:
        if type(event) is CardPlayed:  # most events: the tricks say the same
            continue
        match event:
            case CardsDrawn(draws=round_):
                draws.append(plain(round_))
            case DealerChosen(dealer=dealer):
                first_dealer = dealer
            case HandDealt():
                hands.append(
                    {
                        "number": event.hand_number,
                        "dealer": event.dealer,
                        "cut": event.cut,
                        "deal": [[CARD_TEXT[card] for card in cards] for cards in event.hands],
                        "bids": [],
                        "tricks": [],
                        "thrown_in": False,
                        "result": None,
                    }
                )
            case Passed(seat=seat):
                hands[-1]["bids"].append({"seat": seat, "bid": None})
            case BidMade(seat=seat, amount=amount):
                hands[-1]["bids"].append({"seat": seat, "bid": amount})
            case HandThrownIn():
                hands[-1]["thrown_in"] = True
            case TrickWon(winner=winner, plays=plays):
                hands[-1]["tricks"].append(
                    {"leader": plays[0].seat, "cards": [CARD_TEXT[p.card] for p in plays], "winner": winner}
                )
            case HandScored(result=result):
                hands[-1]["result"] = plain(result)
            case _:
                pass
    outcome = game.outcome
    return {
        "version": RECORD_VERSION,
        "rules": plain(game.rules),
        "seed": game.seed,
        **({"setup": plain(game.setup)} if game.setup else {}),
        **extra,
        "draws": draws,
        "first_dealer": first_dealer,
        "hands": hands,
        "actions": [_ACTION_TEXT[a.code] for a in game.actions],
        "scores": list(game.scores),
        "outcome": plain(outcome) if outcome else None,
    }


def replay_record(record: dict[str, Any]) -> Game:
    """Replay a record's actions from its rules and seed (raises on any illegal action)."""
    actions = [parse_action(text) for text in record["actions"]]
    setup = None
    if record.get("setup"):
        data = record["setup"]
        hands = tuple(tuple(Card.parse(c) for c in cards) for cards in data["hands"])
        scores = tuple(data["scores"]) if data.get("scores") is not None else None
        setup = Setup(hands, int(data["dealer"]), scores)
    return Game.replay(rules_of(record["rules"]), int(record["seed"]), actions, setup)
