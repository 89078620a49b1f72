"""`--ray`: a match's games as tasks of a local Ray instance, with the records of `--jobs 1`.

A local Ray instance takes seconds to start, so this file starts one, once.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from test_match import CRASHING_BOT

from setback.bots.make_answers import main as answers_main
from setback.cli import main
from setback.match import cluster

BOT = '''
from setback.bots import Bot


class Last(Bot):
    def bid(self, view):
        return view.legal[-1]

    def play(self, view):
        return view.legal[self.rng.randrange(len(view.legal))]
'''


def without_clock(line: str) -> dict[str, Any]:
    record = json.loads(line)
    return {**record, "match": {k: v for k, v in record["match"].items() if k not in {"clock", "peak_rss_mb"}}}


def test_a_resumed_match_on_a_local_ray_instance_gives_the_records_of_one_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A match stopped after 3 games and resumed with --ray writes the same records as --jobs 1, in the
    same order; the bot named by its file reaches the workers through the folder Ray sends them."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "last.py").write_text(BOT)
    argv = ["match", "last.py:Last", "heuristic", "--games", "8", "--seed", "5", "--duplicate", "--decision-ms", "0",
            "--json"]
    with pytest.raises(SystemExit) as exit_:
        main([*argv, "--out", "one.jsonl"])
    assert exit_.value.code == 0
    one = json.loads(capsys.readouterr().out)
    lines = (tmp_path / "one.jsonl").read_text().splitlines(keepends=True)
    (tmp_path / "ray.jsonl").write_text("".join(lines[:3]))
    with pytest.raises(SystemExit) as exit_:
        main([*argv, "--out", "ray.jsonl", "--resume", "--jobs", "2", "--ray"])
    assert exit_.value.code == 0
    resumed = json.loads(capsys.readouterr().out)
    played = (tmp_path / "ray.jsonl").read_text().splitlines()
    assert [without_clock(x) for x in played] == [without_clock(x) for x in lines]
    assert [b["wins"] for b in resumed["bots"]] == [b["wins"] for b in one["bots"]]


def test_a_bot_file_outside_the_folder_cannot_reach_the_workers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A bot named by an absolute path is refused before Ray starts, saying how to name it."""
    (tmp_path / "last.py").write_text(BOT)
    with pytest.raises(SystemExit) as exit_:
        main(["match", f"{tmp_path / 'last.py'}:Last", "random", "--ray"])
    assert exit_.value.code == 2
    assert "by a path inside this folder" in capsys.readouterr().err


def test_a_ray_worker_that_dies_stops_the_match_with_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A bot that kills its Ray worker stops the match as a dead worker process of --jobs
    does: status 1, one line saying so and what was kept, no traceback."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "crasher.py").write_text(CRASHING_BOT)
    with pytest.raises(SystemExit) as exit_:
        main(["match", "crasher.py:Crasher", "random", "--games", "4", "--ray", "--out", "games.jsonl"])
    assert exit_.value.code == 1
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert last.startswith("setback match: a Ray worker died while playing a game")
    assert "0 of 4 games kept in games.jsonl" in last


class _RefusingRay:
    """Ray as a token-authenticated cluster answers a process that does not say it has the
    token: after its retries, only that it failed to connect."""

    exceptions = SimpleNamespace(AuthenticationError=type("AuthenticationError", (Exception,), {}))

    def __init__(self) -> None:
        self.asked: list[str | None] = []

    def is_initialized(self) -> bool:
        return False

    def init(self, address: str | None, **_: Any) -> None:
        self.asked.append(address)
        raise ConnectionError(f"Failed to connect to Ray cluster at {address}")


@pytest.mark.parametrize("mode", [None, "token"])
def test_a_cluster_that_refuses_the_connection_says_what_to_set(
    mode: str | None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--ray HOST:PORT`` that Ray cannot connect to ends in one line, status 1, that says
    what to set: without ``RAY_AUTH_MODE=token`` (which a cluster started as docs/bots.md
    says needs), that variable and where the token goes; with it, what else to check."""
    refusing = _RefusingRay()
    monkeypatch.setattr(cluster, "_ray", lambda: refusing)
    if mode is None:
        monkeypatch.delenv("RAY_AUTH_MODE", raising=False)
    else:
        monkeypatch.setenv("RAY_AUTH_MODE", mode)
    with pytest.raises(SystemExit) as exit_:
        main(["match", "random", "random", "--games", "2", "--ray=192.0.2.7:6379"])
    assert exit_.value.code == 1 and refusing.asked == ["192.0.2.7:6379"]
    said = capsys.readouterr().err.strip().splitlines()
    assert len(said) == 1 and said[0].startswith("setback match: Failed to connect to Ray cluster at 192.0.2.7:6379: ")
    if mode is None:
        assert "set RAY_AUTH_MODE=token here too, with the cluster's token in ~/.ray/auth_token" in said[0]
    else:
        assert "Ray's ports are open" in said[0] and "RAY_AUTH_TOKEN_PATH" in said[0]


def test_the_expert_s_training_deals_on_ray_give_the_rows_of_one_process(tmp_path: Path) -> None:
    """``make_answers --ray`` (and ``make_bidding``'s, through the same :mod:`setback.bots.deals`)
    records every deal's rows as one local process does, in the same order, and fits nothing
    with ``--no-fit``."""
    argv = ["--deals", "3", "--first", "11", "--playouts", "40", "--no-fit"]
    answers_main([*argv, "--rows", str(tmp_path / "one.jsonl")])
    answers_main([*argv, "--rows", str(tmp_path / "ray.jsonl"), "--ray"])
    one = (tmp_path / "one.jsonl").read_text().splitlines()
    assert len({json.loads(row)["seed"] for row in one}) == 3
    assert (tmp_path / "ray.jsonl").read_text().splitlines() == one
