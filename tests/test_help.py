"""The command line explains itself: ``setback --help`` and each subcommand's ``--help`` say
what the README's command table said (the README keeps only what people start with)."""

from __future__ import annotations

import argparse

import pytest

from setback.cli import build_parser
from setback.commands.about import COMMANDS


def helps() -> dict[str, str]:
    parser = build_parser()
    (commands,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return {"setback": parser.format_help(), **{name: sub.format_help() for name, sub in commands.choices.items()}}


def test_every_subcommand_says_what_it_does_beyond_its_flags() -> None:
    shown = helps()
    assert set(COMMANDS) == set(shown) - {"setback"}
    for name, paragraphs in COMMANDS.items():
        assert paragraphs[0].split()[0] in shown[name], name


@pytest.mark.parametrize(("command", "words"), [
    ("setback", ["cmd:PROGRAM", "--low captured", "Exit status: 2", "@key=value"]),
    ("match", ["--via-server", "4: H0", "--duplicate"]),
    ("play", ["--web", "on the LAN", "80x24"]),
    ("serve", ["/evening", "/replay", "/screen", "mDNS"]),
    ("history", ["marked *"]),
    ("bench", ["euchre", "msgspec echo", "setback/benchmarks/README.md"]),
])
def test_the_help_says_what_the_readme_table_said(command: str, words: list[str]) -> None:
    text = " ".join(helps()[command].split())
    for word in words:
        assert word in text, (command, word)
