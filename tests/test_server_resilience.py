"""Clocks, reconnection, stand-in bots, hostile neighbours and a clean stop, over real sockets."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from clocks import ManualClock, TimedEndpoint, bots_done, noticed, run_for
from test_server_errors import greeted, start_duel
from wire import RawClient, play_until_over, running_server

from setback.commands.embedded import embedded_config
from setback.engine import Game, Rules, View, parse_action
from setback.protocol import Code
from setback.server.app import Server
from setback.server.config import ServerConfig
from setback.server.history import export_record, stood_in
from setback.server.store import BY_CLOCK, BY_PLAYER, Recorded, StoreInUseError


async def test_timeout_plays_the_lowest_legal_action_and_tells_everyone() -> None:
    async with running_server(clock := ManualClock()) as server:
        at = TimedEndpoint.of(server, clock)
        a, b, _ = await start_duel(at, clock={"decision_seconds": 0.2, "bot_after_timeouts": None})
        timed_out = await a.expect("event", timeout=5)
        while timed_out["event"]["kind"] != "timed_out":
            timed_out = await a.expect("event", timeout=5)
        game = Game(Rules(players=2), 3)
        assert timed_out["event"]["seat"] == game.to_act
        assert timed_out["event"]["action"] == str(game.legal_actions()[0])
        assert timed_out["event"]["timeouts"] == 1
        seen_by_b = await b.expect("event", timeout=5, event=timed_out["event"])
        assert seen_by_b["event"] == timed_out["event"]
        await a.close()
        await b.close()


async def test_a_connection_without_events_hears_of_no_timeout_either() -> None:
    """``events: false`` means no ``event`` message at all, ``timed_out`` included; the seat
    that timed out just gets its next ``decide``."""
    async with running_server(clock := ManualClock()) as server:
        quiet = await greeted(TimedEndpoint.of(server, clock), "quiet", events=False)
        loud = await greeted(TimedEndpoint.of(server, clock), "loud")
        await quiet.send(type="create_table", id=1, rules={"players": 2}, seed=3,
                         clock={"decision_seconds": 0.1, "bot_after_timeouts": None})
        table = (await quiet.expect("table", id=1))["table"]["table"]
        for seat, client in enumerate((quiet, loud)):
            await client.send(type="join", id=2, table=table, seat=seat, ready=True)
            await client.expect("joined", id=2)
        await loud.expect("event", timeout=5, event={"kind": "timed_out", "seat": Game(Rules(players=2), 3).to_act,
                                                      "action": "pass", "timeouts": 1})
        await quiet.send(type="ping", id="p", nonce=1)
        await quiet.expect("pong", id="p")
        assert not [m for m in quiet.received if m["type"] == "event"]
        await quiet.close()
        await loud.close()


async def test_repeated_timeouts_hand_the_seat_to_a_bot_and_the_game_ends() -> None:
    async with running_server(clock := ManualClock()) as server:
        at = TimedEndpoint.of(server, clock)
        a, b, table = await start_duel(at, clock={"decision_seconds": 0.05, "bot_after_timeouts": 2})
        final = await play_until_over(b)  # a never answers
        assert final["event"]["outcome"]["winner"] in {0, 1}
        await b.send(type="list_tables", id=9)
        tables = await b.expect("tables", id=9)
        seat_a = next(t for t in tables["tables"] if t["table"] == table)["seats"][0]
        assert seat_a["timeouts"] >= 2
        await a.close()
        await b.close()


async def test_taking_a_seat_back_from_its_stand_in_is_not_being_ready_for_the_next_game() -> None:
    async with running_server(clock := ManualClock()) as server:
        at = TimedEndpoint.of(server, clock)
        a, b, table = await start_duel(at, clock={"decision_seconds": 0.05, "bot_after_timeouts": 1})
        async with asyncio.timeout(10):  # a never answers: after one timeout a bot plays its seat
            while not (await b.expect("table"))["table"]["seats"][0]["replaced_by_bot"]:
                pass
        await a.send(type="ready", id=5)
        await a.expect("ok", id=5)
        await b.send(type="list_tables", id=6)
        seats = next(t for t in (await b.expect("tables", id=6))["tables"] if t["table"] == table)["seats"]
        assert not seats[0]["replaced_by_bot"] and not seats[0]["ready"]
        await a.close()
        await b.close()


async def test_disconnect_mid_trick_and_reconnect_with_the_token() -> None:
    async with running_server() as server:
        a, b, table = await start_duel(server.port)
        token = next(m for m in a.received if m["type"] == "joined")["token"]
        clients = [a, b]
        actions: list[str] = []
        # play until the first trick is half done
        while True:
            seat, decide = await _whose_decide(clients)
            view = decide["view"]
            if view["phase"] == "playing" and len(view["trick"]) == 1:
                break
            action = view["legal"][0]
            actions.append(action)
            await clients[seat].send(type="act", request=decide["request"], action=action)
        # the seat to act drops, comes back with its token, and gets the snapshot and the same request
        await clients[seat].close()
        back = await RawClient.connect(server.port)
        await back.send(type="hello", version="1.0", name="back", kind="bot", token=token if seat == 0 else
                        next(m for m in b.received if m["type"] == "joined")["token"])
        welcome = await back.expect("welcome")
        assert welcome["token"] in {token, next(m for m in b.received if m["type"] == "joined")["token"]}
        joined = await back.expect("joined")
        assert (joined["table"], joined["seat"]) == (table, seat)
        snapshot = await back.expect("snapshot")
        assert snapshot["view"]["trick"] == view["trick"] and snapshot["view"]["hand"] == view["hand"]
        again = await back.expect("decide")
        assert again["request"] == decide["request"]
        clients[seat] = back
        await back.send(type="act", request=again["request"], action=again["view"]["legal"][0])
        actions.append(again["view"]["legal"][0])
        finals = await asyncio.gather(*(play_until_over(c) for c in clients))
        # nothing of the game was lost: it is the game the engine plays with the same choices
        game = Game(Rules(players=2), 3)
        for text in actions:
            game.apply(parse_action(text))
        while not game.is_over:
            game.apply(game.legal_actions()[0])
        assert game.outcome is not None
        assert finals[0]["event"]["outcome"]["scores"] == list(game.outcome.scores)
        for client in clients:
            await client.close()


async def _whose_decide(clients: list[RawClient]) -> tuple[int, dict[str, Any]]:
    while True:
        for seat, client in enumerate(clients):
            try:
                return seat, await client.expect("decide", timeout=0.05)
            except TimeoutError:
                continue


async def test_garbage_and_floods_do_not_disturb_another_table() -> None:
    async with running_server() as server:
        players = [await greeted(server.port, f"p{i}") for i in range(4)]
        await players[0].send(type="create_table", id=1, rules={"players": 4}, seed=21)
        table = (await players[0].expect("table", id=1))["table"]["table"]
        for seat, client in enumerate(players):
            await client.send(type="join", id=2, table=table, seat=seat, ready=True)
            await client.expect("joined", id=2)

        async def attack() -> None:
            for round_ in range(30):
                vandal = await RawClient.connect(server.port)
                await vandal.send_raw(b"\x00\xff garbage {{{\n" + b'{"type":"act","request":1,"action":"x"}\n' * 50)
                await vandal.send_raw(bytes(range(256)) * 4 + b"\n")
                if round_ % 3 == 0:
                    await vandal.send_raw(b"z" * 40_000 + b"\n")
                await vandal.close()

        finals, _ = await asyncio.gather(asyncio.gather(*(play_until_over(c) for c in players)), attack())
        game = Game(Rules(players=4), 21)
        while not game.is_over:
            game.apply(game.legal_actions()[0])
        assert game.outcome is not None
        assert {json.dumps(f["event"]["outcome"]) for f in finals} == {
            json.dumps({"winner": game.outcome.winner, "reason": game.outcome.reason.value,
                        "hands_dealt": game.outcome.hands_dealt, "scores": list(game.outcome.scores)})
        }
        assert not any(m["type"] == "error" for c in players for m in c.received)
        for client in players:
            await client.close()


async def test_a_table_failure_stops_only_that_table() -> None:
    async with running_server() as server:
        a, b, broken_id = await start_duel(server.port)
        c, d, healthy_id = await start_duel(server.port)
        broken = server.lobby.tables[broken_id]

        def explode() -> None:
            raise RuntimeError("a bug in one table")

        broken.guard(explode)
        error = await a.expect("error")
        assert error["code"] == Code.INTERNAL
        assert broken.status == "broken"
        finals = await asyncio.gather(play_until_over(c), play_until_over(d))
        assert finals[0]["event"]["outcome"] == finals[1]["event"]["outcome"]
        assert server.lobby.tables[healthy_id].status == "finished"
        for client in (a, b, c, d):
            await client.close()


async def test_idle_connection_is_dropped_after_heartbeats() -> None:
    async with running_server(heartbeat=0.3, idle_timeout=1.0) as server:
        client = await greeted(server.port, "sleepy")
        ping = await client.expect("ping", timeout=5)
        assert "nonce" in ping
        error = await client.expect("error", timeout=5)
        assert error["code"] == Code.IDLE_TIMEOUT and error["fatal"]
        assert await client.closed()


async def test_answering_pings_keeps_a_connection_alive() -> None:
    async with running_server(heartbeat=0.2, idle_timeout=0.8) as server:
        client = await greeted(server.port, "awake")
        for _ in range(6):
            ping = await client.expect("ping", timeout=5)
            await client.send(type="pong", nonce=ping["nonce"])
        await client.send(type="ping", id="alive")
        assert (await client.expect("pong", id="alive"))["id"] == "alive"
        await client.close()


async def test_a_turn_reads_the_clock_once_for_its_lines_and_its_end_forgets_it() -> None:
    """The lines heard in one turn of the loop are heard at the time first read in it; reading it
    schedules the turn's end (the server's flush), after which the next turn reads it anew."""
    async with running_server() as server:
        outgoing = server.outgoing
        await asyncio.sleep(0)  # (a turn the server's start left unfinished ends)
        first = outgoing.heard_at()
        assert outgoing.turn_ends  # its end is scheduled
        while time.monotonic() <= first:  # the clock moves on within the turn
            pass
        assert outgoing.heard_at() == first
        await asyncio.sleep(0)  # the turn ends
        assert [outgoing.turn_ends, outgoing.heard_this_turn] == [False, False]
        assert outgoing.heard_at() > first


async def test_stop_says_goodbye_to_every_client() -> None:
    async with running_server() as server:
        client = await greeted(server.port, "leaving")
        await server.stop()
        goodbye = await client.expect("goodbye")
        assert "shutting down" in goodbye["reason"]
        assert await client.closed()


async def test_slow_reader_is_dropped_and_the_server_keeps_serving() -> None:
    quick = {"max_tables_awaiting_maker": 40, "message_burst": 10**6, "max_messages_per_second": 10**6}
    async with running_server(max_write_buffer=64 * 1024, **quick) as server:  # it asks fast: not a flood here
        slow = await greeted(server.port, "slow")
        for i in range(40):
            await slow.send(type="create_table", id=i, name=f"table {i}")
            await slow.expect("table", id=i)
        slow.writer.transport.pause_reading()  # type: ignore[attr-defined]
        with contextlib.suppress(ConnectionError):  # the server resets the slow connection
            for i in range(3000):  # each reply lists 40 tables; nobody reads them
                await slow.send(type="list_tables", id=i)
                if not any(c.name == "slow" for c in server.connections):
                    break
                await asyncio.sleep(0)
        await asyncio.sleep(0.2)
        assert not any(c.name == "slow" for c in server.connections)
        other = await greeted(server.port, "other")
        await other.send(type="list_tables", id=1)
        await other.expect("tables", id=1)
        await other.close()
        await slow.close()


async def test_a_table_whose_player_never_returns_closes_after_the_grace() -> None:
    async with running_server(clock := ManualClock(), reconnect_grace=0.3) as server:
        lobby = await greeted(TimedEndpoint.of(server, clock), "watcher")
        player = await greeted(server.port, "leaver")
        await player.send(type="create_table", id=1, rules={"players": 2})
        table = (await player.expect("table", id=1))["table"]["table"]
        await player.send(type="join", id=2, table=table)
        await player.expect("joined", id=2)
        await player.close()
        closed = await lobby.expect("table_closed", timeout=5)
        assert closed["table"] == table and table not in server.lobby.tables
        await lobby.close()


async def test_a_game_without_a_hand_limit_stops_once_nobody_plays_it() -> None:
    """Its stand-ins could play for ever: the table closes when its last player leaves and the
    game stays recorded as it stood. With a hand limit the stand-ins play the game out (at
    the bots' pace, none here)."""
    async with running_server(bot_table_pace=0) as server:
        lobby = await greeted(server.port, "watcher")
        for hand_limit in (None, 3):
            player = await greeted(server.port, f"leaver{hand_limit}")
            rules = {"players": 2, "hand_limit": hand_limit}
            await player.send(type="create_table", id=1, rules=rules, bots=["heuristic"])
            table_id = (await player.expect("table", id=1))["table"]["table"]
            await player.send(type="join", id=2, table=table_id, ready=True)
            await player.expect("game_started", timeout=5)
            table = server.lobby.tables[table_id]
            await player.send(type="leave", id=3)
            await player.expect("left", id=3)
            await lobby.expect("table_closed", timeout=30, table=table_id)
            assert table.game is not None and table.game.is_over == (hand_limit is not None)
            await server.settle()
            game = server.store.game(table.game_id or 0)
            assert game is not None and (game.finished is not None) == (hand_limit is not None)
            assert [text for _, text, _ in game.actions] == [str(a) for a in table.game.actions]
            if hand_limit is not None:  # the record says which decisions a stand-in made, and for whom
                stand_in = export_record(game)["server"]["stand_in_actions"]
                assert stand_in and {game.actions[i][0] for i in stand_in} == {1}
                assert stood_in(game) == [f"leaver{hand_limit}"]
                assert table.stood_in == {1}, "the table knows it too: the game's rating leaves seat 1 out"
            await player.close()
        await lobby.close()


async def test_bots_of_closed_tables_and_replaced_stand_ins_leave_no_threads() -> None:
    """Each built-in bot's thread ends when its table closes or a stand-in gives the seat back."""
    import threading

    async with running_server() as server:
        before = threading.active_count()
        for round_ in range(5):
            player = await greeted(server.port, f"p{round_}")
            await player.send(type="create_table", id=1, rules={"players": 4, "target": 7},
                              bots=["heuristic", "heuristic", "heuristic"])
            table = (await player.expect("table", id=1))["table"]["table"]
            await player.send(type="join", id=2, table=table, ready=True)
            await play_until_over(player)
            await player.send(type="leave", id=3)
            await player.expect("left", id=3)
            await player.close()
        await asyncio.sleep(0.3)
        assert not server.lobby.tables
        assert threading.active_count() <= before + 3


async def test_everyone_hears_whose_turn_it_is_and_on_what_clock() -> None:
    async with running_server() as server:
        a, b, table = await start_duel(server.port, clock={"decision_seconds": 30})
        watcher = await greeted(server.port, "watcher")
        await watcher.send(type="spectate", id=1, table=table)
        await watcher.expect("spectating", id=1)
        decide = None
        for client in (a, b):
            try:
                decide = await client.expect("decide", timeout=0.5)
                actor = client
                break
            except TimeoutError:
                continue
        assert decide is not None
        await actor.send(type="act", request=decide["request"], action=decide["view"]["legal"][0])
        turn = await watcher.expect("event", timeout=5)
        while turn["event"]["kind"] != "turn":
            turn = await watcher.expect("event", timeout=5)
        assert decide["view"]["phase"] == "bidding"  # the first decision: the other seat bids next
        assert turn["event"]["seat"] == 1 - decide["seat"]
        assert turn["event"]["limit_ms"] == 30_000 and turn["event"]["remaining_ms"] == 30_000
        for client in (a, b, watcher):
            await client.close()


def recorded(server: Server, game_id: int) -> list[Recorded]:
    """The actions the server has committed of a game: seat, action, who chose it."""
    game = server.store.game(game_id)
    assert game is not None
    return game.actions


async def _restarted(db: Path, clock: ManualClock | None = None, **settings: Any) -> Server:
    server = Server(ServerConfig(host="127.0.0.1", port=0, db=str(db), **settings), clock)
    await server.start()
    return server


async def test_a_restarted_table_between_games_frees_the_seats_of_players_who_never_return(tmp_path: Path) -> None:
    """The grace period runs for every restored seat, not only at tables with a game in play:
    otherwise a player who left after a game holds the seat for ever."""
    db = tmp_path / "club.sqlite3"
    server = await _restarted(db)
    a, b, table_id = await start_duel(server.port)
    await asyncio.gather(play_until_over(a), play_until_over(b))
    await server.stop()
    server = await _restarted(db, clock := ManualClock(), reconnect_grace=0.3)
    try:
        assert [s.name for s in server.lobby.tables[table_id].seats] == ["a", "b"]
        lobby = await greeted(TimedEndpoint.of(server, clock), "watcher")
        await lobby.expect("table_closed", timeout=5, table=table_id)
        await lobby.close()
    finally:
        await server.stop()
        await a.close()
        await b.close()


async def test_after_a_restart_the_clock_waits_for_the_player_to_be_back(tmp_path: Path) -> None:
    db = tmp_path / "club.sqlite3"
    server = await _restarted(db, ManualClock())  # (nothing times out before it stops)
    a, b, table_id = await start_duel(server.port, clock={"decision_seconds": 0.5})
    clients = {0: a, 1: b}
    decide, who = await _first_decide(clients)
    token = next(m for m in clients[who].received if m["type"] == "joined")["token"]
    await server.stop()
    server = await _restarted(db, clock := ManualClock())
    try:
        await run_for(server, clock, 1.0)  # twice the clock: nobody is back yet
        table = server.lobby.tables[table_id]
        assert table.game_id is not None
        assert not any(by == BY_CLOCK for _, _, by in recorded(server, table.game_id))
        back = await greeted(TimedEndpoint.of(server, clock), f"back{who}", token=token)
        again = await back.expect("decide", timeout=5)
        assert again["view"]["legal"] == decide["view"]["legal"]
        assert 0 < again["clock"]["remaining_ms"] <= 500
        while (await back.expect("event", timeout=5))["event"]["kind"] != "timed_out":  # and now it runs
            pass
        assert recorded(server, table.game_id)[0] == (who, again["view"]["legal"][0], BY_CLOCK)
        await back.close()
    finally:
        await server.stop()
        await a.close()
        await b.close()


async def test_a_tables_chat_comes_back_after_a_restart_as_after_a_reconnection(tmp_path: Path) -> None:
    """A snapshot recalls the table's latest chat lines: after a server restart the same as
    after a dropped connection (the records keep them)."""
    db = tmp_path / "club.sqlite3"
    server = await _restarted(db, ManualClock())
    a, b, _ = await start_duel(server.port, bot_chat=True)
    said = ["good luck", "you too", "shuffle well"]
    for n, text in enumerate(said):
        speaker = (a, b)[n % 2]
        await speaker.send(type="chat", id=10 + n, scope="table", text=text)
        await speaker.expect("chat", id=10 + n)
    await b.send(type="resync", id="r")
    before = (await b.expect("snapshot", id="r"))["chat"]
    assert [line["text"] for line in before] == said
    token = next(m for m in b.received if m["type"] == "joined")["token"]
    await server.stop()
    server = await _restarted(db, ManualClock())
    try:
        back = await greeted(server.port, "b", token=token)
        assert (await back.expect("snapshot"))["chat"] == before
        await back.close()
    finally:
        await server.stop()
        await a.close()
        await b.close()


async def _first_decide(clients: dict[int, RawClient]) -> tuple[dict[str, Any], int]:
    for seat, client in clients.items():
        with contextlib.suppress(TimeoutError):
            return await client.expect("decide", timeout=1), seat
    raise AssertionError("nobody was asked to act")


async def test_a_records_file_has_one_server_at_a_time(tmp_path: Path) -> None:
    """Two servers writing one file would hand out the same ids: the second is refused."""
    db = tmp_path / "club.sqlite3"
    first = await _restarted(db)
    port = first.port
    second = Server(ServerConfig(host="127.0.0.1", port=0, db=str(db)))
    try:
        with pytest.raises(StoreInUseError) as refused:
            await second.start()
    finally:
        second.store.close()
        await first.stop()
    where = f"`setback play 127.0.0.1:{port}`"  # the refusal says where to play instead
    assert f"process {os.getpid()}, port {port}" in str(refused.value) and where in str(refused.value)
    third = await _restarted(db, local=True)  # the first let go of it
    fourth = Server(ServerConfig(host="127.0.0.1", port=0, db=str(db)))
    try:
        with pytest.raises(StoreInUseError, match="in use by a `setback play` game on this computer"):
            await fourth.start()
    finally:
        fourth.store.close()
        await third.stop()


async def test_a_local_servers_games_end_with_it_and_no_server_plays_them_on(tmp_path: Path) -> None:
    """`setback play --bots` quit mid-game: its table is closed with the game unfinished; neither
    its next run nor a `setback serve` on the same file brings it back (bots would play it out)."""
    db = tmp_path / "setback.sqlite3"
    for config in (embedded_config(str(db)), ServerConfig(host="127.0.0.1", port=0, db=str(db))):
        local = Server(embedded_config(str(db)))
        await local.start()
        player = await greeted(local.port, "me", kind="human")
        await player.send(type="create_table", id=1, rules={"players": 2}, bots=["heuristic"])
        table_id = (await player.expect("table", id=1))["table"]["table"]
        await player.send(type="join", id=2, table=table_id, ready=True)
        decide = await player.expect("decide", timeout=5)
        move = decide["view"]["legal"][0]
        await player.send(type="act", request=decide["request"], action=move)
        await player.send(type="ping", id="after", nonce=1)
        await player.expect("pong", id="after")  # the act was taken before the ping
        game_id = local.lobby.tables[table_id].game_id
        await local.stop()
        await player.close()
        after = Server(config)
        await after.start()
        try:
            assert not after.lobby.tables, "nothing of the quit game is brought back"
            game = after.store.game(game_id or 0)
            assert game is not None and game.finished is None and (decide["view"]["seat"], move, 0) in game.actions
        finally:
            await after.stop()
    with sqlite3.connect(db) as raw:
        assert raw.execute("SELECT COUNT(*) FROM tables WHERE closed IS NULL").fetchone()[0] == 0


@pytest.mark.parametrize("seed", [-1, 2**63, 2**70])
async def test_a_seed_the_records_cannot_hold_is_refused(seed: int) -> None:
    """Seeds are 0 <= seed < 2^63: one past it once made the turn's commit fail."""
    async with running_server() as server:
        client = await greeted(server.port)
        await client.send(type="create_table", id=1, seed=seed, bots=["random", "random"], rules={"players": 2})
        error = await client.expect("error", id=1)
        assert error["code"] == Code.INVALID_FIELD and error["path"] == "$.seed" and not server.lobby.tables
        await client.close()


async def test_the_seeds_of_a_table_wrap_at_2_to_the_63(tmp_path: Path) -> None:
    """The n-th game of a table seeded s is dealt from (s + n) mod 2^63, which the file holds."""
    db = tmp_path / "seeds.sqlite3"
    async with running_server(db=str(db)) as server:
        a = await greeted(server.port, "a")
        b = await greeted(server.port, "b")
        await a.send(type="create_table", id=1, rules={"players": 2}, seed=2**63 - 1)
        table_id = (await a.expect("table", id=1))["table"]["table"]
        server.lobby.tables[table_id].games_played = 1  # as after its first game
        for client in (a, b):
            await client.send(type="join", id=2, table=table_id, ready=True)
            await client.expect("joined", id=2)
        await a.expect("game_started")
        for client in (a, b):
            await client.close()
    assert sqlite3.connect(db).execute("SELECT seed FROM games").fetchall() == [(0,)]


async def test_a_commit_that_fails_stops_the_server_and_tells_everyone(monkeypatch: pytest.MonkeyPatch) -> None:
    """What could not be recorded is never said; everyone hears goodbye, nobody is left deaf."""
    async with running_server() as server:
        creator = await greeted(server.port, "creator")
        other = await greeted(server.port, "other")
        commit = server.store.commit

        def broken() -> None:
            server.store.take()
            raise OverflowError("Python int too large to convert to SQLite INTEGER")

        monkeypatch.setattr(server.store, "commit", broken)
        await creator.send(type="create_table", id=1)
        for client in (creator, other):
            assert (await client.expect("goodbye"))["reason"] == "the server could not record the game and stopped"
            assert await client.closed()
        assert not any(m["type"] == "table" for m in creator.received)  # its creation was never recorded
        monkeypatch.setattr(server.store, "commit", commit)


async def test_a_game_nobody_hears_is_recorded_all_the_same(tmp_path: Path) -> None:
    """The records of a turn are committed even when nobody is told anything that turn."""
    db = tmp_path / "quiet.sqlite3"
    async with running_server(db=str(db), bot_table_pace=0) as server:  # (played out to nobody at once)
        player = await greeted(server.port, "leaver")
        await player.send(type="create_table", id=1, rules={"players": 2, "hand_limit": 3}, bots=["random"])
        table_id = (await player.expect("table", id=1))["table"]["table"]
        await player.send(type="join", id=2, table=table_id, ready=True)
        await player.expect("decide")
        await player.send(type="leave", id=3)  # a stand-in plays the game out, to nobody
        await player.expect("left", id=3)
        await player.close()
        reader = sqlite3.connect(db)
        for _ in range(200):  # up to 10 s
            if reader.execute("SELECT COUNT(*) FROM games WHERE finished IS NOT NULL").fetchone()[0]:
                break
            await asyncio.sleep(0.05)
        else:
            pytest.fail("the stand-in's game was never recorded as finished")
        assert server.lobby.tables.get(table_id) is None or not server.lobby.tables[table_id].playing


async def test_a_connection_whose_seat_is_taken_back_is_in_the_lobby_with_a_new_token() -> None:
    """The seat's token moved to the other connection: the first is at no table, hears
    nothing of it, and its next seat is held by a token of its own."""
    async with running_server() as server:
        a, b, _ = await start_duel(server.port)
        token = next(m for m in a.received if m["type"] == "joined")["token"]
        thief = await RawClient.connect(server.port)
        await thief.send(type="hello", version="1.1", name="a", kind="human", token=token)
        await thief.expect("joined")
        assert (await a.expect("error"))["code"] == Code.BAD_TOKEN
        await a.send(type="chat", id="c", text="still here?")
        assert (await a.expect("error", id="c"))["code"] == Code.NOT_AT_TABLE
        await a.send(type="create_table", id="t", rules={"players": 2})
        other = (await a.expect("table", id="t"))["table"]["table"]
        await a.send(type="join", id="j", table=other)
        rejoined = await a.expect("joined", id="j")
        assert rejoined["table"] == other and rejoined["token"] != token
        for client in (a, b, thief):
            await client.close()


async def test_a_player_leaving_mid_game_is_told_to_the_table_once() -> None:
    async with running_server() as server:
        a, b, _ = await start_duel(server.port)
        await b.send(type="ping", id="p0", nonce=0)  # all that was said before the leave is read by its pong
        await b.expect("pong", id="p0")
        before = len(b.received)
        await a.send(type="leave", id="bye")
        await a.expect("left", id="bye")
        await b.send(type="ping", id="p1", nonce=1)  # and all that was said about the leave, by this one
        await b.expect("pong", id="p1")
        tables = [m for m in b.received[before:] if m["type"] == "table"]
        assert len(tables) == 1, "a stand-in taking a seat is one change, told once"
        left = tables[0]["table"]["seats"][0]
        assert left["replaced_by_bot"] is True and left["ready"] is False  # not ready for another game
        for client in (a, b):
            await client.close()


async def test_a_game_nobody_is_at_goes_on_at_the_bots_pace_thinking_briefly() -> None:
    """Played on for who may come back, it must cost next to nothing: a move a pace at most,
    and a built-in bot given a hundredth of a second to think."""
    pace = 0.1
    async with running_server(clock := ManualClock(), bot_table_pace=pace, reconnect_grace=0.05) as server:
        player = await greeted(server.port, "dropper")
        await player.send(type="create_table", id=1, rules={"players": 2}, bots=["search"])
        table_id = (await player.expect("table", id=1))["table"]["table"]
        await player.send(type="join", id=2, table=table_id, ready=True)
        await player.expect("decide", timeout=10)
        table = server.lobby.tables[table_id]
        given: list[float | None] = []
        seat = next(s for s in table.seats if s.kind == "builtin").bot
        assert seat is not None
        search = seat.bot  # the bot itself (its seat is compiled: its methods cannot be replaced)

        def noting(method: Callable[[View], Any]) -> Callable[[View], Any]:
            def noted(view: View) -> Any:
                given.append(view.time_left)
                return method(view)
            return noted

        search.bid = noting(search.bid)  # type: ignore[method-assign,assignment]
        search.play = noting(search.play)  # type: ignore[method-assign,assignment]
        await player.close()  # its token holds the seat: the game goes on, a stand-in playing it
        await noticed(lambda: table.seats[0].peer is None and table.seats[1].peer is None)
        await run_for(server, clock, 0.3)
        assert table.game is not None
        moves = len(table.game.actions)
        await run_for(server, clock, 1.0)
        assert 1 <= len(table.game.actions) - moves <= 1.0 / pace + 2
        assert given and set(given) == {0.01}


async def test_resync_gives_the_table_as_it_stands() -> None:
    """A client unsure of what it missed asks, without reconnecting: the snapshot, and the
    pending decision again if it is its seat's; a spectator gets the spectator's view."""
    async with running_server() as server:
        a, b, table = await start_duel(server.port)
        seat, decide = await _whose_decide([a, b])
        to_act, waiting = (a, b) if seat == 0 else (b, a)
        await to_act.send(type="resync", id="r")
        snapshot = await to_act.expect("snapshot")
        again = await to_act.expect("decide")
        assert snapshot["view"]["hand"] == decide["view"]["hand"] and again["request"] == decide["request"]
        assert snapshot["id"] == "r"  # the snapshot answers the resync (since 1.3)
        await waiting.send(type="resync", id="r")
        other = await waiting.expect("snapshot")
        assert other["view"]["seat"] == 1 - seat and other["view"]["legal"] == []
        watcher = await greeted(server.port, "watcher")
        await watcher.send(type="resync", id="w")
        assert (await watcher.expect("error", id="w"))["code"] == Code.NOT_AT_TABLE
        await watcher.send(type="spectate", id="s", table=table)
        await watcher.expect("snapshot")
        await watcher.send(type="resync", id="w2")
        assert (await watcher.expect("snapshot"))["view"]["hand"] == []
        for client in (a, b, watcher):
            await client.close()


async def test_a_resync_before_the_first_game_is_answered_ok() -> None:
    """A table that has had no game has nothing to show: the resync still gets its answer."""
    async with running_server() as server:
        player = await greeted(server.port, "early")
        await player.send(type="create_table", id=1, rules={"players": 2})
        table = (await player.expect("table", id=1))["table"]["table"]
        await player.send(type="join", id=2, table=table)
        await player.expect("joined", id=2)
        await player.send(type="resync", id="r")
        await player.expect("ok", id="r")
        assert not [m for m in player.received if m["type"] == "snapshot"]
        await player.close()


async def test_the_table_may_seat_a_bot_for_a_player_who_is_away() -> None:
    """It need not wait out the grace period: a stand-in plays the away seat at once, and the
    player, back with the token, has the seat again."""
    async with running_server(reconnect_grace=60) as server:
        a, b, table_id = await start_duel(server.port)
        token = next(m for m in b.received if m["type"] == "joined")["token"]
        await b.close()
        table = server.lobby.tables[table_id]
        await noticed(lambda: table.seats[1].peer is None)
        await a.send(type="add_bot", id="b", seat=1)
        await a.expect("ok", id="b")
        assert table.seats[1].info().replaced_by_bot and table.seats[1].name == "b"  # still b's seat
        await a.send(type="add_bot", id="again", seat=1)  # asked twice: it is there already
        await a.expect("ok", id="again")
        await a.send(type="add_bot", id="mine", seat=0)  # a seat whose player is here: seats wait for the game's end
        assert (await a.expect("error", id="mine"))["code"] == Code.GAME_IN_PROGRESS
        await a.send(type="add_bot", id="none", seat=7)
        refused = await a.expect("error", id="none")
        assert (refused["code"], refused["path"]) == (Code.INVALID_FIELD, "$.seat")
        back = await RawClient.connect(server.port)
        await back.send(type="hello", version="1.2", name="b", kind="bot", token=token)
        assert (await back.expect("joined"))["seat"] == 1
        assert not table.seats[1].info().replaced_by_bot  # the stand-in gave it back
        for client in (a, back):
            await client.close()


async def test_a_player_back_while_the_stand_in_decides_for_them_takes_the_decision() -> None:
    """Back while a stand-in is deciding for their seat (here it has decided, and waits the
    bots' pace before its move), the player gets the decision on a fresh clock, and their
    answer is the one taken: no ``stale_request``, and no move of the stand-in's for them."""
    async with running_server(clock := ManualClock(), reconnect_grace=5, bot_table_pace=1.0) as server:
        player = await greeted(server.port, "ann", kind="human")
        await player.send(type="create_table", id=1, rules={"players": 2}, bots=["heuristic"], seed=3,
                          clock={"decision_seconds": 30, "bot_after_timeouts": None})
        table_id = (await player.expect("table", id=1))["table"]["table"]
        await player.send(type="join", id=2, table=table_id, ready=True)
        token = (await player.expect("joined", id=2))["token"]
        seat = (await player.expect("decide"))["seat"]
        table = server.lobby.tables[table_id]
        await player.close()
        await noticed(lambda: table.seats[seat].peer is None)
        clock.advance(5)  # the grace is over: a stand-in decides for the seat
        await bots_done(server)  # it has decided; nobody is here, so it waits the bots' pace
        assert table.pending is not None and table.pending.seat == seat and table.seats[seat].bot is not None
        back = await greeted(TimedEndpoint.of(server, clock), "ann", kind="human", token=token)
        again = await back.expect("decide")
        assert again["clock"] == {"limit_ms": 30000, "remaining_ms": 30000}
        assert table.game is not None
        before = len(table.game.actions)
        await run_for(server, clock, 2.0)  # longer than the stand-in's wait: its move would have come
        assert len(table.game.actions) == before
        chosen = again["view"]["legal"][-1]
        await back.send(type="act", request=again["request"], action=chosen)
        await back.send(type="ping", id="after", nonce=1)
        await back.expect("pong", id="after")
        assert not [m for m in back.received if m["type"] == "error"]
        await server.settle()
        assert table.game_id is not None
        assert recorded(server, table.game_id)[before] == (seat, chosen, BY_PLAYER)
        await back.close()
