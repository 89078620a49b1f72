"""The client's model: server messages folded into what the screen shows, without any I/O."""

from __future__ import annotations

import io
import random
import re

import msgspec
from rich.console import Console

from setback.client.panels import (
    LOBBY_NAME_CHARS,
    centre,
    prompt,
    ready_line,
    seats_table,
    status_line,
    table_detail,
    table_row,
)
from setback.client.state import ClientState, Link, QuickGame
from setback.client.words import error_text
from setback.engine import CardsDrawn, Game, Rules, parse_action
from setback.protocol.convert import event_to_wire, rules_to_wire, view_to_wire
from setback.protocol.messages import (
    Act,
    Chat,
    Clock,
    CreateTable,
    Decide,
    DecisionClock,
    Error,
    EventMessage,
    GameStarted,
    Join,
    Joined,
    Left,
    Limits,
    ListTables,
    Ok,
    Ready,
    SeatInfo,
    ServerMessage,
    Snapshot,
    Spectate,
    Spectating,
    TableInfo,
    Tables,
    TableUpdate,
    TimedOutEvent,
    Welcome,
    WireOutcome,
    WireRules,
)
from setback.telling.story import rules_text

CARD = re.compile(r"(?<![0-9A-Za-z])(10|[2-9JQKA])([CDHS])(?![0-9A-Za-z])")
"""A card's text form standing alone, as in JSON strings, action texts and the model's repr."""
NO_CLOCK = DecisionClock(limit_ms=None, remaining_ms=None)
LIMITS = Limits(
    max_line_bytes=16384, max_messages_per_second=2000.0, message_burst=4000, hello_timeout_seconds=10.0,
    idle_timeout_seconds=60.0, heartbeat_seconds=20.0, reconnect_grace_seconds=120.0, max_chat_chars=500,
    max_name_chars=40,
)


def welcome(bots: list[str]) -> Welcome:
    return Welcome(version="1.0", server="club", player="ann", token="tok", limits=LIMITS, capabilities=[], bots=bots)


def info(table: str = "t1", players: int = 4) -> TableInfo:
    seats = [SeatInfo(seat=s, name=f"p{s}", kind="human", ready=True, connected=True) for s in range(players)]
    return TableInfo(
        table=table, name="Friday", rules=WireRules(players=players), clock=Clock(), seats=seats, spectators=0,
        status="waiting", games_played=0, seeded=False,
    )


def cards_in(text: str) -> set[str]:
    return {rank + suit for rank, suit in CARD.findall(text)}


def wire_cards(message: ServerMessage) -> set[str]:
    return cards_in(msgspec.json.encode(message).decode())


def test_a_quick_game_creates_its_table_with_the_preferred_bot_and_sits_down() -> None:
    """Welcomed, the client asks for the tables and creates the planned table; its reply is joined."""
    state = ClientState(name="ann", plan=QuickGame(rules=WireRules(players=4), bots=3, seed=5))
    answers = state.receive(welcome(["heuristic", "random"]))
    assert state.link is Link.ONLINE
    assert isinstance(answers[0], ListTables)
    create = answers[1]
    assert isinstance(create, CreateTable)
    assert create.bots == ["heuristic"] * 3 and create.seed == 5
    create = msgspec.structs.replace(create, id=7)
    state.sending(create)
    (join,) = state.receive(TableUpdate(id=7, table=info()))
    assert join == Join(table="t1", ready=True)


def test_a_table_created_with_bots_in_every_seat_is_watched() -> None:
    """The client asks to watch in the create itself; the server's ``spectating`` seats it."""
    state = ClientState(name="ann")
    state.receive(welcome(["random"]))
    create = CreateTable(id=3, rules=WireRules(players=3), bots=["random"] * 3, spectate=True)
    state.sending(create)
    assert state.receive(TableUpdate(id=3, table=info(players=3))) == []
    assert state.receive(Spectating(id=3, table="t1")) == [ListTables()]  # as after any spectate
    assert state.table == "t1" and state.spectating and state.seat is None
    quick = ClientState(name="bo", plan=QuickGame(rules=WireRules(players=2), bots=2))
    made = quick.receive(welcome(["random"]))[1]
    assert isinstance(made, CreateTable) and made.spectate
    one_opponent = ClientState(name="cy", plan=QuickGame(rules=WireRules(players=2), bots=1))
    made = one_opponent.receive(welcome(["random"]))[1]
    assert isinstance(made, CreateTable) and not made.spectate


def test_a_reconnection_creates_no_second_table() -> None:
    state = ClientState(name="ann", plan=QuickGame(rules=WireRules(players=2), bots=1))
    create = state.receive(welcome(["random"]))[1]
    assert isinstance(create, CreateTable) and create.bots == ["random"]
    assert state.receive(welcome(["random"])) == [ListTables()]


def test_a_refused_move_can_be_made_again_and_is_told_in_plain_words() -> None:
    state = ClientState(name="ann")
    state.receive(welcome(["random"]))
    game = Game(Rules(players=2), seed=3)
    seat = game.to_act
    assert seat is not None
    state.receive(Joined(table="t1", seat=seat, token="tok"))
    view = view_to_wire(game.view(seat))
    state.receive(Decide(table="t1", request=4, seat=seat, view=view, clock=NO_CLOCK))
    decision = state.game.decision if state.game else None

    def my_turn() -> bool:
        return state.my_turn

    assert decision is not None and my_turn()
    state.sending(Act(id=9, request=4, action=view.legal[0]))
    assert decision.sent == view.legal[0] and not my_turn()
    state.receive(Error(id=9, code="illegal_action", message="play 2C is not legal now"))
    assert my_turn()
    assert state.notice == "The server refused that move (your move): play 2C is not legal now."


def test_every_error_code_has_words() -> None:
    codes = [
        "illegal_action", "not_your_turn", "stale_request", "seat_taken", "table_full", "no_such_table",
        "already_seated", "not_at_table", "game_in_progress", "bad_rules", "unknown_bot", "bad_chat",
        "chat_barred", "rate_limited", "bad_token", "internal", "version_unsupported", "bad_password",
        "server_full", "idle_timeout", "hello_timeout", "malformed", "unknown_type", "invalid_field",
        "line_too_long",
    ]
    for code in codes:
        text = error_text(Error(code=code, message=""))
        assert text.endswith(".") and "_" not in text, code
    assert error_text(Error(code="something_new", message="odd")) == "The server refused: odd."
    wrong_code = error_text(Error(code="no_such_table", message="no table 't2'"), Join(table="t2", invite="x"))
    assert wrong_code.startswith("That invite code is not the table's")


def test_a_lost_seat_returns_to_the_lobby() -> None:
    state = ClientState(name="ann")
    state.receive(welcome(["random"]))
    state.receive(Joined(table="t1", seat=2, token="tok"))
    state.receive(Error(code="bad_token", message="this seat was taken back from another connection"))
    assert state.table is None and state.seat is None and state.game is None
    assert state.notice is not None and "lobby" in state.notice


def test_the_log_tells_who_sat_down_left_dropped_and_was_stood_in_for() -> None:
    state = ClientState(name="p0")
    state.receive(welcome(["random"]))
    state.receive(Joined(table="t1", seat=0, token="tok"))
    state.receive(TableUpdate(table=info()))
    changes: list[tuple[int, dict[str, object], str | None]] = [
        (1, {"connected": False}, "p1 lost their connection; their seat is kept for them."),
        (1, {"connected": True}, "p1 is back."),
        (2, {"replaced_by_bot": True}, "A bot plays for p2 now."),
        (3, {"name": None, "kind": "empty"}, "p3 left seat 4."),
        (3, {"name": "dave"}, "dave sat down in seat 4."),
        (0, {"connected": False}, None),  # our own seat: we know
    ]
    current = info()
    for seat, fields, said in changes:
        seats = list(current.seats)
        seats[seat] = msgspec.structs.replace(seats[seat], **fields)
        current = msgspec.structs.replace(current, seats=seats)
        before = state.logged
        state.receive(TableUpdate(table=current))
        told = [" ".join(map(str, entry.line)) for entry in list(state.log)[len(state.log) - (state.logged - before):]]
        assert told == ([said] if said else []), (seat, fields)


def test_a_private_tables_code_stays_in_view_and_long_names_fit_the_lobby() -> None:
    state = ClientState(name="p0")
    state.receive(welcome(["random"]))
    create = CreateTable(id=5, name="x" * 40, rules=WireRules(players=4))
    state.sending(create)
    made = msgspec.structs.replace(info(), name="x" * 40, private=True, invite="TX-42")
    assert state.receive(TableUpdate(id=5, table=made)) == [Join(table="t1", ready=True, invite="TX-42")]
    state.receive(TableUpdate(table=msgspec.structs.replace(made, invite=None)))  # what everyone hears
    state.receive(Joined(table="t1", seat=0, token="tok"))
    assert "Invite code: TX-42." in prompt(state, 0.0, ascii=False).plain
    name, *_, status = table_row(made)
    assert len(name) == LOBBY_NAME_CHARS and name.endswith("…") and status.endswith(", private")


def _where(state: ClientState) -> tuple[str | None, bool]:
    return state.table, state.spectating


def test_a_reconnected_spectator_watches_again_and_a_stale_token_is_no_alarm() -> None:
    state = ClientState(name="ann")
    state.receive(welcome(["random"]))
    state.receive(Spectating(table="t1"))
    again = state.receive(welcome(["random"]))
    assert Spectate(table="t1") in again and _where(state) == (None, False)  # the lobby, until the server says
    state.receive(Spectating(table="t1"))
    assert _where(state) == ("t1", True)
    fresh = ClientState(name="ann")  # a run of the client whose kept token holds nothing any more
    fresh.receive(welcome(["random"]))
    fresh.receive(Error(code="bad_token", message="that token holds no seat; you are in the lobby with a new one"))
    assert fresh.notice is None and fresh.table is None
    assert "no longer held" in " ".join(" ".join(map(str, entry.line)) for entry in fresh.log)


def test_a_hands_last_trick_stays_in_view_while_the_next_is_bid() -> None:
    """The summary replaces the table the moment a hand ends: its sixth trick must not go with it."""
    rules = Rules(players=3)
    game = Game(rules, 8)
    state = ClientState(name="ann")
    state.receive(welcome(["random"]))
    state.receive(Spectating(table="t1"))
    state.receive(GameStarted(table="t1", game=0, rules=rules_to_wire(rules), players=["a", "b", "c"]))
    seen = checked = 0
    while not game.is_over and checked < 3:
        game.apply(game.legal_actions()[-1])  # bid high: hands are played, not thrown in
        for event in game.events[seen:]:
            state.receive(EventMessage(table="t1", event=event_to_wire(event, None)))
            model = state.game
            assert model is not None
            if model.phase == "bidding" and model.last_result is not None and not model.bids:
                assert model.last_trick is not None and model.last_trick.number == 6
                console = Console(width=200, record=True, file=io.StringIO())
                console.print(seats_table(state, 0.0, ascii=True))
                seats = console.export_text()
                assert all(str(play.card) in seats for play in model.last_trick.plays)
                console.print(centre(state, ascii=False))
                assert f"Hand {model.hand_number - 1}:" in console.export_text()  # and the summary beside
                checked += 1
        seen = len(game.events)
    assert checked


def fold_game(seat: int | None, seed: int, rules: Rules) -> ClientState:
    """Play a whole game in the engine, send seat ``seat`` (None: a spectator) exactly what the
    server would, and check after every message that the model holds no card it was not sent."""
    game = Game(rules, seed)
    state = ClientState(name="ann")
    state.receive(welcome(["random"]))
    state.receive(Joined(table="t1", seat=seat, token="tok") if seat is not None else Spectating(table="t1"))
    received: set[str] = set()

    def fold(message: ServerMessage) -> None:
        received.update(wire_cards(message))
        state.receive(message)
        assert cards_in(repr(state)) <= received

    fold(GameStarted(table="t1", game=0, rules=rules_to_wire(rules), players=[f"p{s}" for s in range(rules.players)]))
    fold(Snapshot(table="t1", view=view_to_wire(game.view(seat))))
    rng = random.Random(seed)
    sent = request = 0
    while True:
        for event in game.events[sent:]:
            fold(EventMessage(table="t1", event=event_to_wire(event, seat)))
        sent = len(game.events)
        if game.is_over:
            break
        model = state.game
        assert model is not None
        assert model.to_act == game.to_act, "the model follows whose turn it is from the events"
        if seat is not None:
            assert set(model.hand) == set(game.view(seat).hand)
        if seat is not None and game.to_act == seat:
            request += 1
            fold(Decide(table="t1", request=request, seat=seat, view=view_to_wire(game.view(seat)), clock=NO_CLOCK))
            assert state.my_turn and model.decision is not None
            action = rng.choice(model.decision.legal)
            state.sending(Act(id=request, request=request, action=action))
            game.apply(parse_action(action), seat)
        else:
            game.apply(rng.choice(game.legal_actions()))
    model = state.game
    assert model is not None and model.outcome is not None and model.phase == "game_over"
    assert model.scores == list(game.scores)
    return state


def test_the_model_keeps_only_what_a_seat_was_sent() -> None:
    """Over whole games: never a card the server did not send (other hands, undealt cards)."""
    fold_game(1, seed=11, rules=Rules(players=4, hand_limit=12))
    fold_game(0, seed=12, rules=Rules(players=3, target=7, hand_limit=12))


def test_a_spectator_holds_no_hand() -> None:
    state = fold_game(None, seed=13, rules=Rules(players=4, teams=2, hand_limit=8))
    assert state.game is not None and state.game.hand == [] and state.spectating


def test_the_first_decision_shows_only_the_own_hand_and_the_draws() -> None:
    """Before any card is played the model holds this seat's six cards and the public draw, no more."""
    game = Game(Rules(players=4), seed=21)
    state = ClientState(name="ann")
    state.receive(welcome(["random"]))
    state.receive(Joined(table="t1", seat=2, token="tok"))
    state.receive(GameStarted(table="t1", game=0, rules=rules_to_wire(game.rules), players=["a", "b", "c", "d"]))
    for event in game.events:
        state.receive(EventMessage(table="t1", event=event_to_wire(event, 2)))
    own = {str(c) for c in game.view(2).hand}
    drawn = {str(d.card) for e in game.events if isinstance(e, CardsDrawn) for d in e.draws}
    held = cards_in(repr(state))
    assert own <= held <= own | drawn
    others = {str(c) for s in (0, 1, 3) for c in game.view(s).hand} - drawn
    assert len(others) > 6 and not held & others


def test_the_screen_says_when_the_connection_is_down() -> None:
    state = ClientState(name="ann")
    state.receive(welcome(["random"]))
    state.connection(Link.RECONNECTING, "reset by peer")
    assert "[reconnecting]" in status_line(state).plain
    assert "reconnecting" in prompt(state, 0.0, False).plain
    state.connection(Link.OFFLINE, "nothing answers at 127.0.0.1:7411")
    assert "Disconnected: nothing answers at 127.0.0.1:7411  r: try again" in prompt(state, 0.0, False).plain


def test_after_its_timeouts_a_seat_is_played_by_a_bot_until_ready() -> None:
    """The table's bot_after_timeouts reached: the screen offers r; the ready's ok ends it."""
    state = ClientState(name="ann")
    state.receive(welcome(["random"]))
    state.receive(Joined(table="t1", seat=1, token="tok"))
    clocked = msgspec.structs.replace(info(players=2), clock=Clock(decision_seconds=5.0, bot_after_timeouts=2))
    state.receive(Tables(tables=[clocked]))
    state.receive(GameStarted(table="t1", game=0, rules=WireRules(players=2), players=["bea", "ann"]))

    def stood_in() -> bool:
        return state.game is not None and state.game.stood_in

    state.receive(EventMessage(table="t1", event=TimedOutEvent(seat=1, action="pass", timeouts=1)))
    assert not stood_in()
    state.receive(EventMessage(table="t1", event=TimedOutEvent(seat=1, action="pass", timeouts=2)))
    assert stood_in()
    assert "press r to play yourself again" in prompt(state, 0.0, False).plain
    state.sending(Ready(id=5))
    state.receive(Ok(id=5))
    assert not stood_in()


def test_the_lobby_shows_ratings_and_rated_tables() -> None:
    """Ratings from rated tables appear beside the players' names in the lobby."""
    from setback.client.panels import rating_text, table_detail
    from setback.protocol.messages import Clock, SeatInfo, TableInfo, WireRules

    seats = [
        SeatInfo(seat=0, name="ann", kind="human", ready=True, connected=True, rating=1532.4),
        SeatInfo(seat=1, name="heuristic-1", kind="builtin", ready=True, connected=True, rating=None),
    ]
    info = TableInfo(table="t1", name="Friday", rules=WireRules(players=2), clock=Clock(), seats=seats,
                     spectators=0, status="waiting", games_played=0, seeded=False, rated=True)
    shown = table_detail(info).plain
    assert "ann [1532]" in shown and "heuristic-1 (bot)" in shown and "rated" in shown
    assert rating_text(None) == ""
    assert "press n" in table_detail(None).plain
    assert "Not connected" in table_detail(None, online=False).plain, "offline, no invitation to make a table"


def test_other_players_clocks_come_from_the_servers_turn_events() -> None:
    """A `turn` event makes another seat's clock exact (no ~ estimate)."""
    from setback.client.panels import seat_clock
    from setback.protocol.messages import EventMessage, TableUpdate, TurnEvent

    state = ClientState(name="ann")
    state.receive(welcome(["random"]))
    game = Game(Rules(players=2), seed=3)
    seat = game.to_act
    assert seat is not None
    me = 1 - seat
    state.receive(Joined(table="t1", seat=me, token="tok"))
    timed = msgspec.structs.replace(info(players=2), clock=Clock(decision_seconds=30))
    state.receive(TableUpdate(table=timed))
    state.receive(Snapshot(table="t1", view=view_to_wire(game.view(me))))
    assert state.game is not None
    state.receive(EventMessage(table="t1", event=TurnEvent(seat=seat, limit_ms=30_000, remaining_ms=12_000)))
    since = state.game.turn_since
    assert since is not None
    shown = seat_clock(state, seat, since + 2.0)
    assert "~" not in shown and "10" in shown


def test_moving_to_another_table_takes_the_last_tables_lines_out_of_the_log() -> None:
    """Lines written at a table go when the player sits at or watches another; lobby lines and
    the new table's stay, and the screen is told to draw the log anew."""
    state = ClientState(name="ann")
    state.receive(welcome(["random"]))
    state.receive(Spectating(table="t1"))
    state.receive(Chat(sender="bea", text="hello t1", scope="table", table="t1"))
    state.receive(Left(table="t1"))
    epoch = state.log_epoch
    state.receive(Spectating(table="t2"))
    lines = [" ".join(str(part) for part in entry.line) for entry in state.log]
    assert lines == ["Connected to club as ann.", "You are watching table t2."]
    assert state.log_epoch == epoch + 1
    state.receive(Joined(table="t2", seat=1, token="tok"))  # taking the seat back: nothing goes
    assert len(state.log) == 3 and state.log_epoch == epoch + 1


def test_the_top_bar_keeps_the_hand_and_the_connection_as_it_narrows() -> None:
    """Narrower, the top bar shortens the rules, cuts the table's name, then leaves the rules (to
    the keys screen); the hand number and the connection's state stay in every width."""
    rules = WireRules(players=4, teams=2, target=7, forced_dealer_bid=False, smudge=True, no_junk=True)
    table = msgspec.structs.replace(info(), name="The Friday Night Pitch Club", rules=rules)
    state = ClientState(name="ann")
    state.receive(welcome(["random"]))
    state.receive(Tables(tables=[table]))
    state.receive(Joined(table="t1", seat=0, token="tok"))
    state.receive(GameStarted(table="t1", game=0, rules=rules, players=["ann", "bea", "cy", "di"]))
    assert state.game is not None
    state.game.hand_number = 12
    state.connection(Link.RECONNECTING, "reset by peer")
    bar = status_line(state)
    shown = {width: bar.choose(width).plain for width in (140, 110, 100, 60, 45)}
    for width, text in shown.items():
        assert "hand 12" in text and text.endswith("[reconnecting]") and len(text) <= width, width
    assert "4 players · 2 teams · to 7 · dealer may pass · smudge · no junk · 100 hands at most" in shown[140]
    assert shown[110].startswith("The Friday Night Pitch Club · hand 12 · 2 teams · to 7 · dealer may pass · smudge")
    assert shown[100].startswith("The Friday Nigh… · hand 12 · 2 teams · to 7 · dealer may pass · smudge · no junk")
    assert shown[60] == "The Friday Night Pitch Club · hand 12  [reconnecting]"
    assert shown[45] == "The Friday Nigh… · hand 12  [reconnecting]"


def test_a_seeded_table_says_so_on_the_top_bar_at_every_width() -> None:
    """A table whose creator chose the seed (who did can know every deal) is marked
    ``seeded`` beside its rules, and the mark stays when the rules go; an unseeded one is not."""
    rules = WireRules(players=2)
    for seeded in (True, False):
        state = ClientState(name="ann")
        state.receive(welcome(["random"]))
        state.receive(Tables(tables=[msgspec.structs.replace(info(), rules=rules, seeded=seeded)]))
        state.receive(Joined(table="t1", seat=0, token="tok"))
        state.receive(GameStarted(table="t1", game=0, rules=rules, players=["ann", "bea"]))
        bar = status_line(state)
        for width in (140, 40):
            assert ("seeded" in bar.choose(width).plain) is seeded, (seeded, width)
        assert ("cutthroat · to 11 · 100 hands at most · seeded" in bar.choose(140).plain) is seeded


def test_a_table_announces_its_hand_limit() -> None:
    """The hand limit is the project's addition: a table's rules say it, the short form when it
    is not the default."""
    assert rules_text(WireRules()) == "4 players · cutthroat · to 11 · 100 hands at most"
    assert rules_text(WireRules(), brief=True) == "to 11"
    assert rules_text(WireRules(hand_limit=30), brief=True) == "to 11 · 30 hands at most"
    assert rules_text(WireRules(players=2, hand_limit=None)) == "2 players · cutthroat · to 11 · no hand limit"
    assert table_row(info())[1] == "4 players · cutthroat · to 11"  # a lobby row is short: its detail line says it


def test_after_a_game_the_prompt_says_whom_the_next_one_waits_for() -> None:
    state = ClientState(name="p0")
    table = info(players=3)
    table.seats[0].ready = table.seats[1].ready = False
    table.seats[2].kind = "builtin"  # a built-in bot is always ready, whatever it says
    table.seats[2].ready = False
    state.tables, state.table, state.seat = {"t1": table}, "t1", 0
    assert ready_line(state) == "r: play again; waiting for p1 · l: leave"
    table.seats[0].ready = True
    assert ready_line(state) == "You are ready; waiting for p1 · l: leave"
    table.seats[1].ready = True
    assert ready_line(state) == "You are ready · l: leave"


def in_a_game_with_bob() -> tuple[ClientState, TableInfo]:
    """A client at seat 0 of a two-seat table, its game begun against bob; and the table."""
    state = ClientState(name="p0")
    state.receive(welcome(["random"]))
    table = info(players=2)
    state.receive(Tables(tables=[table]))
    state.receive(Joined(table="t1", seat=0, token="tok"))
    state.receive(GameStarted(table="t1", game=0, rules=table.rules, players=["p0", "bob"]))
    return state, table


def test_a_seat_emptied_at_the_end_of_a_game_keeps_its_players_name() -> None:
    """The server frees the seat of a player who went away once the game ends: the summary
    still names who played it, not "seat 1"."""
    state, table = in_a_game_with_bob()
    assert state.game is not None
    state.game.outcome = WireOutcome(winner=0, reason="highest_score", hands_dealt=3, scores=[11, 2])
    table.seats[1] = SeatInfo(seat=1, name=None, kind="empty", ready=False, connected=False)
    state.receive(TableUpdate(table=table))
    assert state.names() == ["p0", "bob"]


def test_the_lobby_says_who_is_away_and_whom_a_bot_stands_in_for() -> None:
    table = info(players=3)
    table.seats[1] = SeatInfo(seat=1, name="dee", kind="human", ready=False, connected=False, replaced_by_bot=True)
    table.seats[2] = SeatInfo(seat=2, name="bob", kind="human", ready=True, connected=False)
    shown = table_detail(table).plain
    assert "2: dee (a bot standing in)" in shown and "3: bob (away)" in shown and "1: p0 ·" in shown  # seats from 1


def test_the_client_knows_whom_it_could_seat_a_bot_for() -> None:
    state = ClientState(name="p0")
    table = info(players=3)
    state.tables, state.table, state.seat = {"t1": table}, "t1", 0
    assert state.away_seat() is None
    table.seats[2] = SeatInfo(seat=2, name="bob", kind="human", ready=True, connected=False)
    assert state.away_seat() == 2
    table.seats[2].replaced_by_bot = True  # a bot already stands in
    assert state.away_seat() is None


def test_the_prompt_says_when_the_table_waits_for_someone_away() -> None:
    state, table = in_a_game_with_bob()
    assert state.game is not None
    state.game.to_act = 1
    assert "Waiting for bob" in prompt(state, 0.0, False).plain
    table.seats[1] = SeatInfo(seat=1, name="bob", kind="human", ready=True, connected=False)
    state.receive(TableUpdate(table=table))
    assert prompt(state, 0.0, False).plain == "bob is away: b seats a bot for them until they are back."
