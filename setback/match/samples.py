"""Samples for learning: one row per decision of recorded games, in a columnar file (Parquet).

Every record (spec.md section 5) is replayed through the engine; before each action the
view of the seat to act is taken, as the bot saw it, and becomes a row with the action it
chose and what came of it for that seat's side: the hand's points and score change, whether
the side was set back, and the game's result. spec.md section 5 ("Samples") lists the
columns. Cards are their indexes (0-51: clubs 2 to ace, then diamonds, hearts, spades; the
jokers 63-65) and sets of cards or actions are 64-bit masks (bit *i* for index or code *i*), so
that a learner reads the columns as arrays without parsing anything. Each row names its
table's ``variant``. A joker's index would not fit a 64-bit mask, so in a mask a joker is bit
52 + its place among the jokers (``JK`` 52, ``BJ`` 53, ``LJ`` 54: bits no card holds; in
``legal`` they are bids only in the bidding phase, where no card is legal); lists and
``action`` hold its index.

``pyarrow`` is an optional extra (``pip install 'setback[learn]'``), imported only here.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from setback.engine import MAX_BID, PASS_CODE, Game, Phase, View, parse_action, replay_record
from setback.engine.record import rules_of

EXTRA = "pip install 'setback[learn]'"
"""How to install what ``setback samples`` needs."""

ROWS_PER_GROUP = 1 << 16
"""Rows written at a time (a Parquet row group): the memory a conversion holds is bounded by it."""

MAX_BID_CODE = PASS_CODE + MAX_BID
"""The highest action code that is no card: a bid of the highest bid of any variant."""

PHASES = {Phase.BIDDING: 0, Phase.PLAYING: 1}
"""The ``phase`` column's values."""


def _pyarrow() -> Any:
    try:
        import pyarrow
        import pyarrow.parquet
    except ImportError:
        raise ValueError(f"setback samples writes Parquet with pyarrow: {EXTRA}") from None
    return pyarrow


def schema() -> Any:
    """The Parquet schema of the samples (spec.md section 5, "Samples")."""
    pa = _pyarrow()
    small = pa.list_(pa.int8())
    return pa.schema([
        ("record", pa.int32()), ("game", pa.int32()), ("player", pa.dictionary(pa.int32(), pa.string())),
        ("variant", pa.dictionary(pa.int8(), pa.string())),
        ("players", pa.int8()), ("sides", pa.int8()), ("seat", pa.int8()), ("side", pa.int8()),
        ("decision", pa.int16()), ("hand_number", pa.int16()), ("dealer", pa.int8()), ("phase", pa.int8()),
        ("hand", pa.uint64()), ("hand_sizes", small), ("bid_seats", small), ("bids", small),
        ("pitcher", pa.int8()), ("bid", pa.int8()), ("trump", pa.int8()),
        ("trick_leader", pa.int8()), ("trick", small),
        ("tricks_leaders", small), ("tricks_winners", small), ("tricks_cards", small), ("played", pa.uint64()),
        ("scores", pa.list_(pa.int16())), ("legal", pa.uint64()), ("action", pa.int8()),
        ("hand_scored", pa.bool_()), ("hand_points", pa.int8()), ("hand_delta", pa.int8()),
        ("hand_set_back", pa.bool_()), ("game_won", pa.bool_()), ("game_score", pa.int16()),
        ("game_margin", pa.int16()),
    ])


JOKER_BIT_SHIFT = 11
"""A joker's bit in a mask is its index less this (63-65 become 52-54: see the module docstring)."""


def _mask(items: Iterable[int]) -> int:
    """The 64-bit mask of card indexes or action codes ``items`` (a joker as bit 52-54)."""
    mask = 0
    for item in items:
        mask |= 1 << (item - JOKER_BIT_SHIFT if item > MAX_BID_CODE else item)
    return mask


def _row(view: View, side: int, action: int) -> dict[str, Any]:
    """The columns a view and the action taken give (the outcome's are added per hand and game)."""
    trick = view.trick
    return {
        "seat": view.seat, "side": side, "hand_number": view.hand_number, "dealer": view.dealer,
        "phase": PHASES[view.phase], "hand": _mask(view.hand), "hand_sizes": list(view.hand_sizes),
        "bid_seats": [b.seat for b in view.bids], "bids": [getattr(b, "amount", 0) for b in view.bids],
        "pitcher": -1 if view.pitcher is None else view.pitcher, "bid": view.bid or 0,
        "trump": -1 if view.trump is None else int(view.trump),
        "trick_leader": trick[0].seat if trick else -1, "trick": [int(d.card) for d in trick],
        "tricks_leaders": [t.plays[0].seat for t in view.tricks], "tricks_winners": [t.winner for t in view.tricks],
        "tricks_cards": [int(d.card) for t in view.tricks for d in t.plays],
        "played": _mask(d.card for t in view.tricks for d in t.plays),
        "scores": list(view.scores), "legal": _mask(a.code for a in view.legal), "action": action,
    }


def record_rows(number: int, record: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The rows of one record (``number``: its place in the file), decision by decision."""
    rules = rules_of(record["rules"])
    outcome = record.get("outcome")
    if outcome is None:
        raise ValueError(f"record {number} is of an unfinished game: it has no outcome to learn from")
    game: Game = replay_record({**record, "actions": []})  # the deal, from a set one too
    results = {hand["number"]: hand["result"] for hand in record["hands"]}
    final = outcome["scores"]
    players = record.get("players") or [""] * rules.players
    index = (record.get("match") or {}).get("game", number)
    for decision, text in enumerate(record["actions"]):
        seat = game.to_act
        assert seat is not None
        view = game.view(seat)
        action = parse_action(text)
        side = rules.side_of(seat)
        result = results.get(view.hand_number)
        others = [score for s, score in enumerate(final) if s != side]
        yield {
            "record": number, "game": index, "player": players[seat], "variant": rules.variant.value,
            "players": rules.players,
            "sides": rules.sides, "decision": decision, **_row(view, side, action.code),
            "hand_scored": result is not None,
            "hand_points": result["points"][side] if result else 0,
            "hand_delta": result["deltas"][side] if result else 0,
            "hand_set_back": bool(result and result["set_back"] and rules.side_of(result["pitcher"]) == side),
            "game_won": outcome["winner"] == side, "game_score": final[side],
            "game_margin": final[side] - max(others),
        }
        game.apply(action, seat)  # an action that is not legal: IllegalActionError, a ValueError


def write_samples(records: Iterable[dict[str, Any]], out: Path) -> tuple[int, int]:
    """Write the samples of ``records`` to the Parquet file ``out``; the games and rows written."""
    pa = _pyarrow()
    layout = schema()
    names = layout.names
    games = rows = 0
    batch: list[dict[str, Any]] = []
    with pa.parquet.ParquetWriter(str(out), layout) as writer:

        def flush() -> None:
            if batch:
                columns = {name: [row[name] for row in batch] for name in names}
                writer.write_table(pa.Table.from_pydict(columns, schema=layout))
                batch.clear()

        for number, record in enumerate(records):
            games += 1
            for row in record_rows(number, record):
                batch.append(row)
                rows += 1
                if len(batch) >= ROWS_PER_GROUP:
                    flush()
        flush()
    return games, rows
