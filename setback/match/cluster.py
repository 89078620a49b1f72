"""Match games on a Ray cluster (``--ray``): each game a Ray task, the records back in order.

Ray is an optional extra (``pip install 'setback[cluster]'``) and is imported only here, when
a match or a tournament asks for it, so the package works without it. Ray schedules the
tasks; this module only submits them, a bounded number ahead of the one awaited, and yields
their records in the order of the tasks, as :func:`setback.match.runner.engine_games` does:
for deterministic bots the records are those of ``--jobs 1``.

Every worker plays a game as :func:`setback.match.runner.run_game` does, so it needs this
package (and ray) installed. Bots named by file or module (``path/to/bot.py:Class``,
``module:Class``) reach the workers through Ray's runtime environment: the current folder
is sent to them as their working folder, so a SPEC's relative path means the same file
there as here.
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from setback.bots.registry import BUILTIN, EXTERNAL
from setback.match.plan import MatchPlan
from setback.match.runner import GamePlayer, GameTask, Played, WorkerDiedError, run_task

EXTRA = "pip install 'setback[cluster]'"
"""How to install what ``--ray`` needs."""

WORKING_DIR_EXCLUDES = [".git", ".venv", "venv", "__pycache__", "*.jsonl"]
"""What of the current folder is not sent to the workers (besides what ``.gitignore`` names)."""

AUTH_MODE = "RAY_AUTH_MODE"
TOKEN_PLACES = "~/.ray/auth_token, RAY_AUTH_TOKEN or RAY_AUTH_TOKEN_PATH"
"""Ray's token authentication: the variable that turns it on, and where Ray looks for the token."""

AHEAD_PER_CPU = 2
"""Games submitted ahead of the one awaited, per CPU of the cluster: every worker has its next game."""


def _ray() -> Any:
    """The ``ray`` module; ValueError saying how to install it when it is missing."""
    try:
        import ray
    except ImportError:
        raise ValueError(f"--ray needs Ray: {EXTRA}") from None
    return ray


def ray_address(text: str) -> str:
    """An argparse-ready check of a cluster's address: ``auto``, ``HOST:PORT`` or ``ray://HOST:PORT``,
    or ``local`` (or nothing) for a local instance. (A bot SPEC after a bare ``--ray`` would
    otherwise be taken for one.)"""
    if text in ("", "local"):
        return ""
    if text == "auto" or re.fullmatch(r"(ray://)?[\w.\-]+:\d{1,5}|(ray://)?\[[0-9a-fA-F:.]+\]:\d{1,5}", text):
        return text
    raise ValueError(f"{text!r} is no Ray address (auto, HOST:PORT or ray://HOST:PORT); "
                     "to start a local instance, put --ray after the bots")


def start_ray(address: str | None, cpus: int | None = None, specs: Sequence[str] = ()) -> Callable[[], None]:
    """Connect to the Ray cluster at ``address`` (``auto``: the one this machine is part of;
    ``HOST:PORT``, ``ray://HOST:PORT``) or, with None, start a local Ray instance on this
    machine with ``cpus`` CPUs (None: all of them), with the :func:`runtime_env` the bots
    ``specs`` need. Returns what disconnects (and stops a local instance). A Ray this
    process is already connected to is used as it is."""
    ray = _ray()
    env = runtime_env(specs)
    if ray.is_initialized():
        return lambda: None
    try:
        ray.init(
            address=address,
            num_cpus=cpus if address is None else None,
            runtime_env=env,
            include_dashboard=False,
            configure_logging=False,
            log_to_driver=True,
        )
    except (ConnectionError, ray.exceptions.AuthenticationError) as exc:
        if address is None:
            raise
        raise ConnectionError(f"{exc}: {_connecting_hint()}") from None
    return ray.shutdown  # type: ignore[no-any-return]


def _connecting_hint() -> str:
    """What to set or check when a cluster did not take this process's connection. A cluster
    started as docs/bots.md starts it, with ``RAY_AUTH_MODE=token``, takes none that does not
    say so, and Ray then only says it failed to connect."""
    if os.environ.get(AUTH_MODE, "").lower() != "token":
        return (f"a cluster started with {AUTH_MODE}=token takes only connections that say so: set "
                f"{AUTH_MODE}=token here too, with the cluster's token in {TOKEN_PLACES}")
    return (f"check the address, that Ray's ports are open between the machines, and that the token in "
            f"{TOKEN_PLACES} is the cluster's")


def runtime_env(specs: Sequence[str], folder: Path | None = None) -> dict[str, Any] | None:
    """The Ray runtime environment the games of ``specs`` need: the current folder (or
    ``folder``) as the workers' working folder when a bot is named by file or module; None
    when every bot is built in."""
    if all(spec.partition("@")[0] in BUILTIN or spec.startswith(EXTERNAL) for spec in specs):
        return None
    for spec in specs:
        target = spec.partition("@")[0].rpartition(":")[0]
        if target.endswith(".py") and (Path(target).is_absolute() or ".." in Path(target).parts):
            raise ValueError(f"{spec!r}: a bot file reaches Ray's workers by a path inside this folder, "
                             "which is sent to them; run from a folder that holds it and name it from there")
    return {"working_dir": str(folder or Path.cwd()), "excludes": WORKING_DIR_EXCLUDES}


def _play(task: GameTask) -> Played:
    """On a worker: play one game; what its bots print goes to stderr (stdout is the match's result)."""
    sys.stdout = sys.stderr
    return run_task(task)


def ray_games(tasks: Sequence[GameTask], jobs: int = 0) -> Iterator[Played]:
    """``tasks``' games, each played as a task of the Ray this process is
    connected to (:func:`start_ray`, given the tasks' bots), in the order of the tasks. ``jobs`` is unused: the
    cluster runs as many games at once as it has CPUs."""
    ray = _ray()
    if not tasks:
        return
    remote = ray.remote(num_cpus=1, max_retries=0)(_play)
    ahead = max(2, AHEAD_PER_CPU * int(ray.cluster_resources().get("CPU", 1)))
    waiting = iter(tasks)
    pending: deque[Any] = deque()
    for task in waiting:
        pending.append(remote.remote(task))
        if len(pending) >= ahead:
            break
    try:
        while pending:
            try:
                played = ray.get(pending.popleft())
            except ray.exceptions.RayTaskError as exc:  # the game's own error, as --jobs would raise it
                cause = exc.cause
                raise (cause if isinstance(cause, BaseException) else exc) from None
            except (ray.exceptions.WorkerCrashedError, ray.exceptions.OutOfMemoryError,
                    ray.exceptions.NodeDiedError) as exc:  # as a dead worker process of --jobs
                raise WorkerDiedError(f"a Ray worker died while playing a game ({type(exc).__name__}): "
                                      "a bot crashed it or called os._exit, or its machine killed it "
                                      "or went away") from None
            following = next(waiting, None)
            if following is not None:
                pending.append(remote.remote(following))
            yield played
    finally:
        for ref in pending:  # stopped early (a verdict, Ctrl-C, a bot's failure): drop the rest
            with contextlib.suppress(Exception):
                ray.cancel(ref, force=True)


def ray_records(address: str | None, cpus: int | None = None) -> GamePlayer:
    """A :data:`~setback.match.runner.GamePlayer` for :func:`~setback.match.runner.play_match`
    that plays on Ray (connected as by :func:`start_ray` for as long as the games last)."""

    def play(plan: MatchPlan, indexes: list[int], jobs: int) -> Iterator[Played]:
        stop = start_ray(address, cpus, plan.specs)
        try:
            yield from ray_games([(plan, index) for index in indexes], jobs)
        finally:
            stop()

    return play
