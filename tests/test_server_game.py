"""End to end over loopback: four raw line clients play a whole game; spectators see no hidden card."""

from __future__ import annotations

import asyncio
import json

from clocks import ManualClock, TimedClient, TimedEndpoint, run_for
from wire import Client, Endpoint, RawClient, play_until_over, running_server

from setback.engine import Game, HandDealt, LowRule, Rules, parse_action
from setback.protocol import decode_server
from setback.protocol.messages import Clock
from setback.server.app import Server
from setback.server.config import ServerConfig
from setback.server.seats import TableOptions, Waits, options_from_saved


async def seated_table(port: int, names: list[str], **table: object) -> tuple[list[RawClient], str]:
    clients = [await RawClient.connect(port) for _ in names]
    for client, name in zip(clients, names, strict=True):
        await client.hello(name)
    await clients[0].send(type="create_table", id=1, name="test", **table)
    created = await clients[0].expect("table", id=1)
    table_id = created["table"]["table"]
    for seat, client in enumerate(clients):
        await client.send(type="join", id=2, table=table_id, seat=seat, ready=True)
        await client.expect("joined", id=2)
    return clients, table_id


async def test_four_raw_clients_play_a_whole_game() -> None:
    async with running_server() as server:
        clients, _table_id = await seated_table(
            server.port, ["north", "east", "south", "west"], rules={"players": 4, "teams": 2}, seed=99
        )
        finals = await asyncio.gather(*(play_until_over(c) for c in clients))
        outcomes = {json.dumps(f["event"]["outcome"]) for f in finals}
        assert len(outcomes) == 1
        for client in clients:
            for message in client.received:
                decode_server(json.dumps(message).encode())  # every line the server sent is a valid message
        # the same seed and the same choices give the same game through the engine alone
        game = Game(Rules(players=4, teams=2), 99)
        while not game.is_over:
            game.apply(game.legal_actions()[0])
        assert game.outcome is not None
        assert json.loads(outcomes.pop())["scores"] == list(game.outcome.scores)
        for client in clients:
            await client.close()


async def test_a_club_table_is_played_and_told_by_its_options() -> None:
    """A table made with the club options names them in its ``rules`` and plays them: every
    seat's last-legal choice (the dealer's steal among them) gives the engine's game."""
    club = {"players": 2, "min_bid": 2, "dealer_steal": True, "low": "captured"}
    async with running_server() as server:
        clients, _table_id = await seated_table(server.port, ["ann", "bob"], rules=club, seed=5)
        told = next(m for m in clients[0].received if m["type"] == "table")["table"]["rules"]
        assert {k: told[k] for k in club} == club
        finals = await asyncio.gather(*(play_until_over(c, choose="last") for c in clients))
        rules = Rules(players=2, min_bid=2, dealer_steal=True, low=LowRule.CAPTURED)
        game = Game(rules, 5)
        while not game.is_over:
            game.apply(game.legal_actions()[-1])
        assert game.outcome is not None
        assert finals[0]["event"]["outcome"]["scores"] == list(game.outcome.scores)
        decides = [m for m in clients[0].received if m["type"] == "decide"]
        assert all(m["view"]["rules"]["low"] == "captured" for m in decides)
        for client in clients:
            await client.close()


async def test_a_table_of_todays_game_names_no_club_option() -> None:
    """A table of today's game sends ``rules`` without the club options, as a 1.2 server did."""
    async with running_server() as server:
        clients, _table_id = await seated_table(server.port, ["ann", "bob"], rules={"players": 2}, seed=5)
        rules = next(m for m in clients[0].received if m["type"] == "table")["table"]["rules"]
        assert not {"min_bid", "dealer_steal", "low"} & rules.keys()
        for client in clients:
            await client.close()


async def test_each_seat_sees_only_its_own_cards_and_spectators_none() -> None:
    async with running_server() as server:
        clients, table_id = await seated_table(server.port, ["a", "b"], rules={"players": 2}, seed=5)
        watcher = await RawClient.connect(server.port)
        await watcher.hello("watcher", kind="human")
        await watcher.send(type="spectate", table=table_id)
        await asyncio.gather(*(play_until_over(c) for c in clients))
        await watcher.expect("event", timeout=10)
        game = Game(Rules(players=2), 5)
        while not game.is_over:
            game.apply(game.legal_actions()[0])
        dealt = [e for e in game.events if isinstance(e, HandDealt)]
        for seat, client in enumerate(clients):
            hands = [m["event"]["cards"] for m in client.received if m["type"] == "event"
                     and m["event"]["kind"] == "hand_dealt"]
            assert hands == [[str(c) for c in d.hands[seat]] for d in dealt]
            for m in client.received:
                if m["type"] == "decide":
                    assert m["view"]["seat"] == seat
                    legal_cards = {a.split()[1] for a in m["view"]["legal"] if a.startswith("play")}
                    assert legal_cards <= set(m["view"]["hand"])
                    assert parse_action(m["view"]["legal"][0])
        for message in watcher.received:
            if message["type"] == "event" and message["event"]["kind"] == "hand_dealt":
                assert message["event"]["cards"] == []
            if message["type"] == "snapshot":
                assert message["view"]["hand"] == []
        for client in [*clients, watcher]:
            await client.close()


async def watch_bots_fill_a_table(where: int | Endpoint) -> tuple[Client, str]:
    """A spectator creates a two-seat table of bots and watches it (request id 1)."""
    watcher = await (RawClient.connect(where) if isinstance(where, int) else where.connect())
    await watcher.hello("watcher", kind="human")
    await watcher.send(type="create_table", id=1, rules={"players": 2}, seed=3, bots=["random"] * 2, spectate=True)
    table_id = (await watcher.expect("table", id=1))["table"]["table"]
    await watcher.expect("spectating", id=1)
    return watcher, table_id


async def test_a_watched_table_of_built_in_bots_plays_on_and_closes_once_unwatched() -> None:
    async with running_server(clock := ManualClock(), bot_table_pause=0.05, bot_table_pace=0) as server:
        watcher, table_id = await watch_bots_fill_a_table(TimedEndpoint.of(server, clock))
        await watcher.expect("game_over", timeout=30, game=0)
        await watcher.expect("game_started", timeout=10, game=1)  # nobody said ready: the bots play on
        await watcher.send(type="leave", id=5)
        await watcher.expect("left", id=5)
        await watcher.expect("table_closed", timeout=1, table=table_id)  # unwatched, it stops at once
        assert table_id not in server.lobby.tables
        await server.settle()
        games = server.store.db.execute(
            "SELECT number, outcome IS NULL FROM games WHERE table_id = ? ORDER BY number", (table_id,)
        ).fetchall()
        assert games == [(0, 0), (1, 1)], "game 1 was not played out to nobody: it stands unfinished"
        await watcher.close()


async def test_a_table_of_built_in_bots_plays_only_once_watched() -> None:
    """Nobody is there to play for: a table of bots only waits until someone watches."""
    async with running_server(clock := ManualClock(), bot_table_pause=0.05, bot_table_pace=0) as server:
        host, watcher = [await TimedClient.on(server, clock) for _ in range(2)]
        await host.hello("host", kind="human")
        await watcher.hello("watcher", kind="human")
        await host.send(type="create_table", id=1, rules={"players": 2}, bots=["random", "random"], seed=3)
        table_id = (await host.expect("table", id=1))["table"]["table"]
        await run_for(server, clock, 0.3)
        assert server.lobby.tables[table_id].status == "waiting"
        await watcher.send(type="spectate", id=2, table=table_id)
        await watcher.expect("spectating", id=2)
        await watcher.expect("game_started", timeout=10, game=0)
        await watcher.expect("game_over", timeout=30, game=0)
        await watcher.expect("game_started", timeout=10, game=1)  # and plays on while watched
        await host.close()
        await watcher.close()


async def test_a_stopping_server_stops_its_tables_where_they_stand() -> None:
    """A bot's move waiting on the pace when the server stops is never made: the store, closed,
    keeps the game as it stood, and no table breaks."""
    server = Server(ServerConfig(host="127.0.0.1", port=0, bot_table_pace=0.2), clock := ManualClock())
    await server.start()
    watcher, table_id = await watch_bots_fill_a_table(server.port)
    await watcher.expect("game_started", timeout=10)
    await watcher.expect("event", timeout=10)
    table = server.lobby.tables[table_id]
    assert table.game is not None
    moves = len(table.game.actions)
    await server.stop()
    clock.advance(0.4)  # twice the pace: a move left waiting would have been made
    assert len(table.game.actions) == moves and table.pending is None and not table.broken
    await watcher.close()


async def test_a_watched_table_of_built_in_bots_plays_at_a_pace_to_follow() -> None:
    """Watched, a table of bots plays a move at most every ``bot_table_pace`` seconds."""
    pace = 0.1
    async with running_server(clock := ManualClock(), bot_table_pace=pace, bot_table_pause=0.05) as server:
        host, watcher = [await TimedClient.on(server, clock) for _ in range(2)]
        await host.hello("host", kind="human")
        await watcher.hello("watcher", kind="human")
        await host.send(type="create_table", id=1, rules={"players": 2}, bots=["random", "random"], seed=3)
        table_id = (await host.expect("table", id=1))["table"]["table"]
        await watcher.send(type="spectate", id=2, table=table_id)
        await watcher.expect("spectating", id=2)
        await watcher.expect("game_started", timeout=10, game=0)
        moves: list[float] = []
        while len(moves) < 6:
            event = (await watcher.expect("event", timeout=10))["event"]
            if event["kind"] in {"bid", "passed", "card_played"}:
                moves.append(clock.now())
        assert moves[-1] - moves[0] >= 5 * pace * 0.9
        assert table_id in server.lobby.tables
        await host.close()
        await watcher.close()


async def test_a_table_of_bots_made_to_be_watched_is_watched_from_its_first_move() -> None:
    """``create_table`` with ``spectate``: the creator watches before the bots deal, so it sees
    the whole first game, at the pace, and is refused while it is at another table."""
    pace = 0.05
    async with running_server(bot_table_pace=pace) as server:
        watcher = await RawClient.connect(server.port)
        await watcher.hello("watcher", kind="human")
        await watcher.send(type="create_table", id=1, rules={"players": 2}, bots=["random", "random"], seed=3,
                           spectate=True)
        table_id = (await watcher.expect("table", id=1))["table"]["table"]
        await watcher.expect("spectating", id=1, table=table_id)
        await watcher.expect("game_started", timeout=10, game=0)
        started = next(i for i, m in enumerate(watcher.received) if m["type"] == "game_started")
        unasked = [m for m in watcher.received[:started] if m["type"] == "table" and m["id"] is None]
        assert len(unasked) == 1, "watching is told once (it was told twice alike)"
        kinds: list[str] = []
        while len(kinds) < 4:
            kinds.append((await watcher.expect("event", timeout=10))["event"]["kind"])
        assert kinds[0] == "cards_drawn", "the watcher sees the draw for first dealer"
        assert "snapshot" not in {m["type"] for m in watcher.received}, "nothing was missed: no catching up"
        game = server.lobby.tables[table_id].game
        assert game is not None and len(game.actions) <= 2, "the bots keep to the pace from the first move"
        await watcher.send(type="create_table", id=2, bots=["random"] * 4, spectate=True)
        assert (await watcher.expect("error", id=2))["code"] == "already_seated"
        assert len(server.lobby.tables) == 1, "a refused create makes no table"
        await watcher.close()


def test_a_club_tables_options_survive_the_records() -> None:
    """What the store keeps of a club table's options reads back as the same rules (a restart
    brings the table back playing its house rules), and a table saved before 1.3 plays today's game."""
    club = Rules(players=3, min_bid=2, dealer_steal=True, low=LowRule.CAPTURED)
    saved = TableOptions(name="club", rules=club, clock=Clock()).saved()
    assert options_from_saved("club", saved, Waits()).rules == club
    old = {**saved, "rules": {"players": 3, "teams": None, "target": 11, "forced_dealer_bid": True,
                              "smudge": False, "no_junk": False, "hand_limit": 100}}
    assert options_from_saved("old", old, Waits()).rules == Rules(players=3)
