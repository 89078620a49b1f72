"""Games told on the command line: ``watch`` at a pace with suit symbols, and ``history`` and
``replay`` marking the moves the server made when a player's clock ran out."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from clocks import ManualClock, TimedClient
from test_match_cli import run_cli
from wire import running_server


def test_watch_tells_the_cards_with_their_suits_symbols_or_in_letters(capsys: pytest.CaptureFixture[str]) -> None:
    """As the client draws them: ``10♥``; with ``--ascii``, ``10H`` and no symbol at all."""
    told = run_cli(capsys, "watch", "--seed", "4")
    assert any(symbol in told for symbol in "♣♦♥♠")
    assert "Trick 1: " in told and not any(f"{rank}{suit} " in told for rank in "AKQJ" for suit in "CDHS")
    letters = run_cli(capsys, "watch", "--seed", "4", "--ascii")
    assert not any(symbol in letters for symbol in "♣♦♥♠")
    assert letters.count("\n") == told.count("\n")


def test_watch_waits_its_pace_between_lines_but_not_for_json(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--pace S`` waits S seconds after each line told (none when the output is not a terminal
    and no pace is asked); ``--json`` prints the record at once."""
    waits: list[float] = []
    monkeypatch.setattr(time, "sleep", waits.append)
    told = run_cli(capsys, "watch", "--seed", "4", "--pace", "0.25")
    assert waits and set(waits) == {0.25}
    assert len(waits) == sum(1 for line in told.splitlines() if line.strip())
    waits.clear()
    run_cli(capsys, "watch", "--seed", "4")  # captured: not a terminal
    assert waits == []
    json.loads(run_cli(capsys, "watch", "--seed", "4", "--pace", "0.25", "--json"))
    assert waits == []


async def a_game_on_the_clock(db: Path) -> None:
    """A smudge game of two, one seat a person who never answers: the clock moves for them."""
    async with running_server(clock := ManualClock(), db=str(db)) as server:
        player = await TimedClient.on(server, clock)
        await player.hello("ada", kind="human")
        await player.send(type="create_table", id=1, rules={"players": 2, "target": 7, "smudge": True},
                          bots=["random"], clock={"decision_seconds": 0.02, "bot_after_timeouts": None})
        table = (await player.expect("table", id=1))["table"]["table"]
        await player.send(type="join", id=2, table=table, ready=True)
        await player.expect("game_over", timeout=60)
        await player.close()


async def test_history_and_replay_mark_the_moves_the_clock_made(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``history`` marks a player whose clock ran out (and says how often in its JSON), names
    every rule the table had, smudge too; ``replay`` marks each move the server made for them."""
    db = tmp_path / "club.sqlite3"
    await a_game_on_the_clock(db)
    (game,) = json.loads(run_cli(capsys, "history", "--db", str(db), "--json"))
    assert game["timed_out"]["ada"] > 0 and "random-0" not in game["timed_out"]
    listed = run_cli(capsys, "history", "--db", str(db))
    assert "ada+" in listed and "+: their clock ran out" in listed
    assert "to 7" in listed and "smudge" in listed
    told = run_cli(capsys, "replay", str(game["game_id"]), "--db", str(db))
    marked = [line for line in told.splitlines() if "(timed out)" in line]
    assert marked and all("ada" in line for line in marked)
    assert sum(line.count("(timed out)") for line in marked) == game["timed_out"]["ada"]
    out = tmp_path / "game.jsonl"
    run_cli(capsys, "export", str(game["game_id"]), "--db", str(db), "--out", str(out))
    from_file = run_cli(capsys, "replay", "--file", str(out), str(game["game_id"]))
    assert from_file.count("(timed out)") == game["timed_out"]["ada"]
