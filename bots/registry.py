"""Finding a bot from a SPEC: a built-in name, ``path/to/file.py:Class`` or ``module:Class``.

Any SPEC may end in ``@key=value,key=value``: keyword arguments for the bot's
constructor (after ``seed``), read as ``None``, int, float, else text; for example
``search@budget_ms=20``, ``search@budget_ms=None,playouts=400`` or ``mybot.py:Mine@depth=3``.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Any

from setback.bots.base import Bot, RandomBot
from setback.bots.heuristic import HeuristicBot
from setback.bots.search import SearchBot

BUILTIN: dict[str, type[Bot]] = {"random": RandomBot, "heuristic": HeuristicBot, "search": SearchBot}
"""The built-in bots by name."""


def load_bot_class(spec: str) -> type[Bot]:
    """The bot class named by ``spec`` (without options); ValueError saying what is wrong otherwise."""
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


def _value(text: str) -> int | float | str | None:
    if text.lower() == "none":
        return None
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


@functools.cache
def bot_factory(spec: str) -> Callable[[int], Bot]:
    """A maker of fresh bots for ``spec`` (options included), given each bot's seed."""
    base, _, options = spec.partition("@")
    cls = load_bot_class(base)
    kwargs: dict[str, Any] = {}
    for item in filter(None, options.split(",")):
        key, eq, text = item.partition("=")
        if not eq or not key.isidentifier():
            raise ValueError(f"bad option {item!r} in bot {spec!r}: use key=value")
        kwargs[key] = _value(text)
    try:
        inspect.signature(cls).bind(0, **kwargs)
    except TypeError as exc:
        raise ValueError(f"bot {spec!r}: {exc}") from None
    return functools.partial(cls, **kwargs)


def bot_name(spec: str) -> str:
    """A short display name for ``spec``."""
    base, at, options = spec.partition("@")
    name = base if base in BUILTIN else base.rpartition(":")[2]
    return f"{name}@{options}" if at else name
