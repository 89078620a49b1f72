"""Finding a bot from a SPEC: a built-in name, ``path/to/file.py:Class`` or ``module:Class``.

Any SPEC may end in ``@key=value,key=value``: keyword arguments for the bot's
constructor (after ``seed``), for example ``search@budget_ms=20``,
``search@budget_ms=None,playouts=400`` or ``mybot.py:Mine@depth=3``. A value is read as
the keyword's annotation asks: ``None``, a bool (``true``/``false`` or ``1``/``0``), an
int, a float (an int will do) or text, or a union of these; a value that is none of them
is refused when the SPEC is read. A keyword without such an annotation is read as
``None``, int, float, else text.

A SPEC ``cmd:COMMAND LINE`` is no Python bot but an external program (spec.md,
"External bots"), which plays only through a server.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import inspect
import os
import shlex
import shutil
import sys
import traceback
import types
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Any

from setback.bots.base import Bot, BotFailedError, RandomBot
from setback.bots.beginner import BeginnerBot
from setback.bots.expert import ExpertBot
from setback.bots.heuristic import HeuristicBot
from setback.bots.search import SearchBot

BUILTIN: dict[str, type[Bot]] = {
    "random": RandomBot, "beginner": BeginnerBot, "heuristic": HeuristicBot, "search": SearchBot,
    "expert": ExpertBot,
}
"""The built-in bots by name."""

EXTERNAL = "cmd:"
"""The SPEC prefix of an external bot: the rest is the command line that starts it."""


class ExternalBotError(BotFailedError):
    """An external (``cmd:``) bot could not play its game: it did not start, ended too early, or never sat down."""


def external_command(spec: str) -> list[str]:
    """The command line of the ``cmd:`` SPEC ``spec``; ValueError when it names no program that can be run."""
    try:
        command = shlex.split(spec[len(EXTERNAL):])
    except ValueError as exc:
        raise ValueError(f"{spec!r}: {exc}") from None
    if not command:
        raise ValueError(f"{spec!r} names no program: write cmd:PROGRAM [ARGUMENTS]")
    program = command[0]
    if shutil.which(program) is None:
        if os.sep in program or (os.altsep is not None and os.altsep in program):
            problem = "does not exist"
            if Path(program).is_file():
                problem = "is not executable (chmod +x it, or start it with its interpreter, as in cmd:node bot.js)"
        elif Path(program).is_file():
            problem = f"is not on PATH (for the file here, write cmd:./{program})"
        else:
            problem = "is not found on PATH"
        raise ValueError(f"{spec!r}: the program {program!r} {problem}")
    return command


def hello_name(spec: str, game: int, seat: int, limit: int) -> str:
    """The name the bot of ``spec`` says in its hello when a match seats it at ``seat`` of game
    ``game`` through a server (a ``cmd:`` program is given it as ``SETBACK_NAME``): a short name
    for the bot and its game and seat, as in ``mine.py g3s1``, so no two players of a match
    share one. It is a name any hello may say (spec.md, "Handshake": printable, at most
    ``limit`` characters, the server's ``max_name_chars``): what a name may not hold becomes
    ``?`` and the short name is cut to fit. A ``cmd:`` bot is named after its program's file:
    the first argument that names a file (the script an interpreter runs, as in ``cmd:python3
    bots/mine.py``), else the command itself; any other bot by :func:`bot_name`."""
    if spec.startswith(EXTERNAL):
        command = external_command(spec)
        short = Path(next((word for word in command[1:] if Path(word).is_file()), command[0])).name
    else:
        short = bot_name(spec)
    suffix = f" g{game}s{seat}"
    short = "".join(c if c.isprintable() else "?" for c in short).strip() or "bot"
    return short[:max(1, limit - len(suffix))].rstrip() + suffix


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
        _importable_from(path.resolve().parent)  # a bot of several files imports its others
        module_spec = importlib.util.spec_from_file_location(f"setback_bot_{path.stem}", path)
        if module_spec is None or module_spec.loader is None:
            raise ValueError(f"cannot load bot file {target}")
        module = importlib.util.module_from_spec(module_spec)
        try:
            module_spec.loader.exec_module(module)
        except Exception as exc:  # the bot's own code failed: say where, in one line
            raise ValueError(f"cannot load bot file {target}: {failure_line(exc)}") from None
    else:
        _importable_from(Path.cwd())  # as `python -m` would: modules of the folder you are in
        try:
            module = importlib.import_module(target)
        except Exception as exc:
            if isinstance(exc, ModuleNotFoundError) and exc.name == target.partition(".")[0]:
                raise ValueError(f"no bot module {target!r} in this folder or on PYTHONPATH") from None
            raise ValueError(f"cannot import bot module {target!r}: {failure_line(exc)}") from None
    found = getattr(module, class_name, None)
    if not isinstance(found, type) or not issubclass(found, Bot):
        raise ValueError(f"{spec!r} does not name a Bot subclass")
    return found


def _importable_from(folder: Path) -> None:
    """Let a bot's code import the modules beside it (``folder`` goes last on ``sys.path``,
    so it never hides an installed package)."""
    if str(folder) not in sys.path:
        sys.path.append(str(folder))


def failure_line(exc: BaseException) -> str:
    """An exception raised while loading a bot's code, in one line with its place."""
    if isinstance(exc, SyntaxError):
        return f"SyntaxError: {exc.msg} ({Path(exc.filename or '?').name}, line {exc.lineno})"
    frames = traceback.extract_tb(exc.__traceback__)
    where = next((f for f in reversed(frames) if "importlib" not in f.filename), None)
    place = f" ({Path(where.filename).name}, line {where.lineno})" if where is not None else ""
    return f"{type(exc).__name__}: {exc}{place}"


def _value(text: str) -> int | float | str | None:
    if text.lower() == "none":
        return None
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def _none(text: str) -> None:
    if text.lower() != "none":
        raise ValueError(text)


def _bool(text: str) -> bool:
    truth = {"true": True, "1": True, "false": False, "0": False}.get(text.lower())
    if truth is None:
        raise ValueError(text)
    return truth


_READERS: dict[Any, tuple[str, Callable[[str], Any]]] = {
    type(None): ("None", _none), bool: ("true/false", _bool), int: ("int", int), float: ("float", float),
    str: ("text", str),
}
"""How an option's value is read for each annotation a SPEC can check, tried in this order."""


def _option(hint: Any, text: str) -> Any:
    """``text`` read as the annotation ``hint`` asks; ValueError naming the types wanted if it is
    none of them. A hint that is not one of :data:`_READERS` or a union of them goes unchecked."""
    union = typing.get_origin(hint) in (typing.Union, types.UnionType)
    kinds = typing.get_args(hint) if union else (hint,)
    if not all(kind in _READERS for kind in kinds):
        return _value(text)
    for kind, (_, read) in _READERS.items():
        if kind in kinds:
            try:
                return read(text)
            except ValueError:
                pass
    raise ValueError(" or ".join(_READERS[kind][0] for kind in kinds))


def _hints(cls: type[Bot]) -> dict[str, Any]:
    """The annotations of ``cls``'s constructor; none (options unchecked) if they name what cannot be found."""
    try:
        return typing.get_type_hints(cls.__init__)
    except NameError:
        return {}


@functools.cache
def bot_factory(spec: str) -> Callable[[int], Bot]:
    """A maker of fresh bots for ``spec`` (options included), given each bot's seed."""
    cls, kwargs = bot_class_and_options(spec)
    return functools.partial(cls, **kwargs)


def bot_class_and_options(spec: str) -> tuple[type[Bot], dict[str, Any]]:
    """The bot class ``spec`` names and the constructor keywords its options give (checked)."""
    base, _, options = spec.partition("@")
    cls = load_bot_class(base)
    hints = _hints(cls) if options else {}
    kwargs: dict[str, Any] = {}
    for item in filter(None, options.split(",")):
        key, eq, text = item.partition("=")
        if not eq or not key.isidentifier():
            raise ValueError(f"bad option {item!r} in bot {spec!r}: use key=value")
        try:
            kwargs[key] = _option(hints.get(key, Any), text)
        except ValueError as wanted:
            raise ValueError(f"bot {spec!r}: {key} wants {wanted}, not {text!r}") from None
    try:
        inspect.signature(cls).bind(0, **kwargs)
    except TypeError as exc:
        raise ValueError(f"bot {spec!r}: {exc}") from None
    return cls, kwargs


def bot_name(spec: str) -> str:
    """A short display name for ``spec``."""
    base, at, options = spec.partition("@")
    name = base if base in BUILTIN else base.rpartition(":")[2]
    return f"{name}@{options}" if at else name
