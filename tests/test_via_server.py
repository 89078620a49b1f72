"""`setback match --via-server`: the same seeds and deterministic bots give identical records
offline and through a real server; external `cmd:` bots play over the protocol."""

from __future__ import annotations

import json
import shlex
import shutil
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from wire import RawClient, running_server

from setback.bots.registry import hello_name
from setback.bots.seat import Limits
from setback.commands.via_server import via_server_records
from setback.engine import LowRule, Rules
from setback.match.plan import MatchPlan
from setback.match.runner import play_match

GAME_FIELDS = ("version", "rules", "seed", "players", "draws", "first_dealer", "hands", "actions", "scores", "outcome")


def records(plan: MatchPlan, via_server: bool) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    play_match(plan, on_record=out.append, player=via_server_records if via_server else None)
    return out


@pytest.mark.parametrize(
    ("specs", "rules"),
    [
        (("heuristic", "random"), Rules(players=2)),
        (("heuristic", "random"), Rules(players=4, teams=2, smudge=True)),
        (("random", "heuristic", "random"), Rules(players=3, forced_dealer_bid=False, no_junk=True, target=7)),
        (("heuristic", "random"), Rules(players=2, min_bid=2, dealer_steal=True, low=LowRule.CAPTURED, smudge=True)),
        (("heuristic", "random"), Rules(players=4, teams=2, dealer_steal=True, low=LowRule.CAPTURED, no_junk=True)),
        (("random", "heuristic", "random"), Rules(players=3, min_bid=2, forced_dealer_bid=False, target=7)),
        (("beginner", "heuristic"), Rules(players=4, teams=2, smudge=True)),
        (("beginner@mistakes=0.5", "random", "heuristic"), Rules(players=3, target=7)),
        (("search@budget_ms=None,playouts=24", "heuristic"), Rules(players=2, min_bid=2, dealer_steal=True,
                                                                    low=LowRule.CAPTURED, target=7)),
        (("expert@budget_ms=None,playouts=24,solves=4", "search@budget_ms=None,playouts=24"),
         Rules(players=2, target=7)),
        (("expert@budget_ms=None,playouts=24,solves=2", "heuristic"), Rules(players=4, teams=2, target=7)),
    ],
)
def test_offline_and_via_server_records_are_identical(specs: tuple[str, ...], rules: Rules) -> None:
    plan = MatchPlan(specs, rules, games=len(specs) * 2, seed=41, duplicate=True, limits=Limits(decision_seconds=5.0))
    offline = records(plan, via_server=False)
    online = records(plan, via_server=True)
    assert len(offline) == len(online) == plan.games
    for a, b in zip(offline, online, strict=True):
        assert {k: a[k] for k in GAME_FIELDS} == {k: b[k] for k in GAME_FIELDS}
        measured = {"clock", "peak_rss_mb"}  # (a server's game has no peak of its own: its tables share a process)
        assert {k: v for k, v in a["match"].items() if k not in measured} == {
            k: v for k, v in b["match"].items() if k not in measured
        }
        assert a["match"]["peak_rss_mb"] > 0 and b["match"]["peak_rss_mb"] is None
        assert [c["decisions"] for c in a["match"]["clock"]] == [c["decisions"] for c in b["match"]["clock"]]


NODE = shutil.which("node")
NODE_BOT = Path(__file__).resolve().parent.parent / "examples" / "node" / "bot.js"


@pytest.mark.skipif(NODE is None, reason="needs Node.js (node) on the PATH")
def test_external_program_plays_a_match_via_server() -> None:
    plan = MatchPlan((f"cmd:{NODE} {NODE_BOT}", "random"), Rules(players=2, target=7), games=4, seed=5,
                     limits=Limits(decision_seconds=5.0))
    result = play_match(plan, player=via_server_records)
    node = result.as_dict()["bots"][0]
    assert node["games"] == 4
    assert node["timeouts"] == 0 and node["errors"] == 0
    assert node["wins"] >= 2, "the node bot should beat uniform random"


@pytest.mark.skipif(NODE is None, reason="needs Node.js (node) on the PATH")
def test_a_1_2_program_plays_a_club_table_from_its_legal_actions() -> None:
    """The node bot speaks 1.2 and knows no club option: told them inside ``rules``, it ignores
    them as spec.md says and plays every decision from ``legal``, without a timeout or an error."""
    rules = Rules(players=2, target=7, min_bid=2, dealer_steal=True, low=LowRule.CAPTURED)
    plan = MatchPlan((f"cmd:{NODE} {NODE_BOT}", "random"), rules, games=2, seed=5, limits=Limits(decision_seconds=5.0))
    node = play_match(plan, player=via_server_records).as_dict()["bots"][0]
    assert node["games"] == 2 and node["timeouts"] == 0 and node["errors"] == 0


def test_external_bots_need_a_server(capsys: pytest.CaptureFixture[str]) -> None:
    from setback.cli import main

    with pytest.raises(SystemExit) as exit_:
        main(["match", "cmd:node bot.js", "random", "--games", "2"])
    assert exit_.value.code == 2
    assert "--via-server" in capsys.readouterr().err


PYTHON_BOT = """
import json, os, socket, sys

stream = socket.create_connection((os.environ["SETBACK_HOST"], int(os.environ["SETBACK_PORT"]))).makefile("rwb")


def send(**message):
    stream.write(json.dumps(message).encode() + b"\\n")
    stream.flush()


send(type="hello", id="hello", version="1.0", name=os.environ["SETBACK_NAME"], kind="bot")
send(type="join", id="join", table=os.environ["SETBACK_TABLE"], seat=int(os.environ["SETBACK_SEAT"]), ready=True)
for line in stream:
    message = json.loads(line)
    if message["type"] == "error" and (message.get("fatal") or message.get("id") in ("hello", "join")):
        sys.exit(f"refused: {message['code']}: {message['message']}")
    elif message["type"] == "decide":
        send(type="act", request=message["request"], action=message["view"]["legal"][0])
    elif message["type"] == "ping":
        send(type="pong", nonce=message.get("nonce"))
    elif message["type"] == "game_over":
        send(type="ready")
"""


def test_external_program_is_stopped_once_its_game_is_recorded(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A `cmd:` program never leaves on its own: the runner stops it at the game's end instead of
    waiting for it, and reports its decisions and timeouts as the server saw them, its time per
    decision as not measured (null), never as a fake 0."""
    from setback.cli import main

    script = tmp_path / "first_legal.py"
    script.write_text(PYTHON_BOT)
    external = f"cmd:{sys.executable} {script}"
    start = time.perf_counter()
    with pytest.raises(SystemExit) as exit_:
        main(["match", external, "random", "--players", "2", "--target", "7", "--games", "2", "--seed", "3",
              "--via-server", "--json"])
    elapsed = time.perf_counter() - start
    assert exit_.value.code == 0
    assert elapsed < 5, f"2 games took {elapsed:.1f} s: the runner waited for the program to leave"
    program, _ = json.loads(capsys.readouterr().out)["bots"]
    assert program["games"] == 2
    assert program["decisions"] > 0 and program["timeouts"] == 0
    assert program["decision_ms"] is None


LEAVING_BOT = """
import json, os, socket, sys

assert os.environ["SETBACK_TEST_INHERITED"] == "yes"
stream = socket.create_connection((os.environ["SETBACK_HOST"], int(os.environ["SETBACK_PORT"]))).makefile("rwb")


def send(**message):
    stream.write(json.dumps(message).encode() + b"\\n")
    stream.flush()


send(type="hello", version="1.0", name=os.environ["SETBACK_NAME"], kind="bot")
send(type="join", table=os.environ["SETBACK_TABLE"], seat=int(os.environ["SETBACK_SEAT"]), ready=True)
for line in stream:
    message = json.loads(line)
    if message["type"] == "decide":
        send(type="act", request=message["request"], action=message["view"]["legal"][0])
    elif message["type"] == "ping":
        send(type="pong", nonce=message.get("nonce"))
    elif message["type"] == "game_over":
        sys.exit(5)
"""


def test_a_cmd_bot_inherits_the_environment_and_may_exit_after_game_over(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """As spec.md section 20 says: the runner's environment is the program's, and a program
    that leaves once it has its game_over (with any status), without a ``ready``, has done
    nothing wrong."""
    from setback.cli import main

    monkeypatch.setenv("SETBACK_TEST_INHERITED", "yes")
    script = tmp_path / "leaves.py"
    script.write_text(LEAVING_BOT)
    with pytest.raises(SystemExit) as exit_:
        main(["match", f"cmd:{shlex.join([sys.executable, str(script)])}", "random", "--players", "2",
              "--target", "7", "--games", "2", "--seed", "3", "--via-server", "--json"])
    out, err = capsys.readouterr()
    assert exit_.value.code == 0, err
    program, _ = json.loads(out)["bots"]
    assert program["games"] == 2 and program["decisions"] > 0


LONG_FOLDER = "a folder whose name is longer than any name a hello may say"


@pytest.mark.parametrize(
    "interpreter",
    [
        pytest.param("python3", id="python3-on-PATH"),
        pytest.param("long", id="interpreter-by-its-long-path"),
    ],
)
def test_a_cmd_bot_under_a_folder_with_a_long_name_plays_its_match(
    interpreter: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A bot author's first match: the program and even its interpreter in a folder with a long
    name; the name the runner gives it to say in its hello must still be one a server takes."""
    from setback.cli import main

    folder = tmp_path / LONG_FOLDER
    folder.mkdir()
    script = folder / "first_legal.py"
    script.write_text(PYTHON_BOT)
    if interpreter == "long":
        (folder / "python3").symlink_to(sys.executable)
        interpreter = str(folder / "python3")
    elif shutil.which(interpreter) is None:
        pytest.skip("needs python3 on the PATH")
    with pytest.raises(SystemExit) as exit_:
        main(["match", f"cmd:{shlex.join([interpreter, str(script)])}", "heuristic", "--players", "2",
              "--target", "7", "--games", "2", "--seed", "3", "--via-server", "--json"])
    out, err = capsys.readouterr()
    assert exit_.value.code == 0, err
    program, _ = json.loads(out)["bots"]
    assert program["games"] == 2 and program["decisions"] > 0 and program["timeouts"] == 0


def test_a_match_names_each_bot_after_its_program_within_the_limit(tmp_path: Path) -> None:
    """``SETBACK_NAME`` and a Python bot's hello name: the program's file (a script an interpreter
    runs), printable, cut to the server's limit, and told apart by game and seat."""
    folder = tmp_path / LONG_FOLDER
    folder.mkdir()
    script = folder / "first_legal.py"
    script.write_text(PYTHON_BOT)
    long_script = folder / ("a_bot_whose_file_name_goes_on_and_on" * 2 + ".py")
    long_script.write_text(PYTHON_BOT)
    python = shlex.quote(sys.executable)
    assert hello_name(f"cmd:{python} -u {shlex.quote(str(script))} --depth 3", 0, 1, 40) == "first_legal.py g0s1"
    assert hello_name(f"cmd:{python}", 12, 3, 40) == f"{Path(sys.executable).name} g12s3"
    assert hello_name("heuristic", 0, 0, 40) == "heuristic g0s0"
    cut = hello_name(f"cmd:{python} {shlex.quote(str(long_script))}", 9999, 3, 40)
    assert cut == "a_bot_whose_file_name_goes_on_an g9999s3" and len(cut) == 40
    tab = folder / "tab\tbot.py"
    tab.write_text(PYTHON_BOT)
    assert hello_name(f"cmd:{python} {shlex.quote(str(tab))}", 0, 0, 40) == "tab?bot.py g0s0"
    names = {hello_name(f"cmd:{python} {shlex.quote(str(script))}", game, seat, 40)
             for game in range(3) for seat in range(4)}
    assert len(names) == 12


async def test_the_server_welcomes_every_name_a_match_gives(tmp_path: Path) -> None:
    """The names above are checked against a real server's rule, not a copy of it."""
    folder = tmp_path / LONG_FOLDER
    folder.mkdir()
    script = folder / ("\u2663 a_bot_whose_file_name_goes_on_and_on \u200b" * 2 + ".py")
    script.write_text(PYTHON_BOT)
    specs = [f"cmd:{shlex.quote(str(folder / 'python3'))} {shlex.quote(str(script))}", "heuristic",
             f"cmd:{shlex.quote(sys.executable)}", "search@budget_ms=20,playouts=400,depth=99999999"]
    (folder / "python3").symlink_to(sys.executable)
    async with running_server() as server:
        limit = server.config.max_name_chars
        for spec in specs:
            name = hello_name(spec, 99_999, 7, limit)
            client = await RawClient.connect(server.port)
            welcome = await client.hello(name)
            assert welcome["player"] == name
            await client.close()


def test_result_table_shows_an_unmeasured_time_as_a_dash(capsys: pytest.CaptureFixture[str]) -> None:
    """The table prints "-" under ms/decision for a `cmd:` program: the runner cannot time it."""
    from setback.commands.matches import print_result
    from setback.match.tally import MatchResult

    result = MatchResult(MatchPlan(("cmd:./mine", "random"), Rules(players=2), games=0))
    print_result(result)
    row = next(line for line in capsys.readouterr().out.splitlines() if "cmd:./mine" in line)
    cells = [cell.strip() for cell in row.split("│")]
    assert cells[8] == "-"


@pytest.mark.parametrize(
    ("command", "complaint"),
    [
        ("", "names no program"),
        ("no-such-program-here --x", "is not found on PATH"),
        ("./not_executable.sh", "is not executable"),
        ("not_executable.sh", "is not on PATH (for the file here, write cmd:./not_executable.sh)"),
        ("'unbalanced", "No closing quotation"),
    ],
)
def test_a_cmd_bot_that_cannot_be_run_is_refused_before_the_match(
    command: str, complaint: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from setback.cli import main

    (tmp_path / "not_executable.sh").write_text("exit 0\n")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exit_:
        main(["match", f"cmd:{command}", "random", "--players", "2", "--games", "1", "--via-server"])
    assert exit_.value.code == 2
    error = capsys.readouterr().err
    assert complaint in error and len(error.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("program", "complaint"),
    [
        ("import sys; sys.exit(3)", "(seat 0) exited with status 3 before game 0 was over"),
        ("import time; time.sleep(30)", "game 0: nobody took seat 0 within 0.5 s"),
    ],
)
def test_a_cmd_bot_that_ends_early_or_never_sits_down_stops_the_match(
    program: str, complaint: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A bot author's first mistakes (a crash, a bot that never joins) end the match at once
    with one line saying so, instead of a match that waits for ever."""
    from setback.cli import main
    from setback.commands import via_server

    monkeypatch.setattr(via_server, "SIT_DOWN_SECONDS", 0.5)
    script = tmp_path / "bot.py"
    script.write_text(program)
    start = time.perf_counter()
    with pytest.raises(SystemExit) as exit_:
        main(["match", f"cmd:{sys.executable} {script}", "random", "--players", "2", "--games", "1",
              "--via-server"])
    assert exit_.value.code == 1
    assert complaint in capsys.readouterr().err
    assert time.perf_counter() - start < 10


def test_the_runner_says_why_the_server_refused_a_programs_hello(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A program whose hello the server refuses ends before its game: the runner's one line
    gives the server's reason, not a guess about the table."""
    from setback.cli import main

    script = tmp_path / "old_bot.py"
    script.write_text(PYTHON_BOT.replace('version="1.0"', 'version="9.0"'))
    with pytest.raises(SystemExit) as exit_:
        main(["match", f"cmd:{sys.executable} {script}", "random", "--players", "2", "--games", "1",
              "--via-server"])
    assert exit_.value.code == 1
    error = capsys.readouterr().err.strip().splitlines()[-1]
    assert "the server refused its hello: version_unsupported" in error
