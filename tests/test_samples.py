"""`setback samples`: records become one row per decision, read back with pyarrow and checked against them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest

from setback.cli import main
from setback.engine import ACTIONS, BIG_JOKER, LITTLE_JOKER, Card, Rules, Variant, rules_of
from setback.match import MatchPlan, play_match
from setback.match.samples import write_samples

Samples = tuple[list[dict[str, Any]], list[dict[str, Any]]]
"""A match's records, and the rows of their samples."""


@pytest.fixture(scope="module")
def samples(tmp_path_factory: pytest.TempPathFactory) -> Samples:
    """A small match's records (two players, then two teams of two) and the rows of their samples."""
    folder = tmp_path_factory.mktemp("samples")
    records = []
    for n, argv in enumerate((["heuristic", "random", "--players", "2"], ["heuristic", "random", "--teams", "2"])):
        out = folder / f"games{n}.jsonl"
        with pytest.raises(SystemExit) as exit_:
            main(["match", *argv, "--games", "2", "--seed", "6", "--decision-ms", "0", "--out", str(out), "--json"])
        assert exit_.value.code == 0
        records += [json.loads(line) for line in out.read_text().splitlines()]
    both = folder / "both.jsonl"
    both.write_text("".join(json.dumps(r) + "\n" for r in records) + '{"torn": ')
    with pytest.raises(SystemExit) as exit_:
        main(["samples", str(both), "--out", str(folder / "samples.parquet"), "--json"])
    assert exit_.value.code == 0
    return records, pq.read_table(folder / "samples.parquet").to_pylist()


def test_rows_are_every_decision_in_order(samples: Samples) -> None:
    """One row per action of each record (a torn last line left out), in order, with the SPEC that chose it."""
    records, rows = samples
    assert len(rows) == sum(len(r["actions"]) for r in records)
    for number, record in enumerate(records):
        mine = [row for row in rows if row["record"] == number]
        assert [str(ACTIONS[row["action"]]) for row in mine] == record["actions"]
        assert [row["decision"] for row in mine] == list(range(len(mine)))
        assert all(row["player"] == record["players"][row["seat"]] for row in mine)
        assert all(row["game"] == record["match"]["game"] for row in mine)


def test_a_row_holds_what_its_seat_could_see(samples: Samples) -> None:
    """The hand is the seat's own (its size as the view says), the action is among the legal ones, and a
    card played was in the hand; the first row of a hand shows the hand as dealt."""
    records, rows = samples
    for row in rows:
        assert row["legal"] >> row["action"] & 1
        assert row["hand"].bit_count() == row["hand_sizes"][row["seat"]]
        if row["phase"] == 1:
            assert row["hand"] >> row["action"] & 1
        assert len(row["bids"]) == len(row["bid_seats"])
    first = next(row for row in rows if row["record"] == 0 and row["decision"] == 0)
    dealt = records[0]["hands"][0]["deal"][first["seat"]]
    assert first["hand"] == sum(1 << Card.parse(text) for text in dealt)


def test_outcomes_are_the_records_for_the_seats_side(samples: Samples) -> None:
    """Each row's hand points, score change and set-back, and its game's result, are its side's in the record."""
    records, rows = samples
    for row in rows:
        record = records[row["record"]]
        side = row["side"]
        result = next(h["result"] for h in record["hands"] if h["number"] == row["hand_number"])
        assert row["hand_scored"] == (result is not None)
        if result is not None:
            assert (row["hand_points"], row["hand_delta"]) == (result["points"][side], result["deltas"][side])
            teams = record["rules"]["teams"]
            pitchers = result["pitcher"] % teams if teams else result["pitcher"]
            assert row["hand_set_back"] == (result["set_back"] and pitchers == side)
        assert row["game_won"] == (record["outcome"]["winner"] == side)
        assert row["game_score"] == record["outcome"]["scores"][side]


def test_rows_name_the_variant_and_hold_its_jokers(tmp_path: Path) -> None:
    """Each row names its table's variant; at ten_point a joker played is its index in ``action``
    and bit 52 + its place (BJ 53, LJ 54) in the ``hand`` and ``legal`` masks."""
    records: list[dict[str, Any]] = []
    for variant in (Variant.STANDARD, Variant.TEN_POINT):
        plan = MatchPlan(("heuristic", "random"), Rules(players=2, variant=variant, target=7), 4, seed=3)
        play_match(plan, on_record=records.append)
    out = tmp_path / "variants.parquet"
    assert write_samples(records, out)[0] == 8
    rows = pq.read_table(out).to_pylist()
    assert [row["variant"] for row in rows] == [
        rules_of(records[row["record"]]["rules"]).variant.value for row in rows
    ]
    assert {row["variant"] for row in rows} == {"standard", "ten_point"}
    jokers = [row for row in rows if row["phase"] == 1 and row["action"] in (BIG_JOKER, LITTLE_JOKER)]
    assert jokers
    for row in jokers:
        bit = 53 if row["action"] == BIG_JOKER else 54
        assert row["hand"] >> bit & 1 and row["legal"] >> bit & 1
        assert row["hand"].bit_count() == row["hand_sizes"][row["seat"]]
