"""`setback serve` as a user runs it: a real process (with uvloop when installed), stopped by SIGTERM."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from wire import RawClient, play_until_over

from setback.cli import main


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def test_serve_plays_a_game_and_says_goodbye_on_sigterm(tmp_path: Path) -> None:
    port = free_port()
    db = tmp_path / "club.sqlite3"
    process = subprocess.Popen(
        [sys.executable, "-m", "setback", "--log-json", "serve", "--no-advertise", "--host", "127.0.0.1",
         "--port", str(port),
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
    assert db.exists()


def test_serve_refuses_settings_out_of_range(capsys: pytest.CaptureFixture[str]) -> None:
    """A negative pause, pace or grace, or no connections at all, is a typing error: status 2, one line."""
    for flags in (
        ["--bot-table-pause", "-1"], ["--bot-table-pace", "-0.5"], ["--reconnect-grace", "-5"],
        ["--max-connections", "0"],
    ):
        with pytest.raises(SystemExit) as exit_:
            main(["serve", "--db", ":memory:", "--no-advertise", *flags])
        assert exit_.value.code == 2
        assert "at least" in capsys.readouterr().err
