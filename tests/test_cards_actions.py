"""Cards and actions: text forms that round-trip, codes, and clear errors."""

from __future__ import annotations

import pytest

from setback.engine import (
    ACTIONS,
    CARDS,
    Bid,
    Card,
    Pass,
    Play,
    Suit,
    action_of,
    cards_of,
    mask_of,
    parse_action,
)


def test_every_card_round_trips_through_text() -> None:
    texts = [str(card) for card in CARDS]
    assert len(set(texts)) == 52
    assert all(Card.parse(t) == c for t, c in zip(texts, CARDS, strict=True))
    assert [str(Card.parse(t)) for t in ("AS", "10H", "QD", "2C", "th", " ks ")] == [
        "AS", "10H", "QD", "2C", "10H", "KS",
    ]


def test_card_parts() -> None:
    ten = Card.parse("10H")
    assert (ten.rank, ten.suit, ten.pips) == (10, Suit.HEARTS, 10)
    assert Card.of(14, Suit.SPADES) == Card.parse("AS") == 51
    assert [Card.parse(t).pips for t in ("AS", "KS", "QS", "JS", "10S", "9S", "2S")] == [4, 3, 2, 1, 10, 0, 0]


@pytest.mark.parametrize("bad", ["", "A", "1H", "11S", "AX", "10", "ZZ", "AS!"])
def test_bad_card_text_is_a_clear_error(bad: str) -> None:
    with pytest.raises(ValueError, match="not a card"):
        Card.parse(bad)


def test_every_action_round_trips_through_text_and_code() -> None:
    for code, action in enumerate(ACTIONS):
        assert action.code == code
        assert action_of(code) == action
        assert parse_action(str(action)) == action
    assert parse_action("PLAY as") == Play(Card.parse("AS"))
    assert parse_action("bid 3") == Bid(3)
    assert parse_action(" pass ") == Pass()


BAD_ACTIONS = ["", "bid", "bid 0", "bid 11", "bid two", "play", "play 1H", "fold", "pass now"]


@pytest.mark.parametrize("bad", BAD_ACTIONS)
def test_bad_action_text_is_a_clear_error(bad: str) -> None:
    with pytest.raises(ValueError):
        parse_action(bad)


def test_masks_and_cards() -> None:
    hand = tuple(Card.parse(t) for t in ("2C", "AS", "10H"))
    assert cards_of(mask_of(hand)) == tuple(sorted(hand))
    with pytest.raises(ValueError):
        action_of(66)
