"""The actions of this turn of the loop at every table, until the store takes them as one journal row.

Compiled with the hot path (``setback/compiled.py``), so that a table records each action it
applies with a native call: the store itself (:class:`~setback.server.store.Store`) is Python,
and a call into it from compiled code was a Python call a decision.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

import msgspec

_encoder: Final = msgspec.json.Encoder()

Entry = tuple[int, int, str, int]
"""A journaled action: game, seat, action text, who chose it (``setback.server.store.BY_PLAYER``...)."""


class TurnActions:
    """This turn's actions at every table, in the order they were applied."""

    def __init__(self) -> None:
        self.actions: list[Entry] = []
        self.wake: Callable[[], None] | None = None
        """Called at the turn's first action: the turn then ends with a commit (the store's ``wake``)."""

    def add(self, game_id: int, seat: int, action: str, by: int) -> None:
        """The game's next action (``by``: who chose it)."""
        actions = self.actions
        if not actions:
            wake = self.wake
            if wake is not None:
                wake()
        actions.append((game_id, seat, action, by))

    def take(self) -> tuple[str, str] | None:
        """The journal row's columns for every action added since the last take (None: there
        were none), as JSON: ``actions``, ``[[game, seat, "action", by], ...]``, and ``games``,
        how many of them each game took (``{"game": n, ...}``, the games in the order they first
        acted); none are kept."""
        actions = self.actions
        if not actions:
            return None
        self.actions = []
        counts: dict[int, int] = {}
        for entry in actions:
            game_id = entry[0]
            counts[game_id] = counts.get(game_id, 0) + 1
        return _encoder.encode(actions).decode(), _encoder.encode(counts).decode()
