"""What each part of the table screen shows, built from the client's state as Rich renderables.

Pure functions of a :class:`~setback.client.state.ClientState` (and the clock's ``now``):
the widgets only put these on the screen.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from setback.client.fit import Facts, FirstFit, cut
from setback.client.render import SUIT_STYLES, card_text, clock_label, line_text, suit_label
from setback.client.state import ClientState, GameView, Link
from setback.client.words import seat_word
from setback.engine import Suit, Variant, suit_of
from setback.protocol.messages import TableInfo, WireRules
from setback.telling.story import (
    SUIT_NAMES,
    clock_text,
    outcome_line,
    points_won,
    result_lines,
    rules_text,
    side_name,
    side_of,
    sides,
    variant_text,
)

SIDE_LETTERS = "ABCDEFG"
"""Partnerships are told apart by letter in the seats and the scores."""
DIM = "dim"
MINE = "bold"
ALERT = "bold red1"


TABLE_NAME_CELLS = 16
"""A table's name is cut to this on a top bar too narrow for all of it."""


def status_line(state: ClientState) -> FirstFit:
    """The top bar: the table, the game and hand, the rules, whether it is seeded (its creator
    chose the seed, so can know every deal), the connection. On a narrow screen the rules
    shorten, the table's name is cut, then the rules go (the keys screen, ``?``, tells them);
    the hand number, the seeded mark and the connection stay."""
    if state.table is None:
        text = Text(f"{state.server or 'Setback'}", style=MINE)
        if state.address:
            text.append(f" · {state.address}")
        text.append(f" · you are {state.name}")
        text.append_text(link_tag(state))
        return FirstFit(text)
    info, game = state.table_info, state.game
    name = info.name if info is not None else state.table
    facts = []
    if game is not None and game.game:
        facts.append(f"game {game.game + 1}")
    if game is not None and game.hand_number:
        facts.append(f"hand {game.hand_number}")
    rules = game.rules if game is not None else None
    marks = [*(["seeded"] if info is not None and info.seeded else []), *(["watching"] if state.spectating else [])]

    def bar(title: str, rules_words: str | None) -> Text:
        text = Text(title, style=MINE)
        for fact in [*facts, *([rules_words] if rules_words else []), *marks]:
            text.append(f" · {fact}")
        text.append_text(link_tag(state))
        return text

    short_name = cut(Text(name), TABLE_NAME_CELLS).plain
    if rules is None:
        return FirstFit(bar(name, None), bar(short_name, None))
    brief = rules_text(rules, brief=True)
    return FirstFit(
        bar(name, rules_text(rules)), bar(name, brief), bar(short_name, brief), bar(name, None), bar(short_name, None),
    )


def link_tag(state: ClientState) -> Text:
    """``[reconnecting]`` and the like while the connection is not up; nothing while it is."""
    if state.link is Link.ONLINE:
        return Text()
    if state.link is Link.RECONNECTING and state.stopped is not None:
        return Text("  [server stopped]", style=ALERT)
    return Text(f"  [{state.link.value}]", style=ALERT)


def contract_line(game: GameView, names: list[str], ascii: bool) -> RenderableType:
    """Trump, pitcher and bid, and the dealer: always in view during a hand (on two rows, or
    three, when one is too narrow for them all); at a variant's table, a row more naming the
    variant and its points in play (shortened where the row is narrow)."""
    if game.trump is not None:
        trump = Text("Trump ")
        trump.append(suit_label(game.trump, ascii), style=SUIT_STYLES[game.trump])
        trump.append(f" {SUIT_NAMES[game.trump]}")
    else:
        trump = Text("Trump: not yet", style=DIM)
    if game.pitcher is not None:
        contract = Text(f"Pitcher {names[game.pitcher]} bid {game.bid}")
    else:
        contract = Text("Bidding" if game.phase == "bidding" else "", style=DIM)
    dealer = Text(f"Dealer {names[game.dealer]}" if game.dealer is not None else "", style=DIM)
    facts = Facts([trump, contract, dealer])
    if game.rules.game() is Variant.STANDARD:
        return facts
    points = (Text(variant_text(game.rules, brief=brief), style=DIM) for brief in (False, True))
    return Group(facts, FirstFit(*points))


def seats_table(state: ClientState, now: float, ascii: bool) -> Table:
    """One row a seat: whose turn, name, dealer and pitcher, bid, card in this trick, cards held,
    tricks won this hand, clock. Fits 44 columns."""
    game = state.game
    assert game is not None
    names = state.names()
    table = Table(box=None, padding=(0, 1, 0, 0), expand=False, show_edge=False, pad_edge=False)
    table.add_column("", width=1, no_wrap=True)
    table.add_column("player", width=12, no_wrap=True, overflow="ellipsis", header_style=DIM)
    table.add_column("", width=2, no_wrap=True)
    teams = game.rules.teams is not None
    if teams:
        table.add_column("", width=1, no_wrap=True)
    table.add_column("bid", width=4, no_wrap=True, header_style=DIM)
    table.add_column("card", width=4, no_wrap=True, header_style=DIM)
    table.add_column("held", width=4, justify="right", no_wrap=True, header_style=DIM)
    table.add_column("won", width=3, justify="right", no_wrap=True, header_style=DIM)
    table.add_column("clock", width=5, justify="right", no_wrap=True, header_style=DIM)
    for seat, name in enumerate(names):
        turn = game.to_act == seat and game.phase != "game_over"
        marker = Text("▶", style=ALERT) if turn else Text(" ")
        you = seat == game.seat
        label = seat_label(state, seat, name)
        role = ("D" if seat == game.dealer else " ") + ("P" if seat == game.pitcher else " ")
        bid = game.bid_of(seat)
        bid_text = "pass" if bid is None else str(bid)
        card = laid_card(game, seat, ascii)
        held = str(game.hand_sizes[seat]) if seat < len(game.hand_sizes) and game.phase != "dealing" else ""
        won = str(game.taken[seat]) if game.phase == "playing" else ""
        clock = Text(seat_clock(state, seat, now) if turn else "", style=ALERT if you else "")
        side = [SIDE_LETTERS[side_of(game.rules, seat)]] if teams else []
        table.add_row(marker, label, role, *side, bid_text, card, held, won, clock)
    return table


def seat_label(state: ClientState, seat: int, name: str, short: bool = True) -> Text:
    """A seat's name as the seats show it: in bold for this player (``(you)`` when ``short`` or
    it fits), marked when it is away or a bot plays for it."""
    info = state.table_info
    seating = info.seats[seat] if info is not None and seat < len(info.seats) else None
    you = state.game is not None and seat == state.game.seat
    if seating is not None and seating.replaced_by_bot:
        return Text(f"{name} (bot)", style=ALERT)
    if seating is not None and not seating.connected:
        return Text(f"{name} (away)", style=ALERT)
    if you and (len(name) <= 6 or not short):
        return Text(f"{name} (you)", style=MINE)
    return Text(name, style=MINE if you else "")


def winner_mark(ascii: bool) -> str:
    """What marks the card winning the trick: a star, or ``*`` in letters."""
    return "*" if ascii else "★"


def laid_card(game: GameView, seat: int, ascii: bool) -> Text:
    """The card ``seat`` has on the table (the trick in play, or the finished one until the next
    lead, dimmed), marked when it wins the trick; empty when it has none there."""
    plays, winner, over = game.on_table
    played = next((p.card for p in plays if p.seat == seat), None)
    if played is None:
        return Text("")
    text = card_text(played, ascii, game.trump, game.rules.game())
    if seat == winner:
        text.append(winner_mark(ascii), style=ALERT if not over else "")
    if over:
        text.stylize(DIM)
    return text


def seat_clock(state: ClientState, seat: int, now: float) -> str:
    """The clock of the seat to act, as the server gave it (its decision for this seat; for
    another, its ``turn`` event or the snapshot) and counted down since: never a guess."""
    game = state.game
    if game is None:
        return ""
    if seat == game.seat and game.decision is not None:
        return clock_label(game.decision.seconds_left(now))
    if game.turn_remaining_ms is None or game.turn_since is None:  # a bot, no clock, or not said
        return "…"
    return clock_label(max(0.0, game.turn_remaining_ms / 1000 - (now - game.turn_since)))


def scores_table(state: ClientState) -> Table:
    """Each side's score and its last change; this player's side in bold."""
    game = state.game
    assert game is not None
    names = state.names()
    rules = game.rules
    table = Table(box=None, padding=(0, 1), show_edge=False, pad_edge=False, expand=True)
    last = game.last_result
    table.add_column(f"score to {rules.points_to_win()}", header_style=DIM, ratio=1, no_wrap=True, overflow="ellipsis")
    table.add_column("", justify="right", no_wrap=True)
    table.add_column("" if last is None else f"hand {last.hand_number}", header_style=DIM, justify="right",
                     no_wrap=True, style=DIM)  # what the last hand gave each side
    mine = None if game.seat is None else (game.seat if rules.teams is None else game.seat % rules.teams)
    deltas = last.deltas if last is not None else None
    for side in range(sides(rules)):
        score = game.scores[side] if side < len(game.scores) else 0
        delta = f"{deltas[side]:+d}" if deltas is not None and side < len(deltas) else ""
        style = MINE if side == mine else ""
        label = side_name(rules, side, names)
        if rules.teams is not None:
            label = f"{SIDE_LETTERS[side]} {label}"
        table.add_row(Text(label, style=style), Text(str(score), style=style), delta)
    return table


def centre(state: ClientState, ascii: bool) -> RenderableType:
    """The middle of the table: the winner, the last hand's summary, or the last trick."""
    game = state.game
    if game is None:
        return waiting_room(state)
    names = state.names()
    if game.outcome is not None:
        lines = [line_text(outcome_line(game.outcome, game.rules, names), ascii, "bold")]  # the prompt says what next
        if game.last_result is not None:
            summary = result_lines(game.last_result, game.rules, names, scores=False)
            lines += [line_text(line, ascii) for line in summary]
        return Group(*lines)
    if game.phase == "dealing":
        return Text("The game begins: drawing for the first deal…", style=DIM)
    parts: list[RenderableType] = []
    if game.phase == "bidding":
        parts.append(bidding_line(game, names))
    if game.phase == "playing" and game.trick:
        parts.append(trick_line(game, names, ascii))
    if game.last_trick is not None and game.phase == "playing":  # bidding: its cards are still in the seats
        trick = game.last_trick
        which = f"Hand {trick.hand}'s last trick" if trick.hand != game.hand_number else f"Trick {trick.number}"
        lingering = not game.trick and game.phase == "playing"  # still on the table: said plainly
        line = Text(f"{which} went to {names[trick.winner]}: ", style="" if lingering else DIM)
        for i, play in enumerate(trick.plays):
            line.append(" · " if i else "")
            line.append(f"{names[play.seat]} ")
            line.append_text(card_text(play.card, ascii, game.trump, game.rules.game()))
        parts.append(line)
    if game.phase == "bidding" and game.last_result is not None:  # the scores are in the panel beside
        parts += [line_text(line, ascii) for line in result_lines(game.last_result, game.rules, names, scores=False)]
    return Group(*parts) if parts else Text("")


def trick_line(game: GameView, names: list[str], ascii: bool) -> Text:
    """The trick in play: who led which suit, and whose card wins it so far (the server says)."""
    lead = game.trick[0]
    line = Text(f"Trick {sum(game.taken) + 1}: {names[lead.seat]} led ")
    led = lead.card.suit if game.trump is None else suit_of(lead.card, game.trump, game.rules.game())
    line.append(SUIT_NAMES[led] + " ")
    line.append(suit_label(led, ascii), style=SUIT_STYLES[led])
    winner = game.winning
    card = game.played_by(winner) if winner is not None else None
    if winner is not None and card is not None:
        whose = "your" if winner == game.seat else f"{names[winner]}'s"
        line.append(f"; {whose} ")
        line.append_text(card_text(card, ascii, game.trump, game.rules.game()))
        line.append(winner_mark(ascii), style=ALERT)
        line.append(" wins so far")
    return line


def bidding_line(game: GameView, names: list[str]) -> Text:
    """The bid to beat, and the dealer's duty when everyone else passed."""
    bids = [(amount, seat) for seat, amount in game.bids if amount is not None]
    if bids:
        amount, seat = max(bids)
        text = Text(f"High bid: {amount} by {names[seat]}.")
    else:
        text = Text("No bid yet.")
    decision = game.decision
    if decision is not None and decision.bidding and "pass" not in decision.legal:
        text.append(" Everyone passed: the dealer must bid.", style=ALERT)
    return text


def waiting_room(state: ClientState) -> RenderableType:
    """Before a game: the seats and who is ready."""
    info = state.table_info
    if info is None:
        return Text("Waiting for the table…", style=DIM)
    lines = [Text(f"{info.name}: {rules_text(info.rules)}, {clock_text(info.clock)}.")]
    if info.rules.game() is not Variant.STANDARD:
        lines.append(Text(f"  {variant_text(info.rules)}", style=DIM))
    for seat in info.seats:
        side = f" ({SIDE_LETTERS[side_of(info.rules, seat.seat)]})" if info.rules.teams else ""  # as the lobby
        if seat.kind == "empty":
            lines.append(Text(f"  {seat_word(seat.seat)}{side}: empty", style=DIM))
        else:
            ready = "ready" if seat.ready else "not ready"
            you = " (you)" if seat.seat == state.seat else ""
            lines.append(Text(f"  {seat_word(seat.seat)}{side}: {seat.name}{you}{rating_text(seat.rating)}, {ready}"))
    if info.rules.teams:
        lines.append(Text("  Seats with the same letter play together.", style=DIM))
    invite = info.invite or state.invites.get(info.table)
    if info.private and invite and any(seat.kind == "empty" for seat in info.seats):
        lines.append(Text(f"  Private table: its invite code is {invite}, for the guests you invite.", style=MINE))
    return Group(*lines)


def prompt(state: ClientState, now: float, ascii: bool) -> Text:
    """The line above the hand: what to do now, or what is awaited, or what went wrong."""
    if state.link is Link.OFFLINE:
        return offline(state)
    if state.notice:
        return Text(state.notice, style=ALERT)
    game = state.game
    if state.link is Link.RECONNECTING:
        return reconnecting(state, now)
    if game is None:
        if state.spectating:
            return Text("Watching: the game has not started. l: leave", style=DIM)
        invite = state.invites.get(state.table or "")
        code = f"  Invite code: {invite}." if invite else ""
        return Text(f"Waiting for players.{code}  b: add a bot · r: ready · l: leave", style=DIM)
    names = state.names()
    decision = game.decision
    if decision is not None:
        if decision.sent is not None:
            return Text("Sent; waiting for the server…", style=DIM)
        left = clock_label(decision.seconds_left(now))
        clock = f"  [{left} left]" if left else ""
        if decision.bidding:
            return Text(f"Your bid: ←/→ or {bid_keys(decision.legal)}, then Enter.{clock}", style=MINE)
        return Text(f"Your play: ←/→ or the card's number, then Enter.{clock}", style=MINE)
    if game.outcome is not None:
        if state.spectating:
            return Text("Game over.  l: stop watching", style=DIM)
        return Text(f"Game over.  {ready_line(state)}", style=MINE)
    if game.stood_in:
        return Text("A bot plays for you after your timeouts: press r to play yourself again.", style=ALERT)
    if game.to_act is not None:
        doing = "bid" if game.phase == "bidding" else "play"
        if state.seat is not None and state.away_seat() == game.to_act:
            return Text(f"{names[game.to_act]} is away: b seats a bot for them until they are back.", style=ALERT)
        return Text(f"Waiting for {names[game.to_act]} to {doing}…", style=DIM)
    return Text("")


def bid_keys(legal: Sequence[str]) -> str:
    """The keys of the bids ``legal`` allows: ``0 (pass) 4-9`` (a bid of 10, which no key types,
    is reached with the arrows)."""
    keyed = [amount for a in legal if a != "pass" and (amount := int(a.partition(" ")[2])) <= 9]
    words = ["0 (pass)"] if "pass" in legal else []
    if keyed:
        words.append(str(keyed[0]) if len(keyed) == 1 else f"{keyed[0]}-{keyed[-1]}")
    return " ".join(words) or "the arrows"


def ready_line(state: ClientState) -> str:
    """After a game, whom the next one waits for (built-in bots are always ready)."""
    info = state.tables.get(state.table or "")
    if info is None:
        return "r: play again · l: leave"
    waiting = [s.name or seat_word(s.seat) for s in info.seats
               if s.kind in {"human", "bot"} and not s.ready and s.seat != state.seat]
    mine = next((s for s in info.seats if s.seat == state.seat), None)
    me = "You are ready" if mine is not None and mine.ready else "r: play again"
    them = f"; waiting for {', '.join(waiting)}" if waiting else ""
    return f"{me}{them} · l: leave"


def reconnecting(state: ClientState, now: float) -> Text:
    """Why the client is reconnecting and, after the server stopped, when it tries next."""
    if state.stopped is None:
        return Text("Connection lost: reconnecting with your seat token…", style=ALERT)
    retry_at = state.retry_at
    when = f"in {math.ceil(retry_at - now)} s" if retry_at is not None and retry_at > now else "now"
    return Text(f"The server stopped ({state.stopped}); trying again {when}…", style=ALERT)


def offline(state: ClientState) -> Text:
    return Text(f"{state.notice or 'Disconnected.'}  r: try again · d: other servers · q: quit", style=ALERT)


def lobby_prompt(state: ClientState, now: float) -> Text:
    if state.link is Link.OFFLINE:
        return offline(state)
    if state.notice:
        return Text(state.notice, style=ALERT)
    if state.link is Link.RECONNECTING:
        return reconnecting(state, now)
    return Text("Enter: sit · 1-7: sit in that seat · s: watch · n: new · c: chat · ?: keys", style=DIM)


LOBBY_NAME_CHARS = 20
"""A table's name in a lobby row is cut to this (the line under the list has it whole), so
that the other columns stay on an 80-column screen."""


def table_row(info: TableInfo) -> tuple[str, str, str, str, str]:
    """A lobby row: name, rules, clock, seats taken, status (and whether it is private)."""
    taken = sum(1 for s in info.seats if s.kind != "empty")
    status = info.status if info.status != "finished" else f"finished ({info.games_played})"
    if info.private:
        status += ", private"
    name = info.name if len(info.name) <= LOBBY_NAME_CHARS else info.name[: LOBBY_NAME_CHARS - 1] + "…"
    rules = rules_text(info.rules, usual_limit=False)  # the row is short: the detail line says the rest
    return name, rules, clock_text(info.clock), f"{taken}/{len(info.seats)}", status


def rating_text(rating: float | None) -> str:
    """A player's rating from rated tables, as the lobby shows it (nothing when unrated)."""
    return f" [{rating:.0f}]" if rating is not None else ""


def table_detail(info: TableInfo | None, online: bool = True) -> Text:
    """The seats of the table under the lobby's cursor; ``online``: connected to the server."""
    if info is None and not online:
        return Text("Not connected: the server's tables show once it answers.", style=DIM)
    if info is None:
        return Text("No tables yet: press n to create one.", style=DIM)
    text = Text(f"{info.name} ({info.table}): ", style=MINE)
    seats = []
    for seat in info.seats:
        side = f" {SIDE_LETTERS[side_of(info.rules, seat.seat)]}" if info.rules.teams else ""  # partners: one letter
        if seat.kind == "empty":
            seats.append(f"{seat.seat + 1}{side}: empty")
        else:
            kind = " (bot)" if seat.kind in {"bot", "builtin"} else ""
            if seat.replaced_by_bot:
                kind += ", a bot standing in" if kind else " (a bot standing in)"
            elif not seat.connected:
                kind += ", away" if kind else " (away)"
            seats.append(f"{seat.seat + 1}{side}: {seat.name}{kind}{rating_text(seat.rating)}")
    text.append(" · ".join(seats))
    extras = [f"{info.spectators} watching"] if info.spectators else []
    if info.rated:
        extras.append("rated")
    if info.private:
        extras.append("private")
    if info.seeded:
        extras.append("seeded: its deals are known to its creator")
    if extras:
        text.append("  (" + "; ".join(extras) + ")", style=DIM)
    if info.rules.game() is not Variant.STANDARD:
        text.append(f"\n{variant_text(info.rules)}", style=DIM)
    return text


SHEET_COLUMN_CELLS = 7
"""A side's column on the score sheet at its narrowest: the hand's change and the running
total, ``+2   7``; it widens for the side's name where there is room."""


def sheet_labels(rules: WireRules, names: list[str]) -> list[str]:
    """Each side's column heading on the score sheet: its letter at a partnership table, else
    its player's name, or, where names cut to the narrowest column would look alike
    (``heuris…`` three times over), the seat's number first (``2 heur…``)."""
    if rules.teams is not None:
        return [SIDE_LETTERS[side] for side in range(sides(rules))]
    cut_to = SHEET_COLUMN_CELLS - 1
    shown = [name if len(name) <= SHEET_COLUMN_CELLS else name[:cut_to] for name in names]
    if len(set(shown)) == len(shown):
        return list(names)
    return [f"{seat + 1} {name}" for seat, name in enumerate(names)]


def score_sheet(game: GameView, names: list[str], ascii: bool, latest: int | None = None) -> Table:
    """Each scored hand of the game on a row: its pitcher, bid and trump, whether the bid was
    made, and each side's change and running total; this player's side in bold. ``latest``:
    only that many of the last hands (a panel's room), else all of them."""
    rules = game.rules
    mine = None if game.seat is None else side_of(rules, game.seat)
    table = Table(box=None, padding=(0, 1), show_edge=False, pad_edge=False, expand=False, header_style=DIM)
    table.add_column("hand", justify="right", no_wrap=True)
    table.add_column("pitcher", no_wrap=True, overflow="ellipsis", max_width=12)
    results = game.results if latest is None else game.results[-latest:]
    stolen = any(result.stolen for result in results)  # room for the mark, where there is one
    table.add_column("bid", no_wrap=True, min_width=len("4 S made stolen") if stolen else None)
    for side, label in enumerate(sheet_labels(rules, names)):
        table.add_column(label, justify="right", no_wrap=True, overflow="ellipsis", min_width=SHEET_COLUMN_CELLS,
                         max_width=TABLE_NAME_CELLS, header_style=MINE if side == mine else DIM)
    for result in results:
        bid = Text(f"{result.bid} ")
        trump = Suit.parse(result.trump)
        bid.append(suit_label(trump, ascii).split()[0], style=SUIT_STYLES[trump])
        bid.append(" set" if result.set_back else " made", style=ALERT if result.set_back else DIM)
        if result.stolen:  # the dealer's steal: the dealer took the bid at the highest so far
            bid.append(" stolen", style=ALERT)
        cells = []
        for side, (delta, score) in enumerate(zip(result.deltas, result.scores, strict=True)):
            cell = Text(f"{delta:+d}" if delta else "·", style=ALERT if delta < 0 else DIM)
            cell.append(f"{score:>4}", style=MINE if side == mine else "")
            cells.append(cell)
        table.add_row(str(result.hand_number), names[result.pitcher], bid, *cells)
    if rules.teams is not None:
        partners = (f"{SIDE_LETTERS[side]}: {side_name(rules, side, names)}" for side in range(sides(rules)))
        table.caption = " · ".join(partners)
        table.caption_style = DIM
    return table


def points_won_lines(game: GameView, names: list[str]) -> RenderableType:
    """Under the score sheet: every point each hand gave, by name, with who took it (the
    result's awards)."""
    lines = [Text(f"{r.hand_number}: {words}") for r in game.results if (words := points_won(r, game.rules, names))]
    return Group(Text("Points won, hand by hand", style=DIM), *lines) if lines else Text("")


def last_trick_lines(game: GameView, names: list[str], ascii: bool) -> RenderableType:
    """The last finished trick, a card a line in the order played, the card that took it marked."""
    trick = game.last_trick
    if trick is None:
        return Text("No trick has been played yet this hand.", style=DIM)
    lines = [Text(f"Trick {trick.number} of hand {trick.hand}, led by {names[trick.plays[0].seat]}:", style=MINE)]
    width = max(len(names[p.seat]) for p in trick.plays)
    for play in trick.plays:
        line = Text(f"  {names[play.seat]:<{width}}  ")
        line.append_text(card_text(play.card, ascii))
        if play.seat == trick.winner:
            line.append(f" {winner_mark(ascii)} took the trick", style=ALERT)
        lines.append(line)
    return Group(*lines)


def score_sheet_panel(game: GameView, names: list[str], ascii: bool, rows: int) -> RenderableType:
    """The score sheet's latest ``rows`` hands, under a heading (for a tall screen's side panel)."""
    if not game.results:
        return Text("Score sheet: no hand scored yet.", style=DIM)
    shown = min(rows, len(game.results))
    older = len(game.results) - shown
    heading = Text("Score sheet" + (f" (the last {shown} hands; s: all)" if older else ""), style=DIM)
    return Group(heading, score_sheet(game, names, ascii, latest=shown))
