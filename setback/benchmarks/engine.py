"""Player-actions per second of seeded random-legal games, ours against OpenSpiel's euchre.

Both engines run the same driver loop (below) in alternating rounds of one run:
ask the legal actions, apply a uniformly random one, count it; chance actions
(OpenSpiel's deal) are applied but not counted; a rate is per second of the process's CPU
time, which other processes on a shared machine change less than the clock's. Our side drives the fast core,
:class:`setback.engine.GameState`, under the default rules (4 players, cutthroat).
OpenSpiel is measured only when the ``bench`` extra (``open_spiel``) is installed.
With ``--variant V`` the variant's game (4 players, cutthroat; pedro in two pairs) is measured
in the same rounds as the standard game, and its rate is given as a ratio to the standard game's.

Run: ``python -m setback.benchmarks.engine`` or
``setback bench engine [--seconds S] [--variant V ...] [--json]``.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from setback.benchmarks import positive_seconds
from setback.engine import GameState, Rules, Variant


class PlayableState(Protocol):
    def is_terminal(self) -> bool: ...
    def is_chance_node(self) -> bool: ...
    def legal_actions(self) -> Any: ...
    def apply_action(self, action: int) -> None: ...


@dataclass
class Tally:
    """Actions and games played, and the CPU seconds they took."""

    actions: int = 0
    games: int = 0
    seconds: float = 0.0

    @property
    def rate(self) -> float:
        return self.actions / self.seconds if self.seconds else 0.0


def drive(new_game: Callable[[int], PlayableState], seconds: float, rng: random.Random, tally: Tally) -> None:
    """Play random games from ``new_game(i)`` for ``seconds``, adding to ``tally``."""
    randrange = rng.randrange
    actions = 0
    games = tally.games
    cpu = time.process_time()
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        state = new_game(games)
        while not state.is_terminal():
            legal = state.legal_actions()
            if state.is_chance_node():
                state.apply_action(legal[randrange(len(legal))])
                continue
            state.apply_action(legal[randrange(len(legal))])
            actions += 1
        games += 1
    tally.seconds += time.process_time() - cpu  # CPU time: other processes on the machine slow the clock, not it
    tally.actions += actions
    tally.games = games


def openspiel_factory() -> Callable[[int], PlayableState] | None:
    """A maker of new euchre states when pyspiel is installed, else None."""
    try:
        import pyspiel
    except ImportError:
        return None
    euchre = pyspiel.load_game("euchre")
    return lambda _index: euchre.new_initial_state()


def new_games(rules: Rules, seed: int) -> Callable[[int], PlayableState]:
    """A maker of the ``index``-th seeded game at ``rules`` (the same seeds for every table)."""
    return lambda index: GameState(rules, seed * 1_000_003 + index)


def run(seconds: float = 6.0, rounds: int = 6, seed: int = 1, variants: tuple[Variant, ...] = ()) -> dict[str, Any]:
    """Measure both engines (and each of ``variants``) in ``rounds`` alternating slices of
    ``seconds`` in all."""
    rules = Rules()
    ours = Tally()
    theirs = Tally()
    others = {v: (new_games(Rules(variant=v), seed), Tally()) for v in variants if v is not Variant.STANDARD}
    openspiel = openspiel_factory()
    rng = random.Random(seed)
    slice_ = seconds / rounds / (1 + (openspiel is not None) + len(others))
    for _ in range(rounds):
        drive(new_games(rules, seed), slice_, rng, ours)
        for games, tally in others.values():
            drive(games, slice_, rng, tally)
        if openspiel is not None:
            drive(openspiel, slice_, rng, theirs)
    result: dict[str, Any] = {
        "benchmark": "engine",
        "setback_actions_per_s": round(ours.rate),
        "setback_games": ours.games,
        "setback_actions_per_game": round(ours.actions / max(ours.games, 1), 1),
    }
    for variant, (_, tally) in others.items():
        result[f"{variant.value}_actions_per_s"] = round(tally.rate)
        result[f"{variant.value}_ratio_to_standard"] = round(tally.rate / ours.rate, 3) if ours.rate else 0.0
    if openspiel is not None:
        result |= {
            "openspiel_euchre_actions_per_s": round(theirs.rate),
            "openspiel_games": theirs.games,
            "ratio_setback_over_openspiel": round(ours.rate / theirs.rate, 3),
        }
    else:
        result["openspiel"] = "not installed (pip install 'setback[bench]'; in a checkout: pip install -e '.[bench]')"
    return result


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="setback bench engine", description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=positive_seconds, default=6.0, help="total time to measure (default 6)")
    parser.add_argument(
        "--variant", action="append", choices=[v.value for v in Variant], default=[],
        help="also measure this variant, as a ratio to the standard game (repeatable)",
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    result = run(args.seconds, variants=tuple(Variant(v) for v in args.variant))
    if args.json:
        print(json.dumps(result))
        return
    for key, value in result.items():
        print(f"{key:34} {value}")


if __name__ == "__main__":
    main()
