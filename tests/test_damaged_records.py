"""A records file damaged in one place: the server and the reading commands go on with the rest."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import structlog
from test_durability import next_decide
from test_server_errors import greeted
from wire import RawClient, play_until_over

from setback.server.app import Server
from setback.server.config import ServerConfig


def _journal_rows(raw: sqlite3.Connection, game_id: int) -> list[tuple[int, list[list[Any]]]]:
    """The journal turns holding an action of ``game_id``: each turn and its entries."""
    rows = [(turn, json.loads(text)) for turn, text in raw.execute("SELECT turn, actions FROM journal ORDER BY turn")]
    return [(turn, entries) for turn, entries in rows if any(entry[0] == game_id for entry in entries)]


def _bad_card(raw: sqlite3.Connection, game_id: int) -> None:
    turn, entries = _journal_rows(raw, game_id)[-1]
    entries[0][2] = "play ZZ"
    raw.execute("UPDATE journal SET actions = ? WHERE turn = ?", (json.dumps(entries), turn))


def _journal_cut_short(raw: sqlite3.Connection, game_id: int) -> None:
    turn, entries = _journal_rows(raw, game_id)[-1]
    text = json.dumps(entries)
    raw.execute("UPDATE journal SET actions = ? WHERE turn = ?", (text[: len(text) // 2], turn))


def _rules_cut_short(raw: sqlite3.Connection, game_id: int) -> None:
    raw.execute("UPDATE games SET rules = substr(rules, 1, 10) WHERE id = ?", (game_id,))


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


Damage = Callable[[sqlite3.Connection, int], None]
DAMAGES: dict[str, Damage] = {
    "a bad card in the journal": _bad_card,
    "a journal row cut short": _journal_cut_short,
    "the game's rules cut short": _rules_cut_short,
    "a changed seed": _seed_changed,
    "table options that do not go together": _bad_options,
    "table options cut short": _options_cut_short,
}


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


@pytest.mark.parametrize("damage", DAMAGES.values(), ids=DAMAGES.keys())
async def test_a_table_whose_records_are_damaged_comes_back_broken_and_the_others_play_on(
    tmp_path: Path, damage: Damage
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
        assert named[0]["reason"]
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
