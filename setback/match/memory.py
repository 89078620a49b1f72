"""The peak memory of the process that plays a game: what a match's records say of memory.

On Linux the peak resident set size (``VmHWM``) is reset as a game starts (``/proc/self/clear_refs``),
so the peak read at its end is that game's own: the interpreter, the engine and every bot of
the game, at their highest. Where it cannot be reset (other systems, or a ``/proc`` that refuses
the write), the peak is the process's since it started, ``resource.getrusage``'s ``ru_maxrss``:
never less than the game's, possibly more.
"""

from __future__ import annotations

import sys
from pathlib import Path

_CLEAR_REFS = Path("/proc/self/clear_refs")
_STATUS = Path("/proc/self/status")


def reset_peak() -> bool:
    """Start counting this process's peak resident set size afresh; whether it could."""
    try:
        _CLEAR_REFS.write_text("5")
    except OSError:
        return False
    return True


def peak_rss_mb() -> float:
    """This process's peak resident set size since :func:`reset_peak` (or since it started), in MB (2^20 bytes)."""
    try:
        for line in _STATUS.read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    import resource

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # kB on Linux, bytes on macOS
    return peak / 2**20 if sys.platform == "darwin" else peak / 1024
