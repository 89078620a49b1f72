"""``setback check-bot``: the built-in bots and the Node.js example pass every check, and a bot
that gets things wrong on purpose fails the checks for what it gets wrong."""

from __future__ import annotations

import asyncio
import json
import shutil
import sys
from pathlib import Path

import pytest

from setback.cli import main
from setback.conformance import run_checks
from setback.conformance.checks import (
    CHECKS,
    SESSIONS,
    check_clock,
    check_drop,
    check_events,
    check_kind,
    decide_kind,
    sessions_of,
    to_bot,
)
from setback.conformance.sessions import BotUnderTest, Transcript, play_session
from setback.conformance.tap import Heard
from setback.engine import Variant

ROOT = Path(__file__).resolve().parent.parent
BROKEN = Path(__file__).resolve().parent / "broken_bot.py"
NODE = shutil.which("node")


def failed(spec: str) -> set[str]:
    verdicts = run_checks(spec)
    assert len(verdicts) == len(CHECKS)
    return {v.name for v in verdicts if not v.passed}


@pytest.mark.parametrize("spec", ["random", "heuristic", "search@budget_ms=10"])
def test_the_built_in_bots_pass_every_check(spec: str) -> None:
    assert failed(spec) == set()


@pytest.mark.parametrize(("spec", "variant"), [("random", Variant.TEN_POINT), ("heuristic", Variant.PEDRO)])
def test_the_built_in_bots_pass_every_check_at_a_variant_table(spec: str, variant: Variant) -> None:
    """`check-bot --variant V`: every session at a table of V (pedro seating pairs, none
    cutthroat), each of its decisions named by V's suits, and a check that the bot was asked
    to bid to V's top bid (and held a joker where V has them); every check passes."""
    sessions = sessions_of(variant)
    assert all(s.variant is variant for s in sessions)
    if variant is Variant.PEDRO:
        assert all(s.teams is not None and s.players // s.teams >= 2 for s in sessions)
    verdicts = run_checks(spec, variant=variant)
    assert [v.name for v in verdicts if not v.passed] == []
    assert {s.name for s in sessions} | {variant.value} <= {v.name for v in verdicts}


def test_check_bot_help_and_spec_name_the_variant(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["check-bot", "--help"])
    assert "--variant {standard,joker,ten_point,pedro}" in capsys.readouterr().out
    spec = (ROOT / "spec.md").read_text()
    checking = spec[spec.index("**Checking a bot.**"):spec.index("## 21.")]
    assert "`--variant V`" in checking


@pytest.mark.skipif(NODE is None, reason="needs Node.js (node) on the PATH to run examples/node/bot.js")
def test_the_node_example_passes_every_check() -> None:
    assert failed(f"cmd:node {ROOT / 'examples' / 'node' / 'bot.js'}") == set()


def test_a_bot_that_ignores_pings_refusals_and_the_next_game_fails_those_checks() -> None:
    """It never pongs, never answers a refused request again, quits on any error or a dropped
    line, and is slow on a short clock."""
    found = failed(f"cmd:{sys.executable} {BROKEN} no-pong,no-retry,no-ready,quits,slow")
    assert {"ping", "illegal answer", "stale request", "dropped connection", "server restart", "next game",
            "clock", "4 players, 2 games"} <= found
    assert {"handshake", "bid", "follow", "3 players", "7 players"}.isdisjoint(found)


SDK_BOTS = Path(__file__).resolve().parent / "broken_sdk_bots.py"
BROKEN_SDK = {
    "Raises": ({"bid", "forced bid", "pitch", "lead", "follow", "void"}, "the bot raised RuntimeError: no "),
    "PlaysZZ": ({"pitch", "lead", "follow", "void"}, "the bot returned 'play ZZ', not an action"),
    "BidsZero": ({"bid", "forced bid"}, "the bot returned 'bid 0', not an action"),
    "ReturnsNone": ({"bid", "forced bid", "pitch", "lead", "follow", "void"}, "the bot returned None, not an action"),
    "Sleeps": ({"clock"}, "the bot did not answer within"),
}


@pytest.mark.parametrize("name", BROKEN_SDK)
def test_a_broken_sdk_bot_fails_the_checks_whose_answers_the_sdk_replaced(name: str) -> None:
    """The SDK's seat plays the fallback for a bot that raises, returns no legal action or is
    too slow, so the wire shows only legal lines: the check that saw the replaced answer
    fails all the same, saying what the bot did, and the others pass."""
    checks, what = BROKEN_SDK[name]
    verdicts = run_checks(f"{SDK_BOTS}:{name}")
    failing = {v.name: v.detail for v in verdicts if not v.passed}
    assert set(failing) == checks
    assert all(what in detail and "in its place" in detail for detail in failing.values()), failing


def test_the_events_check_fails_when_no_event_came() -> None:
    """A bot that asks for events (by saying nothing of them) and got none never sat in a game."""
    hello = {"type": "hello", "version": "1.3", "name": "b", "kind": "bot"}
    heard = [Heard(0.0, "bot", 1, hello, json.dumps(hello))]
    verdict = check_events([Transcript(SESSIONS[0], heard, [])])
    assert not verdict.passed and "no event came" in verdict.detail


def _decide(at: float, request: int, hand: list[str]) -> Heard:
    view = {"phase": "play", "trump": "S", "trick": [{"seat": 1, "card": "2H"}], "hand": hand,
            "legal": [f"play {hand[0]}"]}
    message = {"type": "decide", "request": request, "view": view, "clock": {"limit_ms": 1000}}
    return Heard(at, "server", 1, message, json.dumps(message))


def _act(at: float, request: int, card: str) -> Heard:
    message = {"type": "act", "request": request, "action": f"play {card}"}
    return Heard(at, "bot", 1, message, json.dumps(message))


def test_an_act_the_clock_ran_out_on_is_the_clocks_failure_not_the_decisions() -> None:
    """A slow bot's act for the game's last decide may still be on its way when the session
    ends: past the decide's clock, a missing act fails the clock's check only; before it,
    the decision's kind fails too, and a kind never answered fails with the missing act."""
    answered = [_decide(0.0, 1, ["3H", "4S"]), _act(0.5, 1, "3H")]
    ran_out = [_decide(1.0, 2, ["5H", "4S"]), Heard(2.5, "server", 1, None, "")]
    follow, clock = check_kind("follow"), check_clock
    slow = [Transcript(SESSIONS[1], answered + ran_out, [])]
    assert follow(slow).passed
    assert not clock(slow).passed and "never answered request 2" in clock(slow).detail
    cut = [Transcript(SESSIONS[1], answered + ran_out[:1], [])]
    assert not follow(cut).passed and "no act for request 2" in follow(cut).detail
    never = [Transcript(SESSIONS[1], ran_out, [])]
    assert not follow(never).passed and "no act for request 2" in follow(never).detail


def test_a_bot_that_plays_cards_it_does_not_hold_fails_the_checks_of_each_decision() -> None:
    found = failed(f"cmd:{sys.executable} {BROKEN} illegal")
    assert {"bid", "forced bid", "pitch", "lead", "follow", "void", "3 players"} <= found
    assert {"handshake", "ping"}.isdisjoint(found)


def test_a_bot_that_comes_back_without_its_token_fails_the_reconnection_checks() -> None:
    found = failed(f"cmd:{sys.executable} {BROKEN} no-token")
    assert {"dropped connection", "server restart"} <= found
    assert {"handshake", "bid", "follow", "ping", "3 players"}.isdisjoint(found)


def test_a_session_ends_as_soon_as_the_bot_comes_back_without_its_token(tmp_path: Path) -> None:
    """Its seat is held for the token alone, so the session is over for the bot at its tokenless
    hello: it ends there, before the clock (10 s a decision) has timed the seat out four times and
    put a stand-in in it, let alone played the game out (it once waited its whole 180 s); the
    dropped-connection check still says what the bot did."""
    bot = BotUnderTest(f"cmd:{sys.executable} {BROKEN} no-token")
    session = SESSIONS[0]
    transcript = asyncio.run(play_session(bot, session, tmp_path, 1))
    assert not transcript.finished and transcript.ended_early is not None
    assert "came back without its seat's token" in transcript.ended_early
    assert next(to_bot(transcript.heard, "game_over"), None) is None
    seats = [h.message["table"]["seats"][session.seat] for h in to_bot(transcript.heard, "table") if h.message]
    assert seats and not any(seat["replaced_by_bot"] for seat in seats)
    verdict = check_drop([transcript])
    assert not verdict.passed and verdict.detail.startswith("came back without its seat's token: {")


def test_a_bot_whose_hello_is_unreadable_fails_the_handshake_and_everything_after() -> None:
    found = failed(f"cmd:{sys.executable} {BROKEN} bad-hello")
    assert {"handshake", "events", "bid", *(session.name for session in SESSIONS)} <= found


def test_the_command_exits_1_with_a_json_verdict_for_each_check(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["check-bot", "--json", f"cmd:{sys.executable} {BROKEN} bad-hello"])
    assert exit_.value.code == 1
    report = json.loads(capsys.readouterr().out)
    assert report["passed"] is False
    assert len(report["checks"]) == len(CHECKS)
    assert all({"check", "passed", "detail", "expected"} <= set(check) for check in report["checks"])


def test_a_spec_that_is_no_bot_is_a_typing_mistake(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["check-bot", "no_such_bot"])
    assert exit_.value.code == 2


@pytest.mark.parametrize(("view", "kind"), [
    ({"phase": "bidding", "legal": ["pass", "bid 1"]}, "bid"),
    ({"phase": "bidding", "legal": ["bid 1", "bid 2"]}, "forced bid"),
    ({"phase": "playing", "trick": [], "trump": None, "hand": ["2H"]}, "pitch"),
    ({"phase": "playing", "trick": [], "trump": "H", "hand": ["2H"]}, "lead"),
    ({"phase": "playing", "trick": [{"seat": 0, "card": "KS"}], "trump": "H", "hand": ["2S", "3H"]}, "follow"),
    ({"phase": "playing", "trick": [{"seat": 0, "card": "KS"}], "trump": "H", "hand": ["2D", "3H"]}, "void"),
    ({"phase": "playing", "trick": [{"seat": 0, "card": "BJ"}], "trump": "H", "hand": ["JD", "3C"],
      "rules": {"variant": "ten_point"}}, "follow"),  # a joker led is trump led; the off-jack is trump
    ({"phase": "playing", "trick": [{"seat": 0, "card": "KD"}], "trump": "H", "hand": ["JD", "3C"],
      "rules": {"variant": "ten_point"}}, "void"),  # the off-jack is no diamond
])
def test_a_decision_is_named_by_what_it_asks(view: dict[str, object], kind: str) -> None:
    assert decide_kind(view) == kind
