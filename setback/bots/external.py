"""A ``cmd:`` bot's program, run as spec.md section 20 says: the table in its environment,
its standard input closed, what it prints on our standard error (our standard output is a
command's result), and stopped with SIGTERM (then SIGKILL) once it is no longer needed."""

from __future__ import annotations

import asyncio
import contextlib
import os

from setback.bots.registry import external_command

STOP_SECONDS = 5.0
"""How long a program may take to end after SIGTERM before it is killed."""

STDERR_FD = 2


async def run_program(spec: str, host: str, port: int, table: str, seat: int, name: str) -> int:
    """Run the program of the ``cmd:`` SPEC for ``seat`` at ``table`` of the server at
    ``host:port`` until cancelled, then stop it; its exit status if it ends first."""
    env = {
        **os.environ, "SETBACK_HOST": host, "SETBACK_PORT": str(port), "SETBACK_TABLE": table,
        "SETBACK_SEAT": str(seat), "SETBACK_NAME": name,
    }
    process = await asyncio.create_subprocess_exec(
        *external_command(spec), env=env, stdin=asyncio.subprocess.DEVNULL, stdout=STDERR_FD,
    )
    try:
        return await process.wait()
    finally:
        if process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                process.terminate()
            try:
                await asyncio.wait_for(process.wait(), STOP_SECONDS)
            except TimeoutError:
                process.kill()
                await process.wait()
