"""Who hears of a table's changes: the lobby and the table itself, nobody at another table."""

from __future__ import annotations

from typing import Any

from test_server_errors import greeted
from wire import RawClient, running_server

from setback.protocol import MAX_SERVER_LINE_BYTES, Code, encode
from setback.protocol.messages import Clock, Ready, SeatInfo, TableInfo, Tables, WireRules
from setback.server.lobby import LISTED_TABLES


def updates_of(client: RawClient, table: str) -> list[dict[str, Any]]:
    """The ``table`` updates of ``table`` that ``client`` received, in order."""
    return [m["table"] for m in client.received if m["type"] == "table" and m["table"]["table"] == table]


async def settled(client: RawClient, nonce: int) -> None:
    """Everything the server queued for ``client`` so far has arrived (a ping's answer comes after)."""
    await client.send(type="ping", id=f"settle-{nonce}", nonce=nonce)
    await client.expect("pong", id=f"settle-{nonce}")


async def test_table_updates_reach_the_lobby_and_the_table_only() -> None:
    async with running_server() as server:
        browser, host, guest, elsewhere = [await RawClient.connect(server.port) for _ in range(4)]
        for client, name in zip([browser, host, guest, elsewhere], ["browser", "host", "guest", "elsewhere"],
                                strict=True):
            await client.hello(name, kind="human")
        await elsewhere.send(type="create_table", id=1, name="other")
        other = (await elsewhere.expect("table", id=1))["table"]["table"]
        await elsewhere.send(type="join", id=2, table=other, seat=0)
        await elsewhere.expect("joined", id=2)
        await settled(elsewhere, 1)
        heard_before = len(elsewhere.received)

        await host.send(type="create_table", id=1, name="main")
        table = (await host.expect("table", id=1))["table"]["table"]
        await host.send(type="join", id=2, table=table, seat=0)
        await host.expect("joined", id=2)
        await guest.send(type="join", id=3, table=table, seat=1)
        await guest.expect("joined", id=3)
        await settled(guest, 2)
        guest_seated = [u for u in updates_of(guest, table) if u["seats"][1]["name"] == "guest"]
        assert len(guest_seated) == 1, "a player joining hears of its seat once, not twice"
        await settled(browser, 3)
        assert updates_of(browser, table)[-1]["seats"][1]["name"] == "guest"

        await guest.send(type="leave", id=4)
        await guest.expect("left", id=4)
        await settled(guest, 4)
        assert updates_of(guest, table)[-1]["seats"][1]["kind"] == "empty", "the leaver hears of its empty seat"
        await host.send(type="leave", id=5)
        await host.expect("left", id=5)
        for client in (browser, guest, host):
            await client.expect("table_closed", table=table)
        order = [m["type"] for m in host.received if m["type"] in {"left", "table_closed"}]
        assert order == ["left", "table_closed"], "the leaver hears it left, then that the table is gone"

        await settled(elsewhere, 5)
        assert not updates_of(elsewhere, table), "a player at another table hears nothing of this one"
        assert not [m for m in elsewhere.received[heard_before:] if m["type"] == "table_closed"]
        for client in (browser, host, guest, elsewhere):
            await client.close()


async def test_a_table_made_with_bots_is_announced_once_complete() -> None:
    async with running_server() as server:
        browser, host = [await RawClient.connect(server.port) for _ in range(2)]
        await browser.hello("browser", kind="human")
        await host.hello("host", kind="human")
        await host.send(type="create_table", id=1, rules={"players": 4}, bots=["random", "heuristic", "random"])
        reply = (await host.expect("table", id=1))["table"]
        assert [s["kind"] for s in reply["seats"]] == ["builtin", "builtin", "builtin", "empty"]
        await settled(browser, 1)
        await settled(host, 2)
        for client in (browser, host):
            heard = updates_of(client, reply["table"])
            assert heard, "the lobby hears of the new table"
            assert all(u["seats"] == reply["seats"] for u in heard), "never a half-made table"
        assert len(updates_of(host, reply["table"])) == 1, "the creator hears its reply, not a copy after it"
        assert len(updates_of(browser, reply["table"])) == 1
        for client in (browser, host):
            await client.close()


async def test_a_table_waits_for_its_maker_who_may_have_a_few_waiting() -> None:
    """Someone passing through does not close a table its maker has not come to; the maker
    may have a few such tables, and they close when it goes (one that still has someone stays)."""
    async with running_server(max_tables_awaiting_maker=3) as server:
        lobby = await greeted(server.port, "lobby")
        maker = await greeted(server.port, "maker")
        made = []
        for i in range(3):
            await maker.send(type="create_table", id=i, rules={"players": 2}, bots=["random"] * 2)
            made.append((await maker.expect("table", id=i))["table"]["table"])
        await maker.send(type="create_table", id=9)
        refused = await maker.expect("error", id=9)
        assert refused["code"] == Code.TABLE_FULL and "you have not sat at or watched" in refused["message"]
        passer = await greeted(server.port, "passer")
        await passer.send(type="spectate", id=1, table=made[1])
        await passer.expect("spectating", id=1)
        await passer.send(type="leave", id=2)
        await passer.expect("left", id=2)
        assert made[1] in server.lobby.tables  # still waiting for its maker
        watcher = await greeted(server.port, "watcher")
        await watcher.send(type="spectate", id=2, table=made[0])
        await watcher.expect("spectating", id=2)
        await maker.close()
        closed = {(await lobby.expect("table_closed", timeout=5))["table"] for _ in range(2)}
        assert closed == set(made[1:]) and set(server.lobby.tables) == {made[0]}
        for client in (lobby, watcher, passer):
            await client.close()


async def test_tables_waiting_for_their_makers_are_counted_per_address_too() -> None:
    """Connections from one address share a cap on the tables that wait for their makers;
    a table its maker has gone to counts no more."""
    async with running_server(max_tables_awaiting_maker=3, max_tables_awaiting_address=4) as server:
        first, second = await greeted(server.port, "first"), await greeted(server.port, "second")
        made = []
        for i in range(3):
            await first.send(type="create_table", id=i, rules={"players": 2})
            made.append((await first.expect("table", id=i))["table"]["table"])
        await second.send(type="create_table", id=1, rules={"players": 2})
        await second.expect("table", id=1)
        await second.send(type="create_table", id=2, rules={"players": 2})
        refused = await second.expect("error", id=2)
        assert refused["code"] == Code.TABLE_FULL and "wait for their makers" in refused["message"]
        await first.send(type="spectate", id=3, table=made[0])
        await first.expect("spectating", id=3)
        await second.send(type="create_table", id=4, rules={"players": 2})
        await second.expect("table", id=4)
        for client in (first, second):
            await client.close()


async def test_a_tables_reply_lists_at_most_256_waiting_first_and_fits_a_line() -> None:
    many = {"max_tables_awaiting_maker": 400, "max_tables_awaiting_address": 400, "message_burst": 10**6}
    async with running_server(**many) as server:
        maker = await greeted(server.port, "maker")
        player = await greeted(server.port, "player")
        for i in range(300):
            await maker.send(type="create_table", id=i, rules={"players": 2})
        await maker.expect("table", id=299)
        await player.send(type="join", id="j", table="t1", ready=True)  # t1 is waiting still (one seat empty)
        await player.expect("joined", id="j")
        await maker.send(type="join", id="m", table="t1", ready=True)  # now t1 plays: listed after the waiting
        await maker.expect("joined", id="m")
        await player.send(type="list_tables", id="l")
        listed = [t["table"] for t in (await player.expect("tables", id="l"))["tables"]]
        assert len(listed) == LISTED_TABLES and listed[0] == "t2" and "t1" not in listed
        for client in (maker, player):
            await client.close()


def test_the_largest_table_info_times_the_listed_tables_fits_a_server_line() -> None:
    longest = "\U0001f0a1" * 40  # four bytes a character
    seats = [SeatInfo(seat=i, name=longest, kind="builtin", ready=True, connected=True, timeouts=10**6,
                      replaced_by_bot=True, rating=-1234.567891234567) for i in range(7)]
    info = TableInfo(
        table="t99999999", name=longest, clock=Clock(decision_seconds=3599.999, bot_after_timeouts=10**6),
        rules=WireRules(players=7, target=21, forced_dealer_bid=False, smudge=True, no_junk=True, hand_limit=10**9,
                        min_bid=2, dealer_steal=True, low="captured"),
        seats=seats, spectators=10**6, status="finished", games_played=10**9, seeded=True, rated=True, private=True,
    )
    reply = encode(Tables(id="x" * 40, tables=[info] * LISTED_TABLES))
    assert len(reply) <= MAX_SERVER_LINE_BYTES


async def test_readiness_changed_many_times_in_one_turn_is_told_once() -> None:
    """Table updates for readiness wait for the end of the server's turn: a player flipping
    ``ready`` six times in one write makes one update for the lobby and the table, not six,
    and it tells the last state."""
    async with running_server() as server:
        browser, host = [await RawClient.connect(server.port) for _ in range(2)]
        for client, name in zip([browser, host], ["browser", "host"], strict=True):
            await client.hello(name, kind="human")
        await host.send(type="create_table", id=1, rules={"players": 2})
        table = (await host.expect("table", id=1))["table"]["table"]
        await host.send(type="join", id=2, table=table, seat=0)
        await host.expect("joined", id=2)
        await settled(browser, 1)
        await settled(host, 2)
        heard_before = {client: len(updates_of(client, table)) for client in (browser, host)}
        flips = [encode(Ready(id=f"r{i}", ready=i % 2 == 0)) for i in range(6)]  # the last says not ready
        await host.send_raw(b"".join(flips))
        for i in range(6):
            await host.expect("ok", id=f"r{i}")
        await settled(browser, 3)
        await settled(host, 4)
        for client in (browser, host):
            heard = updates_of(client, table)[heard_before[client]:]
            assert len(heard) == 1, f"{client}: {len(heard)} updates for one turn"
            assert heard[0]["seats"][0]["ready"] is False
        for client in (browser, host):
            await client.close()


async def test_a_hello_without_kind_is_seated_as_a_person() -> None:
    """``kind`` is optional in ``hello`` (spec.md sections 7-8, Appendix A): a hello without
    it is welcomed, and its seat is a person's, as ``kind: "human"`` would make it."""
    async with running_server() as server:
        client = await RawClient.connect(server.port)
        await client.send(type="hello", version="1.3", name="ann")
        assert (await client.expect("welcome"))["player"] == "ann"
        await client.send(type="create_table", id=1, rules={"players": 2}, bots=["random"])
        table = (await client.expect("table", id=1))["table"]["table"]
        await client.send(type="join", id=2, table=table)
        await client.expect("joined", id=2)
        await client.send(type="list_tables", id=3)
        listed = next(t for t in (await client.expect("tables", id=3))["tables"] if t["table"] == table)
        assert [(s["name"], s["kind"]) for s in listed["seats"]] == [("random-0", "builtin"), ("ann", "human")]
        await client.close()
