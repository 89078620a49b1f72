"""structlog set up once for every command: readable on a terminal, JSON on request."""

from __future__ import annotations

import logging
import sys

import structlog


def _stderr_logger(*_args: object) -> structlog.PrintLogger:
    """A logger on whatever ``sys.stderr`` is when it logs (tests swap it)."""
    return structlog.PrintLogger(file=sys.stderr)


def configure(json: bool = False, level: int = logging.INFO) -> None:
    """Send structlog's output to stderr, as JSON lines when ``json`` is set."""
    renderer: structlog.typing.Processor = (
        structlog.processors.JSONRenderer()
        if json
        else structlog.dev.ConsoleRenderer(colors=sys.stderr.isatty())
    )
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            structlog.processors.StackInfoRenderer(),
            structlog.processors.format_exc_info,
            renderer,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(level),
        logger_factory=_stderr_logger,
        cache_logger_on_first_use=False,
    )
