"""Every error code, provoked over a real socket, answered as spec.md says: over TCP, and over
the browser table's WebSocket (one message a frame) the same."""

from __future__ import annotations

import asyncio
from typing import Any, overload

import pytest
from websockets.exceptions import InvalidStatus
from wire import TRANSPORTS, Client, Endpoint, Net, RawClient, running_server

from setback.protocol import PROTOCOL_VERSION, Code
from setback.server.guard import GUESSES, PasswordGuard


@pytest.fixture(params=TRANSPORTS)
def net(request: pytest.FixtureRequest) -> Net:
    """Each test runs over TCP and over the WebSocket."""
    return Net(request.param)


@overload
async def greeted(where: int, name: str = ..., **extra: Any) -> RawClient: ...
@overload
async def greeted(where: Endpoint | int, name: str = ..., **extra: Any) -> Client: ...
async def greeted(where: int | Endpoint, name: str = "tester", **extra: Any) -> Client:
    """A client said hello at ``where``: a TCP port, or a test server over one transport."""
    client = await (RawClient.connect(where) if isinstance(where, int) else where.connect())
    await client.hello(name, **extra)
    return client


async def error_for(client: Client, line: bytes) -> dict[str, Any]:
    await client.send_raw(line)
    return await client.expect("error")


@pytest.mark.parametrize(
    ("line", "code", "path"),
    [
        (b"{not json\n", Code.MALFORMED, None),
        (b"[1, 2]\n", Code.MALFORMED, "$"),
        (b'"hello"\n', Code.MALFORMED, "$"),
        (b'{"type": "teleport", "id": 7}\n', Code.UNKNOWN_TYPE, "$.type"),
        (b'{"id": 8}\n', Code.UNKNOWN_TYPE, "$.type"),
        (b'{"type": "act", "id": 9, "request": "three", "action": "pass"}\n', Code.INVALID_FIELD, "$.request"),
        (b'{"type": "join", "id": 10}\n', Code.INVALID_FIELD, "$.table"),  # the missing field
        (b'{"type": "create_table", "id": 11, "rules": {"players": "four"}}\n', Code.INVALID_FIELD, "$.rules.players"),
        (b'{"type": "ping", "x": ' + b"[" * 2000 + b"]" * 2000 + b"}\n", Code.MALFORMED, None),  # nested too deep
    ],
)
async def test_bad_lines_get_typed_errors_and_the_connection_stays(
    net: Net, line: bytes, code: Code, path: str | None,
) -> None:
    async with net.serve() as server:
        client = await greeted(net.at(server))
        error = await error_for(client, line)
        assert error["code"] == code
        assert error["fatal"] is False
        if path is not None:
            assert error["path"] == path
        if b'"id"' in line and code != Code.MALFORMED:
            assert error["id"] is not None
        await client.send(type="ping", id="still-there", nonce=1)
        assert (await client.expect("pong"))["id"] == "still-there"
        await client.close()


async def test_oversized_line_is_answered_and_closed(net: Net) -> None:
    async with net.serve(max_line_bytes=1024) as server:
        client = await greeted(net.at(server))
        error = await error_for(client, b'{"type": "chat", "text": "' + b"x" * 3000 + b'"}\n')
        assert error["code"] == Code.LINE_TOO_LONG and error["fatal"] is True
        assert await client.closed()


async def test_incompatible_version_is_refused_and_closed(net: Net) -> None:
    async with net.serve() as server:
        client = await net.at(server).connect()
        await client.send(type="hello", id=1, version="2.0", name="future")
        error = await client.expect("error")
        assert error["code"] == Code.VERSION_UNSUPPORTED and error["fatal"] and error["id"] == 1
        assert await client.closed()


@pytest.mark.parametrize("version", ["1.0", "1.9"])
async def test_an_older_or_newer_minor_version_is_welcomed_with_ours(net: Net, version: str) -> None:
    async with net.serve() as server:
        client = await net.at(server).connect()
        await client.send(type="hello", version=version, name="other", extra_field_from_the_future=True)
        welcome = await client.expect("welcome")
        assert welcome["version"] == PROTOCOL_VERSION != version
        assert welcome["limits"]["max_line_bytes"] == server.config.max_line_bytes
        await client.close()


@pytest.mark.parametrize("version", ["1.x", "1.", "1.1.1", "", "v1"])
async def test_a_version_that_is_not_major_dot_minor_is_an_invalid_field(net: Net, version: str) -> None:
    async with net.serve() as server:
        client = await net.at(server).connect()
        await client.send(type="hello", id=1, version=version, name="loose")
        error = await client.expect("error", id=1)
        assert (error["code"], error["path"], error["fatal"]) == (Code.INVALID_FIELD, "$.version", False)
        await client.hello("strict")  # the connection stays: it may say hello properly
        await client.close()


@pytest.mark.parametrize("name", ["\u3164", "\u3164\u3164 ", "\ufe0f\ufe0e", "\u200b", "\u2800", "\u115f\u1160"])
async def test_a_name_with_nothing_visible_in_it_is_an_invalid_field(net: Net, name: str) -> None:
    """A name of Hangul fillers, variation selectors or other characters that draw nothing is
    refused, as a blank one is: nobody at the table could tell who it is; a table name too."""
    async with net.serve() as server:
        client = await net.at(server).connect()
        await client.send(type="hello", id=1, version="1.3", name=name)
        error = await client.expect("error", id=1)
        assert (error["code"], error["path"]) == (Code.INVALID_FIELD, "$.name")
        await client.hello("\u3164ann\ufe0f")  # a visible letter among them will do
        await client.send(type="create_table", id=2, name=name, rules={"players": 2})
        error = await client.expect("error", id=2)
        assert (error["code"], error["path"]) == (Code.INVALID_FIELD, "$.name")
        await client.close()


async def test_hello_required_before_anything_else(net: Net) -> None:
    async with net.serve() as server:
        client = await net.at(server).connect()
        await client.send(type="list_tables", id=3)
        error = await client.expect("error")
        assert (error["code"], error["id"]) == (Code.HELLO_REQUIRED, 3)
        await client.send(type="frobnicate", id=4)  # not even a message type: still, a hello first
        error = await client.expect("error")
        assert (error["code"], error["id"]) == (Code.HELLO_REQUIRED, 4)
        await client.hello("late")
        await client.send(type="hello", id=4, version="1.0", name="twice")
        assert (await client.expect("error"))["code"] == Code.ALREADY_GREETED
        await client.close()


async def test_silent_connection_is_dropped_after_the_hello_timeout(net: Net) -> None:
    async with net.serve(hello_timeout=0.5) as server:
        client = await net.at(server).connect()
        error = await client.expect("error", timeout=5)
        assert error["code"] == Code.HELLO_TIMEOUT and error["fatal"]
        assert await client.closed()


async def test_bad_password_is_refused(net: Net) -> None:
    async with net.serve(password="club") as server:
        client = await net.at(server).connect()
        await client.send(type="hello", version="1.0", name="guest", password="guess")
        assert (await client.expect("error"))["code"] == Code.BAD_PASSWORD
        assert await client.closed()
        member = await greeted(net.at(server), "member", password="club")
        await member.close()


async def test_an_address_that_keeps_guessing_the_password_is_refused_for_a_while(net: Net) -> None:
    """Ten wrong passwords from one address in a minute: its next hellos are refused unread,
    even with the right password, until the oldest guess is a minute old."""
    async with net.serve(password="club") as server:
        for _ in range(GUESSES):
            guesser = await net.at(server).connect()
            await guesser.send(type="hello", version="1.1", name="guesser", password="guess")
            assert (await guesser.expect("error"))["message"] == "the password is missing or wrong"
            await guesser.close()
        late = await net.at(server).connect()
        await late.send(type="hello", id=1, version="1.1", name="member", password="club")
        refused = await late.expect("error", id=1)
        assert refused["code"] == Code.BAD_PASSWORD and "too many wrong passwords from 127.0.0.1" in refused["message"]
        assert await late.closed()
        server.passwords = PasswordGuard()  # a minute later
        member = await greeted(net.at(server), "member", password="club")
        await member.close()


def test_the_password_guard_forgets_guesses_a_window_old() -> None:
    guard = PasswordGuard(guesses=2, window=60.0)
    guard.wrong("10.0.0.1", 0.0)
    guard.wrong("10.0.0.1", 30.0)
    assert guard.wait("10.0.0.1", 31.0) == 29.0 and guard.wait("10.0.0.2", 31.0) == 0.0
    assert guard.wait("10.0.0.1", 60.0) == 0.0  # the first guess is a minute old


async def test_wrong_token_cannot_take_a_seat(net: Net) -> None:
    async with net.serve() as server:
        owner = await greeted(net.at(server), "owner")
        await owner.send(type="create_table", id=1, rules={"players": 2})
        table = (await owner.expect("table", id=1))["table"]["table"]
        await owner.send(type="join", id=2, table=table, seat=0)
        await owner.expect("joined")
        thief = await net.at(server).connect()
        await thief.send(type="hello", id="h", version="1.0", name="thief", token="not-the-token")
        welcome = await thief.expect("welcome", id="h")
        assert welcome["token"] != "not-the-token"
        assert (await thief.expect("error", id="h"))["code"] == Code.BAD_TOKEN
        await thief.send(type="join", id=3, table=table, seat=0)
        assert (await thief.expect("error", id=3))["code"] == Code.SEAT_TAKEN
        await owner.close()
        await thief.close()


async def test_table_and_seat_errors(net: Net) -> None:
    async with net.serve() as server:
        a = await greeted(net.at(server), "a")
        b = await greeted(net.at(server), "b")
        await a.send(type="join", id=1, table="t404")
        assert (await a.expect("error", id=1))["code"] == Code.NO_SUCH_TABLE
        await a.send(type="create_table", id=2, rules={"players": 5, "teams": 2})
        assert (await a.expect("error", id=2))["code"] == Code.BAD_RULES
        await a.send(type="create_table", id=2, rules={"min_bid": 3})
        assert (await a.expect("error", id=2))["code"] == Code.BAD_RULES
        await a.send(type="create_table", id=3, rules={"players": 2}, bots=["grandmaster"])
        assert (await a.expect("error", id=3))["code"] == Code.UNKNOWN_BOT
        await a.send(type="create_table", id=3, rules={"players": 2}, bots=["random"] * 3)
        assert (await a.expect("error", id=3))["code"] == Code.TABLE_FULL
        for clock in ({"bot_after_timeouts": 0}, {"bot_after_timeouts": -1}, {"decision_seconds": 0}):
            await a.send(type="create_table", id=3, clock=clock)
            assert (await a.expect("error", id=3))["code"] == Code.BAD_RULES
        await a.send(type="create_table", id=3, seed=7, rated=True)
        assert (await a.expect("error", id=3))["code"] == Code.BAD_RULES
        for name in ("x" * 41, "tab\there"):
            await a.send(type="create_table", id=3, name=name)
            refused = await a.expect("error", id=3)
            assert (refused["code"], refused["path"]) == (Code.INVALID_FIELD, "$.name")
        await a.send(type="create_table", id=3, name=" ", rules={"players": 2})
        unnamed = (await a.expect("table", id=3))["table"]
        assert unnamed["name"] == unnamed["table"]  # no name: the table's id
        await a.send(type="create_table", id=4, rules={"players": 2})
        table = (await a.expect("table", id=4))["table"]["table"]
        await a.send(type="ready", id=5)
        assert (await a.expect("error", id=5))["code"] == Code.NOT_AT_TABLE
        await a.send(type="join", id=6, table=table, seat=0)
        await a.expect("joined", id=6)
        await a.send(type="join", id=7, table=table, seat=1)
        assert (await a.expect("error", id=7))["code"] == Code.ALREADY_SEATED
        await b.send(type="join", id=8, table=table, seat=5)
        refused = await b.expect("error", id=8)
        assert (refused["code"], refused["path"]) == (Code.INVALID_FIELD, "$.seat")
        await b.send(type="add_bot", id=9, table=table, bot="random")  # not seated there: no bots from outside
        assert (await b.expect("error", id=9))["code"] == Code.NOT_AT_TABLE
        await a.send(type="add_bot", id=9, table=table, bot="random")
        await a.expect("ok", id=9)
        await b.send(type="join", id=10, table=table)
        assert (await b.expect("error", id=10))["code"] in {Code.TABLE_FULL, Code.GAME_IN_PROGRESS}
        await a.close()
        await b.close()


@overload
async def start_duel(where: int, **table: Any) -> tuple[RawClient, RawClient, str]: ...
@overload
async def start_duel(where: Endpoint, **table: Any) -> tuple[Client, Client, str]: ...
async def start_duel(where: int | Endpoint, **table: Any) -> tuple[Client, Client, str]:
    """Two players at a seeded two-seat table, both ready: its game begins."""
    a = await greeted(where, "a")
    b = await greeted(where, "b")
    await a.send(type="create_table", id=1, rules={"players": 2}, seed=3, **table)
    table_id = (await a.expect("table", id=1))["table"]["table"]
    await a.send(type="join", id=2, table=table_id, seat=0, ready=True)
    await a.expect("joined", id=2)
    await b.send(type="join", id=2, table=table_id, seat=1, ready=True)
    await b.expect("joined", id=2)
    return a, b, table_id


async def test_moves_out_of_turn_illegal_cards_bad_bids_and_stale_requests(net: Net) -> None:
    async with net.serve() as server:
        a, b, _ = await start_duel(net.at(server))
        decide = None
        clients = {0: a, 1: b}
        for seat, client in clients.items():
            try:
                decide = await client.expect("decide", timeout=1)
                to_act, waiting = seat, clients[1 - seat]
                break
            except TimeoutError:
                continue
        assert decide is not None
        actor = clients[to_act]
        await waiting.send(type="act", id=20, request=decide["request"], action="pass")
        assert (await waiting.expect("error", id=20))["code"] == Code.NOT_YOUR_TURN
        await actor.send(type="act", id=21, request=decide["request"], action="bid 9")
        assert (await actor.expect("error", id=21))["code"] == Code.ILLEGAL_ACTION
        await actor.send(type="act", id=22, request=decide["request"], action="play AS")
        refused = await actor.expect("error", id=22)
        assert (refused["code"], refused["request"]) == (Code.ILLEGAL_ACTION, decide["request"])
        await actor.send(type="act", id=23, request=decide["request"] + 5, action="pass")
        stale = await actor.expect("error", id=23)  # naming the request that stands (since 1.3)
        assert (stale["code"], stale["request"]) == (Code.STALE_REQUEST, decide["request"])
        # the request still stands: a legal answer is taken
        await actor.send(type="act", id=24, request=decide["request"], action=decide["view"]["legal"][0])
        event = await actor.expect("event")
        while event["event"]["kind"] not in {"passed", "bid"}:
            event = await actor.expect("event")
        assert event["event"]["seat"] == to_act
        await a.close()
        await b.close()


async def test_illegal_card_during_play(net: Net) -> None:
    async with net.serve() as server:
        a, b, _ = await start_duel(net.at(server))
        clients = [a, b]
        while True:
            decides = await asyncio.gather(*(_next_decide(c) for c in clients))
            seat, decide = next((s, d) for s, d in enumerate(decides) if d is not None)
            view = decide["view"]
            if view["phase"] == "playing" and view["trick"]:
                legal = set(view["legal"])
                wrong = [f"play {c}" for c in view["hand"] if f"play {c}" not in legal]
                if wrong:
                    await clients[seat].send(type="act", id=30, request=decide["request"], action=wrong[0])
                    error = await clients[seat].expect("error", id=30)
                    assert error["code"] == Code.ILLEGAL_ACTION and "not legal" in error["message"]
                    break
            await clients[seat].send(type="act", request=decide["request"], action=view["legal"][0])
        await a.close()
        await b.close()


async def _next_decide(client: Client) -> dict[str, Any] | None:
    try:
        return await client.expect("decide", timeout=0.3)
    except TimeoutError:
        return None


async def test_bots_may_be_barred_from_chat_during_a_hand(net: Net) -> None:
    async with net.serve() as server:
        a, b, _ = await start_duel(net.at(server))
        await a.send(type="chat", id=40, text="good luck")
        assert (await a.expect("error", id=40))["code"] == Code.CHAT_BARRED
        await a.send(type="chat", id=41, text="")
        assert (await a.expect("error", id=41))["code"] == Code.BAD_CHAT
        await a.send(type="chat", id=42, scope="lobby", text="hello lobby")
        chat = await b.expect("chat")
        assert (chat["sender"], chat["text"], chat["scope"], chat["id"]) == ("a", "hello lobby", "lobby", None)
        assert (await a.expect("chat", id=42))["text"] == "hello lobby"  # the sender's copy answers it
        await a.close()
        await b.close()


async def test_table_chat_reaches_the_table_and_answers_the_sender(net: Net) -> None:
    async with net.serve() as server:
        a, b, table = await start_duel(net.at(server), bot_chat=True)
        lobby = await greeted(net.at(server), "elsewhere")
        await b.send(type="chat", id="c1", text="well played")
        mine = await b.expect("chat", id="c1")
        theirs = await a.expect("chat")
        assert mine["table"] == theirs["table"] == table and theirs["id"] is None
        assert theirs["sender"] == "b" and theirs["text"] == "well played"
        await lobby.send(type="ping", id="p", nonce=1)
        await lobby.expect("pong", id="p")
        assert not any(m["type"] == "chat" for m in lobby.received)
        for client in (a, b, lobby):
            await client.close()


async def test_server_full_refuses_more_connections(net: Net) -> None:
    async with net.serve(max_connections=2) as server:
        first = await greeted(net.at(server), "one")
        second = await greeted(net.at(server), "two")
        if net.transport == "ws":  # refused before its request is read: HTTP 503
            with pytest.raises(InvalidStatus) as refused:
                await net.at(server).connect()
            assert refused.value.response.status_code == 503
        else:
            third = await net.at(server).connect()
            error = await third.expect("error")
            assert error["code"] == Code.SERVER_FULL and error["fatal"]
            assert await third.closed()
        await first.close()
        await second.close()


async def test_message_flood_is_rate_limited_then_closed(net: Net) -> None:
    async with net.serve(max_messages_per_second=50, message_burst=20, flood_close_after=200) as server:
        client = await greeted(net.at(server), "flooder")
        await client.send_raw(b''.join(b'{"type": "ping", "id": %d}\n' % i for i in range(1000)))
        error = await client.expect("error")
        assert error["code"] == Code.RATE_LIMITED and not error["fatal"]
        answered = {m["id"] for m in client.received if m["type"] == "pong"}
        # the first ping dropped comes after the burst (a little more over a WebSocket: its frames are
        # read one by one, and the bucket refills meanwhile)
        assert len(answered) < 25 and error["id"] == len(answered)
        assert await client.closed()
        closing = [m for m in client.received if m.get("code") == Code.RATE_LIMITED and m.get("fatal")]
        assert len(closing) == 1 and isinstance(closing[0]["id"], int), "the last dropped ping's id"


async def test_a_flood_of_refused_acts_pays_the_rate_limit(net: Net) -> None:
    """An ``act`` the table takes costs nothing of the rate limit (the game paces it); one it
    refuses pays, as any message does: a flood of illegal moves gets its burst of
    ``illegal_action`` answers, then ``rate_limited`` (it got 5,380 answers in 3 s), and the
    request still stands: a legal answer to it is taken at once."""
    async with net.serve(max_messages_per_second=5, message_burst=60, flood_close_after=10**6) as server:
        player = await greeted(net.at(server), "flooder")
        await player.send(type="create_table", id="t", rules={"players": 2}, bots=["random"])
        table = (await player.expect("table", id="t"))["table"]["table"]
        await player.send(type="join", id="j", table=table, ready=True)
        decide = await player.expect("decide", timeout=30)
        flood = b"".join(b'{"type":"act","id":%d,"request":%d,"action":"bid 9"}\n' % (i, decide["request"])
                         for i in range(200))
        await player.send_raw(flood)
        limited = await player.expect("error", code=Code.RATE_LIMITED)
        refused = [m["id"] for m in player.received[:player.received.index(limited)]
                   if m.get("code") == Code.ILLEGAL_ACTION]
        assert refused == list(range(limited["id"])) and 15 <= len(refused) <= 40, refused  # what the setup left
        assert not limited["fatal"]
        seat = decide["view"]["seat"]
        await player.send(type="act", id="ok", request=decide["request"], action=decide["view"]["legal"][0])
        event = (await player.expect("event"))["event"]  # taken at once: an act the table takes is free
        while event["kind"] not in {"passed", "bid"} or event["seat"] != seat:
            event = (await player.expect("event"))["event"]
        await player.close()


async def test_a_flood_of_blank_lines_is_a_flood() -> None:
    """Blank lines are ignored, but each counts against the rate limit: a flood of them is closed,
    and a player meanwhile is answered at once."""
    async with running_server(flood_close_after=2000) as server:
        flooder = await greeted(server.port, "blank")
        player = await greeted(server.port, "player")
        await flooder.send_raw(b"\n" * 200_000)
        await player.send(type="ping", id="p", nonce=1)
        assert (await asyncio.wait_for(player.expect("pong"), 2.0))["id"] == "p"
        assert await flooder.closed()  # (its fatal rate_limited may be lost to the reset of the lines it still sent)
        assert len(server.connections) == 1
        await player.close()


async def test_what_costs_the_server_more_costs_more_of_the_rate_limit(net: Net) -> None:
    """A chat line is kept on disk and told to many: 40 of the 400-message burst (the hello
    took one), so nine or ten in a burst; then rate_limited, while a ping still goes through."""
    async with net.serve() as server:
        talker = await greeted(net.at(server), "talker")
        await talker.send_raw(b"".join(b'{"type":"chat","id":%d,"scope":"lobby","text":"hi"}\n' % i for i in range(30)))
        error = await talker.expect("error")
        said = {m["id"] for m in talker.received if m["type"] == "chat"}
        assert error["code"] == Code.RATE_LIMITED and said == set(range(error["id"])) and 9 <= len(said) <= 10
        await asyncio.sleep(0.1)
        await talker.send(type="ping", id="p", nonce=1)
        await talker.expect("pong", id="p")
        await talker.close()
