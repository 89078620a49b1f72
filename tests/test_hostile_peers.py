"""What a hostile peer found it could break (issue 23), each over a real loopback socket:
the server's memory, its tables, the hello's version, the table info and the rate limit."""

from __future__ import annotations

import asyncio
import contextlib
import re
from typing import Any

import pytest
from clocks import ManualClock, TimedEndpoint
from test_server_errors import greeted
from wire import Client, RawClient, play_until_over, running_server, small_window

from setback.protocol import Code
from setback.server.app import Server


def connected(server: Server, name: str) -> bool:
    return any(c.name == name for c in server.connections)


async def dropped(server: Server, name: str) -> bool:
    """Whether the server drops the connection greeted as ``name`` within 10 s (looked for on
    the server: a peer that reads nothing cannot hear of it)."""
    for _ in range(100):
        if not connected(server, name):
            return True
        await asyncio.sleep(0.1)
    return False


async def hog_unread_output(server: Server, hog: RawClient, name: str, asks: int) -> None:
    """``hog``, greeted as ``name``, asks for ``asks`` table lists and reads none, until the
    server cuts it."""
    hog.writer.transport.pause_reading()  # type: ignore[attr-defined]
    with contextlib.suppress(ConnectionError):  # the server resets the connection it cuts
        for i in range(asks):
            await hog.send(type="list_tables", id=i)
            if not connected(server, name):
                return
            await asyncio.sleep(0)


async def test_unread_output_past_the_servers_budget_cuts_the_biggest_holder() -> None:
    """Each connection may leave far more unread than the server's budget for all of them
    together: once the sum is past the budget, the connection holding the most unread output
    is dropped, and one holding less, and a player who reads, are still served."""
    quick = {"message_burst": 10**6, "max_messages_per_second": 10**6, "max_tables_awaiting_maker": 40}
    async with running_server(max_write_buffer=1024**3, max_unread_output=1024**2, **quick) as server:
        maker = await greeted(server.port, "maker")
        for i in range(40):
            await maker.send(type="create_table", id=i, name=f"a table with a long name, number {i:3}",
                             rules={"players": 7})
            await maker.expect("table", id=i)
        nibbler = await greeted(server.port, "nibbler")
        nibbler.writer.transport.pause_reading()  # type: ignore[attr-defined]
        for i in range(5):
            await nibbler.send(type="list_tables", id=i)
        hog = await greeted(server.port, "hog")
        await hog_unread_output(server, hog, "hog", 3000)  # each reply lists 40 tables of 7 seats: ~40 KB
        await asyncio.sleep(0.2)
        assert not connected(server, "hog"), "the biggest holder of unread output is cut"
        assert connected(server, "nibbler")
        nibbler.writer.transport.resume_reading()  # type: ignore[attr-defined]
        for i in range(5):
            await nibbler.expect("tables", id=i)
        for client in (maker, nibbler):
            await client.send(type="ping", id="p", nonce=1)
            await client.expect("pong", id="p")
        for client in (maker, nibbler, hog):
            await client.close()


async def test_a_tcp_peer_that_never_reads_is_counted_for_what_waits_and_dropped_past_its_limit(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """What the server writes for a TCP peer that has stopped reading waits in one backlog of
    its own once the socket's buffer is full, not in ever more of the transport's, and that
    backlog is counted: the peer's count grows far past what the transport holds, and past
    the peer's limit (``max_write_buffer``) it is dropped with ``slow_peer_dropped`` saying
    what it held, while a peer who reads is served. (Queued in the transport line by line,
    250 such peers cost five times what the server counted.)"""
    quick = {"message_burst": 10**6, "max_messages_per_second": 10**6, "max_tables_awaiting_maker": 40}
    limit = 8 * 1024**2
    async with running_server(max_write_buffer=limit, max_unread_output=64 * 1024**2, **quick) as server:
        maker = await greeted(server.port, "maker")
        for i in range(40):
            await maker.send(type="create_table", id=i, name=f"a table with a long name, number {i:3}",
                             rules={"players": 7})
            await maker.expect("table", id=i)
        slow = RawClient(*await small_window(server.port))
        await slow.hello("slow")
        slow.writer.transport.pause_reading()  # type: ignore[attr-defined]
        peer = next(c for c in server.connections if c.name == "slow")
        in_transport = counted = 0
        with contextlib.suppress(ConnectionError):  # the server resets the connection it drops
            for i in range(2000):  # each reply lists 40 tables of 7 seats: ~50 KB
                await slow.send(type="list_tables", id=i)
                await maker.send(type="ping", id=f"turn {i}", nonce=i)
                await maker.expect("pong", id=f"turn {i}")  # the turn that answered slow is written out
                transport = peer.transport
                if transport is None:
                    break
                assert peer.held >= transport.get_write_buffer_size()
                in_transport = max(in_transport, transport.get_write_buffer_size())
                counted = max(counted, peer.held)
        assert not connected(server, "slow")
        assert in_transport < limit / 4, "what waits beyond the socket's buffer waits in the backlog"
        assert counted > in_transport + limit / 2, "and the backlog is counted"
        said = re.search(r"slow_peer_dropped .*name=slow .*unread=(\d+)", capsys.readouterr().err)
        assert said is not None and int(said[1]) > limit
        for client in (maker, slow):
            await client.close()


async def reply_to(client: RawClient, request: int) -> dict[str, Any]:
    """The reply to ``client``'s message ``request``, whatever its type."""
    while (message := await client.read()).get("id") != request:
        pass
    return message


async def dropped_from(watcher: RawClient, table: str) -> None:
    """Wait until ``watcher``, in the lobby, hears that ``table``'s player has dropped."""
    while True:
        update = (await watcher.expect("table"))["table"]
        if update["table"] == table and update["seats"][0]["name"] and not update["seats"][0]["connected"]:
            return


async def test_tables_held_for_dropped_players_count_against_their_makers_address() -> None:
    """Connect, make a table, sit there and drop, again and again: each table is held for its
    player's grace period, and an address may hold only so many tables that nobody is at, over
    all its connections, past and present; past that, ``create_table`` gets ``table_full``."""
    async with running_server(max_tables_awaiting_address=3) as server:
        watcher = await greeted(server.port, "watcher")
        for i in range(3):
            dropper = await greeted(server.port, f"dropper {i}")
            await dropper.send(type="create_table", id=1, rules={"players": 2})
            table = (await dropper.expect("table", id=1))["table"]["table"]
            await dropper.send(type="join", id=2, table=table)
            await dropper.expect("joined", id=2)
            await dropper.close()
            await dropped_from(watcher, table)
        assert len(server.lobby.tables) == 3, "each table is held for its player"
        last = await greeted(server.port, "one more")
        await last.send(type="create_table", id=1, rules={"players": 2})
        refused = await reply_to(last, 1)
        assert refused.get("code") == Code.TABLE_FULL and "127.0.0.1" in refused["message"]
        for client in (watcher, last):
            await client.close()


async def test_an_address_may_make_tables_again_once_those_it_held_have_closed() -> None:
    """The tables an address holds count until they close: once its dropped players' grace is
    over, their tables are gone and the address may make others."""
    async with running_server(time := ManualClock(), max_tables_awaiting_address=1, reconnect_grace=0.3) as server:
        watcher = await greeted(TimedEndpoint.of(server, time), "watcher")
        dropper = await greeted(server.port, "dropper")
        await dropper.send(type="create_table", id=1, rules={"players": 2})
        table = (await dropper.expect("table", id=1))["table"]["table"]
        await dropper.send(type="join", id=2, table=table)
        await dropper.expect("joined", id=2)
        await dropper.close()
        assert (await watcher.expect("table_closed", timeout=5))["table"] == table
        await watcher.send(type="create_table", id=3, rules={"players": 2})
        await watcher.expect("table", id=3)
        await watcher.close()


@pytest.mark.parametrize("version", ["1\n", "1.2\n", "1.2\r\n", " 1.2", "1.2 "])
async def test_a_version_with_anything_around_its_digits_is_an_invalid_field(version: str) -> None:
    """A version is digits, a dot and digits, or digits alone, and nothing else: not even a
    newline after them (a pattern's ``$`` also matches before a final newline)."""
    async with running_server() as server:
        client = await RawClient.connect(server.port)
        await client.send(type="hello", id=1, version=version, name="loose")
        error = await reply_to(client, 1)
        assert (error.get("code"), error.get("path"), error.get("fatal")) == (Code.INVALID_FIELD, "$.version", False)
        await client.close()


@pytest.mark.parametrize("version", ["01.2", "001", "0" * 5000 + "1.0"])
async def test_a_versions_major_is_compared_as_a_number(version: str) -> None:
    """The major is a number: ``01`` is 1 (leading zeros are no other version), however many."""
    async with running_server() as server:
        client = await RawClient.connect(server.port)
        await client.send(type="hello", id=1, version=version, name="zeros")
        assert (await reply_to(client, 1))["type"] == "welcome"
        await client.close()


async def test_a_major_of_thousands_of_digits_is_unsupported() -> None:
    """A major too long for Python to read as an int is still a major that is not 1."""
    async with running_server() as server:
        client = await RawClient.connect(server.port)
        await client.send(type="hello", id=1, version="9" * 5000, name="huge")
        error = await reply_to(client, 1)
        assert (error.get("code"), error.get("fatal")) == (Code.VERSION_UNSUPPORTED, True)
        assert await client.closed()


async def table_update(client: Client, **wanted: Any) -> dict[str, Any]:
    """The next table info ``client`` hears whose fields include ``wanted``."""
    while True:
        info: dict[str, Any] = (await client.expect("table"))["table"]
        if all(info[key] == value for key, value in wanted.items()):
            return info


async def test_a_seats_timeouts_in_a_table_info_count_the_game_in_play_only() -> None:
    """``timeouts`` in a table info is the seat's total this game: it counts the decisions the
    clock played in the last game until the next one starts, which begins from 0 again."""
    async with running_server(time := ManualClock()) as server:
        player = await greeted(TimedEndpoint.of(server, time), "slow starter")
        clock = {"decision_seconds": 0.2, "bot_after_timeouts": None}
        await player.send(type="create_table", id=1, rules={"players": 2, "target": 7}, bots=["random"], clock=clock)
        table = (await player.expect("table", id=1))["table"]["table"]
        await player.send(type="join", id=2, table=table, ready=True)
        await player.expect("decide")  # left to the clock
        while (await player.expect("event"))["event"]["kind"] != "timed_out":
            pass
        await play_until_over(player)
        ended = await table_update(player, status="finished", games_played=1)
        assert ended["seats"][1]["timeouts"] >= 1, "the game just played had a timeout"
        await player.send(type="ready", id=3)
        started = await table_update(player, status="playing", games_played=1)
        assert started["seats"][1]["timeouts"] == 0
        await player.close()


async def first_decide_of_hand_three(client: RawClient, results: list[object]) -> dict[str, Any]:
    """Play hand 1 (the first bidder bids 4, every card the first legal), pass every bid of
    hand 2 (with the forced bid off, it is thrown in), then return the first view of hand 3.
    ``results``: the ``last_result`` of each view of hand 2."""
    while True:
        message = await client.read()
        if message["type"] != "decide":
            continue
        view = message["view"]
        if view["hand_number"] == 3:
            return dict(view)
        if view["hand_number"] == 2:
            results.append(view["last_result"])
        legal = view["legal"]
        action = legal[-1] if view["hand_number"] == 1 and view["phase"] == "bidding" else legal[0]
        await client.send(type="act", request=message["request"], action=action)


async def test_last_result_is_null_after_a_thrown_in_hand() -> None:
    """A view's ``last_result`` is the previous hand's result: after a hand everyone passed
    (thrown in), that hand has none, so it is null, not the result of the hand before."""
    async with running_server() as server:
        first, second = await greeted(server.port, "first"), await greeted(server.port, "second")
        rules = {"players": 2, "target": 7, "forced_dealer_bid": False}
        await first.send(type="create_table", id=1, rules=rules, seed=5, clock={"decision_seconds": None})
        table = (await first.expect("table", id=1))["table"]["table"]
        for client in (first, second):
            await client.send(type="join", id=2, table=table, ready=True)
            await client.expect("joined", id=2)
        results: list[object] = []
        playing = [asyncio.ensure_future(first_decide_of_hand_three(c, results)) for c in (first, second)]
        done, waiting = await asyncio.wait(playing, timeout=30, return_when=asyncio.FIRST_COMPLETED)
        for task in waiting:
            task.cancel()
        assert results and all(result is not None for result in results), "hand 2 follows a scored hand"
        assert done.pop().result()["last_result"] is None
        for client in (first, second):
            await client.close()


BARELY_REFILLED = {"max_messages_per_second": 0.001, "message_burst": 32}
"""A rate limit whose bucket the hello, a ``create_table`` (20) and a ``join`` (10) all but empty."""


async def play_games(client: RawClient, games: int) -> None:
    """Answer every decide at once and say ready after each game, for ``games`` games; an
    error from the server fails the test at once."""
    over = 0
    while over < games:
        message = await client.read(30)
        if message["type"] == "decide":
            await client.send(type="act", request=message["request"], action=message["view"]["legal"][0])
        elif message["type"] == "game_over":
            over += 1
            if over < games:
                await client.send(type="ready")
        elif message["type"] == "error":
            raise AssertionError(f"after {over} games: {message}")


async def test_a_table_of_fast_clients_playing_game_after_game_is_never_rate_limited() -> None:
    """What the game paces costs nothing of the rate limit: a seat's ``act`` when asked, and
    its ``ready`` after a game. Clients that answer at once play game after game on a bucket
    that all but never refills."""
    async with running_server(**BARELY_REFILLED) as server:
        first, second = await greeted(server.port, "first"), await greeted(server.port, "second")
        await first.send(type="create_table", id=1, rules={"players": 2, "target": 7}, clock={"decision_seconds": None})
        table = (await first.expect("table", id=1))["table"]["table"]
        for client in (first, second):
            await client.send(type="join", id=2, table=table, ready=True)
            await client.expect("joined", id=2)
        await asyncio.gather(play_games(first, 6), play_games(second, 6))
        for client in (first, second):
            await client.close()


async def test_a_flood_of_ready_is_still_rate_limited() -> None:
    """Only the ``ready`` a game asks for is free: one a seat a game. A seat saying ready and
    not ready over and over is limited like any other flood."""
    async with running_server(**BARELY_REFILLED) as server:
        player = await greeted(server.port, "fidget")
        await player.send(type="create_table", id=1, rules={"players": 2}, clock={"decision_seconds": None})
        table = (await player.expect("table", id=1))["table"]["table"]
        await player.send(type="join", id=2, table=table)
        await player.expect("joined", id=2)
        await player.send_raw(b"".join(b'{"type":"ready","id":%d,"ready":%s}\n' % (i, b"true" if i % 2 else b"false")
                                       for i in range(10)))
        assert (await player.expect("error"))["code"] == Code.RATE_LIMITED
        await player.close()


async def test_a_peer_that_leaves_its_fatal_error_unread_is_dropped_after_the_idle_timeout() -> None:
    """A fatal error closes the connection once the peer has read it; a peer that reads
    nothing is dropped ``idle_timeout_seconds`` later instead of keeping its connection."""
    quick = {"message_burst": 10**6, "max_messages_per_second": 10**6, "max_tables_awaiting_maker": 40}
    async with running_server(idle_timeout=1.0, heartbeat=0.4, max_write_buffer=1024**3, **quick) as server:
        maker = await greeted(server.port, "maker")
        for i in range(40):
            await maker.send(type="create_table", id=i, rules={"players": 7})
            await maker.expect("table", id=i)
        hog = await greeted(server.port, "hog")
        hog.writer.transport.pause_reading()  # type: ignore[attr-defined]
        for i in range(600):  # each reply lists 40 tables of 7 seats: far more than the sockets take
            await hog.send(type="list_tables", id=i)
        await hog.send_raw(b"x" * (server.config.max_line_bytes + 1) + b"\n")  # line_too_long, fatal
        assert await dropped(server, "hog")
        await maker.close()
        await hog.close()


async def test_a_peers_socket_holds_little_in_the_kernel_where_the_server_cannot_count_it() -> None:
    """Each peer's socket, TCP or the browser table's, asks the kernel for a send buffer of
    ``socket_send_buffer`` (Linux doubles it): left to grow (to 4 MiB), 1,000 peers that never
    read made the kernel hold 1 GB that no budget of the server's saw."""
    import socket

    from wire import running_web_server, web_port

    async with running_web_server() as server:
        wanted = server.config.socket_send_buffer
        client = await RawClient.connect(server.port)
        await client.hello("sndbuf")
        _, web = await asyncio.open_connection("127.0.0.1", web_port(server))
        for _ in range(100):
            if len(server.connections) == 1 and len(server.opening) == 1:
                break
            await asyncio.sleep(0.01)
        peers = [*server.connections, *server.opening]
        assert len(peers) == 2
        for peer in peers:
            sock = peer.transport.get_extra_info("socket")  # type: ignore[attr-defined]
            assert wanted <= sock.getsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF) <= 2 * wanted
        await client.close()
        web.close()


async def test_a_request_refused_or_too_slow_on_the_web_port_is_dropped_with_a_log_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Headers past 16 KiB are answered 431 and the peer closed, a request not whole in time is
    dropped: each says so in the log, naming the peer (every byte a peer makes the server hold
    is bounded, and past the bound it is dropped with a log line)."""
    from structlog.testing import capture_logs
    from wire import running_web_server, web_port

    from setback.web import transport

    monkeypatch.setattr(transport, "REQUEST_TIMEOUT", 0.2)
    async with running_web_server() as server:
        with capture_logs() as logs:
            reader, hoarder = await asyncio.open_connection("127.0.0.1", web_port(server))
            hoarder.write(b"GET / HTTP/1.1\r\n" + b"X-Big: " + b"h" * 20_000 + b"\r\n")
            assert (await reader.read(12)).startswith(b"HTTP/1.1 431")
            _, slow = await asyncio.open_connection("127.0.0.1", web_port(server))
            slow.write(b"GET / HTTP/1.1\r\n")
            for _ in range(100):
                if any(entry["event"] == "request_timeout" for entry in logs):
                    break
                await asyncio.sleep(0.02)
        events = {entry["event"]: entry for entry in logs}
        assert events["request_refused"]["status"] == 431
        assert events["request_refused"]["peer"][1] == hoarder.get_extra_info("sockname")[1]
        assert events["request_timeout"]["peer"][1] == slow.get_extra_info("sockname")[1]
        hoarder.close()
        slow.close()
