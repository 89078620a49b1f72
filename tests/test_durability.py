"""A real `setback serve` killed with SIGKILL at random moments and restarted on its database:
every unfinished game comes back where it was, players reconnect with their tokens, and no
finished hand, score or chat line is lost."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
from collections import Counter
from contextlib import closing, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from test_serve_cli import free_port
from wire import RawClient

from setback.engine import Game, HandScored, Rules, Variant, parse_action


class ServeProcess:
    def __init__(self, db: Path, port: int) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "setback", "serve", "--no-advertise", "--no-web", "--host", "127.0.0.1",
             "--port", str(port),
             "--db", str(db),
             "--reconnect-grace", "60"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        self.port = port

    async def connect(self) -> RawClient:
        for _ in range(200):
            try:
                return await RawClient.connect(self.port)
            except OSError:
                await asyncio.sleep(0.05)
        raise AssertionError("the server did not come up")

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)


async def reconnect(
    server: ServeProcess, token: str, version: str = "1.0", **hello: Any
) -> tuple[RawClient, dict[str, Any] | None, dict[str, Any] | None]:
    """Hello with the token: joined, the snapshot (None between two games: a server started
    again brings back no finished game) and (if to act) the decision."""
    client = await server.connect()
    await client.send(type="hello", version=version, name="back", kind="bot", token=token, **hello)
    welcome = await client.expect("welcome")
    assert welcome["token"] == token
    await client.expect("joined")
    await client.send(type="ping", nonce=1)
    await client.expect("pong", nonce=1)  # after whatever the hello brought
    snapshot, decide = _taken(client, "snapshot"), _taken(client, "decide")
    assert (decide is not None) == (snapshot is not None and snapshot["view"]["to_act"] == snapshot["view"]["seat"])
    return client, snapshot, decide


def _taken(client: RawClient, type_: str) -> dict[str, Any] | None:
    """The message of ``type_`` :meth:`RawClient.expect` passed over, taken out; None if none was."""
    found = next((m for m in client.backlog if m["type"] == type_), None)
    if found is not None:
        client.backlog.remove(found)
    return found


async def next_decide(clients: list[RawClient], played: list[str]) -> tuple[int, dict[str, Any]]:
    """The next decision at the table; a finished game is followed by another (both say ready)."""
    while True:
        for seat, client in enumerate(clients):
            try:
                message = await client.expect("decide", timeout=0.05)
            except TimeoutError:
                over = [m for m in client.backlog if m["type"] == "game_over"]
                for m in over:
                    client.backlog.remove(m)
                    await client.send(type="ready")
                    if seat == 0:
                        played.clear()
                continue
            return seat, message


async def kill_and_restart_cycles(
    tmp_path: Path, cycles: int, seed: int, variant: str = "standard", version: str = "1.0"
) -> int:
    """Play, kill, restart, reconnect, check (at a table of ``variant``, clients announcing
    ``version``); returns the cycles survived."""
    rng = random.Random(seed)
    db = tmp_path / "club.sqlite3"
    port = free_port()
    server = ServeProcess(db, port)
    clients = [await server.connect() for _ in range(2)]
    for i, client in enumerate(clients):
        await client.hello(f"player{i}", version=version)
    rules = {"players": 2, "target": 21, "hand_limit": None, "variant": variant}
    await clients[0].send(type="create_table", id=1, rules=rules, clock={"decision_seconds": None})
    table = (await clients[0].expect("table", id=1))["table"]["table"]
    tokens = []
    for seat, client in enumerate(clients):
        await client.send(type="join", id=2, table=table, seat=seat, ready=True)
        tokens.append((await client.expect("joined", id=2))["token"])
    played: list[str] = []
    chats: list[str] = []
    pending: dict[int, dict[str, Any]] = {}
    survived = 0
    try:
        for cycle in range(cycles):
            for _ in range(rng.randrange(3, 30)):
                seat, decide = pending.popitem() if pending else await next_decide(clients, played)
                action = rng.choice(decide["view"]["legal"])
                await clients[seat].send(type="act", request=decide["request"], action=action)
                played.append(action)
                if rng.random() < 0.15:
                    text = f"chat {cycle}-{len(played)}"
                    await clients[seat].send(type="chat", text=text, scope="lobby")
                    await clients[1 - seat].expect("chat", text=text)
                    chats.append(text)
            acknowledged = cycle % 2 == 0
            if acknowledged:  # wait until the last act's consequence is seen: it must survive
                seat, decide = await next_decide(clients, played)
                pending = {seat: decide}
            server.kill()  # otherwise: at once, maybe before the last act was even read
            for client in clients:
                await client.close()
            saved = _actions_of(db)
            assert saved == played or (not acknowledged and saved == played[:-1]), (saved[-3:], played[-3:])
            played = saved
            server = ServeProcess(db, port)
            restored = [await reconnect(server, token, version) for token in tokens]
            clients = [client for client, _, _ in restored]
            pending = {seat: decide for seat, (_, _, decide) in enumerate(restored) if decide is not None}
            if all(snapshot is None for _, snapshot, _ in restored):
                for client in clients:  # killed between two games: start the next one
                    await client.send(type="ready")
                played = []
                survived += 1
                continue
            assert len(pending) == 1, "exactly one seat is asked to act after a restart"
            game = Game(Rules(players=2, target=21, hand_limit=None, variant=Variant(variant)), _seed_of(db))
            for text in played:
                game.apply(parse_action(text))
            assert game.to_act in pending
            for seat, (_, snapshot, _) in enumerate(restored):
                assert snapshot is not None, "an unfinished game comes back"
                view, truth = snapshot["view"], game.view(seat)
                assert view["hand"] == [str(c) for c in truth.hand]
                assert view["scores"] == list(truth.scores)
                assert view["hand_number"] == truth.hand_number
                assert [t["cards"] for t in view["tricks"]] == [[str(p.card) for p in t.plays] for t in truth.tricks]
                assert [p["card"] for p in view["trick"]] == [str(p.card) for p in truth.trick]
            survived += 1
    finally:
        server.kill()
        for client in clients:
            await client.close()
    with sqlite3.connect(db) as records:
        saved_chat = [r[0] for r in records.execute("SELECT text FROM chat ORDER BY id")]
        saved_hands = [r[0] for r in records.execute(
            "SELECT number FROM hands WHERE game_id = (SELECT MAX(id) FROM games) ORDER BY number")]
    assert saved_chat == chats
    assert saved_hands == [e.result.hand_number for e in game.events if isinstance(e, HandScored)]
    return survived


def _actions_of(db: Path) -> list[str]:
    """The actions of the newest game."""
    with sqlite3.connect(db) as records:
        game_id, first_move, sealed = records.execute(
            "SELECT id, first_move, actions FROM games ORDER BY id DESC LIMIT 1").fetchone()
        if sealed is not None:
            return [action for _, action, _ in json.loads(sealed)]
        return [action for (turn,) in records.execute(
            "SELECT actions FROM journal WHERE turn >= ? ORDER BY turn", (first_move,))
            for owner, _, action, _ in json.loads(turn) if owner == game_id]


def _seed_of(db: Path) -> int:
    with sqlite3.connect(db) as records:
        return int(records.execute("SELECT seed FROM games ORDER BY id DESC LIMIT 1").fetchone()[0])


async def test_sigkill_and_restart_lose_nothing(tmp_path: Path) -> None:
    assert await kill_and_restart_cycles(tmp_path, cycles=8, seed=11) == 8


async def test_sigkill_and_restart_at_a_variant_table_lose_nothing(tmp_path: Path) -> None:
    """A ten_point table (jokers, the off-jack) comes back after kills as it was, for 1.4 clients."""
    assert await kill_and_restart_cycles(tmp_path, cycles=4, seed=12, variant="ten_point", version="1.4") == 4


@pytest.mark.soak
async def test_sigkill_soak(tmp_path: Path) -> None:
    """Many more kill-restart cycles: ``pytest -m soak``."""
    for seed in range(int(os.environ.get("SETBACK_SOAK_RUNS", "5"))):
        assert await kill_and_restart_cycles(tmp_path / str(seed), cycles=40, seed=seed) == 40


BUSY_TABLES = 40

Kept = dict[tuple[str, int], tuple[dict[str, Any] | None, list[dict[str, Any]]]]
"""Every game in the records, by table and number: its outcome (None while it is unfinished)
and its hands' results in order."""


@dataclass
class Told:
    """What the server told the bots at the busy tables (each table's seat 0 takes events)."""

    games: dict[tuple[str, int], dict[str, Any]] = field(default_factory=dict)
    """Each ``game_over``'s outcome, by table and game number."""
    hands: dict[tuple[str, int, int], dict[str, Any]] = field(default_factory=dict)
    """Each ``hand_scored``'s result, by table, game number and hand number."""
    playing: dict[str, int] = field(default_factory=dict)
    """The number of each table's game in play."""
    asked: Counter[str] = field(default_factory=Counter)
    """Decisions asked at each table since the last restart."""
    errors: list[dict[str, Any]] = field(default_factory=list)
    decisions: int = 0
    came_back: int = 0
    """Unfinished games a restart brought back."""
    between_games: int = 0
    """Tables a restart found between two games."""


async def _play_on(
    client: RawClient, table: str, told: Told, rng: random.Random, decide: dict[str, Any] | None
) -> None:
    """A bot: a random legal action for every decision (``decide`` first, if any), ready
    after every game, noting what the server tells, until the connection dies with the server."""
    message = decide
    with suppress(ConnectionError):
        while True:
            message = message or await client.read(30)
            match message:
                case {"type": "decide", "request": request, "view": {"legal": legal}}:
                    told.asked[table] += 1
                    told.decisions += 1
                    await client.send(type="act", request=request, action=rng.choice(legal))
                case {"type": "game_started", "game": number}:
                    told.playing[table] = number
                case {"type": "game_over", "game": number, "outcome": outcome}:
                    told.games[table, number] = outcome
                    await client.send(type="ready")
                case {"type": "event", "event": {"kind": "hand_scored", "result": result}}:
                    told.hands[table, told.playing[table], result["hand_number"]] = result
                case {"type": "error"}:
                    told.errors.append(message)
            message = None


def _kept(db: Path) -> Kept:
    """The records' games and hands; each game's hands are numbered 1, 2, ... and a finished
    game has every hand it dealt."""
    with closing(sqlite3.connect(db)) as records:
        games = {gid: (table, number, outcome) for gid, table, number, outcome in records.execute(
            "SELECT id, table_id, number, outcome FROM games")}
        hands: dict[int, list[dict[str, Any]]] = {gid: [] for gid in games}
        for gid, number, result in records.execute("SELECT game_id, number, result FROM hands ORDER BY 1, 2"):
            hands[gid].append(json.loads(result))
            assert number == len(hands[gid]) == hands[gid][-1]["hand_number"], f"game {gid} lost a hand before {number}"
    kept: Kept = {}
    for gid, (table, number, saved) in games.items():
        outcome = json.loads(saved) if saved else None
        assert outcome is None or outcome["hands_dealt"] == len(hands[gid]), f"game {gid} lost its last hand"
        kept[table, number] = (outcome, hands[gid])
    return kept


def _check_told(kept: Kept, told: Told) -> None:
    """Every game and hand result the server told is in the records as it was told."""
    for (table, number), outcome in told.games.items():
        assert kept[table, number][0] == outcome, f"{table} game {number}: told {outcome}"
    for (table, number, hand), result in told.hands.items():
        hands = kept[table, number][1]
        assert len(hands) >= hand and hands[hand - 1] == result, f"{table} game {number} hand {hand}: told {result}"


async def _seat_busy_tables(server: ServeProcess) -> dict[str, list[tuple[RawClient, str]]]:
    """:data:`BUSY_TABLES` tables of four bots, their games under way: each table's seats
    (connection and token)."""
    tables: dict[str, list[tuple[RawClient, str]]] = {}
    for index in range(BUSY_TABLES):
        clients = [await server.connect() for _ in range(4)]
        for seat, client in enumerate(clients):
            await client.hello(f"t{index}s{seat}", events=seat == 0)
        await clients[0].send(type="create_table", id=1, clock={"decision_seconds": None})
        table = (await clients[0].expect("table", id=1))["table"]["table"]
        tables[table] = []
        for seat, client in enumerate(clients):
            await client.send(type="join", id=2, table=table, seat=seat, ready=True)
            tables[table].append((client, (await client.expect("joined", id=2))["token"]))
    return tables


async def _come_back(
    server: ServeProcess, table: str, tokens: list[str], kept: Kept, told: Told
) -> list[tuple[RawClient, dict[str, Any] | None]]:
    """The table's four bots back with their tokens, each with its pending decision: its
    unfinished game is where the records left it, or it is between games and starts the next."""
    restored = await asyncio.gather(*(reconnect(server, token, events=seat == 0) for seat, token in enumerate(tokens)))
    in_play = [number for (t, number), (outcome, _) in kept.items() if t == table and outcome is None]
    if in_play:
        (number,) = in_play
        told.playing[table], told.came_back = number, told.came_back + 1
        hands = kept[table, number][1]
        asked = [seat for seat, (_, _, decide) in enumerate(restored) if decide is not None]
        assert len(asked) == 1, f"{table}: one seat is asked to act after a restart, not {asked}"
        for _, snapshot, _ in restored:
            assert snapshot is not None, f"{table} game {number} came back"
            assert snapshot["view"]["hand_number"] == len(hands) + 1
            assert snapshot["view"]["scores"] == (hands[-1]["scores"] if hands else [0] * 4)
    else:
        told.between_games += 1
        for client, snapshot, _ in restored:
            assert snapshot is None, f"{table}: no game in play to show"
            await client.send(type="ready")
    return [(client, decide) for client, _, decide in restored]


async def kill_cycles_at_busy_tables(tmp_path: Path, cycles: int, seed: int) -> Told:
    """Busy tables play; the server is killed at a random moment, the records are checked
    against what it told, and it is started again on its file, ``cycles`` times. The moments
    come from ``seed`` alone; the bots' choices from a generator of their own, drawn from as
    the tables' timing falls."""
    moments, choices = random.Random(seed), random.Random(-seed)
    db, port = tmp_path / "club.sqlite3", free_port()
    server = ServeProcess(db, port)
    told = Told()
    bots: dict[str, list[tuple[RawClient, dict[str, Any] | None]]] = {}
    kept: Kept = {}
    try:
        seated = await _seat_busy_tables(server)
        tokens = {table: [token for _, token in seats] for table, seats in seated.items()}
        bots = {table: [(client, None) for client, _ in seats] for table, seats in seated.items()}
        for cycle in range(cycles):
            if cycle:
                server = ServeProcess(db, port)
                await (await server.connect()).close()  # up; then a table at a time, as 160 connects at once
                for table, seats in tokens.items():  # overflow the listen backlog (a dropped SYN costs 1 s)
                    bots[table] = await _come_back(server, table, seats, kept, told)
            told.asked.clear()
            playing = [asyncio.create_task(_play_on(client, table, told, choices, decide))
                       for table, seats in bots.items() for client, decide in seats]
            await asyncio.sleep(moments.uniform(0.2, 2.0))
            server.kill()
            await asyncio.gather(*playing)  # each bot reads to the end what the server sent
            for client, _ in (bot for seats in bots.values() for bot in seats):
                await client.close()
            assert told.errors == []
            slow = [table for table in tokens if told.asked[table] < 2]
            assert not slow, f"cycle {cycle}: these tables did not play on: {slow}"
            kept = _kept(db)
            _check_told(kept, told)
    finally:
        server.kill()
        for client, _ in (bot for seats in bots.values() for bot in seats):
            await client.close()
    return told


@pytest.mark.soak
async def test_kill_cycles_at_busy_tables_lose_no_result(tmp_path: Path) -> None:
    """``SETBACK_KILL_CYCLES`` (100) times, with 40 tables of four bots over TCP playing at
    once, the server is SIGKILLed at a moment drawn from a seeded generator and started again
    on its file: every game and hand result it had told before the kill is in the records,
    every game there has all its hands, and every unfinished game comes back where the
    records left it (the same hand, the same scores, one seat asked) and goes on."""
    cycles = int(os.environ.get("SETBACK_KILL_CYCLES", "100"))
    told = await kill_cycles_at_busy_tables(tmp_path, cycles, seed=23)
    print(f"\n{cycles} kill-restart cycles at {BUSY_TABLES} busy tables: {told.decisions:,} decisions, "
          f"{len(told.games)} games and {len(told.hands)} hands told, all in the records; "
          f"{told.came_back} unfinished games came back, {told.between_games} times a table was between games")
    assert told.hands, "hands were scored and told"


async def test_tables_nobody_came_to_do_not_outlive_a_crash(tmp_path: Path) -> None:
    """Killed while tables waited for their maker (gone with the server), the server started
    again closes them: nobody sat there or can come back."""
    db, port = tmp_path / "club.sqlite3", free_port()
    server = ServeProcess(db, port)
    maker = await server.connect()
    await maker.hello("maker")
    for i in range(3):
        await maker.send(type="create_table", id=i, rules={"players": 2}, bots=["random"])
        await maker.expect("table", id=i)
    server.kill()
    await maker.close()
    again = ServeProcess(db, port)
    try:
        lobby = await again.connect()
        await lobby.hello("lobby")
        await lobby.send(type="list_tables", id="l")
        assert (await lobby.expect("tables", id="l"))["tables"] == []
        await lobby.close()
    finally:
        again.kill()
