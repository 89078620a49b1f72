"""Setback (Auction Pitch) over a network: engine, protocol, server, client, bots.

The parts install as ``setback.engine``, ``setback.protocol``, ``setback.server``,
``setback.client``, ``setback.bots`` and ``setback.benchmarks``; ``setback`` is the
command line (``setback --help``).
"""

from setback import compiled

__version__ = "0.1.0"

compiled.guard()  # before any module mypyc may have compiled is imported
