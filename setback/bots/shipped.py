"""Where the tables the bots ship beside their code are (``odds.json``, ``answers.json``,
``bidding.json``): found by this module's own path, which a compiled module has not."""

from __future__ import annotations

from pathlib import Path
from typing import Final

FOLDER: Final = Path(__file__).parent
"""The folder of :mod:`setback.bots`, where its tables are."""
