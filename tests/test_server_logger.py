"""The server's kept logger (:mod:`setback.server.logger`) logs what structlog's own proxy would."""

from __future__ import annotations

import io
import json
import logging
import sys

import pytest
import structlog

from setback import logs
from setback.server.logger import Logger


def _lines(text: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in text.splitlines()]


def test_it_writes_the_line_to_the_stderr_of_the_moment(monkeypatch: pytest.MonkeyPatch) -> None:
    """A line goes where ``sys.stderr`` is when it is logged, as ``setback.logs`` promises."""
    log = Logger("setback.test")
    logs.configure(json=True)
    first, second = io.StringIO(), io.StringIO()
    monkeypatch.setattr(sys, "stderr", first)
    log.info("one", n=1)
    monkeypatch.setattr(sys, "stderr", second)
    log.info("two", n=2)
    assert [(line["event"], line["n"]) for line in _lines(first.getvalue())] == [("one", 1)]
    assert [(line["event"], line["n"]) for line in _lines(second.getvalue())] == [("two", 2)]


def test_it_follows_the_level_configured_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """Configured again (a command quiets the logs), it logs at the new level."""
    log = Logger("setback.test")
    out = io.StringIO()
    monkeypatch.setattr(sys, "stderr", out)
    logs.configure(json=True, level=logging.WARNING)
    log.info("quiet")
    log.warning("heard")
    logs.configure(json=True, level=logging.INFO)
    log.info("loud")
    assert [line["event"] for line in _lines(out.getvalue())] == ["heard", "loud"]


def test_it_is_captured_as_structlog_captures_its_own() -> None:
    """``structlog.testing.capture_logs`` (processors changed in place, then put back) sees its
    lines, a logger kept from before included."""
    log = Logger("setback.test")
    log.info("before")  # (kept from here)
    with structlog.testing.capture_logs() as captured:
        log.info("game_started", table="T1")
        log.exception("table_failed", table="T1")
    heard = [(line["event"], line["log_level"]) for line in captured]
    assert heard == [("game_started", "info"), ("table_failed", "error")]


def test_it_binds_again_only_when_the_configuration_changed() -> None:
    """The promise that makes it cheap: one bound logger while nothing changed."""
    log = Logger("setback.test")
    kept = log.info.__self__
    assert log.warning.__self__ is kept
    logs.configure(level=logging.INFO)
    assert log.info.__self__ is not kept
