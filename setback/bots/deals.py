"""What the commands that train the expert's data share (``make_bidding``, ``make_answers``):
deals played on local processes or on Ray, their rows appended to a JSON lines file.

A deal is one task, seeded by its number, so the rows are the same whichever way it runs.
"""

from __future__ import annotations

import argparse
import importlib
import json
from collections.abc import Callable, Iterator, Sequence
from multiprocessing import get_context
from pathlib import Path
from typing import Any

Row = dict[str, Any]
"""One row of a training file (what is in it is the command's)."""

Task = tuple[Any, ...]
"""A deal's arguments, as the command's task function takes them."""


def add_arguments(parser: argparse.ArgumentParser, deals: int, what: str) -> None:
    """The arguments every training command takes: which deals, where their rows go, where they run."""
    parser.add_argument("--deals", type=int, default=deals, help=f"deals to {what} (0: fit the --rows file as it is)")
    parser.add_argument("--first", type=int, default=0, help="the first deal's seed")
    parser.add_argument("--rows", type=Path, required=True, help="the rows' JSON lines file (appended to)")
    parser.add_argument("--jobs", type=int, default=1, help="local processes the deals run on")
    parser.add_argument("--ray", nargs="?", const="local", default=None, metavar="ADDRESS",
                        help="run the deals on Ray: a local instance, or the cluster at ADDRESS "
                             "(as `setback match --ray`; pip install 'setback[cluster]')")
    parser.add_argument("--no-fit", action="store_true", help=f"only {what} the deals")
    parser.add_argument("--held-out", type=Path, help="a rows file of other deals to report the fitted model on")


def run(module: str, function: str, tasks: Sequence[Task], jobs: int = 1,
        ray: str | None = None) -> Iterator[list[Row]]:
    """Each task's rows, in order, from ``module``'s ``function``: here (``jobs`` 1), on ``jobs``
    processes, or on Ray when ``ray`` is given (``local``: a local instance, else an address).

    The function is named, not passed, so that processes and Ray workers import it by its
    module's name (a command run as ``python -m`` is ``__main__``, which they cannot import).
    """
    task: Callable[[Task], list[Row]] = getattr(importlib.import_module(module), function)
    if ray is not None:
        yield from _on_ray(task, tasks, None if ray == "local" else ray)
    elif jobs <= 1:
        yield from map(task, tasks)
    else:
        with get_context("spawn").Pool(jobs) as pool:
            yield from pool.imap(task, tasks)


def _on_ray(task: Callable[[Task], list[Row]], tasks: Sequence[Task], address: str | None) -> Iterator[list[Row]]:
    """``tasks``' rows, each a Ray task, on a local instance (``address`` None) or the cluster at
    ``address`` (connected as ``setback match --ray`` connects, docs/bots.md)."""
    try:
        import ray
    except ImportError:
        raise ValueError("--ray needs Ray: pip install 'setback[cluster]'") from None
    started = not ray.is_initialized()
    if started:
        ray.init(address=address, include_dashboard=False, configure_logging=False)
    try:
        remote = ray.remote(num_cpus=1, max_retries=0)(task)
        refs = [remote.remote(args) for args in tasks]
        for ref in refs:
            yield ray.get(ref)
    finally:
        if started:
            ray.shutdown()


def record(path: Path, deals: Iterator[list[Row]], done: str) -> None:
    """Append each deal's rows to ``path`` as they come, saying every 50 deals that they are ``done``."""
    with path.open("a") as out:
        for n, rows in enumerate(deals, 1):
            out.writelines(json.dumps(row) + "\n" for row in rows)
            out.flush()
            if n % 50 == 0:
                print(f"{n} deals {done}", flush=True)


def read_rows(path: Path) -> list[Row]:
    """The rows of a ``--rows`` file."""
    return [json.loads(line) for line in path.read_text().splitlines() if line]
