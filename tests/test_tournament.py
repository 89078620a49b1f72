"""Tournaments: round robin and gauntlet pairings, the cross table and standings, resuming from records."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from setback.bots.levels import LEVELS
from setback.bots.seat import DecisionStats, duration_bucket
from setback.cli import main
from setback.engine import Rules, plain
from setback.match.tournament import TournamentPlan, bradley_terry

FAST = ("--decision-ms", "0", "--json")


def tournament(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    capsys.readouterr()
    with pytest.raises(SystemExit) as exit_:
        main(["tournament", *argv, *FAST])
    assert exit_.value.code == 0
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    return data


def test_round_robin_pairs_every_table_of_bots() -> None:
    """A round robin of 3 or 4 bots at heads-up tables plays every two of them; at three seats every three."""
    assert TournamentPlan(("a", "b", "c"), Rules(players=2)).pairings() == [(0, 1), (0, 2), (1, 2)]
    assert len(TournamentPlan(("a", "b", "c", "d"), Rules(players=2)).pairings()) == 6
    assert TournamentPlan(("a", "b", "c", "d"), Rules(players=3), games=3).pairings() == [
        (0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3)]


def test_gauntlet_pairs_the_first_bot_with_the_others() -> None:
    """A gauntlet seats the first bot at every table, against every choice of the others."""
    assert TournamentPlan(("a", "b", "c"), Rules(players=2), "gauntlet").pairings() == [(0, 1), (0, 2)]
    assert TournamentPlan(("a", "b", "c", "d"), Rules(players=2), "gauntlet").pairings() == [(0, 1), (0, 2), (0, 3)]
    assert TournamentPlan(("a", "b", "c", "d"), Rules(players=3), "gauntlet", games=3).pairings() == [
        (0, 1, 2), (0, 1, 3), (0, 2, 3)]


def test_rounds_deal_every_pairing_the_same_cards() -> None:
    """Round r's matches are all seeded S + r."""
    plan = TournamentPlan(("a", "b", "c"), Rules(players=2), rounds=2, seed=7)
    assert [m.seed for m in plan.matches()] == [7, 7, 7, 8, 8, 8]
    assert [plan.place(n) for n in (0, 4)] == [(0, 0), (1, 1)]


def test_cross_table_of_three_bots(capsys: pytest.CaptureFixture[str]) -> None:
    """Every two bots' scores add up to 1 over the games they played; nobody meets itself; Elo centres on 0."""
    data = tournament(capsys, "heuristic", "random", "heuristic@boldness=1", "--games-per-pairing", "6",
                      "--duplicate", "--seed", "4")
    cross = data["cross_table"]
    assert data["games"] == 18
    for i in range(3):
        assert cross[i][i] is None
        for j in range(3):
            if i != j:
                assert cross[i][j]["games"] == 6
                assert cross[i][j]["score"] + cross[j][i]["score"] == pytest.approx(1)
                low, high = cross[i][j]["ci95"]
                assert low <= cross[i][j]["score"] <= high
    standings = data["standings"]
    assert [row["elo"] for row in standings] == sorted((row["elo"] for row in standings), reverse=True)
    assert sum(row["elo"] for row in standings) == pytest.approx(0, abs=0.5)
    assert standings[-1]["spec"] == "random" and all("openskill" not in row for row in standings)
    assert [row["rank"] for row in standings] == [1, 2, 3]  # the place, not the order the bots were named in
    assert standings[-1]["bot"] == 2 and standings[-1]["rank"] == 3


def test_the_printed_standings_are_ranked_and_say_what_the_number_is(capsys: pytest.CaptureFixture[str]) -> None:
    """The table's first column is the rank (random, named first, is last), and # is the
    bot's number in the cross table, as its heading says."""
    with pytest.raises(SystemExit) as exit_:
        main(["tournament", "random", "heuristic", "--games-per-pairing", "4", "--duplicate", "--seed", "3"])
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    assert "ranked by Elo, # is the bot's number in the cross table" in " ".join(out.split())
    cells = [[c.strip() for c in line.strip().strip("│").split("│")] for line in out.splitlines() if "±" in line]
    ranked = [(row[0], row[1], row[2]) for row in cells]
    assert ranked == [("1", "2", "heuristic"), ("2", "1", "random")], out


def test_gauntlet_of_four_bots_meets_only_the_first(capsys: pytest.CaptureFixture[str]) -> None:
    """In a gauntlet the others never meet one another: their cells are empty."""
    data = tournament(capsys, "heuristic", "random", "random", "heuristic", "--format", "gauntlet",
                      "--games-per-pairing", "4", "--seed", "1")
    cross = data["cross_table"]
    assert data["games"] == 12 and len(data["matches"]) == 3
    assert all(cross[0][j] is not None and cross[j][0] is not None for j in (1, 2, 3))
    assert all(cross[i][j] is None for i in (1, 2, 3) for j in (1, 2, 3))


def test_tables_of_three_rate_with_openskill(capsys: pytest.CaptureFixture[str]) -> None:
    """At cutthroat tables of three, every two bots of a game meet, and the standings add OpenSkill."""
    data = tournament(capsys, "heuristic", "random", "random", "heuristic@boldness=1", "--players", "3",
                      "--games-per-pairing", "3", "--seed", "2")
    assert data["games"] == 12
    assert all("openskill" in row for row in data["standings"])
    assert data["cross_table"][0][1]["games"] == 6  # bots 0 and 1 share two of the four tables


MEASURED = ("decision_ms", "decision_p99_ms", "peak_rss_mb")
"""What a tournament's results measure rather than count: it varies from run to run."""


def without_timings(data: dict[str, Any]) -> dict[str, Any]:
    """A tournament's result less what the clock and the memory measured."""
    text = json.dumps(data)
    plain = json.loads(text)
    for row in [*plain["standings"], *(bot for match in plain["matches"] for bot in match["result"]["bots"])]:
        for measured in MEASURED:
            row.pop(measured)
    return dict(plain)


def test_a_stopped_tournament_resumes_to_the_same_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Records cut short (a torn last line too) and resumed give the same final standings and cross table."""
    out = tmp_path / "cup"
    argv = ["heuristic", "random", "search@budget_ms=None,playouts=4", "--games-per-pairing", "4", "--rounds", "2",
            "--duplicate", "--seed", "3", "--out", str(out)]
    whole = tournament(capsys, *argv)
    files = sorted(out.glob("*.jsonl"))
    search = "search_budget_ms=None_playouts=4"
    assert [f.name for f in files] == [
        "01-heuristic-vs-random.jsonl", f"02-heuristic-vs-{search}.jsonl", f"03-random-vs-{search}.jsonl"]
    lines = files[1].read_text().splitlines(keepends=True)
    files[1].write_text("".join(lines[:3]) + lines[3][:25])
    files[2].write_text("")
    resumed = tournament(capsys, *argv, "--resume")
    assert without_timings(resumed) == without_timings(whole)
    assert sum(len(f.read_text().splitlines()) for f in files) == 24


def test_resume_refuses_the_records_of_another_tournament(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Records of another seed are not mixed into a tournament."""
    out = tmp_path / "cup.jsonl"
    tournament(capsys, "random", "random", "random", "--games-per-pairing", "2", "--out", str(out))
    with pytest.raises(SystemExit) as exit_:
        main(["tournament", "random", "random", "random", "--games-per-pairing", "2", "--seed", "9", "--out", str(out),
              "--resume"])
    assert exit_.value.code == 2
    assert "not from this tournament" in capsys.readouterr().err


def test_bradley_terry_finds_the_elo_of_a_score() -> None:
    """Two players who split 3 to 1 over many games are 400 log10 3 Elo apart, centred on 0, with finite bars."""
    (a, bar_a), (b, bar_b) = bradley_terry(2, {(0, 1): (7500.0, 10000.0), (1, 0): (2500.0, 10000.0)})
    assert a - b == pytest.approx(400 * math.log10(3), abs=0.5)
    assert a == pytest.approx(-b)
    assert bar_a == pytest.approx(bar_b)
    assert bar_a == pytest.approx(1.96 * 400 / math.log(10) / math.sqrt(10000 * 0.75 * 0.25) / 2, rel=0.01)


def test_levels_plays_the_ladder_of_the_levels_bots(capsys: pytest.CaptureFixture[str]) -> None:
    """--levels is the levels' bots, weakest first, each against each (and any BOT named after);
    with no bot at all the tournament is refused."""
    data = tournament(capsys, "--levels", "random", "--games-per-pairing", "1", "--seed", "2")
    specs = {row["spec"] for row in data["standings"]}
    assert specs == {*LEVELS.values(), "random"}
    assert data["games"] == 10
    with pytest.raises(SystemExit) as exit_:
        main(["tournament", *FAST])
    assert exit_.value.code != 0


def test_the_standings_give_each_bots_p99_decision_time_and_peak_memory(capsys: pytest.CaptureFixture[str]) -> None:
    """Beside the mean ms a decision, each bot's standing has the time within which 99% of its
    decisions were made and the peak memory of the processes that played its games, in the
    table and in --json (two worker processes here, each game's peak its own)."""
    data = tournament(capsys, "random", "heuristic", "--games-per-pairing", "4", "--seed", "5", "--jobs", "2")
    for row in data["standings"]:
        assert row["decisions"] > 0
        assert 0 < row["decision_ms"] <= row["decision_p99_ms"] < 10_000, row
        assert 10 < row["peak_rss_mb"] < 4096, row  # an interpreter is some tens of MB; no game takes GBs
    capsys.readouterr()
    with pytest.raises(SystemExit):
        main(["tournament", "random", "heuristic", "--games-per-pairing", "2", "--seed", "5"])
    lines = capsys.readouterr().out.splitlines()
    cells = [[c.strip() for c in line.replace("┃", "│").strip().strip("│").split("│")] for line in lines]
    heading, *rows = [row for row in cells if "rank" in row or "±" in " ".join(row)]
    mean, p99, peak = (heading.index(name) for name in ("ms/decision", "p99 ms", "peak MB"))
    assert len(rows) == 2
    assert all(float(row[mean]) <= float(row[p99]) and float(row[peak]) > 10 for row in rows), rows


def test_the_p99_is_the_top_of_the_bucket_that_holds_it() -> None:
    """Of 1 ms to 100 ms, a decision of each whole ms, 99% took 99 ms or less: the p99 is 99 ms
    to the buckets' 4.4%, never under; the mean is exact; stats added together add their buckets."""
    one, other = DecisionStats(), DecisionStats()
    for ms in range(1, 101):
        into = one if ms % 2 else other
        into.decisions += 1
        into.seconds += ms / 1000
        into.buckets[duration_bucket(ms / 1000)] = into.buckets.get(duration_bucket(ms / 1000), 0) + 1
    one.add(other)
    p99 = one.quantile_seconds(0.99)
    assert p99 is not None and 0.099 <= p99 <= 0.099 * 2 ** (1 / 16)
    assert one.seconds_per_decision == pytest.approx(0.0505)
    assert DecisionStats().quantile_seconds(0.99) is None
    assert DecisionStats.of(json.loads(json.dumps(plain(one)))) == one
