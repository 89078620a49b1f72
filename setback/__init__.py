"""Setback (Auction Pitch) over a network: engine, protocol, server, client, bots.

The parts install as ``setback.engine``, ``setback.protocol``, ``setback.telling``,
``setback.link``, ``setback.bots``, ``setback.server``, ``setback.client`` and
``setback.benchmarks``; ``setback.commands`` and ``setback.cli`` are the command line
(``setback --help``), the one place that puts parts together. ``tests/test_parts.py``
says which part may import which.
"""

from setback import compiled

__version__ = "0.1.0"

compiled.guard()  # before any module mypyc may have compiled is imported
