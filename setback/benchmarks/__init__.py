"""Benchmarks, also reachable as ``setback bench NAME``; each compares against a baseline in one run."""

from __future__ import annotations

import argparse


def positive_seconds(text: str) -> float:
    """An argparse type: a measuring time in seconds, above 0."""
    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"seconds are a number, not {text!r}") from None
    if not seconds > 0:
        raise argparse.ArgumentTypeError(f"seconds are above 0, not {text}")
    return seconds
