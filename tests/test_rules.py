"""One test per rule of RULES.md, each on a set deal whose outcome is worked out by hand."""

from __future__ import annotations

import pytest
from deals import act, cards, deal, last_result

from setback.engine import (
    Card,
    Draw,
    GameWon,
    HandDealt,
    HandThrownIn,
    IllegalActionError,
    Phase,
    Rules,
    Suit,
    WinReason,
    parse_action,
    winning_seat,
)

FOUR = Rules(players=4)
# Seat 0 pitches the ace of spades; seat 1 was dealt the low trump (2S); seat 3 holds the jack.
FOUR_DEAL = (
    "AS 2H 3H 4H 5H 6H",
    "2S 3S 7H 2C 3C 4C",
    "4S 5S 2D 3D 4D 5D",
    "6S 7S 8S 9S 10S JS",
)
# Played legally: seat 0 wins the first trick, seat 3 every other (and the jack).
FOUR_PLAY = (
    "AS", "2S", "4S", "6S",
    "2H", "7H", "2D", "7S",
    "8S", "3H", "3S", "5S",
    "JS", "4H", "2C", "3D",
    "9S", "5H", "3C", "4D",
    "10S", "6H", "4C", "5D",
)


def four_player_hand(bid: int = 1, rules: Rules = FOUR, scores: tuple[int, ...] | None = None):  # type: ignore[no-untyped-def]
    game = deal(rules, 3, *FOUR_DEAL, scores=scores)
    act(game, f"bid {bid}", "pass", "pass", "pass", *FOUR_PLAY)
    return game


def legal_texts(game) -> set[str]:  # type: ignore[no-untyped-def]
    return {str(a) for a in game.legal_actions()}


def test_follow_rule_trump_led_requires_trump() -> None:
    """Following, trump led: a player holding trump must play trump."""
    game = deal(FOUR, 3, *FOUR_DEAL)
    act(game, "bid 1", "pass", "pass", "pass", "AS")
    assert legal_texts(game) == {"play 2S", "play 3S"}


def test_follow_rule_is_permissive() -> None:
    """Following: holding the suit led, play that suit or a trump; void, play anything."""
    game = deal(FOUR, 3, *FOUR_DEAL)
    act(game, "bid 1", "pass", "pass", "pass", *FOUR_PLAY[:4], "2H")
    assert legal_texts(game) == {"play 7H", "play 3S"}  # hearts or trump, not clubs
    act(game, "7H")
    assert legal_texts(game) == {"play 5S", "play 2D", "play 3D", "play 4D", "play 5D"}  # void in hearts
    with pytest.raises(IllegalActionError):
        game.apply(parse_action("play 2C"))  # not seat 2's card, and not legal


def test_follow_rule_rejects_a_discard_when_holding_the_suit_led() -> None:
    """Following: a player who holds the suit led may not play a third suit."""
    game = deal(FOUR, 3, *FOUR_DEAL)
    act(game, "bid 1", "pass", "pass", "pass", *FOUR_PLAY[:4], "2H")
    before = game.view(1)
    with pytest.raises(IllegalActionError, match="phase playing"):
        game.apply(parse_action("play 2C"))
    assert game.view(1) == before


def test_trick_won_by_highest_trump_else_highest_of_suit_led() -> None:
    """A trick is won by the highest trump in it, or else by the highest card of the suit led."""
    game = deal(FOUR, 3, *FOUR_DEAL)
    act(game, "bid 1", "pass", "pass", "pass", *FOUR_PLAY[:8])
    tricks = game.view(None).tricks
    assert [t.winner for t in tricks] == [0, 3]  # AS over lower trumps; 7S trumps the hearts
    two = deal(Rules(players=2), 1, "AS 2C 3C 4C 5C 6C", "AC 7D 8D 9D 2D 3D")
    act(two, "bid 1", "pass", "AS", "2D", "2C", "AC", "3D", "3C")
    assert [t.winner for t in two.view(None).tricks] == [0, 1, 1]  # AC beats 2C; 3D led beats 3C


def test_the_view_names_the_card_winning_the_trick_so_far() -> None:
    """While a trick is played, every view names the seat whose card wins it so far: the lead,
    until a higher card of the suit led or a trump beats it; nobody between tricks."""
    game = deal(FOUR, 3, *FOUR_DEAL)
    act(game, "bid 1", "pass", "pass", "pass", *FOUR_PLAY[:4])
    assert game.view(None).winning is None  # trick 1 is over: no card on the table
    winning = []
    for card in FOUR_PLAY[4:8]:  # 2H led, 7H over it, 2D a discard, 7S trumps
        act(game, card)
        winning.append(game.view(None).winning if game.view(None).trick else "done")
    assert winning == [0, 1, 1, "done"]
    act(game, "8S")
    assert game.view(2).winning == game.view(None).winning == 3


def test_the_trick_rule_in_words_matches_the_engine() -> None:
    """``winning_seat`` says who wins a trick as the engine decides it: the highest trump, else the
    highest card of the suit led, whatever was discarded."""
    plays = [Draw(1, Card.parse("2H")), Draw(2, Card.parse("KD")), Draw(3, Card.parse("7H"))]
    assert winning_seat(plays, Suit.SPADES) == 3
    assert winning_seat(plays, Suit.DIAMONDS) == 2
    assert winning_seat([*plays, Draw(0, Card.parse("2S"))], Suit.SPADES) == 0


def test_high_and_low_go_to_the_holders_dealt_them() -> None:
    """High and Low score for the side dealt the card, whoever captures it."""
    result = last_result(four_player_hand())
    assert (result.high, str(result.high_card)) == (0, "AS")
    assert (result.low, str(result.low_card)) == (1, "2S")  # captured by seat 0 in trick 1


def test_single_trump_is_both_high_and_low() -> None:
    """If only one trump was dealt it is both High and Low."""
    game = deal(Rules(players=2), 1, "AS 2H 3H 4H 5H 6H", "7H 8H 9H 10H JH QH")
    act(game, "bid 2", "pass", "AS", "7H", "2H", "8H", "9H", "3H", "10H", "4H", "JH", "5H", "QH", "6H")
    result = last_result(game)
    assert result.high == result.low == 0 and result.high_card == result.low_card
    assert result.points == (2, 1)
    assert result.jack is None


def test_jack_scores_to_its_captor_only_when_dealt() -> None:
    """Jack: 1 point to the side capturing the jack of trump; none when it was not dealt."""
    result = last_result(four_player_hand())
    assert result.jack == 3
    assert result.points == (1, 1, 0, 2)


def test_game_goes_to_the_strictly_highest_pips() -> None:
    """Game: the side with the strictly highest count of A=4 K=3 Q=2 J=1 10=10 takes it."""
    result = last_result(four_player_hand())
    assert result.game_pips == (4, 0, 0, 11)
    assert result.game == 3


def test_game_tie_with_the_pitcher_goes_to_the_pitcher() -> None:
    """Game tie: if the pitcher's side is among the tied, the pitcher's side takes Game."""
    game = deal(Rules(players=2), 1, "AS 2C 3C 4C 5C 6C", "AC 7D 8D 9D 2D 3D")
    act(game, "bid 1", "pass", "AS", "2D", "2C", "AC", "3D", "3C", "7D", "4C", "8D", "5C", "9D", "6C")
    result = last_result(game)
    assert result.game_pips == (4, 4)
    assert result.game == 0


def test_game_tie_without_the_pitcher_goes_to_nobody() -> None:
    """Game tie: if the pitcher's side is not among the tied, nobody takes Game."""
    game = deal(
        Rules(players=3), 2, "2S 2H 3H 4H 5H 6H", "AS 7H 8D 9D 3D 4D", "AH 7C 8C 9C 3C 4C"
    )
    act(
        game, "bid 1", "pass", "pass",
        "2S", "AS", "3C", "7H", "AH", "2H", "4C", "3H", "3D",
        "7C", "4H", "4D", "8C", "5H", "8D", "9C", "6H", "9D",
    )
    result = last_result(game)
    assert result.game_pips == (0, 4, 4)
    assert result.game is None
    assert result.points == (1, 1, 0)


def test_game_with_no_pips_goes_to_nobody() -> None:
    """Game: if every side's count is 0, nobody takes it."""
    game = deal(Rules(players=2), 1, "2S 3S 4H 5H 6H 7H", "2C 3C 4C 5C 6C 7C")
    act(game, "bid 2", "pass", "2S", "2C", "3S", "3C", "4H", "4C", "5H", "5C", "6H", "6C", "7H", "7C")
    result = last_result(game)
    assert result.game_pips == (0, 0) and result.game is None
    assert result.points == (2, 0) and not result.set_back


def test_pitcher_short_of_the_bid_is_set_back() -> None:
    """Set back: a pitcher's side that wins fewer points than its bid loses the bid."""
    result = last_result(four_player_hand(bid=3))
    assert result.set_back
    assert result.deltas[0] == -3
    assert result.scores[0] == -3


def test_made_bid_scores_every_point_won() -> None:
    """A pitcher's side that makes its bid scores all the points it won."""
    game = deal(Rules(players=2), 1, "AS 2C 3C 4C 5C 6C", "AC 7D 8D 9D 2D 3D")
    act(game, "bid 2", "pass", "AS", "2D", "2C", "AC", "3D", "3C", "7D", "4C", "8D", "5C", "9D", "6C")
    result = last_result(game)
    assert not result.set_back and result.deltas == (3, 0)


def test_defenders_always_score_what_they_win() -> None:
    """Every side other than the pitcher's scores the points it won, made bid or not."""
    for bid in (1, 3):
        result = last_result(four_player_hand(bid=bid))
        assert result.deltas[1:] == (1, 0, 2)


def test_no_junk_only_the_pitchers_side_scores() -> None:
    """no_junk: points are awarded and shown as usual, but other sides' score changes are 0."""
    result = last_result(four_player_hand(rules=Rules(players=4, no_junk=True)))
    assert result.points == (1, 1, 0, 2)
    assert result.deltas == (1, 0, 0, 0)


SWEEP = ("AS JS 2S 10C 10D 10H", "3C 4C 5C 6C 7C 8C", "3D 4D 5D 6D 7D 8D")


def test_smudge_made_with_two_sides_wins_at_once() -> None:
    """smudge: a bid of 4 that wins all four points wins the game at once."""
    game = deal(Rules(players=2, smudge=True), 1, *SWEEP[:2])
    act(game, "bid 4", "pass", "AS", "3C", "JS", "4C", "2S", "5C", "10C", "6C", "10D", "7C", "10H", "8C")
    assert game.outcome is not None
    assert (game.outcome.winner, game.outcome.reason) == (0, WinReason.SMUDGE)
    assert game.outcome.scores == (4, 0)


def test_without_smudge_a_made_four_is_just_four_points() -> None:
    """smudge off: a made bid of 4 only scores 4 points."""
    game = deal(Rules(players=2), 1, *SWEEP[:2])
    act(game, "bid 4", "pass", "AS", "3C", "JS", "4C", "2S", "5C", "10C", "6C", "10D", "7C", "10H", "8C")
    assert game.outcome is None and game.scores == (4, 0)


def test_smudge_failed_with_two_sides_loses_at_once() -> None:
    """smudge, exactly two sides: a failed bid of 4 loses the game at once."""
    game = deal(Rules(players=2, smudge=True), 1, "AS 2H 3H 4H 5H 6H", "7H 8H 9H 10H JH QH")
    act(game, "bid 4", "pass", "AS", "7H", "2H", "8H", "9H", "3H", "10H", "4H", "JH", "5H", "QH", "6H")
    assert game.outcome is not None
    assert (game.outcome.winner, game.outcome.reason) == (1, WinReason.SMUDGE_FAILED)


def test_smudge_with_more_sides() -> None:
    """smudge, more than two sides: a made 4 wins at once, a failed 4 is an ordinary set-back."""
    made = deal(Rules(players=3, smudge=True), 2, *SWEEP)
    act(
        made, "bid 4", "pass", "pass", "AS", "3C", "3D", "JS", "4C", "4D", "2S", "5C", "5D",
        "10C", "6C", "6D", "10D", "7C", "7D", "10H", "8C", "8D",
    )
    assert made.outcome is not None and made.outcome.reason is WinReason.SMUDGE
    failed = deal(
        Rules(players=3, smudge=True), 2, "2S 2H 3H 4H 5H 6H", "AS 7H 8D 9D 3D 4D", "AH 7C 8C 9C 3C 4C"
    )
    act(
        failed, "bid 4", "pass", "pass",
        "2S", "AS", "3C", "7H", "AH", "2H", "4C", "3H", "3D",
        "7C", "4H", "4D", "8C", "5H", "8D", "9C", "6H", "9D",
    )
    assert failed.outcome is None
    assert failed.scores == (-4, 1, 0)


def test_forced_dealer_bid_on_dealer_may_not_pass() -> None:
    """Forced bid (default): if everyone before the dealer passed, the dealer must bid 1-4."""
    game = deal(FOUR, 3, *FOUR_DEAL)
    act(game, "pass", "pass", "pass")
    assert legal_texts(game) == {"bid 1", "bid 2", "bid 3", "bid 4"}
    with pytest.raises(IllegalActionError):
        game.apply(parse_action("pass"))


def test_forced_dealer_bid_off_all_pass_throws_the_hand_in() -> None:
    """Forced bid off: everyone passing throws the hand in; no score changes; the deal passes left."""
    game = deal(Rules(players=4, forced_dealer_bid=False), 3, *FOUR_DEAL)
    act(game, "pass", "pass", "pass")
    assert "pass" in legal_texts(game)
    events = game.apply(parse_action("pass"))
    assert isinstance(events[1], HandThrownIn)
    dealt = [e for e in events if isinstance(e, HandDealt)]
    assert len(dealt) == 1 and dealt[0].dealer == 0 and dealt[0].hand_number == 2
    assert game.scores == (0, 0, 0, 0)
    assert game.phase is Phase.BIDDING and game.to_act == 1


def test_bids_must_rise_and_partners_may_outbid() -> None:
    """Bidding: one round; each bid is higher than every bid so far; partners may outbid each other."""
    game = deal(Rules(players=4, teams=2), 3, *FOUR_DEAL)
    act(game, "bid 2")
    assert legal_texts(game) == {"pass", "bid 3", "bid 4"}
    act(game, "pass", "bid 3")  # seat 2 outbids its partner, seat 0
    act(game, "pass")
    assert game.phase is Phase.PLAYING and game.to_act == 2
    assert game.view(None).pitcher == 2


def test_partnership_sides_for_four_players() -> None:
    """teams=2 with 4 players: seats 0 and 2 against 1 and 3; points go to the side."""
    rules = Rules(players=4, teams=2)
    assert [rules.side_of(s) for s in range(4)] == [0, 1, 0, 1]
    result = last_result(four_player_hand(rules=rules))
    assert result.points == (1, 3)  # High for 0; Low, Jack and Game for 1 and 3
    assert result.scores == (1, 3)


def test_partnership_sides_for_six_players() -> None:
    """6 players: teams=2 gives sides of three (s mod 2), teams=3 sides of two (s mod 3)."""
    assert [Rules(players=6, teams=2).side_of(s) for s in range(6)] == [0, 1, 0, 1, 0, 1]
    assert [Rules(players=6, teams=3).side_of(s) for s in range(6)] == [0, 1, 2, 0, 1, 2]
    for players, teams in ((4, 4), (6, 4), (5, 2), (4, 1)):
        with pytest.raises(ValueError, match="teams"):
            Rules(players=players, teams=teams)


def test_pitcher_reaching_the_target_wins_first() -> None:
    """Winning: if the pitcher's side reaches the target it wins, even if others have more."""
    game = four_player_hand(scores=(10, 0, 0, 10))
    assert game.scores == (11, 1, 0, 12)
    assert game.outcome is not None
    assert (game.outcome.winner, game.outcome.reason) == (0, WinReason.PITCHER_REACHED_TARGET)


def test_highest_other_side_wins_when_pitcher_short() -> None:
    """Winning: otherwise the side with the highest score at or over the target wins."""
    game = four_player_hand(scores=(0, 10, 0, 10))
    assert game.outcome is not None
    assert (game.outcome.winner, game.outcome.reason) == (3, WinReason.HIGHEST_SCORE)


def test_tie_for_highest_plays_another_hand() -> None:
    """Winning: if several sides tie for highest over the target, one more hand is played."""
    game = four_player_hand(scores=(0, 10, 0, 9))
    assert game.scores == (1, 11, 0, 11)
    assert game.outcome is None
    assert game.phase is Phase.BIDDING and game.hand_number == 2


@pytest.mark.parametrize(
    ("target", "before", "won"), [(7, 5, True), (11, 5, False), (21, 19, True), (21, 18, False)]
)
def test_targets(target: int, before: int, won: bool) -> None:
    """The target is 11 by default; 7 and 21 are table options."""
    game = four_player_hand(rules=Rules(players=4, target=target), scores=(0, 0, 0, before))
    assert (game.outcome is not None) is won
    assert Rules().target == 11
    with pytest.raises(ValueError, match="target"):
        Rules(target=15)


def test_game_won_is_the_last_event_and_no_action_follows() -> None:
    """A decided game takes no more actions."""
    game = four_player_hand(scores=(10, 0, 0, 10))
    assert isinstance(game.events[-1], GameWon)
    assert game.legal_actions() == () and game.to_act is None
    with pytest.raises(IllegalActionError, match="over"):
        game.apply(parse_action("pass"))


def test_hand_limit_ends_a_drifting_game() -> None:
    """(project rule) After hand_limit hands the highest score alone wins."""
    game = four_player_hand(rules=Rules(players=4, hand_limit=1))
    assert game.outcome is not None
    assert (game.outcome.winner, game.outcome.reason) == (3, WinReason.HAND_LIMIT)


def test_cards_of_helper_reads_ten() -> None:
    assert [str(c) for c in cards("10H TH qd")] == ["10H", "10H", "QD"]


@pytest.mark.parametrize("dealer", [-1, 4])
def test_a_set_deal_names_a_seat_at_the_table_as_dealer(dealer: int) -> None:
    """A dealer off the table would never bid (and the forced bid never apply): refused."""
    hands = ("AS 2H 3H 4H 5H 6H", "2S 3S 7H 2C 3C 4C", "4S 5S 2D 3D 4D 5D", "6S 7S 8S 9S 10S JS")
    with pytest.raises(ValueError, match=f"no seat {dealer} to deal"):
        deal(Rules(players=4), dealer, *hands)
