"""One test per rule line of RULES.md's "Variants" section, each on a set deal (or seeded games
checked against the rule written out again here), so each fails if its rule is broken."""

from __future__ import annotations

import itertools
import random

import pytest
from deals import act, deal, last_result

from setback.engine import (
    TARGETS,
    Card,
    Draw,
    Game,
    HandDealt,
    HandScored,
    IllegalActionError,
    LowRule,
    RefusedCombination,
    Rules,
    Suit,
    TrickWon,
    TrumpPitched,
    Variant,
    WinReason,
    winning_seat,
)

JOKER2 = Rules(players=2, variant=Variant.JOKER)
TEN2 = Rules(players=2, variant=Variant.TEN_POINT)
PEDRO = Rules(variant=Variant.PEDRO)
PIPS = {"A": 4, "K": 3, "Q": 2, "J": 1, "10": 10}


def legal_texts(game: Game) -> set[str]:
    return {str(a) for a in game.legal_actions()}


def play_out(game: Game) -> None:
    """Finish the current hand with the first legal card each turn."""
    hand = game.view(None).hand_number
    while not game.is_over and game.view(None).hand_number == hand:
        game.apply(game.legal_actions()[0])


def beats(variant: Variant, trump: Suit, high: str, low: str) -> bool:
    """``high`` wins a two-card trick against ``low``, whichever of them is led."""
    a, b = Card.parse(high), Card.parse(low)
    return all(
        winning_seat(plays, trump, variant) == winner
        for plays, winner in (((Draw(0, a), Draw(1, b)), 0), ((Draw(0, b), Draw(1, a)), 1))
    )


# -- common to all ---------------------------------------------------------------------------


def test_a_card_that_belongs_to_trump_must_be_played_when_trump_is_led() -> None:
    """Common: the off-jack is a trump for "anyone holding trump must play trump"."""
    game = deal(TEN2, 1, "AH 2D 3C 4C 5C 6C", "JD 7S 8S 9S 10S QS")
    act(game, "bid 4", "pass", "AH")
    assert legal_texts(game) == {"play JD"}


def test_a_card_that_belongs_to_trump_wins_as_a_trump() -> None:
    """Common: the off-jack, the off-five and a joker win tricks as trumps, over any card of the
    suit led and over the trumps they outrank."""
    assert beats(Variant.TEN_POINT, Suit.HEARTS, "JD", "AD")
    assert beats(Variant.TEN_POINT, Suit.HEARTS, "JD", "10H")
    assert beats(Variant.PEDRO, Suit.SPADES, "5C", "AC")
    assert beats(Variant.JOKER, Suit.CLUBS, "JK", "AH")


def test_the_printed_suit_of_the_pitch_is_trump() -> None:
    """Common: the pitcher may lead any card, and its printed suit becomes trump (an off-jack
    pitched makes its printed suit trump, and is then the jack of trump)."""
    game = deal(TEN2, 1, "JD 2H 3C 4C 5C 6C", "AH 7S 8S 9S 10S QS")
    act(game, "bid 4", "pass", "JD")
    pitched = next(e for e in game.events if isinstance(e, TrumpPitched))
    assert pitched.trump is Suit.DIAMONDS
    assert legal_texts(game) == {"play AH", "play 7S", "play 8S", "play 9S", "play 10S", "play QS"}


def test_a_pitched_joker_makes_spades_trump_and_is_trump_led() -> None:
    """Common and Readings: a joker pitched makes spades trump, and it is trump led: a seat
    holding spades must play one."""
    game = deal(JOKER2, 1, "JK 2H 3H 4H 5H 6H", "AS 7C 8C 9C 10C QC")
    act(game, "bid 1", "pass", "JK")
    pitched = next(e for e in game.events if isinstance(e, TrumpPitched))
    assert pitched.trump is Suit.SPADES
    assert legal_texts(game) == {"play AS"}


def test_jokers_are_never_high_or_low() -> None:
    """Common and Readings: jokers never count as High or Low; with no natural trump dealt,
    nobody takes either."""
    game = deal(JOKER2, 1, "JK 2H 3H 4H 5H 6H", "7C 8C 9C 10C QC KC")
    act(game, "bid 1", "pass", "JK")
    play_out(game)
    result = last_result(game)
    assert (result.high, result.low, result.high_card, result.low_card) == (None, None, None, None)
    assert sum(result.points) == 1 + (result.game is not None)  # the Joker, and Game if taken


def test_jokers_count_nothing_for_game_and_the_off_jack_counts_one() -> None:
    """Common and ten_point: a joker counts 0 for Game, the off-jack 1 as a jack."""
    for variant in (Variant.JOKER, Variant.TEN_POINT):
        rules = Rules(players=5, variant=variant)
        for seed in range(6):
            game = Game(rules, seed)
            rng = random.Random(seed)
            pips = [0] * rules.sides
            while not game.is_over:
                for event in game.apply(rng.choice(game.legal_actions())):
                    if isinstance(event, TrickWon):
                        for play in event.plays:
                            text = str(play.card)
                            pips[rules.side_of(event.winner)] += 0 if play.card.is_joker else PIPS.get(text[:-1], 0)
                    elif isinstance(event, HandScored):
                        assert event.result.game_pips == tuple(pips)
                        pips = [0] * rules.sides


def test_the_variants_top_bid_is_its_smudge_bid() -> None:
    """Common: with smudge, the variant's top bid (5 in joker) failed with two sides loses at
    once; a failed 4 there is an ordinary set-back."""
    hands = ("2H 3C 4C 5C 6C 7C", "AH JH KS QS 10S 9S")
    top = deal(Rules(players=2, smudge=True, variant=Variant.JOKER), 1, *hands)
    act(top, "bid 5", "pass", "2H")
    play_out(top)
    assert top.outcome is not None and top.outcome.reason is WinReason.SMUDGE_FAILED
    four = deal(Rules(players=2, smudge=True, variant=Variant.JOKER), 1, *hands)
    act(four, "bid 4", "pass", "2H")
    play_out(four)
    assert four.outcome is None and last_result(four).set_back


def test_a_forced_dealer_bids_from_the_variants_lowest_bid() -> None:
    """Common: a dealer whom everyone passed bids the variant's lowest bid (4 in ten_point) up."""
    game = deal(TEN2, 1, "AH 2D 3C 4C 5C 6C", "JD 7S 8S 9S 10S QS")
    act(game, "pass")
    assert legal_texts(game) == {f"bid {n}" for n in range(4, 11)}


# -- joker -------------------------------------------------------------------------------------


def dealt_cards(rules: Rules, hands: int = 30) -> set[Card]:
    """Every card dealt in the first ``hands`` hands of seeded games at ``rules``."""
    seen: set[Card] = set()
    game = Game(rules, 3)
    rng = random.Random(3)
    while len(seen) < 54 and sum(isinstance(e, HandDealt) for e in game.events) < hands and not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
        seen |= {c for e in game.events if isinstance(e, HandDealt) for h in e.hands for c in h}
    return seen


def test_joker_deals_53_cards() -> None:
    """joker: 53 cards, the 52 and one joker (and the standard game has no joker)."""
    assert dealt_cards(Rules(players=7, variant=Variant.JOKER)) == {Card(i) for i in range(52)} | {Card.parse("JK")}
    assert not any(c.is_joker for c in dealt_cards(Rules(players=7)))


def test_the_joker_is_the_lowest_trump() -> None:
    """joker: the joker is the lowest trump, below the two, and above any card not trump."""
    assert beats(Variant.JOKER, Suit.SPADES, "2S", "JK")
    assert beats(Variant.JOKER, Suit.SPADES, "JK", "AH")


def test_the_joker_point_goes_to_its_captor() -> None:
    """joker: the Joker point is 1 to the side that captures the joker in a trick."""
    game = deal(JOKER2, 1, "JK 2H 3H 4H 5H 6H", "AS 7C 8C 9C 10C QC")
    act(game, "bid 1", "pass", "JK", "AS")  # seat 1 captures the joker with the ace
    play_out(game)
    result = last_result(game)
    assert result.high == result.low == 1  # the ace: the only natural trump
    assert result.points == (0, 4)  # seat 1 takes every trick: High, Low, Joker and Game


def test_no_joker_point_when_the_joker_is_not_dealt() -> None:
    """joker: no Joker point for a joker not dealt: High, Low, Jack and Game only."""
    game = deal(JOKER2, 1, "AS 2H 3H 4H 5H 6H", "2S 7C 8C 9C 10C QC")
    act(game, "bid 1", "pass", "AS", "2S")
    play_out(game)
    result = last_result(game)
    assert sum(result.points) == 2 + (result.game is not None)


def test_low_is_the_lowest_natural_trump_dealt_or_captured() -> None:
    """joker: Low goes to the lowest natural trump (the two, not the joker below it), to the
    side dealt it, or with ``low`` captured to the side that captures it."""
    hands = ("AS JK 3H 4H 5H 6H", "2S 7C 8C 9C 10C QC")
    for low, points in ((LowRule.DEALT, (3, 1)), (LowRule.CAPTURED, (4, 0))):
        game = deal(Rules(players=2, variant=Variant.JOKER, low=low), 1, *hands)
        act(game, "bid 1", "pass", "AS", "2S")  # seat 0 then takes every trick, the joker's too
        play_out(game)
        result = last_result(game)
        assert (result.low_card, result.low, result.low_captured_by) == (Card.parse("2S"), 1, 0)
        assert result.points == points  # seat 0: High, Joker, Game (and Low when captured)


def test_joker_bids_and_target() -> None:
    """joker: bids ``min_bid`` to 5; the default target is 10."""
    assert Rules(variant=Variant.JOKER).target == 10
    game = deal(JOKER2, 1, "AS JK 3H 4H 5H 6H", "2S 7C 8C 9C 10C QC")
    assert legal_texts(game) == {"pass", *(f"bid {n}" for n in range(1, 6))}
    game = deal(Rules(players=2, variant=Variant.JOKER, min_bid=2), 1, "AS JK 3H 4H 5H 6H", "2S 7C 8C 9C 10C QC")
    assert legal_texts(game) == {"pass", *(f"bid {n}" for n in range(2, 6))}


# -- ten_point -----------------------------------------------------------------------------------


def test_ten_point_deals_54_cards_with_two_jokers_told_apart() -> None:
    """ten_point: 54 cards, the 52 and two jokers told apart, big and little."""
    big, little = Card.parse("BJ"), Card.parse("LJ")
    assert big != little and str(big) == "BJ" and str(little) == "LJ"
    assert dealt_cards(Rules(players=7, variant=Variant.TEN_POINT)) == {Card(i) for i in range(52)} | {big, little}


def test_the_off_jack_is_not_a_card_of_its_printed_suit() -> None:
    """ten_point and Readings: the off-jack (the jack of the other suit of trump's colour) is a
    trump and not a card of its printed suit: a seat holding it and no other diamond may play
    any card when diamonds are led."""
    game = deal(TEN2, 1, "AH 2D 3C 4C 5C 6C", "JD 7H 8S 9S 10S QS")
    act(game, "bid 4", "pass", "AH")
    assert legal_texts(game) == {"play JD", "play 7H"}
    act(game, "7H", "2D")
    assert legal_texts(game) == {"play JD", "play 8S", "play 9S", "play 10S", "play QS"}
    for trump, off in ((Suit.SPADES, "JC"), (Suit.CLUBS, "JS"), (Suit.DIAMONDS, "JH")):
        assert beats(Variant.TEN_POINT, trump, off, "AD" if trump is not Suit.DIAMONDS else "AC")


def test_ten_point_trump_rank() -> None:
    """ten_point: trump ranks A K Q J, off-jack, big joker, little joker, 10 9 8 7 6 5 4 3 2."""
    order = ["AH", "KH", "QH", "JH", "JD", "BJ", "LJ", "10H", "9H", "8H", "7H", "6H", "5H", "4H", "3H", "2H"]
    for higher, lower in itertools.pairwise(order):
        assert beats(Variant.TEN_POINT, Suit.HEARTS, higher, lower), (higher, lower)


def test_ten_point_card_points_go_to_their_captors() -> None:
    """ten_point: Jack, Off-jack, Big and Little joker 1 each and the Three of trump 3, each to
    the side that captures the card in a trick; High and Low as usual; ten points in all."""
    hands = ("AH JH JD BJ LJ 3H", "2H 7C 8C 9C 10C QC")
    game = deal(TEN2, 1, *hands)
    act(game, "bid 4", "pass", "AH", "2H")
    play_out(game)
    result = last_result(game)
    assert result.high == 0 and result.low == 1 and result.jack == 0
    game_point = 0 if result.game is None else 1
    # seat 0: High, Jack, Off-jack, Big joker, Little joker, Three (3); seat 1: Low (dealt).
    assert sum(result.points) == 9 + game_point
    assert result.points[1] == 1 + (result.game == 1)


def test_a_ten_point_card_not_dealt_scores_nothing() -> None:
    """ten_point: none for a card not dealt: without jokers, off-jack or three, only High, Low,
    Jack and Game are in play."""
    game = deal(TEN2, 1, "AH JH 4C 5C 6C 7C", "2H 8C 9C 10C QC KC")
    act(game, "bid 4", "pass", "AH", "2H")
    play_out(game)
    assert sum(last_result(game).points) == 3 + (last_result(game).game is not None)


def test_one_card_may_score_several_points() -> None:
    """Readings: a three of trump that is also Low scores both (Low to the side dealt it with
    ``low`` dealt, to its captor with ``low`` captured; the Three to its captor)."""
    hands = ("AH 4C 5C 6C 7C 8C", "3H 9S 10S QS KS 2D")
    for low, expected_seat_1 in ((LowRule.DEALT, 1), (LowRule.CAPTURED, 0)):
        game = deal(Rules(players=2, variant=Variant.TEN_POINT, low=low), 1, *hands)
        act(game, "bid 4", "pass", "AH", "3H")
        play_out(game)
        result = last_result(game)
        assert result.low_card == Card.parse("3H") and result.low == 1
        game_points = [int(result.game == side) for side in range(2)]
        assert result.points == (1 + 3 + (1 - expected_seat_1) + game_points[0], expected_seat_1 + game_points[1])


def test_ten_point_bids_target_and_refused_min_bid() -> None:
    """ten_point: bids 4 to 10; ``min_bid`` does not apply and is refused; default target 21."""
    assert Rules(variant=Variant.TEN_POINT).target == 21
    game = deal(TEN2, 1, "AH 2D 3C 4C 5C 6C", "JD 7S 8S 9S 10S QS")
    assert legal_texts(game) == {"pass", *(f"bid {n}" for n in range(4, 11))}
    with pytest.raises(IllegalActionError):
        act(game, "bid 3")
    with pytest.raises(RefusedCombination, match=r"variant ten_point.*min_bid 2") as refused:
        Rules(variant=Variant.TEN_POINT, min_bid=2)
    assert refused.value.options == ("variant", "min_bid")


# -- pedro -----------------------------------------------------------------------------------


PEDRO_DEAL = (
    "JH 3S 4S 6S 7S 8S",
    "AH 5H 5D 2C 3C 4C",
    "KH 6C 7C 8C 9C 10C",
    "QH JC QC KC AC 2S",
)


def test_pedro_is_played_in_partnerships_only() -> None:
    """pedro: a cutthroat table is refused; 4 players in two pairs by default (pairs at 6)."""
    assert (PEDRO.players, PEDRO.teams) == (4, 2)
    assert Rules(players=6, variant=Variant.PEDRO).teams == 3
    with pytest.raises(RefusedCombination, match=r"variant pedro.*teams") as refused:
        Rules(variant=Variant.PEDRO, teams=None)
    assert refused.value.options == ("variant", "teams")


def test_the_off_five_ranks_directly_below_the_five_of_trump() -> None:
    """pedro: the off-five (the five of the other suit of trump's colour) is a trump, directly
    below the five of trump and above its four."""
    assert beats(Variant.PEDRO, Suit.HEARTS, "5H", "5D")
    assert beats(Variant.PEDRO, Suit.HEARTS, "5D", "4H")
    assert beats(Variant.PEDRO, Suit.CLUBS, "5S", "AH")


def test_pedro_fives_score_to_their_captors_and_the_off_five_can_be_low() -> None:
    """pedro: the Five of trump 2 and the Off-five 3 to the side that captures each; the off-five
    is a natural trump, so it is Low when no lower trump was dealt."""
    game = deal(PEDRO, 0, *PEDRO_DEAL)
    act(game, "bid 9", "pass", "pass", "pass", "AH", "KH", "QH", "JH", "5H")
    play_out(game)
    result = last_result(game)
    assert (result.high, result.low, result.low_card, result.jack) == (1, 1, Card.parse("5D"), 1)
    side1 = 1 + 1 + 1 + 2 + 3  # High, Low, Jack, Five, Off-five
    assert result.points == (int(result.game == 0), side1 + int(result.game == 1))


def test_pedro_bids_and_target() -> None:
    """pedro: bids ``min_bid`` to 9; the default target is 31."""
    assert PEDRO.target == 31
    game = deal(Rules(variant=Variant.PEDRO, min_bid=2), 0, *PEDRO_DEAL)
    assert legal_texts(game) == {"pass", *(f"bid {n}" for n in range(2, 10))}


# -- every variant -----------------------------------------------------------------------------


def test_every_target_at_every_variant() -> None:
    """``target`` may be 7, 10, 11, 21, 31 or 52 at any variant; the variant's default applies
    when the table does not set one; any other target is refused."""
    assert TARGETS == (7, 10, 11, 21, 31, 52)
    for variant in Variant:
        assert {Rules(variant=variant, target=t).target for t in TARGETS} == set(TARGETS)
        with pytest.raises(ValueError, match="target"):
            Rules(variant=variant, target=12)
    assert Rules().target == 11


def test_six_cards_a_seat_at_every_variant() -> None:
    """Chosen here: six cards dealt as in the standard game, so joker and ten_point seat 2 to 7
    and pedro 4 or 6."""
    for variant, players in ((Variant.JOKER, 7), (Variant.TEN_POINT, 7), (Variant.PEDRO, 6)):
        game = Game(Rules(players=players, variant=variant), 1)
        dealt = next(e for e in game.events if isinstance(e, HandDealt))
        assert [len(h) for h in dealt.hands] == [6] * players
    for players in (2, 3, 5, 7):
        with pytest.raises(ValueError):
            Rules(players=players, variant=Variant.PEDRO)
