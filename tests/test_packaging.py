"""The distribution: one wheel named setback whose modules all live under setback.*."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from test_compiled import EXPECTED

from setback import compiled

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(out),
         str(ROOT)],
        check=True, timeout=300,
    )
    (built,) = out.glob("setback-*.whl")
    return built


def installed_name(name: str) -> str:
    """Where a file of the wheel is installed, from site-packages (a ``.data/purelib`` or ``platlib`` one too)."""
    parts = name.split("/")
    if parts[0].endswith(".data") and len(parts) > 2 and parts[1] in ("purelib", "platlib"):
        return "/".join(parts[2:])
    return name


def installed_names(wheel: Path) -> list[str]:
    return [installed_name(name) for name in zipfile.ZipFile(wheel).namelist()]


def test_wheel_installs_everything_under_setback(wheel: Path) -> None:
    names = installed_names(wheel)
    top = {n.split("/")[0] for n in names if not n.startswith("setback-")}
    assert top == {"setback"}
    for part in ("engine", "protocol", "link", "telling", "server", "client", "bots", "commands", "benchmarks", "web"):
        assert f"setback/{part}/__init__.py" in names
    assert "setback/cli.py" in names
    assert "setback/bots/odds.json" in names  # the expert's chances of winning from a score
    assert "setback/bots/bidding.json" in names  # and its bidding model
    assert "setback/bots/answers.json" in names  # and its model of how search bids


def test_wheel_holds_every_file_of_the_browser_table(wheel: Path) -> None:
    """The page is package data: each of its files is in the wheel, as it is in the source."""
    names = installed_names(wheel)
    static = ROOT / "setback" / "web" / "static"
    files = sorted(f.name for f in static.iterdir())
    assert {"index.html", "main.js", "state.js", "style.css"} <= set(files)
    with zipfile.ZipFile(wheel) as archive:
        for name in files:
            assert f"setback/web/static/{name}" in names, name
            packed = next(n for n in archive.namelist() if installed_name(n) == f"setback/web/static/{name}")
            assert archive.read(packed) == (static / name).read_bytes(), name


def test_wheel_holds_the_compiled_hot_path(wheel: Path) -> None:
    """Built where a C compiler is (CI), the wheel holds each compiled module beside its source,
    and the manifest that vouches for them; ``SETBACK_COMPILE=0`` builds plain Python."""
    names = installed_names(wheel)
    built = [n for n in names if n.endswith(".so") or n.endswith(".pyd")]
    for module in compiled.MODULES:
        source = "/".join(module.split(".")) + ".py"
        assert source in names
        assert any(n.startswith(source[:-3] + ".") for n in built) == (EXPECTED == "compiled"), module
    assert ("setback/compiled.json" in names) == (EXPECTED == "compiled")


def test_wheel_runs_the_command(wheel: Path, tmp_path: Path) -> None:
    """The unpacked wheel, first on the path, imports and runs ``setback --help``."""
    site = tmp_path / "site"
    with zipfile.ZipFile(wheel) as archive:
        for member in archive.infolist():
            target = site / installed_name(member.filename)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(archive.read(member))
    env = {**os.environ, "PYTHONPATH": str(site)}
    done = subprocess.run(
        [sys.executable, "-c", "import setback.engine, setback.cli, sys; print(setback.engine.__file__); "
         "print(setback.compiled.STATUS); sys.argv=['setback', '--help']; setback.cli.main()"],
        check=False, capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0].startswith(str(site))
    assert done.stdout.splitlines()[1] == EXPECTED
    assert "match" in done.stdout
