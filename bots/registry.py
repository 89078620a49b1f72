"""Finding a bot class from a SPEC: a built-in name, ``path/to/file.py:Class`` or ``module:Class``."""

from __future__ import annotations

import importlib
import importlib.util
from pathlib import Path

from setback.bots.base import Bot, RandomBot

BUILTIN: dict[str, type[Bot]] = {"random": RandomBot}
"""The built-in bots by name."""


def load_bot_class(spec: str) -> type[Bot]:
    """The bot class named by ``spec``; ValueError saying what is wrong otherwise."""
    if spec in BUILTIN:
        return BUILTIN[spec]
    target, sep, class_name = spec.rpartition(":")
    if not sep or not target or not class_name:
        known = ", ".join(sorted(BUILTIN))
        raise ValueError(f"unknown bot {spec!r}: use one of {known}, path/to/file.py:Class or module:Class")
    if target.endswith(".py"):
        path = Path(target)
        if not path.is_file():
            raise ValueError(f"bot file not found: {target}")
        module_spec = importlib.util.spec_from_file_location(f"setback_bot_{path.stem}", path)
        if module_spec is None or module_spec.loader is None:
            raise ValueError(f"cannot load bot file {target}")
        module = importlib.util.module_from_spec(module_spec)
        module_spec.loader.exec_module(module)
    else:
        try:
            module = importlib.import_module(target)
        except ImportError as exc:
            raise ValueError(f"cannot import bot module {target!r}: {exc}") from exc
    found = getattr(module, class_name, None)
    if not isinstance(found, type) or not issubclass(found, Bot):
        raise ValueError(f"{spec!r} does not name a Bot subclass")
    return found


def bot_name(spec: str) -> str:
    """A short display name for ``spec``."""
    return spec if spec in BUILTIN else spec.rpartition(":")[2]
