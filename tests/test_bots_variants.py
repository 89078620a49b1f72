"""The built-in bots value each variant's point cards (RULES.md, "Variants"): one rule per test,
on set deals."""

from __future__ import annotations

import random

import pytest
from deals import act, deal

from setback.bots import HeuristicBot, SearchBot
from setback.bots.playout import Sampler
from setback.bots.search import Rollout
from setback.engine import (
    BIG_JOKER,
    JOKER,
    LITTLE_JOKER,
    Action,
    Bid,
    Card,
    Game,
    Phase,
    Rules,
    Suit,
    Variant,
    mask_of,
    state_from_view,
    suit_cards,
)

PEDRO = Rules(players=4, variant=Variant.PEDRO)
"""Pedro's default table: 4 players in two pairs (seats 0 and 2 against 1 and 3)."""


def decision(game: Game, bot: HeuristicBot | SearchBot) -> Action:
    """What ``bot`` does for the seat to act."""
    seat = game.to_act
    assert seat is not None
    view = game.view(seat)
    return bot.bid(view) if view.phase is Phase.BIDDING else bot.play(view)


def bid_of(rules: Rules, hand: str, other: str) -> int:
    """The heuristic's opening bid (0 a pass) on ``hand``, first to bid at a table of ``rules``."""
    words = other.split()
    others = [" ".join(words[i : i + 6]) for i in range(0, len(words), 6)]
    game = deal(rules, rules.players - 1, hand, *others)
    action = decision(game, HeuristicBot(0))
    return action.amount if isinstance(action, Bid) else 0


@pytest.mark.parametrize(("variant", "rich", "plain"), [
    (Variant.JOKER, "AS JK 2S 4D 6C 8H", "AS 3C 2S 4D 6C 8H"),  # the joker, for a 3 of clubs
    (Variant.TEN_POINT, "JH JD BJ 3H AH 4C", "JH JD 2C 3H AH 4C"),  # the big joker, for a 2 of clubs
])
def test_heuristic_bids_on_the_jokers_and_the_off_jack(variant: Variant, rich: str, plain: str) -> None:
    """Heads up, a hand holding the variant's point cards (the joker; the off-jack, a joker and
    the three of trump) bids more than the same hand, the joker for a small card, at standard."""
    other = "2H 4H 7H 9H 9D 10C"
    at_variant = bid_of(Rules(players=2, variant=variant), rich, other)
    at_standard = bid_of(Rules(players=2), plain, other)
    assert at_variant > at_standard >= 1


def test_heuristic_bids_on_the_fives_in_pedro() -> None:
    """In pedro the five and the off-five are worth 5 points: a hand holding both with the ace bids
    on them (at least 5), where at standard the same hand bids 2 at most."""
    others = "2H 4H 6H 8H 9D 10C 3D 4D 6D 7D 8D 9S 2D 10D QD KD AD 2S"
    assert bid_of(PEDRO, "5H 5D AH 2C 3S 9C", others) >= 5
    assert bid_of(Rules(players=4, teams=2), "5H 5D AH 2C 3S 9C", others) <= 2


HANDS = (
    "AH KH 2C 3C 4C 6C",  # seat 0, the pitcher
    "2H 3H 7C 8C 9C JC",  # seat 1
    "5D 10H 6H QC KC AC",  # seat 2, seat 0's partner: the off-five, the ten and the six of trump
    "5H 6D 7D 8D 9D 10D",  # seat 3: the five of trump
)


def pedro_trick(*plays: str) -> Game:
    """Pedro, hearts trump: seat 0 bid 1 and pitched the ace of hearts, then ``plays``."""
    game = deal(PEDRO, 3, *HANDS)
    act(game, "bid 1", "pass", "pass", "pass", "AH", *plays)
    return game


def test_heuristic_gives_the_off_five_to_its_partners_sure_trick() -> None:
    """Its partner's ace of trump cannot be beaten: it gives the off-five (3 points), not the ten."""
    assert str(decision(pedro_trick("2H"), HeuristicBot(0))) == "play 5D"


def test_heuristic_keeps_its_five_out_of_the_other_sides_trick() -> None:
    """Made to follow trump under the other side's ace, it plays the seven, keeping the five of
    trump (2 points) for a trick its side takes."""
    game = deal(PEDRO, 3, "AH KH 2C 3C 4C 6C", "2H 3H 7C 8C 9C JC", "5D 10H 6H QC KC AC", "5H 7H 6D 8D 9D 10D")
    act(game, "bid 1", "pass", "pass", "pass", "AH", "2H", "6H")
    assert str(decision(game, HeuristicBot(0))) == "play 7H"


def test_search_rollouts_give_the_off_five_to_a_partners_sure_trick() -> None:
    """The policy ``search`` plays its samples out with values the off-five as the heuristic does."""
    game = pedro_trick("2H")
    view = game.view(2)
    state = state_from_view(view, [mask_of(game.view(s).hand) for s in range(4)])
    assert Rollout(state).action(state) == 13 * 1 + 3  # the five of diamonds


def test_search_captures_the_five_of_trump_when_it_can() -> None:
    """Last to a trick the other side's five of trump was pitched to, it takes it with its ace
    rather than throwing its three of trump."""
    game = deal(PEDRO, 2, "5H 2C 3C 4C 6C 7C", "2H 8C 9C JC QC KC", "6H 2D 3D 4D 6D 7D", "AH 3H 8D 9D 10D JD")
    act(game, "pass", "bid 1", "pass", "pass", "5H", "2H", "6H")
    assert game.to_act == 3
    assert str(decision(game, SearchBot(0, budget_ms=None, playouts=200))) == "play AH"


def test_search_samples_the_variants_deck_and_its_trump_suit() -> None:
    """``search`` deals the other hands from ten_point's 54 cards: both jokers, never the joker of
    the joker variant; and a seat that showed it holds no trump is never dealt one of ten_point's
    trumps printed elsewhere (the off-jack, the jokers)."""
    rules = Rules(players=2, variant=Variant.TEN_POINT)
    game = deal(rules, 1, "AH 2C 3C 4C 5C 6C", "7C 8C 9C 10C JC QC")
    rng = random.Random(1)
    seen = 0
    for _ in range(300):
        seen |= Sampler(game.view(0)).deal(rng)[1]
    assert seen >> BIG_JOKER & 1 and seen >> LITTLE_JOKER & 1 and not seen >> JOKER & 1
    act(game, "bid 4", "pass", "AH", "7C")
    trumps = suit_cards(Suit.HEARTS, Suit.HEARTS, Variant.TEN_POINT)
    assert trumps >> Card.parse("JD") & 1 and trumps >> BIG_JOKER & 1
    sampler = Sampler(game.view(0))
    assert all(not sampler.deal(rng)[1] & trumps for _ in range(100))
