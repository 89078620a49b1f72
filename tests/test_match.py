"""Match plans: seating by seat or by side, duplicate deals, parallel jobs, resuming, the bot template."""

from __future__ import annotations

import json
import pickle
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import setback.match.runner as match_module
from setback.bots.seat import Limits
from setback.cli import main
from setback.engine import Rules
from setback.match import MatchPlan, play_match
from setback.match.runner import Played, chunk_size, run_game
from setback.match.tally import MatchResult, openskill_ratings


def without_clock(record: dict[str, Any]) -> dict[str, Any]:
    """A record less its decision timings and memory, which vary from run to run."""
    return {**record, "match": {k: v for k, v in record["match"].items() if k not in {"clock", "peak_rss_mb"}}}


def test_one_bot_a_seat_rotates_every_game() -> None:
    """With one SPEC a seat, seat s of game i is played by bot (s + i) mod n."""
    plan = MatchPlan(("a", "b", "c"), Rules(players=3), 6)
    assert [plan.seating(i) for i in range(3)] == [(0, 1, 2), (1, 2, 0), (2, 0, 1)]


def test_one_bot_a_side_plays_every_seat_of_its_side() -> None:
    """Two SPECs at a four-player table of two teams: each plays both seats of one side, sides alternate."""
    plan = MatchPlan(("a", "b"), Rules(players=4, teams=2), 4)
    assert plan.by_side
    assert plan.seating(0) == (0, 1, 0, 1) and plan.seating(1) == (1, 0, 1, 0)
    six = MatchPlan(("a", "b", "c"), Rules(players=6, teams=3), 3)
    assert six.seating(0) == (0, 1, 2, 0, 1, 2)


def test_the_number_of_bots_must_fit_the_table() -> None:
    """Neither one a seat nor one a side is an error naming both choices."""
    with pytest.raises(ValueError, match="one bot a seat"):
        MatchPlan(("a", "b", "c"), Rules(players=4, teams=2), 2)
    with pytest.raises(ValueError, match="multiple of 2"):
        MatchPlan(("a", "b"), Rules(players=2), 3, duplicate=True)


def test_duplicate_replays_each_deal_from_every_seat() -> None:
    """Each deal is played once per rotation, from the same seed, with every bot at every seat."""
    plan = MatchPlan(("heuristic", "random"), Rules(players=2), 6, seed=4, duplicate=True)
    records = [run_game(plan, i) for i in range(6)]
    for deal in range(3):
        pair = records[2 * deal : 2 * deal + 2]
        assert pair[0]["seed"] == pair[1]["seed"]
        assert pair[0]["hands"][0]["deal"] == pair[1]["hands"][0]["deal"]
        assert [r["match"]["seating"] for r in pair] == [[0, 1], [1, 0]]
        assert [r["players"] for r in pair] == [["heuristic", "random"], ["random", "heuristic"]]
        assert all(r["match"]["deal"] == deal and r["match"]["duplicate"] for r in pair)
    assert len({r["seed"] for r in records}) == 3


def test_a_plan_reaches_a_worker_process_whole() -> None:
    """A plan is pickled to the workers (and to Ray's): its clock too, compiled or not."""
    for limits in (Limits(None), Limits(0.25)):
        plan = MatchPlan(("heuristic", "random"), Rules(players=2, target=7), 4, seed=3, limits=limits)
        assert pickle.loads(pickle.dumps(plan)) == plan


def test_a_played_game_carries_its_line_and_what_a_tally_reads() -> None:
    """A worker sends a game's line and its digest: the line is the record, and a tally of the
    digests is the tally of the records."""
    plan = MatchPlan(("heuristic", "random", "random"), Rules(players=3), 3, seed=4)
    records = [run_game(plan, index) for index in range(plan.games)]
    played = [Played.of(record) for record in records]
    assert [json.loads(p.line) for p in played] == [json.loads(json.dumps(r)) for r in records]
    assert all(p.line.endswith(b"}\n") and p.line.count(b"\n") == 1 for p in played)
    from_records, from_digests = MatchResult(plan), MatchResult(plan)
    for record, game in zip(records, played, strict=True):
        from_records.add(record)
        from_digests.add(game.digest)
    assert from_digests.as_dict() == from_records.as_dict()
    marked = played[0].with_fields(tournament={"match": 2, "round": 0})
    assert marked.record == {**played[0].record, "tournament": {"match": 2, "round": 0}}
    with pytest.raises(ValueError, match="outcome"):
        played[0].with_fields(outcome=None)


def test_ratings_kept_game_by_game_are_the_ratings_of_every_game_in_order() -> None:
    """At a table of three, the ratings are brought up to date as games come; games that come
    out of order (a resumed match's) are rated in the games' order all the same."""
    plan = MatchPlan(("heuristic", "random", "random"), Rules(players=3), 9, seed=6)
    played = [Played.of(run_game(plan, index)) for index in range(plan.games)]
    in_order, shuffled = MatchResult(plan), MatchResult(plan)
    for game in played:
        in_order.add(game.digest)
    for index in (4, 0, 8, 1, 2, 3, 5, 7, 6):
        shuffled.add(played[index].digest)
    in_order.rate()
    shuffled.rate()
    scratch = openskill_ratings(list(plan.specs), [in_order.sides[i] for i in range(plan.games)])
    assert in_order.rated == plan.games
    assert [s.rating for s in in_order.stats] == [s.rating for s in shuffled.stats] == scratch
    assert scratch[0][0] > scratch[1][0]


def test_workers_are_handed_games_in_chunks_that_leave_no_long_tail() -> None:
    assert chunk_size(1, 2) == 1 and chunk_size(200, 2) == 3 and chunk_size(10_000, 2) == 16
    assert all(games // chunk_size(games, jobs) >= min(games, 32 * jobs) for games in range(1, 2000, 7)
               for jobs in (2, 3, 8))


def test_jobs_give_the_same_games_as_one_process() -> None:
    """With deterministic bots, --jobs 2 plays exactly the games --jobs 1 does, in the same order."""
    plan = MatchPlan(("heuristic", "search@budget_ms=None,playouts=24"), Rules(players=4, teams=2), 4,
                     seed=9, duplicate=True)
    one: list[dict[str, Any]] = []
    two: list[dict[str, Any]] = []
    a = play_match(plan, jobs=1, on_record=one.append)
    b = play_match(plan, jobs=2, on_record=two.append)
    assert [without_clock(r) for r in one] == [without_clock(r) for r in two]
    assert [s.wins for s in a.stats] == [s.wins for s in b.stats]


def test_resume_plays_only_the_missing_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A stopped match resumes from its records: finished games are kept, not replayed, and counted."""
    out = tmp_path / "games.jsonl"
    argv = ["match", "heuristic", "random", "--games", "6", "--seed", "3", "--duplicate", "--out", str(out),
            "--json"]
    with pytest.raises(SystemExit):
        main(argv)
    full = json.loads(capsys.readouterr().out)
    lines = out.read_text().splitlines(keepends=True)
    out.write_text("".join(lines[:3]) + lines[3][:40])  # stopped in the middle of writing game 3
    played: list[int] = []
    real_run_game = match_module.run_game

    def counting_run_game(plan: MatchPlan, index: int) -> dict[str, Any]:
        played.append(index)
        return real_run_game(plan, index)

    monkeypatch.setattr(match_module, "run_game", counting_run_game)
    with pytest.raises(SystemExit) as exit_:
        main([*argv, "--resume"])
    assert exit_.value.code == 0
    resumed = json.loads(capsys.readouterr().out)
    assert played == [3, 4, 5]
    assert out.read_text().splitlines(keepends=True)[:3] == lines[:3]
    assert [without_clock(json.loads(x)) for x in out.read_text().splitlines()] == [
        without_clock(json.loads(x)) for x in lines
    ]
    assert resumed["games"] == 6
    assert [b["wins"] for b in resumed["bots"]] == [b["wins"] for b in full["bots"]]


def test_resume_refuses_the_records_of_another_match(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Records written with other bots or another seed are not mixed into a match."""
    out = tmp_path / "games.jsonl"
    with pytest.raises(SystemExit):
        main(["match", "random", "random", "--games", "2", "--seed", "1", "--out", str(out), "--json"])
    capsys.readouterr()
    with pytest.raises(SystemExit) as exit_:
        main(["match", "random", "random", "--games", "2", "--seed", "2", "--out", str(out), "--resume"])
    assert exit_.value.code == 2
    assert "not from this match" in capsys.readouterr().err


def test_new_bot_template_runs_in_a_match(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`setback new-bot NAME` writes a bot that plays a match as printed, without errors."""
    with pytest.raises(SystemExit) as exit_:
        main(["new-bot", "my_bot", "--dir", str(tmp_path)])
    assert exit_.value.code == 0
    told = capsys.readouterr().out
    assert f"setback match {tmp_path / 'my_bot.py'}:MyBot random" in told
    with pytest.raises(SystemExit) as exit_:
        main(["match", f"{tmp_path / 'my_bot.py'}:MyBot", "random", "--games", "4", "--json"])
    assert exit_.value.code == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 4 and data["bots"][0]["errors"] == 0 and data["bots"][0]["timeouts"] == 0
    with pytest.raises(SystemExit) as exit_:
        main(["new-bot", "my_bot", "--dir", str(tmp_path)])
    assert exit_.value.code == 2


def test_match_table_shows_clock_and_ratings(capsys: pytest.CaptureFixture[str]) -> None:
    """The table names every bot with its decision time, timeouts and errors; three or more get ratings."""
    with pytest.raises(SystemExit):
        main(["match", "heuristic", "random", "random", "--games", "6", "--seed", "1", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert all("rating" in b and b["decisions"] > 0 for b in data["bots"])
    assert data["bots"][0]["rating"]["mu"] > data["bots"][1]["rating"]["mu"]
    with pytest.raises(SystemExit):
        main(["match", "heuristic", "random", "--games", "4", "--seed", "1"])
    table = capsys.readouterr().out
    assert "ms/decision" in table and "timeouts" in table and "4 games, seed 1" in table


CRASHING_BOT = '''
import os

from setback.bots.base import RandomBot


class Crasher(RandomBot):
    """Plays the bidding, then takes its worker process down with it (as a crash in a C
    library, or the system killing it for its memory, would)."""

    def play(self, view):
        os._exit(3)
'''


def test_a_worker_process_that_dies_stops_the_match_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A bot that kills its worker process does not leave --jobs 2 waiting forever for the
    games that worker held: the match stops with status 1 and says what happened and what
    was kept."""
    (tmp_path / "crasher.py").write_text(CRASHING_BOT)
    out = tmp_path / "games.jsonl"
    with pytest.raises(SystemExit) as exit_:
        main(["match", f"{tmp_path / 'crasher.py'}:Crasher", "random", "--games", "200", "--jobs", "2",
              "--out", str(out)])  # handed 3 games at a time
    assert exit_.value.code == 1
    lines = capsys.readouterr().err.strip().splitlines()
    assert "a worker process died while playing its games" in lines[-1]
    assert f"0 of 200 games kept in {out}" in lines[-1]


LATE_CRASHING_BOT = '''
import os

from setback.bots.base import RandomBot

made = 0


class LateCrasher(RandomBot):
    """Plays two games well, then in its third ends the process it plays in."""

    def __init__(self, seed=0):
        super().__init__(seed)
        global made
        made += 1

    def play(self, view):
        if made == 3:
            os._exit(3)
        return super().play(view)
'''


@pytest.mark.parametrize("clock", ["0", "1000"])
def test_with_one_job_a_bot_that_calls_os_exit_stops_the_match_with_one_line(tmp_path: Path, clock: str) -> None:
    """With --jobs 1 the games are played in the match's own process: a bot's os._exit stops
    the match with status 1 and one line saying where it was called, the games before it kept,
    as a worker's death does with --jobs N (the bot called directly, with no clock, and on
    its seat's thread, under one)."""
    (tmp_path / "crasher.py").write_text(LATE_CRASHING_BOT)
    out = tmp_path / "games.jsonl"
    done = subprocess.run(
        [sys.executable, "-m", "setback", "match", f"{tmp_path / 'crasher.py'}:LateCrasher", "random", "--games", "6",
         "--seed", "2", "--jobs", "1", "--decision-ms", clock, "--out", str(out)],
        check=False, capture_output=True, text=True, timeout=120, cwd=tmp_path,
    )
    assert done.returncode == 1, done.stderr
    said = [line for line in done.stderr.splitlines() if line.startswith("setback ")]
    line = LATE_CRASHING_BOT.splitlines().index("            os._exit(3)") + 1
    assert said == [f"setback match: a bot called os._exit(3) at crasher.py:{line} in play() in game 2; with "
                    "--jobs 1 that would end the match's own process, so the match stops here; 2 of 6 games kept "
                    f"in {out} (fix the bot, then --resume)"]
    assert len(out.read_text().splitlines()) == 2
