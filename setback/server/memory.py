"""The process's allocator, told what a server whose peers' buffers come and go needs.

A peer that does not read makes the server hold up to ``max_write_buffer`` of output in one
buffer, which goes when the peer reads it or is dropped. glibc's malloc serves a large
buffer from a mapping of its own, given back to the system when freed, but once it has
freed one it raises that threshold to the buffer's size (up to 32 MiB) and serves the next
ones from its heap, where a freed buffer often stays in the process's memory: under 1,000
peers that never read, the server's RSS grew some 150 MB more than the bytes it counted.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import platform
from typing import Final

import structlog

log = structlog.get_logger("setback.server")

MMAP_THRESHOLD: Final = 128 * 1024
"""Buffers from this size up are mapped on their own, and given back when freed (glibc's own
starting threshold, held there)."""
M_MMAP_THRESHOLD: Final = -3
"""``mallopt``'s parameter number for it (``malloc.h``)."""


def tune_malloc() -> bool:
    """Hold glibc's mmap threshold at :data:`MMAP_THRESHOLD`, so that freed buffers go back to
    the system; whether it was done (False off glibc, where nothing is changed)."""
    if platform.libc_ver()[0] != "glibc":
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        done = bool(libc.mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD))
    except (OSError, AttributeError):
        done = False
    if not done:
        log.warning("malloc_not_tuned", mmap_threshold=MMAP_THRESHOLD)
    return done
