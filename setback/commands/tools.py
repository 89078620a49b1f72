"""``setback schema`` and ``setback bench``: the protocol's schema and the benchmarks."""

from __future__ import annotations

import argparse
from pathlib import Path

from setback.commands.common import AddCommand


def cmd_schema(args: argparse.Namespace) -> int:
    from setback.protocol.reference import fields_markdown
    from setback.protocol.schema import schema_text

    if args.update_spec is not None:
        update_spec(args.update_spec)
    elif args.markdown:
        print(fields_markdown())
    else:
        print(schema_text(), end="")
    return 0


def update_spec(path: Path) -> None:
    """Write the generated parts of spec.md at ``path`` again, from the code: every message's
    fields (between the ``fields`` markers)."""
    from setback.protocol.reference import BEGIN, END, fields_markdown, replace_block

    text = path.read_text(encoding="utf-8")
    if BEGIN not in text or END not in text:
        raise ValueError(f"{path} has no {BEGIN} ... {END} block to write the fields in")
    path.write_text(replace_block(text, BEGIN, END, fields_markdown()), encoding="utf-8")


BENCHMARKS = ("engine", "server")


def cmd_bench(args: argparse.Namespace) -> int:
    import importlib

    if args.name is None:
        raise ValueError(f"name a benchmark: {' or '.join(BENCHMARKS)}")
    module = importlib.import_module(f"setback.benchmarks.{args.name}")
    module.main(args.rest)
    return 0


def register(command: AddCommand) -> None:
    schema = command("schema", cmd_schema, "print the JSON Schema of every protocol message")
    schema.add_argument("--markdown", action="store_true", help="print spec.md's tables of every message's fields")
    schema.add_argument(
        "--update-spec", type=Path, metavar="SPEC.md", help="write the generated parts of SPEC.md again from the code"
    )
    bench = command("bench", cmd_bench, "run a benchmark against its baseline (engine, server)")
    bench.add_argument("name", nargs="?", choices=BENCHMARKS, metavar="BENCHMARK", help=" or ".join(BENCHMARKS))
    bench.add_argument(
        "rest", nargs=argparse.REMAINDER, metavar="...", help="the benchmark's options: setback bench BENCHMARK --help"
    )
