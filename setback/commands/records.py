"""``setback history``, ``replay``, ``export`` and ``leaderboard``: what a server recorded; ``samples``:
records made into rows to learn from."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Iterator
from contextlib import nullcontext
from pathlib import Path
from typing import Any

import msgspec
from rich.console import Console

from setback import places
from setback.commands.common import AddCommand, print_json, print_rows, whole_number
from setback.engine import Variant
from setback.protocol.messages import WireRules
from setback.telling.story import rules_text


def _store(args: argparse.Namespace) -> Any:
    from setback.server.store import Store

    path = args.db or str(places.default_db_path())
    if not Path(path).exists():
        raise ValueError(f"no records at {path} (give the server's --db)")
    return Store(path, read_only=True)


def cmd_history(args: argparse.Namespace) -> int:
    from setback.server.history import history_rows

    rows = history_rows(_store(args), args.limit)
    if args.json:
        print_json(rows)
        return 0
    if not rows:
        print("no finished games recorded yet")
        return 0
    lines = []
    for row in rows:
        reason = str(row["reason"]).replace("_", " ")
        players = ", ".join(
            name + ("*" if name in row["stood_in"] else "") + ("+" if name in row["timed_out"] else "")
            for name in row["players"]
        )
        lines.append([
            str(row["game_id"]), row["table"], players, rules_text(msgspec.convert(row["rules"], WireRules)),
            " / ".join(str(s) for s in row["scores"] or []), f"{', '.join(row['winners'])} ({reason})",
            (row["finished"] or "")[:16].replace("T", " "),
        ])
    marks = [
        *(["*: a stand-in bot played some of their decisions"] if any(row["stood_in"] for row in rows) else []),
        *(["+: their clock ran out, and the server moved for them"] if any(row["timed_out"] for row in rows) else []),
    ]
    print_rows(
        Console(), "finished games, newest first",
        ["game", "table", "players", "rules", "scores", "won", "finished (UTC)"], lines,
        caption="; ".join(marks) or None, left={"table", "players", "rules", "won"},
    )
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    from setback.server.history import record_lines, replay_lines

    if args.file is not None:  # a record file (match --out, export): its game GAME_ID
        for line in record_lines(Path(args.file), args.game_id):
            print(line)
        return 0
    row = _store(args).game(args.game_id)
    if row is None:
        raise ValueError(f"no game {args.game_id}")
    for line in replay_lines(row):
        print(line)
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    from setback.server.history import export_record, export_records

    store = _store(args)
    if args.all and args.game_id is not None:
        raise ValueError("name a GAME_ID or --all, not both")
    if args.all:  # a game whose record cannot be read is left out, and named on stderr
        records: Iterable[dict[str, Any]] = export_records(store)
    elif args.game_id is not None:
        row = store.game(args.game_id)
        if row is None:
            raise ValueError(f"no game {args.game_id}")
        records = [export_record(row)]
    else:
        raise ValueError("name a GAME_ID or --all")
    with open(args.out, "w", encoding="utf-8") if args.out else nullcontext(sys.stdout) as out:
        for record in records:
            out.write(json.dumps(record) + "\n")
    return 0


def cmd_leaderboard(args: argparse.Namespace) -> int:
    from setback.engine import Variant
    from setback.server.history import leaderboard_rows

    variant = Variant(args.variant)
    rows = leaderboard_rows(_store(args), variant)
    if args.json:
        print_json(rows)
        return 0
    if not rows:
        at = "" if variant is Variant.STANDARD else f" at {variant.value} tables"
        print(f"no rated games recorded yet{at} (a table is rated when its creator asks for it)")
        return 0
    kind = "" if variant is Variant.STANDARD else f", {variant.value}"
    print_rows(
        Console(), f"ratings from rated tables (Elo{kind})", ["#", "player", "rating", "games", "wins"],
        ([str(rank), row["player"], f"{row['rating']:.1f}", str(row["games"]), str(row["wins"])]
         for rank, row in enumerate(rows, 1)),
        left={"player"},
    )
    return 0


def read_records(path: Path) -> Iterator[dict[str, Any]]:
    """The records of a JSONL file, in order; a torn last line (a write that was stopped) is left out,
    any other line that is no JSON is an error naming it."""
    with path.open("rb") as file:
        for number, line in enumerate(file, 1):
            try:
                yield msgspec.json.decode(line)
            except msgspec.DecodeError:
                if not line.endswith(b"\n"):
                    return
                raise ValueError(f"{path}, line {number}: not a JSON record") from None


def cmd_samples(args: argparse.Namespace) -> int:
    from setback.match.samples import write_samples

    source = Path(args.records)
    if not source.is_file():
        raise ValueError(f"no record file at {source}")
    games, rows = write_samples(read_records(source), Path(args.out))
    if args.json:
        print_json({"records": str(source), "out": args.out, "games": games, "rows": rows})
    else:
        print(f"wrote {rows} decisions of {games} games to {args.out}")
    return 0


def register(command: AddCommand) -> None:
    def with_db(sub: argparse.ArgumentParser) -> argparse.ArgumentParser:
        sub.add_argument("--db", metavar="PATH", help="the server's SQLite file (default: in your data folder)")
        return sub

    history = with_db(command("history", cmd_history, "list the finished games a server recorded"))
    history.add_argument("--limit", type=whole_number("a count", 1), default=50, help="newest N games (default 50)")
    history.add_argument("--json", action="store_true", help="print them as JSON")
    replay = with_db(command("replay", cmd_replay, "tell a recorded game hand by hand"))
    replay.add_argument("game_id", type=int, metavar="GAME_ID")
    replay.add_argument(
        "--file", metavar="FILE.jsonl",
        help="a file of game records (match --out, export) instead of the server's: GAME_ID is the match's "
        "game number (from 0), or an export's game id",
    )
    export = with_db(command("export", cmd_export, "write recorded games as JSONL records (as match --out)"))
    export.add_argument("game_id", type=int, nargs="?", metavar="GAME_ID")
    export.add_argument("--all", action="store_true", help="every finished game, oldest first")
    export.add_argument("--out", metavar="FILE.jsonl", help="write here instead of stdout")
    samples = command("samples", cmd_samples, "turn game records into one row per decision for learning (Parquet)")
    samples.add_argument("records", metavar="RECORDS.jsonl",
                         help="game records (match --out, a tournament's --out file, export)")
    samples.add_argument(
        "--out", required=True, metavar="FILE.parquet",
        help="the Parquet file to write (spec.md section 5, \"Samples\"; pip install 'setback[learn]')",
    )
    samples.add_argument("--json", action="store_true", help="print what was written as JSON")
    leaderboard = with_db(command("leaderboard", cmd_leaderboard, "ratings and win/loss from rated tables"))
    leaderboard.add_argument("--json", action="store_true", help="print it as JSON")
    leaderboard.add_argument(
        "--variant", choices=[v.value for v in Variant], default=Variant.STANDARD.value,
        help="the variant whose ratings to show: each keeps its own (default standard)",
    )
