"""The server's allocator gives freed buffers back to the system (``setback.server.memory``):
a peer dropped with megabytes of unread output leaves no megabytes behind in the server's RSS."""

from __future__ import annotations

import platform
import subprocess
import sys

import pytest

FRAGMENTED = """
import sys
from pathlib import Path
from setback.server.memory import tune_malloc

def rss_kb():
    status = Path("/proc/self/status").read_text().splitlines()
    return int(next(line.split()[1] for line in status if line.startswith("VmRSS")))

print(tune_malloc())
big = bytearray(8 << 20)
del big  # one peer's buffer gone: untuned, glibc now serves buffers up to 8 MiB from its heap
base, kept, buffers = rss_kb(), [], []
for _ in range(200):  # 200 peers' backlogs of 512 KiB, with small objects made between them
    buffers.append(bytearray(b"x" * (512 << 10)))
    kept.append(bytearray(b"k" * 200))
peak = rss_kb()
del buffers[::2]  # half of those peers dropped
print(peak - base, rss_kb() - base)
"""


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="the allocator tuned is glibc's")
def test_buffers_freed_between_live_objects_go_back_to_the_system() -> None:
    done = subprocess.run([sys.executable, "-c", FRAGMENTED], capture_output=True, text=True, timeout=60, check=True)
    tuned, growth = done.stdout.split("\n", 1)
    peak, after = (int(kb) for kb in growth.split())
    assert tuned == "True"
    assert peak > 90_000 and after < 0.6 * peak, "the freed half stayed in the process's memory"
