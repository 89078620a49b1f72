"""Test-wide setup: logs go to stderr as the command line sends them, never into stdout."""

from __future__ import annotations

import logging

import pytest

from setback import logs


@pytest.fixture(autouse=True, scope="session")
def _logs_on_stderr() -> None:
    logs.configure(level=logging.INFO)
