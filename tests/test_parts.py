"""The parts depend one way: each module imports only the parts its own part may use.

:data:`MAY_USE` is the written rule. A part is a folder of ``setback/`` (``setback.engine``,
``setback.server``, ...) or one of the package's own modules (``setback.places``); every
``import`` in every module counts, those inside functions too.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

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
    "server": frozenset({"engine", "protocol", "bots", "telling", "compiled"}),
    "client": frozenset({"engine", "protocol", "link", "telling"}),
    "web": frozenset({"protocol", "server"}),
    "benchmarks": frozenset({"engine", "protocol", "server", "web", "bots", "compiled", "logs"}),
    "conformance": frozenset({"engine", "protocol", "link", "bots", "server"}),
    "commands": frozenset({
        "engine", "protocol", "places", "logs", "telling", "link", "bots", "server", "client", "conformance", "web",
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
