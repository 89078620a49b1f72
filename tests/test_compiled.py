"""The hot path compiled by mypyc: used only while it matches its sources, else run as Python."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import setback
from setback import compiled

PACKAGE = Path(setback.__file__).resolve().parent
EXPECTED = "not compiled" if os.environ.get("SETBACK_COMPILE") == "0" else "compiled"
"""What the README's install gives on a machine with a C compiler (CI's), unless told not to."""

_REPORT = (
    "import sys, setback.compiled as c\n"
    "from setback.engine import Game, Rules\n"
    "files = [sys.modules[m].__file__ for m in c.MODULES if __import__(m)]\n"
    "game = Game(Rules(), 7)\n"
    "while game.outcome is None:\n"
    "    game.apply(game.legal_actions()[0], game.to_act)\n"
    "print(c.STATUS, game.outcome.winner, *files)\n"
)
"""Imports every module of the hot path, plays a game with it and tells how it was loaded."""


def _report(path: Path) -> tuple[str, int, list[str]]:
    """Run :data:`_REPORT` with the package at ``path`` first on the path."""
    done = subprocess.run(
        [sys.executable, "-c", _REPORT], capture_output=True, text=True, check=False, timeout=120, cwd=path,
        env={**os.environ, "PYTHONPATH": str(path)},
    )
    assert done.returncode == 0, done.stderr
    status, _, rest = done.stdout.strip().partition(" ")
    if status == "not":  # "not compiled"
        second, _, rest = rest.partition(" ")
        status = f"{status} {second}"
    winner, *files = rest.split()
    return status, int(winner), files


def _package_copy(tmp_path: Path) -> Path:
    """The installed package copied whole (links followed, extensions included) under ``tmp_path``."""
    shutil.copytree(PACKAGE, tmp_path / "setback", ignore=shutil.ignore_patterns("__pycache__"))
    return tmp_path


def _sources(package: Path) -> None:
    for module in compiled.MODULES:
        path = compiled.source_path(module, package)
        path.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(compiled.source_path(module), path)


def test_status_trusts_a_manifest_only_while_every_source_matches(tmp_path: Path) -> None:
    package = tmp_path / "setback"
    _sources(package)
    assert compiled.status(package) == "not compiled"
    manifest = package / compiled.MANIFEST
    manifest.write_text("{not json")
    assert compiled.status(package) == "not compiled"
    manifest.write_text(json.dumps({"modules": compiled.source_hashes(package)}))
    assert compiled.status(package) == "compiled"
    edited = compiled.source_path("setback.server.table", package)
    edited.write_text(edited.read_text() + "# edited\n")
    assert compiled.status(package) == "stale"
    edited.unlink()
    assert compiled.status(package) == "stale"


def test_this_install_runs_the_hot_path_as_its_status_says() -> None:
    status, winner, files = _report(PACKAGE.parent)
    assert status == EXPECTED, (
        f"the hot path is {status}: after changing a compiled module, run the README's test command"
        " (its install compiles again); SETBACK_COMPILE=0 installs without compiling"
    )
    assert len(files) == len(compiled.MODULES)
    assert all(f.endswith(".so" if status == "compiled" else ".py") for f in files), files
    assert 0 <= winner < 4


def test_an_edited_source_runs_as_python_with_every_other_compiled_module(tmp_path: Path) -> None:
    """Compiled modules call each other directly, so one stale source sets them all aside."""
    root = _package_copy(tmp_path)
    status, winner, files = _report(root)
    assert status == EXPECTED
    assert all(f.startswith(str(root)) for f in files)  # the copy, not the install
    edited = compiled.source_path("setback.engine.state", root / "setback")
    edited.write_text(edited.read_text() + "\nSTALE_MARK = 1\n")
    stale_status, stale_winner, stale_files = _report(root)
    assert stale_status == ("stale" if status == "compiled" else "not compiled")
    assert all(f.endswith(".py") and f.startswith(str(root)) for f in stale_files), stale_files
    assert stale_winner == winner  # the same game, played by the Python modules


def test_from_source_runs_the_hot_path_as_python_compiled_or_not() -> None:
    """What the fuzz targets call first: every module of the hot path from its ``.py``, the
    status unchanged; called once one of them is imported, it leaves them as they are."""
    script = (
        "import setback.compiled as c; c.from_source(); import setback.server.app, setback.web.transport\n"
        "print(c.STATUS, c.loaded_compiled(), [m for m in c.MODULES if m not in __import__('sys').modules])"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [*EXPECTED.split(), "[]", "[]"]
    late = "import setback.server.app, setback.compiled as c; c.from_source(); import setback.web.transport\n" \
           "print(c.loaded_compiled() == [m for m in c.MODULES if c.STATUS == 'compiled'])"
    done = subprocess.run([sys.executable, "-c", late], capture_output=True, text=True, check=False, timeout=120)
    assert done.stdout.split() == ["True"], done.stderr
