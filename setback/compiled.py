"""The server's hot path, compiled with mypyc when the install could, and kept honest.

``pip install`` compiles :data:`MODULES` with mypyc (``setup.py``; ``SETBACK_COMPILE=0``
skips it, and an install that cannot compile keeps them as Python) and writes
:data:`MANIFEST` beside this file: the SHA-256 of each module's source as compiled.
At import, :func:`guard` trusts the compiled modules only while every source still
matches its hash. Otherwise (a source edited since, a compile that failed half way, no
compile at all) all of them are imported from their ``.py`` files: compiled modules call
each other directly, so they are used all together or not at all.

Only the standard library may be used here: ``setup.py`` loads this file to build.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Final

MODULES: Final = (
    "setback.engine.actions",
    "setback.engine.deck",
    "setback.engine.events",
    "setback.engine.game",
    "setback.engine.position",
    "setback.engine.record",
    "setback.engine.state",
    "setback.engine.tables",
    "setback.engine.trick",
    "setback.bots.answers",
    "setback.bots.odds",
    "setback.bots.playout",
    "setback.bots.reading",
    "setback.bots.rollouts",
    "setback.bots.seat",
    "setback.bots.solver",
    "setback.bots.tactics",
    "setback.protocol.codec",
    "setback.protocol.convert",
    "setback.protocol.views",
    "setback.server.app",
    "setback.server.audience",
    "setback.server.connection",
    "setback.server.journal",
    "setback.server.lobby",
    "setback.server.outgoing",
    "setback.server.pacing",
    "setback.server.play",
    "setback.server.seatbook",
    "setback.server.seats",
    "setback.server.table",
    "setback.server.timesource",
    "setback.server.turnclock",
)
"""What runs for every decision a server handles (see ``setback bench server``) or a match plays
(``setback bench match``: the seat and the record), and the rollouts of the search bots (the
tactics, the policy and the sampler of ``setback.bots.playout``, the state built from a
view, the solver, a decision's rollouts of ``setback.bots.rollouts``) and the expert's reading of
the auction and its values (``reading``, ``answers``, ``odds``: their tables are found by the
Python ``setback.bots.shipped``)."""

GROUP: Final = "setback._compiled"
"""mypyc's name for the compiled group: its shared library is ``setback/_compiled__mypyc``."""

MANIFEST: Final = "compiled.json"

PACKAGE: Final = Path(__file__).resolve().parent


def source_path(module: str, package: Path = PACKAGE) -> Path:
    """The ``.py`` file of ``module`` (a name under ``setback.``) in the package folder ``package``."""
    return package.joinpath(*module.split(".")[1:]).with_suffix(".py")


def source_hashes(package: Path = PACKAGE) -> dict[str, str]:
    """Each module's name and the SHA-256 of its source (an empty string when it is missing)."""
    hashes = {}
    for module in MODULES:
        try:
            hashes[module] = hashlib.sha256(source_path(module, package).read_bytes()).hexdigest()
        except OSError:
            hashes[module] = ""
    return hashes


def status(package: Path = PACKAGE) -> str:
    """``compiled``, or why the modules run as Python: ``not compiled`` or ``stale``
    (a source changed since the compile: install again to compile it)."""
    try:
        manifest = json.loads((package / MANIFEST).read_text())
    except (OSError, ValueError):
        return "not compiled"
    if not isinstance(manifest, dict) or manifest.get("modules") != source_hashes(package):
        return "stale"
    return "compiled"


class _FromSource(importlib.abc.MetaPathFinder):
    """Finds each of :data:`MODULES` as its ``.py`` file, never as a compiled extension."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in MODULES or not path:
            return None
        leaf = fullname.rpartition(".")[2] + ".py"
        for folder in path:
            source = Path(folder) / leaf
            if source.is_file():
                return importlib.util.spec_from_file_location(fullname, source)
        return None


STATUS: Final = status()
"""This install's :func:`status`, read once at import."""


def guard() -> None:
    """Unless the compiled modules match their sources, import every one of them as Python."""
    if STATUS != "compiled":
        from_source()


def from_source() -> None:
    """Import every one of :data:`MODULES` from its ``.py`` file from now on, compiled or not:
    for tools that must run the Python itself (the fuzz targets: atheris sees only Python's
    bytecode). Call it first: once any of them is imported it does nothing (compiled modules
    call each other directly, so they are never mixed with Python ones)."""
    if any(name in sys.modules for name in MODULES):
        return
    if not any(isinstance(finder, _FromSource) for finder in sys.meta_path):
        sys.meta_path.insert(0, _FromSource())


def loaded_compiled() -> list[str]:
    """Which of :data:`MODULES` this process has imported as compiled extensions."""
    return [
        name for name in MODULES
        if (module := sys.modules.get(name)) is not None and not str(getattr(module, "__file__", "")).endswith(".py")
    ]
