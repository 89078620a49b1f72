"""Benchmarks, also reachable as ``setback bench NAME``; each compares against a baseline in one run."""
