"""Ratings from rated tables: Elo, every side against every other side.

A player is known by name (built-in bots as ``builtin:NAME``). After a rated game each
pair of sides is scored as one Elo game, winner against loser, or as a draw between two
losing sides; a side's rating is the mean of its players'. K is 32 for a player's first
30 games, 16 after. Ratings start at 1500. A name that sat on more than one side of a
game (two seats of one built-in bot, two players who chose one name) played against
itself: that game leaves its rating alone. So does a win a stand-in bot had a hand in:
a player it played for (who left, stayed away or timed out too often) keeps a loss, but
not a win.

Each variant keeps its own ratings (a Pedro partner's skill says little of a cutthroat
joker game): a player's rating in the standard game is kept under its name, as before
variants, and in a variant under :func:`rating_key` (the name, a tab, the variant: a tab is
in no player's name).
"""

from __future__ import annotations

from setback.engine import Variant
from setback.server.store import Store

START = 1500.0


def rating_name(kind: str, name: str | None, builtin: str | None) -> str:
    """The name a seat's rating is kept under."""
    if kind == "builtin" and builtin:
        return f"builtin:{builtin}"
    return name or "?"


def rating_key(name: str, variant: Variant) -> str:
    """The key a player's rating at ``variant`` is kept under (see the module docstring)."""
    return name if variant is Variant.STANDARD else f"{name}\t{variant.value}"


def key_parts(key: str) -> tuple[str, Variant]:
    """The player and the variant of a key :func:`rating_key` made."""
    name, tab, variant = key.rpartition("\t")
    return (name, Variant(variant)) if tab else (key, Variant.STANDARD)


def expected(rating: float, other: float) -> float:
    return 1.0 / (1.0 + 10 ** ((other - rating) / 400))


def update_ratings(
    store: Store, players: list[str], sides: list[int], winner: int, stood_in: frozenset[int] = frozenset()
) -> None:
    """Score one finished game: ``players[s]`` sat at seat s on side ``sides[s]``; ``winner`` won;
    a stand-in bot played some decisions of the seats in ``stood_in``."""
    current = {name: store.rating_of(name) or (START, 0, 0) for name in players}
    side_ids = sorted(set(sides))
    side_rating = {
        side: sum(current[players[s]][0] for s in range(len(players)) if sides[s] == side)
        / sides.count(side)
        for side in side_ids
    }
    change = dict.fromkeys(side_ids, 0.0)
    for a in side_ids:
        for b in side_ids:
            if a >= b:
                continue
            score_a = 1.0 if a == winner else 0.0 if b == winner else 0.5
            delta = score_a - expected(side_rating[a], side_rating[b])
            change[a] += delta
            change[b] -= delta
    for name in dict.fromkeys(players):
        seats = [s for s, player in enumerate(players) if player == name]
        sat = {sides[s] for s in seats}
        if len(sat) > 1:
            continue
        side = sat.pop()
        if side == winner and stood_in.intersection(seats):
            continue
        rating, games, wins = current[name]
        k = 32.0 if games < 30 else 16.0
        store.save_rating(name, rating + k * change[side], games + 1, wins + (side == winner))
