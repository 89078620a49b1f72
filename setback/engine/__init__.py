"""The rules of Setback (Auction Pitch) as a pure, seeded, sans-IO engine.

Make a :class:`Rules`, start a :class:`Game` from a seed, and drive it: ask
``to_act`` and ``legal_actions()``, ``apply()`` an action, read the events it
returns and ``view(seat)``. :class:`GameState` is the fast core under it for
search code, speaking integer action codes; :func:`state_from_view` rebuilds it
from a seat's view and sampled hidden hands.
"""

from setback.engine.actions import (
    ACTIONS,
    MAX_BID,
    PASS_CODE,
    Action,
    Bid,
    Pass,
    Play,
    action_of,
    parse_action,
)
from setback.engine.cards import BIG_JOKER, CARD_TEXT, CARDS, EVERY_CARD, JOKER, JOKERS, LITTLE_JOKER, Card, Suit
from setback.engine.deck import cards_of, mask_of
from setback.engine.events import (
    Award,
    BidMade,
    CardPlayed,
    CardsDrawn,
    DealerChosen,
    Draw,
    Event,
    GameWon,
    HandDealt,
    HandResult,
    HandScored,
    HandThrownIn,
    Outcome,
    Passed,
    Phase,
    PitcherChosen,
    TrickWon,
    TrumpPitched,
    WinReason,
)
from setback.engine.game import Game, IllegalActionError, NotYourTurnError, Setup, View, redact
from setback.engine.position import Positions, hand_actions, played_by, state_from_view
from setback.engine.record import game_record, plain, replay_record, rules_of
from setback.engine.rules import (
    DEFAULT_HAND_LIMIT,
    HAND_SIZE,
    MAX_PLAYERS,
    MIN_BIDS,
    MIN_PLAYERS,
    TARGETS,
    VARIANT_TEAMS,
    LowRule,
    RefusedCombination,
    Rules,
)
from setback.engine.state import GameState
from setback.engine.trick import is_trump, lead_strengths, suit_cards, suit_of, trick_strengths, winning_seat
from setback.engine.variants import VARIANTS, Point, Variant, VariantRules

__all__ = [
    "ACTIONS", "BIG_JOKER", "CARD_TEXT", "EVERY_CARD", "JOKER", "JOKERS", "LITTLE_JOKER", "VARIANTS",
    "VARIANT_TEAMS", "Award",
    "Point", "RefusedCombination", "Variant", "VariantRules",
    "CARDS", "DEFAULT_HAND_LIMIT", "HAND_SIZE", "MAX_BID", "MAX_PLAYERS", "MIN_BIDS", "MIN_PLAYERS",
    "PASS_CODE", "TARGETS", "Action", "Bid", "BidMade", "Card", "CardPlayed", "CardsDrawn", "DealerChosen",
    "Draw", "Event", "Game", "GameState", "GameWon", "HandDealt", "HandResult", "HandScored",
    "HandThrownIn", "IllegalActionError", "LowRule", "NotYourTurnError", "Outcome", "Pass", "Passed",
    "Phase", "PitcherChosen", "Play", "Positions", "Rules", "Setup", "Suit", "TrickWon", "TrumpPitched", "View",
    "WinReason", "action_of", "cards_of", "game_record", "hand_actions", "mask_of", "parse_action",
    "plain", "played_by", "redact", "replay_record", "rules_of", "state_from_view", "winning_seat",
    "is_trump", "lead_strengths", "suit_cards", "suit_of", "trick_strengths",
]
