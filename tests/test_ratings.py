"""Elo from rated games (spec.md section 18): every side against every other side."""

from __future__ import annotations

import pytest

from setback.engine import Variant
from setback.server.history import leaderboard_rows
from setback.server.ratings import START, key_parts, rating_key, update_ratings
from setback.server.store import Store


def test_a_two_side_game_moves_the_winner_up_and_the_loser_down_by_as_much() -> None:
    store = Store(":memory:")
    update_ratings(store, ["ann", "bob", "cy", "di"], [0, 1, 0, 1], winner=1)
    ann, bob = store.rating_of("ann"), store.rating_of("bob")
    assert ann is not None and bob is not None
    assert bob[0] - START == pytest.approx(START - ann[0]) == pytest.approx(16.0)  # K 32, even odds
    assert (ann[1:], bob[1:]) == ((1, 0), (1, 1))


def test_a_name_on_two_sides_of_a_game_is_not_rated_by_it() -> None:
    """Two seats of one built-in bot, one on each side, played against themselves."""
    store = Store(":memory:")
    update_ratings(store, ["builtin:heuristic", "ann", "builtin:heuristic", "bob"], [0, 1, 0, 1], winner=0)
    assert store.rating_of("builtin:heuristic") is not None  # partners on one side are rated
    update_ratings(store, ["builtin:random", "ann", "builtin:random"], [0, 1, 2], winner=2)
    assert store.rating_of("builtin:random") is None
    ann = store.rating_of("ann")
    assert ann is not None and ann[1] == 2 and ann[0] < START


def test_a_stand_in_bot_can_cost_its_player_a_loss_but_never_earn_a_win() -> None:
    """Leaving a rated game never helps a rating, and a bot's win is not its player's."""
    store = Store(":memory:")
    update_ratings(store, ["ann", "bob", "cy", "di"], [0, 1, 0, 1], winner=0, stood_in=frozenset({0, 1}))
    assert store.rating_of("ann") is None, "ann's side won while a bot played for her"
    bob = store.rating_of("bob")
    assert bob is not None and bob[0] < START, "bob's side lost: his loss stands"
    cy = store.rating_of("cy")
    assert cy is not None and cy[0] > START and cy[1:] == (1, 1), "her partner, who played, won"


def test_each_variant_keeps_its_own_ratings() -> None:
    """A win at a ten_point table moves the player's ten_point rating, not the standard one, and
    the leaderboard of each variant lists only its own games."""
    store = Store(":memory:")
    update_ratings(store, ["ann", "bob"], [0, 1], winner=0)
    update_ratings(store, [rating_key(name, Variant.TEN_POINT) for name in ("ann", "bob")], [0, 1], winner=1)
    store.commit()
    standard = {row["player"]: row for row in leaderboard_rows(store)}
    ten = {row["player"]: row for row in leaderboard_rows(store, Variant.TEN_POINT)}
    assert standard["ann"]["rating"] > START > standard["bob"]["rating"]
    assert ten["bob"]["rating"] > START > ten["ann"]["rating"]
    assert (ten["ann"]["games"], ten["ann"]["wins"]) == (1, 0)
    assert leaderboard_rows(store, Variant.PEDRO) == []
    assert key_parts(rating_key("a b", Variant.JOKER)) == ("a b", Variant.JOKER)
