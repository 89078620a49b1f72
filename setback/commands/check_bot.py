"""``setback check-bot``: is this bot what spec.md asks for?"""

from __future__ import annotations

import argparse
import json
import logging
import sys

from setback import logs
from setback.commands.common import AddCommand
from setback.engine import Variant


def cmd_check_bot(args: argparse.Namespace) -> int:
    from setback.conformance import run_checks

    logs.configure(json=args.log_json, level=logging.ERROR)  # the servers' and the bot's logs are not the result
    verdicts = run_checks(args.bot, args.seed, Variant(args.variant))
    if args.json:
        print(json.dumps({"bot": args.bot, "variant": args.variant, "passed": all(v.passed for v in verdicts),
                          "checks": [v.as_dict() for v in verdicts]}))
    else:
        for verdict in verdicts:
            print(f"{'PASS' if verdict.passed else 'FAIL'}  {verdict.name}: {verdict.detail}")
            if not verdict.passed:
                print(f"      expected: {verdict.expected}")
        failed = sum(not v.passed for v in verdicts)
        print(f"{len(verdicts) - failed} passed, {failed} failed", file=sys.stderr)
    return 0 if all(v.passed for v in verdicts) else 1


def register(command: AddCommand) -> None:
    check = command("check-bot", cmd_check_bot, "put a bot through the situations spec.md describes, check by check")
    check.add_argument(
        "bot", metavar="BOT",
        help="random, beginner, heuristic, search, path/to/file.py:Class, module:Class or cmd:PROGRAM",
    )
    check.add_argument("--seed", type=int, default=1, help="the seed of the tables' deals (default 1)")
    check.add_argument("--variant", choices=[v.value for v in Variant], default=Variant.STANDARD.value,
                       help="the game its tables play (default standard; pedro seats pairs)")
    check.add_argument("--json", action="store_true", help="print the verdicts as one JSON object")
