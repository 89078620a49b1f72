"""Invariants over seeded random games, for 2-7 players, every variant and every table option (club options too)."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from setback.engine import (
    ACTIONS,
    EVERY_CARD,
    MIN_BIDS,
    TARGETS,
    BidMade,
    Card,
    CardPlayed,
    CardsDrawn,
    Game,
    GameState,
    HandDealt,
    HandScored,
    HandThrownIn,
    IllegalActionError,
    LowRule,
    Passed,
    Play,
    Rules,
    Suit,
    TrickWon,
    TrumpPitched,
    Variant,
    plain,
    redact,
    winning_seat,
)


@st.composite
def rules_strategy(draw: st.DrawFn) -> Rules:
    """Any table RULES.md allows: a variant, then players and sides it accepts (pedro in
    partnerships, ten_point without ``min_bid``), a target or the variant's default."""
    variant = draw(st.sampled_from(Variant))
    players = draw(st.sampled_from((4, 6)) if variant is Variant.PEDRO else st.integers(2, 7))
    team_options = [None] + [t for t in range(2, players + 1) if players % t == 0 and players // t >= 2]
    if variant is Variant.PEDRO:
        team_options.remove(None)
    return Rules(
        players=players,
        teams=draw(st.sampled_from(team_options)),
        target=draw(st.sampled_from((None, *TARGETS))),
        forced_dealer_bid=draw(st.booleans()),
        smudge=draw(st.booleans()),
        no_junk=draw(st.booleans()),
        hand_limit=draw(st.integers(1, 12)),
        min_bid=1 if variant is Variant.TEN_POINT else draw(st.sampled_from(MIN_BIDS)),
        dealer_steal=draw(st.booleans()),
        low=draw(st.sampled_from(LowRule)),
        variant=variant,
    )


games = given(rules=rules_strategy(), seed=st.integers(0, 2**32), play_seed=st.integers(0, 2**16))
quick = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def random_game(rules: Rules, seed: int, play_seed: int) -> Game:
    game = Game(rules, seed)
    rng = random.Random(play_seed)
    while not game.is_over:
        legal = game.legal_actions()
        assert legal, "no legal action while the game runs"
        game.apply(rng.choice(legal))
    return game


@quick
@games
def test_every_dealt_card_is_played_exactly_once(rules: Rules, seed: int, play_seed: int) -> None:
    """In every played hand, the cards played are exactly the cards dealt, each once."""
    game = random_game(rules, seed, play_seed)
    dealt: set[int] = set()
    played: list[int] = []
    for event in [*game.events, None]:
        if isinstance(event, HandDealt) or event is None:
            if dealt and played:
                assert sorted(played) == sorted(dealt)
            dealt = {c for hand in event.hands for c in hand} if event else set()
            played = []
            if event:
                assert len(dealt) == 6 * rules.players
        elif isinstance(event, HandThrownIn):
            assert played == []
            dealt = set()
        elif isinstance(event, CardPlayed):
            played.append(event.card)


def off_card(variant: Variant, trump: Suit) -> Card | None:
    """RULES.md, "Variants": the off-jack (ten_point) or off-five (pedro), the card of that rank in
    the other suit of trump's colour (clubs and spades black, diamonds and hearts red)."""
    rank = {Variant.TEN_POINT: 11, Variant.PEDRO: 5}.get(variant)
    other = {Suit.CLUBS: Suit.SPADES, Suit.SPADES: Suit.CLUBS, Suit.HEARTS: Suit.DIAMONDS, Suit.DIAMONDS: Suit.HEARTS}
    return None if rank is None else Card.of(rank, other[trump])


def is_trump(card: Card, variant: Variant, trump: Suit) -> bool:
    """A joker, the off-card, or a card printed in trump's suit."""
    return card.is_joker or card == off_card(variant, trump) or card.suit == trump


def card_points(variant: Variant, trump: Suit) -> dict[Card, int]:
    """Each card whose capture scores, and its value (RULES.md, "Variants"), written out again here."""
    jack = {Card.of(11, trump): 1}
    off = off_card(variant, trump)
    match variant:
        case Variant.JOKER:
            return {**jack, Card.parse("JK"): 1}
        case Variant.TEN_POINT:
            assert off is not None
            return {**jack, off: 1, Card.parse("BJ"): 1, Card.parse("LJ"): 1, Card.of(3, trump): 3}
        case Variant.PEDRO:
            assert off is not None
            return {**jack, Card.of(5, trump): 2, off: 3}
    return jack


def points_in_play(variant: Variant, trump: Suit, dealt: set[Card]) -> int:
    """High and Low (when a natural trump was dealt), each point card dealt, and Game."""
    natural = any(is_trump(c, variant, trump) and not c.is_joker for c in dealt)
    return 2 * natural + sum(v for c, v in card_points(variant, trump).items() if c in dealt) + 1


@quick
@games
def test_points_of_a_hand_add_up(rules: Rules, seed: int, play_seed: int) -> None:
    """High and Low when a natural trump was dealt, each point card dealt (to its captor), and Game
    when taken: the points awarded add up to that, never more than the points in play."""
    game = random_game(rules, seed, play_seed)
    dealt: set[Card] = set()
    trump = Suit.SPADES
    scored = 0
    for event in game.events:
        if isinstance(event, HandDealt):
            dealt = {c for hand in event.hands for c in hand}
        elif isinstance(event, TrumpPitched):
            trump = event.trump
        elif isinstance(event, HandScored):
            r = event.result
            in_play = points_in_play(rules.variant, trump, dealt)
            assert sum(r.points) == in_play - (r.game is None)
            assert sum(r.points) <= in_play
            by_side = [0] * rules.sides
            for award in r.awards:  # every point by name, to the side of its seat
                by_side[award.side] += award.value
                assert award.seat is None or rules.side_of(award.seat) == award.side
            assert tuple(by_side) == r.points
            assert r.set_back == (r.points[rules.side_of(r.pitcher)] < r.bid)
            scored += 1
    assert scored


@quick
@games
def test_captured_cards_are_the_dealt_cards(rules: Rules, seed: int, play_seed: int) -> None:
    """Every hand's tricks hold exactly the cards dealt, each once, and each trick goes to the seat
    that played its highest trump (the variant's members: jokers, off-card) or of the suit led."""
    game = random_game(rules, seed, play_seed)
    dealt: set[Card] = set()
    trump = Suit.SPADES
    taken: list[Card] = []
    for event in game.events:
        if isinstance(event, HandDealt):
            dealt, taken = {c for hand in event.hands for c in hand}, []
        elif isinstance(event, TrumpPitched):
            trump = event.trump
        elif isinstance(event, TrickWon):
            taken.extend(p.card for p in event.plays)
            assert event.winner == winning_seat(event.plays, trump, rules.variant)
        elif isinstance(event, HandScored):
            assert sorted(taken) == sorted(dealt)


@quick
@games
def test_every_trump_held_obeys_following(rules: Rules, seed: int, play_seed: int) -> None:
    """At every card played: holding the suit led (a trump held is never of its printed suit), the
    seat played that suit or a trump; when trump was led, a seat holding trump played trump."""
    game = Game(rules, seed)
    rng = random.Random(play_seed)
    variant = rules.variant
    while not game.is_over:
        view = game.view(game.to_act)
        if view.trick and view.trump is not None:
            trump = view.trump

            def suit_of(card: Card, trump: Suit = trump) -> Suit:
                return trump if is_trump(card, variant, trump) else card.suit

            led = suit_of(view.trick[0].card)
            follows = [c for c in view.hand if suit_of(c) in {led, trump}]
            expected = follows if any(suit_of(c) == led for c in view.hand) else list(view.hand)
            assert sorted(view.legal, key=lambda a: a.code) == [Play(c) for c in sorted(expected)]
        action = rng.choice(game.legal_actions())
        game.apply(action)


@quick
@games
def test_low_goes_by_the_tables_rule(rules: Rules, seed: int, play_seed: int) -> None:
    """The points are High to the side dealt the highest trump, Low to the side that won the trick
    holding the lowest trump (low captured) or to the side dealt it (low dealt), Jack and Game;
    the result names that trick's winner as Low's captor either way."""
    game = random_game(rules, seed, play_seed)
    tricks: list[TrickWon] = []
    for event in game.events:
        if isinstance(event, HandDealt):
            tricks = []
        elif isinstance(event, TrickWon):
            tricks.append(event)
        elif isinstance(event, HandScored):
            r = event.result
            if r.low_card is None:  # no natural trump dealt: nobody takes High or Low
                assert (r.high, r.low, r.low_captured_by) == (None, None, None)
                continue
            captor = next(t.winner for t in tricks if r.low_card in {p.card for p in t.plays})
            assert r.low_captured_by == captor
            if rules.variant is not Variant.STANDARD:  # the other points are counted above
                continue
            expected = [0] * rules.sides
            for seat in (r.high, captor if rules.low is LowRule.CAPTURED else r.low, r.jack):
                if seat is not None:
                    expected[rules.side_of(seat)] += 1
            if r.game is not None:
                expected[r.game] += 1
            assert r.points == tuple(expected)


@quick
@games
def test_bids_follow_the_tables_options(rules: Rules, seed: int, play_seed: int) -> None:
    """Every bid is min_bid or more and above the highest so far, but for the dealer's steal (at
    exactly the highest, only with dealer_steal); a hand's result says whether it was stolen."""
    game = random_game(rules, seed, play_seed)
    high, stolen, dealer = 0, False, -1
    for event in game.events:
        if isinstance(event, HandDealt):
            high, stolen, dealer = 0, False, event.dealer
        elif isinstance(event, BidMade):
            assert rules.lowest_bid <= event.amount <= rules.top_bid
            steal = event.amount == high
            assert event.amount > high or (steal and rules.dealer_steal and event.seat == dealer)
            high, stolen = event.amount, steal
        elif isinstance(event, Passed):
            assert not (event.seat == dealer and high == 0 and rules.forced_dealer_bid)
        elif isinstance(event, HandScored):
            assert event.result.stolen == stolen


@quick
@games
def test_every_game_ends_with_a_winner(rules: Rules, seed: int, play_seed: int) -> None:
    """Every game ends, with one winning side and the outcome's scores the final scores."""
    game = random_game(rules, seed, play_seed)
    assert game.outcome is not None
    assert 0 <= game.outcome.winner < rules.sides
    assert game.outcome.scores == game.scores


@quick
@games
def test_the_view_names_the_winner_of_the_trick_in_play(rules: Rules, seed: int, play_seed: int) -> None:
    """At every card, the view names as winning the trick so far the seat the rule says
    (``winning_seat``), and a complete trick goes to the seat the rule names for all its cards."""
    game = Game(rules, seed)
    rng = random.Random(play_seed)
    trump: Suit | None = None
    while not game.is_over:
        events = game.apply(rng.choice(game.legal_actions()))
        for event in events:
            if isinstance(event, TrumpPitched):
                trump = event.trump
            elif isinstance(event, TrickWon):
                assert trump is not None
                assert event.winner == winning_seat(event.plays, trump, rules.variant)
        view = game.view(None)
        if view.trick:
            assert view.trump is not None
            assert view.winning == winning_seat(view.trick, view.trump, rules.variant)
        else:
            assert view.winning is None


@quick
@games
def test_replay_reproduces_every_event(rules: Rules, seed: int, play_seed: int) -> None:
    """The same rules, seed and actions give the same game, event for event."""
    game = random_game(rules, seed, play_seed)
    again = Game.replay(rules, seed, game.actions)
    assert again.events == game.events
    assert again.outcome == game.outcome


@quick
@games
def test_illegal_actions_raise_and_change_nothing(rules: Rules, seed: int, play_seed: int) -> None:
    """Applying an illegal action raises and leaves the game exactly as it was."""
    game = Game(rules, seed)
    rng = random.Random(play_seed)
    for _ in range(40):
        if game.is_over:
            break
        legal = set(game.legal_actions())
        illegal = [a for a in ACTIONS if a not in legal]
        before = (game.events, game.view(None), game.actions)
        wrong = rng.choice(illegal)
        try:
            game.apply(wrong)
        except IllegalActionError:
            pass
        else:
            raise AssertionError(f"{wrong} was accepted")
        seat = game.to_act
        assert seat is not None
        other = (seat + 1) % rules.players
        try:
            game.apply(rng.choice(sorted(legal, key=lambda a: a.code)), seat=other)
        except IllegalActionError:
            pass
        else:
            raise AssertionError("a seat acted out of turn")
        assert (game.events, game.view(None), game.actions) == before
        game.apply(rng.choice(sorted(legal, key=lambda a: a.code)))


CARD_TEXTS = {str(card) for card in EVERY_CARD}


def card_texts(value: object) -> set[str]:
    """Every card text that appears anywhere in ``value``'s plain form."""
    found: set[str] = set()

    def walk(v: object) -> None:
        if isinstance(v, dict):
            for x in v.values():
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)
        elif isinstance(v, str) and v in CARD_TEXTS:
            found.add(v)

    walk(plain(value))
    return found


@quick
@games
def test_no_view_holds_a_card_its_seat_could_not_know(rules: Rules, seed: int, play_seed: int) -> None:
    """A seat's view (and a spectator's) shows only its own hand and cards already shown face up."""
    game = Game(rules, seed)
    rng = random.Random(play_seed)
    own: dict[int, set[str]] = {}
    shown: set[str] = set()
    seen_events = 0
    while not game.is_over:
        for event in game.events[seen_events:]:
            if isinstance(event, HandDealt):
                own = {s: {str(c) for c in cards} for s, cards in enumerate(event.hands)}
            elif isinstance(event, CardPlayed):
                shown.add(str(event.card))
        seen_events = len(game.events)
        drawn = {str(d.card) for e in game.events if isinstance(e, CardsDrawn) for d in e.draws}
        for seat in [None, *range(rules.players)]:
            known = shown | drawn | (own[seat] if seat is not None else set())
            assert card_texts(game.view(seat)) <= known
            for event in game.events:
                if isinstance(event, HandDealt):
                    hidden = redact(event, seat)
                    assert isinstance(hidden, HandDealt)
                    assert all(not cards for s, cards in enumerate(hidden.hands) if s != seat)
        game.apply(rng.choice(game.legal_actions()))


@quick
@games
def test_core_and_facade_agree(rules: Rules, seed: int, play_seed: int) -> None:
    """The fast core driven by codes plays the same game as the checking facade."""
    game = random_game(rules, seed, play_seed)
    core = GameState(rules, seed)
    for action in game.actions:
        assert action.code in core.legal_actions()
        core.apply_action(action.code)
    assert core.is_terminal() and core.outcome == game.outcome


def test_trump_is_the_pitchers_first_lead() -> None:
    """The pitcher leads any card to the first trick; its suit is trump for the hand."""
    game = random_game(Rules(), 11, 12)
    events = list(game.events)
    for i, event in enumerate(events):
        if isinstance(event, TrumpPitched):
            played = events[i + 1]
            assert isinstance(played, CardPlayed) and played.card.suit == event.trump
