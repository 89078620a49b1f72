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
    tokens.keep("127.0.0.1:7777", f"{who}-{number}", f"token-{who}-{number}")
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
    tokens.keep(SERVER, "ada", "a-token")
    tokens.keep(SERVER, "bob", "b-token")
    tokens.forget(SERVER, "ada")
    assert (tokens.token(SERVER, "ada"), tokens.token(SERVER, "bob")) == (None, "b-token")
