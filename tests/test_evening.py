"""The evening's records over HTTP (spec.md, "The evening over HTTP"): finished games only, a
game whole only once it is over, every answer bounded and with the page's headers."""

from __future__ import annotations

import json
from typing import Any

from test_websocket import get
from wire import RawClient, play_until_over, running_web_server, web_port

from setback.engine import HandScored, Variant
from setback.server.history import leaderboard_rows, replayed
from setback.server.ratings import rating_key
from setback.web.records import MOST_GAMES
from setback.web.site import POLICY


async def records(port: int, path: str) -> tuple[int, Any]:
    """GET a records' path: its status and its JSON, after checking the headers every answer has."""
    status, headers, body = await get(port, path)
    assert headers["Content-Type"] == "application/json"
    assert headers["Content-Security-Policy"] == POLICY and headers["X-Content-Type-Options"] == "nosniff"
    return status, json.loads(body)


async def test_a_game_is_told_once_it_is_over_and_not_while_it_is_played() -> None:
    """After one game, the list holds it (with its score after each hand) and its replay is
    its whole record; the next game, being played, is in neither."""
    async with running_web_server() as server:
        port = web_port(server)
        ann = await RawClient.connect(server.port)
        await ann.hello("ann", kind="human")
        await ann.send(type="create_table", id=1, rules={"players": 2}, bots=["random"], seed=7)
        await ann.expect("table", id=1)
        await ann.send(type="join", id=2, table="t1", ready=True)
        await ann.expect("joined", id=2)
        assert (await records(port, "/api/games")) == (200, {"games": []})
        await play_until_over(ann)
        await ann.send(type="ready", id=3)
        started = await ann.expect("game_started")
        await server.settle()
        status, listed = await records(port, "/api/games")
        assert status == 200 and [g["game_id"] for g in listed["games"]] == [1]
        row = server.store.game(1)
        assert row is not None
        game = replayed(row)
        scored = [list(e.result.scores) for e in game.events if type(e) is HandScored]
        assert listed["games"][0]["hands"] == scored and listed["games"][0]["players"] == row.players
        status, replay = await records(port, "/api/games/1")
        assert status == 200 and replay["server"]["game_id"] == 1 and replay["outcome"] is not None
        assert [h["result"]["scores"] for h in replay["hands"] if h["result"]] == scored
        assert all(len({card for cards in h["deal"] for card in cards}) == 12 for h in replay["hands"])  # face up
        playing = server.store.game(2)
        assert started["game"] == 1 and playing is not None and playing.finished is None
        status, refused = await records(port, "/api/games/2")
        assert status == 404 and "being played" in refused["error"]
        await ann.close()


async def test_a_bad_request_for_records_is_refused_with_why() -> None:
    """A limit that is no whole number in range, a game not recorded, a path of no record:
    each a JSON error saying what is there; the short addresses are the evening's pages."""
    async with running_web_server() as server:
        port = web_port(server)
        for query in ("limit=0", "limit=abc", f"limit={MOST_GAMES + 1}", "limit=-3"):
            status, refused = await records(port, f"/api/games?{query}")
            assert status == 400 and "limit" in refused["error"], query
        assert (await records(port, f"/api/games?limit={MOST_GAMES}"))[0] == 200
        status, refused = await records(port, "/api/games/99")
        assert status == 404 and "not recorded" in refused["error"]
        for path in ("/api/nothing", "/api/games/x", "/api/games/1/2", "/api/games/" + "9" * 30):
            status, refused = await records(port, path)
            assert status == 404 and "/api/games" in refused["error"], path
        assert (await records(port, "/api/leaderboard")) == (200, {"players": []})
        for page, script in (("/evening", b"evening.js"), ("/replay?game=1", b"replay.js"), ("/screen", b"screen.js")):
            status, headers, body = await get(port, page)
            assert status == 200 and script in body and headers["Content-Security-Policy"] == POLICY


async def test_the_leaderboard_is_the_stores_ratings_after_rated_games() -> None:
    """After two rated games and one unrated, the evening's leaderboard is exactly the store's
    ratings, highest first: the rated table's players with their games and wins, each rating
    as the store keeps it (to a tenth); the unrated table's player is not on it."""
    async with running_web_server() as server:
        port = web_port(server)
        ada = await RawClient.connect(server.port)
        await ada.hello("ada", kind="human")
        await ada.send(type="create_table", id=1, rules={"players": 2, "target": 7}, bots=["random"], rated=True)
        rated = (await ada.expect("table", id=1))["table"]["table"]
        await ada.send(type="join", id=2, table=rated, ready=True)
        await play_until_over(ada)
        await ada.send(type="ready", id=3)
        await play_until_over(ada, choose="last")
        bo = await RawClient.connect(server.port)
        await bo.hello("bo", kind="human")
        await bo.send(type="create_table", id=1, rules={"players": 2, "target": 7}, bots=["random"])
        unrated = (await bo.expect("table", id=1))["table"]["table"]
        await bo.send(type="join", id=2, table=unrated, ready=True)
        await play_until_over(bo)
        await server.settle()
        status, board = await records(port, "/api/leaderboard")
        stored = server.store.ratings()
        assert status == 200 and board == {"players": [
            {"player": player, "rating": round(rating, 1), "games": games, "wins": wins}
            for player, rating, games, wins in stored
        ]}
        rows = board["players"]
        assert {row["player"] for row in rows} == {"ada", "builtin:random"}
        assert all(row["games"] == 2 for row in rows) and sum(row["wins"] for row in rows) == 2
        assert [row["rating"] for row in rows] == sorted((row["rating"] for row in rows), reverse=True)
        for row in rows:
            kept = server.store.rating_of(row["player"])
            assert kept is not None and (round(kept[0], 1), kept[1], kept[2]) == (row["rating"], row["games"],
                                                                                 row["wins"])
        await ada.close()
        await bo.close()


async def test_each_variants_leaderboard_and_a_seats_rating_at_a_variant_table() -> None:
    """After a rated ten_point game, the table's seats show each player's ten_point rating (ada
    has no standard one), `/api/leaderboard?variant=ten_point` lists that variant's ratings,
    the standard leaderboard (no `variant`, or `variant=standard`) does not; a name that is no
    variant is 400 saying which there are."""
    async with running_web_server() as server:
        port = web_port(server)
        ada = await RawClient.connect(server.port)
        await ada.hello("ada", kind="human", version="1.4")
        await ada.send(type="create_table", id=1, rules={"players": 2, "target": 7, "variant": "ten_point"},
                       bots=["random"], rated=True)
        table = (await ada.expect("table", id=1))["table"]["table"]
        await ada.send(type="join", id=2, table=table, ready=True)
        await play_until_over(ada)
        await server.settle()
        kept = server.store.rating_of(rating_key("ada", Variant.TEN_POINT))
        assert kept is not None and server.store.rating_of("ada") is None
        await ada.expect("game_over")
        seat: dict[str, Any] = {"rating": None}
        while seat["rating"] is None:  # the table told after the game (each before it: no rating yet)
            update = await ada.expect("table")
            seat = next(s for s in update["table"]["seats"] if s["name"] == "ada")
        assert seat["rating"] == kept[0]
        status, board = await records(port, "/api/leaderboard?variant=ten_point")
        assert status == 200 and board == {"players": leaderboard_rows(server.store, Variant.TEN_POINT)}
        assert {row["player"] for row in board["players"]} == {"ada", "builtin:random"}
        assert (await records(port, "/api/leaderboard")) == (200, {"players": []})
        assert (await records(port, "/api/leaderboard?variant=standard")) == (200, {"players": []})
        status, refused = await records(port, "/api/leaderboard?variant=bridge")
        assert status == 400 and "ten_point" in refused["error"]
        await ada.close()
