"""The file of seat tokens a client keeps, shared by every client and bot of one user."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from setback.link import seat_tokens
from setback.link.seat_tokens import SeatTokens

SERVER = "127.0.0.1:7777"

_KEEPER = """
import sys
from pathlib import Path
from setback.link.seat_tokens import SeatTokens
path, who, count = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
tokens = SeatTokens(path)
print("ready", flush=True)
sys.stdin.readline()  # every keeper starts at once
for number in range(count):
    tokens.keep("127.0.0.1:7777", f"{who}-{number}", f"token-{who}-{number}", f"t-{who}", number)
"""


def test_processes_keeping_tokens_at_once_lose_none_of_each_others(tmp_path: Path) -> None:
    """Bots sharing a data folder each keep their own seats' tokens at the same moments: every
    token each of them kept is in the file afterwards."""
    path = tmp_path / "seats.json"
    keepers, count = 6, 25
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", _KEEPER, str(path), f"bot{who}", str(count)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        for who in range(keepers)
    ]
    try:
        for process in processes:
            assert process.stdout is not None and process.stdout.readline() == "ready\n"
        for process in processes:
            assert process.stdin is not None
            process.stdin.write("go\n")
            process.stdin.flush()
        for process in processes:
            _, err = process.communicate(timeout=120)
            assert process.returncode == 0, err
            assert "seat_tokens_not_saved" not in err, err
    finally:
        for process in processes:
            process.kill()
    tokens = SeatTokens(path)
    lost = [
        (who, number) for who in range(keepers) for number in range(count)
        if tokens.token(SERVER, f"bot{who}-{number}") != f"token-bot{who}-{number}"
    ]
    assert lost == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["seats.json", "seats.json.lock"], "no temporary file is left"


def test_without_file_locks_tokens_are_kept_and_forgotten_all_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where there is no fcntl (Windows), one process's tokens are kept and forgotten as anywhere."""
    monkeypatch.setattr(seat_tokens, "fcntl", None)
    tokens = SeatTokens(tmp_path / "seats.json")
    tokens.keep(SERVER, "ada", "a-token", "t1", 0)
    tokens.keep(SERVER, "bob", "b-token", "t1", 1)
    tokens.forget(SERVER, "a-token")
    assert (tokens.token(SERVER, "ada"), tokens.token(SERVER, "bob")) == (None, "b-token")


def _keep_and_exit(path: Path, name: str, token: str, table: str, seat: int) -> None:
    """``token`` kept by a process that has ended since, as a killed bot leaves it."""
    subprocess.run(
        [sys.executable, "-c", "import sys; from pathlib import Path; from setback.link.seat_tokens import SeatTokens; "
         "path, name, token, table, seat = sys.argv[1:]; "
         "SeatTokens(Path(path)).keep('127.0.0.1:7777', name, token, table, int(seat))",
         str(path), name, token, table, str(seat)],
        check=True, timeout=60,
    )


def test_two_players_of_one_name_at_one_server_keep_a_seat_each(tmp_path: Path) -> None:
    """Two bots called ``twin`` at two tables keep two entries: asked with its table (as
    ``setback bot --table`` asks), each gets its own token back; asked with its seat too, only
    that seat's; asked with the name alone (as the text client asks), the newest."""
    path = tmp_path / "seats.json"
    _keep_and_exit(path, "twin", "first-token", "t1", 0)
    _keep_and_exit(path, "twin", "second-token", "t2", 1)
    tokens = SeatTokens(path)
    assert tokens.token(SERVER, "twin", "t1") == "first-token"
    assert tokens.token(SERVER, "twin", "t2") == "second-token"
    assert (tokens.token(SERVER, "twin", "t2", 0), tokens.token(SERVER, "twin", "t2", 1)) == (None, "second-token")
    assert tokens.token(SERVER, "twin") == "second-token"
    assert tokens.token(SERVER, "other") is None and tokens.token("127.0.0.1:7778", "twin") is None


def test_a_kept_token_is_taken_once_by_processes_started_at_once(tmp_path: Path) -> None:
    """Two kept seats of one name, two processes started again under that name: the one that
    asks first takes the newest seat's token, for as long as it runs, and the other takes the
    other seat's (not the same seat twice, which the server would give only one of them)."""
    path = tmp_path / "seats.json"
    _keep_and_exit(path, "twin", "first-token", "t1", 0)
    _keep_and_exit(path, "twin", "second-token", "t2", 1)
    taker = subprocess.Popen(
        [sys.executable, "-c", "import sys; from pathlib import Path; from setback.link.seat_tokens import SeatTokens; "
         "print(SeatTokens(Path(sys.argv[1])).token('127.0.0.1:7777', 'twin'), flush=True); sys.stdin.read()",
         str(path)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )
    try:
        assert taker.stdout is not None and taker.stdout.readline().strip() == "second-token"
        assert SeatTokens(path).token(SERVER, "twin") == "first-token"
    finally:
        taker.communicate("", timeout=30)


def test_a_token_kept_at_a_new_seat_is_forgotten_at_its_old_one(tmp_path: Path) -> None:
    """A token holds one seat at a time: kept at another table, its entry at the first goes;
    forgotten, it is gone from the file."""
    tokens = SeatTokens(tmp_path / "seats.json")
    tokens.keep(SERVER, "ada", "a-token", "t1", 0)
    tokens.keep(SERVER, "ada", "a-token", "t2", 2)
    assert (tokens.token(SERVER, "ada", "t1"), tokens.token(SERVER, "ada", "t2", 2)) == (None, "a-token")
    tokens.forget(SERVER, "a-token")
    assert tokens.token(SERVER, "ada") is None
