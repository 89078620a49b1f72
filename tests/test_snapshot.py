"""Over raw sockets: what a snapshot recalls of a table (spec.md, "Messages, server to
client"), and the trick's winner named in views and in ``card_played`` (protocol 1.3)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from wire import RawClient, running_server

from setback.engine import Card, Draw, Suit, winning_seat
from setback.protocol import PROTOCOL_VERSION

SEED = 11


async def human_and_bots(port: int, clock: dict[str, Any] | None = None) -> tuple[RawClient, str]:
    """A person at seat 3 of a four-seat table, three ``random`` bots before, dealt from :data:`SEED`."""
    player = await RawClient.connect(port)
    welcome = await player.hello("ann", kind="human")
    assert welcome["version"] == PROTOCOL_VERSION == "1.4"
    await player.send(type="create_table", id=1, rules={"players": 4}, seed=SEED, bots=["random"] * 3,
                      clock=clock or {"decision_seconds": None})
    table = (await player.expect("table", id=1))["table"]["table"]
    await player.send(type="join", id=2, table=table, ready=True)
    await player.expect("joined", id=2)
    return player, table


async def play_until(player: RawClient, stop: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """Answer each ``decide`` with its first legal action until ``stop(message)`` holds; that message."""
    while True:
        message = await player.read(30)
        if stop(message):
            return message
        if message["type"] == "decide":
            await player.send(type="act", request=message["request"], action=message["view"]["legal"][0])


def is_event(message: dict[str, Any], kind: str) -> bool:
    return message["type"] == "event" and bool(message["event"]["kind"] == kind)


def winner_by_rule(plays: list[dict[str, Any]], trump: str) -> int:
    return winning_seat([Draw(p["seat"], Card.parse(p["card"])) for p in plays], Suit.parse(trump))


async def test_each_card_played_names_the_seat_winning_the_trick() -> None:
    """Every ``card_played`` names the seat whose card wins the trick so far (the rule's answer
    for the cards laid), and a ``decide`` view in mid-trick names it too."""
    async with running_server() as server:
        player, _ = await human_and_bots(server.port)
        trump: str | None = None
        laid: list[dict[str, Any]] = []
        cards = views = 0
        while cards < 24:  # one hand
            message = await player.read(30)
            if is_event(message, "trump_pitched"):
                trump = message["event"]["trump"]
            elif is_event(message, "card_played"):
                assert trump is not None
                event = message["event"]
                laid.append({"seat": event["seat"], "card": event["card"]})
                assert event["winning"] == winner_by_rule(laid, trump)
                cards += 1
            elif is_event(message, "trick_won"):
                assert message["event"]["winner"] == winner_by_rule(laid, trump or "S")
                laid = []
            elif message["type"] == "decide":
                view = message["view"]
                if view["trick"]:
                    assert view["winning"] == winner_by_rule(view["trick"], view["trump"])
                    views += 1
                else:
                    assert view["winning"] is None
                await player.send(type="act", request=message["request"], action=view["legal"][0])
        assert views, "the player followed in some trick"
        await player.close()


async def test_a_reconnection_gets_the_story_so_far() -> None:
    """After a reconnection the snapshot holds the game's number, every scored hand's result,
    the table's chat, this hand's bids and tricks with their winners, and the clock of the seat
    to act as of now."""
    async with running_server() as server:
        player, table = await human_and_bots(server.port, clock={"decision_seconds": 60})
        token = next(m for m in player.received if m["type"] == "joined")["token"]
        await player.send(type="chat", id=3, text="good luck")
        scored = await play_until(player, lambda m: is_event(m, "hand_scored"))
        trick = await play_until(player, lambda m: is_event(m, "trick_won"))
        await play_until(player, lambda m: m["type"] == "decide")
        await player.close()
        back = await RawClient.connect(server.port)
        await back.hello("ann", kind="human", token=token)
        snapshot = await back.expect("snapshot")
        assert snapshot["game"] == 0
        assert snapshot["results"] == [scored["event"]["result"]]
        assert snapshot["chat"] == [{"sender": "ann", "text": "good luck"}]
        view = snapshot["view"]
        assert view["hand_number"] == 2 and view["bids"] and view["tricks"][0]["winner"] == trick["event"]["winner"]
        assert view["to_act"] == 3
        clock = snapshot["clock"]
        assert clock["limit_ms"] == 60_000 and 0 < clock["remaining_ms"] <= 60_000
        decide = await back.expect("decide")
        assert decide["view"] == view
        assert server.lobby.tables[table].game is not None
        await back.close()


async def test_a_spectator_and_a_resync_get_the_same_recollection() -> None:
    """Someone who comes to watch mid-game, and a player asking ``resync``, get the results and
    the chat a reconnection gets; between games the snapshot names the game just played."""
    async with running_server() as server:
        player, table = await human_and_bots(server.port)
        await player.send(type="chat", id=3, text="hello table")
        scored = await play_until(player, lambda m: is_event(m, "hand_scored"))
        watcher = await RawClient.connect(server.port)
        await watcher.hello("bob", kind="human")
        await watcher.send(type="spectate", id=1, table=table)
        watched = await watcher.expect("snapshot")
        assert watched["game"] == 0 and watched["view"]["seat"] is None
        assert watched["results"] == [scored["event"]["result"]]
        assert watched["chat"] == [{"sender": "ann", "text": "hello table"}]
        await player.send(type="resync", id=4)
        again = await player.expect("snapshot")
        assert again["results"] == watched["results"] and again["chat"] == watched["chat"]
        await play_until(player, lambda m: m["type"] == "game_over")
        await player.send(type="resync", id=5)
        over = await player.expect("snapshot")
        assert over["game"] == 0 and over["clock"] is None and over["view"]["phase"] == "game_over"
        assert over["results"][-1]["scores"] == over["view"]["outcome"]["scores"]
        await player.close()
        await watcher.close()


async def test_a_table_says_its_bots_pace() -> None:
    """A table info gives the table's ``bot_pace``: the one asked for, else the server's."""
    async with running_server(bot_pace=0.5) as server:
        host = await RawClient.connect(server.port)
        await host.hello("host", kind="human")
        await host.send(type="create_table", id=1)
        assert (await host.expect("table", id=1))["table"]["bot_pace"] == 0.5
        await host.send(type="create_table", id=2, bot_pace=0)
        assert (await host.expect("table", id=2))["table"]["bot_pace"] == 0
        await host.send(type="create_table", id=3, bot_pace=60)
        refused = await host.expect("error", id=3)
        assert refused["code"] == "invalid_field" and refused["path"] == "$.bot_pace"
        await host.close()
