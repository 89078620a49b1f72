"""What spec.md asks of a bot, checked against the transcripts of its sessions.

Each check gives a :class:`Verdict`: passed or not, what the bot did (the line it sent,
or what it failed to send) and what spec.md expects, with the section that says so.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import Any

from setback.conformance.sessions import PING_NONCE, Fault, Session, Struck, Transcript
from setback.conformance.tap import Heard
from setback.engine import VARIANTS, Card, Suit, Variant, suit_of

VERSION = re.compile(r"[0-9]+(\.[0-9]+)?")

SESSIONS: tuple[Session, ...] = (
    Session("4 players, 2 games", 4, games=2,
            faults={2: "ping", 4: "illegal", 7: "resync", 10: "drop", 16: "restart"}),
    Session("2 players, a 1 s clock", 2, decision_seconds=1.0, faults={3: "stale"}),
    Session("2 players who pass when they may", 2, passers=True),
    Session("3 players", 3),
    Session("5 players", 5),
    Session("7 players", 7),
    Session("4 players, 2 teams", 4, teams=2),
)
"""Every session a bot plays for the checks of the standard game (one server each)."""

PAIRS: dict[str, tuple[int, int]] = {
    "2 players, a 1 s clock": (4, 2), "2 players who pass when they may": (4, 2),
    "3 players": (6, 3), "5 players": (6, 2), "7 players": (6, 3), "4 players, 2 games": (4, 2),
}
"""Where a variant played in partnerships only (pedro) seats a session of the standard game
that has no sides of two: players and teams (the same faults, clock and passers)."""


def sessions_of(variant: Variant) -> tuple[Session, ...]:
    """The sessions of the checks at a table of ``variant``: the standard game's, each at that
    variant; in a variant played in partnerships only, each table seats pairs or more a side."""
    if variant is Variant.STANDARD:
        return SESSIONS
    made: dict[str, Session] = {}
    for session in SESSIONS:
        players, teams, name = session.players, session.teams, session.name
        if VARIANTS[variant].partnerships_only and teams is None:
            players, teams = PAIRS[name]
            name = name.replace(f"{session.players} players", f"{players} players, {teams} teams")
        made.setdefault(name, replace(session, name=f"{variant.value}: {name}", players=players, teams=teams,
                                      variant=variant))  # (two sessions seated alike are played once)
    return tuple(made.values())


REPLY_SECONDS = 10.0
"""How long a bot has to answer what the tap did (a reconnection, a second answer)."""


@dataclass(frozen=True)
class Verdict:
    """One check's result."""

    name: str
    passed: bool
    detail: str
    """What the bot did."""
    expected: str
    """What spec.md asks, and where."""

    def as_dict(self) -> dict[str, Any]:
        return {"check": self.name, "passed": self.passed, "detail": self.detail, "expected": self.expected}


def from_bot(heard: list[Heard], kind: str | None = None) -> Iterator[Heard]:
    return (h for h in heard if h.sender == "bot" and (kind is None or h.type == kind))


def to_bot(heard: list[Heard], kind: str | None = None) -> Iterator[Heard]:
    """What the bot was sent (by the server, or made up by the tap)."""
    return (h for h in heard if not h.to_server and h.sender != "bot" and (kind is None or h.type == kind))


def decide_kind(view: dict[str, Any]) -> str:
    """``bid``, ``forced bid``, ``pitch``, ``lead``, ``follow`` or ``void``: the kind of decision a view asks for
    (a card's suit as the view's variant has it: a joker or an off-card led is trump led)."""
    if view.get("phase") == "bidding":
        return "bid" if "pass" in view.get("legal", []) else "forced bid"
    trick = view.get("trick") or []
    if not trick:
        return "pitch" if view.get("trump") is None else "lead"
    trump = Suit.parse(str(view["trump"]))
    variant = Variant((view.get("rules") or {}).get("variant", "standard"))
    led = suit_of(Card.parse(str(trick[0]["card"])), trump, variant)
    held = (suit_of(Card.parse(str(card)), trump, variant) for card in view.get("hand", []))
    return "follow" if led in held else "void"


@dataclass(frozen=True)
class Answered:
    """A decide the bot was sent and what came of it."""

    decide: Heard
    act: Heard | None
    refused: Heard | None
    """An error the server (not the tap) sent in answer to the act, if any."""

    @property
    def request(self) -> int:
        assert self.decide.message is not None
        return int(self.decide.message["request"])


def answers(transcript: Transcript) -> list[Answered]:
    """Each decide delivered to the bot in the session's games, with the bot's first act for
    its request after it (before the next decide) and the server's error for that act, if any."""
    heard = transcript.heard
    overs = [h.at for h in to_bot(heard, "game_over")]
    cutoff = overs[transcript.session.games - 1] if len(overs) >= transcript.session.games else float("inf")
    result = []
    for index, line in enumerate(heard):
        if line.to_server or line.sender == "bot" or line.type != "decide" or line.at > cutoff:
            continue  # (a decide of a game after the session's last is not waited for)
        assert line.message is not None
        request = line.message["request"]
        act = refused = None
        for later in heard[index + 1:]:
            if later.sender != "bot" and not later.to_server and later.type == "decide":
                break
            if act is None and later.sender == "bot" and later.type == "act" and later.message is not None \
                    and later.message.get("request") == request:
                act = later
            elif act is not None and later.sender == "server" and later.type == "error":
                refused = later
                break
            elif act is not None and later.sender == "server" and later.type in ("event", "decide", "game_over"):
                break
        result.append(Answered(line, act, refused))
    return result


def _exempt(transcript: Transcript) -> set[int]:
    """Requests that a fault made unanswerable (cut off, held back past the clock, a server stopped)."""
    return {s.request for s in transcript.struck if s.fault in ("drop", "stale", "restart")}


def check_handshake(transcripts: list[Transcript]) -> Verdict:
    expected = "first line a hello: version MAJOR.MINOR in digits with major 1, kind \"bot\", a name (section 7)"
    said = ""
    for transcript in transcripts:
        first = next(from_bot(transcript.heard), None)
        if first is None or first.message is None:
            return Verdict("handshake", False, "sent nothing" if first is None else f"sent {first.line!r}", expected)
        hello = first.message
        version = str(hello.get("version", ""))
        if hello.get("type") != "hello" or not VERSION.fullmatch(version) or version.split(".", maxsplit=1)[0] != "1" \
                or hello.get("kind") != "bot" or not isinstance(hello.get("name"), str):
            return Verdict("handshake", False, f"sent {first.line}", expected)
        if next(to_bot(transcript.heard, "welcome"), None) is None:
            refusal = next(to_bot(transcript.heard, "error"), None)
            return Verdict("handshake", False, f"was not welcomed: {refusal.line if refusal else 'no answer'}",
                           expected)
        said = first.line
    return Verdict("handshake", True, f"sent {said}", expected)


def check_kind(kind: str) -> Callable[[list[Transcript]], Verdict]:
    expected = (f"an act with the decide's request and one of its legal actions, before the clock runs out, "
                f"for a {kind} decision (sections 8, 10, 14)")

    def check(transcripts: list[Transcript]) -> Verdict:
        seen, unanswered = 0, ""
        for transcript in transcripts:
            exempt = _exempt(transcript)
            for answer in answers(transcript):
                assert answer.decide.message is not None
                view = answer.decide.message["view"]
                if decide_kind(view) != kind or answer.request in exempt:
                    continue
                replaced = transcript.replaced.get(answer.request)
                if replaced is not None and not replaced.late:
                    return Verdict(kind, False, _replaced(transcript, answer, replaced.what), expected)
                if answer.act is None:
                    if _answered_later(transcript, answer):
                        continue
                    missing = f"no act for request {answer.request} ({transcript.session.name})"
                    if not _ran_out(transcript, answer):
                        return Verdict(kind, False, missing, expected)
                    unanswered = unanswered or missing  # (the clock's check tells it; an act may be on its way)
                    continue
                assert answer.act.message is not None
                action = answer.act.message.get("action")
                if action not in view["legal"] or (answer.refused is not None and _refusal(answer.refused)
                                                   not in ("stale_request", "not_your_turn")):
                    why = f"; the server said {_refusal(answer.refused)}" if answer.refused else ""
                    return Verdict(kind, False, f"answered {answer.act.line} to legal {view['legal']}{why}", expected)
                seen += 1
        if not seen:
            return Verdict(kind, False, unanswered or f"no {kind} decision came up in these games", expected)
        return Verdict(kind, True, f"{seen} answered legally", expected)

    return check


def _replaced(transcript: Transcript, answer: Answered, what: str) -> str:
    """What an SDK bot did for a request its seat answered with the fallback."""
    sent = f"; the SDK sent {answer.act.line} in its place" if answer.act is not None else ""
    return f"request {answer.request} ({transcript.session.name}): the bot {what}{sent}"


def _answered_later(transcript: Transcript, answer: Answered) -> bool:
    """An act for the request after a later delivery of the same decide (a resync, the tap's refusal)."""
    return any(h.message is not None and h.message.get("request") == answer.request and h.at > answer.decide.at
               for h in from_bot(transcript.heard, "act"))


def _ran_out(transcript: Transcript, answer: Answered) -> bool:
    """Whether the decide's clock ran out with the session still going: the server played for
    the seat, and a late act may still have been on its way when the session ended."""
    assert answer.decide.message is not None
    limit = (answer.decide.message.get("clock") or {}).get("limit_ms")
    return limit is not None and any(h.at > answer.decide.at + limit / 1000 for h in transcript.heard)


def _refusal(error: Heard | None) -> str | None:
    return None if error is None or error.message is None else str(error.message.get("code"))


def _struck(transcripts: list[Transcript], fault: Fault) -> tuple[Transcript, Struck] | None:
    for transcript in transcripts:
        for struck in transcript.struck:
            if struck.fault == fault:
                return transcript, struck
    return None


def _after(transcript: Transcript, at: float, kind: str, seconds: float = REPLY_SECONDS,
           match: Callable[[dict[str, Any]], bool] = lambda _: True) -> Heard | None:
    return next((h for h in from_bot(transcript.heard, kind)
                 if at < h.at <= at + seconds and h.message is not None and match(h.message)), None)


def check_ping(transcripts: list[Transcript]) -> Verdict:
    expected = f"a pong with the ping's nonce ({PING_NONCE}) (sections 8, 9)"
    found = _struck(transcripts, "ping")
    if found is None:
        return Verdict("ping", False, "the game ended before the tap could ping", expected)
    transcript, struck = found
    pong = _after(transcript, struck.at, "pong", match=lambda m: m.get("nonce") == PING_NONCE)
    if pong is None:
        return Verdict("ping", False, f"no pong with nonce {PING_NONCE} within {REPLY_SECONDS:g} s", expected)
    return Verdict("ping", True, f"sent {pong.line}", expected)


def check_illegal(transcripts: list[Transcript]) -> Verdict:
    expected = "after illegal_action the request stands: answer it again, on the same clock (section 12)"
    found = _struck(transcripts, "illegal")
    if found is None:
        return Verdict("illegal answer", False, "the game ended before an answer could be refused", expected)
    transcript, struck = found
    acts = [h for h in from_bot(transcript.heard, "act")
            if h.at > struck.at and h.message is not None and h.message.get("request") == struck.request]
    if len(acts) < 2:
        what = "never answered" if not acts else f"sent {acts[0].line}, then nothing for that request"
        return Verdict("illegal answer", False, what, expected)
    return Verdict("illegal answer", True, f"answered again: {acts[1].line}", expected)


def check_stale(transcripts: list[Transcript]) -> Verdict:
    expected = ("an act that comes after the clock played for the seat gets stale_request or not_your_turn; "
                "drop it and answer the next decide (section 14)")
    found = _struck(transcripts, "stale")
    if found is None:
        return Verdict("stale request", False, "the game ended before a decide could be held back", expected)
    transcript, struck = found
    later = [a for a in answers(transcript) if a.decide.at > struck.at and a.request != struck.request]
    if not later:
        return Verdict("stale request", False, "no decide came after the stale one", expected)
    act = later[0].act
    if act is None or later[0].refused is not None:
        what = "no answer" if act is None else f"{act.line}, refused: {_refusal(later[0].refused)}"
        return Verdict("stale request", False, f"did not go on to request {later[0].request}: {what}", expected)
    return Verdict("stale request", True, f"went on: {act.line}", expected)


def check_resync(transcripts: list[Transcript]) -> Verdict:
    expected = "after a resync the pending decide comes again with the same request: answer it (sections 8, 13)"
    found = _struck(transcripts, "resync")
    if found is None:
        return Verdict("resync", False, "the game ended before the tap could resync", expected)
    transcript, struck = found
    act = _after(transcript, struck.at, "act", match=lambda m: m.get("request") == struck.request)
    if act is None:
        return Verdict("resync", False, f"no act for request {struck.request} after the snapshot", expected)
    return Verdict("resync", True, f"answered {act.line}", expected)


def _reconnected(transcript: Transcript, struck: Struck, seconds: float, name: str, expected: str) -> Verdict:
    tokens = [str(h.message.get("token")) for h in to_bot(transcript.heard)
              if h.at < struck.at and h.type in ("welcome", "joined") and h.message is not None]
    hello = next((h for h in from_bot(transcript.heard, "hello")
                  if struck.at < h.at <= struck.at + seconds and h.connection > struck.connection), None)
    if hello is None or hello.message is None:
        return Verdict(name, False, f"did not connect again within {seconds:g} s", expected)
    if not tokens or hello.message.get("token") != tokens[-1]:
        return Verdict(name, False, f"came back without its seat's token: {hello.line}", expected)
    act = next((h for h in from_bot(transcript.heard, "act") if h.connection == hello.connection), None)
    if act is None:
        return Verdict(name, False, "came back with its token but did not answer the decide", expected)
    return Verdict(name, True, f"came back with its token and answered: {act.line}", expected)


def check_drop(transcripts: list[Transcript]) -> Verdict:
    expected = ("after a dropped connection, hello again with the token (welcome or the last joined gave it) "
                "and answer the decide sent again (section 13)")
    found = _struck(transcripts, "drop")
    if found is None:
        return Verdict("dropped connection", False, "the game ended before the tap could cut the line", expected)
    return _reconnected(*found, REPLY_SECONDS, "dropped connection", expected)


def check_restart(transcripts: list[Transcript]) -> Verdict:
    expected = ("after goodbye, connect again (with backoff) until the server is back, hello with the token, "
                "answer the new decide: its request may be new (sections 9, 13, 18)")
    found = _struck(transcripts, "restart")
    if found is None:
        return Verdict("server restart", False, "the game ended before the server could be restarted", expected)
    return _reconnected(*found, 3 * REPLY_SECONDS, "server restart", expected)


def check_next_game(transcripts: list[Transcript]) -> Verdict:
    expected = "after game_over send ready, then play the next game (sections 9, 20)"
    for transcript in transcripts:
        if transcript.session.games < 2:
            continue
        over = next(to_bot(transcript.heard, "game_over"), None)
        if over is None:
            return Verdict("next game", False, "the first game never ended", expected)
        ready = _after(transcript, over.at, "ready")
        if ready is None:
            gone = (f"; the bot {transcript.ended_early} (enough for a match's table of one game, section 20, "
                    "not for a table of several)") if transcript.ended_early else ""
            return Verdict("next game", False, f"no ready within {REPLY_SECONDS:g} s of game_over{gone}", expected)
        if not transcript.finished:
            return Verdict("next game", False, "sent ready but did not finish the next game", expected)
        return Verdict("next game", True, f"sent {ready.line} and played the next game", expected)
    return Verdict("next game", False, "no session of two games", expected)


def check_clock(transcripts: list[Transcript]) -> Verdict:
    expected = "every act within the decide's clock.limit_ms (section 14)"
    slowest = 0.0
    for transcript in transcripts:
        exempt = _exempt(transcript)
        for answer in answers(transcript):
            assert answer.decide.message is not None
            limit = (answer.decide.message.get("clock") or {}).get("limit_ms")
            if limit is None or answer.request in exempt:
                continue
            replaced = transcript.replaced.get(answer.request)
            if replaced is not None and replaced.late:
                what = f"{replaced.what} (the decide's limit: {limit} ms)"
                return Verdict("clock", False, _replaced(transcript, answer, what), expected)
            act = answer.act or next((h for h in from_bot(transcript.heard, "act") if h.at > answer.decide.at
                                      and h.message is not None and h.message.get("request") == answer.request), None)
            if act is None:
                return Verdict("clock", False, f"never answered request {answer.request} "
                               f"({transcript.session.name})", expected)
            took = (act.at - answer.decide.at) * 1000
            slowest = max(slowest, took)
            if took > limit:
                return Verdict("clock", False, f"took {took:.0f} ms for request {answer.request} "
                               f"against a limit of {limit} ms ({transcript.session.name})", expected)
    return Verdict("clock", True, f"slowest answer {slowest:.0f} ms", expected)


def check_table(session: Session) -> Callable[[list[Transcript]], Verdict]:
    expected = f"the whole game played at a table of {session.name}, with no error from the server"

    def check(transcripts: list[Transcript]) -> Verdict:
        transcript = next(t for t in transcripts if t.session == session)
        errors = [h for h in to_bot(transcript.heard, "error") if h.sender == "server" and h.message is not None
                  and h.message.get("code") not in ("stale_request", "not_your_turn")]
        if errors:
            return Verdict(session.name, False, f"the server said {errors[0].line}", expected)
        if not transcript.finished:
            why = f": the bot {transcript.ended_early}" if transcript.ended_early else ""
            return Verdict(session.name, False, f"the game was not finished{why}", expected)
        answered = sum(1 for a in answers(transcript) if a.act is not None)
        return Verdict(session.name, True, f"{answered} decisions answered", expected)

    return check


def check_events(transcripts: list[Transcript]) -> Verdict:
    expected = "events in the hello is true, false or absent (true); with false the bot lives on decide (section 7)"
    hello = next((h for t in transcripts for h in from_bot(t.heard, "hello")), None)
    if hello is None or hello.message is None:
        return Verdict("events", False, "sent no hello", expected)
    events = hello.message.get("events", True)
    if not isinstance(events, bool):
        return Verdict("events", False, f"events is {events!r}", expected)
    taken = sum(1 for t in transcripts for _ in to_bot(t.heard, "event"))
    decides = sum(1 for t in transcripts for _ in to_bot(t.heard, "decide"))
    if events and not taken:
        return Verdict("events", False, "events on, yet no event came: the bot never sat in a game", expected)
    if not events and not decides:
        return Verdict("events", False, "events off, and no decide came: the bot never sat in a game", expected)
    return Verdict("events", True, f"events {'on' if events else 'off'}: {taken} events received", expected)


def check_variant(variant: Variant) -> Callable[[list[Transcript]], Verdict]:
    """That the bot played ``variant``'s game, not only at its table: asked to bid up to the
    variant's top bid, and (in a deck with jokers) to decide with a joker in its hand."""
    rules = VARIANTS[variant]
    top, jokers = f"bid {rules.top_bid}", {str(card) for card in rules.jokers}
    expected = (f"legal answers where bids run to {rules.top_bid}"
                f"{' and the hand holds a joker' if jokers else ''} (sections 1, 2, 3)")

    def check(transcripts: list[Transcript]) -> Verdict:
        offered = held = 0
        for transcript in transcripts:
            for answer in answers(transcript):
                assert answer.decide.message is not None
                view = answer.decide.message["view"]
                offered += top in view["legal"]
                held += bool(jokers & set(view.get("hand", [])))
        if not offered or (jokers and not held):
            return Verdict(variant.value, False, f"{offered} decisions offered {top}, {held} with a joker in hand: "
                           "the games did not show the variant", expected)
        return Verdict(variant.value, True, f"{offered} decisions offered {top}, {held} with a joker in hand", expected)

    return check


def checks_of(sessions: tuple[Session, ...]) -> tuple[Callable[[list[Transcript]], Verdict], ...]:
    """Every check of a bot that plays ``sessions``, in the order they are told (at a variant's
    tables, one more: :func:`check_variant`)."""
    variants = {session.variant for session in sessions} - {Variant.STANDARD}
    return (
        check_handshake,
        *(check_kind(kind) for kind in ("bid", "forced bid", "pitch", "lead", "follow", "void")),
        check_ping, check_illegal, check_stale, check_resync, check_drop, check_restart, check_next_game, check_clock,
        *(check_table(session) for session in sessions),
        *(check_variant(variant) for variant in sorted(variants, key=lambda v: v.value)),
        check_events,
    )


CHECKS = checks_of(SESSIONS)
"""Every check of the standard game's sessions."""
