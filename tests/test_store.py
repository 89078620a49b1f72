"""The SQLite store: the move journal, games read back from it, and opening an older file."""

from __future__ import annotations

import asyncio
import json
import os
import random
import sqlite3
import threading
import time
from pathlib import Path

import pytest
import structlog

import setback.server.store as store_module
from setback.server.app import Server
from setback.server.config import ServerConfig
from setback.server.store import CHECKPOINT_SECONDS, SCHEMA_VERSION, DamagedRecordError, Store

RULES = {"players": 2}
Moves = list[tuple[int, str, int]]


def _play(store: Store, games: dict[int, Moves], rng: random.Random, rounds: int) -> None:
    """Interleave moves of every game in ``games`` for ``rounds`` turns, committing each turn."""
    for _ in range(rounds):
        for game_id, moves in games.items():
            if rng.random() < 0.7:
                move = (len(moves) % 2, f"play {rng.randrange(52)}", rng.randrange(3))  # by player, clock, stand-in
                store.add_action(game_id, *move)
                moves.append(move)
        store.commit()


def _journal(db: Path) -> int:
    with sqlite3.connect(db) as raw:
        return int(raw.execute("SELECT COALESCE(SUM(json_array_length(actions)), 0) FROM journal").fetchone()[0])


def test_interleaved_games_read_back_in_order_before_and_after_they_finish(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite3"
    store = Store(db)
    rng = random.Random(5)
    games: dict[int, Moves] = {store.start_game(f"t{i}", 0, i, RULES, ["a", "b"], False): [] for i in range(5)}
    _play(store, games, rng, 40)
    for game_id, moves in games.items():
        row = store.game(game_id)
        assert row is not None and row.actions == moves
    finished = next(iter(games))
    store.finish_game(finished, "t0", 1, {"winner": 0})
    store.commit()
    store.close()
    reopened = Store(db)
    for game_id, moves in games.items():
        row = reopened.game(game_id)
        assert row is not None and row.actions == moves
        assert (row.finished is not None) == (game_id == finished)


def test_a_hands_result_is_written_with_its_turn_by_the_store_and_by_a_games_journal(tmp_path: Path) -> None:
    """The play keeps a hand's row with the turn's actions (``GameActions.add_hand``, the JSON as the
    views made it); a tool calls ``Store.add_hand``: the same row, committed with the turn."""
    db = tmp_path / "s.sqlite3"
    store = Store(db)
    game_id = store.start_game("t0", 0, 1, RULES, ["a", "b"], False)
    store.commit()
    journal = store.turn.game(game_id)
    journal.add_code(0, 52, 0)
    journal.add_hand(1, b'{"hand_number":1,"points":[1,0]}')
    store.add_hand(game_id, 2, {"hand_number": 2, "points": [0, 1]})
    with sqlite3.connect(db) as raw:
        assert raw.execute("SELECT COUNT(*) FROM hands").fetchone()[0] == 0  # not before the commit
    store.commit()
    store.close()
    with sqlite3.connect(db) as raw:
        rows = raw.execute("SELECT game_id, number, result FROM hands ORDER BY number").fetchall()
    assert rows == [
        (game_id, 1, '{"hand_number":1,"points":[1,0]}'), (game_id, 2, '{"hand_number":2,"points":[0,1]}'),
    ]


def test_a_commit_that_fails_keeps_none_of_its_writes_and_the_next_commits(tmp_path: Path) -> None:
    """A turn's writes are one transaction: when one of them fails, none is kept (the turn's
    journal row neither), and the store commits the next turn's as before."""
    db = tmp_path / "s.sqlite3"
    store = Store(db)
    kept = store.start_game("t0", 0, 1, RULES, ["a", "b"], False)
    store.commit()
    with sqlite3.connect(db) as raw:
        raw.execute("ALTER TABLE hands RENAME TO hands_gone")
    lost = store.start_game("t1", 0, 2, RULES, ["a", "b"], False)
    store.add_action(kept, 0, "pass", 0)
    store.add_hand(kept, 1, {"hand_number": 1})
    with pytest.raises(sqlite3.OperationalError):
        store.commit()
    with sqlite3.connect(db) as raw:
        assert raw.execute("SELECT id FROM games").fetchall() == [(kept,)]
        assert raw.execute("SELECT COUNT(*) FROM journal").fetchone()[0] == 0
    store.add_action(kept, 1, "bid 2", 0)
    store.commit()
    row = store.game(kept)
    assert row is not None and row.actions == [(1, "bid 2", 0)]
    assert store.game(lost) is None
    store.close()


def test_a_turn_of_one_write_commits_it_alone_and_a_failure_keeps_nothing(tmp_path: Path) -> None:
    """Most turns write only their journal row: that one statement is its own transaction
    (no BEGIN and COMMIT around it), committed for every other reader of the file at once;
    when it fails, nothing of it is kept and no transaction is left open."""
    db = tmp_path / "s.sqlite3"
    store = Store(db)
    game_id = store.start_game("t0", 0, 1, RULES, ["a", "b"], False)
    store.commit()
    store.add_action(game_id, 0, "pass", 0)
    batch = store.take()
    assert len(batch) == 1  # the turn's journal row alone
    store.write(batch)
    assert not store.db.in_transaction
    with sqlite3.connect(db) as raw:
        assert raw.execute("SELECT COUNT(*) FROM journal").fetchone()[0] == 1
        raw.execute("ALTER TABLE journal RENAME TO journal_gone")
    store.add_action(game_id, 1, "bid 2", 0)
    with pytest.raises(sqlite3.OperationalError):
        store.commit()
    assert not store.db.in_transaction
    with sqlite3.connect(db) as raw:
        raw.execute("ALTER TABLE journal_gone RENAME TO journal")
    store.add_action(game_id, 1, "bid 2", 0)
    store.commit()
    with sqlite3.connect(db) as raw:
        assert raw.execute("SELECT COUNT(*) FROM journal").fetchone()[0] == 2
    store.close()


def test_a_games_end_copies_and_deletes_nothing_and_every_game_reads_back(tmp_path: Path) -> None:
    """Games end at staggered turns while others go on and new ones start: the journal keeps
    every action once, and each game, one at a time or all in one pass, reads back its own."""
    db = tmp_path / "s.sqlite3"
    store = Store(db)
    rng = random.Random(9)
    everything: dict[int, Moves] = {}
    playing: dict[int, Moves] = {}
    for number in range(40):
        if len(playing) < 4 or rng.random() < 0.3:
            game_id = store.start_game(f"t{number % 4}", number, number, RULES, ["a", "b"], False)
            playing[game_id] = everything[game_id] = []
        _play(store, playing, rng, rng.randrange(1, 12))
        if rng.random() < 0.5:
            done = rng.choice(list(playing))
            store.finish_game(done, "t", number, {"winner": 0})
            del playing[done]
        store.commit()
    assert _journal(db) == sum(len(m) for m in everything.values()), "every action is journaled once"
    with sqlite3.connect(db) as raw:
        assert raw.execute("SELECT COUNT(*) FROM games WHERE actions IS NOT NULL").fetchone()[0] == 0
    finished = {g.id: g.actions for g in store.finished_games()}
    assert finished == {g: m for g, m in everything.items() if g not in playing}
    assert [g.id for g in store.finished_games(limit=3)] == sorted(finished, reverse=True)[:3]
    for game_id, moves in everything.items():
        row = store.game(game_id)
        assert row is not None and row.actions == moves and (row.finished is None) == (game_id in playing)


def test_a_closed_tables_unfinished_game_keeps_its_actions(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite3"
    store = Store(db)
    game_id = store.start_game("t1", 0, 3, RULES, ["a", "b"], False)
    moves: Moves = []
    _play(store, {game_id: moves}, random.Random(2), 20)
    store.close_table("t1", game_id)
    later = store.start_game("t2", 0, 4, RULES, ["a", "b"], False)
    _play(store, {later: []}, random.Random(3), 20)
    store.close()
    reopened = Store(db)
    row = reopened.game(game_id)
    assert row is not None and row.actions == moves and row.finished is None
    assert [t.game for t in reopened.open_tables()] == [], "a closed table's game is not taken back"


def test_a_restart_continues_the_journal_past_every_game_it_holds(tmp_path: Path) -> None:
    """A started game with no moves yet must not see a reopened store reuse its journal rows."""
    db = tmp_path / "s.sqlite3"
    store = Store(db)
    first = store.start_game("t1", 0, 1, RULES, ["a", "b"], False)
    store.commit()
    store.close()
    store = Store(db)
    assert [t.game.id for t in store.open_tables() if t.game] == []  # no tables row: nothing to restore
    moves: Moves = []
    _play(store, {first: moves}, random.Random(4), 10)
    store.close()
    row = Store(db).game(first)
    assert row is not None and row.actions == moves


def _three_finished_games(db: Path) -> list[int]:
    """Games played one after the other, each at a journal turn of its own."""
    store = Store(db)
    games = []
    for number in range(3):
        games.append(store.start_game("t1", number, number, RULES, ["a", "b"], False))
        store.add_action(games[-1], 0, "pass", 0)
        store.finish_game(games[-1], "t1", number + 1, {"winner": 0})  # in the turn of its last action
        store.commit()
    store.close()
    return games


def test_a_game_whose_record_cannot_be_read_is_left_out_of_the_finished_games_and_named(tmp_path: Path) -> None:
    """One damaged row costs its own game only: the others read, and the log names the one left out."""
    db = tmp_path / "s.sqlite3"
    first, damaged, last = _three_finished_games(db)
    with sqlite3.connect(db) as raw:
        raw.execute("UPDATE games SET outcome = '{\"winner\": ' WHERE id = ?", (damaged,))
    with structlog.testing.capture_logs() as logs:
        games = Store(db).finished_games()
    assert [g.id for g in games] == [last, first]
    assert [(e["event"], e["game"], e["table"]) for e in logs] == [("game_unreadable", damaged, "t1")]
    assert "outcome" in logs[0]["reason"]


def test_a_journal_turn_that_cannot_be_read_is_the_loss_of_the_games_it_may_hold(tmp_path: Path) -> None:
    """Whose actions a turn cut short held cannot be known: each game whose turns include it
    cannot be read, and the games before and after it read as before."""
    db = tmp_path / "s.sqlite3"
    first, damaged, last = _three_finished_games(db)
    with sqlite3.connect(db) as raw:
        turn = raw.execute("SELECT first_move FROM games WHERE id = ?", (damaged,)).fetchone()[0]
        raw.execute("UPDATE journal SET actions = substr(actions, 1, 5) WHERE turn = ?", (turn,))
    with structlog.testing.capture_logs() as logs:
        games = Store(db).finished_games()
    assert [g.id for g in games] == [last, first]
    assert [e["game"] for e in logs] == [damaged] and f"journal turn {turn}" in logs[0]["reason"]


def _eight_tables_in_play(db: Path) -> tuple[list[int], int]:
    """Eight tables each playing a game, their actions interleaved over many turns, then one
    turn holding one action of one game alone: the games, and that turn."""
    store = Store(db)
    games = []
    for number in range(8):
        store.save_table(f"t{number}", number, "a table", {"rules": RULES})
        games.append(store.start_game(f"t{number}", 1, number, RULES, ["a", "b"], False))
    _play(store, {game_id: [] for game_id in games}, random.Random(3), 20)
    store.add_action(games[5], 0, "pass", 0)
    store.close()
    with sqlite3.connect(db) as raw:
        turn = int(raw.execute("SELECT MAX(turn) FROM journal").fetchone()[0])
    _play(Store(db), {game_id: [] for game_id in games}, random.Random(4), 5)
    return games, turn


def test_a_cut_short_turn_of_one_tables_action_breaks_that_table_alone(tmp_path: Path) -> None:
    """The turn cut short held one game's action: that game's table comes back broken, the
    seven others whose games were in play at that turn come back whole."""
    db = tmp_path / "s.sqlite3"
    games, turn = _eight_tables_in_play(db)
    with sqlite3.connect(db) as raw:
        raw.execute("UPDATE journal SET actions = substr(actions, 1, 10) WHERE turn = ?", (turn,))
    tables = Store(db).open_tables()
    assert [(t.id, t.game_id) for t in tables if t.damage] == [("t5", games[5])]
    assert "journal turn" in str(tables[5].damage)
    assert all(t.game is not None for t in tables if t.id != "t5")


def test_a_cut_short_turn_of_many_games_costs_only_the_games_whose_actions_it_lost(tmp_path: Path) -> None:
    """Eight games finish; one turn held actions of six of them and is cut in half: the games
    whose every action in it lies before the cut read whole, the others are left out, named."""
    db = tmp_path / "s.sqlite3"
    store = Store(db)
    games = [store.start_game(f"t{n}", 1, n, RULES, ["a", "b"], False) for n in range(8)]
    _play(store, {game_id: [] for game_id in games}, random.Random(6), 10)
    for game_id in games[:6]:  # the turn to damage: two actions each of six games
        store.add_action(game_id, 0, "bid 2", 0)
        store.add_action(game_id, 1, "pass", 0)
    for number, game_id in enumerate(games):
        store.finish_game(game_id, f"t{number}", 1, {"winner": 0})
    store.close()
    with sqlite3.connect(db) as raw:
        turn, text = raw.execute("SELECT turn, actions FROM journal ORDER BY turn DESC LIMIT 1").fetchone()
        raw.execute("UPDATE journal SET actions = ? WHERE turn = ?", (text[: len(text) // 2], turn))
    entries = json.loads(text)
    kept = text[: len(text) // 2]
    kept_entries = json.loads(kept[: kept.rindex("]") + 1] + "]")
    lost = {game_id for game_id in games if [e for e in entries if e[0] == game_id] != [
        e for e in kept_entries if e[0] == game_id]}
    with structlog.testing.capture_logs() as logs:
        read = {g.id for g in Store(db).finished_games()}
    assert read == set(games) - lost and 0 < len(lost) < 6
    assert sorted(e["game"] for e in logs) == sorted(lost)
    assert all(f"journal turn {turn}" in e["reason"] for e in logs)


def test_a_turn_without_its_count_of_actions_is_the_loss_of_every_game_then_in_play(tmp_path: Path) -> None:
    """A row of an older file (no ``games`` count) cut short may have held an action of any
    game in play at its turn: each of them that it did not hold whole is lost."""
    db = tmp_path / "s.sqlite3"
    games, turn = _eight_tables_in_play(db)
    with sqlite3.connect(db) as raw:
        raw.execute("UPDATE journal SET actions = substr(actions, 1, 10), games = NULL WHERE turn = ?", (turn,))
    assert [t.game_id for t in Store(db).open_tables() if t.damage] == games


def test_a_table_whose_number_is_damaged_still_keeps_its_id_from_being_given_again(tmp_path: Path) -> None:
    """New tables are numbered past every table's number and every id's: a damaged number
    must not let a new table take the id, and the records, of the one it belonged to."""
    db = tmp_path / "s.sqlite3"
    store = Store(db)
    for number in (1, 2):
        store.save_table(f"t{number}", number, "a table", {})
    store.close()
    with sqlite3.connect(db) as raw:
        raw.execute("UPDATE tables SET number = 'two' WHERE id = 't2'")
    assert Store(db).last_table_number() == 2


@pytest.mark.parametrize(
    ("column", "value"),
    [("seed", "'seven'"), ("seed", "-1"), ("players", "'[\"a\", 2]'"), ("rules", "'[]'"), ("started", "'noon'")],
)
def test_asking_for_a_game_whose_record_cannot_be_read_names_it_and_why(
    tmp_path: Path, column: str, value: str
) -> None:
    """A column that does not hold what it must is a DamagedRecordError (a ValueError) naming the
    game, its table and the column, not whatever the code reading it would trip on later."""
    db = tmp_path / "s.sqlite3"
    _, damaged, _ = _three_finished_games(db)
    with sqlite3.connect(db) as raw:
        raw.execute(f"UPDATE games SET {column} = {value} WHERE id = ?", (damaged,))
    with pytest.raises(DamagedRecordError, match=f"game {damaged} at table t1 cannot be read: .*{column}"):
        Store(db).game(damaged)


_OLD_TABLES = """
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE tables (
        id TEXT PRIMARY KEY, number INTEGER NOT NULL, name TEXT NOT NULL, options TEXT NOT NULL,
        games_played INTEGER NOT NULL DEFAULT 0, created REAL NOT NULL, closed REAL
    );
    CREATE TABLE games (
        id INTEGER PRIMARY KEY AUTOINCREMENT, table_id TEXT NOT NULL, number INTEGER NOT NULL,
        seed INTEGER NOT NULL, rules TEXT NOT NULL, players TEXT NOT NULL, rated INTEGER NOT NULL,"""
"""Schemas 1 and 2 alike, up to the rest of the games table (which each test writes)."""


_GAMES_2_AND_3 = _OLD_TABLES + """
        started REAL NOT NULL, finished REAL, outcome TEXT,
        first_move INTEGER NOT NULL DEFAULT 0, actions TEXT
    );"""
"""Schemas 2 and 3 alike, up to their other tables (which each test writes)."""


def test_a_schema_1_file_is_migrated_and_loses_nothing(tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite3"
    with sqlite3.connect(db) as raw:
        raw.executescript(
            _OLD_TABLES + """
                started REAL NOT NULL, finished REAL, outcome TEXT
            );
            INSERT INTO meta VALUES ('schema', '1');
            CREATE TABLE actions (
                game_id INTEGER NOT NULL, seq INTEGER NOT NULL, seat INTEGER NOT NULL, action TEXT NOT NULL,
                timed_out INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (game_id, seq)
            );
            INSERT INTO tables VALUES ('t1', 1, 'old', '{}', 1, 0, NULL);
            INSERT INTO games VALUES (1, 't1', 0, 7, '{}', '["a","b"]', 0, 0, 5, '{"winner": 1}');
            INSERT INTO games VALUES (2, 't1', 1, 8, '{}', '["a","b"]', 0, 6, NULL, NULL);
            INSERT INTO actions VALUES (1, 1, 1, 'pass', 0), (1, 0, 0, 'bid 2', 0), (1, 2, 0, 'play AS', 1);
            INSERT INTO actions VALUES (2, 0, 1, 'bid 3', 0), (2, 1, 0, 'pass', 1);
            """
        )
    store = Store(db)
    first, second = store.game(1), store.game(2)
    assert first is not None and first.actions == [(0, "bid 2", False), (1, "pass", False), (0, "play AS", True)]
    assert second is not None and second.actions == [(1, "bid 3", False), (0, "pass", True)]
    store.add_action(2, 1, "play 2C", False)
    store.commit()
    second = store.game(2)
    assert second is not None and second.actions[-1] == (1, "play 2C", False)
    with sqlite3.connect(db) as raw:
        assert raw.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()[0] == str(SCHEMA_VERSION)
        assert raw.execute("SELECT COUNT(*) FROM sqlite_master WHERE name = 'actions'").fetchone()[0] == 0


def test_a_schema_2_file_is_migrated_and_loses_nothing(tmp_path: Path) -> None:
    """Schema 2 kept one journal row an action; each unsealed game's become one row of its own."""
    db = tmp_path / "two.sqlite3"
    with sqlite3.connect(db) as raw:
        raw.executescript(
            _GAMES_2_AND_3 + """
            INSERT INTO meta VALUES ('schema', '2');
            CREATE TABLE moves (
                game_id INTEGER NOT NULL, seq INTEGER NOT NULL, seat INTEGER NOT NULL, action TEXT NOT NULL,
                timed_out INTEGER NOT NULL DEFAULT 0
            );
            INSERT INTO tables VALUES ('t1', 1, 'a', '{}', 1, 0, NULL), ('t2', 2, 'b', '{}', 0, 0, NULL);
            INSERT INTO games VALUES (1, 't1', 0, 7, '{}', '["a","b"]', 0, 0, 5, '{}', 1, '[[0,"pass",0]]');
            INSERT INTO games VALUES (2, 't1', 1, 8, '{}', '["a","b"]', 0, 6, NULL, NULL, 2, NULL);
            INSERT INTO games VALUES (3, 't2', 0, 9, '{}', '["a","b"]', 0, 6, NULL, NULL, 3, NULL);
            INSERT INTO games VALUES (4, 't2', 1, 9, '{}', '["a","b"]', 0, 6, NULL, NULL, 9, NULL);
            INSERT INTO moves (rowid, game_id, seq, seat, action, timed_out) VALUES
                (1, 1, 0, 0, 'pass', 0), (2, 2, 0, 1, 'bid 2', 0), (3, 3, 0, 0, 'bid 3', 1),
                (4, 2, 1, 0, 'pass', 0), (5, 3, 1, 1, 'pass', 0), (6, 2, 2, 1, 'play AS', 1);
            """
        )
    store = Store(db)
    assert [(a.id, a.actions) for a in (store.game(i) for i in (1, 2, 3, 4)) if a is not None] == [
        (1, [(0, "pass", False)]),
        (2, [(1, "bid 2", False), (0, "pass", False), (1, "play AS", True)]),
        (3, [(0, "bid 3", True), (1, "pass", False)]),
        (4, []),
    ]
    store.add_action(4, 0, "bid 4", False)
    store.add_action(2, 0, "play 2C", False)
    store.close()
    reopened = Store(db)
    assert [a.actions[-1:] for a in (reopened.game(4), reopened.game(2)) if a is not None] == [
        [(0, "bid 4", False)], [(0, "play 2C", False)]
    ]
    with sqlite3.connect(db) as raw:
        assert raw.execute("SELECT COUNT(*) FROM sqlite_master WHERE name = 'moves'").fetchone()[0] == 0


def test_a_schema_3_file_is_migrated_and_its_games_read_from_where_they_were_kept(tmp_path: Path) -> None:
    """Schema 3 copied a finished game's actions into its row and pruned the journal behind
    it; those games read from their rows, the unfinished one from the journal, and goes on."""
    db = tmp_path / "three.sqlite3"
    with sqlite3.connect(db) as raw:
        raw.executescript(
            _GAMES_2_AND_3 + """
            INSERT INTO meta VALUES ('schema', '3');
            CREATE TABLE journal (turn INTEGER PRIMARY KEY, actions TEXT NOT NULL);
            INSERT INTO tables VALUES ('t1', 1, 'a', '{}', 1, 0, NULL);
            INSERT INTO games VALUES (1, 't1', 0, 7, '{}', '["a","b"]', 0, 0, 5, '{}', 0, '[[0,"pass",0]]');
            INSERT INTO games VALUES (2, 't1', 1, 8, '{}', '["a","b"]', 0, 6, NULL, NULL, 3, NULL);
            INSERT INTO journal VALUES (3, '[[2,1,"bid 2",0]]'), (4, '[[2,0,"pass",1]]');
            """
        )
    store = Store(db)
    assert [t.game.id for t in store.open_tables() if t.game] == [2]
    store.add_action(2, 1, "play AS", 2)
    store.finish_game(2, "t1", 2, {"winner": 1})
    store.close()
    reopened = Store(db)
    assert [(g.id, g.actions) for g in reopened.finished_games()] == [
        (2, [(1, "bid 2", 0), (0, "pass", 1), (1, "play AS", 2)]),
        (1, [(0, "pass", 0)]),
    ]
    with sqlite3.connect(db) as raw:
        assert raw.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()[0] == str(SCHEMA_VERSION)


def test_a_newer_schema_is_refused(tmp_path: Path) -> None:
    """A file a newer setback wrote is refused as a records file this one cannot use (the
    error the command line gives one line), saying which schema it has."""
    db = tmp_path / "new.sqlite3"
    Store(db).close()
    with sqlite3.connect(db) as raw:
        raw.execute("UPDATE meta SET value = ? WHERE key = 'schema'", (str(SCHEMA_VERSION + 1),))
    with pytest.raises(sqlite3.DatabaseError, match=f"has schema {SCHEMA_VERSION + 1}"):
        Store(db)


def test_an_empty_file_is_taken_as_new_records_and_said_to_be(tmp_path: Path) -> None:
    """A file of 0 bytes (SQLite's new database) is used, with a warning naming it: it may
    be records that were lost, not a file meant to be new."""
    db = tmp_path / "empty.sqlite3"
    db.touch()
    with structlog.testing.capture_logs() as logs:
        Store(db).close()
    assert [(e["event"], e["log_level"], e["path"]) for e in logs] == [("records_file_empty", "warning", str(db))]
    with structlog.testing.capture_logs() as logs:
        Store(db).close()
    assert logs == [], "only an empty file is warned of"


def test_the_checkpoint_thread_folds_the_wal_into_the_file(tmp_path: Path) -> None:
    """With SQLite's own checkpoints off, only the thread moves committed pages into the file."""
    db = tmp_path / "s.sqlite3"
    store = Store(db)
    store.start_checkpoints()
    assert store.db.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 0
    before = db.stat().st_size
    game_id = store.start_game("t1", 0, 1, RULES, ["a", "b"], False)
    moves: Moves = []
    _play(store, {game_id: moves}, random.Random(1), 3000)
    deadline = time.monotonic() + 10 * CHECKPOINT_SECONDS
    while db.stat().st_size <= before and time.monotonic() < deadline:
        time.sleep(CHECKPOINT_SECONDS / 5)
    assert db.stat().st_size > before
    store.close()
    assert not Path(f"{db}-wal").exists() or Path(f"{db}-wal").stat().st_size == 0
    row = Store(db).game(game_id)
    assert row is not None and row.actions == moves


def _watch_wal_syncs(db: Path, monkeypatch: pytest.MonkeyPatch) -> threading.Event:
    """An event set at every ``fdatasync`` of ``db``'s WAL made through Python (the checkpoint
    thread's own syncs between rounds; SQLite's syncs at a round do not come this way)."""
    synced = threading.Event()
    real = os.fdatasync

    def fdatasync(fd: int) -> None:
        if os.fstat(fd).st_ino == Path(f"{db}-wal").stat().st_ino:
            synced.set()
        real(fd)

    monkeypatch.setattr(os, "fdatasync", fdatasync)
    return synced


def _between_rounds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Store, int, threading.Event]:
    """A store with a game committed, no checkpoint round due for an hour, and its WAL's syncs
    between rounds watched (:func:`_watch_wal_syncs`)."""
    monkeypatch.setattr(store_module, "CHECKPOINT_SECONDS", 3600.0)
    db = tmp_path / "s.sqlite3"
    store = Store(db)
    synced = _watch_wal_syncs(db, monkeypatch)
    game_id = store.start_game("t1", 0, 1, RULES, ["a", "b"], False)
    store.commit()
    return store, game_id, synced


WAL_SYNC = 0.1
"""Seconds between the WAL's syncs between rounds, when a test asks for them (``--wal-sync 0.1``)."""


def test_asked_to_the_checkpoint_thread_syncs_the_wal_between_rounds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With ``wal_sync``, between two rounds (here none comes) the thread writes what was
    committed to the disk that often (an ``fdatasync`` of the WAL), and syncs nothing when
    nothing was committed."""
    store, game_id, synced = _between_rounds(tmp_path, monkeypatch)
    store.start_checkpoints(wal_sync=WAL_SYNC)
    try:
        assert synced.wait(60), "what the WAL held when the thread started was never synced"
        synced.clear()
        time.sleep(5 * WAL_SYNC)
        assert not synced.is_set(), "the WAL was synced again with nothing committed since"
        store.add_action(game_id, 0, "bid 2", 0)
        store.commit()
        assert synced.wait(60), "the committed action was never synced"
    finally:
        store.close()


def test_by_default_only_the_rounds_sync_the_wal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without ``wal_sync`` the thread syncs nothing between two rounds, whatever is committed:
    each sync would stall a busy server's tables (the rounds' own syncs are SQLite's)."""
    store, game_id, synced = _between_rounds(tmp_path, monkeypatch)
    store.start_checkpoints()
    try:
        for seq in range(5):
            store.add_action(game_id, seq, "bid 2", 0)
            store.commit()
            time.sleep(2 * WAL_SYNC)
        assert not synced.is_set(), "the thread synced the WAL between rounds unasked"
    finally:
        store.close()


async def test_the_servers_wal_sync_reaches_its_checkpoint_thread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``setback serve --wal-sync``: the server's store syncs its WAL between rounds."""
    monkeypatch.setattr(store_module, "CHECKPOINT_SECONDS", 3600.0)
    db = tmp_path / "s.sqlite3"
    synced = _watch_wal_syncs(db, monkeypatch)
    server = Server(ServerConfig(host="127.0.0.1", port=0, db=str(db), wal_sync=WAL_SYNC))
    await server.start()  # (its start commits: the WAL holds something to sync)
    try:
        assert await asyncio.to_thread(synced.wait, 60), "the server's WAL was never synced between rounds"
    finally:
        await server.stop()


class _ScriptedCheckpoints:
    """Stands for the checkpoint thread's connection: each ``PRAGMA wal_checkpoint`` answers the
    next count of frames in the WAL from ``counts``, all of them folded."""

    def __init__(self, counts: list[int]) -> None:
        self.counts = counts

    def execute(self, sql: str) -> _ScriptedCheckpoints:
        assert sql == "PRAGMA wal_checkpoint(PASSIVE)"
        return self

    def fetchone(self) -> tuple[int, int, int]:
        count = self.counts.pop(0)
        return (0, count, count)


@pytest.mark.parametrize(
    ("counts", "writer_folds"),
    [
        ([100, 120, 120, 20], False),  # caught up, and the WAL started over at the next commit
        ([100, 120, 120, 120], False),  # caught up, nothing committed since: the next commit starts it over
        ([100, 120, 120, 150], True),  # caught up, yet the WAL grew on without starting over
        ([100 + n for n in range(store_module.CHECKPOINT_PASSES)], True),  # never caught up
    ],
)
def test_a_round_leaves_the_writer_to_fold_the_rest_when_the_wal_did_not_start_over(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, counts: list[int], writer_folds: bool
) -> None:
    """A commit that began before a round's last pass appends to the WAL instead of starting it
    over: a round that caught up looks again a moment later, and leaves the writer to fold the
    few pages left if the WAL grew on, rather than let it grow to its limit."""
    monkeypatch.setattr(store_module, "RESTART_CHECK_SECONDS", 0.0)
    store = Store(tmp_path / "s.sqlite3")
    try:
        scripted = _ScriptedCheckpoints(list(counts))
        store._checkpoint_round(scripted)  # type: ignore[arg-type]
        assert store._fold_rest is writer_folds
        assert scripted.counts == [], "every count was asked for"
    finally:
        store.close()


WAL_RESTARTS = 2
"""How many times the WAL must start over while commits never pause: once, and once again."""
GENERATION_CAP = 250_000
"""Commits without a restart that fail the test: some forty rounds' worth on a quiet machine
(some 6,000 commits a round), room for rounds that a busy disk's syncs make longer; a WAL
that never starts over holds some 1 GB by then."""


def _wal_restarts(wal: int) -> int:
    """The checkpoint sequence number in the header of the WAL file open as ``wal``: SQLite adds
    one each time it starts the WAL over from its beginning (sqlite.org/fileformat.html, "WAL")."""
    return int.from_bytes(os.pread(wal, 4, 12), "big")


def test_the_wal_starts_over_while_commits_never_pause(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A server that is never idle still reuses its WAL: with commits back to back, it starts over
    again and again, so it does not grow with all it ever wrote. Counted in restarts, not seconds:
    on a busy machine rounds come fewer or more commits apart, and only a WAL that goes
    :data:`GENERATION_CAP` commits without starting over fails. (Rounds every tenth of a second
    here, to keep the test short: how often they come is not what it checks.)"""
    monkeypatch.setattr(store_module, "CHECKPOINT_SECONDS", 0.1)
    db = tmp_path / "s.sqlite3"
    store = Store(db)
    store.start_checkpoints()
    game_id = store.start_game("t1", 0, 1, RULES, ["a", "b"], False)
    store.commit()
    wal = os.open(f"{db}-wal", os.O_RDONLY)
    try:
        restarts = since_restart = commits = 0
        generation = _wal_restarts(wal)
        while restarts < WAL_RESTARTS and since_restart < GENERATION_CAP:
            store.add_action(game_id, commits % 2, f"play {commits % 52}", 0)
            store.commit()
            commits += 1
            since_restart += 1
            if _wal_restarts(wal) != generation:
                generation = _wal_restarts(wal)
                restarts += 1
                since_restart = 0
        size = os.fstat(wal).st_size
    finally:
        os.close(wal)
        store.close()
    assert restarts == WAL_RESTARTS, (
        f"the WAL started over {restarts} times, then not in {since_restart} commits: it holds {size} bytes"
    )


def test_a_tables_chat_reads_back_its_latest_lines_oldest_first(tmp_path: Path) -> None:
    """What a snapshot recalls after a restart: the table's own lines (not the lobby's, not
    another table's), the latest ``limit`` of them, in the order they were said."""
    store = Store(tmp_path / "chat.sqlite3")
    for n in range(60):
        store.add_chat("t1", "table", f"p{n % 3}", f"line {n}")
        store.add_chat("t2", "table", "other", f"elsewhere {n}")
        store.add_chat(None, "lobby", "p0", f"lobby {n}")
    store.commit()
    assert store.table_chat("t1", 50) == [(f"p{n % 3}", f"line {n}") for n in range(10, 60)]
    assert store.table_chat("t3", 50) == []
    store.close()


def test_the_wal_stays_within_its_limit_when_no_round_folds_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Commits faster than the checkpoint thread's rounds fold them (here, no round at all) do not
    grow the WAL past its limit: the writer folds it itself, it starts over and its file is cut
    back, so it holds at most the limit and the commits between two looks at its size."""
    monkeypatch.setattr(store_module, "CHECKPOINT_SECONDS", 3600.0)
    monkeypatch.setattr(store_module, "WAL_LIMIT_BYTES", 256 << 10)
    db = tmp_path / "s.sqlite3"
    store = Store(db)
    store.start_checkpoints()
    game_id = store.start_game("t1", 0, 1, RULES, ["a", "b"], False)
    peak = 0
    for commit in range(3000):
        store.add_action(game_id, commit % 2, f"play {commit % 52}", 0)
        store.add_hand(game_id, commit, {"hand": commit, "points": "x" * 200})
        store.commit()
        peak = max(peak, Path(f"{db}-wal").stat().st_size)
    store.close()
    assert db.stat().st_size > 256 << 10, "the commits wrote more than the limit"
    assert peak <= 2 * (256 << 10), f"the WAL reached {peak} bytes"
    row = Store(db).game(game_id)
    assert row is not None and len(row.actions) == 3000
