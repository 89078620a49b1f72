"""`setback serve` as a user runs it: a real process (with uvloop when installed), stopped by SIGTERM."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import pytest
from test_cli_mistakes import fails
from test_match_cli import run_cli
from test_records_cli import play_rated_games
from wire import RawClient, play_until_over, running_server

from setback import compiled
from setback.cli import main
from setback.server import files
from setback.server.config import ServerConfig
from setback.server.store import Store


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def test_serve_plays_a_game_and_says_goodbye_on_sigterm(tmp_path: Path) -> None:
    port = free_port()
    db = tmp_path / "club.sqlite3"
    process = subprocess.Popen(
        [sys.executable, "-m", "setback", "--log-json", "serve", "--no-advertise", "--host", "127.0.0.1",
         "--port", str(port), "--web-port", "0", "--wal-sync", "0.1",
         "--db", str(db)],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        client = None
        for _ in range(100):
            try:
                client = await RawClient.connect(port)
                break
            except OSError:
                await asyncio.sleep(0.1)
        assert client is not None, "the server did not start listening"
        await client.hello("player")
        await client.send(type="create_table", id=1, rules={"players": 3}, bots=["random", "random"], seed=4)
        await client.expect("table", id=1)
        await client.send(type="join", id=2, table="t1", ready=True)
        final = await play_until_over(client)
        assert final["event"]["outcome"]["winner"] in {0, 1, 2}
        process.send_signal(signal.SIGTERM)
        goodbye = await client.expect("goodbye")
        assert goodbye["reason"]
        assert await client.closed()
        assert process.wait(timeout=20) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        assert process.stderr is not None
        with process.stderr:
            logs = process.stderr.read().decode()
    assert '"event": "listening"' in logs and '"event": "stopped"' in logs
    (page,) = [json.loads(line) for line in logs.splitlines() if '"web_page"' in line]
    assert page["urls"][0].startswith("http://127.0.0.1:")  # the browser table's address, logged
    assert f'"hot_path": "{compiled.STATUS}"' in logs  # a host can tell whether it runs the compiled server
    assert db.exists()


def test_serve_refuses_settings_out_of_range(capsys: pytest.CaptureFixture[str]) -> None:
    """A negative pause, pace, grace or sync, or no connections at all, is a typing error: status 2, one line."""
    for flags in (
        ["--bot-table-pause", "-1"], ["--bot-table-pace", "-0.5"], ["--reconnect-grace", "-5"],
        ["--max-connections", "0"], ["--wal-sync", "-0.1"],
    ):
        with pytest.raises(SystemExit) as exit_:
            main(["serve", "--db", ":memory:", "--no-advertise", *flags])
        assert exit_.value.code == 2
        assert "at least" in capsys.readouterr().err


def run_setback(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "setback", *args], capture_output=True, text=True, timeout=60, check=False,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )


def test_mistakes_and_failures_are_one_line_not_a_traceback(tmp_path: Path) -> None:
    """What a user gets wrong (status 2) or the world refuses (status 1): one line on stderr each."""
    junk = tmp_path / "notes.txt"
    junk.write_text("not a database\n")
    records = tmp_path / "records.sqlite3"
    Store(str(records)).close()
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        busy = str(taken.getsockname()[1])
        cases = [
            (("serve", "--port", "99999", "--db", ":memory:", "--no-advertise"), 2, "65535"),
            (("serve", "--host", "127.0.0.1", "--port", busy, "--db", ":memory:", "--no-advertise"), 1,
             "address already in use"),
            (("serve", "--port", "0", "--db", str(junk), "--no-advertise", "--no-web"), 1, "not a database"),
            (("serve", "--host", "127.0.0.1", "--port", "0", "--web-port", busy, "--db", ":memory:", "--no-advertise"),
             1, "address already in use"),
            (("serve", "--tls-cert", str(tmp_path / "no.pem"), "--tls-key", str(tmp_path / "no.pem")), 2, "no file"),
            (("history", "--db", str(junk)), 1, "not a database"),
            (("history", "--limit", "-1"), 2, "at least 1"),
            (("export", "1", "--all", "--db", str(records)), 2, "not both"),
            (("export", "--all", "--db", str(records), "--out", str(tmp_path / "no" / "x.jsonl")), 1,
             "No such file or directory"),
            (("bot", "random", "--server", "127.0.0.1:notaport", "--table", "t1"), 2, "is a number from 1 to 65535"),
            (("bot", "random", "--server", f"127.0.0.1:{free_port()}", "--table", "t1"), 1, "is a server running"),
            (("bench",), 2, "name a benchmark"),
            (("bench", "server", "--tables", "x"), 2, "table counts"),
        ]
        for args, status, words in cases:
            done = run_setback(*args)
            assert done.returncode == status, (args, done.stderr)
            assert "Traceback" not in done.stderr, (args, done.stderr)
            assert words in done.stderr.splitlines()[-1], (args, done.stderr)


def test_a_records_file_of_a_newer_setback_is_refused_in_one_line(tmp_path: Path) -> None:
    """Serving or reading a file of a schema this setback does not know: status 1, one line."""
    records = tmp_path / "records.sqlite3"
    Store(str(records)).close()
    with sqlite3.connect(records) as raw:
        raw.execute("UPDATE meta SET value = '99' WHERE key = 'schema'")
    for args in (("serve", "--port", "0", "--db", str(records), "--no-advertise"), ("history", "--db", str(records))):
        done = run_setback(*args)
        assert done.returncode == 1, (args, done.stderr)
        assert done.stderr.count("\n") == 1 and "has schema 99" in done.stderr, (args, done.stderr)


def _another_programs(path: Path) -> None:
    with sqlite3.connect(path) as raw:
        raw.execute("CREATE TABLE people (name TEXT)")
        raw.execute("INSERT INTO people VALUES ('ada')")


def _schema_of(value: str) -> Callable[[Path], None]:
    def write(path: Path) -> None:
        Store(str(path)).close()
        with closing(sqlite3.connect(path)) as raw, raw:  # closed: its WAL folded into the file
            raw.execute("UPDATE meta SET value = ? WHERE key = 'schema'", (value,))
    return write


NOT_RECORDS = {
    "an empty file": (Path.touch, "is empty: it holds no records"),
    "another program's SQLite file": (_another_programs, "holds tables of another program (people)"),
    "a schema that is a word": (_schema_of("four"), "says its schema is 'four', which is no schema number"),
    "a schema of 5,000 digits": (_schema_of("9" * 5000), "which is no schema number"),
}


@pytest.mark.parametrize(("make", "words"), NOT_RECORDS.values(), ids=NOT_RECORDS.keys())
def test_the_readers_refuse_a_file_that_is_not_a_servers_records_and_write_nothing_into_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], make: Callable[[Path], None], words: str
) -> None:
    """`history`, `export` and `leaderboard` open the file read-only: one line naming the
    file, status 1, and the file as it was (no schema written into it)."""
    records = tmp_path / "records.sqlite3"
    make(records)
    before = records.read_bytes()
    for args in (("history",), ("export", "--all"), ("leaderboard",)):
        code, line = fails(capsys, *args, "--db", str(records))
        assert code == 1 and str(records) in line and words in line, line
    assert records.read_bytes() == before


@pytest.mark.parametrize("make", [_another_programs, _schema_of("four")], ids=["another program's", "schema 'four'"])
def test_serve_refuses_a_file_that_is_not_a_servers_records(tmp_path: Path, make: Callable[[Path], None]) -> None:
    records = tmp_path / "records.sqlite3"
    make(records)
    done = run_setback("serve", "--port", "0", "--db", str(records), "--no-advertise")
    assert done.returncode == 1 and done.stderr.count("\n") == 1 and str(records) in done.stderr, done.stderr


def test_a_reader_of_an_older_schema_upgrades_a_copy_and_leaves_the_file_as_it_was(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    records = tmp_path / "records.sqlite3"
    asyncio.run(play_rated_games(records, games=1))
    with sqlite3.connect(records) as raw:  # as schema 4 left it
        raw.execute("ALTER TABLE journal DROP COLUMN games")
        raw.execute("UPDATE meta SET value = '4' WHERE key = 'schema'")
    assert len(json.loads(run_cli(capsys, "history", "--db", str(records), "--json"))) == 1
    with sqlite3.connect(records) as raw:
        assert raw.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone() == ("4",)


async def test_a_bot_refused_its_seat_says_so_in_one_line() -> None:
    async with running_server() as server:
        done = await asyncio.to_thread(
            run_setback, "bot", "random", "--server", f"127.0.0.1:{server.port}", "--table", "t404"
        )
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "refused the seat: no_such_table" in done.stderr.splitlines()[-1]


def _low_open_files() -> None:
    """In the child, before it runs: a soft limit of open files far below its hard limit."""
    import resource

    resource.setrlimit(resource.RLIMIT_NOFILE, (128, 600))


def test_serve_raises_its_open_file_limit_and_caps_max_connections_to_it(tmp_path: Path) -> None:
    """Started with a soft limit of 128 open files (hard 600) and asked for 5,000 connections,
    ``setback serve`` raises the soft limit to the hard one, says so in its ``listening``
    line, and caps ``max_connections`` to what 600 files allow less those it keeps for
    itself, saying that too (1,100 idle peers locked everyone out silently past the limit)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "setback", "--log-json", "serve", "--no-advertise", "--host", "127.0.0.1",
         "--port", str(free_port()), "--max-connections", "5000", "--db", str(tmp_path / "club.sqlite3")],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, preexec_fn=_low_open_files,  # noqa: PLW1509
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    said: dict[str, dict[str, object]] = {}
    try:
        assert process.stderr is not None
        for line in process.stderr:
            if line.startswith("{"):
                said.setdefault(json.loads(line)["event"], json.loads(line))
            if "listening" in said:
                break
    finally:
        process.send_signal(signal.SIGTERM)
        process.communicate(timeout=30)
    allowed = 600 - files.RESERVED_FILES
    assert said["listening"]["open_files"] == 600 and said["listening"]["max_connections"] == allowed
    capped = said["max_connections_capped"]
    assert (capped["asked"], capped["max_connections"], capped["open_files"]) == (5000, allowed, 600)


def test_an_open_file_limit_that_cannot_be_raised_is_said_and_kept(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Where the system refuses to raise the soft limit, the server goes on with the one it
    has, says so (``open_files_not_raised``) and caps its connections to that one; a
    ``max_connections`` that fits is left as it is."""
    import resource

    def refuse(which: int, limits: tuple[int, int]) -> None:
        raise ValueError("not allowed")

    monkeypatch.setattr(resource, "getrlimit", lambda which: (256, 4096))
    monkeypatch.setattr(resource, "setrlimit", refuse)
    config = ServerConfig(max_connections=1000)
    assert files.fit_open_files(config).max_connections == 256 - files.RESERVED_FILES
    err = capsys.readouterr().err
    assert "open_files_not_raised" in err and "hard=4096" in err and "soft=256" in err
    assert "max_connections_capped" in err
    small = ServerConfig(max_connections=100)
    assert files.fit_open_files(small) is small


async def test_a_full_server_refuses_the_next_peer_and_says_so_in_its_log(capsys: pytest.CaptureFixture[str]) -> None:
    """Past ``max_connections`` a peer is refused (``server_full``) and the log says so, with the limit."""
    async with running_server(max_connections=1) as server:
        first = await RawClient.connect(server.port)
        await first.hello("one")
        second = await RawClient.connect(server.port)
        assert (await second.expect("error"))["code"] == "server_full"
        assert await second.closed()
        await first.close()
    assert re.search(r"server_full .*max_connections=1", capsys.readouterr().err)
