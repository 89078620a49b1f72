"""history, replay, export and leaderboard read back what a server recorded."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_match_cli import rescore, run_cli
from wire import RawClient, play_until_over, running_server

from setback.engine import replay_record


async def play_rated_games(db: Path, games: int) -> None:
    async with running_server(db=str(db)) as server:
        client = await RawClient.connect(server.port)
        await client.hello("ada", kind="human")
        await client.send(type="create_table", id=1, rules={"players": 2, "target": 7}, bots=["random"], rated=True)
        table = (await client.expect("table", id=1))["table"]["table"]
        await client.send(type="join", id=2, table=table, ready=True)
        await client.send(type="chat", text="good game", scope="lobby")
        for number in range(games):
            await play_until_over(client)
            if number + 1 < games:
                await client.send(type="ready", id=10 + number)
        await client.close()


async def test_records_can_be_listed_replayed_exported_and_ranked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "club.sqlite3"
    await play_rated_games(db, games=2)
    history = json.loads(run_cli(capsys, "history", "--db", str(db), "--json"))
    assert len(history) == 2
    assert all(set(h["players"]) == {"random-0", "ada"} for h in history)
    assert all(h["winners"] == [h["players"][h["winner_side"]]] for h in history)  # cutthroat: one a side
    listed = run_cli(capsys, "history", "--db", str(db))
    assert all(h["winners"][0] in listed and h["finished"][:10] in listed for h in history)
    assert "side " not in listed, "the winners by name, not by side number"
    first = min(h["game_id"] for h in history)
    told = run_cli(capsys, "replay", str(first), "--db", str(db))
    assert "Hand 1:" in told and "won the game" in told
    assert "Rules: 2 players · cutthroat · to 7 · 100 hands at most." in told  # the table names its options
    out = tmp_path / "games.jsonl"
    run_cli(capsys, "export", "--all", "--db", str(db), "--out", str(out))
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["server"]["game_id"] for r in records] == sorted(h["game_id"] for h in history)
    for record in records:
        assert rescore(record) == record["scores"]
        assert list(replay_record(record).scores) == record["scores"]
        assert record["players"] == ["random-0", "ada"]
    single = json.loads(run_cli(capsys, "export", str(first), "--db", str(db)))
    assert single["actions"] == records[0]["actions"]
    board = json.loads(run_cli(capsys, "leaderboard", "--db", str(db), "--json"))
    assert {row["player"] for row in board} == {"ada", "builtin:random"}
    assert all(row["games"] == 2 for row in board)
    assert sum(row["wins"] for row in board) == 2
    ratings = sorted(row["rating"] for row in board)
    assert ratings[0] < 1500 < ratings[1] or ratings == [1500.0, 1500.0]
    assert "ada" in run_cli(capsys, "leaderboard", "--db", str(db))


def test_records_commands_need_a_database(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        from setback.cli import main

        main(["history", "--db", str(tmp_path / "none.sqlite3")])
    assert exit_.value.code == 2
    assert "no records" in capsys.readouterr().err
