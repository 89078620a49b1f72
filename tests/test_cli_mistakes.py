"""A newcomer's mistakes on the command line: status 2 for what was typed, 1 for what cannot
be done, one line on stderr each time, and nothing started."""

from __future__ import annotations

import io
import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console
from test_match_cli import run_cli

from setback.cli import main
from setback.commands.common import print_rows
from setback.server.store import Store


def fails(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    """The status of ``setback ARGV`` that fails, and its one line on stderr (nothing on stdout)."""
    capsys.readouterr()
    with pytest.raises(SystemExit) as exit_:
        main(list(argv))
    out, err = capsys.readouterr()
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert isinstance(exit_.value.code, int)
    return exit_.value.code, lines[0]


@pytest.mark.parametrize("count", ["0", "9", "-1"])
def test_play_with_bots_out_of_range_says_the_range(capsys: pytest.CaptureFixture[str], count: str) -> None:
    """``--bots`` is 1 to 6 whatever the count typed; 0 does not fall through to the LAN search."""
    code, line = fails(capsys, "play", "--bots", count)
    assert code == 2
    assert "--bots" in line and "1 to 6" in line
    assert "players" not in line  # not "a table of 7", not "2 to 7, not 0"


def test_play_with_more_bots_than_the_table_names_its_size(capsys: pytest.CaptureFixture[str]) -> None:
    """With ``--players`` the limit is that table's seats but one."""
    code, line = fails(capsys, "play", "--bots", "4", "--players", "3")
    assert (code, line) == (2, "setback play: --bots is 1 to 2 at a table of 3 players")


@pytest.mark.parametrize("address", ["127.0.0.1:abc", "127.0.0.1:99999", "127.0.0.1:0", "[::1", "[::1]x", ":7411"])
def test_play_reads_host_and_port_strictly(capsys: pytest.CaptureFixture[str], address: str) -> None:
    """A port that is no port, or an address of no form, is a typing mistake, not a host name to look up."""
    code, line = fails(capsys, "play", address)
    assert code == 2
    assert line.startswith("setback play: argument HOST[:PORT]:")


def test_play_where_nothing_answers_fails_at_once(capsys: pytest.CaptureFixture[str]) -> None:
    """No server at the address: status 1 and the reason, not a lobby that says it is offline."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    code, line = fails(capsys, "play", f"127.0.0.1:{port}")
    assert code == 1
    assert line == f"setback play: 127.0.0.1:{port}: connection refused (is a server running there?)"


def test_a_match_of_no_games_is_a_mistake(capsys: pytest.CaptureFixture[str]) -> None:
    code, line = fails(capsys, "match", "random", "random", "--games", "0")
    assert code == 2 and "--games" in line


def test_new_bot_prints_a_command_that_runs_as_installed(tmp_path: Path) -> None:
    """The command ``new-bot`` prints works as printed, from the same folder, with the
    install's own ``setback`` (not on PATH after the README's install)."""
    setback = Path(sys.executable).parent / "setback"
    env = {**os.environ, "PATH": "/usr/bin:/bin"}  # the venv is not on PATH, as after the README's install
    done = subprocess.run(
        [str(setback), "new-bot", "Mine"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    command = done.stdout.splitlines()[1].strip()
    assert command.startswith(str(setback) + " match ")
    ran = subprocess.run(
        [*command.replace("--games 20", "--games 2").split(), "--json"], cwd=tmp_path, env=env,
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert ran.returncode == 0, ran.stderr
    assert json.loads(ran.stdout)["games"] == 2


def test_leaderboard_and_history_of_no_games_say_so(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db = tmp_path / "empty.sqlite3"
    Store(str(db)).close()
    assert run_cli(capsys, "leaderboard", "--db", str(db)).strip().startswith("no rated games recorded yet")
    assert run_cli(capsys, "history", "--db", str(db)).strip() == "no finished games recorded yet"


def test_replay_of_a_game_a_file_lacks_names_the_games_it_has(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    records = tmp_path / "games.jsonl"
    run_cli(capsys, "match", "random", "random", "--games", "3", "--out", str(records), "--json")
    code, line = fails(capsys, "replay", "--file", str(records), "7")
    assert (code, line) == (2, f"setback replay: no game 7 in {records}: games 0-2")


def test_a_table_too_wide_for_the_terminal_is_stacked_with_nothing_cut() -> None:
    """At 80 columns every value is printed whole, one ``column: value`` a line."""
    out = io.StringIO()
    columns = ["bot", "games", "wins", "win % (95% CI)", "points/hand", "net/hand", "bids made/set", "ms/decision"]
    rows = [["heuristic #1", "200", "151", "75.5 (69.1-81.0)", "1.633", "+1.500", "110/21", "0.07"],
            ["random #2", "200", "49", "24.5 (19.0-30.9)", "0.878", "-0.600", "50/120", "0.05"]]
    print_rows(Console(file=out, width=80), "200 games, seed 1", columns, rows, left={"bot"})
    text = out.getvalue()
    assert "…" not in text
    assert max(len(line) for line in text.splitlines()) <= 80
    for row in rows:
        for column, value in zip(columns, row, strict=True):
            assert f"{column}: {value}" in text


def test_a_table_that_fits_stays_a_table() -> None:
    out = io.StringIO()
    print_rows(Console(file=out, width=80), "ratings", ["#", "player"], [["1", "ada"]], left={"player"})
    assert "player: ada" not in out.getvalue()
    assert "ada" in out.getvalue()


def test_match_help_names_only_the_options_match_has(capsys: pytest.CaptureFixture[str]) -> None:
    """`match` has no `--bots`: its help must not tell of one."""
    with pytest.raises(SystemExit):
        main(["match", "--help"])
    assert "--bots" not in capsys.readouterr().out


REFUSED_COMBINATIONS = [
    (("--variant", "pedro", "--teams", "0"), ("--variant", "--teams", "pedro")),
    (("--variant", "ten_point", "--min-bid", "2"), ("--variant", "--min-bid", "min_bid 2")),
]
COMMANDS_WITH_TABLES = [
    ("match", "heuristic", "random"),
    ("watch", "heuristic", "random"),
    ("tournament", "heuristic", "random"),
    ("play", "--bots", "1"),
    ("bot", "random", "--create", "--server", "127.0.0.1:9"),
]


@pytest.mark.parametrize("command", COMMANDS_WITH_TABLES, ids=lambda c: c[0])
@pytest.mark.parametrize(("flags", "named"), REFUSED_COMBINATIONS, ids=["pedro-cutthroat", "ten_point-min_bid"])
def test_a_refused_combination_of_table_options_names_both(
    capsys: pytest.CaptureFixture[str], command: tuple[str, ...], flags: tuple[str, ...], named: tuple[str, ...]
) -> None:
    """RULES.md refuses a cutthroat pedro table and ten_point with --min-bid 2: every command that
    makes a table says so in one line naming both options, with status 2, before it starts anything."""
    code, line = fails(capsys, *command, *flags)
    assert code == 2
    assert all(word in line for word in named), line
