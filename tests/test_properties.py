"""Invariants over seeded random games, for 2-7 players and every table option."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from setback.engine import (
    ACTIONS,
    CardPlayed,
    CardsDrawn,
    Game,
    GameState,
    HandDealt,
    HandScored,
    HandThrownIn,
    IllegalActionError,
    Rules,
    Suit,
    TrickWon,
    TrumpPitched,
    plain,
    redact,
    winning_seat,
)


@st.composite
def rules_strategy(draw: st.DrawFn) -> Rules:
    players = draw(st.integers(2, 7))
    team_options = [None] + [t for t in range(2, players + 1) if players % t == 0 and players // t >= 2]
    return Rules(
        players=players,
        teams=draw(st.sampled_from(team_options)),
        target=draw(st.sampled_from((7, 11, 21))),
        forced_dealer_bid=draw(st.booleans()),
        smudge=draw(st.booleans()),
        no_junk=draw(st.booleans()),
        hand_limit=draw(st.integers(1, 12)),
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


@quick
@games
def test_points_of_a_hand_add_up(rules: Rules, seed: int, play_seed: int) -> None:
    """High and Low always, Jack when dealt and Game when taken: the points awarded add up."""
    game = random_game(rules, seed, play_seed)
    results = [e.result for e in game.events if isinstance(e, HandScored)]
    assert results
    for r in results:
        assert sum(r.points) == 2 + (r.jack is not None) + (r.game is not None)
        assert r.set_back == (r.points[rules.side_of(r.pitcher)] < r.bid)


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
                assert event.winner == winning_seat(event.plays, trump)
        view = game.view(None)
        if view.trick:
            assert view.trump is not None
            assert view.winning == winning_seat(view.trick, view.trump)
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
        elif isinstance(v, str) and 2 <= len(v) <= 3 and v[-1] in "CDHS" and v[:-1] in {
            "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"
        }:
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
