"""The server's SQLite file: tables, seats, games as seed + actions, hand results, chat, ratings.

Writes are queued in memory; at the end of each turn of the event loop the server commits
the turn's queue, in order, as one transaction, and only then writes that turn's messages
(see :meth:`Server.flush`), so whatever a client has seen is on disk. During play the
store is only written: ratings, the one thing read back, are cached in memory. WAL mode
with ``synchronous=NORMAL`` survives a killed server process; a power cut may lose the
last commits (spec.md, "Durability").
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import sqlite3
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY, number INTEGER NOT NULL, name TEXT NOT NULL, options TEXT NOT NULL,
    games_played INTEGER NOT NULL DEFAULT 0, created REAL NOT NULL, closed REAL
);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL, seat INTEGER NOT NULL, kind TEXT NOT NULL, name TEXT,
    token_hash TEXT, bot TEXT, PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT, table_id TEXT NOT NULL, number INTEGER NOT NULL,
    seed INTEGER NOT NULL, rules TEXT NOT NULL, players TEXT NOT NULL, rated INTEGER NOT NULL,
    started REAL NOT NULL, finished REAL, outcome TEXT
);
CREATE TABLE IF NOT EXISTS actions (
    game_id INTEGER NOT NULL, seq INTEGER NOT NULL, seat INTEGER NOT NULL, action TEXT NOT NULL,
    timed_out INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS hands (
    game_id INTEGER NOT NULL, number INTEGER NOT NULL, result TEXT NOT NULL, PRIMARY KEY (game_id, number)
);
CREATE TABLE IF NOT EXISTS chat (
    id INTEGER PRIMARY KEY AUTOINCREMENT, table_id TEXT, scope TEXT NOT NULL, sender TEXT NOT NULL,
    text TEXT NOT NULL, at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS ratings (
    player TEXT PRIMARY KEY, rating REAL NOT NULL, games INTEGER NOT NULL, wins INTEGER NOT NULL
);
"""


Batch = list[tuple[str, tuple[Any, ...]]]
"""Queued writes: SQL and its arguments, in order."""


def default_db_path() -> Path:
    """``setback.sqlite3`` in the user's data folder (XDG on Linux, the usual places elsewhere)."""
    if sys.platform == "win32":
        base = Path(os.environ.get("APPDATA", Path.home() / "AppData" / "Roaming"))
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "setback" / "setback.sqlite3"


def token_hash(token: str) -> str:
    """Seat tokens are kept only as their SHA-256."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class SeatRow:
    seat: int
    kind: str
    name: str | None
    token_hash: str | None
    bot: str | None


@dataclass(frozen=True)
class GameRow:
    id: int
    table_id: str
    number: int
    seed: int
    rules: dict[str, Any]
    players: list[str]
    rated: bool
    started: float
    finished: float | None
    outcome: dict[str, Any] | None
    actions: list[tuple[int, str, bool]]


@dataclass(frozen=True)
class TableRow:
    id: str
    number: int
    name: str
    options: dict[str, Any]
    games_played: int
    seats: list[SeatRow]
    game: GameRow | None
    """The table's unfinished game, if it has one."""


class Store:
    """One SQLite file (``None``: in memory, for tests and throwaway servers)."""

    def __init__(self, path: str | Path | None) -> None:
        if path is not None and str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self.path = str(path) if path is not None else ":memory:"
        self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.executescript(_SCHEMA)
        self.db.execute("INSERT OR IGNORE INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
        self._queue: Batch = []
        self._ratings = {
            str(player): (float(rating), int(games), int(wins))
            for player, rating, games, wins in self.db.execute("SELECT player, rating, games, wins FROM ratings")
        }
        self._next_game = int(self.db.execute("SELECT COALESCE(MAX(id), 0) + 1 FROM games").fetchone()[0])

    def _write(self, sql: str, args: tuple[Any, ...]) -> None:
        self._queue.append((sql, args))

    def take(self) -> Batch:
        """The writes queued so far, to be committed by :meth:`write` (on any one thread)."""
        batch, self._queue = self._queue, []
        return batch

    def write(self, batch: Batch) -> None:
        """Commit ``batch`` as one transaction, in order."""
        if not batch:
            return
        with self.db:  # BEGIN ... COMMIT
            self.db.execute("BEGIN")
            for sql, rows in itertools.groupby(batch, key=lambda write: write[0]):
                self.db.executemany(sql, [args for _, args in rows])

    def commit(self) -> None:
        """Commit every queued write now, on this thread (start-up, shut-down, tools, tests)."""
        self.write(self.take())

    def close(self) -> None:
        self.commit()
        self.db.close()

    # -- writes ---------------------------------------------------------------------------

    def save_table(self, table_id: str, number: int, name: str, options: dict[str, Any]) -> None:
        self._write(
            "INSERT OR REPLACE INTO tables (id, number, name, options, created) VALUES (?, ?, ?, ?, ?)",
            (table_id, number, name, json.dumps(options), time.time()),
        )

    def save_seat(self, table_id: str, row: SeatRow) -> None:
        self._write(
            "INSERT OR REPLACE INTO seats VALUES (?, ?, ?, ?, ?, ?)",
            (table_id, row.seat, row.kind, row.name, row.token_hash, row.bot),
        )

    def close_table(self, table_id: str) -> None:
        self._write("UPDATE tables SET closed = ? WHERE id = ?", (time.time(), table_id))
        self._write("DELETE FROM seats WHERE table_id = ?", (table_id,))

    def start_game(
        self, table_id: str, number: int, seed: int, rules: dict[str, Any], players: list[str], rated: bool
    ) -> int:
        game_id = self._next_game
        self._next_game += 1
        self._write(
            "INSERT INTO games (id, table_id, number, seed, rules, players, rated, started) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (game_id, table_id, number, seed, json.dumps(rules), json.dumps(players), int(rated), time.time()),
        )
        self._write("UPDATE tables SET games_played = ? WHERE id = ?", (number, table_id))
        return game_id

    def add_action(self, game_id: int, seq: int, seat: int, action: str, timed_out: bool) -> None:
        self._write("INSERT INTO actions VALUES (?, ?, ?, ?, ?)", (game_id, seq, seat, action, int(timed_out)))

    def add_hand(self, game_id: int, number: int, result: dict[str, Any]) -> None:
        self._write("INSERT OR REPLACE INTO hands VALUES (?, ?, ?)", (game_id, number, json.dumps(result)))

    def finish_game(self, game_id: int, table_id: str, games_played: int, outcome: dict[str, Any]) -> None:
        self._write(
            "UPDATE games SET finished = ?, outcome = ? WHERE id = ?", (time.time(), json.dumps(outcome), game_id)
        )
        self._write("UPDATE tables SET games_played = ? WHERE id = ?", (games_played, table_id))

    def add_chat(self, table_id: str | None, scope: str, sender: str, text: str) -> None:
        self._write(
            "INSERT INTO chat (table_id, scope, sender, text, at) VALUES (?, ?, ?, ?, ?)",
            (table_id, scope, sender, text, time.time()),
        )

    def save_rating(self, player: str, rating: float, games: int, wins: int) -> None:
        self._ratings[player] = (rating, games, wins)
        self._write("INSERT OR REPLACE INTO ratings VALUES (?, ?, ?, ?)", (player, rating, games, wins))

    # -- reads ------------------------------------------------------------------------------

    def open_tables(self) -> list[TableRow]:
        """Every table not closed, with its seats and its unfinished game."""
        self.commit()
        rows = []
        for table_id, number, name, options, games_played in self.db.execute(
            "SELECT id, number, name, options, games_played FROM tables WHERE closed IS NULL ORDER BY number"
        ):
            seats = [
                SeatRow(*r)
                for r in self.db.execute(
                    "SELECT seat, kind, name, token_hash, bot FROM seats WHERE table_id = ? ORDER BY seat", (table_id,)
                )
            ]
            unfinished = self.db.execute(
                "SELECT id FROM games WHERE table_id = ? AND finished IS NULL ORDER BY id DESC LIMIT 1", (table_id,)
            ).fetchone()
            game = self.game(unfinished[0]) if unfinished else None
            rows.append(TableRow(table_id, number, name, json.loads(options), games_played, seats, game))
        return rows

    def last_table_number(self) -> int:
        self.commit()
        row = self.db.execute("SELECT MAX(number) FROM tables").fetchone()
        return int(row[0] or 0)

    def game(self, game_id: int) -> GameRow | None:
        row = self.db.execute(
            "SELECT id, table_id, number, seed, rules, players, rated, started, finished, outcome FROM games "
            "WHERE id = ?",
            (game_id,),
        ).fetchone()
        if row is None:
            return None
        actions = [
            (seat, action, bool(timed_out))
            for seat, action, timed_out in self.db.execute(
                "SELECT seat, action, timed_out FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
            )
        ]
        gid, table_id, number, seed, rules, players, rated, started, finished, outcome = row
        return GameRow(
            gid, table_id, number, seed, json.loads(rules), json.loads(players), bool(rated), started, finished,
            json.loads(outcome) if outcome else None, actions,
        )

    def finished_game_at(self, table_id: str) -> GameRow | None:
        """The first finished game of a table."""
        row = self.db.execute(
            "SELECT id FROM games WHERE table_id = ? AND finished IS NOT NULL ORDER BY id LIMIT 1", (table_id,)
        ).fetchone()
        return self.game(row[0]) if row else None

    def finished_games(self, limit: int | None = None) -> list[GameRow]:
        query = "SELECT id FROM games WHERE finished IS NOT NULL ORDER BY id DESC"
        ids = [r[0] for r in self.db.execute(query + (f" LIMIT {int(limit)}" if limit else ""))]
        return [g for g in (self.game(i) for i in ids) if g is not None]

    def ratings(self) -> list[tuple[str, float, int, int]]:
        return list(self.db.execute("SELECT player, rating, games, wins FROM ratings ORDER BY rating DESC, player"))

    def rating_of(self, player: str) -> tuple[float, int, int] | None:
        """A player's (rating, games, wins), from memory."""
        return self._ratings.get(player)
