"""The server's error codes (spec.md section 12) in plain words for a person at the table."""

from __future__ import annotations

import socket

from setback.protocol.messages import (
    Act,
    AddBot,
    ClientMessage,
    CreateTable,
    Error,
    Join,
    Leave,
    Ready,
    SendChat,
    Spectate,
)


def seat_word(seat: int) -> str:
    """A seat as people count them, from 1 (``seat 3`` is the wire's seat 2), wherever a
    person reads one: the lobby, the table, the log (the browser table counts the same)."""
    return f"seat {seat + 1}"


WORDS: dict[str, str] = {
    "illegal_action": "The server refused that move",
    "not_your_turn": "It is not your turn",
    "stale_request": "That decision had already passed",
    "seat_taken": "That seat is taken",
    "table_full": "There is no free seat there",
    "no_such_table": "That table is gone",
    "already_seated": "You are already at a table: leave it first",
    "not_at_table": "You are not at a table",
    "game_in_progress": "A game is being played there: watch it, or wait for it to end",
    "bad_rules": "Those table options do not go together",
    "refused": "The server refused",
    "unknown_bot": "The server has no such bot",
    "bad_chat": "That chat message cannot be sent",
    "chat_barred": "Bots may not chat during play at this table",
    "rate_limited": "Too many messages: the server dropped some",
    "bad_token": "Your seat could not be taken back; you are in the lobby",
    "internal": "The server failed on that; the rest of the server is fine",
    "version_unsupported": "This server speaks another version of the protocol",
    "bad_password": "The server needs its password",
    "server_full": "The server is full",
    "idle_timeout": "The server closed the connection after a long silence",
    "hello_timeout": "The server closed the connection before the hello",
    "malformed": "The server could not read a message from this client (a client bug)",
    "unknown_type": "The server does not know a message this client sent (a client bug)",
    "invalid_field": "The server refused a field this client sent",
    "line_too_long": "A message from this client was too long",
}

ASKED: dict[type, str] = {
    Act: "your move",
    CreateTable: "creating the table",
    Join: "joining",
    Spectate: "watching",
    Leave: "leaving",
    Ready: "getting ready",
    AddBot: "adding a bot",
    SendChat: "chat",
}


SAID_IN_FULL = frozenset({"game_in_progress", "table_full", "already_seated", "not_at_table", "not_your_turn",
                          "bad_password", "server_full"})
"""Codes whose words above say all there is: the server's own text would only repeat them."""


def error_text(error: Error, request: ClientMessage | None = None) -> str:
    """One sentence: what went wrong, about what, and the server's own explanation (unless
    it would say the same again)."""
    words = WORDS.get(error.code, "The server refused")
    if error.code == "no_such_table" and isinstance(request, Join | Spectate) and request.invite is not None:
        return "That invite code is not the table's (or the table is gone): check it and try again."
    about = ASKED.get(type(request)) if request is not None else None
    head = f"{words} ({about})" if about else words
    detail = "" if error.code in SAID_IN_FULL else error.message.strip().rstrip(".")
    return f"{head}: {detail}." if detail else f"{head}."


def unreachable(address: str, error: BaseException) -> str:
    """Why the server at ``address`` could not be reached, for a person."""
    if isinstance(error, ConnectionRefusedError):
        return f"nothing answers at {address}: is setback serve running there?"
    if isinstance(error, socket.gaierror):
        return f"no computer called {address.rpartition(':')[0]} was found"
    if isinstance(error, TimeoutError):
        return f"{address} did not answer in time"
    return f"cannot reach {address} ({error})"
