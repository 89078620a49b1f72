"""A turn's journal row, grown an action at a time (``setback.server.journal``), is what the
store wrote before: msgspec's JSON of the actions, and of how many each game took."""

from __future__ import annotations

import random
from collections import Counter

import msgspec

from setback.protocol.convert import ACTION_TEXT
from setback.server.journal import TurnActions
from setback.server.store import BY_CLOCK, BY_PLAYER, BY_STAND_IN


def test_the_row_is_msgspecs_json_of_the_actions_byte_for_byte() -> None:
    """Every action text the server writes, and texts that need escaping, at games of any size."""
    rng = random.Random(32)
    texts = [*ACTION_TEXT, 'say "hi" \\ there', "pl\u00e4y\n", ""]
    for _ in range(20):
        turn = TurnActions()
        actions = []
        for _ in range(rng.randrange(1, 120)):
            action = (rng.choice((1, 7, 10**12, rng.randrange(1, 500))), rng.randrange(6), rng.choice(texts),
                      rng.choice((BY_PLAYER, BY_CLOCK, BY_STAND_IN)))
            turn.add(*action)
            actions.append(action)
        assert turn.take() == (
            msgspec.json.encode(actions).decode(), msgspec.json.encode(Counter(a[0] for a in actions)).decode()
        )
        assert turn.take() is None  # taken: nothing is kept


def test_the_first_action_of_a_turn_wakes_the_server() -> None:
    """The turn's end is asked for at its first action only (the store's other writes ask on their own)."""
    woken: list[int] = []
    turn = TurnActions()
    turn.wake = lambda: woken.append(len(turn.actions))
    turn.add(1, 0, "pass", BY_PLAYER)
    turn.add(1, 1, "bid 2", BY_PLAYER)
    assert woken == [0]
    turn.take()
    turn.add(2, 0, "pass", BY_CLOCK)
    assert woken == [0, 0]
