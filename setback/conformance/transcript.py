"""spec.md's annotated session (Appendix B): a seeded run of the real server, line by line.

:func:`record` starts a server on 127.0.0.1 and plays one scripted client, ``ann``,
through it: the handshake, the lobby, a table with a built-in bot, a whole game with an
illegal card and a dropped connection, ``ready`` for the next game, ``leave``, and the
server stopping. Every line that crossed the socket is kept, as sent; what changes from run
to run is masked (the tokens, a clock's remaining time rounded to the second). A test
keeps spec.md's copy (between :data:`BEGIN` and :data:`END`) equal to
:func:`transcript_markdown`; ``setback schema --update-spec spec.md`` writes it.
:func:`record_ten_point` is a shorter one (Appendix C, between :data:`TEN_BEGIN` and
:data:`TEN_END`): one hand at a ``ten_point`` table, a joker dealt, a bid of 5, the pitch,
the tricks and the hand's ``awards``.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import msgspec

from setback.bots import HeuristicBot
from setback.engine import Action, Phase
from setback.protocol import PROTOCOL_VERSION
from setback.protocol.convert import view_from_wire
from setback.protocol.messages import WireView
from setback.server.app import Server
from setback.server.config import ServerConfig

BEGIN = "<!-- transcript:begin -->"
END = "<!-- transcript:end -->"
TEN_BEGIN = "<!-- transcript-ten_point:begin -->"
TEN_END = "<!-- transcript-ten_point:end -->"
"""Where spec.md holds the shorter session of :func:`record_ten_point` (Appendix C)."""

SEED = 1
"""The table's seed: Ann bids first, pitches, holds a card she may not play in the second
trick (when her connection drops), and wins the game's only hand."""
RULES = {"players": 2, "target": 7, "hand_limit": 1}
"""Two seats, and a game of one hand (section 3, "Hand limit"), so that it all fits a page."""
DROP_AT_TRICK = 2
"""Ann's connection is cut when she is asked for a card in this trick."""
SHOWN_TRICKS = (1, 2, 6)
"""The tricks shown line by line; the lines of the others are counted in a comment."""

TEN_SEED = 25
"""The ten_point table's seed: Ann, dealt the little joker, bids 5 and pitches, and her side
takes eight of the hand's points (the joker, the Three of trump among them)."""
TEN_RULES = {"players": 2, "variant": "ten_point", "hand_limit": 1}
"""Two seats, the variant's default target (21), one hand."""
TEN_BID = "bid 5"
"""Ann's bid at the ten_point table, above the standard game's top bid."""
TEN_SHOWN_TRICKS = (1, 6)
"""The ten_point hand's tricks shown line by line."""

_TOKEN = re.compile(r'"token":"([A-Za-z0-9_-]{24})"')
_REMAINING = re.compile(r'"remaining_ms":([0-9]+)')


@dataclass
class Line:
    """One line of the transcript: a message either way, or a comment."""

    text: str
    sent: bool = False
    """Ann sent it (else the server did, or it is a comment)."""
    comment: bool = False
    trick: int | None = None
    """The trick in play when it crossed, while a hand is played."""


@dataclass
class Session:
    """Ann's side of the conversation, as the transcript keeps it."""

    port: int
    lines: list[Line] = field(default_factory=list)
    tokens: dict[str, str] = field(default_factory=dict)
    trick: int | None = None
    reader: asyncio.StreamReader | None = None
    writer: asyncio.StreamWriter | None = None

    async def connect(self) -> None:
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port, limit=2**21)

    def say(self, text: str) -> None:
        self.lines.append(Line(text, comment=True, trick=self.trick))

    async def send(self, **message: Any) -> None:
        assert self.writer is not None
        text = json.dumps(message, separators=(",", ":"))
        self.writer.write(text.encode() + b"\n")
        await self.writer.drain()
        self.lines.append(Line(self._masked(text), sent=True, trick=self.trick))

    async def read(self) -> dict[str, Any]:
        assert self.reader is not None
        raw = await asyncio.wait_for(self.reader.readline(), 10)
        if not raw.endswith(b"\n"):
            raise ConnectionError("the server closed the connection")
        text = raw.decode().rstrip("\n")
        message: dict[str, Any] = json.loads(text)
        if _kind(message) == "trick_won":  # the trick's last line
            self.lines.append(Line(self._masked(text), trick=self.trick))
            self._follow(message)
        else:
            self._follow(message)
            self.lines.append(Line(self._masked(text), trick=self.trick))
        return message

    async def read_until(self, *kinds: str) -> dict[str, Any]:
        """Read (and keep) every message up to the first of one of ``kinds`` (types, or event kinds)."""
        while True:
            message = await self.read()
            if _kind(message) in kinds:
                return message

    async def close(self) -> None:
        assert self.writer is not None
        self.writer.close()
        await self.writer.wait_closed()

    def _follow(self, message: dict[str, Any]) -> None:
        """Keep count of the trick in play (for what the transcript shows in full)."""
        kind = _kind(message)
        if kind == "hand_dealt":
            self.trick = None
        elif kind == "trump_pitched":
            self.trick = 1
        elif kind == "trick_won" and self.trick is not None:
            self.trick = self.trick + 1 if self.trick < 6 else None

    def _masked(self, text: str) -> str:
        """The tokens numbered in the order they first appear; a clock's remaining time to the
        second (in a ``decide`` or a ``snapshot`` it counts down in real time)."""
        def token(found: re.Match[str]) -> str:
            masked = self.tokens.setdefault(found.group(1), f"masked-token-{len(self.tokens) + 1}".ljust(24, "x"))
            return f'"token":"{masked}"'

        text = _TOKEN.sub(token, text)
        return _REMAINING.sub(lambda m: f'"remaining_ms":{round(int(m.group(1)), -3)}', text)


def _kind(message: dict[str, Any]) -> str:
    return str(message["event"]["kind"] if message.get("type") == "event" else message.get("type"))


def _choose(view: dict[str, Any]) -> Action:
    """Ann plays as the built-in heuristic bot would."""
    seen = view_from_wire(msgspec.convert(view, WireView))
    bot = HeuristicBot()
    return bot.bid(seen) if seen.phase is Phase.BIDDING else bot.play(seen)


async def record() -> list[Line]:
    """Run the session against a fresh server; every line, masked, with the comments."""
    return await _on_a_server(_play)


async def record_ten_point() -> list[Line]:
    """Run the ten_point hand (Appendix C) against a fresh server; every line, masked, with the comments."""
    return await _on_a_server(_play_ten_point)


async def _on_a_server(play: Callable[[Server], Awaitable[list[Line]]]) -> list[Line]:
    server = Server(ServerConfig(host="127.0.0.1", port=0))
    await server.start()
    try:
        return await play(server)
    finally:
        await server.stop()


async def _greeted(server: Server, *comments: str) -> Session:
    """Ann connected, the ``comments`` said, her hello sent and the welcome read."""
    ann = Session(server.port)
    await ann.connect()
    for comment in comments:
        ann.say(comment)
    await ann.send(type="hello", id=1, version=PROTOCOL_VERSION, name="ann", kind="bot")
    await ann.read_until("welcome")
    return ann


async def _decisions(ann: Session) -> AsyncIterator[tuple[int, dict[str, Any]]]:
    """Each ``decide`` to Ann (its request and view), read with every line before it, until ``game_over``."""
    while True:
        message = await ann.read_until("decide", "game_over")
        if message["type"] == "game_over":
            return
        yield message["request"], message["view"]


async def _play_ten_point(server: Server) -> list[Line]:
    ann = await _greeted(
        server, "Ann says hello with version 1.4 (a client of 1.3 is refused a seat at a variant table) and",
        "makes a ten_point table of two seats: no `target`, so the table says the variant's, 21.",
    )
    await ann.send(type="create_table", id=2, name="ten-point", rules=TEN_RULES, clock={"decision_seconds": 30},
                   seed=TEN_SEED, bots=["heuristic"])
    await ann.read_until("table")
    ann.say("She sits. Her six cards hold `LJ`, the little joker (section 1): a trump whatever the trump")
    ann.say("suit. Bids run from 4 to 10, so her `decide` offers `bid 4` to `bid 10`.")
    await ann.send(type="join", id=3, table="t1", ready=True)
    pitched = False
    async for request, view in _decisions(ann):
        if view["phase"] == "bidding":
            assert TEN_BID in view["legal"] and any(card in ("BJ", "LJ") for card in view["hand"])
            ann.say("The bot passed; she bids 5, above the standard game's top bid, and is the pitcher.")
            await ann.send(type="act", request=request, action=TEN_BID)
            continue
        if view["trump"] is None:
            pitched = True
            ann.say("Her first lead is the pitch: its suit is trump. In ten_point the jack of the other suit")
            ann.say("of trump's colour (the off-jack) and both jokers are trumps too, for following and winning.")
        if ann.trick == 6 and not view["trick"]:
            ann.say("The last trick. `hand_scored`'s result lists in `awards` every point won, by name, with")
            ann.say("its value, side, seat and card: High, Low, Jack, Off-jack, the jokers, the Three of trump")
            ann.say("(3 points) and Game, ten in all when every card is dealt; a point card not dealt is none.")
        await ann.send(type="act", request=request, action=str(_choose(view)))
    assert pitched, "the seed no longer makes Ann the pitcher"
    await ann.close()
    return ann.lines


async def _play(server: Server) -> list[Line]:
    ann = await _greeted(
        server, "Ann, a bot program, connects over TCP and says hello (section 7). `id` is hers to choose: the",
        "answer carries it back. The welcome gives her the server's limits and a token to keep.",
    )
    ann.say("She asks for the tables: there are none yet.")
    await ann.send(type="list_tables", id=2)
    await ann.read_until("tables")
    ann.say("She makes a table of two seats with a built-in bot in the first, a 30 s clock, and a seed so")
    ann.say("that this transcript is the same at every run. The reply is the table as it stands.")
    await ann.send(type="create_table", id=3, name="transcript", rules=RULES, clock={"decision_seconds": 30},
                   seed=SEED, bots=["heuristic"])
    await ann.read_until("table")
    ann.say("She sits, ready. The `table` update showing her seated comes before `joined` (section 11,")
    ann.say("\"The order of messages\"); her seat is full and ready, so game 0 starts: the draw for first")
    ann.say("dealer, her six cards, and a `turn` before every decision, then the `decide` to the seat to act.")
    await ann.send(type="join", id=4, table="t1", ready=True)
    illegal_shown = dropped = False
    async for request, view in _decisions(ann):
        if view["phase"] == "bidding":
            ann.say("Her bid: she answers the `decide` with an `act` carrying its `request`. Every seat hears")
            ann.say("the bid; then the bot, last to bid, passes, and `pitcher_chosen` names the pitcher.")
        elif view["trump"] is None:
            ann.say("She is the pitcher: her first lead sets trump, so `trump_pitched` comes right before its")
            ann.say("`card_played`. The bot follows; `trick_won` ends each trick.")
        elif not dropped and ann.trick == DROP_AT_TRICK:
            dropped = True
            await _drop_and_come_back(server, ann)
        if not illegal_shown and view["trick"]:
            wrong = [card for card in view["hand"] if f"play {card}" not in view["legal"]]
            if wrong:
                illegal_shown = True
                ann.say(f"She tries {wrong[0]}, which does not follow suit: `illegal_action`. Her request")
                ann.say("stands, on the same clock (the error's `request` names it); she answers it again.")
                await ann.send(type="act", request=request, action=f"play {wrong[0]}")
                await ann.read_until("error")
        if ann.trick == 6 and not view["trick"]:
            ann.say("The last trick. After it the hand is scored (`hand_scored`: who took High, Low, Jack and")
            ann.say("Game, and the scores); with `hand_limit` 1 the hand is also the game: `game_won` comes")
            ann.say("right before `game_over`, and the `table` update after it says the table is finished.")
        await ann.send(type="act", request=request, action=str(_choose(view)))
    assert illegal_shown and dropped, "the seed no longer gives the session its illegal card and its drop"
    await ann.read_until("table")
    ann.say("To play again, every player says `ready`; the bot always is, so game 1 starts at once,")
    ann.say("dealt by the next seed, until Ann is asked to act.")
    await ann.send(type="ready", id=6)
    await ann.read_until("decide")
    ann.say("Ann leaves in the middle of the game: `left` first, then the `table` update of a stand-in")
    ann.say("bot taking her seat for the rest of it. She is in the lobby again, at no table.")
    await ann.send(type="leave", id=7)
    await ann.read_until("left")
    await ann.read_until("table")
    ann.say("The server stops (its operator pressed Ctrl-C): `goodbye`, and it closes the connection.")
    await server.stop()
    await ann.read_until("goodbye")
    await ann.close()
    return ann.lines


async def _drop_and_come_back(server: Server, ann: Session) -> None:
    """Ann's connection is cut while she is to act; she comes back with her token."""
    ann.say("Ann's connection drops while she is asked for a card. Her seat is held for the grace period")
    ann.say("(120 s) and her clock runs on. She connects again and says hello with her token (the one")
    ann.say("`welcome` and `joined` gave her): `welcome` with the same token, the `table` update, `joined`,")
    ann.say("a `snapshot` of her view (the hand so far), and the pending `decide` again: the same")
    ann.say("`request`, the clock's remaining time.")
    await ann.close()
    table = server.lobby.tables["t1"]
    for _ in range(500):  # until the server has seen the connection go
        if all(seat.peer is None for seat in table.seats if seat.kind == "bot"):
            break
        await asyncio.sleep(0.01)
    token = next(real for real, masked in ann.tokens.items() if masked.startswith("masked-token-1"))
    await ann.connect()
    await ann.send(type="hello", id=5, version=PROTOCOL_VERSION, name="ann", kind="bot", token=token)
    await ann.read_until("decide")


def transcript_markdown(lines: list[Line], shown: tuple[int, ...] = SHOWN_TRICKS) -> str:
    """The transcript as spec.md holds it: one code block, comments ``#``, Ann's lines ``>``
    and the server's ``<``, the tricks not in ``shown`` counted, not shown."""
    out: list[str] = []
    skipped: list[Line] = []

    def flush() -> None:
        if skipped:
            tricks = sorted({line.trick for line in skipped if line.trick is not None})
            like = max(trick for trick in shown if trick < tricks[0])
            out.append(f"# ... tricks {tricks[0]} to {tricks[-1]}: {len(skipped)} lines like those of trick {like}")
            skipped.clear()

    for line in lines:
        if line.trick is not None and line.trick not in shown and not line.comment:
            skipped.append(line)
            continue
        flush()
        out.append(f"# {line.text}" if line.comment else f"{'>' if line.sent else '<'} {line.text}")
    flush()
    return "```\n" + "\n".join(out) + "\n```"
