"""Reading records back: a server's finished games, replays, exports, the leaderboard; record files."""

from __future__ import annotations

import datetime
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec

from setback.engine import Game, HandScored, Rules, Variant, game_record, replay_record
from setback.protocol.convert import rules_from_wire, rules_to_wire
from setback.protocol.messages import WireRules
from setback.server.ratings import key_parts
from setback.server.store import BY_CLOCK, BY_STAND_IN, DamagedRecordError, GameRow, Store, replay, stood_in_seats
from setback.telling.narrate import narrate
from setback.telling.story import rules_text


def replayed(row: GameRow) -> Game:
    """The game a stored row describes, replayed from its seed and actions: a
    :class:`DamagedRecordError` naming it if they do not replay."""
    try:
        return replay(Game(_rules(row), row.seed), row.actions)
    except ValueError as exc:
        raise DamagedRecordError(row.id, row.table_id, str(exc)) from None


def _rules(row: GameRow) -> Rules:
    """The rules a stored row names (a ValueError if they are not rules)."""
    return rules_from_wire(msgspec.convert(row.rules, WireRules))


def export_records(store: Store) -> Iterator[dict[str, Any]]:
    """Every finished game's record (:func:`export_record`), oldest first. A game whose
    record cannot be read or replayed is left out, and said to be in the log (on stderr)."""
    for row in reversed(store.finished_games()):
        try:
            record = export_record(row)
        except DamagedRecordError as exc:
            exc.left_out()
            continue
        yield record


def export_record(row: GameRow) -> dict[str, Any]:
    """The same JSONL record as ``setback match --out`` writes, with where and when it was played
    (a :class:`DamagedRecordError` if its actions do not replay)."""
    return game_record(
        replayed(row),
        players=row.players,
        server={
            "game_id": row.id, "table": row.table_id, "game": row.number, "rated": row.rated,
            "started": _iso(row.started), "finished": _iso(row.finished),
            "timed_out_actions": _chosen_by(row, BY_CLOCK), "stand_in_actions": _chosen_by(row, BY_STAND_IN),
        },
    )


def _chosen_by(row: GameRow, by: int) -> list[int]:
    """The indexes of the game's actions that ``by`` chose."""
    return [index for index, (_, _, chooser) in enumerate(row.actions) if chooser == by]


def timed_out(row: GameRow) -> dict[str, int]:
    """How many of each player's moves the clock made (a timeout), for those it made any of."""
    counts: dict[str, int] = {}
    for seat, _, chooser in row.actions:
        if chooser == BY_CLOCK:
            name = row.players[seat]
            counts[name] = counts.get(name, 0) + 1
    return counts


def stood_in(row: GameRow) -> list[str]:
    """The players for whom a stand-in bot played at least one decision, in seat order."""
    seats = stood_in_seats(row.actions)
    return [name for seat, name in enumerate(row.players) if seat in seats]


def _iso(stamp: float | None) -> str | None:
    if stamp is None:
        return None
    return datetime.datetime.fromtimestamp(stamp, datetime.UTC).isoformat(timespec="seconds")


class _Outcome(msgspec.Struct):
    """What a history row shows of a game's outcome (section 5 of spec.md)."""

    winner: int | None = None
    reason: str | None = None
    scores: list[int] | None = None


def history_rows(store: Store, limit: int | None) -> list[dict[str, Any]]:
    """One summary a finished game (:func:`history_row`), newest first. A game whose record
    cannot be read is left out, and said to be in the log (on stderr)."""
    return [summary for row in store.finished_games(limit) if (summary := history_row(row)) is not None]


def history_row(row: GameRow) -> dict[str, Any] | None:
    """What ``setback history`` shows of a finished game: players, rules, final scores, the
    winners and why, who was stood in for or timed out; None (said in the log) if its record
    cannot be read."""
    try:
        rules = _rules(row)
        outcome = msgspec.convert(row.outcome or {}, _Outcome)
    except ValueError as exc:
        DamagedRecordError(row.id, row.table_id, str(exc)).left_out()
        return None
    return {
        "game_id": row.id, "table": row.table_id, "players": row.players,
        "rules": msgspec.to_builtins(rules_to_wire(rules)), "scores": outcome.scores,
        "winner_side": outcome.winner, "reason": outcome.reason,
        "winners": [name for seat, name in enumerate(row.players) if rules.side_of(seat) == outcome.winner],
        "stood_in": stood_in(row), "timed_out": timed_out(row), "rated": row.rated,
        "finished": _iso(row.finished),
    }


def replay_lines(row: GameRow) -> Iterator[str]:
    """The game told hand by hand, the moves the clock made for a player marked."""
    game = replayed(row)
    yield f"Game {row.id} at table {row.table_id}, {_iso(row.started)}: {', '.join(row.players)}"
    yield rules_line(game)
    yield from narrate(game.events, game.rules, row.players, timed_out=set(_chosen_by(row, BY_CLOCK)))


def rules_line(game: Game) -> str:
    """The options the game was played under, as a table announces them."""
    return f"Rules: {rules_text(rules_to_wire(game.rules))}."


def record_lines(path: Path, game: int) -> Iterator[str]:
    """Game ``game`` of a file of records (``match --out``: its number in the match; an
    export: its game id), told hand by hand; ValueError if the file has no such game,
    naming the games it has."""
    there: list[int] = []
    with path.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
                found = record.get("match", {}).get("game", record.get("server", {}).get("game_id"))
            except (ValueError, AttributeError):
                raise ValueError(f"{path}, line {number}: not a game record") from None
            if isinstance(found, int):
                there.append(found)
            if found == game:
                replayed_game = replay_record(record)
                players = [str(p) for p in record["players"]]
                yield f"Game {game} of {path.name}, seed {record['seed']}: {', '.join(players)}"
                yield rules_line(replayed_game)
                late = record.get("server", {}).get("timed_out_actions", [])  # an export's
                yield from narrate(replayed_game.events, replayed_game.rules, players, timed_out=set(late))
                return
    raise ValueError(f"no game {game} in {path}: {numbers_text(there) if there else 'it holds no game record'}")


def numbers_text(numbers: list[int]) -> str:
    """``games 0-19, 25`` for the numbers given (in runs, sorted)."""
    runs: list[list[int]] = []
    for number in sorted(set(numbers)):
        if runs and number == runs[-1][1] + 1:
            runs[-1][1] = number
        else:
            runs.append([number, number])
    spans = [str(first) if first == last else f"{first}-{last}" for first, last in runs]
    return ("game " if len(numbers) == 1 else "games ") + ", ".join(spans)


def leaderboard_rows(store: Store, variant: Variant = Variant.STANDARD) -> list[dict[str, Any]]:
    """The ratings of rated tables' players at ``variant`` (each variant keeps its own), highest
    first (``setback leaderboard``)."""
    return [
        {"player": player, "rating": round(rating, 1), "games": games, "wins": wins}
        for key, rating, games, wins in store.ratings()
        for player, at in [key_parts(key)] if at is variant
    ]


def score_series(row: GameRow) -> list[list[int]]:
    """Each side's score after each scored hand of a game, in order (a hand thrown in
    changes no score and is left out): the points of the evening page's chart."""
    return [list(event.result.scores) for event in replayed(row).events if type(event) is HandScored]


def finished_record(row: GameRow) -> dict[str, Any] | None:
    """The whole record of a finished game, every hand's deal face up, with its rules as the
    wire writes them (the replay page's); None while the game is being played, whose
    hidden cards nobody may see."""
    if row.finished is None or row.outcome is None:
        return None
    return {**export_record(row), "rules": msgspec.to_builtins(rules_to_wire(_rules(row)))}
