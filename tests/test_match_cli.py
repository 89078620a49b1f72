"""``setback match`` and ``setback watch``: results, JSON output and re-scorable JSONL records."""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from setback import compiled
from setback.benchmarks import server as bench_server
from setback.bots import seat
from setback.cli import build_parser, main
from setback.commands.common import bot_players, rules_from
from setback.commands.matches import read_finished
from setback.engine import LowRule, Rules, Variant, replay_record
from setback.match.plan import MatchPlan, game_seed
from setback.match.runner import play_match
from setback.match.tally import PAIRED_MIN_DEALS, paired_interval, wilson_interval

RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
PIPS = {"A": 4, "K": 3, "Q": 2, "J": 1, "10": 10}


def outcomes(stats: dict[str, Any]) -> dict[str, Any]:
    """A bot's totals less the clock's timings and the memory, which vary from run to run."""
    return {k: v for k, v in stats.items() if k not in {"decision_ms", "decision_p99_ms", "peak_rss_mb", "rating"}}


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    capsys.readouterr()
    with pytest.raises(SystemExit) as exit_:
        main(list(argv))
    assert exit_.value.code == 0
    return capsys.readouterr().out


def rescore(record: dict[str, Any]) -> list[int]:
    """Score a game from its record alone, without the engine, and return the final scores."""
    rules = record["rules"]
    teams = rules["teams"]

    def side(seat: int) -> int:
        return seat if teams is None else int(seat % teams)

    sides = rules["players"] if teams is None else teams
    scores = [0] * sides
    for hand in record["hands"]:
        if hand["thrown_in"]:
            assert hand["result"] is None
            continue
        bids = [b for b in hand["bids"] if b["bid"] is not None]
        pitcher, bid = bids[-1]["seat"], bids[-1]["bid"]
        trump = hand["tricks"][0]["cards"][0][-1]

        def rank(card: str) -> int:
            return RANKS.index(card[:-1])

        trumps = [(rank(c), s) for s, cards in enumerate(hand["deal"]) for c in cards if c[-1] == trump]
        points = [0] * sides
        points[side(max(trumps)[1])] += 1
        low_card = next(c for c in hand["deal"][min(trumps)[1]] if c[-1] == trump and rank(c) == min(trumps)[0])
        if rules.get("low", "dealt") == "dealt":  # a record from before the club options has no "low"
            points[side(min(trumps)[1])] += 1
        pips = [0] * sides
        for trick in hand["tricks"]:
            for card in trick["cards"]:
                pips[side(trick["winner"])] += PIPS.get(card[:-1], 0)
                if card == "J" + trump:
                    points[side(trick["winner"])] += 1
                if card == low_card and rules.get("low") == "captured":
                    points[side(trick["winner"])] += 1
        top = max(pips)
        leaders = [s for s in range(sides) if pips[s] == top]
        if top and (len(leaders) == 1 or side(pitcher) in leaders):
            points[leaders[0] if len(leaders) == 1 else side(pitcher)] += 1
        made = points[side(pitcher)] >= bid
        for s in range(sides):
            if s == side(pitcher):
                scores[s] += points[s] if made else -bid
            elif not rules["no_junk"]:
                scores[s] += points[s]
        assert hand["result"]["points"] == points
        assert hand["result"]["scores"] == scores
    return scores


def test_match_prints_a_table_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    table = run_cli(capsys, "match", "random", "random", "random", "random", "--games", "12", "--seed", "7")
    assert "12 games, seed 7" in table
    assert all(f"random #{n}" in table for n in range(1, 5)), "four of one bot: each row says which"
    data = json.loads(run_cli(capsys, "match", "random", "random", "random", "random",
                              "--games", "12", "--seed", "7", "--json"))
    assert data["games"] == 12 and len(data["bots"]) == 4
    assert sum(b["wins"] for b in data["bots"]) == 12
    assert all(b["games"] == 12 for b in data["bots"])
    assert [b["label"] for b in data["bots"]] == [f"random #{n}" for n in range(1, 5)]
    assert all(b["net_per_hand"] < b["points_per_hand"] for b in data["bots"]), "random bots are set back"


def test_match_is_reproducible_from_its_seed() -> None:
    # no clock: a decision starved past it by a loaded machine would be the fallback's, not the seed's
    untimed = seat.Limits(decision_seconds=None)
    a = play_match(MatchPlan(("random",) * 3, Rules(players=3), 8, 42, limits=untimed))
    b = play_match(MatchPlan(("random",) * 3, Rules(players=3), 8, 42, limits=untimed))
    c = play_match(MatchPlan(("random",) * 3, Rules(players=3), 8, 43, limits=untimed))
    assert [outcomes(s.as_dict()) for s in a.stats] == [outcomes(s.as_dict()) for s in b.stats]
    assert [outcomes(s.as_dict()) for s in a.stats] != [outcomes(s.as_dict()) for s in c.stats]
    assert len({game_seed(42, i) for i in range(1000)}) == 1000
    spec = (Path(__file__).parent.parent / "spec.md").read_text()
    for deal in (0, 1):  # the test vectors spec.md gives other implementations
        assert f"{game_seed(7, deal)} for *d* = {deal}" in spec


def test_match_records_can_be_rescored_and_replayed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "games.jsonl"
    run_cli(capsys, "match", "random", "random", "random", "random", "--teams", "2", "--no-junk",
            "--games", "6", "--seed", "3", "--out", str(out), "--json")
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(records) == 6
    for record in records:
        assert rescore(record) == record["scores"] == record["outcome"]["scores"]
        assert all(len(cards) == 6 for hand in record["hands"] for cards in hand["deal"])
        game = replay_record(record)
        assert list(game.scores) == record["scores"]
        assert len(record["players"]) == 4


def test_club_flags_reach_the_records_and_their_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--min-bid 2 --dealer-steal --low captured`` make the match's table: its records name the
    options, rescore from the record alone and replay; ``replay --file`` says the options."""
    out = tmp_path / "club.jsonl"
    run_cli(capsys, "match", "heuristic", "random", "heuristic", "random", "--min-bid", "2", "--dealer-steal",
            "--low", "captured", "--smudge", "--games", "4", "--seed", "3", "--out", str(out))
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert {(r["rules"]["min_bid"], r["rules"]["dealer_steal"], r["rules"]["low"]) for r in records} == {
        (2, True, "captured")
    }
    for record in records:
        assert rescore(record) == record["scores"]
        assert list(replay_record(record).scores) == record["scores"]
        bids = [b["bid"] for hand in record["hands"] for b in hand["bids"] if b["bid"] is not None]
        assert min(bids) >= 2
    told = run_cli(capsys, "replay", "0", "--file", str(out))
    assert "Rules: 4 players · cutthroat · to 11 · smudge · bids from 2 · dealer may steal · low captured" in told


def test_a_record_from_before_the_club_options_replays_as_todays_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A record whose rules have no club option (one written before they existed) is today's game."""
    out = tmp_path / "old.jsonl"
    run_cli(capsys, "match", "random", "random", "--games", "2", "--seed", "8", "--out", str(out))
    for line in out.read_text().splitlines():
        record = json.loads(line)
        for option in ("min_bid", "dealer_steal", "low"):
            del record["rules"][option]
        game = replay_record(record)
        assert game.rules == Rules(players=2)
        assert list(game.scores) == record["scores"] == rescore(record)


@pytest.mark.parametrize("command", [
    ["match", "random", "random"], ["watch"], ["play"], ["bot", "random", "--create"],
])
def test_every_table_command_takes_the_club_flags(command: list[str]) -> None:
    """match, watch, play and bot --create read the club options' flags alike."""
    args = build_parser().parse_args([*command, "--min-bid", "2", "--dealer-steal", "--low", "captured"])
    rules = rules_from(args, 2)
    assert (rules.min_bid, rules.dealer_steal, rules.low) == (2, True, LowRule.CAPTURED)
    plain = rules_from(build_parser().parse_args(command), 2)
    assert (plain.min_bid, plain.dealer_steal, plain.low) == (1, False, LowRule.DEALT)


@pytest.mark.parametrize("command", [
    ["match", "random", "random"], ["watch", "random", "random"], ["play"], ["bot", "random", "--create"],
    ["tournament", "random", "random"],
])
def test_every_table_command_takes_the_variant_flag(command: list[str]) -> None:
    """--variant on every command that makes a table; the target is the variant's unless given,
    and a pedro table is in pairs unless --teams says otherwise."""
    ten = rules_from(build_parser().parse_args([*command, "--variant", "ten_point"]), 2)
    assert (ten.variant, ten.target) == (Variant.TEN_POINT, 21)
    pedro = rules_from(build_parser().parse_args([*command, "--variant", "pedro", "--target", "52"]), 4)
    assert (pedro.variant, pedro.teams, pedro.target) == (Variant.PEDRO, 2, 52)


@pytest.mark.parametrize(("bots", "players"), [(2, 4), (3, 6), (4, 4), (6, 6)])
def test_a_pedro_match_seats_its_bots_in_pairs(bots: int, players: int) -> None:
    """Without --teams a pedro match plays one bot a seat when its bots make pairs, else one a side."""
    args = build_parser().parse_args(["match", *["random"] * bots, "--variant", "pedro"])
    assert bot_players(args) == players
    assert rules_from(args, players).sides == min(bots, players // 2)


def test_one_bot_a_side_with_teams_plays_two_seats_a_side(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--teams 2`` with two bots and no ``--players``: a partnership game of four, not an error."""
    out = tmp_path / "teams.jsonl"
    run_cli(capsys, "match", "heuristic", "random", "--teams", "2", "--games", "2", "--seed", "5", "--out", str(out))
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["rules"]["players"] for r in records] == [4, 4] and records[0]["rules"]["teams"] == 2
    assert records[0]["players"] == ["heuristic", "random", "heuristic", "random"]


def test_watch_tells_a_game_hand_by_hand(capsys: pytest.CaptureFixture[str]) -> None:
    text = run_cli(capsys, "watch", "--seed", "4")
    assert "Hand 1:" in text and "Trick 6:" in text and "won the game" in text
    assert "High:" in text and "Game:" in text


def test_bad_bot_spec_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["match", "random", "nonsense", "--games", "1"])
    assert exit_.value.code == 2
    assert "unknown bot 'nonsense'" in capsys.readouterr().err


def test_wilson_interval_brackets_the_rate() -> None:
    low, high = wilson_interval(90, 100)
    assert low < 0.9 < high and low > 0.82 and high < 0.95


def test_bench_engine_prints_its_figures() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "setback", "bench", "engine", "--seconds", "0.4", "--json"],
        capture_output=True, text=True, check=True, timeout=120,
    )
    figures = json.loads(done.stdout)
    assert figures["setback_actions_per_s"] > 0
    assert "ratio_setback_over_openspiel" in figures or "openspiel" in figures


def test_bench_engine_measures_a_variant_against_the_standard_game() -> None:
    """``--variant V`` measures V in the same rounds and prints its rate as a ratio to the standard game's."""
    done = subprocess.run(
        [sys.executable, "-m", "setback", "bench", "engine", "--seconds", "0.6", "--variant", "ten_point",
         "--variant", "pedro", "--json"],
        capture_output=True, text=True, check=True, timeout=120,
    )
    figures = json.loads(done.stdout)
    for variant in ("ten_point", "pedro"):
        assert figures[f"{variant}_actions_per_s"] > 0
        assert figures[f"{variant}_ratio_to_standard"] == pytest.approx(
            figures[f"{variant}_actions_per_s"] / figures["setback_actions_per_s"], rel=0.01
        )
    assert "joker_actions_per_s" not in figures


def test_bench_server_prints_its_figures(tmp_path: Path) -> None:
    """A short run end to end, twice: both servers in their own processes, figures for each,
    ratios, medians over the runs; the records files the server under test wrote are gone with it."""
    done = subprocess.run(
        [sys.executable, "-m", "setback", "bench", "server",
         "--tables", "2", "--hold", "3", "--seconds", "0.4", "--hold-seconds", "1.5", "--repeat", "2", "--json"],
        capture_output=True, text=True, check=True, timeout=120, env={**os.environ, "TMPDIR": str(tmp_path)},
    )
    assert list(tmp_path.iterdir()) == [], "a benchmark leaves no records file behind"
    figures = json.loads(done.stdout)
    (row,) = figures["rows"]
    assert figures["repeat"] == 2 and len(row["runs"]) == 2
    for run in row["runs"]:
        for side in ("setback", "echo"):
            assert run[side]["decisions_per_s"] > 0 and run[side]["errors"] == 0
            assert run[side]["p50_ms"] <= run[side]["p99_ms"]
            if sys.platform == "linux":
                assert run[side]["server_cpu_us_per_decision"] > 0
            assert run[side]["bots_cpu_us_per_decision"] > 0  # this process's own, on any platform
        assert run["ratio_decisions"] == round(run["setback"]["decisions_per_s"] / run["echo"]["decisions_per_s"], 3)
    assert row["ratio_p99"] == min(run["ratio_p99"] for run in row["runs"]), "of two, the lower middle"
    assert row["setback"]["decisions_per_s"] == min(run["setback"]["decisions_per_s"] for run in row["runs"])
    held = figures["hold"]
    assert held["connections"] == 12 and held["errors"] == 0 and held["bots_lost"] == 0
    assert held["p50_ms"] <= held["p99_ms"] and held["decisions_per_s"] > 0
    records = held["records"]
    assert records["games_seen_to_end"] > 0 and records["seen_not_recorded"] == 0, "every game ended is recorded"
    assert records["games_finished"] >= records["games_seen_to_end"] and records["timeouts"] == 0
    assert records["actions"] > 0 and records["db_bytes"] > 0
    if sys.platform == "linux":
        assert set(held["server_rss_kb"]) == {"idle", "start", "middle", "end"}
    assert figures["build"] == compiled.STATUS  # which server was measured: compiled or Python


def test_bench_server_medians_are_each_figures_and_each_ratios_own() -> None:
    """Over runs, each figure is its median, and each ratio the median of the runs' ratios
    (not a ratio of medians: a run's two servers shared the machine's moment)."""
    def pair(ours: float, echo: float, p99: float, cpu: float | None) -> dict[str, Any]:
        return {
            "setback": {"decisions_per_s": ours, "p99_ms": p99, "server_cpu_us_per_decision": cpu},
            "echo": {"decisions_per_s": echo, "p99_ms": 1.0, "server_cpu_us_per_decision": cpu},
            "ratio_decisions": round(ours / echo, 3), "ratio_p99": p99,
        }

    pairs = [pair(50, 100, 3.5, 12.0), pair(90, 100, 2.0, None), pair(30, 40, 2.5, 14.0)]
    row = bench_server._row(50, pairs)
    assert row["setback"]["decisions_per_s"] == 50 and row["echo"]["decisions_per_s"] == 100
    assert row["ratio_decisions"] == 0.75 and row["ratio_p99"] == 2.5
    assert row["setback"]["server_cpu_us_per_decision"] == 12.0, "a run that could not tell is left out"
    assert row["runs"] == pairs
    assert "runs" not in bench_server._row(50, pairs[:1]) and bench_server._row(50, pairs[:1])["ratio_p99"] == 3.5


def test_a_holds_round_trips_counted_in_buckets_give_the_quantiles_of_the_list() -> None:
    """A hold keeps its round trips as counts in buckets 0.5% wide: its p50 and p99 are those
    of the whole list to within a bucket."""
    rng = random.Random(7)
    rtts = [rng.lognormvariate(-7, 1) for _ in range(20_000)]
    listed, bucketed = bench_server.Tally(), bench_server.Tally(rtts=None, buckets={})
    for rtt in rtts:
        listed.note(rtt)
        bucketed.note(rtt)
    assert bucketed.decisions == listed.decisions == 20_000
    for share in (0.5, 0.99):
        assert bucketed.quantile(share) == pytest.approx(listed.quantile(share), rel=0.003)


def test_an_unknown_bot_is_named_before_the_count_is_checked(capsys: pytest.CaptureFixture[str]) -> None:
    """`watch foo` and `match foo` name the unknown bot rather than complain of the number of bots."""
    for argv in (["watch", "foo", "--players", "4"], ["match", "foo", "--players", "4", "--games", "1"]):
        with pytest.raises(SystemExit) as exit_:
            main(argv)
        assert exit_.value.code == 2
        assert "unknown bot 'foo'" in capsys.readouterr().err


def test_a_wrong_number_of_bots_is_counted_in_plain_english(capsys: pytest.CaptureFixture[str]) -> None:
    """One bot for four seats says so without a "1 bots"."""
    for argv in (["watch", "random", "--players", "4"], ["match", "random", "--players", "4", "--games", "1"]):
        with pytest.raises(SystemExit) as exit_:
            main(argv)
        assert exit_.value.code == 2
        err = capsys.readouterr().err
        assert "4 players" in err and "not 1" in err and "1 bots" not in err


@contextlib.contextmanager
def interruptible() -> Iterator[None]:
    """While a child starts: this process catches Ctrl-C, so the child gets the default. A shell
    starts a background job with SIGINT ignored, and an ignored signal stays ignored across exec
    (Python then installs no handler): a suite run that way would otherwise send its Ctrl-C to a
    match that cannot hear it."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


@pytest.mark.skipif(sys.platform == "win32", reason="sends SIGINT")
def test_ctrl_c_says_how_many_games_are_kept_and_how_to_resume(tmp_path: Path) -> None:
    """Interrupted, `match --out FILE` says on stderr how many games FILE keeps and how to finish."""
    out = tmp_path / "games.jsonl"
    with interruptible():
        process = subprocess.Popen(
            [sys.executable, "-m", "setback", "match", "random", "random", "--games", "100000", "--seed", "1",
             "--out", str(out)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
    deadline = time.monotonic() + 60
    while (not out.exists() or out.read_bytes().count(b"\n") < 2) and time.monotonic() < deadline:
        time.sleep(0.02)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130
    kept = len(read_finished(out))
    assert kept >= 2
    assert f"{kept} of 100000 games kept in {out}" in err
    assert "rerun the same command with --resume" in err


@pytest.mark.skipif(sys.platform == "win32", reason="sends SIGINT")
def test_ctrl_c_twice_stops_a_match_on_several_processes_at_once(tmp_path: Path) -> None:
    """A terminal's Ctrl-C reaches every process of the group, and people press it twice: the
    match still stops at once, without tracebacks, and leaves no worker behind."""
    out = tmp_path / "games.jsonl"
    with interruptible():
        process = subprocess.Popen(
            [sys.executable, "-m", "setback", "match", "random", "random", "--games", "100000", "--seed", "1",
             "--jobs", "2", "--out", str(out)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
        )
    deadline = time.monotonic() + 60
    while (not out.exists() or out.read_bytes().count(b"\n") < 2) and time.monotonic() < deadline:
        time.sleep(0.02)
    os.killpg(process.pid, signal.SIGINT)
    time.sleep(0.05)
    os.killpg(process.pid, signal.SIGINT)
    _, err = process.communicate(timeout=30)
    assert process.returncode == 130
    assert "Traceback" not in err and "games kept in" in err
    deadline = time.monotonic() + 10
    while _group_alive(process.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _group_alive(process.pid), "a worker outlived the match"


def _group_alive(group: int) -> bool:
    try:
        os.killpg(group, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.mark.parametrize(
    ("source", "said"),
    [
        ("class Broken(\n", "SyntaxError: '(' was never closed (broken.py, line 1)"),
        ("import no_such_module\n", "ModuleNotFoundError: No module named 'no_such_module' (broken.py, line 1)"),
        ("x = 1 / 0\n", "ZeroDivisionError: division by zero (broken.py, line 1)"),
    ],
)
def test_a_bot_file_that_fails_to_load_is_one_line(
    source: str, said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from setback.cli import main

    bot = tmp_path / "broken.py"
    bot.write_text(source)
    with pytest.raises(SystemExit) as exit_:
        main(["match", f"{bot}:Broken", "random", "--games", "1"])
    assert exit_.value.code == 2
    error = capsys.readouterr().err
    assert said in error and len(error.strip().splitlines()) == 1


def test_out_does_not_overwrite_the_games_of_another_match(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from setback.cli import main

    out = tmp_path / "games.jsonl"
    run_cli(capsys, "match", "random", "random", "--games", "2", "--seed", "1", "--out", str(out))
    kept = out.read_text()
    with pytest.raises(SystemExit) as exit_:
        main(["match", "random", "random", "--games", "3", "--seed", "2", "--out", str(out)])
    assert exit_.value.code == 2 and "--resume" in capsys.readouterr().err
    assert out.read_text() == kept


BAD_BOTS = """
import os
import sys
import time

from setback.bots import Bot

RELEASE = "RELEASE_FILE"


class Stuck(Bot):
    def bid(self, view):
        return view.legal[0]

    def play(self, view):
        while not os.path.exists(RELEASE):  # as good as for ever (the test lets it go)
            time.sleep(0.01)
        return view.legal[0]


class Chatty(Bot):
    def bid(self, view):
        print("thinking about", view.legal)
        return view.legal[0]

    def play(self, view):
        print("playing")
        return view.legal[0]


class Quitter(Bot):
    def bid(self, view):
        return view.legal[0]

    def play(self, view):
        sys.exit(3)


class Broken(Bot):
    def __init__(self, seed=0):
        raise RuntimeError("no model file")
"""


def failing_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """Run the command, which must fail with status 1 and say why in one line on stderr (after
    any warnings the bots' logs gave); that line."""
    capsys.readouterr()
    with pytest.raises(SystemExit) as exit_:
        main(list(argv))
    assert exit_.value.code == 1
    said = capsys.readouterr().err.strip().splitlines()
    assert said[-1].startswith(f"setback {argv[0]}: ") and not any(line.startswith("setback ") for line in said[:-1])
    return said[-1]


@pytest.mark.parametrize("command", [["match", "random", "random"], ["watch", "random", "random"],
                                     ["tournament", "random", "heuristic"], ["bot", "random", "--create"]])
def test_decision_ms_is_read_once_into_seconds(command: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """Every ``--decision-ms`` flag gives the code the limit in seconds (0: none), as the wire's
    ``decision_seconds`` is; a negative one is a mistake in what was typed."""
    parse = build_parser().parse_args
    assert parse([*command, "--decision-ms", "250"]).decision_seconds == 0.25
    assert parse([*command, "--decision-ms", "0"]).decision_seconds is None
    with pytest.raises(SystemExit) as exit_:
        parse([*command, "--decision-ms", "-5"])
    assert exit_.value.code == 2 and "milliseconds are 0 (no limit) or more, not -5" in capsys.readouterr().err


def test_a_match_records_the_flags_limit_in_seconds(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--decision-ms 250`` is a limit of 0.25 s in the records (spec.md section 5's ``limit``)."""
    out = tmp_path / "games.jsonl"
    run_cli(capsys, "match", "random", "random", "--games", "1", "--seed", "3", "--decision-ms", "250",
            "--out", str(out))
    assert json.loads(out.read_text())["match"]["limit"] == 0.25


def test_a_bot_that_never_returns_stops_the_match_and_says_where(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its thread cannot be stopped and would slow every later game: the match stops, naming
    the place the bot is stuck, and says how many games the file keeps."""
    monkeypatch.setattr(seat, "STUCK_GRACE_SECONDS", 0.2)
    release = tmp_path / "release"
    (tmp_path / "bad.py").write_text(BAD_BOTS.replace("RELEASE_FILE", str(release)))
    out = tmp_path / "games.jsonl"
    try:
        err = failing_cli(capsys, "match", f"{tmp_path}/bad.py:Stuck", "random", "--games", "4", "--seed", "1",
                          "--decision-ms", "50", "--out", str(out))
    finally:
        release.touch()
    assert "Stuck (seat 0) is still running at bad.py:" in err and "in play()" in err
    assert f"0 of 4 games kept in {out}" in err


def test_what_a_bot_prints_goes_to_stderr_not_into_the_result(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "bad.py").write_text(BAD_BOTS)
    capsys.readouterr()
    with pytest.raises(SystemExit):
        main(["match", f"{tmp_path}/bad.py:Chatty", "random", "--games", "2", "--seed", "1", "--json"])
    captured = capsys.readouterr()
    assert json.loads(captured.out)["games"] == 2 and "thinking about" in captured.err


def test_a_bot_that_exits_or_cannot_be_made(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """sys.exit in a bot's move is that bot's error, not the match's end; a constructor that
    raises stops the match in one line naming the bot and the place."""
    (tmp_path / "bad.py").write_text(BAD_BOTS)
    text = run_cli(capsys, "match", f"{tmp_path}/bad.py:Quitter", "random", "--games", "2", "--seed", "1", "--json")
    quitter = json.loads(text)["bots"][0]
    assert quitter["errors"] > 0 and quitter["games"] == 2
    err = failing_cli(capsys, "match", f"{tmp_path}/bad.py:Broken", "random", "--games", "2", "--seed", "1")
    line = BAD_BOTS.splitlines().index('        raise RuntimeError("no model file")') + 1
    assert err.endswith(f"making the bot failed: RuntimeError: no model file (bad.py, line {line})")


def test_a_bot_file_imports_the_modules_beside_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "strategy_of_mine.py").write_text("def choose(legal):\n    return legal[-1]\n")
    (tmp_path / "mine.py").write_text(
        "from strategy_of_mine import choose\nfrom setback.bots import Bot\n\n\n"
        "class Mine(Bot):\n    def bid(self, view):\n        return choose(view.legal)\n\n"
        "    def play(self, view):\n        return choose(view.legal)\n"
    )
    text = run_cli(capsys, "match", f"{tmp_path}/mine.py:Mine", "random", "--games", "2", "--seed", "2", "--json")
    assert json.loads(text)["games"] == 2


def test_replay_tells_a_game_of_a_record_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`replay --file` reads a match's records: game N as the match numbers it, seats as it sat them."""
    out = tmp_path / "games.jsonl"
    run_cli(capsys, "match", "heuristic", "random", "--games", "3", "--seed", "4", "--out", str(out))
    record = [json.loads(line) for line in out.read_text().splitlines()][1]
    text = run_cli(capsys, "replay", "--file", str(out), "1")
    assert text.startswith(f"Game 1 of games.jsonl, seed {record['seed']}: {', '.join(record['players'])}")
    assert "Hand 1:" in text and "won the game" in text
    with pytest.raises(SystemExit) as exit_:
        main(["replay", "--file", str(out), "9"])
    assert exit_.value.code == 2 and "no game 9 in" in capsys.readouterr().err


def test_a_duplicate_match_of_enough_deals_pairs_its_intervals_by_deal() -> None:
    """Each deal's win rate over its seatings, then the interval of their mean: the luck of the
    cards, shared by a deal's seatings, is left out. Fewer deals, or no duplicate: Wilson."""
    records: list[dict[str, Any]] = []
    plan = MatchPlan(("heuristic", "random"), Rules(players=2), games=2 * PAIRED_MIN_DEALS, seed=8, duplicate=True)
    result = play_match(plan, on_record=records.append)
    heuristic = result.stats[0]
    per_deal: dict[int, list[int]] = {}
    for record in records:
        seat = record["match"]["seating"].index(0)
        per_deal.setdefault(record["match"]["deal"], []).append(int(record["outcome"]["winner"] == seat))
    expected = paired_interval([sum(w) / len(w) for w in per_deal.values()])
    assert heuristic.paired and heuristic.win_interval() == expected
    assert result.as_dict()["bots"][0]["ci95_paired_by_deal"] is True
    few = play_match(MatchPlan(("heuristic", "random"), Rules(players=2), games=10, seed=8, duplicate=True))
    assert not few.stats[0].paired
    assert few.stats[0].win_interval() == wilson_interval(few.stats[0].wins, few.stats[0].games)


def test_a_match_says_when_a_bot_decides_by_time_spent(capsys: pytest.CaptureFixture[str]) -> None:
    """Its games differ from run to run: the match notes it (not for a bot given playouts only)."""
    for spec, timed in (("search@budget_ms=1", True), ("search@budget_ms=None,playouts=5", False)):
        capsys.readouterr()
        with pytest.raises(SystemExit):
            main(["match", spec, "random", "--games", "2", "--seed", "1"])
        assert (f"{spec} decides by time spent" in capsys.readouterr().err) is timed


def test_watch_without_a_seed_deals_a_new_game_and_says_how_to_see_it_again(
    capsys: pytest.CaptureFixture[str],
) -> None:
    first = run_cli(capsys, "watch", "heuristic", "random").splitlines()
    seed = int(first[0].split()[1])
    assert first[0] == f"Seed {seed} (setback watch --seed {seed} tells this game again)."
    assert run_cli(capsys, "watch", "heuristic", "random", "--seed", str(seed)).splitlines() == first[1:]
    assert "heuristic-0" in first[1]  # named as a server names its bots


def test_bench_match_plays_the_same_games_every_way() -> None:
    """`setback bench match` measures the bare loop, --jobs 1 and --jobs 2 on the same games and gives ratios."""
    from setback.benchmarks import match as bench_match

    result = bench_match.run(random_games=3, heuristic_games=6, jobs=2)
    for field in ("random", "heuristic"):
        figures = result[field]
        assert figures["bare_games_per_s"] > 0 and figures["jobs_2_games_per_s"] > 0
        assert figures["ratio_jobs_1_over_bare"] > 0 and figures["ratio_jobs_2_over_jobs_1"] > 0
