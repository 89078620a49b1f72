"""What ``setback --help`` and each subcommand's ``--help`` say besides their flags: what the
command does, in full (the README keeps only the commands people start with)."""

from __future__ import annotations

import textwrap

WIDTH = 78

SETBACK = (
    "Run `setback COMMAND --help` for what each command does and every flag it takes.",
    "A BOT is a built-in name (random, beginner, heuristic, search), path/to/file.py:Class or module:Class naming a "
    "subclass of setback.bots.Bot, optionally followed by @key=value,... keyword arguments for its "
    "constructor (search@budget_ms=20), checked against the constructor's annotations: None, true/false "
    "(or 1/0), whole numbers, numbers or text. `match --via-server` and `check-bot` take cmd:PROGRAM too, "
    "a bot in any language speaking spec.md.",
    "Every table option is a flag on match, watch, tournament, play and bot --create: --players, --teams T, "
    "--target 7|11|21, --no-forced-bid, --smudge, --no-junk, --hand-limit N, and the club options "
    "--min-bid 2, --dealer-steal and --low captured. The per-decision limit is --decision-ms MS on match, "
    "watch and tournament (default 1000; 0: none, plain bots are called directly, several times faster) "
    "and --clock SECONDS on play (the table's clock).",
    "Exit status: 2 and one line on stderr for a mistake in what was typed; 1 and one line on stderr for a "
    "command that cannot do its job (no server at that address, a port in use, a --db that is not a "
    "server's file, a seat refused); 0 otherwise (match --sprt: 0 H1 accepted, 4 H0, 3 undecided).",
)

CLOCK = (
    "Time and memory: ms/decision is the mean time of a bot's decisions, p99 ms the time within which 99% "
    "of them were made (to 4.4%, never under), and peak MB the highest peak resident set size of a process "
    "while it played one of the bot's games: the interpreter, the engine and every bot at the table (on "
    "Linux counted from each game's start), a bound from above on the bot's own memory. --json names them "
    "decision_ms, decision_p99_ms and peak_rss_mb."
)
"""What a match's and a tournament's time and memory columns mean."""

COMMANDS: dict[str, tuple[str, ...]] = {
    "play": (
        "The text client, full screen: at HOST, or against N bots (--bots N) on a server of its own, or, "
        "with neither, at a server it finds on the LAN (this computer's, 127.0.0.1:7411, listed last). "
        "--web plays the --bots game in your browser instead. It works from 80x24 up; from 120x40 the "
        "seats sit around a picture of the table. Press ? at the table or in the lobby for the keys.",
    ),
    "watch": (
        "One game between bots (four heuristic by default), told hand by hand with suit symbols (--ascii: "
        "letters), a line every half second on a terminal (--pace S; at once into a file); a new deal each "
        "time unless --seed (the seed is told first). --json prints the game's record at once.",
    ),
    "match": (
        "Seeded games between bots, straight through the engine, on J processes (--jobs J), on a Ray "
        "cluster (--ray [ADDRESS]) or through a real server over TCP (--via-server), where cmd:PROGRAM bots "
        "in any language can play too. Seats rotate game by game; --duplicate replays every deal once per "
        "rotation. --out FILE.jsonl writes one record a game (spec.md section 5), --resume goes on from "
        "one. Prints a table per bot: games won with a 95% interval, points per hand, bids made and set, "
        "decision time (mean and p99), peak memory, timeouts and errors (--json: the same as JSON).",
        CLOCK,
        "--sprt elo0=0,elo1=5,alpha=0.05,beta=0.05 with two bots, NEW and OLD: duplicate pairs until a "
        "sequential probability ratio test decides (--games caps it); exit status 0: H1 accepted, 4: H0, "
        "3: undecided.",
    ),
    "tournament": (
        "A round robin (every choice of the bots a table takes) or a gauntlet (the first bot against every "
        "choice of the others), each pairing a match of --games-per-pairing games, --rounds N times. "
        "Prints the standings (Elo with error bars, OpenSkill at tables of three or more, points per hand, "
        "set rate, time per decision (mean and p99), peak memory, timeouts, errors) and a cross table. "
        "--out DIR writes one record file a pairing (a FILE.jsonl: one file); --resume goes on from them.",
        CLOCK,
    ),
    "samples": (
        "One row per decision of recorded games (the seat's view, the action, the hand's and the game's "
        "outcome for the seat), for learners; needs pip install -e '.[learn]' (pyarrow). spec.md, "
        "\"Samples\", lists every column.",
    ),
    "bot": (
        "Enters a bot in a server's game: at a table (--table ID), or at a new one it makes (--create) "
        "with built-in bots in the other seats (--bots) and any table option. It does the handshake, the "
        "heartbeats and the reconnection by token (kept in seats.json in your data folder, so a bot "
        "restarted sits down where it was, and says so); it logs to stderr, and its stdout stays its own.",
    ),
    "compare": (
        "Pairs two --out files of the same match (the same other bots, --seed and --duplicate, the "
        "first bot changed) game by game: each first bot's score on the games both played, their "
        "difference with a 95% interval by deal, and the games whose winner changed. Refuses files "
        "dealt differently. --json prints the same as one object.",
    ),
    "new-bot": ("Writes NAME.py, a commented bot to start from, and says how to run it.",),
    "check-bot": (
        "Puts a bot (a SPEC or cmd:PROGRAM) through the situations spec.md describes, on servers of its "
        "own: a pass or fail for each check, with what it sent and what the spec expects. Status 0 only "
        "when every check passes.",
    ),
    "serve": (
        "The LAN game server, and its browser table on --web-port: the page, the evening's games "
        "(/evening), replays of finished games (/replay) and a big screen for a TV (/screen). It records "
        "everything in --db (SQLite) and is announced on the LAN over mDNS unless --no-advertise.",
    ),
    "history": (
        "The finished games a server recorded (--db as for serve), newest first; a player a stand-in "
        "played for is marked *, one whose clock ran out +.",
    ),
    "replay": (
        "A recorded game told hand by hand (--db as for serve), each move the server made on a timeout "
        "marked; --file games.jsonl N tells game N of a record file (match --out, export).",
    ),
    "export": ("Recorded games as JSONL records, the same as match --out writes (--db as for serve).",),
    "leaderboard": ("Ratings (Elo) and wins from rated tables (--db as for serve).",),
    "schema": (
        "The JSON Schema of every protocol message; --markdown: spec.md's tables of every message's "
        "fields; --update-spec spec.md: spec.md's generated parts written again from the code.",
    ),
    "bench": (
        "engine: player-actions per second of random games, side by side with OpenSpiel's euchre when it "
        "is installed (pip install -e '.[bench]').",
        "match: games/s of the match runner (--jobs 1, --jobs J, with --ray a local Ray instance) against "
        "a bare loop over the engine with the same bots.",
        "server: decisions/s, p50/p99 round trips and the server's CPU time a decision at K tables of four "
        "minimal bots, side by side with a bare msgspec echo server (--transport ws: over the browser "
        "table's WebSocket); protocol errors and memory a bot with tables held.",
        "Figures and how they were measured: setback/benchmarks/README.md.",
    ),
}


def text(paragraphs: tuple[str, ...]) -> str:
    """Paragraphs wrapped for a terminal's help, a blank line between them."""
    return "\n\n".join(textwrap.fill(paragraph, WIDTH) for paragraph in paragraphs)
