"""The table seen from above, for a big terminal: the seats around it, each seat's card on the
felt in front of it, this player at the bottom and play going round clockwise (seat + 1 to
the left of the seat before)."""

from __future__ import annotations

import math

from rich.console import Group
from rich.text import Text

from setback.client.panels import ALERT, DIM, SIDE_LETTERS, laid_card, seat_clock, seat_label
from setback.client.state import ClientState
from setback.telling.story import side_of

BOX_CELLS = 24
"""A seat's name and facts are cut to this width."""
MIN_CELLS, MIN_ROWS = 60, 13
"""The smallest picture that keeps seven seats apart."""
SIDEWAYS = 0.35
"""A seat this far to a side of the middle sits beside the felt, not above or below it."""


def place(row: Text, column: int, text: Text) -> Text:
    """``row`` with ``text`` written over it from ``column`` (one cell a character)."""
    column = max(0, min(column, len(row) - len(text)))
    return Text.assemble(row[:column], text, row[column + len(text):])


def seat_box(state: ClientState, seat: int, now: float) -> list[Text]:
    """A seat's lines: whose turn and its name (with its side's letter at a team table), dealer
    and pitcher; its bid, cards held and tricks won; its clock while it is to act."""
    game = state.game
    assert game is not None
    names = state.names()
    turn = game.to_act == seat and game.phase != "game_over"
    head = Text("▶ " if turn else "", style=ALERT)
    head.append_text(seat_label(state, seat, names[seat], short=False))
    if game.rules.teams is not None:
        head.append(f" {SIDE_LETTERS[side_of(game.rules, seat)]}", style=DIM)
    role = ("D" if seat == game.dealer else "") + ("P" if seat == game.pitcher else "")
    if role:
        head.append(f" {role}", style="bold")
    facts = []
    bid = game.bid_of(seat)
    if bid != "":
        facts.append("pass" if bid is None else f"bid {bid}")
    if game.phase != "dealing" and seat < len(game.hand_sizes):
        facts.append(f"{game.hand_sizes[seat]} held")
    if game.phase == "playing":
        facts.append(f"{game.taken[seat]} won")
    lines = [head, Text(" · ".join(facts), style=DIM)]
    if turn:
        clock = seat_clock(state, seat, now)
        lines.append(Text(clock if clock != "…" else "", style=ALERT if seat == game.seat else ""))
    return [line if len(line) <= BOX_CELLS else line[:BOX_CELLS - 1] + Text("…") for line in lines]


def table_picture(state: ClientState, now: float, ascii: bool, width: int, height: int) -> Group:
    """Every seat around the table, ``width`` by ``height`` cells, this player's (or, watching,
    seat 0's) at the bottom, and the cards on the table (the felt, in the middle) in front of
    their seats."""
    game = state.game
    assert game is not None
    width, height = max(width, MIN_CELLS), max(height, MIN_ROWS)
    rows = [Text(" " * width) for _ in range(height)]
    left, right = round(width * 0.34), round(width * 0.66)
    top, bottom = round(height * 0.25), round(height * 0.75)
    rows[top] = place(rows[top], left, Text("╭" + "─" * (right - left - 1) + "╮", style=DIM))
    for row in range(top + 1, bottom):
        rows[row] = place(rows[row], left, Text("│", style=DIM))
        rows[row] = place(rows[row], right, Text("│", style=DIM))
    rows[bottom] = place(rows[bottom], left, Text("╰" + "─" * (right - left - 1) + "╯", style=DIM))
    if game.phase == "playing":
        plays, _, over = game.on_table
        last = game.last_trick
        if over and last is not None and last.hand != game.hand_number:  # kept in view until the lead
            words = f"hand {last.hand}'s last trick"
        else:
            words = f"trick {sum(game.taken) + (0 if over else 1)}"
        label = Text(words if plays else "", style=DIM)
        rows[top] = place(rows[top], round((left + right - len(label)) / 2), label)
    players = game.rules.players
    me = game.seat if game.seat is not None else 0
    centre_x, centre_y = width / 2, (height - 1) / 2
    reach_x, reach_y = width / 2 - BOX_CELLS / 2, (height - 2) / 2
    felt_x, felt_y = (right - left) / 2 - 3, (bottom - top) / 2 - 1
    for seat in range(players):
        angle = -math.pi / 2 - 2 * math.pi * ((seat - me) % players) / players  # clockwise from the bottom
        x, y = math.cos(angle), math.sin(angle)
        box = seat_box(state, seat, now)
        first = max(0, min(round(centre_y - reach_y * y - (len(box) - 1) / 2), height - len(box)))
        for i, line in enumerate(box):
            if x < -SIDEWAYS:  # at the felt's left, its lines ending short of it
                column = left - 2 - len(line)
            elif x > SIDEWAYS:
                column = right + 2
            else:
                column = round(centre_x + reach_x * x - len(line) / 2)
            rows[first + i] = place(rows[first + i], column, line)
        card = laid_card(game, seat, ascii)
        if card.plain:
            row = round(centre_y - felt_y * y)
            rows[row] = place(rows[row], round(centre_x + felt_x * x - len(card) / 2), card)
    return Group(*rows)
