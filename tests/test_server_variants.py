"""A variant table over loopback (protocol 1.4): played to the end by raw clients, refused
to a client of an older version, and refused option combinations named on the wire."""

from __future__ import annotations

import asyncio
import json

import msgspec
from wire import RawClient, play_until_over, running_server

from setback.engine import Card, Game, Rules, Variant
from setback.protocol import decode_server
from setback.protocol.messages import Clock as WireClock
from setback.server.seats import TableOptions, Waits, options_from_saved

TEN = {"players": 2, "variant": "ten_point", "hand_limit": 12}


async def greeted(port: int, name: str, version: str = "1.4") -> RawClient:
    client = await RawClient.connect(port)
    await client.hello(name, version=version)
    return client


async def made_table(client: RawClient, **table: object) -> str:
    await client.send(type="create_table", id=1, **table)
    return str((await client.expect("table", id=1))["table"]["table"])


async def test_two_clients_play_a_ten_point_game_as_the_engine_does() -> None:
    """A ten_point table announces its variant and its default target, deals jokers, scores
    each hand's points by name, and ends as the engine's game with the same choices."""
    async with running_server() as server:
        clients = [await greeted(server.port, name) for name in ("ann", "bob")]
        table_id = await made_table(clients[0], rules=TEN, seed=8)
        for seat, client in enumerate(clients):
            await client.send(type="join", id=2, table=table_id, seat=seat, ready=True)
            await client.expect("joined", id=2)
        finals = await asyncio.gather(*(play_until_over(c) for c in clients))
        told = next(m for m in clients[0].received if m["type"] == "table")["table"]["rules"]
        assert (told["variant"], told["target"]) == ("ten_point", 21)
        game = Game(Rules(players=2, variant=Variant.TEN_POINT, hand_limit=12), 8)
        while not game.is_over:
            game.apply(game.legal_actions()[0])
        assert game.outcome is not None
        assert finals[0]["event"]["outcome"]["scores"] == list(game.outcome.scores)
        seen: set[str] = set()
        for client in clients:
            for message in client.received:
                decode_server(json.dumps(message).encode())  # every line is a valid 1.4 message
                if message["type"] == "event" and message["event"]["kind"] == "hand_dealt":
                    seen |= set(message["event"]["cards"])
                if message["type"] == "event" and message["event"]["kind"] == "hand_scored":
                    result = message["event"]["result"]
                    sums = [0] * len(result["points"])
                    for award in result["awards"]:
                        sums[award["side"]] += award["value"]
                    assert sums == result["points"]
        assert seen & {"BJ", "LJ"}, "the seed deals a joker to a player"
        assert {str(Card.parse(c)) for c in seen} == seen  # every card sent reads back
        for client in clients:
            await client.close()


async def test_an_older_client_never_sees_a_variant_table() -> None:
    """A client that announced 1.3 is not shown a variant table in the lobby, and is refused
    a seat or a view there with `refused`; it still joins a standard table."""
    async with running_server() as server:
        maker = await greeted(server.port, "maker")
        variant_id = await made_table(maker, rules={"players": 2, "variant": "joker"})
        await maker.send(type="create_table", id=3, rules={"players": 2})
        standard_id = (await maker.expect("table", id=3))["table"]["table"]
        old = await greeted(server.port, "old", version="1.3")
        await old.send(type="list_tables", id=4)
        listed = await old.expect("tables", id=4)
        assert [t["table"] for t in listed["tables"]] == [standard_id]
        await old.send(type="join", id=5, table=variant_id, seat=0)
        refused = await old.expect("error", id=5)
        assert refused["code"] == "refused" and "joker" in refused["message"] and "1.4" in refused["message"]
        await old.send(type="spectate", id=6, table=variant_id)
        assert (await old.expect("error", id=6))["code"] == "refused"
        await old.send(type="join", id=7, table=standard_id, seat=0)
        await old.expect("joined", id=7)
        told = [json.dumps(m) for m in old.received if m["type"] != "error"]
        assert not any('"variant"' in line or variant_id in line for line in told)
        for client in (maker, old):
            await client.close()


async def test_a_refused_combination_names_both_options() -> None:
    """A cutthroat pedro table (`teams` `null`) and ten_point with min_bid 2 get `refused`, its
    `options` naming both options and its message both with their values; no table is made."""
    async with running_server() as server:
        client = await greeted(server.port, "ann")
        cases = (
            ({"players": 4, "teams": None, "variant": "pedro"}, ["variant", "teams"], "pedro"),
            ({"players": 2, "variant": "ten_point", "min_bid": 2}, ["variant", "min_bid"], "min_bid 2"),
        )
        for number, (rules, options, words) in enumerate(cases):
            await client.send(type="create_table", id=number, rules=rules)
            error = await client.expect("error", id=number)
            assert (error["code"], error["options"]) == ("refused", options)
            assert words in error["message"]
        assert not server.lobby.tables
        await client.send(type="create_table", id=9, rules={"players": 4, "teams": 2, "variant": "pedro"})
        made = await client.expect("table", id=9)
        assert made["table"]["rules"]["target"] == 31
        await client.close()


async def test_a_missing_teams_is_the_variants_sides() -> None:
    """`teams` left out of `create_table` is the variant's sides: pairs at a pedro table (two at
    4 players, three at 6), cutthroat at a standard one, as a 1.3 client has it; the table
    always says its `teams`."""
    async with running_server() as server:
        client = await greeted(server.port, "ann")
        old = await greeted(server.port, "old", version="1.3")
        for number, (maker, rules, teams) in enumerate((
            (client, {"players": 4, "variant": "pedro"}, 2),
            (client, {"players": 6, "variant": "pedro"}, 3),
            (client, {"players": 4}, None),
            (old, {"players": 4}, None),
            (old, {"players": 4, "teams": 2}, 2),
        )):
            await maker.send(type="create_table", id=number, rules=rules)
            made = await maker.expect("table", id=number)
            assert "teams" in made["table"]["rules"]
            assert made["table"]["rules"]["teams"] == teams
        for peer in (client, old):
            await peer.close()


def test_a_variant_tables_options_survive_the_records() -> None:
    """What the store keeps of a variant table's options reads back as the same rules: a restart
    brings the table back at its variant (the kill and restart test plays one too)."""
    for rules in (Rules(players=3, variant=Variant.JOKER), Rules(variant=Variant.PEDRO, target=52)):
        saved = TableOptions(name="v", rules=rules, clock=WireClock()).saved()
        assert msgspec.json.decode(msgspec.json.encode(saved))["rules"]["variant"] == rules.variant.value
        assert options_from_saved("v", saved, Waits()).rules == rules
