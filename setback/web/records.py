"""The evening over HTTP: what the server recorded, as JSON for the evening page, the replay
page and anyone's script (spec.md, "The evening over HTTP").

Only finished games are told, and a finished game whole (every hand face up: the game is
over); a game being played is not in the records' answers at all, so no hidden card can
leave through them. Every answer is bounded: at most :data:`MOST_GAMES` games a list, one
game a replay, the leaderboard's rows.
"""

from __future__ import annotations

import http
from collections import OrderedDict
from dataclasses import dataclass
from typing import get_args
from urllib.parse import parse_qs

import msgspec

from setback.protocol.messages import Variant, WireRules
from setback.server.history import finished_record, history_row, leaderboard_rows, score_series
from setback.server.store import DamagedRecordError, GameRow, Store

RECORDS_PATH = "/api/"
"""Where the records' answers are; every other path is the page's files or its socket."""

MOST_GAMES = 200
"""The most games one list answers with (``?limit=``)."""

GAMES = 60
"""The games a list answers with when it names no limit: an evening's, and a few before."""

VARIANTS = get_args(Variant)
"""The variants a leaderboard is asked of (``?variant=``), each keeping its own ratings."""

SERIES_KEPT = 1024
"""Finished games whose chart points are kept once worked out (a finished game never changes)."""


@dataclass(frozen=True)
class Answer:
    """A records' answer: its status and its JSON body."""

    status: http.HTTPStatus
    body: bytes


def _json(status: http.HTTPStatus, value: object) -> Answer:
    return Answer(status, msgspec.json.encode(value))


def _refused(status: http.HTTPStatus, text: str) -> Answer:
    return _json(status, {"error": text})


class Records:
    """The answers at :data:`RECORDS_PATH`, read from a server's store."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._series: OrderedDict[int, list[list[int]]] = OrderedDict()

    def answer(self, path: str, query: str) -> Answer:
        """The answer to a GET of ``path`` (under :data:`RECORDS_PATH`) with ``query``."""
        parts = path.removeprefix(RECORDS_PATH).strip("/").split("/")
        match parts:
            case ["games"]:
                limit = _limit(query)
                if limit is None:
                    return _refused(http.HTTPStatus.BAD_REQUEST, f"limit is a whole number from 1 to {MOST_GAMES}")
                return _json(http.HTTPStatus.OK, {"games": self.games(limit)})
            case ["games", number] if number.isdigit() and len(number) <= 18:
                return self.replay(int(number))
            case ["leaderboard"]:
                rules = _variant(query)
                if rules is None:
                    return _refused(http.HTTPStatus.BAD_REQUEST, f"variant is one of {', '.join(VARIANTS)}")
                return _json(http.HTTPStatus.OK, {"players": leaderboard_rows(self.store, rules.game())})
            case _:
                return _refused(http.HTTPStatus.NOT_FOUND, "the records: /api/games, /api/games/ID, /api/leaderboard")

    def games(self, limit: int) -> list[dict[str, object]]:
        """The ``limit`` newest finished games, each as ``setback history --json`` shows it
        and with its score after each hand (``hands``); a game whose record cannot be read
        is left out (and said in the log)."""
        games = []
        for row in self.store.finished_games(limit):
            summary = history_row(row)
            if summary is None:
                continue
            try:
                summary["hands"] = self._scores(row)
            except DamagedRecordError as exc:
                exc.left_out()
                continue
            games.append(summary)
        return games

    def _scores(self, row: GameRow) -> list[list[int]]:
        """A finished game's chart points, worked out once."""
        kept = self._series.get(row.id)
        if kept is None:
            kept = self._series[row.id] = score_series(row)
            while len(self._series) > SERIES_KEPT:
                self._series.popitem(last=False)
        return kept

    def replay(self, game_id: int) -> Answer:
        """Game ``game_id`` whole, once it is finished; a 404 saying why otherwise."""
        try:
            row = self.store.game(game_id)
        except DamagedRecordError as exc:
            exc.left_out()
            return _refused(http.HTTPStatus.NOT_FOUND, f"game {game_id}: its record cannot be read")
        record = finished_record(row) if row is not None else None
        if record is None:
            why = "is being played: it is shown once it is over" if row is not None else "is not recorded here"
            return _refused(http.HTTPStatus.NOT_FOUND, f"game {game_id} {why}")
        return _json(http.HTTPStatus.OK, record)


def _limit(query: str) -> int | None:
    """The ``limit`` a query asks for (:data:`GAMES` when none), or None if it is not one."""
    try:
        asked = parse_qs(query, max_num_fields=8).get("limit")
    except ValueError:  # too many fields
        return None
    if not asked:
        return GAMES
    text = asked[-1]
    if not (text.isdigit() and len(text) <= 4 and 1 <= int(text) <= MOST_GAMES):
        return None
    return int(text)


def _variant(query: str) -> WireRules | None:
    """The rules of the variant a query asks the leaderboard of (standard when none), or None
    if it names no variant."""
    try:
        asked = parse_qs(query, max_num_fields=8).get("variant")
        return msgspec.convert({"variant": asked[-1]} if asked else {}, WireRules)
    except (ValueError, msgspec.ValidationError):  # too many fields; no variant's name
        return None
