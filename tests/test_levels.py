"""The levels a person chooses bots by: one table, each a built-in bot with settings, seated by name."""

from __future__ import annotations

import pytest
from wire import RawClient, running_server

from setback.bots import BUILTIN, BeginnerBot, HeuristicBot, SearchBot
from setback.bots.levels import DEFAULT_LEVEL, LEVELS, maker, seatable, spec_of
from setback.bots.registry import bot_class_and_options


def test_the_levels_are_named_weakest_first_and_each_is_a_bot_that_loads() -> None:
    """beginner, casual, strong, expert, in that order, each a SPEC of a built-in bot with
    options the bot takes; the default is one of them."""
    assert list(LEVELS) == ["beginner", "casual", "strong", "expert"]
    assert DEFAULT_LEVEL in LEVELS
    for spec in LEVELS.values():
        cls, _ = bot_class_and_options(spec)
        assert cls in BUILTIN.values()


def test_a_level_makes_its_bot_with_its_settings() -> None:
    """A level's maker builds its bot (the beginner, heuristic for casual, a quick search for
    strong); a built-in bot's name makes that bot."""
    assert isinstance(maker("beginner")(1), BeginnerBot)
    assert isinstance(maker("casual")(1), HeuristicBot)
    strong = maker("strong")(1)
    assert isinstance(strong, SearchBot) and strong.playouts == 150 and strong.budget_ms == 50
    assert isinstance(maker("heuristic")(1), HeuristicBot)


def test_seatable_lists_the_levels_first_then_every_other_bot() -> None:
    names = seatable()
    assert names[:4] == list(LEVELS)
    assert set(names) == set(LEVELS) | set(BUILTIN)
    assert len(names) == len(set(names))


def test_an_unknown_name_is_refused_with_the_choices() -> None:
    with pytest.raises(ValueError, match="try one of beginner, casual, strong, expert"):
        spec_of("grandmaster")


async def test_a_server_seats_levels_and_names_each_seat_by_its_level() -> None:
    """The welcome offers the levels first; a table made with levels names each bot seat after
    its level, so the lobby line and the table show how well it plays; an unknown level is refused."""
    async with running_server() as server:
        client = await RawClient.connect(server.port)
        welcome = await client.hello("ann", kind="human")
        assert welcome["bots"][:4] == list(LEVELS)
        await client.send(type="create_table", id=1, rules={"players": 4}, bots=["beginner", "strong", "expert"])
        seats = (await client.expect("table", id=1))["table"]["seats"]
        assert [(s["kind"], s["name"]) for s in seats[:3]] == [
            ("builtin", "beginner-0"), ("builtin", "strong-1"), ("builtin", "expert-2"),
        ]
        await client.send(type="create_table", id=2, rules={"players": 2}, bots=["grandmaster"])
        refused = await client.expect("error", id=2)
        assert refused["code"] == "unknown_bot" and "casual" in refused["message"]
        await client.close()
