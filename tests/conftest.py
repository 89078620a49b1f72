"""Test-wide setup: logs go to stderr as the command line sends them, never into stdout."""

from __future__ import annotations

import logging
import os

import pytest

from setback import logs


@pytest.fixture(autouse=True, scope="session")
def _logs_on_stderr() -> None:
    logs.configure(level=logging.INFO)


@pytest.fixture(autouse=True, scope="session")
def _a_data_folder_of_its_own(tmp_path_factory: pytest.TempPathFactory) -> None:
    """No test, nor a command it runs, reads or writes the user's data folder (the default
    records file, kept seat tokens)."""
    os.environ["XDG_DATA_HOME"] = str(tmp_path_factory.mktemp("data"))
