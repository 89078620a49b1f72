"""``setback schema`` and ``setback bench``: the protocol's schema and the benchmarks."""

from __future__ import annotations

import argparse
import logging
from pathlib import Path

from setback import logs
from setback.commands.common import AddCommand


def cmd_schema(args: argparse.Namespace) -> int:
    from setback.protocol.reference import fields_markdown
    from setback.protocol.schema import schema_text

    if args.update_spec is not None:
        logs.configure(json=args.log_json, level=logging.ERROR)  # the transcript's server is not the result
        update_spec(args.update_spec)
    elif args.markdown:
        print(fields_markdown())
    else:
        print(schema_text(), end="")
    return 0


def update_spec(path: Path) -> None:
    """Write the generated parts of spec.md at ``path`` again, from the code: every message's
    fields (between the ``fields`` markers) and the annotated sessions, each played again
    against a server of its own (between the ``transcript`` and ``transcript-ten_point`` markers)."""
    import asyncio

    from setback.conformance import transcript
    from setback.protocol import reference

    text = path.read_text(encoding="utf-8")
    blocks = (
        (reference.BEGIN, reference.END, reference.fields_markdown),
        (transcript.BEGIN, transcript.END, lambda: transcript.transcript_markdown(asyncio.run(transcript.record()))),
        (transcript.TEN_BEGIN, transcript.TEN_END, lambda: transcript.transcript_markdown(
            asyncio.run(transcript.record_ten_point()), transcript.TEN_SHOWN_TRICKS)),
    )
    for begin, end, _ in blocks:
        if begin not in text or end not in text:
            raise ValueError(f"{path} has no {begin} ... {end} block to write in")
    for begin, end, make in blocks:
        text = reference.replace_block(text, begin, end, make())
    path.write_text(text, encoding="utf-8")


BENCHMARKS = ("engine", "server", "match", "hostile", "records")


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
    bench = command(
        "bench", cmd_bench, "run a benchmark against its baseline (engine, server, match, hostile, records)"
    )
    bench.add_argument("name", nargs="?", choices=BENCHMARKS, metavar="BENCHMARK", help=" or ".join(BENCHMARKS))
    bench.add_argument(
        "rest", nargs=argparse.REMAINDER, metavar="...", help="the benchmark's options: setback bench BENCHMARK --help"
    )
