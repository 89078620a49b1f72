"""A module's structlog logger that binds itself again only when the configuration changed.

``structlog.get_logger(name)`` gives a lazy proxy that makes a new bound logger at every line
(the configuration may have changed since, and ``setback.logs`` does not let structlog cache
it: tests and commands configure again). That costs some 25,000 instructions a line, a line
the level filters out too: at a table of bots, two lines a game (``game_started``,
``game_over``) cost as much as a third of the rest of a game's start. :class:`Logger` keeps
the logger it bound while structlog's configuration (its processors, the bound logger's
class, the logger factory, the context class) and ``sys.stderr`` (where ``setback.logs``
writes) are the same objects, so it logs exactly what the proxy would, for less. Processors
changed in place (``structlog.testing.capture_logs``) are seen as they are by the proxy's
loggers: the logger kept holds the same list.
"""

from __future__ import annotations

import sys
from typing import Any

import structlog


class Logger:
    """``structlog.get_logger(name)``, bound again only when the configuration changed."""

    __slots__ = ("_bound", "_made", "_name")

    def __init__(self, name: str) -> None:
        self._name = name
        self._made: tuple[object, ...] = ()
        """What the bound logger was made with (compared by identity)."""
        self._bound: Any = None

    def _logger(self) -> Any:
        config = structlog.get_config()
        made = self._made
        processors, wrapper = config["processors"], config["wrapper_class"]
        factory, context, stderr = config["logger_factory"], config["context_class"], sys.stderr
        if not (
            made and made[0] is processors and made[1] is wrapper and made[2] is factory
            and made[3] is context and made[4] is stderr
        ):
            self._bound = structlog.get_logger(self._name).bind()
            self._made = (processors, wrapper, factory, context, stderr)
        return self._bound

    # Each level's method of the logger kept (a property: the caller's values are passed once).

    @property
    def debug(self) -> Any:
        return self._logger().debug

    @property
    def info(self) -> Any:
        return self._logger().info

    @property
    def warning(self) -> Any:
        return self._logger().warning

    @property
    def error(self) -> Any:
        return self._logger().error

    @property
    def exception(self) -> Any:
        """An error with the exception being handled (its traceback), as structlog's."""
        return self._logger().exception
