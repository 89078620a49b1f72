"""Where Setback keeps its files by default: one folder in the user's data folder.

The server's records file and the seat tokens that clients and bots keep live there.
Any part may ask; nothing here reads or writes a file.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path


def data_folder() -> Path:
    """``setback`` in the user's data folder (``$XDG_DATA_HOME`` on Linux, the usual places elsewhere)."""
    if sys.platform == "win32":
        base = Path(os.environ.get("APPDATA", Path.home() / "AppData" / "Roaming"))
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "setback"


def default_db_path() -> Path:
    """``setback.sqlite3`` in :func:`data_folder`: the records of ``setback serve`` and ``play --bots``."""
    return data_folder() / "setback.sqlite3"


def default_seat_tokens_path() -> Path:
    """``seats.json`` in :func:`data_folder`: the seat tokens the text client and ``setback bot`` keep."""
    return data_folder() / "seats.json"
