"""The sequential test: its arithmetic against published values, and `setback match --sprt` end to end."""

from __future__ import annotations

import json

import pytest

from setback.cli import main
from setback.match.sprt import EXIT_STATUS, Sprt, Verdict

REFERENCES = [
    # model, elo0, elo1, counts (trinomial: L, D, W; pentanomial: LL, LD, WL+DD, WD, WW), LLR
    ("normalized", 0.0, 2.0, (36027, 68692, 36433), 0.92),
    ("normalized", -1.75, 0.25, (10650, 20431, 10871), 2.30),
    ("logistic", 0.5, 2.5, (21184, 40708, 21404), -1.57),
    ("logistic", 0.0, 2.0, (57030, 106593, 57433), -2.59),
    ("normalized", 0.0, 2.0, (365, 16618, 36029 + 200, 16974, 390), 2.25),
    ("normalized", -1.75, 0.25, (127, 4883, 10311 + 401, 5150, 104), 3.01),
    ("logistic", 0.5, 2.5, (223, 9863, 20279 + 1000, 10037, 246), -3.07),
    ("logistic", 0.0, 2.0, (871, 26175, 55003 + 980, 26678, 821), -4.98),
]
"""Fishtest runs' results with the LLR that fastchess's own tests give them (to 1%)."""


@pytest.mark.parametrize(("model", "elo0", "elo1", "counts", "llr"), REFERENCES)
def test_llr_matches_the_reference_values(
    model: str, elo0: float, elo1: float, counts: tuple[int, ...], llr: float
) -> None:
    """The generalized LLR of trinomial and pentanomial counts, normalized and logistic, is fastchess's."""
    sprt = Sprt(elo0, elo1, 0.05, 0.05, model)
    got = sprt.llr_pairs(counts) if len(counts) == 5 else sprt.llr_games(counts)
    assert got == pytest.approx(llr, rel=0.01, abs=0.005)


def test_results_that_fit_h0_exactly_never_favour_h1() -> None:
    """When the results' own score is H0's, H0's distribution is the likeliest: the LLR is not above 0."""
    for counts in [(0, 0, 500, 0, 0), (40, 100, 220, 100, 40)]:
        assert Sprt(0, 5).llr_pairs(counts) <= 0


def test_bounds_and_parsing() -> None:
    """alpha = beta = 0.05 gives the bounds -log 19 and log 19; the text form reads every field."""
    sprt = Sprt.parse("elo0=0,elo1=5,alpha=0.05,beta=0.05")
    assert sprt.lower == pytest.approx(-2.944, abs=1e-3)
    assert sprt.upper == pytest.approx(2.944, abs=1e-3)
    assert Sprt.parse("elo1=10,model=logistic") == Sprt(0, 10, 0.05, 0.05, "logistic")
    with pytest.raises(ValueError, match="elo0 must be below elo1"):
        Sprt.parse("elo0=5,elo1=5")
    with pytest.raises(ValueError, match="not one of"):
        Sprt.parse("elo2=5")


def sprt_run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, object]]:
    capsys.readouterr()
    with pytest.raises(SystemExit) as exit_:
        main(["match", *argv, "--decision-ms", "0", "--json"])
    code = exit_.value.code
    assert isinstance(code, int)
    return code, json.loads(capsys.readouterr().out)


def test_heuristic_against_random_accepts_h1_early(capsys: pytest.CaptureFixture[str]) -> None:
    """A much stronger bot is accepted as better long before the cap, on duplicate pairs, with status 0."""
    code, data = sprt_run(capsys, "heuristic", "random", "--sprt", "elo0=0,elo1=5", "--seed", "1", "--games", "2000")
    sprt = data["sprt"]
    assert isinstance(sprt, dict)
    assert code == EXIT_STATUS[Verdict.H1] == 0
    assert sprt["verdict"] == "H1" and sprt["model_of_results"] == "pentanomial"
    assert sprt["llr"] >= sprt["upper"]
    assert data["games"] == 2 * sprt["pairs"] < 400


def test_random_against_random_does_not_accept_h1(capsys: pytest.CaptureFixture[str]) -> None:
    """Two equal bots never make H1 accepted: the cap runs out undecided (status 3)."""
    code, data = sprt_run(capsys, "random", "random", "--sprt", "elo0=0,elo1=5", "--seed", "3", "--games", "60")
    sprt = data["sprt"]
    assert isinstance(sprt, dict)
    assert code == EXIT_STATUS[Verdict.UNDECIDED] == 3
    assert sprt["verdict"] == "undecided" and data["games"] == 60


def test_the_weaker_bot_under_test_accepts_h0(capsys: pytest.CaptureFixture[str]) -> None:
    """Testing the weaker bot as NEW accepts H0 early, with status 4."""
    code, data = sprt_run(capsys, "random", "heuristic", "--sprt", "elo0=0,elo1=5", "--seed", "1", "--games", "2000")
    assert code == EXIT_STATUS[Verdict.H0] == 4
    assert isinstance(data["sprt"], dict) and data["sprt"]["verdict"] == "H0"


def test_unpaired_games_use_the_trinomial_model(capsys: pytest.CaptureFixture[str]) -> None:
    """--no-duplicate tests single games: the counts are losses, draws and wins."""
    _, data = sprt_run(capsys, "heuristic", "random", "--sprt", "elo1=5", "--no-duplicate", "--games", "40")
    sprt = data["sprt"]
    assert isinstance(sprt, dict)
    assert sprt["model_of_results"] == "trinomial" and sum(sprt["counts"]) == data["games"]
    assert data["duplicate"] is False


def test_sprt_takes_two_bots(capsys: pytest.CaptureFixture[str]) -> None:
    """A test of three bots is a usage error."""
    with pytest.raises(SystemExit) as exit_:
        main(["match", "random", "random", "random", "--sprt", "elo1=5"])
    assert exit_.value.code == 2
    assert "name two" in capsys.readouterr().err
