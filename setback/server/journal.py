"""The actions of this turn of the loop at every table, until the store takes them as one journal row.

Compiled with the hot path (``setback/compiled.py``): a table records each action it applies
with a native call, and the row's JSON grows by two pieces an action, where the store (Python)
was called a decision and then counted and encoded the turn's actions again at its end. The
pieces are text, as the row's column is: a join of strings copies them by ``memcpy`` after
one look at each, where a join of bytes fills and releases a buffer view of each (some 120
instructions more a piece), and the joined bytes were decoded again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

import msgspec

from setback.protocol.convert import ACTION_TEXT

_encoder: Final = msgspec.json.Encoder()

_ENDINGS: Final[dict[str, list[str | None]]] = {}
"""For each action text, its ending of an action's JSON, ``,SEAT,"TEXT",BY]``, by ``SEAT * 16 + BY``
(seats and who chose below 16), each made the first time it is written."""
ENDINGS_KEPT: Final = 1024
"""The most action texts :data:`_ENDINGS` keeps (the server writes a hundred or so; past it, an
ending is made each time)."""
_SMALL: Final = 16


def _ending(seat: int, action: str, by: int) -> str:
    """``,SEAT,"ACTION",BY]``: how an action's JSON ends, the text as msgspec encodes a string."""
    if not (0 <= seat < _SMALL and 0 <= by < _SMALL):
        return f",{seat:d},{_encoder.encode(action).decode()},{by:d}]"
    endings = _ENDINGS.get(action)
    if endings is None:
        endings = [None] * (_SMALL * _SMALL)
        if len(_ENDINGS) < ENDINGS_KEPT:
            _ENDINGS[action] = endings
    ending = endings[seat * _SMALL + by]
    if ending is None:
        ending = endings[seat * _SMALL + by] = f",{seat:d},{_encoder.encode(action).decode()},{by:d}]"
    return ending


_BY_CODE: Final[list[list[str | None] | None]] = [None] * len(ACTION_TEXT)
"""The endings of :data:`_ENDINGS` for the server's own actions, by the action's code (a list read
natively, where the dictionary hashes the text)."""


def _code_ending(seat: int, code: int, by: int) -> str:
    """:func:`_ending` of the action whose code is ``code`` (``ACTION_TEXT``'s)."""
    if not (0 <= seat < _SMALL and 0 <= by < _SMALL):
        return _ending(seat, ACTION_TEXT[code], by)
    endings = _BY_CODE[code]
    if endings is None:
        endings = _BY_CODE[code] = [None] * (_SMALL * _SMALL)
    ending = endings[seat * _SMALL + by]
    if ending is None:
        ending = endings[seat * _SMALL + by] = _ending(seat, ACTION_TEXT[code], by)
    return ending


_COUNTS: Final = [f"{n}," for n in range(64)]
"""``N,``: a game's count of actions in the turn."""


class GameActions:
    """One game's part of the turns' rows: a game's actions all go through one of these
    (:meth:`TurnActions.game`), which knows the game's number in JSON and counts the actions
    it took this turn."""

    def __init__(self, turn: TurnActions, game_id: int) -> None:
        self.turn = turn
        self.game_id = game_id
        self.opening = f"[{game_id}"
        """``[GAME``: how its action begins, the turn's first."""
        self.next_opening = f",[{game_id}"
        """``,[GAME``: how its action begins, after another."""
        self.key = f'"{game_id}":'
        """``"GAME":``: its key in the row's count of each game's actions."""
        self.key_one = f'"{game_id}":1,'
        """Its key and count when it took one action (most turns: a piece fewer to join)."""
        self.count = 0
        """Its actions this turn (it is in the turn's :attr:`TurnActions.games` while not 0)."""

    def add(self, seat: int, action: str, by: int) -> None:
        """The game's next action (``by``: who chose it)."""
        self._append(_ending(seat, action, by))

    def add_code(self, seat: int, code: int, by: int) -> None:
        """:meth:`add` of the action whose code is ``code`` (the server's hot path)."""
        self._append(_code_ending(seat, code, by))

    def add_hand(self, number: int, result: bytes) -> None:
        """The game's hand ``number`` scored: its result as JSON (the wire's hand result, as the
        views encoded it), a row of the records' ``hands`` written with the turn's actions."""
        self.turn.add_hand(self.game_id, number, result.decode())

    def _append(self, ending: str) -> None:
        turn = self.turn
        pieces = turn.pieces
        if self.count == 0:
            if not pieces and not turn.hands:
                wake = turn.wake
                if wake is not None:
                    wake()
            turn.games.append(self)
        self.count += 1
        pieces.append(self.next_opening if pieces else self.opening)
        pieces.append(ending)


class TurnActions:
    """This turn's actions at every table, in the order they were applied, as the JSON of a
    journal row: ``[[game, seat, "action", by], ...]``, and how many each game took
    (``{"game": n, ...}``, in the order the games first acted): byte for byte what msgspec
    makes of the list of those tuples and of their count (a ``Counter`` of the games)."""

    def __init__(self) -> None:
        self.pieces: list[str] = []
        """The row's JSON in pieces, two an action: ``[game`` (after another, ``,[game``) and
        ``,seat,"action",by]``."""
        self.games: list[GameActions] = []
        """The games that took an action this turn, in the order they first did."""
        self.hands: list[tuple[int, int, str]] = []
        """The hands scored this turn, in order, as the records' rows: game, hand number, result
        (JSON). Kept here, where the play adds them natively (the store is Python: a call by
        name cost some 10,000 instructions a hand)."""
        self.wake: Callable[[], None] | None = None
        """Called at the turn's first action: the turn then ends with a commit (the store's ``wake``)."""
        self._by_id: dict[int, GameActions] = {}
        """The games :meth:`add` was given this turn (tools that add actions by game number)."""

    def game(self, game_id: int) -> GameActions:
        """Where the actions of game ``game_id`` go, for as long as it is played: the server's
        table asks once a game. (Its actions all go through the one it is given: the row counts
        each game once, by the object that took them.)"""
        return GameActions(self, game_id)

    def add(self, game_id: int, seat: int, action: str, by: int) -> None:
        """Game ``game_id``'s next action, for a caller that holds no :class:`GameActions`."""
        game = self._by_id.get(game_id)
        if game is None:
            game = self._by_id[game_id] = GameActions(self, game_id)
        game.add(seat, action, by)

    def add_hand(self, game_id: int, number: int, result: str) -> None:
        """Game ``game_id``'s hand ``number`` scored, its result ``result`` (JSON)."""
        hands = self.hands
        if not hands and not self.pieces:
            wake = self.wake
            if wake is not None:
                wake()
        hands.append((game_id, number, result))

    def take_hands(self) -> list[tuple[int, int, str]]:
        """The hands added since the last take, in order (none are kept)."""
        hands = self.hands
        self.hands = []
        return hands

    def take(self) -> tuple[str, str] | None:
        """The journal row's ``actions`` and ``games`` columns, as JSON, for every action added
        since the last take (None: there were none); none are kept."""
        pieces = self.pieces
        if not pieces:
            return None
        games = self.games
        self.pieces = []
        self.games = []
        if self._by_id:  # a game may have come both ways: counted by its number
            self._by_id.clear()
            merged: dict[int, int] = {}
            for game in games:
                merged[game.game_id] = merged.get(game.game_id, 0) + game.count
                game.count = 0
            held = _encoder.encode(merged).decode()
        else:
            counts: list[str] = []
            for game in games:
                count = game.count
                if count == 1:
                    counts.append(game.key_one)
                else:
                    counts.append(game.key)
                    counts.append(_COUNTS[count] if count < 64 else f"{count},")
                game.count = 0
            held = "{" + "".join(counts)[:-1] + "}"
        return "[" + "".join(pieces) + "]", held
