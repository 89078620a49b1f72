// What the page knows, folded from the server's messages: the model every screen draws
// (the terminal client's ClientState, setback/client/state.py, for the page).
//
// `receive(state, message)` folds one server message in and returns the requests the page
// should send in answer (joining the table it just created, say); `sending(state, request)`
// notes a request going out. Screens only read the state. It keeps only what arrived: this
// seat's own cards, the cards played face up, how many cards each other seat holds; a
// spectator's hand is empty.

import { errorText, rulesText, seatWord } from "./words.js";
import { eventLines, seatChanges } from "./story.js";

export const LOG_LENGTH = 300;
export const PREFERRED_BOTS = ["casual", "heuristic", "random"];

/** A fresh state for a player called `name`; `quick` is a table to create on arrival. */
export function createState(name, quick = null) {
  return {
    name,
    quick,
    link: "connecting", // connecting, online, reconnecting, offline
    server: "",
    bots: [],
    capabilities: [],
    tables: new Map(),
    table: null,
    seat: null,
    spectating: false,
    game: null,
    log: [],
    notice: null,
    invites: new Map(),
    needsPassword: false,
    stopped: null,
    token: null,
    requests: new Map(),
  };
}

// -- reading ------------------------------------------------------------------------------

export const tableInfo = (state) => (state.table === null ? null : state.tables.get(state.table) || null);

/** A name for every seat at this page's table. */
export function names(state) {
  const game = state.game;
  const info = tableInfo(state);
  if (game && game.players.length && (game.outcome === null || info === null)) return game.players;
  if (info) {
    const played = game ? game.players : [];
    return info.seats.map((s) => s.name || played[s.seat] || seatWord(s.seat));
  }
  return game ? [...Array(game.rules.players).keys()].map(seatWord) : [];
}

/** Whether this seat must act and has not answered yet. */
export const myTurn = (state) => Boolean(state.game && state.game.decision && state.game.decision.sent === null);

/** The built-in bot a new table seats: the first of PREFERRED_BOTS the server offers. */
export const preferredBot = (state) => PREFERRED_BOTS.find((b) => state.bots.includes(b)) || state.bots[0] || "random";

// -- writing ------------------------------------------------------------------------------

export function say(state, kind, text) {
  state.log.push({ kind, text, table: state.table });
  if (state.log.length > LOG_LENGTH) state.log.splice(0, state.log.length - LOG_LENGTH);
}

/** The connection changed: `online`, `reconnecting` (with why), `offline` (given up). */
export function connection(state, link, detail = "") {
  if (link === state.link) return;
  state.link = link;
  if (link === "reconnecting") say(state, "error", detail ? `Connection lost (${detail}); reconnecting…` : "Reconnecting…");
  if (link === "offline") {
    state.notice = detail ? `Disconnected: ${detail}` : "Disconnected from the server.";
    say(state, "error", state.notice);
    if (state.game) state.game.decision = null;
  }
}

/** A request is about to go out. */
export function sending(state, message) {
  if (message.id !== undefined) state.requests.set(message.id, message);
  if (message.type === "act" && state.game && state.game.decision) state.game.decision.sent = message.action;
  state.notice = null;
}

/** Fold one server message in; return the requests to send in answer. */
export function receive(state, message, now = performance.now()) {
  const request = message.id === undefined || message.id === null ? undefined : state.requests.get(message.id);
  if (request !== undefined) state.requests.delete(message.id);
  const here = message.table === state.table;
  switch (message.type) {
    case "welcome": return welcomed(state, message);
    case "error": error(state, message, request); break;
    case "ok": ok(state, request); break;
    case "tables": state.tables = new Map(message.tables.map((t) => [t.table, t])); break;
    case "table": return tableUpdate(state, message.table, request);
    case "table_closed": state.tables.delete(message.table); break;
    case "joined":
      state.token = message.token;
      arrive(state, message.table, message.seat);
      return [{ type: "list_tables" }];
    case "spectating":
      state.token = null;
      arrive(state, message.table, null);
      return [{ type: "list_tables" }];
    case "left":
      say(state, "info", `You left table ${message.table}.`);
      Object.assign(state, { table: null, seat: null, spectating: false, game: null, token: null });
      return [{ type: "list_tables" }];
    case "game_started": if (here) gameStarted(state, message); break;
    case "game_over": if (here && state.game) finish(state.game, message.outcome, now); break;
    case "snapshot":
      if (here) {
        const game = takeView(state, message.view, now);
        if (message.players.length === game.rules.players) game.players = [...message.players];
      }
      break;
    case "decide": if (here) decide(state, message, now); break;
    case "event": if (here) event(state, message.event, now); break;
    case "chat": {
      const where = message.scope === "table" ? "" : "(lobby) ";
      state.log.push({ kind: "chat", text: `${where}<${message.sender}> ${message.text}`,
        table: message.scope === "table" ? message.table : null, sender: message.sender, said: message.text });
      if (state.log.length > LOG_LENGTH) state.log.shift();
      break;
    }
    case "goodbye": state.stopped = message.reason || "no reason given"; break;
    case "ping": return [{ type: "pong", nonce: message.nonce }];
    default: break;
  }
  return [];
}

// -- the lobby ------------------------------------------------------------------------------

function welcomed(state, welcome) {
  const first = !state.server;
  Object.assign(state, {
    server: welcome.server, name: welcome.player, bots: [...welcome.bots], capabilities: [...welcome.capabilities],
    link: "online", stopped: null, needsPassword: false,
  });
  state.requests.clear();
  say(state, "info", first ? `Connected to ${welcome.server} as ${welcome.player}.` : "Reconnected.");
  const answer = [{ type: "list_tables" }];
  if (state.spectating && state.table !== null) { // watch again what we watched
    answer.push({ type: "spectate", table: state.table, invite: state.invites.get(state.table) });
    Object.assign(state, { table: null, spectating: false, game: null });
  }
  const plan = state.quick;
  state.quick = null;
  if (plan && plan.join) { // a private table's link: sit there with its code
    state.invites.set(plan.join.table, plan.join.invite);
    answer.push({ type: "join", table: plan.join.table, invite: plan.join.invite, ready: true });
  } else if (plan) {
    const levels = plan.levels || [];
    const bots = levels.length === plan.bots ? levels : Array(plan.bots).fill(levels[0] || preferredBot(state));
    answer.push({
      type: "create_table", name: plan.name, rules: plan.rules, clock: plan.clock, bots,
      spectate: bots.length >= plan.rules.players,
    });
  }
  return answer;
}

function tableUpdate(state, info, request) {
  const before = state.tables.get(info.table);
  state.tables.set(info.table, info);
  if (info.invite) state.invites.set(info.table, info.invite);
  if (info.table === state.table && before) for (const line of seatChanges(before, info, state.seat)) say(state, "info", line);
  if (request && request.type === "create_table" && state.table === null) {
    say(state, "info", `Table ${info.name} created: ${rulesText(info.rules)}${info.rated ? "; rated" : ""}${info.seeded ? "; seeded" : ""}.`);
    if (info.invite) say(state, "info", `It is private: its invite code is ${info.invite}.`);
    if (request.spectate) {
      say(state, "info", "Bots hold every seat: you watch.");
      return [];
    }
    return [{ type: "join", table: info.table, ready: true, invite: info.invite || undefined }];
  }
  return [];
}

function ok(state, request) {
  if (!request) return;
  if (request.type === "ready" && request.ready !== false) {
    if (state.game && state.game.outcome === null) {
      state.game.standIn = false;
      say(state, "info", "You play your seat again from the next decision.");
    } else say(state, "info", "You are ready: the next game starts when every seat is.");
  } else if (request.type === "add_bot") say(state, "info", "A bot took a seat.");
}

function arrive(state, table, seat) {
  if (table !== state.table) {
    state.game = null;
    state.log = state.log.filter((entry) => entry.table === null || entry.table === table);
  }
  Object.assign(state, { table, seat, spectating: seat === null });
  if (state.game) state.game.seat = seat;
  say(state, "info", seat === null ? `You are watching table ${table}.` : `You sit at table ${table}, ${seatWord(seat)}.`);
}

function error(state, message, request) {
  const game = state.game;
  if ((request === undefined || request.type === "act") && game && game.decision) game.decision.sent = null;
  if (message.code === "bad_password") state.needsPassword = true;
  if (message.code === "bad_token") {
    state.token = null;
    if (state.table === null) {
      say(state, "info", "The seat you had here last time is no longer held; you are in the lobby.");
      return;
    }
    Object.assign(state, { table: null, seat: null, spectating: false, game: null });
  }
  state.notice = errorText(message, request);
  say(state, "error", state.notice);
}

// -- the game -------------------------------------------------------------------------------

function newGame(state, rules, players) {
  const seats = rules.players;
  const sides = rules.teams === null ? seats : rules.teams;
  state.game = {
    rules, seat: state.seat, players, number: null, phase: "dealing", handNumber: 0, dealer: null,
    toAct: null, turnSince: null, turnRemainingMs: null, turnLimitMs: null,
    hand: [], handSizes: Array(seats).fill(0), bids: [], pitcher: null, bid: null, trump: null,
    trick: [], winning: null, lastTrick: null, trickDone: false, taken: Array(seats).fill(0), scores: Array(sides).fill(0),
    lastResult: null, results: [], summary: null, outcome: null, decision: null, standIn: false,
  };
  return state.game;
}

function gameStarted(state, started) {
  const game = newGame(state, started.rules, [...started.players]);
  game.number = started.game;
  say(state, "info", `Game ${started.game + 1} begins: ${started.players.join(", ")}; ${rulesText(started.rules)}.`);
}

function ensureGame(state, rules) {
  if (state.game) return state.game;
  const known = names(state);
  const players = known.length === rules.players ? known : [...Array(rules.players).keys()].map(seatWord);
  return newGame(state, rules, players);
}

function turn(game, seat, now) {
  if (seat !== game.toAct) {
    game.toAct = seat;
    game.turnSince = seat === null ? null : now;
    game.turnRemainingMs = null;
    game.turnLimitMs = null;
  }
}

const tricksPlays = (trick, players) =>
  trick.cards.map((card, i) => ({ seat: (trick.leader + i) % players, card }));

/** Everything a view says replaces what was known (after joining, reconnecting, deciding). */
function takeView(state, view, now) {
  const game = ensureGame(state, view.rules);
  Object.assign(game, { rules: view.rules, seat: view.seat, phase: view.phase, handNumber: view.hand_number, dealer: view.dealer });
  turn(game, view.to_act, now);
  game.hand = [...view.hand];
  game.handSizes = [...view.hand_sizes];
  game.bids = view.bids.map((b) => ({ seat: b.seat, bid: b.bid }));
  Object.assign(game, { pitcher: view.pitcher, bid: view.bid, trump: view.trump });
  game.trick = view.trick.map((p) => ({ seat: p.seat, card: p.card }));
  game.winning = view.winning ?? null; // the server names the trick's winner (protocol 1.3)
  game.taken = Array(view.rules.players).fill(0);
  for (const trick of view.tricks) game.taken[trick.winner] += 1;
  const last = view.tricks[view.tricks.length - 1];
  game.lastTrick = last ? { number: last.number, plays: tricksPlays(last, view.rules.players), winner: last.winner } : null;
  game.trickDone = Boolean(last) && game.trick.length === 0;
  game.scores = [...view.scores];
  game.lastResult = view.last_result;
  if (view.last_result && !game.results.some((r) => r.hand_number === view.last_result.hand_number)) {
    game.results.push(view.last_result);
  }
  game.outcome = view.outcome;
  if (view.to_act === null || view.to_act !== view.seat) game.decision = null;
  return game;
}

function forgetActs(state) {
  for (const [id, message] of state.requests) if (message.type === "act") state.requests.delete(id);
}

function decide(state, message, now) {
  forgetActs(state);
  state.notice = null;
  const game = takeView(state, message.view, now);
  game.standIn = false;
  // the hand's summary gives way to this player's turn, to show the bids to beat; but one who
  // bids first has none to see and would never read it: it stays up (the bids are under the felt)
  if (message.view.phase !== "bidding" || message.view.bids.length) game.summary = null;
  game.decision = {
    request: message.request, legal: [...message.view.legal], limitMs: message.clock.limit_ms,
    remainingMs: message.clock.remaining_ms, since: now, sent: null,
  };
}

function finish(game, outcome, now) {
  Object.assign(game, { phase: "game_over", outcome, decision: null, scores: [...outcome.scores] });
  turn(game, null, now);
}

function event(state, ev, now) {
  const game = state.game;
  if (!game) return;
  const seatNames = names(state);
  const highBid = Math.max(0, ...game.bids.map((b) => b.bid || 0));
  for (const line of eventLines(ev, game.rules, seatNames, highBid)) say(state, ev.kind === "hand_scored" ? "summary" : "game", line);
  const players = game.rules.players;
  if (["passed", "bid", "card_played", "timed_out"].includes(ev.kind) && ev.seat === game.seat) {
    game.decision = null;
    forgetActs(state);
  }
  switch (ev.kind) {
    case "dealer_chosen": game.dealer = ev.dealer; break;
    case "hand_dealt":
      Object.assign(game, { phase: "bidding", handNumber: ev.hand_number, dealer: ev.dealer, hand: [...ev.cards] });
      game.handSizes = Array(players).fill(6);
      Object.assign(game, { bids: [], pitcher: null, bid: null, trump: null, trick: [], trickDone: false });
      game.taken = Array(players).fill(0);
      turn(game, (ev.dealer + 1) % players, now);
      break;
    case "passed":
    case "bid":
      game.bids.push({ seat: ev.seat, bid: ev.kind === "bid" ? ev.amount : null });
      turn(game, ev.seat === game.dealer ? null : (ev.seat + 1) % players, now);
      break;
    case "thrown_in":
      game.lastTrick = null;
      turn(game, null, now);
      break;
    case "pitcher_chosen":
      Object.assign(game, { phase: "playing", pitcher: ev.pitcher, bid: ev.bid, lastTrick: null, trickDone: false });
      turn(game, ev.pitcher, now);
      break;
    case "trump_pitched": game.trump = ev.trump; break;
    case "card_played":
      game.summary = null; // a hand's summary stays up until the next hand's first card
      game.trick.push({ seat: ev.seat, card: ev.card });
      game.winning = ev.winning ?? null;
      game.trickDone = false;
      game.handSizes[ev.seat] = Math.max(0, game.handSizes[ev.seat] - 1);
      if (ev.seat === game.seat) game.hand = game.hand.filter((c) => c !== ev.card);
      turn(game, game.trick.length === players ? null : (ev.seat + 1) % players, now);
      break;
    case "trick_won":
      game.lastTrick = { number: ev.number, plays: ev.plays.map((p) => ({ seat: p.seat, card: p.card })), winner: ev.winner };
      game.trick = [];
      game.winning = null;
      game.trickDone = true;
      game.taken[ev.winner] += 1;
      turn(game, game.handSizes.some((n) => n > 0) ? ev.winner : null, now);
      break;
    case "hand_scored":
      game.lastResult = ev.result;
      game.results.push(ev.result);
      game.summary = ev.result;
      game.scores = [...ev.result.scores];
      turn(game, null, now);
      break;
    case "turn":
      turn(game, ev.seat, now);
      game.turnSince = now;
      game.turnRemainingMs = ev.remaining_ms;
      game.turnLimitMs = ev.limit_ms;
      break;
    case "timed_out":
      if (ev.seat === game.seat) {
        const info = tableInfo(state);
        const limit = info ? info.clock.bot_after_timeouts : null;
        game.standIn = limit !== null && ev.timeouts >= limit;
      }
      break;
    case "game_won": finish(game, ev.outcome, now); break;
    default: break;
  }
}
