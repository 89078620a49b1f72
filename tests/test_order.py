"""The orders spec.md promises ("The order of messages"), checked over the wire."""

from __future__ import annotations

import asyncio
import itertools
import re
from typing import Any

import pytest
from clocks import ManualClock, TimedClient
from wire import RawClient, running_server

TOKENS = {
    "game_started": "S", "cards_drawn": "D", "dealer_chosen": "C", "hand_dealt": "H", "turn": "t", "decide": "d",
    "passed": "p", "bid": "b", "thrown_in": "X", "pitcher_chosen": "P", "trump_pitched": "T", "card_played": "c",
    "trick_won": "W", "hand_scored": "R", "game_won": "G", "game_over": "O", "timed_out": "o",
}
"""One letter for each message of a game, events by their kind."""


def kind(message: dict[str, Any]) -> str:
    return str(message["event"]["kind"] if message["type"] == "event" else message["type"])


def game_text(messages: list[dict[str, Any]]) -> str:
    """A game's messages as letters (table updates, replies and chat left out)."""
    return "".join(TOKENS[kind(m)] for m in messages if kind(m) in TOKENS)


def game_pattern(players: int) -> re.Pattern[str]:
    """Every game's letters at a table of ``players``: the grammar of the first promise."""
    decision = "td?o?"
    bids = f"(?:{decision}[pb]){{{players}}}"
    play = f"{decision}c"
    first_trick = f"{decision}Tc(?:{play}){{{players - 1}}}W"
    tricks = f"(?:(?:{play}){{{players}}}W){{5}}"
    hand = f"H{bids}(?:X|P{first_trick}{tricks}R)"
    return re.compile(f"^SD+C(?:{hand})+GO$")


async def answer_until_over(client: RawClient, last: bool = False) -> list[dict[str, Any]]:
    """Answer every decide (the first legal action, or the last) until game_over; every message since."""
    start = len(client.received)
    while True:
        message = await client.read(30)
        if message["type"] == "decide":
            legal = message["view"]["legal"]
            await client.send(type="act", request=message["request"], action=legal[-1 if last else 0])
        elif message["type"] == "game_over":
            return client.received[start:]


async def seated(port: int, name: str, table: str, seat: int, **hello: Any) -> RawClient:
    client = await RawClient.connect(port)
    await client.hello(name, **hello)
    await client.send(type="join", id="j", table=table, seat=seat, ready=True)
    return client


def right_after(messages: list[dict[str, Any]], first: str, then: str) -> None:
    """Each ``then`` comes right after a ``first`` (nothing between, not even a table update)."""
    for before, message in itertools.pairwise(messages):
        if kind(message) == then:
            assert kind(before) == first, f"{then} after {kind(before)}, not {first}"


@pytest.mark.parametrize("seed", [3, 11])
async def test_a_game_comes_in_the_promised_order(seed: int) -> None:
    """Seen by a seat, a spectator and a seat that takes no events: the grammar of a game,
    turn right before decide, trump_pitched right before the lead, game_won right before
    game_over, the last bid right before pitcher_chosen, the finished table after game_over."""
    async with running_server() as server:
        maker = await RawClient.connect(server.port)
        await maker.hello("maker")
        rules = {"players": 3, "target": 7, "forced_dealer_bid": False}
        await maker.send(type="create_table", id=1, rules=rules, seed=seed, bots=["heuristic"])
        table = (await maker.expect("table", id=1))["table"]["table"]
        await maker.send(type="spectate", id=2, table=table)
        a = await seated(server.port, "a", table, 1)
        quiet = await seated(server.port, "quiet", table, 2, events=False)
        streams = await asyncio.gather(answer_until_over(a), answer_until_over(quiet, last=True))
        await maker.expect("game_over")
        await maker.send(type="ping", id="end", nonce=1)
        await maker.expect("pong", id="end")
        watched = maker.received[next(i for i, m in enumerate(maker.received) if m["type"] == "game_started"):]
        for messages in (streams[0], watched[:-1]):
            letters = game_text(messages)
            assert game_pattern(3).match(letters), letters
            right_after(messages, "turn", "decide")
            right_after(messages, "game_won", "game_over")
            for i, message in enumerate(messages):
                if kind(message) == "trump_pitched":
                    assert kind(messages[i + 1]) == "card_played"
                if kind(message) == "pitcher_chosen":
                    assert kind(messages[i - 1]) in {"bid", "passed"}
                if kind(message) == "decide":
                    assert messages[i - 1]["event"]["seat"] == message["seat"] == 1
        finished = [i for i, m in enumerate(watched) if m["type"] == "table" and m["table"]["status"] == "finished"]
        assert finished and finished[0] > next(i for i, m in enumerate(watched) if m["type"] == "game_over")
        assert {kind(m) for m in streams[1]} <= {"decide", "game_started", "game_over", "table", "ok", "joined"}
        for client in (maker, a, quiet):
            await client.close()


async def test_joining_a_table_that_fills_up() -> None:
    """A table update showing you seated, then joined, then game_started."""
    async with running_server() as server:
        client = await RawClient.connect(server.port)
        await client.hello("joiner")
        await client.send(type="create_table", id=1, rules={"players": 2}, bots=["heuristic"])
        table = (await client.expect("table", id=1))["table"]["table"]
        start = len(client.received)
        await client.send(type="join", id=2, table=table, ready=True)
        await client.expect("game_started")
        kinds = [m["type"] for m in client.received[start:]]
        assert kinds == ["table", "joined", "game_started"]
        seat = client.received[start]["table"]["seats"][1]
        assert (seat["name"], seat["kind"]) == ("joiner", "bot")
        await client.close()


async def test_coming_back_welcome_table_joined_snapshot_decide() -> None:
    """The hello that takes a seat back is answered in this order, the decide with no turn."""
    async with running_server() as server:
        client = await RawClient.connect(server.port)
        await client.hello("leaver")
        await client.send(type="create_table", id=1, rules={"players": 2}, bots=["heuristic"])
        table = (await client.expect("table", id=1))["table"]["table"]
        await client.send(type="join", id=2, table=table, ready=True)
        token = (await client.expect("joined", id=2))["token"]
        decide = await client.expect("decide")
        await client.close()
        back = await RawClient.connect(server.port)
        await back.send(type="hello", version="1.3", name="leaver", kind="bot", token=token)
        messages = [await back.read() for _ in range(5)]
        assert [m["type"] for m in messages] == ["welcome", "table", "joined", "snapshot", "decide"]
        assert messages[4]["request"] == decide["request"]
        await back.send(type="resync", id="r")
        again = [await back.read() for _ in range(2)]
        assert [m["type"] for m in again] == ["snapshot", "decide"] and again[1]["request"] == decide["request"]
        await back.close()


async def test_timed_out_comes_before_the_events_of_the_action_played() -> None:
    """The clock plays for a seat that does not answer: timed_out, then the fallback's event."""
    async with running_server(time := ManualClock()) as server:
        client = await TimedClient.on(server, time)
        await client.hello("sleeper")
        await client.send(type="create_table", id=1, rules={"players": 2}, bots=["heuristic"],
                          clock={"decision_seconds": 0.05, "bot_after_timeouts": None})
        table = (await client.expect("table", id=1))["table"]["table"]
        await client.send(type="join", id=2, table=table, ready=True)
        seat = (await client.expect("decide"))["seat"]
        timed_out = await client.expect("event", timeout=5)
        while kind(timed_out) != "timed_out":
            timed_out = await client.expect("event", timeout=5)
        after = await client.expect("event")
        assert kind(after) in {"passed", "bid", "card_played"} and after["event"]["seat"] == seat
        played = timed_out["event"]["action"]
        assert (kind(after), after["event"].get("card")) in {("passed", None), ("bid", None),
                                                               ("card_played", played.removeprefix("play "))}
        await client.close()
