"""The code stays ruff- and mypy --strict-clean: the README's test command checks both."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, check=False, timeout=600)


def test_ruff_is_clean() -> None:
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent)) or "ruff"
    done = run(ruff, "check", ".")
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_strict_is_clean() -> None:
    done = run(sys.executable, "-m", "mypy", "-p", "setback")
    assert done.returncode == 0, done.stdout + done.stderr
    done = run(sys.executable, "-m", "mypy", "tests", "fuzz")
    assert done.returncode == 0, done.stdout + done.stderr
