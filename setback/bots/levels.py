"""The levels a person chooses bots by: each a built-in bot with its settings, weakest first.

A level is a name a server seats as it seats a built-in bot (``create_table``'s ``bots``,
``add_bot``, ``setback play --level``): its seat is named after the level (``casual-2``), so
everyone at the table and in the lobby sees how well it plays. The ladder that spaces them
(each beats the one below it) is measured by ``setback tournament`` (setback/benchmarks/README.md).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from setback.bots.base import Bot
from setback.bots.registry import BUILTIN, bot_factory

LEVELS: Final = {
    "beginner": "beginner",
    "casual": "heuristic",
    "strong": "search@playouts=150",
    "expert": "expert",
}
"""Each level's bot SPEC, weakest first."""

DEFAULT_LEVEL: Final = "casual"
"""The level a new table's bots play at unless the person chooses another."""


def seatable() -> list[str]:
    """Every name a server seats as a built-in bot: the levels, weakest first, then the bots by name."""
    return [*LEVELS, *sorted(set(BUILTIN) - set(LEVELS))]


def spec_of(name: str) -> str:
    """The bot SPEC of a level or built-in bot ``name``; ValueError naming the choices otherwise."""
    if name in LEVELS:
        return LEVELS[name]
    if name in BUILTIN:
        return name
    raise ValueError(f"no level or built-in bot {name!r}; try one of {', '.join(seatable())}")


def maker(name: str) -> Callable[[int], Bot]:
    """A maker of fresh bots (given each one's seed) for the level or built-in bot ``name``."""
    spec = spec_of(name)
    return BUILTIN[spec] if spec in BUILTIN else bot_factory(spec)
