"""The parts depend one way: each module imports only the parts its own part may use.

:data:`MAY_USE` is the written rule. A part is a folder of ``setback/`` (``setback.engine``,
``setback.server``, ...) or one of the package's own modules (``setback.places``); every
``import`` in every module counts, those inside functions too.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import setback

PACKAGE = Path(setback.__file__).resolve().parent

MAY_USE: dict[str, frozenset[str]] = {
    "engine": frozenset(),
    "protocol": frozenset({"engine"}),
    "places": frozenset(),
    "compiled": frozenset(),
    "logs": frozenset(),
    "telling": frozenset({"engine", "protocol"}),
    "link": frozenset({"engine", "protocol"}),
    "bots": frozenset({"engine", "protocol", "link", "telling"}),
    "match": frozenset({"engine", "bots"}),
    "server": frozenset({"engine", "protocol", "bots", "telling", "compiled"}),
    "client": frozenset({"engine", "protocol", "link", "telling"}),
    "web": frozenset({"protocol", "server"}),
    "benchmarks": frozenset({"engine", "protocol", "server", "web", "bots", "match", "compiled", "logs"}),
    "conformance": frozenset({"engine", "protocol", "link", "bots", "server"}),
    "commands": frozenset({
        "engine", "protocol", "places", "logs", "telling", "link", "bots", "match", "server", "client", "conformance",
        "web",
    }),
    "cli": frozenset({"commands", "compiled", "logs", "setback"}),
    "__main__": frozenset({"cli"}),
    "setback": frozenset({"compiled"}),
}
"""Each part and the parts it may import (the package ``setback`` itself only sets the
compiled hot path up, so any part may import it: that arrow is not listed)."""


def part_of(module: str) -> str:
    """The part a module name under ``setback`` belongs to."""
    names = module.split(".")
    return names[1] if len(names) > 1 else "setback"


def modules() -> Iterator[tuple[str, Path]]:
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE.parent).with_suffix("")
        names = list(relative.parts)
        if names[-1] == "__init__":
            names.pop()
        yield ".".join(names), path


def imported(module: str, path: Path) -> Iterator[tuple[int, str]]:
    """Each module name under ``setback`` that the file imports, with its line."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the package, up one more for each dot past the first
                above = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*above, base] if base else above)
            for alias in node.names:  # ``from setback import logs`` imports the module setback.logs
                candidate = f"{base}.{alias.name}"
                yield node.lineno, candidate if (PACKAGE.parent / candidate.replace(".", "/")).exists() or (
                    PACKAGE.parent / (candidate.replace(".", "/") + ".py")).exists() else base


def forbidden_arrows() -> list[str]:
    found = []
    for module, path in modules():
        part = part_of(module)
        allowed = MAY_USE[part] | {part, "setback"}
        for line, name in imported(module, path):
            if name.split(".")[0] == "setback" and part_of(name) not in allowed:
                found.append(f"{path.relative_to(PACKAGE.parent)}:{line}: {part} -> {part_of(name)} ({name})")
    return found


def files_that_import_each_other() -> list[str]:
    """Each circle of imports between the files of one package (its ``__init__`` counts as a
    file), shortest first, named by its files; ``TYPE_CHECKING`` imports count as any other."""
    names = dict(modules())
    arrows: dict[str, set[str]] = {module: set() for module in names}
    for module, path in names.items():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        for _, name in imported(module, path):
            a_file_of_it = name in names and name.rpartition(".")[0] == package
            if name != module and (a_file_of_it or name == package):  # (``from setback.bots import Bot``: its init)
                arrows[module].add(name)
    circles: list[str] = []
    for start in sorted(arrows):
        paths, seen = [[start]], {start}
        while paths:  # breadth first: the shortest way back to ``start``, if there is one
            way = paths.pop(0)
            for follows in sorted(arrows[way[-1]]):
                if follows == start and min(way) == start:  # each circle once, from its least file
                    circles.append(" -> ".join([*way, start]))
                    paths = []
                    break
                if follows not in seen:
                    seen.add(follows)
                    paths.append([*way, follows])
    return circles


def test_every_part_imports_only_what_the_rule_allows() -> None:
    """A module that imports a part its own part may not use is named with its line."""
    assert forbidden_arrows() == []


def test_every_module_belongs_to_a_part_of_the_rule() -> None:
    """A new folder or module under setback/ needs its line in the rule before it can import anything."""
    assert {part_of(module) for module, _ in modules()} <= set(MAY_USE)


def test_the_rule_has_no_circle() -> None:
    """No part may use, directly or through others, a part that may use it back."""
    def reaches(start: str) -> set[str]:
        seen: set[str] = set()
        todo = list(MAY_USE[start])
        while todo:
            part = todo.pop()
            if part not in seen:
                seen.add(part)
                todo.extend(MAY_USE.get(part, frozenset()))
        return seen

    assert [part for part in MAY_USE if part in reaches(part)] == []


def test_the_check_sees_an_arrow_the_rule_forbids(tmp_path: Path) -> None:
    """The reader of imports finds plain, dotted, relative and in-function imports alike."""
    (tmp_path / "setback" / "engine").mkdir(parents=True)
    source = tmp_path / "setback" / "engine" / "rules.py"
    source.write_text(
        "import setback.server.app\nfrom setback.client import state\nfrom . import cards\n"
        "def f():\n    from setback.bots.base import Bot\n"
    )
    names = [name for _, name in imported("setback.engine.rules", source)]
    assert [part_of(n) for n in names] == ["server", "client", "engine", "bots"]


def test_no_two_files_of_a_package_import_each_other() -> None:
    """Inside a package, imports run one way too: no file imports one that imports it back,
    directly or through others of the package."""
    assert files_that_import_each_other() == []


def test_the_check_sees_files_that_import_each_other(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A circle through a ``TYPE_CHECKING`` import and one through the package's ``__init__`` are found."""
    package = tmp_path / "setback" / "engine"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("from setback.engine.cards import Card\n")
    (package / "cards.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import deck\n")
    (package / "deck.py").write_text("from setback.engine import Card\n")
    (package / "tricks.py").write_text("def f():\n    from setback.engine.trump import Trump\n")
    (package / "trump.py").write_text("from .tricks import Trick\n")
    (package / "rules.py").write_text("from setback.engine import Card\nfrom . import tricks\n")
    monkeypatch.setattr(__name__ + ".PACKAGE", tmp_path / "setback")
    assert files_that_import_each_other() == [
        "setback.engine -> setback.engine.cards -> setback.engine.deck -> setback.engine",
        "setback.engine.tricks -> setback.engine.trump -> setback.engine.tricks",
    ]


def test_the_server_loads_no_match_lab() -> None:
    """Seating bots is the server's; running matches is not: starting a server's table loads
    neither the match lab nor a process pool."""
    probe = ("import sys, setback.server.app, setback.server.table\n"
             "print(sorted(m for m in sys.modules if m.startswith('setback.match') or m == 'multiprocessing.pool'))")
    shown = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert shown.stdout.strip() == "[]"
