"""The server's SQLite file: tables, seats, games as seed + actions, hand results, chat, ratings.

Writes are queued in memory; at the end of each turn of the event loop the server commits
the turn's queue, in order, as one transaction, and only then writes that turn's messages
(see :meth:`Server.flush`), so whatever a client has seen is on disk. During play the
store is only written: ratings, the one thing read back, are cached in memory. WAL mode
with ``synchronous=NORMAL`` survives a killed server process; a power cut may lose the
last commits (spec.md, "Durability").

The actions of every game go to an append-only journal, one row a turn holding every
action the turn took at every table (one insert a turn, not one a decision, is what keeps
recording cheap on the server's hot path), and beside them how many each game took
(``games``), so that a row cut short costs only the games whose actions it lost. A game's row
names the turns its actions span,
``first_move`` to ``last_move`` (none while it is being played): reading a game reads those
journal rows and keeps its own actions. Nothing is copied or deleted when a game ends, so
a game's end costs its turn no more than any other turn. (Files of schema 3 and older kept
a finished game's actions in its row, ``games.actions``; those games are read from there.)

Whatever is read back is checked, row by row, since a damaged file may hold anything in any
column: a game whose row or journal turns do not hold what they must is a
:class:`DamagedRecordError` naming it, and costs whoever reads only that game.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import re
import sqlite3
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import IO, Annotated, Any, Literal, TypeVar

import msgspec
import structlog

from setback.engine import Game, parse_action
from setback.server.journal import TurnActions

try:
    import fcntl
except ImportError:  # Windows: no advisory locks; one server a file is then up to the user
    fcntl = None  # type: ignore[assignment]

log = structlog.get_logger("setback.store")

SCHEMA_VERSION = 5
CHECKPOINT_SECONDS = 2.0
"""How often the server's checkpoint thread folds the WAL into the database file (and so
syncs what was committed to the disk). What a round costs the tables is mostly its syncs,
not the pages it writes, so rounds are few (README, "Figures"): the WAL holds up to a
round's worth of commits, some 110 MB under the benchmark's load at 50 tables, little at a
club's. Between rounds the thread may also sync the WAL's new commits more often
(:meth:`Store.start_checkpoints`, ``setback serve --wal-sync``)."""
WAL_LIMIT_BYTES = 128 << 20
"""The most the WAL may hold before the writer folds it itself, whatever the checkpoint thread
managed: writing faster than a round folds (``setback bench records`` writes several times
faster than the server plays) would otherwise grow the WAL past any size, since a round
starts over only once it has caught up. Once folded, the WAL starts over and its file is cut
back to this size. Under a server's load the rounds keep it well below (README, "Figures")."""
RESTART_CHECK_SECONDS = 0.05
"""How long after a round that caught up the checkpoint thread looks whether the WAL started over."""
WAL_CHECK_COMMITS = 16
"""Commits between two looks at the WAL's size (a ``stat`` of its file)."""
CHECKPOINT_PASSES = 8
"""Passes a checkpoint round makes at most, each folding what was committed during the one
before. A pass that finds nothing new leaves the WAL all folded, and the next commit starts
it over from its beginning. Under steady load no pass may find that: the writer then folds
the few frames left itself, after its next commit (two syncs, a fraction of a millisecond
on an SSD), or the WAL would grow for as long as the load lasts."""

_MOVES_TABLE = """
CREATE TABLE IF NOT EXISTS moves (
    game_id INTEGER NOT NULL, seq INTEGER NOT NULL, seat INTEGER NOT NULL, action TEXT NOT NULL,
    timed_out INTEGER NOT NULL DEFAULT 0
)"""
"""Schema 2's journal, one row an action in rowid order: only read to migrate a file."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS journal (turn INTEGER PRIMARY KEY, actions TEXT NOT NULL, games TEXT);
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
    started REAL NOT NULL, finished REAL, outcome TEXT,
    first_move INTEGER NOT NULL DEFAULT 0, actions TEXT, last_move INTEGER
);
CREATE TABLE IF NOT EXISTS hands (
    game_id INTEGER NOT NULL, number INTEGER NOT NULL, result TEXT NOT NULL, PRIMARY KEY (game_id, number)
);
CREATE TABLE IF NOT EXISTS chat (
    id INTEGER PRIMARY KEY AUTOINCREMENT, table_id TEXT, scope TEXT NOT NULL, sender TEXT NOT NULL,
    text TEXT NOT NULL, at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS chat_of_table ON chat (table_id, id);
CREATE TABLE IF NOT EXISTS ratings (
    player TEXT PRIMARY KEY, rating REAL NOT NULL, games INTEGER NOT NULL, wins INTEGER NOT NULL
);
"""


Batch = list[tuple[str, tuple[Any, ...]]]
"""Queued writes: SQL and its arguments, in order."""

BY_PLAYER, BY_CLOCK, BY_STAND_IN = 0, 1, 2
"""Who chose a recorded action: the seat's player (a built-in bot in its own seat too), the
clock (the timeout policy), or a stand-in bot playing for a player who was away or left.
Kept where files of schemas 1 and 2 kept 0 and 1 for "the clock chose it"."""
Recorded = tuple[int, str, int]
"""A recorded action: seat, action text, who chose it (:data:`BY_PLAYER`...)."""


def stood_in_seats(actions: list[Recorded]) -> frozenset[int]:
    """The seats a stand-in bot played at least one decision for."""
    return frozenset(seat for seat, _, by in actions if by == BY_STAND_IN)


def replay(game: Game, actions: list[Recorded]) -> Game:
    """``game``, new from its rules and seed, played on through the recorded ``actions``, each by
    the seat that took it: a ValueError naming the first action that does not read or is not
    that seat's to take then (a damaged record, or a seed that is not the game's)."""
    for number, (seat, text, _by) in enumerate(actions):
        try:
            game.apply(parse_action(text), seat)
        except ValueError as exc:
            raise ValueError(f"action {number} ({text!r} by seat {seat}): {exc}") from None
    return game


def _json(value: object) -> str:
    return msgspec.json.encode(value).decode()


_JOURNAL = "INSERT INTO journal (turn, actions, games) VALUES (?, ?, ?)"
_HAND = "INSERT OR REPLACE INTO hands VALUES (?, ?, ?)"
"""A hand's row: its game, its number, its result; written after the turn's other queued writes
(the hands are kept with the turn's actions, :class:`TurnActions`), before its journal row."""
JournalEntry = tuple[int, int, str, int | bool]
"""A journal row's action: game, seat, action, who chose it (older files may say false/true for 0/1)."""
_journal_decoder = msgspec.json.Decoder(list[JournalEntry])
_held_decoder = msgspec.json.Decoder(dict[int, int])
"""A journal row's ``games``: how many of the row's actions each game took (files of schema 4
and older have none)."""
_IN_PLAY = "finished IS NULL AND actions IS NULL AND last_move IS NULL"
"""A game still being played (or, at start-up, one to take back): not finished, not abandoned."""


@dataclass(frozen=True)
class _Turn:
    """A journal row, read as far as it can be: the actions that read, the games one of whose
    actions does not (and why), and why the rest of the row cannot be read, if it cannot."""

    entries: list[JournalEntry]
    damaged: dict[int, str]
    lost: str | None


_entry_reader = json.JSONDecoder()
_blanks = re.compile(r"[ \t\n\r]*")


def _past_blanks(text: str, at: int) -> int:
    """Where the JSON whitespace from ``at`` on ends."""
    found = _blanks.match(text, at)
    return found.end() if found else at


def _read_turn(text: object) -> _Turn:
    """A journal row's ``actions`` column, whole when it reads (one pass of msgspec), else
    action by action up to where it cannot be read any more."""
    try:
        return _Turn(_journal_decoder.decode(text), {}, None)  # type: ignore[arg-type]
    except (msgspec.DecodeError, TypeError) as exc:  # TypeError: not even text
        if not isinstance(text, str):
            return _Turn([], {}, str(exc))
    entries: list[JournalEntry] = []
    damaged: dict[int, str] = {}
    at = _past_blanks(text, 0)
    if not text.startswith("[", at):
        return _Turn([], {}, "not a list of actions")
    at += 1
    while True:
        at = _past_blanks(text, at)
        try:
            value, at = _entry_reader.raw_decode(text, at)
        except json.JSONDecodeError:
            return _Turn(entries, damaged, f"cannot be read from character {at} on (cut short?)")
        try:
            entries.append(msgspec.convert(value, JournalEntry))
        except msgspec.ValidationError as exc:
            if not (isinstance(value, list) and value and type(value[0]) is int):
                return _Turn(entries, damaged, f"an action of no game before character {at}: {exc}")
            damaged.setdefault(value[0], f"an action that does not read: {exc}")
        at = _past_blanks(text, at)
        if text.startswith(",", at):
            at += 1
        elif text[at:].rstrip(" \t\n\r") == "]":
            return _Turn(entries, damaged, None)
        else:
            return _Turn(entries, damaged, f"cannot be read from character {at} on")


def _lost_by(turn: _Turn, held: object, in_play: set[int]) -> dict[int, str]:
    """The games a damaged journal row cost, and why: those one of whose actions did not read,
    and, when part of the row is lost, those whose count of actions in it (its ``games``
    column, ``held``) the part that was read falls short of. A row with no count that can be
    trusted (a file of schema 4 or older, or the count damaged too) may have held an action of
    any game in play at its turn (``in_play``): it costs each of them that did not read whole."""
    lost = dict(turn.damaged)
    if turn.lost is None:
        return lost
    read = Counter(entry[0] for entry in turn.entries)
    try:
        counts = _held_decoder.decode(held) if isinstance(held, str) else None
    except msgspec.DecodeError:
        counts = None
    if counts is not None and any(counts.get(game_id, 0) < n for game_id, n in read.items()):
        counts = None  # the count is damaged too: it does not even cover what was read
    if counts is None:
        holders = sorted(in_play - lost.keys())
        why = f"{turn.lost}, and it may have held an action of this game (it was being played)"
    else:
        holders = sorted(game_id for game_id, n in counts.items() if read[game_id] < n and game_id not in lost)
        why = f"{turn.lost}, where {', '.join(f'game {g}' for g in holders)} lost actions"
    return lost | dict.fromkeys(holders, why)


class StoreInUseError(OSError):
    """Another running server writes the file: two writers would give out the same ids."""


class NewerSchemaError(sqlite3.DatabaseError):
    """The file is the records of a newer setback, of a schema this one does not know: it is
    not a records file this one can use (the command line says so in one line)."""


class NotRecordsError(sqlite3.DatabaseError):
    """The file is no setback server's records (another program's, an empty one given to a
    reader, a schema that is no number): nothing is read from it, nor written into it."""


class DamagedRecordError(ValueError):
    """A game's record in the file cannot be read, or does not replay: which game, and why.

    Only that game is lost to whoever reads it: the others read as before."""

    def __init__(self, game_id: int, table_id: str, reason: str) -> None:
        super().__init__(f"game {game_id} at table {table_id} cannot be read: {reason}")
        self.game_id = game_id
        self.table_id = table_id
        self.reason = reason

    def left_out(self) -> None:
        """Say in the log (on stderr) that the game is left out of what was read."""
        log.warning("game_unreadable", game=self.game_id, table=self.table_id, reason=self.reason)


class Holder(msgspec.Struct, omit_defaults=True):
    """Who holds a records file, as its lock file says: the process, and once it listens,
    where (``local``: the server of a ``setback play --bots`` game, for its player alone)."""

    pid: int
    host: str | None = None
    port: int | None = None
    local: bool = False


def _read_holder(data: bytes) -> Holder | None:
    try:
        return msgspec.json.decode(data, type=Holder)
    except msgspec.DecodeError:  # an older server's empty lock file, or one being written
        return None


def in_use(holder: Holder | None) -> str:
    """Why a records file cannot be had, and what to do instead."""
    if holder is None:
        return "in use by another running setback server (give this one another --db)"
    if holder.local:
        return (f"in use by a `setback play` game on this computer (process {holder.pid}): "
                "finish that game, or give this one another --db")
    if holder.port is None:
        return (f"in use by a setback server starting on this computer (process {holder.pid}); "
                "give this one another --db")
    host = holder.host if holder.host not in {None, "", "0.0.0.0", "::"} else "127.0.0.1"
    where = f"[{host}]:{holder.port}" if ":" in str(host) else f"{host}:{holder.port}"
    return (f"in use by the setback server running on this computer (process {holder.pid}, port {holder.port}): "
            f"play there with `setback play {where}` (with --bots N for a game against bots), "
            "or give this one another --db")


def token_hash(token: str) -> str:
    """Seat tokens are kept only as their SHA-256."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class SeatRow:
    seat: int
    kind: Literal["empty", "human", "bot", "builtin"]
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
    actions: list[Recorded]


@dataclass(frozen=True)
class TableRow:
    id: str
    number: int
    name: str
    options: dict[str, Any]
    games_played: int
    seats: list[SeatRow]
    game: GameRow | None
    """The table's unfinished game, if it has one (and it could be read)."""
    game_id: int | None = None
    """The id of the table's unfinished game, if it has one."""
    damage: str | None = None
    """Why the table's records cannot be read (its options, seats or unfinished game), if they cannot."""


class _TableColumns(msgspec.Struct):
    """A ``tables`` row as the file holds it, checked: a damaged file may hold anything anywhere."""

    id: str
    number: int
    name: str
    options: str
    games_played: int


class _GameColumns(msgspec.Struct):
    """A ``games`` row as the file holds it, checked (its JSON columns still text)."""

    id: int
    table_id: str
    number: int
    seed: Annotated[int, msgspec.Meta(ge=0)]
    rules: str
    players: str
    rated: int
    started: float
    finished: float | None
    outcome: str | None
    first_move: int
    last_move: int | None
    actions: str | None


Columns = TypeVar("Columns")


def _checked(row: tuple[Any, ...], kind: type[Columns], names: tuple[str, ...]) -> Columns:
    """``row``, whose columns are ``names``, as a ``kind``: ValueError naming the column that is not as it should be."""
    return msgspec.convert(dict(zip(names, row, strict=True)), kind)


_SEAT_COLUMNS = ("seat", "kind", "name", "token_hash", "bot")
_TABLE_COLUMNS: tuple[str, ...] = _TableColumns.__struct_fields__
_GAME_COLUMNS: tuple[str, ...] = _GameColumns.__struct_fields__

_object_decoder = msgspec.json.Decoder(dict[str, Any])
"""Table options, a game's rules, a game's outcome."""
_players_decoder = msgspec.json.Decoder(list[str])
_sealed_decoder = msgspec.json.Decoder(list[tuple[int, str, int | bool]])
"""A finished game's actions in its row (files of schema 3 and older): seat, action, who chose it."""

Decoded = TypeVar("Decoded")


def _decoded(decoder: msgspec.json.Decoder[Decoded], text: str, what: str) -> Decoded:
    """A JSON column read with ``decoder``: ValueError naming the column ``what`` if it cannot be."""
    try:
        return decoder.decode(text)
    except msgspec.DecodeError as exc:
        raise ValueError(f"{what}: {exc}") from None


def _game_row(row: _GameColumns, journaled: list[Recorded]) -> GameRow:
    """The game a checked ``games`` row holds: ValueError naming the column that cannot be read."""
    if row.actions is None:
        actions = journaled
    else:  # a game a file of schema 3 or older finished: its actions in its row
        actions = [(seat, action, int(by)) for seat, action, by in _decoded(_sealed_decoder, row.actions, "actions")]
    outcome = None if row.outcome is None else _decoded(_object_decoder, row.outcome, "outcome")
    return GameRow(
        row.id, row.table_id, row.number, row.seed, _decoded(_object_decoder, row.rules, "rules"),
        _decoded(_players_decoder, row.players, "players"), bool(row.rated), row.started, row.finished,
        outcome, actions,
    )


class Store:
    """One SQLite file (``None``: in memory, for tests and throwaway servers)."""

    def __init__(self, path: str | Path | None, read_only: bool = False) -> None:
        """``read_only``: for a reader (``setback history``...), which writes nothing into the
        file, not even a schema: a file of an older schema is upgraded in memory only, and a
        file that is not a server's records (an empty one too) is refused."""
        if path is not None and str(path) != ":memory:" and not read_only:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self.path = str(path) if path is not None else ":memory:"
        if read_only:
            self.db = sqlite3.connect(
                f"{Path(self.path).resolve().as_uri()}?mode=ro", uri=True, isolation_level=None,
                check_same_thread=False,
            )
            version = self._schema()
            if version is None:
                raise NotRecordsError(f"{self.path} is empty: it holds no records")
            if version < SCHEMA_VERSION:  # upgraded in a copy, the file left as it is
                copy = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
                self.db.backup(copy)
                self.db.close()
                self.db = copy
                self._migrate(version)
        else:
            existed = self.path != ":memory:" and Path(self.path).exists()
            self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            version = self._schema()
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            if existed and version is None:
                log.warning("records_file_empty", path=self.path, taken_as="new records")  # lost records, maybe
            self._migrate(SCHEMA_VERSION if version is None else version)
            self.db.executescript(_SCHEMA)
            self.db.execute("INSERT OR IGNORE INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
        self._queue: Batch = []
        self.turn = TurnActions()
        """This turn's actions at every table (compiled: the tables add theirs with a native call)."""
        self._next_turn = int(self.db.execute(
            "SELECT MAX(COALESCE((SELECT MAX(turn) FROM journal), 0), "
            "COALESCE((SELECT MAX(first_move) FROM games), 0), COALESCE((SELECT MAX(last_move) FROM games), 0))"
        ).fetchone()[0]) + 1
        self._checkpointer: threading.Thread | None = None
        self._fold_rest = False
        """Set by the checkpoint thread when its round could not catch up: the writer folds what is left."""
        self._commits = 0
        self._writer = self.db.cursor()
        """The cursor each turn's commit runs on (a cursor made for each statement costs more than
        the statement's own Python)."""
        self._closing = threading.Event()
        self._claim: IO[bytes] | None = None
        self._ratings = {
            str(player): (float(rating), int(games), int(wins))
            for player, rating, games, wins in self.db.execute("SELECT player, rating, games, wins FROM ratings")
        }
        self._next_game = int(self.db.execute("SELECT COALESCE(MAX(id), 0) + 1 FROM games").fetchone()[0])

    def _schema(self) -> int | None:
        """The schema of the file's records (None: the file holds no tables at all, as a new
        one): :class:`NotRecordsError` if it holds what a setback server does not write, or a
        schema that is no schema number; :class:`NewerSchemaError` if its schema is newer."""
        names = [name for (name,) in self.db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
        )]
        if not names:
            return None
        row = None
        if "meta" in names:
            row = self.db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        if row is None:
            shown = ", ".join(names[:5]) + (", ..." if len(names) > 5 else "")
            raise NotRecordsError(
                f"{self.path} holds tables of another program ({shown}), not a setback server's records"
            )
        text = str(row[0]) if isinstance(row[0], str | int) else repr(row[0])
        if not (text.isascii() and text.isdecimal() and len(text) <= 4):
            raise NotRecordsError(f"{self.path} says its schema is {text[:20]!r}, which is no schema number")
        version = int(text)
        if version > SCHEMA_VERSION:
            raise NewerSchemaError(
                f"{self.path} has schema {version}, from a newer setback; this one reads up to schema "
                f"{SCHEMA_VERSION}: open it with a setback as new as the one that wrote it"
            )
        return version

    def _migrate(self, version: int) -> None:
        """Bring a file of the older schema ``version`` up to this one, a transaction a step."""
        if version == 1:  # actions keyed by game: sealed into games rows (finished) or the journal
            self._migrate_1_to_2()
        if version <= 2:
            self._migrate_2_to_3()
        if version <= 3:
            self._migrate_3_to_4()
        if version <= 4:
            self._migrate_4_to_5()

    def _migrate_1_to_2(self) -> None:
        with self.db:
            self.db.execute("BEGIN")
            self.db.execute("ALTER TABLE games ADD COLUMN first_move INTEGER NOT NULL DEFAULT 0")
            self.db.execute("ALTER TABLE games ADD COLUMN actions TEXT")
            self.db.execute(_MOVES_TABLE)
            self.db.execute(
                "UPDATE games SET actions = (SELECT json_group_array(json_array(seat, action, timed_out)) "
                "FROM (SELECT seat, action, timed_out FROM actions WHERE game_id = games.id ORDER BY seq)) "
                "WHERE finished IS NOT NULL"
            )
            self.db.execute(
                "INSERT INTO moves SELECT a.game_id, a.seq, a.seat, a.action, a.timed_out FROM actions a "
                "JOIN games g ON g.id = a.game_id WHERE g.finished IS NULL ORDER BY a.game_id, a.seq"
            )
            self.db.execute(
                "UPDATE games SET first_move = COALESCE((SELECT MIN(rowid) FROM moves WHERE game_id = games.id), "
                "(SELECT COALESCE(MAX(rowid), 0) + 1 FROM moves)) WHERE finished IS NULL"
            )
            self.db.execute("DROP TABLE actions")
            self.db.execute("UPDATE meta SET value = '2' WHERE key = 'schema'")

    def _migrate_2_to_3(self) -> None:
        """One action a row becomes one journal row for each unsealed game."""
        with self.db:
            self.db.execute("BEGIN")
            self.db.execute("CREATE TABLE journal (turn INTEGER PRIMARY KEY, actions TEXT NOT NULL)")
            unsealed = self.db.execute(
                "SELECT id, first_move FROM games WHERE finished IS NULL AND actions IS NULL ORDER BY id"
            ).fetchall()
            for turn, (game_id, first_move) in enumerate(unsealed, start=1):
                actions = self.db.execute(
                    "SELECT seat, action, timed_out FROM moves WHERE rowid >= ? AND game_id = ? ORDER BY rowid",
                    (first_move, game_id),
                ).fetchall()
                self.db.execute(
                "INSERT INTO journal VALUES (?, ?)", (turn, _json([(game_id, *action) for action in actions]))
            )
                self.db.execute("UPDATE games SET first_move = ? WHERE id = ?", (turn, game_id))
            self.db.execute("UPDATE games SET first_move = 0 WHERE finished IS NOT NULL OR actions IS NOT NULL")
            self.db.execute("DROP TABLE moves")
            self.db.execute("UPDATE meta SET value = '3' WHERE key = 'schema'")

    def _migrate_3_to_4(self) -> None:
        """Games finished from now on name their last journal turn instead of copying their actions."""
        with self.db:
            self.db.execute("BEGIN")
            self.db.execute("ALTER TABLE games ADD COLUMN last_move INTEGER")
            self.db.execute("UPDATE meta SET value = '4' WHERE key = 'schema'")

    def _migrate_4_to_5(self) -> None:
        """Journal rows say from now on how many actions each game took in them (older rows do not)."""
        with self.db:
            self.db.execute("BEGIN")
            self.db.execute("ALTER TABLE journal ADD COLUMN games TEXT")
            self.db.execute("UPDATE meta SET value = '5' WHERE key = 'schema'")

    @property
    def wake(self) -> Callable[[], None] | None:
        """Called when a write is queued while none was: the server's turn ends with a commit
        even when it has nothing to say to anyone (a table of bots nobody watches)."""
        return self.turn.wake

    @wake.setter
    def wake(self, wake: Callable[[], None] | None) -> None:
        self.turn.wake = wake

    def _write(self, sql: str, args: tuple[Any, ...]) -> None:
        wake = self.turn.wake
        if not self._queue and not self.turn.pieces and not self.turn.hands and wake is not None:
            wake()
        self._queue.append((sql, args))

    def take(self) -> Batch:
        """The writes queued so far, then this turn's hands and its actions as one journal row,
        to be committed by :meth:`write` (on any one thread)."""
        batch, self._queue = self._queue, []
        turn = self.turn
        if turn.hands:
            batch.extend([(_HAND, hand) for hand in turn.take_hands()])
        row = turn.take()
        if row is not None:
            batch.append((_JOURNAL, (self._next_turn, *row)))
            self._next_turn += 1
        return batch

    def write(self, batch: Batch) -> None:
        """Commit ``batch`` as one transaction, in order. A batch of one statement (a turn's
        journal row alone, most turns) is run as it stands: SQLite makes it a transaction of
        its own, which spares the turn a BEGIN and a COMMIT (some 5,700 instructions)."""
        if not batch:
            return
        writer = self._writer
        try:
            if len(batch) == 1:
                writer.execute(*batch[0])
            else:
                self._transaction(batch)
        except BaseException:
            if self.db.in_transaction:  # nothing of it is kept (a COMMIT that failed included)
                self.db.rollback()
            raise
        self._commits += 1
        if self._fold_rest or (self._commits % WAL_CHECK_COMMITS == 0 and self._wal_over_limit()):
            # the checkpoint thread could not catch up, or the WAL is past its limit: fold it here
            self._fold_rest = False
            with contextlib.suppress(sqlite3.Error):  # busy: the next round tries again
                self.db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()

    def _transaction(self, batch: Batch) -> None:
        """Run ``batch`` between a BEGIN and a COMMIT, each run of one statement at once."""
        writer = self._writer  # (``with self.db`` prepares its COMMIT anew each time; the cursor's is kept)
        writer.execute("BEGIN")
        start, end = 0, len(batch)
        while start < end:  # (``groupby``'s objects cost more)
            sql, args = batch[start]
            stop = start + 1
            while stop < end and batch[stop][0] == sql:
                stop += 1
            if stop == start + 1:
                writer.execute(sql, args)
            else:
                writer.executemany(sql, [args for _, args in batch[start:stop]])
            start = stop
        writer.execute("COMMIT")

    def _wal_over_limit(self) -> bool:
        """Whether the WAL's file is past :data:`WAL_LIMIT_BYTES` (never, before checkpoints start)."""
        if self._checkpointer is None:
            return False
        try:
            return os.stat(f"{self.path}-wal").st_size > WAL_LIMIT_BYTES
        except OSError:
            return False

    def commit(self) -> None:
        """Commit every queued write now, on this thread (start-up, shut-down, tools, tests)."""
        self.write(self.take())

    def claim(self) -> None:
        """Be the file's one writer, as long as this store is open: :class:`StoreInUseError`
        when another server holds it. (A lock on ``PATH.lock``, which the system lets go of
        when the process ends, however it ends; readers such as ``setback history`` take none.
        The lock file says who holds it: see :meth:`name_holder`.)"""
        if self.path == ":memory:" or self._claim is not None or fcntl is None:
            return
        claim = open(f"{self.path}.lock", "a+b")  # noqa: SIM115 (held open until close; not emptied before it is ours)
        try:
            fcntl.flock(claim, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            claim.seek(0)
            holder = _read_holder(claim.read(1000))
            claim.close()
            raise StoreInUseError(errno.EBUSY, in_use(holder), self.path) from None
        self._claim = claim
        self.name_holder(Holder(pid=os.getpid()))

    def name_holder(self, holder: Holder) -> None:
        """Write into the lock file who holds the records file, for a server refused it to say."""
        if self._claim is None:
            return
        self._claim.seek(0)
        self._claim.truncate()
        self._claim.write(msgspec.json.encode(holder))
        self._claim.flush()

    def start_checkpoints(self, wal_sync: float = 0.0) -> None:
        """Fold the WAL into the file from a thread of its own, every :data:`CHECKPOINT_SECONDS`;
        with ``wal_sync`` (seconds, more than 0), the same thread also writes the WAL's new
        commits to the disk that often between two rounds (an ``fdatasync`` of the WAL, when
        anything was committed since the last), so that a power cut loses less.

        SQLite would otherwise checkpoint inside a commit every thousand pages, stalling
        the event loop for milliseconds (and every table with it); a passive checkpoint on
        another connection runs beside the writer without blocking it. No commit waits for
        the syncs between rounds, but each stalls the tables a little on a busy machine: at
        50 tables of bots, syncs every tenth of a second cost up to 0.4x the echo's p99 and
        5% of the decisions a second in three of four comparisons (setback/benchmarks/README.md,
        "Scale"), so by default only the rounds sync.
        """
        if self.path == ":memory:" or self._checkpointer is not None:
            return
        self.db.execute("PRAGMA wal_autocheckpoint=0")
        self.db.execute(f"PRAGMA journal_size_limit={WAL_LIMIT_BYTES}")  # the WAL cut back when it starts over
        self._checkpointer = threading.Thread(
            target=self._checkpoint_loop, args=(wal_sync,), name="setback-checkpoint", daemon=True
        )
        self._checkpointer.start()

    def _checkpoint_loop(self, wal_sync: float) -> None:
        """Rounds every :data:`CHECKPOINT_SECONDS`, and with ``wal_sync`` more than 0 the WAL's
        syncs that often between them (:meth:`start_checkpoints`)."""
        other = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        try:
            round_at = time.monotonic() + CHECKPOINT_SECONDS
            synced = -1  # with syncs between rounds: what the WAL holds when the thread starts, at its first tick
            every = wal_sync if wal_sync > 0 else CHECKPOINT_SECONDS
            while not self._closing.wait(max(0.0, min(every, round_at - time.monotonic()))):
                if time.monotonic() < round_at:
                    if wal_sync > 0 and self._commits != synced:  # something new in the WAL: on to the disk
                        synced = self._commits
                        self._sync_wal()
                    continue
                self._checkpoint_round(other)
                round_at = time.monotonic() + CHECKPOINT_SECONDS
        finally:
            other.close()

    def _checkpoint_round(self, other: sqlite3.Connection) -> None:
        """Fold the WAL into the file through ``other``, pass after pass, each folding what was
        committed during the one before, until a pass finds nothing new (the next commit then
        starts the WAL over) or :data:`CHECKPOINT_PASSES` are made (the writer folds the rest).

        A commit that began before the last pass, while the WAL was not all folded, appends to
        it instead of starting it over, and so does every commit after it: so a moment after a
        round that caught up, the thread looks again, and if the WAL went on growing, the writer
        folds the few pages left (else the WAL would grow until :data:`WAL_LIMIT_BYTES`, and the
        writer then fold a round's worth at once: a stall of the loop some 13 ms long, README,
        "Scale")."""
        try:
            seen = -1
            for _ in range(CHECKPOINT_PASSES):
                logged = other.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()[1]
                if logged == seen:
                    break  # all folded, nothing committed meanwhile: the next commit starts the WAL over
                seen = logged
            else:
                self._fold_rest = True  # commits kept coming: the writer folds the rest itself
                return
            if self._closing.wait(RESTART_CHECK_SECONDS):
                return
            if other.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()[1] > seen:
                self._fold_rest = True  # it grew on without starting over: the writer folds what is left
        except sqlite3.Error:
            return  # busy or briefly unwritable: the next round tries again, commits go on

    def _sync_wal(self) -> None:
        """Write what the WAL holds to the disk (between rounds, when asked to). Where the system does
        not let a reader sync the file, the rounds' own syncs do it, as before. (SQLite takes no
        POSIX lock on the WAL, only on the ``-shm`` file and the database, so closing this
        descriptor lets go of none of its locks.)"""
        try:
            wal = os.open(f"{self.path}-wal", os.O_RDONLY)
        except OSError:
            return  # not made yet, or gone: nothing to write
        try:
            with contextlib.suppress(OSError):
                getattr(os, "fdatasync", os.fsync)(wal)
        finally:
            os.close(wal)

    def close(self) -> None:
        self.commit()
        self._closing.set()
        if self._checkpointer is not None:
            self._checkpointer.join()
            self._checkpointer = None
            self.db.execute("PRAGMA wal_checkpoint(PASSIVE)")
        self._writer.close()  # (a statement left open keeps the WAL when the file is closed)
        self.db.close()
        if self._claim is not None:
            self._claim.close()
            self._claim = None

    # -- writes ---------------------------------------------------------------------------

    def save_table(self, table_id: str, number: int, name: str, options: dict[str, Any]) -> None:
        self._write(
            "INSERT OR REPLACE INTO tables (id, number, name, options, created) VALUES (?, ?, ?, ?, ?)",
            (table_id, number, name, _json(options), time.time()),
        )

    def save_seat(self, table_id: str, row: SeatRow) -> None:
        self._write(
            "INSERT OR REPLACE INTO seats VALUES (?, ?, ?, ?, ?, ?)",
            (table_id, row.seat, row.kind, row.name, row.token_hash, row.bot),
        )

    def close_table(self, table_id: str, game_id: int | None) -> None:
        """The table is gone; ``game_id``: its last game, which ends here if it had not
        (kept, unfinished, as it stood)."""
        self._write("UPDATE tables SET closed = ? WHERE id = ?", (time.time(), table_id))
        self._write("DELETE FROM seats WHERE table_id = ?", (table_id,))
        if game_id is not None:
            self._write(f"UPDATE games SET last_move = ? WHERE id = ? AND {_IN_PLAY}", (self._next_turn, game_id))

    def start_game(
        self, table_id: str, number: int, seed: int, rules: dict[str, Any], players: list[str], rated: bool
    ) -> int:
        game_id = self._next_game
        self._next_game += 1
        self._write(
            "INSERT INTO games (id, table_id, number, seed, rules, players, rated, started, first_move) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (game_id, table_id, number, seed, _json(rules), _json(players), int(rated), time.time(),
             self._next_turn),
        )
        self._write("UPDATE tables SET games_played = ? WHERE id = ?", (number, table_id))
        return game_id

    def add_action(self, game_id: int, seat: int, action: str, by: int) -> None:
        """The game's next action (``by``: who chose it), journaled with the turn's others when
        the turn is taken (the server's tables add theirs through :meth:`TurnActions.game`)."""
        self.turn.add(game_id, seat, action, by)

    def add_hand(self, game_id: int, number: int, result: object) -> None:
        """A hand's result: anything msgspec encodes to JSON (the wire's hand result)."""
        self.turn.add_hand(game_id, number, _json(result))

    def finish_game(self, game_id: int, table_id: str, games_played: int, outcome: dict[str, Any]) -> None:
        """The game is over: its outcome, and its last journal turn (this one, where its last action goes)."""
        self._write(
            "UPDATE games SET finished = ?, outcome = ?, last_move = ? WHERE id = ?",
            (time.time(), _json(outcome), self._next_turn, game_id),
        )
        self._write("UPDATE tables SET games_played = ? WHERE id = ?", (games_played, table_id))

    def add_chat(self, table_id: str | None, scope: str, sender: str, text: str) -> None:
        self._write(
            "INSERT INTO chat (table_id, scope, sender, text, at) VALUES (?, ?, ?, ?, ?)",
            (table_id, scope, sender, text, time.time()),
        )

    def table_chat(self, table_id: str, limit: int) -> list[tuple[str, str]]:
        """The latest ``limit`` lines said at the table, oldest first, each as (sender, text):
        what a snapshot recalls, after a restart as before it. A line a damaged file holds as
        anything but text is left out."""
        self.commit()
        rows = self.db.execute(
            "SELECT sender, text FROM chat WHERE table_id = ? AND scope = 'table' ORDER BY id DESC LIMIT ?",
            (table_id, limit),
        ).fetchall()
        return [(sender, text) for sender, text in reversed(rows) if isinstance(sender, str) and isinstance(text, str)]

    def save_rating(self, player: str, rating: float, games: int, wins: int) -> None:
        self._ratings[player] = (rating, games, wins)
        self._write("INSERT OR REPLACE INTO ratings VALUES (?, ?, ?, ?)", (player, rating, games, wins))

    # -- reads ------------------------------------------------------------------------------

    def open_tables(self) -> list[TableRow]:
        """Every table not closed, with its seats and its unfinished game. A table whose records
        cannot be read is among them all the same, saying why (:attr:`TableRow.damage`).

        The unfinished games are read together, in one pass over the journal turns they span:
        a thousand tables in play, read one by one, would each read the journal from its game's
        first turn to the end (a restart of minutes, not a fraction of a second)."""
        self.commit()
        tables = self.db.execute(
            f"SELECT {', '.join(_TABLE_COLUMNS)} FROM tables WHERE closed IS NULL ORDER BY number"
        ).fetchall()
        in_play = self._unfinished_games()
        unfinished = [in_play.get(row[0]) if row[0] is not None else None for row in tables]
        games, damaged = self._with_actions([
            found for game_id in unfinished if game_id is not None
            for found in self.db.execute(f"SELECT {', '.join(_GAME_COLUMNS)} FROM games WHERE id = ?", (game_id,))
        ])
        read = {game.id: game for game in games}
        unreadable = {damage.game_id: damage.reason for damage in reversed(damaged)}  # the first said of each
        return [
            self._open_table(row, game_id, read, unreadable) for row, game_id in zip(tables, unfinished, strict=True)
        ]

    def _unfinished_games(self) -> dict[object, int]:
        """Each table's unfinished game (the newest, should a damaged file hold more than one),
        by the table's id as the games' rows hold it: one pass over the games, where a query a
        table would pass over all of them for each table that has none."""
        return {
            table_id: int(game_id) for table_id, game_id in self.db.execute(
                f"SELECT table_id, MAX(id) FROM games WHERE {_IN_PLAY} GROUP BY table_id"
            )
        }

    def _open_table(
        self, row: tuple[Any, ...], game_id: int | None, read: dict[int, GameRow], unreadable: dict[int, str]
    ) -> TableRow:
        """The table ``row`` holds, with its unfinished game ``game_id`` (read, or why it cannot be)."""
        table_id = str(row[0])
        try:
            table = _checked(row, _TableColumns, _TABLE_COLUMNS)
            options = _decoded(_object_decoder, table.options, "options")
            seats = [
                _checked(seat, SeatRow, _SEAT_COLUMNS)
                for seat in self.db.execute(
                    f"SELECT {', '.join(_SEAT_COLUMNS)} FROM seats WHERE table_id = ? ORDER BY seat", (row[0],)
                )
            ]
        except ValueError as exc:
            return TableRow(table_id, 0, table_id, {}, 0, [], None, game_id, str(exc))
        opened = TableRow(table.id, table.number, table.name, options, table.games_played, seats, None, game_id)
        if game_id is not None and game_id in unreadable:
            return replace(opened, damage=unreadable[game_id])
        return replace(opened, game=read.get(game_id) if game_id is not None else None)

    def last_table_number(self) -> int:
        """The highest number a table was given, as its number or in its id (``t3``): a table
        whose number is damaged still keeps its id from being given again."""
        self.commit()
        row = self.db.execute(
            "SELECT MAX(n) FROM (SELECT number AS n FROM tables WHERE typeof(number) = 'integer' "
            "UNION ALL SELECT CAST(substr(id, 2) AS INTEGER) FROM tables WHERE id GLOB 't[0-9]*')"
        ).fetchone()
        return int(row[0] or 0)

    def game(self, game_id: int) -> GameRow | None:
        """The game ``game_id``, or None if there is none: :class:`DamagedRecordError` if its record cannot be read."""
        return self._one(self._games("WHERE id = ?", (game_id,)))

    def finished_game_at(self, table_id: str) -> GameRow | None:
        """The first finished game of a table."""
        return self._one(self._games("WHERE table_id = ? AND finished IS NOT NULL ORDER BY id LIMIT 1", (table_id,)))

    @staticmethod
    def _one(found: tuple[list[GameRow], list[DamagedRecordError]]) -> GameRow | None:
        games, damaged = found
        if damaged:
            raise damaged[0]
        return games[0] if games else None

    def finished_games(self, limit: int | None = None) -> list[GameRow]:
        """The newest finished games first (every one, or the ``limit`` newest). A game whose
        record cannot be read is left out, and said to be in the log (``game_unreadable``)."""
        where = "WHERE finished IS NOT NULL ORDER BY id DESC"
        games, damaged = self._games(where + (" LIMIT ?" if limit else ""), (int(limit),) if limit else ())
        for damage in damaged:
            damage.left_out()
        return games

    def _games(self, where: str, args: tuple[Any, ...]) -> tuple[list[GameRow], list[DamagedRecordError]]:
        """The games a ``WHERE ...`` clause picks, in its order, each with its actions; and those
        of them whose record cannot be read, each saying why."""
        return self._with_actions(
            self.db.execute(f"SELECT {', '.join(_GAME_COLUMNS)} FROM games {where}", args).fetchall()
        )

    def _with_actions(self, rows: list[tuple[Any, ...]]) -> tuple[list[GameRow], list[DamagedRecordError]]:
        """The games ``rows`` of the games table hold, in their order, each with its actions
        (the journal turns they span read once for all); and those whose record cannot be read."""
        games: list[GameRow] = []
        damaged: list[DamagedRecordError] = []
        checked: list[_GameColumns] = []
        for columns in rows:
            try:
                checked.append(_checked(columns, _GameColumns, _GAME_COLUMNS))
            except ValueError as exc:
                damaged.append(DamagedRecordError(int(columns[0]), str(columns[1]), str(exc)))
        journaled, unreadable = self._journal_actions(
            {row.id: (row.first_move, row.last_move) for row in checked if row.actions is None}
        )
        for row in checked:
            reason = unreadable.get(row.id)
            if reason is None:
                try:
                    games.append(_game_row(row, journaled.get(row.id, [])))
                    continue
                except ValueError as exc:
                    reason = str(exc)
            damaged.append(DamagedRecordError(row.id, row.table_id, reason))
        return games, damaged

    def _journal_actions(
        self, spans: dict[int, tuple[int, int | None]]
    ) -> tuple[dict[int, list[Recorded]], dict[int, str]]:
        """Each game's actions, read from the journal turns it spans (first, last; last None
        while it is played), and why for each game whose actions a turn lost. A damaged turn
        is read as far as it goes, action by action: what it lost is lost to the games that
        took those actions, by its count of each game's (:func:`_lost_by`). Overlapping
        spans are read once: a file's every game, as an export asks for, is one pass over the
        journal."""
        found: dict[int, list[Recorded]] = {game_id: [] for game_id in spans}
        unreadable: dict[int, str] = {}
        merged: list[tuple[int, int]] = []
        for first, last in sorted((first, sys.maxsize if last is None else last) for first, last in spans.values()):
            if merged and first <= merged[-1][1] + 1:
                merged[-1] = (merged[-1][0], max(merged[-1][1], last))
            else:
                merged.append((first, last))
        for first, last in merged:
            for number, text, held in self.db.execute(
                "SELECT turn, actions, games FROM journal WHERE turn >= ? AND turn <= ? ORDER BY turn", (first, last)
            ):
                turn = _read_turn(text)
                for owner, seat, action, by in turn.entries:
                    if owner in found:
                        found[owner].append((seat, action, int(by)))
                if turn.damaged or turn.lost is not None:
                    in_play = {
                        game_id for game_id, (start, end) in spans.items()
                        if start <= number and (end is None or number <= end)
                    }
                    for game_id, why in _lost_by(turn, held, in_play).items():
                        if game_id in found:
                            unreadable.setdefault(game_id, f"journal turn {number}: {why}")
        return found, unreadable

    def ratings(self) -> list[tuple[str, float, int, int]]:
        return list(self.db.execute("SELECT player, rating, games, wins FROM ratings ORDER BY rating DESC, player"))

    def rating_of(self, player: str) -> tuple[float, int, int] | None:
        """A player's (rating, games, wins), from memory."""
        return self._ratings.get(player)
