"""A records file damaged in one place: the server and the reading commands go on with the rest."""

from __future__ import annotations

import asyncio
import json
import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import structlog
from test_durability import next_decide
from test_records_cli import play_rated_games
from test_server_errors import greeted
from wire import RawClient, play_until_over

from setback.cli import main
from setback.server.app import Server
from setback.server.config import ServerConfig
from setback.server.history import export_records
from setback.server.store import Store


def _journal_rows(raw: sqlite3.Connection, game_id: int) -> list[tuple[int, list[list[Any]]]]:
    """The journal turns holding an action of ``game_id``: each turn and its entries."""
    rows = [(turn, json.loads(text)) for turn, text in raw.execute("SELECT turn, actions FROM journal ORDER BY turn")]
    return [(turn, entries) for turn, entries in rows if any(entry[0] == game_id for entry in entries)]


def _bad_card(raw: sqlite3.Connection, game_id: int) -> None:
    turn, entries = _journal_rows(raw, game_id)[-1]
    next(entry for entry in entries if entry[0] == game_id)[2] = "play ZZ"
    raw.execute("UPDATE journal SET actions = ? WHERE turn = ?", (json.dumps(entries), turn))


def _journal_cut_short(raw: sqlite3.Connection, game_id: int) -> None:
    turn, entries = _journal_rows(raw, game_id)[-1]
    text = json.dumps(entries)
    raw.execute("UPDATE journal SET actions = ? WHERE turn = ?", (text[: len(text) // 2], turn))


def _rules_cut_short(raw: sqlite3.Connection, game_id: int) -> None:
    raw.execute("UPDATE games SET rules = substr(rules, 1, 10) WHERE id = ?", (game_id,))


def _rules_that_are_not(raw: sqlite3.Connection, game_id: int) -> None:
    raw.execute("UPDATE games SET rules = json_set(rules, '$.players', 9) WHERE id = ?", (game_id,))


def _seed_changed(raw: sqlite3.Connection, game_id: int) -> None:
    raw.execute("UPDATE games SET seed = seed + 1 WHERE id = ?", (game_id,))


def _bad_options(raw: sqlite3.Connection, game_id: int) -> None:
    raw.execute(
        "UPDATE tables SET options = json_set(options, '$.rules.players', 9) "
        "WHERE id = (SELECT table_id FROM games WHERE id = ?)", (game_id,)
    )


def _options_cut_short(raw: sqlite3.Connection, game_id: int) -> None:
    raw.execute(
        "UPDATE tables SET options = substr(options, 1, 12) WHERE id = (SELECT table_id FROM games WHERE id = ?)",
        (game_id,),
    )


def _number_not_a_number(raw: sqlite3.Connection, game_id: int) -> None:
    raw.execute("UPDATE tables SET number = 'one' WHERE id = (SELECT table_id FROM games WHERE id = ?)", (game_id,))


Damage = Callable[[sqlite3.Connection, int], None]
DAMAGES: dict[str, tuple[Damage, str]] = {
    "a bad card in the journal": (_bad_card, "not a card: 'ZZ'"),
    "a journal row cut short": (_journal_cut_short, "journal turn"),
    "the game's rules cut short": (_rules_cut_short, "rules: "),
    "a changed seed": (_seed_changed, "by seat"),
    "table options that do not go together": (_bad_options, "players must be 2 to 7, not 9"),
    "table options cut short": (_options_cut_short, "options: "),
    "a table number that is not a number": (_number_not_a_number, "$.number"),
}
"""Each way of damaging a game's records, and what the log's reason then says."""


async def _server(db: Path, **settings: Any) -> Server:
    server = Server(ServerConfig(host="127.0.0.1", port=0, db=str(db), **settings))
    await server.start()
    return server


async def _duel(port: int, seed: int) -> tuple[list[RawClient], list[str], str]:
    """Two players seated at a new seeded table of two, without a clock: the clients, their tokens, the table."""
    clients = [await greeted(port, f"p{seed}-{seat}") for seat in range(2)]
    await clients[0].send(type="create_table", id=1, rules={"players": 2}, seed=seed, clock={"decision_seconds": None})
    table = (await clients[0].expect("table", id=1))["table"]["table"]
    tokens = []
    for seat, client in enumerate(clients):
        await client.send(type="join", id=2, table=table, seat=seat, ready=True)
        tokens.append((await client.expect("joined", id=2))["token"])
    return clients, tokens, table


async def _act(clients: list[RawClient], times: int) -> None:
    """Answer ``times`` decisions with the first legal action, then wait until the server has taken the last."""
    for _ in range(times):
        seat, decide = await next_decide(clients, [])
        await clients[seat].send(type="act", request=decide["request"], action=decide["view"]["legal"][0])
    for client in clients:  # a round trip each: every act before it is recorded
        await client.send(type="ping", id="sync", nonce=1)
        await client.expect("pong", id="sync")


async def _two_unfinished_games(db: Path) -> tuple[str, int, str, list[str]]:
    """A records file with two tables whose games are in play, each at its own journal turns
    (the one to be damaged first): the damaged-to-be table and its game, the other table
    and its players' tokens."""
    server = await _server(db)
    damaged, _, damaged_id = await _duel(server.port, seed=3)
    await _act(damaged, 10)
    game_id = server.lobby.tables[damaged_id].game_id
    healthy, tokens, healthy_id = await _duel(server.port, seed=5)
    await _act(healthy, 4)
    await server.stop()
    for client in (*damaged, *healthy):
        await client.close()
    assert game_id is not None
    return damaged_id, game_id, healthy_id, tokens


async def _back(port: int, tokens: list[str]) -> list[RawClient]:
    """The players of a restored table, back in their seats with their tokens."""
    clients = []
    for token in tokens:
        client = await greeted(port, "back", token=token)
        await client.expect("joined")
        clients.append(client)
    return clients


@pytest.mark.parametrize(("damage", "why"), DAMAGES.values(), ids=DAMAGES.keys())
async def test_a_table_whose_records_are_damaged_comes_back_broken_and_the_others_play_on(
    tmp_path: Path, damage: Damage, why: str
) -> None:
    """One unfinished game's records damaged: the server starts, names the table, its game and
    why in the log, lists the table as broken, and every other table plays on."""
    db = tmp_path / "club.sqlite3"
    damaged_id, game_id, healthy_id, tokens = await _two_unfinished_games(db)
    with sqlite3.connect(db) as raw:
        damage(raw, game_id)
    with structlog.testing.capture_logs() as logs:
        server = await _server(db)
    try:
        named = [e for e in logs if e["event"] == "table_not_restored"]
        assert [(e["table"], e["game"]) for e in named] == [(damaged_id, game_id)]
        assert why in named[0]["reason"]
        lobby = await greeted(server.port, "lobby")
        await lobby.send(type="list_tables", id=1)
        listed = {t["table"]: t["status"] for t in (await lobby.expect("tables", id=1))["tables"]}
        assert listed == {damaged_id: "broken", healthy_id: "playing"}
        players = await _back(server.port, tokens)
        finals = await asyncio.gather(*(play_until_over(client) for client in players))
        assert finals[0]["event"]["outcome"] == finals[1]["event"]["outcome"]
        for client in (lobby, *players):
            await client.close()
    finally:
        await server.stop()


async def test_a_table_that_cannot_be_restored_keeps_its_records_for_the_next_start(tmp_path: Path) -> None:
    """The server records nothing over a table it could not restore (it does not close it, nor
    end its game): once the file is repaired, the next start brings the table back."""
    db = tmp_path / "club.sqlite3"
    damaged_id, game_id, _, _ = await _two_unfinished_games(db)
    with sqlite3.connect(db) as raw:
        turn, entries = _journal_rows(raw, game_id)[-1]
        _bad_card(raw, game_id)
    server = await _server(db)
    assert server.lobby.tables[damaged_id].status == "broken"
    await server.stop()
    with sqlite3.connect(db) as raw:
        assert raw.execute("SELECT closed FROM tables WHERE id = ?", (damaged_id,)).fetchone() == (None,)
        assert raw.execute("SELECT last_move FROM games WHERE id = ?", (game_id,)).fetchone() == (None,)
        raw.execute("UPDATE journal SET actions = ? WHERE turn = ?", (json.dumps(entries), turn))
    server = await _server(db)
    try:
        table = server.lobby.tables[damaged_id]
        assert (table.status, table.game_id) == ("playing", game_id)
    finally:
        await server.stop()


@pytest.fixture(scope="module")
def three_games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A server's records of three finished games (copy it before damaging it)."""
    db = tmp_path_factory.mktemp("records") / "club.sqlite3"
    asyncio.run(play_rated_games(db, games=3))
    return db


def _damaged_copy(three_games: Path, tmp_path: Path, damage: Damage) -> tuple[Path, list[int]]:
    """A copy of the three games' records with the second damaged: the copy, and the games' ids."""
    db = tmp_path / "club.sqlite3"
    shutil.copy(three_games, db)
    with sqlite3.connect(db) as raw:
        games = [game_id for (game_id,) in raw.execute("SELECT id FROM games ORDER BY id")]
        damage(raw, games[1])
    return db, games


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[object, str, str]:
    """Run the command line: its exit status, stdout and stderr."""
    capsys.readouterr()
    with pytest.raises(SystemExit) as exit_:
        main(list(argv))
    out, err = capsys.readouterr()
    return exit_.value.code, out, err


def _named(err: str, game_id: int) -> list[str]:
    """The lines on stderr that name ``game_id`` as a game that could not be read."""
    return [line for line in err.splitlines() if "game_unreadable" in line and f"game={game_id}" in line]


UNREADABLE = {"the game's rules cut short": _rules_cut_short, "rules that are not rules": _rules_that_are_not}


@pytest.mark.parametrize("damage", UNREADABLE.values(), ids=UNREADABLE.keys())
def test_history_lists_the_games_it_can_read_and_names_the_one_it_cannot(
    three_games: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], damage: Damage
) -> None:
    """`setback history` names a damaged game in one line on stderr, lists the others, and
    exits with status 0."""
    db, (first, damaged, last) = _damaged_copy(three_games, tmp_path, damage)
    code, out, err = _run(capsys, "history", "--db", str(db), "--json")
    assert code == 0
    assert [row["game_id"] for row in json.loads(out)] == [last, first]
    assert len(_named(err, damaged)) == 1


EXPORT_DAMAGES = {"a bad card in the journal": _bad_card, "the game's rules cut short": _rules_cut_short}


@pytest.mark.parametrize("damage", EXPORT_DAMAGES.values(), ids=EXPORT_DAMAGES.keys())
def test_exporting_every_game_writes_those_that_replay_and_names_the_one_that_does_not(
    three_games: Path, tmp_path: Path, damage: Damage
) -> None:
    """The records `export --all` writes: every game but the damaged one, which the log names."""
    db, (first, damaged, last) = _damaged_copy(three_games, tmp_path, damage)
    with structlog.testing.capture_logs() as logs:
        records = list(export_records(Store(db)))
    assert [record["server"]["game_id"] for record in records] == [first, last]
    assert [(e["event"], e["game"]) for e in logs] == [("game_unreadable", damaged)]


def test_replaying_a_game_whose_actions_do_not_replay_names_it(
    three_games: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`setback replay GAME_ID` of a damaged game says which game cannot be read, and why."""
    db, (_, damaged, _) = _damaged_copy(three_games, tmp_path, _bad_card)
    code, _, err = _run(capsys, "replay", str(damaged), "--db", str(db))
    assert code == 2
    assert f"game {damaged} at table t1 cannot be read: action " in err and "'play ZZ'" in err
