"""Rebuilding the fast core from a seat's view: the same legal actions, events and scores."""

from __future__ import annotations

import ast
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_properties import quick, rules_strategy

from setback import compiled
from setback.engine import (
    Event,
    Game,
    GameState,
    HandDealt,
    HandScored,
    Phase,
    Rules,
    mask_of,
    state_from_view,
)


def hand_events(events: list[Event] | tuple[Event, ...]) -> list[Event]:
    """The events up to and including the end of the current hand (the next deal is seeded apart)."""
    out: list[Event] = []
    for event in events:
        if isinstance(event, HandDealt):
            break
        out.append(event)
        if isinstance(event, HandScored):
            break
    return out


@quick
@given(rules=rules_strategy(), seed=st.integers(0, 2**32), play_seed=st.integers(0, 2**16),
       stop=st.integers(0, 60))
def test_true_holdings_continue_the_real_game(rules: Rules, seed: int, play_seed: int, stop: int) -> None:
    """From any seat's view and the true hidden hands, the rebuilt state plays on exactly as the game."""
    game = Game(rules, seed)
    rng = random.Random(play_seed)
    for _ in range(stop):
        if game.is_over:
            return
        game.apply(rng.choice(game.legal_actions()))
    if game.is_over:
        return
    seat = rng.randrange(rules.players)
    view = game.view(seat)
    holdings = [mask_of(game.view(s).hand) for s in range(rules.players)]
    log: list[Event] = []
    state = state_from_view(view, holdings)
    state.log = log
    assert state.to_act == game.to_act and state.phase is game.phase
    assert state.scores == list(game.scores) and state.hand_number == game.hand_number
    start = len(game.events)
    hand = game.hand_number
    while not game.is_over and game.hand_number == hand:
        assert state.legal_actions() == tuple(a.code for a in game.legal_actions())
        action = rng.choice(game.legal_actions())
        game.apply(action)
        state.apply_action(action.code)
    assert hand_events(log) == hand_events(game.events[start:])
    if game.outcome is not None:
        assert state.outcome == game.outcome
    elif any(isinstance(e, HandScored) for e in log):
        assert state.scores == list(game.scores)


def test_clone_is_independent_and_plays_the_same() -> None:
    """A clone plays on like its original, and playing it leaves the original untouched."""
    state = GameState(Rules(players=3), 5)
    for _ in range(10):
        state.apply_action(state.legal_actions()[0])
    copy = state.clone()
    before = (state.hands[:], state.trick[:], state.scores[:], state.to_act)
    rng = random.Random(1)
    while not copy.is_terminal():
        copy.apply_action(rng.choice(copy.legal_actions()))
    assert (state.hands, state.trick, state.scores, state.to_act) == before
    again = state.clone()
    rng = random.Random(1)
    while not again.is_terminal():
        again.apply_action(rng.choice(again.legal_actions()))
    assert again.outcome == copy.outcome
    shared = random.Random(3)
    assert state.clone(shared).rng is shared and state.clone().rng is not state.rng


def _slots_of_game_state() -> tuple[str, ...]:
    """GameState's fields, from its source (compiled, the class has no ``__slots__``)."""
    tree = ast.parse(compiled.source_path("setback.engine.state").read_text())
    (slots,) = [
        node.value for node in ast.walk(tree)
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__slots__" for t in node.targets)
    ]
    names = ast.literal_eval(slots)
    assert isinstance(names, tuple) and len(names) > 20
    return names


def test_clone_copies_every_field() -> None:
    """clone names each field (a compiled GameState has no generic copy): none is forgotten."""
    state = GameState(Rules(players=4, teams=2), 11, log=[])
    for _ in range(9):
        state.apply_action(state.legal_actions()[-1])
    copy = state.clone()
    for name in _slots_of_game_state():
        if name not in {"log", "rng"}:
            assert getattr(copy, name) == getattr(state, name), name
    assert copy.log is None and copy.rng.getstate() == state.rng.getstate()


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**16))
def test_wrong_holdings_or_actions_are_refused(seed: int) -> None:
    """Holdings that contradict the view, or an illegal action in the history, raise ValueError."""
    game = Game(Rules(players=2), seed)
    view = game.view(0)
    other = mask_of(game.view(1).hand)
    with pytest.raises(ValueError):
        state_from_view(view, [other, mask_of(view.hand)])
    with pytest.raises(ValueError):
        state_from_view(view, [mask_of(view.hand), other & (other - 1)])
    dealt = [mask_of(view.hand), other]
    with pytest.raises(ValueError):
        GameState.from_position(Rules(players=2), dealt, view.dealer, [0])
    assert GameState.from_position(Rules(players=2), dealt, view.dealer, []).phase is Phase.BIDDING
