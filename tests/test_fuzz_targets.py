"""The fuzz targets of ``fuzz/`` stay runnable: each one's input function, on its seeds and on
seeded mutations of them (atheris runs the same functions for hours; ``docs/development.md``)."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
import structlog

FUZZ = Path(__file__).resolve().parent.parent / "fuzz"
TARGETS = ["server_input", "ws_frames", "http_request"]
EXAMPLES = int(os.environ.get("SETBACK_FUZZ_EXAMPLES", "150"))


def _load(name: str) -> ModuleType:
    """A script of ``fuzz/`` as a module (its folder on the path, as when it is run)."""
    if str(FUZZ) not in sys.path:
        sys.path.insert(0, str(FUZZ))
    spec = importlib.util.spec_from_file_location(f"fuzz_{name}", FUZZ / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def harness() -> Iterator[ModuleType]:
    """fuzz/harness.py, with the server's errors raised where they are logged (as in a run)."""
    module = _load("harness")
    saved = structlog.get_config()
    module.fail_on_errors()
    try:
        yield module
    finally:
        structlog.configure(**saved)


def test_every_target_is_tested() -> None:
    assert sorted(p.stem for p in FUZZ.glob("*.py") if p.stem != "harness") == sorted(TARGETS)


@pytest.mark.parametrize("name", TARGETS)
def test_a_target_runs_on_its_seeds_and_their_mutations(harness: ModuleType, name: str) -> None:
    target = _load(name)
    harness.random_inputs(target.test_one_input, target.SEEDS, EXAMPLES, seed=3)


def test_a_target_runs_alone_on_the_python_sources() -> None:
    """``python fuzz/TARGET.py N``, as documented: the hot path imported from its sources,
    compiled install or not (else it refuses to run)."""
    done = subprocess.run(
        [sys.executable, str(FUZZ / "http_request.py"), "20", "--seed", "1"],
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert done.returncode == 0, done.stderr
    seeds = len(_load("http_request").SEEDS)
    assert f"{20 + seeds} inputs in" in done.stdout and "no failure" in done.stdout


def test_the_fuzz_harness_refuses_compiled_modules() -> None:
    """Imported after the compiled hot path, the harness says so rather than fuzz blind."""
    script = (
        "import sys; sys.path.insert(0, sys.argv[1]); import setback.compiled as c;"
        "c.loaded_compiled = lambda: ['setback.server.app']; import harness; harness.run(print, [b''], ['x', '1'])"
    )
    done = subprocess.run([sys.executable, "-c", script, str(FUZZ)], capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 1 and "imported compiled: atheris cannot see into them" in done.stderr


def test_an_error_the_server_logs_fails_the_input(harness: ModuleType) -> None:
    """A bug the server catches to serve on (logged, answered ``internal``) is a crash to the fuzzer."""
    with pytest.raises(AssertionError, match="request_failed"):
        structlog.get_logger("setback.server").exception("request_failed", peer="x")


def test_the_mutator_is_seeded_and_changes_its_seeds(harness: ModuleType) -> None:
    import random

    seeds = [b"GET / HTTP/1.1\r\n\r\n", b'{"type":"ping"}\n']
    one, two = random.Random(5), random.Random(5)
    first = [harness.mutate(seeds, one) for _ in range(50)]
    assert first == [harness.mutate(seeds, two) for _ in range(50)]
    assert len(set(first) - set(seeds)) > 10
