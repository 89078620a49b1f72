"""structlog set up once for every command: readable on a terminal, JSON on request."""

from __future__ import annotations

import logging
import sys

import structlog


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
        # sys.stderr is looked up at each write, not once: it may be replaced after configuring
        # (pytest's capture does so between tests).
        logger_factory=lambda *_: structlog.PrintLogger(file=sys.stderr),
        cache_logger_on_first_use=False,
    )
