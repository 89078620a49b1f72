"""The actions of this turn of the loop at every table, until the store takes them as one journal row.

Compiled with the hot path (``setback/compiled.py``): a table records each action it applies
with a native call, and the row's JSON grows by a piece an action, where the store (Python)
was called a decision and then counted and encoded the turn's actions again at its end.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

import msgspec

_encoder: Final = msgspec.json.Encoder()

_QUOTED: Final[dict[str, bytes]] = {}
"""Each action text as a JSON string between commas, made once (the server's are a hundred or so)."""
QUOTED_KEPT: Final = 4096
"""The most action texts :data:`_QUOTED` keeps (past it, a text is encoded each time)."""
_SEATS: Final = [b",%d" % n for n in range(16)]
"""``,SEAT``: a seat, after the game's number."""
_BYS: Final = [b"%d]" % n for n in range(16)]
"""``BY]``: who chose an action, ending it."""
_COUNTS: Final = [b"%d," % n for n in range(64)]
"""``N,``: a game's count of actions in the turn."""


def _quoted(action: str) -> bytes:
    """``,"action",``: the text as msgspec encodes a string, between the commas around it."""
    quoted = _QUOTED.get(action)
    if quoted is None:
        quoted = b",%b," % _encoder.encode(action)
        if len(_QUOTED) < QUOTED_KEPT:
            _QUOTED[action] = quoted
    return quoted


def _seat(seat: int) -> bytes:
    return _SEATS[seat] if 0 <= seat < 16 else b",%d" % seat


def _by(by: int) -> bytes:
    return _BYS[by] if 0 <= by < 16 else b"%d]" % by


class GameActions:
    """One game's part of the turns' rows: a game's actions all go through one of these
    (:meth:`TurnActions.game`), which knows the game's number in JSON and counts the actions
    it took this turn."""

    def __init__(self, turn: TurnActions, game_id: int) -> None:
        self.turn = turn
        self.game_id = game_id
        self.opening = b"[%d" % game_id
        """``[GAME``: how its action begins, the turn's first."""
        self.next_opening = b",[%d" % game_id
        """``,[GAME``: how its action begins, after another."""
        self.key = b'"%d":' % game_id
        """``"GAME":``: its key in the row's count of each game's actions."""
        self.count = 0
        """Its actions this turn (it is in the turn's :attr:`TurnActions.games` while not 0)."""

    def add(self, seat: int, action: str, by: int) -> None:
        """The game's next action (``by``: who chose it)."""
        turn = self.turn
        pieces = turn.pieces
        if self.count == 0:
            if not pieces:
                wake = turn.wake
                if wake is not None:
                    wake()
            turn.games.append(self)
        self.count += 1
        pieces.append(self.next_opening if pieces else self.opening)
        pieces.append(_seat(seat))
        pieces.append(_quoted(action))
        pieces.append(_by(by))


class TurnActions:
    """This turn's actions at every table, in the order they were applied, as the JSON of a
    journal row: ``[[game, seat, "action", by], ...]``, and how many each game took
    (``{"game": n, ...}``, in the order the games first acted): byte for byte what msgspec
    makes of the list of those tuples and of their count (a ``Counter`` of the games)."""

    def __init__(self) -> None:
        self.pieces: list[bytes] = []
        """The row's JSON in pieces, four an action: ``[game`` (after another, ``,[game``),
        ``,seat``, ``,"action",``, ``by]``."""
        self.games: list[GameActions] = []
        """The games that took an action this turn, in the order they first did."""
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
            held = _encoder.encode(merged)
        else:
            counts: list[bytes] = []
            for game in games:
                counts.append(game.key)
                counts.append(_COUNTS[game.count] if game.count < 64 else b"%d," % game.count)
                game.count = 0
            held = b"{%b}" % b"".join(counts)[:-1]
        return (b"[%b]" % b"".join(pieces)).decode(), held.decode()
