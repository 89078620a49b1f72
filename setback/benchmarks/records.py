"""The records file of a server that has played many games, against the games' own records.

Measured: the file's size against the games' records, its WAL's peak while it is written,
and the time a restart takes to bring back the tables in play.

The store is written through the calls a server's tables make (``save_table``,
``save_seat``, ``start_game``, ``add_action``, ``add_hand``, ``finish_game``), one commit at
the end of each turn of the loop as :meth:`Server.flush` makes it, and with the checkpoint
thread of ``setback serve`` running: ``--tables`` tables in play at once (1,000 by default),
``--per-turn`` of them taking an action each turn, each playing real games (a pool of games
that ``heuristic`` bots played beforehand, dealt from their seeds, so every record replays).

The baseline is the games' records themselves: the text of the journal's rows and of each
game's row and hand results, as the file holds them. The figures: the file's size (and its
WAL's) over those records when ``--games`` games have finished, the WAL's peak in each tenth
of the run (a WAL that is folded in time peaks about as high at the end as at the start; at
each mark the WAL is folded into the file first, so the file holds every game so far),
and the restart: a new store opening the file and reading the tables in play
(``open_tables``), and ``setback serve``'s start on it (every unfinished game replayed to
where it stood).

Run: ``python -m setback.benchmarks.records`` or ``setback bench records [--games 10000,100000]
[--tables 1000] [--per-turn 50] [--json]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import secrets
import shutil
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

from setback import compiled
from setback.benchmarks.server import at_least_one, table_counts
from setback.bots.heuristic import HeuristicBot
from setback.engine import Action, Game, HandScored, Phase, Rules, plain
from setback.protocol.convert import ACTION_TEXT, rules_to_wire
from setback.protocol.messages import Clock
from setback.protocol.views import WireViews
from setback.server.seats import TableOptions
from setback.server.store import BY_PLAYER, SeatRow, Store, token_hash

POOL = 64
"""Games the bots play beforehand; the tables deal them again and again, each from its seed."""


@dataclass(frozen=True)
class PlayedGame:
    """A game as a table records it: its seed, each action (seat, text), the hand results
    after the actions that scored them (action index: hand number, the wire's result) and
    its outcome."""

    seed: int
    actions: tuple[tuple[int, str], ...]
    hands: dict[int, tuple[int, Any]]
    outcome: dict[str, Any]


def played_games(count: int, rules: Rules) -> list[PlayedGame]:
    """``count`` games of four ``heuristic`` bots, seeds 0 on."""
    games = []
    for seed in range(count):
        game = Game(rules, seed)
        bots = [HeuristicBot(seed * rules.players + seat) for seat in range(rules.players)]
        views = WireViews(rules)
        actions: list[tuple[int, str]] = []
        hands: dict[int, tuple[int, Any]] = {}
        sent = 0
        while (seat := game.to_act) is not None:
            view = game.view(seat)
            action = bots[seat].bid(view) if game.phase is Phase.BIDDING else bots[seat].play(view)
            assert isinstance(action, Action), "heuristic bots answer at once"
            game.apply(action, seat)
            events = game.events_since(sent)  # as the server's table tells them: every one, unredacted
            sent += len(events)
            for event in events:
                views.note(event)
                if type(event) is HandScored:
                    hands[len(actions)] = (event.result.hand_number, msgspec.to_builtins(views.last_result))
            actions.append((seat, ACTION_TEXT[game.actions[-1].code]))
        assert game.outcome is not None
        games.append(PlayedGame(seed, tuple(actions), hands, plain(game.outcome)))
    return games


@dataclass
class _Table:
    """A table in play: the pool game it deals now, its id in the records, how far it got."""

    id: str
    players: list[str]
    games_played: int = 0
    game: PlayedGame | None = None
    game_id: int = 0
    at: int = 0


@dataclass
class _Sizes:
    """The file's and its WAL's sizes, sampled while writing."""

    path: Path
    wal_peaks: list[int] = field(default_factory=list)
    """The WAL's peak in each tenth of the run."""

    def now(self) -> tuple[int, int]:
        return _size(self.path), _size(Path(f"{self.path}-wal"))


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except FileNotFoundError:
        return 0


def records_bytes(store: Store) -> dict[str, int]:
    """The games' records as text, by where the file keeps them: the journal's rows (every
    action, and each row's count of actions a game), the games' rows (seed, rules, players,
    times, outcome) and the hands' results."""
    store.commit()
    journal, games, hands = store.db.execute(
        "SELECT (SELECT COALESCE(SUM(length(actions) + COALESCE(length(games), 0) + length(turn)), 0) FROM journal), "
        "(SELECT COALESCE(SUM(length(id) + length(table_id) + length(number) + length(seed) + length(rules) "
        "+ length(players) + 1 + length(started) + COALESCE(length(finished), 0) + COALESCE(length(outcome), 0) "
        "+ length(first_move) + COALESCE(length(last_move), 0)), 0) FROM games), "
        "(SELECT COALESCE(SUM(length(game_id) + length(number) + length(result)), 0) FROM hands)"
    ).fetchone()
    return {"journal": int(journal), "games": int(games), "hands": int(hands), "all": int(journal + games + hands)}


def write_games(path: Path, marks: list[int], tables: int, per_turn: int, sample_every: int = 16) -> dict[str, Any]:
    """Play ``max(marks)`` games to their end at ``tables`` tables into a new records file at
    ``path``, ``per_turn`` tables acting a turn, and the file's figures at each mark."""
    rules = Rules()
    pool = played_games(POOL, rules)
    wire_rules = msgspec.to_builtins(rules_to_wire(rules))
    store = Store(path)
    store.claim()
    store.start_checkpoints()
    at_table: list[_Table] = []
    for number in range(1, tables + 1):
        table = _Table(f"t{number}", [f"bench {number}.{seat}" for seat in range(rules.players)])
        options = TableOptions(name=f"bench {number}", rules=rules, clock=Clock(decision_seconds=None))
        store.save_table(table.id, number, options.name, options.saved())
        for seat, name in enumerate(table.players):
            store.save_seat(table.id, SeatRow(seat, "bot", name, token_hash(secrets.token_urlsafe(16)), None))
        at_table.append(table)
    store.commit()
    dealt = 0

    def deal(table: _Table) -> None:
        nonlocal dealt
        game = table.game = pool[dealt % POOL]
        dealt += 1
        table.at = 0
        table.game_id = store.start_game(table.id, table.games_played, game.seed, wire_rules, table.players, False)

    for table in at_table:
        deal(table)
    store.commit()
    sizes = _Sizes(path)
    target = max(marks)
    finished = turns = 0
    wal_peak = 0
    tenth = 1
    rows: list[dict[str, Any]] = []
    began = time.perf_counter()
    cursor = 0
    while finished < target:
        for _ in range(per_turn):
            table = at_table[cursor]
            cursor = (cursor + 1) % tables
            game = table.game
            assert game is not None
            seat, text = game.actions[table.at]
            store.add_action(table.game_id, seat, text, BY_PLAYER)
            hand = game.hands.get(table.at)
            if hand is not None:
                store.add_hand(table.game_id, hand[0], hand[1])
            table.at += 1
            if table.at == len(game.actions):
                table.games_played += 1
                store.finish_game(table.game_id, table.id, table.games_played, game.outcome)
                table.game = None
                finished += 1
                deal(table)  # at once: every table has a game in play when the run stops
        store.commit()
        turns += 1
        if turns % sample_every == 0 or finished >= target:
            wal_peak = max(wal_peak, sizes.now()[1])
        while tenth <= 10 and finished * 10 >= tenth * target:
            sizes.wal_peaks.append(wal_peak)
            wal_peak = 0
            tenth += 1
        if marks and finished >= marks[0]:
            store.db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()  # the file holds every game so far
            db, wal = sizes.now()
            written = records_bytes(store)
            rows.append({
                "games": finished, "seconds": round(time.perf_counter() - began, 1), "turns": turns,
                "db_bytes": db, "wal_bytes": wal, "records_bytes": written,
                "bytes_per_game": round(db / finished), "records_per_game": round(written["all"] / finished),
                "ratio": round(db / written["all"], 3),
            })
            marks = marks[1:]
    store.close()
    closed = {"db_bytes": _size(path), "wal_bytes": _size(Path(f"{path}-wal"))}
    closed["ratio"] = round(closed["db_bytes"] / rows[-1]["records_bytes"]["all"], 3)
    return {"marks": rows, "wal_peak_by_tenth": sizes.wal_peaks, "closed": closed}


def restart(path: Path, tables: int) -> dict[str, Any]:
    """A new store opening the file and reading its tables in play, then ``setback serve``'s
    start on the same file (which replays every unfinished game), each timed; and how many of
    the tables came back with their game."""
    began = time.perf_counter()
    store = Store(path)
    opened = time.perf_counter()
    rows = store.open_tables()
    read = time.perf_counter()
    store.close()
    with_game = sum(1 for row in rows if row.game is not None and row.damage is None)
    result: dict[str, Any] = {
        "open_seconds": round(opened - began, 3), "open_tables_seconds": round(read - opened, 3),
        "tables": len(rows), "tables_with_game": with_game, "tables_in_play": tables,
    }

    async def serve() -> None:
        from setback import logs
        from setback.server.app import Server
        from setback.server.config import ServerConfig

        logs.configure(json=False, level=logging.WARNING)  # not a line a table restored

        started = time.perf_counter()
        server = Server(ServerConfig(host="127.0.0.1", port=0, db=str(path)))
        await server.start()
        result["serve_start_seconds"] = round(time.perf_counter() - started, 3)
        result["serve_tables_playing"] = sum(
            1 for table in server.lobby.tables.values() if table.play is not None and not table.broken
        )
        await server.stop()

    asyncio.run(serve())
    return result


def run(marks: list[int], tables: int, per_turn: int, folder: str | None = None) -> dict[str, Any]:
    """The figures of one run, in a folder of its own (removed after) under ``folder``."""
    where = tempfile.mkdtemp(prefix="setback-bench-records-", dir=folder)
    try:
        path = Path(where) / "records.sqlite3"
        written = write_games(path, sorted(set(marks)), tables, per_turn)
        return {
            "benchmark": "records", "build": compiled.STATUS, "tables": tables, "per_turn": per_turn,
            **written, "restart": restart(path, tables),
        }
    finally:
        shutil.rmtree(where, ignore_errors=True)


def _mb(value: int) -> str:
    return f"{value / 1e6:.1f} MB"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="setback bench records", description=__doc__.split("\n")[0])
    parser.add_argument(
        "--games", type=table_counts, default=[10_000, 100_000],
        help="games finished at which to measure the file, separated by commas (default 10000,100000)",
    )
    parser.add_argument("--tables", type=at_least_one, default=1000, help="tables in play at once (default 1000)")
    parser.add_argument(
        "--per-turn", type=at_least_one, default=50, help="tables that act in each turn of the loop (default 50)"
    )
    parser.add_argument("--folder", help="where to write the file (default: the system's temporary folder)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    result = run(args.games, args.tables, min(args.per_turn, args.tables), args.folder)
    if args.json:
        print(json.dumps(result))
        return
    print(f"{result['tables']} tables in play, {result['per_turn']} acting a turn; {result['build']}")
    print(f"{'games':>8} {'file':>10} {'WAL':>10} {'records':>10} {'ratio':>6} {'bytes/game':>10} {'records/game':>12}")
    for row in result["marks"]:
        print(f"{row['games']:>8} {_mb(row['db_bytes']):>10} {_mb(row['wal_bytes']):>10} "
              f"{_mb(row['records_bytes']['all']):>10} {row['ratio']:>6} {row['bytes_per_game']:>10} "
              f"{row['records_per_game']:>12}")
    closed = result["closed"]
    print(f"closed: file {_mb(closed['db_bytes'])} ({closed['ratio']} of the records), WAL {closed['wal_bytes']} bytes")
    print("WAL peak in each tenth of the games: " + ", ".join(_mb(peak) for peak in result["wal_peak_by_tenth"]))
    again = result["restart"]
    print(f"restart: open {again['open_seconds']} s, open_tables {again['open_tables_seconds']} s "
          f"({again['tables_with_game']} of {again['tables']} tables with their game), setback serve's start "
          f"{again['serve_start_seconds']} s ({again['serve_tables_playing']} tables playing)")


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    main()
