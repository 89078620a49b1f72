"""The seeded draw for first dealer, the pone's cut and the deal, as spec.md documents them."""

from __future__ import annotations

import random

from setback.engine import CardsDrawn, DealerChosen, Game, HandDealt, Rules, Variant
from setback.engine.deck import shuffled_deck
from setback.engine.state import CUT_MIN
from setback.engine.tables import TABLES


def first_dealer_events(game: Game) -> tuple[list[CardsDrawn], DealerChosen]:
    rounds = [e for e in game.events if isinstance(e, CardsDrawn)]
    chosen = next(e for e in game.events if isinstance(e, DealerChosen))
    return rounds, chosen


def test_highest_draw_deals_and_ties_draw_again() -> None:
    """First dealer: highest rank deals; the players tied for highest draw again until one is highest."""
    saw_redraw = False
    for seed in range(300):
        rounds, chosen = first_dealer_events(Game(Rules(players=7), seed))
        contenders = set(range(7))
        for draw_round in rounds:
            assert {d.seat for d in draw_round.draws} == contenders
            top = max(d.card.rank for d in draw_round.draws)
            contenders = {d.seat for d in draw_round.draws if d.card.rank == top}
        assert contenders == {chosen.dealer}
        saw_redraw |= len(rounds) > 1
    assert saw_redraw, "no seed in 0..299 drew a tie: the redraw was never exercised"


def reference_deal(rules: Rules, seed: int) -> tuple[int, int, list[set[int]]]:
    """spec.md's procedure, written out independently: draws, shuffle, cut, deal 3 at a time."""
    rng = random.Random(seed)
    contenders = list(range(rules.players))
    while True:
        deck = list(range(52))
        rng.shuffle(deck)
        draws = [(seat, deck[i]) for i, seat in enumerate(contenders)]
        top = max(card % 13 for _, card in draws)
        contenders = [seat for seat, card in draws if card % 13 == top]
        if len(contenders) == 1:
            break
    dealer = contenders[0]
    deck = list(range(52))
    rng.shuffle(deck)
    cut = rng.randrange(CUT_MIN, 53 - CUT_MIN)
    deck = deck[cut:] + deck[:cut]
    hands: list[set[int]] = [set() for _ in range(rules.players)]
    order = [(dealer + 1 + i) % rules.players for i in range(rules.players)]
    for packet in range(2 * rules.players):
        seat = order[packet % rules.players]
        hands[seat].update(deck[3 * packet : 3 * packet + 3])
    return dealer, cut, hands


def test_deal_follows_the_seeded_deck() -> None:
    """Shuffle; the pone cuts; six cards each, three at a time, starting left of the dealer."""
    for players in range(2, 8):
        for seed in range(20):
            rules = Rules(players=players)
            game = Game(rules, seed)
            dealt = next(e for e in game.events if isinstance(e, HandDealt))
            dealer, cut, hands = reference_deal(rules, seed)
            assert (dealt.dealer, dealt.cut) == (dealer, cut)
            assert dealt.pone == (dealer - 1) % players
            assert [set(h) for h in dealt.hands] == hands
            assert CUT_MIN <= cut <= 52 - CUT_MIN
            assert game.to_act == (dealer + 1) % players  # eldest bids first


def test_same_seed_same_game_different_seed_different_deal() -> None:
    """Reproducible: the same rules and seed give the same deal; another seed another deal."""
    a, b, c = Game(Rules(), 5), Game(Rules(), 5), Game(Rules(), 6)
    assert a.events == b.events
    assert a.events != c.events


def test_shuffled_deck_is_the_standard_library_shuffle() -> None:
    """The engine's one-loop shuffle lays out the deck as ``random.Random.shuffle`` does and
    leaves the generator in the same state, so seeded games (and stored ones) deal the same."""
    for seed in range(500):
        for fresh in (tuple(range(52)), (*range(52), 63), (*range(52), 64, 65)):  # the variants' decks too
            ours, theirs = random.Random(seed), random.Random(seed)
            for _ in range(3):
                expected = list(fresh)
                theirs.shuffle(expected)
                assert shuffled_deck(ours, fresh) == expected
            assert ours.getstate() == theirs.getstate()


def test_every_hand_is_dealt_from_the_seeded_deck_in_every_variant() -> None:
    """Every hand of a game, not only the first, from each variant's deck: shuffled, cut and
    dealt three at a time from the one generator, in order, as a ``random.Random(seed)`` does."""
    for variant in Variant:
        rules = Rules(variant=variant)
        fresh = TABLES[variant].deck
        for seed in range(6):
            game, chooser = Game(rules, seed), random.Random(seed)
            while not game.is_over:
                game.apply(chooser.choice(game.legal_actions()))
            twin = random.Random(seed)
            for _ in (e for e in game.events if isinstance(e, CardsDrawn)):
                twin.shuffle(list(range(52)))
            for dealt in (e for e in game.events if isinstance(e, HandDealt)):
                deck = list(fresh)
                twin.shuffle(deck)
                cut = twin.randrange(CUT_MIN, len(fresh) + 1 - CUT_MIN)
                deck = deck[cut:] + deck[:cut]
                hands: list[set[int]] = [set() for _ in range(rules.players)]
                for packet in range(2 * rules.players):
                    hands[(dealt.dealer + 1 + packet) % rules.players].update(deck[3 * packet : 3 * packet + 3])
                assert dealt.cut == cut
                assert [set(hand) for hand in dealt.hands] == hands
