"""A turn's journal row, grown an action at a time (``setback.server.journal``), is what the
store wrote before: msgspec's JSON of the actions, and of how many each game took."""

from __future__ import annotations

import random
from collections import Counter

import msgspec

from setback.protocol.convert import ACTION_TEXT
from setback.server.journal import TurnActions
from setback.server.store import BY_CLOCK, BY_PLAYER, BY_STAND_IN

TEXTS = [*ACTION_TEXT, 'say "hi" \\ there', "pl\u00e4y\n", ""]
"""Every action text the server writes, and texts that need escaping."""


def _row(actions: list[tuple[int, int, str, int]]) -> tuple[str, str]:
    """The journal row's columns as the store made them with msgspec."""
    return msgspec.json.encode(actions).decode(), msgspec.json.encode(Counter(a[0] for a in actions)).decode()


def test_the_row_is_msgspecs_json_of_the_actions_byte_for_byte() -> None:
    """Games of any number, seats, who chose, texts; each game's actions through its own journal."""
    rng = random.Random(32)
    for _ in range(30):
        turn = TurnActions()
        games = {game_id: turn.game(game_id) for game_id in rng.sample([1, 7, 10**12, *range(20, 500)], 6)}
        actions = []
        for _ in range(rng.randrange(1, 150)):
            game_id = rng.choice(list(games))
            action = (game_id, rng.randrange(20), rng.choice(TEXTS), rng.choice((BY_PLAYER, BY_CLOCK, BY_STAND_IN, 17)))
            games[game_id].add(*action[1:])
            actions.append(action)
        assert turn.take() == _row(actions)
        assert turn.take() is None  # taken: nothing is kept


def test_an_action_added_by_its_code_is_as_added_by_its_text() -> None:
    """The server journals its actions by code: the same row as by their texts."""
    by_text, by_code = TurnActions(), TurnActions()
    texts, codes = by_text.game(3), by_code.game(3)
    for code, text in enumerate(ACTION_TEXT):
        for seat, by in ((code % 7, BY_PLAYER), (2, BY_CLOCK), (20, BY_STAND_IN), (1, 17)):
            texts.add(seat, text, by)
            codes.add_code(seat, code, by)
    assert by_code.take() == by_text.take()


def test_actions_added_by_game_number_are_counted_with_the_games_own() -> None:
    """A tool's actions, by game number, beside a game's own journal in the same turn: each game counted once."""
    turn = TurnActions()
    own = turn.game(5)
    own.add(0, "bid 2", BY_PLAYER)
    turn.add(5, 1, "pass", BY_CLOCK)
    turn.add(9, 0, "pass", BY_PLAYER)
    own.add(2, "pass", BY_PLAYER)
    assert turn.take() == _row([(5, 0, "bid 2", 0), (5, 1, "pass", 1), (9, 0, "pass", 0), (5, 2, "pass", 0)])
    own.add(3, "pass", BY_STAND_IN)  # a new turn: counted from 0 again
    assert turn.take() == _row([(5, 3, "pass", 2)])


def test_the_first_action_of_a_turn_wakes_the_server() -> None:
    """The turn's end is asked for at its first action only (the store's other writes ask on their own)."""
    woken: list[int] = []
    turn = TurnActions()
    turn.wake = lambda: woken.append(len(turn.pieces))
    game = turn.game(1)
    game.add(0, "pass", BY_PLAYER)
    turn.game(2).add(1, "bid 2", BY_PLAYER)
    assert woken == [0]
    turn.take()
    game.add(0, "pass", BY_CLOCK)
    assert woken == [0, 0]


def test_a_hand_scored_is_kept_with_the_turn_and_wakes_it_when_first() -> None:
    """A hand's row waits with the turn's actions, in order, until the store takes it; the first
    write of a turn asks for its end, whichever it is."""
    woken: list[int] = []
    turn = TurnActions()
    turn.wake = lambda: woken.append(len(turn.pieces))
    game = turn.game(4)
    game.add_hand(1, b'{"hand_number":1}')
    turn.add_hand(9, 3, '{"hand_number":3}')
    game.add(0, "pass", BY_PLAYER)
    assert woken == [0]
    assert turn.take_hands() == [(4, 1, '{"hand_number":1}'), (9, 3, '{"hand_number":3}')]
    assert turn.take_hands() == []
    turn.take()
    game.add_hand(2, b"{}")
    assert woken == [0, 0]
