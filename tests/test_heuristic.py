"""The heuristic bot follows the seeds' advice: one rule per test, on set deals."""

from __future__ import annotations

from deals import act, deal

from setback.bots import HeuristicBot
from setback.bots.tactics import TRUMPS, lead_card
from setback.engine import Game, LowRule, Rules, Variant


def choice(game: Game) -> str:
    """What the heuristic bot does for the seat to act."""
    seat = game.to_act
    assert seat is not None
    view = game.view(seat)
    bot = HeuristicBot(0)
    return str(bot.play(view) if view.trump is not None or view.pitcher is not None else bot.bid(view))


def test_weak_hand_passes_and_solid_hand_bids_four() -> None:
    """Bid what it can count: nothing on a weak hand, 4 on ace, jack, ten and the two of trump."""
    rules = Rules(players=4)
    game = deal(rules, 3, "9C 8D 7H 6S 9D 8H", "AS JS 10S 3S 2S 2H", "2C 3C 4C 5C 6C 7C", "2D 3D 4D 5D 6D 7D")
    assert choice(game) == "pass"
    act(game, "pass")
    assert choice(game) == "bid 4"


def test_two_players_bid_on_almost_anything() -> None:
    """Heads up, an ace and little else still bids (low): passing hands the pitch to the other side."""
    game = deal(Rules(players=2), 1, "AH 6H 3C 9D 5S 7C", "2C 5D 7H 9S 3D 4D")
    assert choice(game) in {"bid 1", "bid 2"}


def test_pitcher_leads_its_highest_trump() -> None:
    """The pitch is the ace of the suit it bid on, securing High."""
    game = deal(Rules(players=2), 1, "2C 5D 7H 9S 3D 4D", "AS KS 5S 2H 8C 9D")
    act(game, "pass", "bid 2")
    assert choice(game) == "play AS"


def test_partner_winning_is_not_overtrumped() -> None:
    """With a partner's boss trump winning the trick, it keeps its ace of trump and plays low."""
    rules = Rules(players=4, teams=2)
    game = deal(rules, 3, "KS 2H 3H 4H 5H 6H", "3S 2C 3C 4C 5C 6C", "AS 2S 7C 8C 9C 2D", "7S 3D 4D 5D 6D 8D")
    act(game, "bid 2", "pass", "pass", "pass", "KS", "3S")
    assert choice(game) == "play 2S"


def test_counters_go_to_a_partners_safe_trick() -> None:
    """Following a partner's ace of trump, it throws the ten of trump for Game."""
    rules = Rules(players=4, teams=2)
    game = deal(rules, 3, "AS 2H 3H 4H 5H 6H", "QS 2C 3C 4C 5C 6C", "10S 4S 7C 8C 9C 2D", "7S 3D 4D 5D 6D 8D")
    act(game, "bid 2", "pass", "pass", "pass", "AS", "QS")
    assert choice(game) == "play 10S"


def test_last_to_play_captures_a_ten() -> None:
    """Last to a trick holding an opponent's ten, it wins it with the cheapest card that can."""
    game = deal(Rules(players=2), 1, "2S KH 3H 4C 5C 6C", "AS 10H 5D 6D 7D 8D")
    act(game, "pass", "bid 1", "AS", "2S", "10H")
    assert choice(game) == "play KH"


def test_the_jack_is_kept_from_a_trick_it_may_lose() -> None:
    """Not last, with higher trumps still out, it does not play the jack of trump."""
    rules = Rules(players=3)
    game = deal(rules, 2, "5S 2H 3H 4H 5H 6H", "JS 4S 2C 3C 4C 5C", "7D 8D 9D 2D 3D 4D")
    act(game, "bid 1", "pass", "pass", "5S")
    assert choice(game) == "play 4S"


# -- Club options -----------------------------------------------------------------------

CAPTURED = LowRule.CAPTURED
OTHERS = ("2C 4C 5C 6C 8C 9C", "2D 3D 4D 5D 6D 8D", "10C 10D 8H 8S 9H 9S")
"""Three hands for the seats after the eldest's, at a table of four."""


def test_min_bid_two_passes_a_hand_worth_one_point() -> None:
    """min_bid 2: a hand worth one point, which bids 1 at a table of today's game, passes."""
    hand = ("AH 6H 3C 9D 5S 7C", *OTHERS)
    assert choice(deal(Rules(players=4), 3, *hand)) == "bid 1"
    assert choice(deal(Rules(players=4, min_bid=2), 3, *hand)) == "pass"


def test_dealer_takes_the_bid_when_its_hand_is_worth_it() -> None:
    """dealer_steal: a dealer whose hand is worth the bid takes it at that amount rather than bidding higher."""
    hands = ("2C 5D 7H 9S 3D 4D", "AS KS 10S 5S 2H 8C")
    game = deal(Rules(players=2, dealer_steal=True), 1, *hands)
    act(game, "bid 2")
    assert choice(game) == "bid 2"
    without = deal(Rules(players=2), 1, *hands)
    act(without, "bid 2")
    assert choice(without) == "pass"


def test_dealer_does_not_steal_a_bid_its_hand_is_not_worth() -> None:
    """dealer_steal: a weak dealer lets the bid stand."""
    game = deal(Rules(players=2, dealer_steal=True), 1, "AS KS 10S 5S 2H 8C", "2C 5D 7H 9S 3D 4D")
    act(game, "bid 3")
    assert choice(game) == "pass"


def test_with_smudge_a_hand_for_four_bids_four_rather_than_steal() -> None:
    """dealer_steal with smudge: a dealer with a hand for 4 bids 4, which wins the game when made."""
    game = deal(Rules(players=2, dealer_steal=True, smudge=True), 1, "2C 5D 7H 9S 3D 4D", "AS JS 10S 3S 2S 2H")
    act(game, "bid 2")
    assert choice(game) == "bid 4"


def test_low_captured_keeps_the_low_trump_from_an_opponents_trick() -> None:
    """low captured: made to follow trump, it keeps the lowest trump and plays another."""
    hands = ("AS 2H 3H 4H 5H 6H", "2S 5S 2C 3C 4C 5C", "7D 8D 9D 2D 3D 4D")
    for rules, card in ((Rules(players=3, low=CAPTURED), "play 5S"), (Rules(players=3), "play 2S")):
        game = deal(rules, 2, *hands)
        act(game, "bid 1", "pass", "pass", "AS")
        assert choice(game) == card


def test_low_captured_wins_a_trick_that_holds_the_low_trump() -> None:
    """low captured: last to a trick an opponent ruffed with the lowest trump, it overtrumps to take Low."""
    hands = ("AS 5H 6H 7H 8H 9H", "3S 2S 2C 3C 4C 5C", "4S KS 7D 8D 9D 2D")
    for rules, card in ((Rules(players=3, low=CAPTURED), "play KS"), (Rules(players=3), "play 2D")):
        game = deal(rules, 2, *hands)
        act(game, "bid 1", "pass", "pass", "AS", "3S", "4S", "5H", "2S")
        assert choice(game) == card


def test_low_captured_gives_the_low_trump_to_a_partners_trick() -> None:
    """low captured: last to a trick its partner is winning, it gives the lowest trump rather than pips."""
    hands = ("AS 5H 7C 8C 9C 10C", "3S AH 2C 3C 4C 5C", "4S 6H 2D 3D 4D 5D", "2S 6S KD 7D 8D 9D")
    for low, card in ((CAPTURED, "play 2S"), (LowRule.DEALT, "play KD")):
        game = deal(Rules(players=4, teams=2, low=low), 3, *hands)
        act(game, "bid 1", "pass", "pass", "pass", "AS", "3S", "4S", "6S", "5H", "AH", "6H")
        assert choice(game) == card


def test_low_captured_leads_the_low_trump_once_no_trump_is_out() -> None:
    """low captured: with no trump left to the others, the lowest trump led wins its own trick."""
    spades = 13 * 3
    hand = 1 << spades | 1 << (13 * 1 + 12)  # the two of trump and the ace of diamonds
    assert lead_card(hand, TRUMPS[Variant.STANDARD][3], unseen=0, low=spades) == spades
    assert lead_card(hand, TRUMPS[Variant.STANDARD][3], unseen=0) == 13 * 1 + 12


def test_club_false_plays_the_club_options_as_todays_game() -> None:
    """club=False, the measurement's baseline: it knows no club option (here, no steal)."""
    game = deal(Rules(players=2, dealer_steal=True), 1, "2C 5D 7H 9S 3D 4D", "AS KS 10S 5S 2H 8C")
    act(game, "bid 2")
    view = game.view(1)
    assert str(HeuristicBot(0, club=False).bid(view)) == "pass"
