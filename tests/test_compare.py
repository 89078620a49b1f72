"""``setback compare``: two matches of the same deals, paired game by game."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from setback.cli import main
from setback.commands.records import read_records
from setback.match.compare import Match, compare

RULES = {"players": 2, "teams": None, "target": 11}


def record(game: int, first_bot: str, winner_bot: int, seed: int = 7) -> dict[str, Any]:
    """A heads-up duplicate game's record, as far as the comparison reads it: game ``game`` of a
    match of ``seed``, deal ``game // 2`` with the bots' seats swapped in its second game."""
    seating = [0, 1] if game % 2 == 0 else [1, 0]
    names = {0: first_bot, 1: "search"}
    return {
        "rules": RULES,
        "seed": 1000 + game,
        "players": [names[bot] for bot in seating],
        "match": {"seed": seed, "game": game, "deal": game // 2, "seating": seating},
        "outcome": {"winner": seating.index(winner_bot)},
    }


def match(first_bot: str, winners: list[int], seed: int = 7) -> Match:
    return Match.of(record(game, first_bot, bot, seed) for game, bot in enumerate(winners))


def test_pairs_by_deal() -> None:
    # deal 0: both games won by the first bot in both files; deal 1: base 1 of 2, new 2 of 2;
    # deal 2: base 1 of 2, new 0 of 2 (the winner changed in games 3 and 5)
    base = match("old", [0, 0, 0, 1, 1, 0])
    new = match("new", [0, 0, 0, 0, 1, 1])
    c = compare(base, new)
    assert (c.base, c.new) == (("old", "search"), ("new", "search"))
    assert (c.games, c.deals) == (6, 3)
    assert c.base_score == pytest.approx(4 / 6)
    assert c.new_score == pytest.approx(4 / 6)
    differences = [0.0, 0.5, -0.5]
    assert c.difference == pytest.approx(0.0)
    half = 1.96 * math.sqrt(sum(d * d for d in differences) / 2 / 3)
    assert c.interval == pytest.approx((-half, half))
    assert (c.changed, c.deals_up, c.deals_down) == (2, 1, 1)


def test_only_the_games_both_played() -> None:
    base = match("old", [1, 1, 1, 1])
    new = match("new", [0, 0])
    c = compare(base, new)
    assert (c.games, c.deals, c.base_score, c.new_score, c.difference) == (2, 1, 0.0, 1.0, 1.0)
    assert c.interval is None  # one deal: no spread to take


def test_refuses_other_deals() -> None:
    with pytest.raises(ValueError, match="dealt differently"):
        compare(match("old", [0, 1]), Match.of([{**record(0, "new", 0), "seed": 5}, record(1, "new", 0)]))
    with pytest.raises(ValueError, match="share no game"):
        compare(match("old", [0]), Match.of([record(1, "new", 0)]))
    with pytest.raises(ValueError, match="different rules"):
        compare(match("old", [0]), Match.of([{**record(0, "new", 0), "rules": {**RULES, "target": 21}}]))
    with pytest.raises(ValueError, match="another match"):
        Match.of([record(0, "old", 0), record(1, "old", 0, seed=8)])


def play(tmp_path: Path, name: str, first_bot: str, capsys: pytest.CaptureFixture[str]) -> Path:
    out = tmp_path / name
    with pytest.raises(SystemExit) as exit_:
        main(["match", first_bot, "random", "--games", "8", "--duplicate", "--seed", "3", "--json", "--out", str(out)])
    assert exit_.value.code == 0
    capsys.readouterr()
    return out


def test_command_on_real_matches(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    base = play(tmp_path, "base.jsonl", "random", capsys)
    new = play(tmp_path, "new.jsonl", "heuristic", capsys)
    with pytest.raises(SystemExit) as exit_:
        main(["compare", str(base), str(new), "--json"])
    assert exit_.value.code == 0
    result = json.loads(capsys.readouterr().out)
    scores = []
    for path in (base, new):  # the first bot's wins, counted from the records by seat and side
        records = list(read_records(path))
        scores.append(sum(r["match"]["seating"][r["outcome"]["winner"]] == 0 for r in records) / len(records))
    assert (result["games"], result["deals"]) == (8, 4)
    assert (result["base_score"], result["new_score"]) == pytest.approx(scores)
    assert result["difference"] == pytest.approx(scores[1] - scores[0])
    assert result["base"] == ["random", "random"] and result["new"] == ["heuristic", "random"]
    assert result["same_opponents"] is True

    with pytest.raises(SystemExit) as exit_:
        main(["compare", str(base), str(new)])
    assert exit_.value.code == 0
    assert "paired by deal" in capsys.readouterr().out

    other = tmp_path / "other.jsonl"
    other.write_text("".join(json.dumps({**r, "seed": r["seed"] + 1}) + "\n" for r in read_records(new)))
    with pytest.raises(SystemExit) as exit_:
        main(["compare", str(base), str(other)])
    assert exit_.value.code != 0
    assert "dealt differently" in capsys.readouterr().err



def test_says_when_the_other_bots_differ(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    base = [record(game, "old", bot) for game, bot in enumerate([0, 1])]
    new = [{**r, "players": [p.replace("search", "random") for p in r["players"]]}
           for r in (record(game, "new", bot) for game, bot in enumerate([1, 1]))]
    assert compare(Match.of(base), match("new", [1, 1])).same_opponents
    differs = compare(Match.of(base), Match.of(new))
    assert differs.new == ("new", "random") and not differs.same_opponents
    assert differs.as_dict()["same_opponents"] is False
    assert differs.difference == pytest.approx(-0.5)  # still compared: the note says what it means
    files = []
    for name, records in (("base.jsonl", base), ("new.jsonl", new)):
        path = tmp_path / name
        path.write_text("".join(json.dumps(r) + "\n" for r in records))
        files.append(str(path))
    with pytest.raises(SystemExit) as exit_:
        main(["compare", *files])
    assert exit_.value.code == 0
    assert "the other bots differ" in " ".join(capsys.readouterr().out.split())
