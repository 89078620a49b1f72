"""``setback schema`` and ``setback bench``: the protocol's schema and the benchmarks."""

from __future__ import annotations

import argparse

from setback.commands.common import AddCommand


def cmd_schema(args: argparse.Namespace) -> int:
    from setback.protocol.schema import schema_text

    print(schema_text(), end="")
    return 0


BENCHMARKS = ("engine", "server", "match")


def cmd_bench(args: argparse.Namespace) -> int:
    import importlib

    if args.name is None:
        raise ValueError(f"name a benchmark: {' or '.join(BENCHMARKS)}")
    module = importlib.import_module(f"setback.benchmarks.{args.name}")
    module.main(args.rest)
    return 0


def register(command: AddCommand) -> None:
    command("schema", cmd_schema, "print the JSON Schema of every protocol message")
    bench = command("bench", cmd_bench, "run a benchmark against its baseline (engine, server, match)")
    bench.add_argument("name", nargs="?", choices=BENCHMARKS, metavar="BENCHMARK", help=" or ".join(BENCHMARKS))
    bench.add_argument(
        "rest", nargs=argparse.REMAINDER, metavar="...", help="the benchmark's options: setback bench BENCHMARK --help"
    )
