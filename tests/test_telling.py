"""The club options in words: a table's rules, the log's bids and the hand summaries."""

from __future__ import annotations

from deals import act, deal

from setback.engine import Game, HandScored, LowRule, Rules
from setback.protocol.convert import result_to_wire, rules_to_wire
from setback.protocol.messages import BidEvent, WireRules
from setback.telling.narrate import describe_result, narrate
from setback.telling.story import event_lines, result_lines, rules_text

NAMES = ["ann", "bea", "cy", "di"]
DEAL = ("AS 2H 3H 4H 5H 6H", "2S 3S 7H 2C 3C 4C", "4S 5S 2D 3D 4D 5D", "6S 7S 8S 9S 10S JS")
CLUB = Rules(players=4, dealer_steal=True, low=LowRule.CAPTURED)


def stolen_hand() -> Game:
    """di deals and takes ann's bid of 1; then each seat plays its lowest legal card."""
    game = deal(CLUB, 3, *DEAL)
    act(game, "bid 1", "pass", "pass", "bid 1")
    while not any(isinstance(e, HandScored) for e in game.events):
        game.apply(game.legal_actions()[0])
    return game


def words(line: tuple[object, ...]) -> str:
    return "".join(str(part) for part in line)


def test_a_table_announces_its_club_options() -> None:
    """The rules in words name each club option that is not the default, and none at the defaults."""
    club = WireRules(min_bid=2, dealer_steal=True, low="captured")
    assert rules_text(club) == (
        "4 players · cutthroat · to 11 · bids from 2 · dealer may steal · low captured · 100 hands at most"
    )
    assert rules_text(rules_to_wire(Rules())) == rules_text(WireRules())
    assert "bid" not in rules_text(WireRules(min_bid=1, dealer_steal=False, low="dealt"))


def test_a_stolen_hand_is_told_as_the_dealers_steal() -> None:
    """The summary of a hand whose dealer took the bid says so, in the client's and the replay's words."""
    result = next(e.result for e in stolen_hand().events if isinstance(e, HandScored))
    assert result.stolen and result.pitcher == 3
    client = words(result_lines(result_to_wire(result), rules_to_wire(CLUB), NAMES)[0])
    assert client.startswith("Hand 1: di, the dealer, took the bid at 1 and ")
    assert "di, the dealer, took the bid at 1 and " in "\n".join(describe_result(result, CLUB, NAMES))


def test_low_captured_names_its_captor() -> None:
    """With low captured the summary says who captured Low (and who was dealt it, when another seat)."""
    result = next(e.result for e in stolen_hand().events if isinstance(e, HandScored))
    assert result.low_captured_by is not None and result.low is not None
    taker, dealt = NAMES[result.low_captured_by], NAMES[result.low]
    line = words(result_lines(result_to_wire(result), rules_to_wire(CLUB), NAMES)[1])
    told = "\n".join(describe_result(result, CLUB, NAMES))
    assert f"Low: captured by {taker} " in line and f"Low: captured by {taker} (" in told
    assert (f"dealt to {dealt}" in line) == (taker != dealt)
    dealt_rules = Rules(players=4, dealer_steal=True)
    assert f"Low: {dealt} " in words(result_lines(result_to_wire(result), rules_to_wire(dealt_rules), NAMES)[1])


def test_the_log_tells_a_dealers_bid_equal_to_the_highest_as_a_steal() -> None:
    """A bid equal to the highest so far (only the dealer's steal can be) is told as taking the bid."""
    rules = rules_to_wire(CLUB)
    assert event_lines(BidEvent(seat=3, amount=2), rules, NAMES, high_bid=2) == [
        ("di, the dealer, takes the bid at 2.",)
    ]
    assert event_lines(BidEvent(seat=3, amount=3), rules, NAMES, high_bid=2) == [("di bids 3.",)]
    game = stolen_hand()
    assert "  di, the dealer, takes the bid at 1." in list(narrate(game.events, CLUB, NAMES))
