"""Test-wide setup: logs go to stderr as the command line sends them, never into stdout; tests
that need multicast on loopback (mDNS) run in a network namespace made for them."""

from __future__ import annotations

import functools
import logging
import os
import shutil
import subprocess
import sys
import tempfile

import pytest

from setback import logs

IN_MULTICAST_NAMESPACE = "SETBACK_TEST_MULTICAST_NAMESPACE"
"""Set in the network namespace a ``multicast_loopback`` test is run again in: there it runs as written."""
LOOPBACK_MULTICAST = "ip link set lo up multicast on && ip route add 224.0.0.0/4 dev lo"
"""What the namespace is given: its loopback up, with the MULTICAST flag and the multicast route."""
NAMESPACE_SECONDS = 120.0
"""How long a test run again in the namespace may take, pytest's start included."""


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "multicast_loopback: needs multicast on loopback (mDNS); run in a network namespace of its own "
        "whose loopback has it, whatever the machine's has (skipped where no namespace can be made)",
    )


@pytest.fixture(autouse=True)
def _logs_on_stderr() -> None:
    """Each test starts with the logs as the command line sets them (a command a test ran,
    such as ``check-bot``, may have quieted them)."""
    logs.configure(level=logging.INFO)


@pytest.fixture(autouse=True, scope="session")
def _a_data_folder_of_its_own(tmp_path_factory: pytest.TempPathFactory) -> None:
    """No test, nor a command it runs, reads or writes the user's data folder (the default
    records file, kept seat tokens)."""
    os.environ["XDG_DATA_HOME"] = str(tmp_path_factory.mktemp("data"))


@functools.cache
def multicast_namespace() -> tuple[list[str], str]:
    """The command prefix that runs a command in a new network namespace whose loopback carries
    multicast (as root; else in a user namespace of its own, where the kernel allows one), tried
    once with this Python, or an empty prefix and why none can be made here."""
    unshare = shutil.which("unshare")
    if unshare is None:
        return [], "needs unshare (util-linux, Linux only) to make a network namespace with multicast on loopback"
    why = ""
    for flags in (["--net"], ["--map-root-user", "--net"]):
        prefix = [unshare, *flags, "--", "sh", "-c", f'{LOOPBACK_MULTICAST} && exec "$@"', "sh"]
        try:
            made = subprocess.run([*prefix, sys.executable, "-c", ""], capture_output=True, text=True, timeout=30,
                                  check=False)
        except (OSError, subprocess.TimeoutExpired) as exc:
            why = str(exc)
            continue
        if made.returncode == 0:
            return prefix, ""
        why = made.stderr.strip() or f"exit status {made.returncode}"
    return [], f"no network namespace with multicast on loopback can be made (root or user namespaces, and ip): {why}"


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> bool | None:
    """A ``multicast_loopback`` test is run again, alone, by a pytest in a network namespace of
    its own (:func:`multicast_namespace`), and passes or fails as it does there: whatever the
    machine's loopback is like (in containers and on many CI runners it has no MULTICAST flag and
    no multicast route), and whatever else speaks mDNS on it (a server, other test runs), neither
    comes into the test."""
    if pyfuncitem.get_closest_marker("multicast_loopback") is None or os.environ.get(IN_MULTICAST_NAMESPACE):
        return None
    prefix, why = multicast_namespace()
    if not prefix:
        pytest.skip(why)
    config = pyfuncitem.config
    with tempfile.TemporaryDirectory(prefix="setback-netns-") as basetemp:
        command = [*prefix, sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--basetemp", basetemp,
                   "--rootdir", str(config.rootpath), pyfuncitem.nodeid]
        if config.inipath is not None:
            command[-1:-1] = ["-c", str(config.inipath)]
        try:
            run = subprocess.run(command, cwd=config.rootpath, env={**os.environ, IN_MULTICAST_NAMESPACE: "1"},
                                 capture_output=True, text=True, timeout=NAMESPACE_SECONDS, check=False)
        except subprocess.TimeoutExpired as exc:
            pytest.fail(f"no result within {NAMESPACE_SECONDS:g} s in its network namespace: {exc.stdout!r}",
                        pytrace=False)
    summary = run.stdout.strip().splitlines()[-1:] or [""]
    if run.returncode != 0 or not summary[0].startswith("1 passed"):
        pytest.fail(f"in its network namespace (exit status {run.returncode}):\n{run.stdout}{run.stderr}",
                    pytrace=False)
    return True
