"""The Rust bot in examples/rust, written from spec.md alone with the standard library only,
builds offline and passes every check of ``setback check-bot``."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from setback.conformance import run_checks
from setback.conformance.checks import CHECKS

ROOT = Path(__file__).resolve().parent.parent
MANIFEST = ROOT / "examples" / "rust" / "Cargo.toml"


def find_cargo() -> str | None:
    """cargo on the PATH, else where rustup puts it (~/.cargo/bin), else None."""
    found = shutil.which("cargo")
    if found is not None:
        return found
    home = Path.home() / ".cargo" / "bin" / "cargo"
    return str(home) if home.is_file() and os.access(home, os.X_OK) else None


CARGO = find_cargo()


@pytest.mark.skipif(CARGO is None, reason="needs Rust's cargo (on the PATH or at ~/.cargo/bin/cargo) to build the bot")
def test_the_rust_example_builds_offline_and_passes_every_check(tmp_path: Path) -> None:
    """A release build into a fresh target folder (no crates, so --offline needs no network),
    then every conformance check against the binary."""
    assert CARGO is not None
    env = dict(os.environ, CARGO_TARGET_DIR=str(tmp_path / "target"))
    # rustup's cargo finds rustc next to itself: keep its folder on the PATH.
    env["PATH"] = os.pathsep.join([str(Path(CARGO).parent), env.get("PATH", "")])
    built = subprocess.run(
        [CARGO, "build", "--release", "--offline", "--quiet", "--manifest-path", str(MANIFEST)],
        env=env, capture_output=True, text=True, check=False, timeout=900,
    )
    assert built.returncode == 0, built.stdout + built.stderr
    binary = tmp_path / "target" / "release" / "setback-bot"
    assert binary.is_file(), f"cargo built no {binary}"

    verdicts = run_checks(f"cmd:{binary}")
    assert len(verdicts) == len(CHECKS)
    failures = [f"{v.name}: {v.detail} (expected: {v.expected})" for v in verdicts if not v.passed]
    assert failures == [], "\n".join(failures)
