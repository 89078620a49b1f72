"""The heuristic bot follows the seeds' advice: one rule per test, on set deals."""

from __future__ import annotations

from deals import act, deal

from setback.bots import HeuristicBot
from setback.engine import Game, Rules


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
