// The table: the seats around the felt, the trick in front of its players, trump, pitcher
// and bid, the scores, the hand along the bottom, the choices of the seat to act, the
// summary of each hand and the game's end. Drawn from the state alone.

import { byId, el, fill } from "./dom.js";
import { SUITS, face, label, said, sortHand, suitIcon, suitOf, whyNot } from "./cards.js";
import { fillLog } from "./lobby.js";
import { myTurn, names, preferredBot, tableInfo } from "./state.js";
import { lowHolder, outcomeLine, seatsOf, sideCount, sideLabel, sideLetter, sideOf, signed, verdict } from "./story.js";
import { clockFace } from "./words.js";
import { POINT_WORDS, VARIANTS, variantOf, variantText } from "./variants.js";

/** Bind the table's buttons and chat once. */
/** The felt takes the height the table's head leaves (its lines wrap with the rules, a variant's
 * points and "seeded"), so the hand stays in view below it: `--head-h` is the head's height. */
function keepHeadMeasured() {
  const felt = byId("felt");
  const play = felt.parentElement;
  const measure = () => {
    const head = felt.getBoundingClientRect().top - play.getBoundingClientRect().top;
    if (head > 0) play.style.setProperty("--head-h", `${Math.round(head)}px`);
  };
  const watcher = new ResizeObserver(measure);
  for (const part of play.querySelectorAll(".table-head, .score-row")) watcher.observe(part);
}

export function setupTable(actions) {
  keepHeadMeasured();
  byId("leave").addEventListener("click", () => actions.send({ type: "leave" }));
  byId("show-scores").addEventListener("click", () => byId("scores").showModal());
  byId("show-last").addEventListener("click", () => byId("last").showModal());
  for (const button of document.querySelectorAll(".close-dialog")) {
    button.addEventListener("click", () => button.closest("dialog").close());
  }
  byId("table-say").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = byId("table-text");
    if (input.value.trim()) actions.send({ type: "chat", scope: "table", text: input.value });
    input.value = "";
  });
}

const sr = (text) => el("span", { class: "sr" }, text);
const badge = (mark, words, kind) => el("span", { class: `badge badge-${kind}`, title: words }, el("span", { "aria-hidden": "true" }, mark), sr(words));

/** Where seat `seat` sits around the felt: the viewer at the bottom, the next seat (to
 * its left, clockwise) on the left, and so on round. */
function place(game, seat) {
  const players = game.rules.players;
  const bottom = game.seat === null ? 0 : game.seat;
  const angle = Math.PI / 2 + (((seat - bottom + players) % players) * 2 * Math.PI) / players;
  return { x: Math.cos(angle).toFixed(3), y: Math.sin(angle).toFixed(3) };
}

/** What `seat`'s clock shows now, in ms; null when it has none running. */
function clockLeft(game, seat, now) {
  if (seat !== game.toAct) return null;
  if (seat === game.seat && game.decision && game.decision.remainingMs !== null) {
    return game.decision.remainingMs - (now - game.decision.since);
  }
  if (game.turnRemainingMs === null || game.turnSince === null) return null;
  return game.turnRemainingMs - (now - game.turnSince);
}

function bidWords(game, seat) {
  const made = game.bids.find((b) => b.seat === seat);
  if (!made) return game.phase === "bidding" ? "" : null;
  return made.bid === null ? "passed" : `bid ${made.bid}`;
}

/** What a built-in bot's seat was seated by, its level (or the bot's name), said in full on its
 * seat: its name less the seat number ("strong-2": strong), else just "bot". */
function botWord(state, about) {
  const word = (about.name || "").replace(/-\d+$/, "");
  return state.bots.includes(word) ? word : "bot";
}

function seatBox(state, game, info, seat, seatNames, now) {
  const about = info ? info.seats[seat] : null;
  const side = sideOf(game.rules, seat);
  const letter = sideLetter(game.rules, side);
  const toAct = game.toAct === seat && game.phase !== "game_over";
  const left = clockLeft(game, seat, now);
  const away = about && !about.connected && about.kind !== "builtin" && about.kind !== "empty";
  const standIn = about && about.replaced_by_bot;
  const bid = bidWords(game, seat);
  const facts = [
    game.phase === "game_over" ? null : `${game.handSizes[seat]} card${game.handSizes[seat] === 1 ? "" : "s"}`,
    `${game.taken[seat]} trick${game.taken[seat] === 1 ? "" : "s"}`,
  ].filter((f) => f);
  const status = [
    away ? "away" : null, standIn ? "a bot stands in" : null,
  ].filter(Boolean);
  const level = about && about.kind === "builtin" ? botWord(state, about) : null;
  return el("div", {
    class: ["seat", toAct && "to-act", seat === game.seat && "me", away && "away", letter && `side-${letter}`],
    vars: place(game, seat), role: "group",
    "aria-label": `${seatNames[seat]}${seat === game.seat ? " (you)" : ""}${letter ? `, side ${letter}` : ""}`,
    data: { seat },
  },
  el("div", { class: "seat-name" },
    letter ? el("span", { class: `side side-${letter}`, title: `side ${letter}`, "aria-hidden": "true" }, letter) : null,
    el("span", { class: "name", text: seatNames[seat] }),
    about && about.rating !== null && about.rating !== undefined ? el("span", { class: "rating", title: "rating" }, Math.round(about.rating)) : null),
  el("div", { class: "marks" },
    game.dealer === seat ? badge("D", "dealer", "dealer") : null,
    game.pitcher === seat ? badge("P", `pitcher, bid ${game.bid}`, "pitcher") : null,
    toAct ? badge("▶", "to act", "turn") : null,
    bid ? el("span", { class: "bid-word" }, bid) : null,
    status.map((s) => el("span", { class: "status-word" }, s)),
    level ? el("span", { class: "status-word level-word", title: `a built-in bot: ${level}` }, sr("bot, "), level) : null),
  el("div", { class: "seat-facts" }, facts.join(" · ")),
  left !== null ? el("div", { class: ["clock", left < 10000 && "low"], role: "timer", "aria-label": `clock ${clockFace(left)}` },
    `⏱ ${clockFace(left)}`) : null);
}

function trickCards(game, seatNames) {
  const shown = game.trick.length ? game.trick : game.trickDone && game.lastTrick ? game.lastTrick.plays : [];
  if (!shown.length) return [];
  const done = !game.trick.length;
  const leader = done ? game.lastTrick.winner : game.winning;
  return shown.map((play) => {
    const best = play.seat === leader;
    const words = `${seatNames[play.seat]} played ${said(play.card)}${best ? (done ? ", took the trick" : ", winning so far") : ""}`;
    return el("div", { class: ["played", best && "winning", done && "done"], vars: place(game, play.seat), "aria-label": words, role: "img" },
      face(play.card, "div", {}, game.trump, variantOf(game.rules)),
      best ? el("span", { class: "win-mark", "aria-hidden": "true" }, done ? "★ took it" : "★ winning") : null);
  });
}

/** A side in few words: its letter at a partnership table, else its player's name. */
const sideShort = (rules, side, seatNames) => sideLetter(rules, side) || seatNames[side];

/** A seat and, at a partnership table, its side: "ann (B)". */
function seatAndSide(rules, seat, seatNames) {
  const letter = sideLetter(rules, sideOf(rules, seat));
  return letter ? `${seatNames[seat]} (${letter})` : seatNames[seat];
}

/** Who Low went to: "dealt to ann", or with `low` captured "captured by bob, dealt to ann". */
function lowLine(rules, result, seatNames) {
  const dealt = `dealt to ${seatAndSide(rules, result.low, seatNames)}`;
  if (rules.low !== "captured") return dealt;
  const holder = lowHolder(rules, result);
  return `captured by ${seatAndSide(rules, holder, seatNames)}${holder === result.low ? "" : `, ${dealt}`}`;
}

/** Why a point in play went to nobody: its card was not dealt, Game was a tie, no natural trump was dealt. */
const NOBODY = { high: "nobody (no natural trump dealt)", low: "nobody (no natural trump dealt)", game: "nobody (a tie)" };

/** Who took `award` (a result's `awards`): dealt to a seat (High; Low unless captured), captured
 * (Low with `low` captured), taken in a trick (a card point), or the side with the most pips (Game). */
function awardWho(rules, result, award, seatNames) {
  if (award.seat === null) return sideLabel(rules, award.side, seatNames);
  if (award.point === "high") return `dealt to ${seatAndSide(rules, award.seat, seatNames)}`;
  if (award.point === "low") return lowLine(rules, result, seatNames);
  return `taken by ${seatAndSide(rules, award.seat, seatNames)}`;
}

/** Every point in play at the table's variant with who took it (a result's `awards`; from a
 * peer before 1.4, which sends none, High, Low, Jack and Game from the result's fields). */
function awardsOf(result) {
  if (result.awards && result.awards.length) return result.awards;
  return [
    result.high !== null ? { point: "high", value: 1, seat: result.high, card: result.high_card } : null,
    result.low !== null ? { point: "low", value: 1, seat: result.low, card: result.low_card } : null,
    result.jack !== null ? { point: "jack", value: 1, seat: result.jack, card: `J${result.trump}` } : null,
    result.game !== null ? { point: "game", value: 1, side: result.game, seat: null, card: null } : null,
  ].filter(Boolean);
}

/** A hand's result told whole: the verdict, then every point in play at the table's variant
 * (High, Low, Jack, Game and the variant's card points) with the card and who took it (the
 * club options too: a stolen bid, Low to its captor), each side's pips, points, change and
 * score (the hand summary's, and the replay's). */
export function handPoints(rules, result, seatNames) {
  const sides = [...Array(sideCount(rules)).keys()];
  const pitcherSide = sideOf(rules, result.pitcher);
  const line = (point, what, card, holder) => el("tr", { data: { point } }, el("th", { scope: "row" }, what), el("td", {},
    card ? el("span", { class: "card-text" }, label(card), " ") : null, holder));
  const won = result.points[pitcherSide];
  const awards = awardsOf(result);
  const rows = VARIANTS[variantOf(rules)].points.flatMap((point) => {
    const taken = awards.filter((a) => a.point === point);
    if (!taken.length) return [line(point, POINT_WORDS[point], null, NOBODY[point] || "not dealt")];
    return taken.map((a) => line(point, `${POINT_WORDS[point]}${a.value > 1 ? ` (${a.value})` : ""}`, a.card, awardWho(rules, result, a, seatNames)));
  });
  return [
    el("h3", {}, verdict(result, seatNames)),
    el("p", { class: ["verdict", result.set_back ? "set-back" : "made"] }, result.set_back
      ? `Set back: ${sideLabel(rules, pitcherSide, seatNames)} took ${won} of the ${result.bid} bid, and loses ${result.bid}.`
      : `Made: ${sideLabel(rules, pitcherSide, seatNames)} took ${won} point${won === 1 ? "" : "s"} for a bid of ${result.bid}.`),
    el("table", { class: "points" }, el("tbody", {}, rows)),
    el("table", { class: "pips" },
      el("thead", {}, el("tr", {}, el("th", {}, "Side"), el("th", {}, "Pips"), el("th", {}, "Points"), el("th", {}, "Change"), el("th", {}, "Score"))),
      el("tbody", {}, sides.map((s) => el("tr", {},
        el("th", { scope: "row", text: sideShort(rules, s, seatNames) }), el("td", {}, result.game_pips[s]), el("td", {}, result.points[s]),
        el("td", { class: result.deltas[s] < 0 ? "minus" : "" }, signed(result.deltas[s])), el("td", {}, result.scores[s]))))),
  ];
}

function summaryPanel(state, game, result, seatNames, actions) {
  return el("section", { class: ["panel", "summary", result.set_back && "set-back"], "aria-label": `Hand ${result.hand_number} summary`, role: "dialog" },
    handPoints(game.rules, result, seatNames),
    el("div", { class: "row end" }, el("button", { type: "button", class: "primary", on: { click: () => actions.dismissSummary() } }, "OK")));
}

/** The game's end, told under the felt (the last trick stays in view); its one button,
 * "Play again", is the action bar's. */
function outcomeNote(game, seatNames) {
  return el("section", { class: "outcome", "aria-label": "The game is over" },
    el("h3", {}, `${sideLabel(game.rules, game.outcome.winner, seatNames)} ${seatsOf(game.rules, game.outcome.winner).length > 1 ? "win" : "wins"}!`),
    el("p", {}, outcomeLine(game.outcome, game.rules, seatNames)));
}

/** A private table's invite code, while it has a free seat: the code, and a link that seats
 * whoever opens it (the code in the address's fragment, never sent to a server). */
function inviteNote(state, info, actions) {
  const code = info.invite || state.invites.get(info.table);
  if (!info.private || !code || !info.seats.some((s) => s.kind === "empty")) return null;
  const link = `${location.origin}/#table=${encodeURIComponent(info.table)}&invite=${encodeURIComponent(code)}`;
  const field = el("input", { class: "invite-link", readonly: true, value: link, "aria-label": "A link that seats a guest here" });
  const copy = () => {
    field.select();
    const done = () => actions.tell("The link is copied: send it to whoever you invite.");
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(link).then(done, () => {});
    else if (document.execCommand("copy")) done();
  };
  return el("div", { class: "invite" },
    el("p", {}, "Private table: its invite code is ", el("b", { class: "invite-code", text: code }), "."),
    field, el("button", { type: "button", on: { click: copy } }, "Copy the link"));
}

/** At a table whose creator chose the seed, a mark saying so: whoever chose it can know every deal. */
function seededMark(info) {
  return info && info.seeded ? el("span", { class: "fact seeded" }, "Seeded: its creator can know the deals") : null;
}

function facts(game, seatNames) {
  const parts = [];
  if (game.trump) parts.push(el("span", { class: "fact trump" }, "Trump ", suitIcon(game.trump), el("b", {}, SUITS[game.trump].name)));
  else parts.push(el("span", { class: "fact" }, game.phase === "bidding" ? "Bidding" : "Trump: not yet"));
  if (game.pitcher !== null) parts.push(el("span", { class: "fact" }, "Pitcher ", el("b", { text: seatNames[game.pitcher] }), ` bid ${game.bid}`));
  if (game.handNumber) parts.push(el("span", { class: "fact" }, `Hand ${game.handNumber}`));
  if (game.dealer !== null) parts.push(el("span", { class: "fact" }, "Dealer ", el("b", { text: seatNames[game.dealer] })));
  if (variantOf(game.rules) !== "standard") parts.push(el("span", { class: "fact variant" }, variantText(game.rules)));
  return parts;
}

function scoreline(game, seatNames) {
  const sides = [...Array(sideCount(game.rules)).keys()];
  return [el("span", { class: "muted" }, `to ${game.rules.target}: `), ...sides.map((s) => {
    const letter = sideLetter(game.rules, s);
    const mine = game.seat !== null && sideOf(game.rules, game.seat) === s;
    return el("span", { class: ["score", mine && "mine"], data: { side: s } },
      letter ? el("span", { class: `side side-${letter}`, "aria-hidden": "true" }, letter) : null,
      el("span", { class: "score-name", text: letter ? seatsOf(game.rules, s).map((x) => seatNames[x]).join(" & ") : seatNames[s] }),
      el("b", { class: "score-value" }, ` ${game.scores[s]}`));
  })];
}

/** The scores hand by hand of `game` (its rules and results so far); at a variant's table with
 * `points`, a column naming the card points each hand gave beyond High, Low, Jack and Game. */
export function historyTable(game, seatNames, points = true) {
  if (!game.results.length) return el("p", { class: "muted" }, "No hand has been scored yet.");
  const rules = game.rules;
  const sides = [...Array(sideCount(rules)).keys()];
  const who = (seat) => (seat === null ? "–" : sideShort(rules, sideOf(rules, seat), seatNames));
  const variant = points && variantOf(rules) !== "standard";
  const more = (r) => awardsOf(r).filter((a) => !["high", "low", "jack", "game"].includes(a.point))
    .map((a) => `${POINT_WORDS[a.point]}${a.value > 1 ? ` (${a.value})` : ""} ${who(a.seat)}`).join(" · ") || "–";
  return el("table", { class: "history" },
    el("thead", {}, el("tr", {}, el("th", {}, "Hand"), el("th", {}, "Pitcher"), el("th", {}, "High"), el("th", {}, "Low"),
      el("th", {}, "Jack"), el("th", {}, "Game"), variant ? el("th", {}, "Points") : null,
      sides.map((s) => el("th", { title: sideLabel(rules, s, seatNames), text: sideShort(rules, s, seatNames) })))),
    el("tbody", {}, game.results.map((r) => el("tr", { class: r.set_back ? "set-back" : "" },
      el("td", {}, r.hand_number),
      el("td", {}, `${seatNames[r.pitcher]} ${r.bid}${r.set_back ? " (set back)" : ""} `, suitIcon(r.trump), el("span", { class: "sr" }, SUITS[r.trump].name)),
      el("td", {}, who(r.high)), el("td", {}, who(lowHolder(rules, r))), el("td", {}, who(r.jack)),
      el("td", {}, r.game === null ? "–" : sideShort(rules, r.game, seatNames)),
      variant ? el("td", { class: "more-points" }, more(r)) : null,
      sides.map((s) => el("td", {}, `${r.scores[s]} (${signed(r.deltas[s])})`))))));
}

function lastTrickBody(game, seatNames) {
  const last = game.lastTrick;
  if (!last) return el("p", { class: "muted" }, "No trick has been played this hand.");
  return el("div", {},
    el("p", {}, `Trick ${last.number}, taken by `, el("b", { text: seatNames[last.winner] }), "."),
    el("ol", { class: "trick-list" }, last.plays.map((p) => el("li", { class: p.seat === last.winner ? "winning" : "" },
      face(p.card, "div", { "aria-hidden": "true" }, game.trump, variantOf(game.rules)), el("span", {}, el("b", { text: seatNames[p.seat] }), ` ${said(p.card)}${p.seat === last.winner ? " ★" : ""}`)))));
}

function bidButton(game, action, actions) {
  if (action === "pass") return el("button", { type: "button", class: "bid", data: { action }, on: { click: () => actions.act(action) } }, "Pass");
  const amount = Number(action.split(" ")[1]);
  const high = Math.max(0, ...game.bids.map((b) => b.bid || 0));
  const text = amount === high && game.dealer === game.seat ? `Take it at ${amount}` : `Bid ${amount}`;
  return el("button", { type: "button", class: "bid primary", data: { action }, on: { click: () => actions.act(action) } }, text);
}

function actionBar(state, game, info, seatNames, actions) {
  const parts = [];
  const decision = game.decision;
  const free = info ? info.seats.filter((s) => s.kind === "empty") : [];
  const away = info ? info.seats.filter((s) => s.kind !== "builtin" && s.kind !== "empty" && !s.connected && !s.replaced_by_bot) : [];
  if (game.outcome) parts.push(outcomeNote(game, seatNames));
  if (info && game.seat !== null) parts.push(inviteNote(state, info, actions));
  if (state.spectating) parts.push(el("p", { class: "muted" }, "You are watching: the players' hands are hidden."));
  if (game.standIn && game.outcome === null) {
    parts.push(el("p", {}, "A bot plays your seat: your time ran out too often."),
      el("button", { type: "button", class: "primary", on: { click: () => actions.send({ type: "ready" }) } }, "Play my seat again"));
  } else if (myTurn(state) && decision.legal.some((a) => !a.startsWith("play "))) {
    parts.push(el("p", { class: "prompt" }, "Your bid:"), el("div", { class: "bids" }, decision.legal.map((a) => bidButton(game, a, actions))));
  } else if (myTurn(state)) {
    const led = game.trick.length ? SUITS[suitOf(game.trick[0].card, game.trump, variantOf(game.rules))] : null;
    const free = decision.legal.filter((a) => a.startsWith("play ")).length === game.hand.length;
    const rule = !led ? "" : free ? " You may play any card." : led === SUITS[game.trump] ? " Play trump." : ` Play ${led.name} or trump.`;
    parts.push(el("p", { class: "prompt" }, !led ? (game.trump ? "Your lead." : "Your lead: its suit is trump.") : `Your turn: ${led.name} were led.${rule}`));
  } else if (decision && decision.sent) {
    parts.push(el("p", { class: "muted" }, "Sent…"));
  } else if (game.phase !== "game_over" && game.toAct !== null && game.phase !== "dealing") {
    parts.push(el("p", { class: "muted" }, "Waiting for ", el("b", { text: seatNames[game.toAct] }), "…"));
  }
  if (game.seat !== null && info && (info.status === "waiting" || info.status === "finished")) {
    const mine = info.seats[game.seat];
    if (free.length) parts.push(el("p", { class: "muted" }, `${free.length} seat${free.length === 1 ? "" : "s"} free.`),
      el("button", { type: "button", on: { click: () => actions.send({ type: "add_bot", bot: preferredBot(state) }) } }, "Add a bot"));
    if (mine && !mine.ready) {
      parts.push(el("button", { type: "button", class: "primary", on: { click: () => actions.send({ type: "ready" }) } },
        game.outcome ? "Play again" : "Ready"));
    }
    else if (info.status === "waiting" && mine) parts.push(el("span", { class: "muted" }, "You are ready."));
  }
  if (game.seat !== null && game.phase !== "game_over" && away.length && info.status === "playing") {
    for (const seat of away) {
      parts.push(el("button", { type: "button", on: { click: () => actions.send({ type: "add_bot", bot: preferredBot(state), seat: seat.seat }) } },
        `A bot for ${seat.name} until they are back`));
    }
  }
  return parts;
}

function handCards(state, game, chosen, actions) {
  const variant = variantOf(game.rules);
  const cards = sortHand(game.hand, game.trump, variant);
  const playable = new Set(game.decision ? game.decision.legal.filter((a) => a.startsWith("play ")).map((a) => a.slice(5)) : []);
  const turn = myTurn(state) && playable.size > 0;
  return cards.map((card, i) => {
    const ok = turn && playable.has(card);
    const why = ok ? null : game.phase === "bidding" ? "the bidding comes first" : "cannot be played now";
    const trump = game.trump && suitOf(card, game.trump, variant) === game.trump;
    return face(card, "button", {
      type: "button",
      class: [ok ? "playable" : "blocked", i === chosen && "chosen"],
      "aria-disabled": ok ? null : "true",
      "aria-label": `${said(card)}${trump ? ", trump" : ""}${ok ? "" : `, ${why}`}`,
      title: ok ? `Play ${label(card)} (key ${i + 1})` : null,
      on: { click: () => (ok ? actions.act(`play ${card}`) : actions.tell(turn ? whyNot(card, game.trick, game.trump, true, variant) : game.phase === "bidding" && myTurn(state) ? "Bid first: cards are played once the bidding is over." : whyNot(card, game.trick, game.trump, false, variant))) },
    }, game.trump, variant);
  });
}

/** The hand in the order it is shown (the keys 1-6 count along it). */
export const shownHand = (game) => sortHand(game.hand, game.trump, variantOf(game.rules));

/** Draw the table screen. */
export function drawTable(state, actions, ui, now) {
  const game = state.game;
  const info = tableInfo(state);
  const seatNames = names(state);
  byId("table-title").textContent = `${info ? info.name : state.table}${state.spectating ? " (watching)" : ""}`;
  fillLog(byId("table-log"), state.log.filter((e) => e.table === state.table).slice(-120));
  byId("show-last").disabled = !(game && game.lastTrick);
  if (!game) {
    const seats = info ? info.seats : [];
    fill(byId("facts"), el("span", { class: "fact" }, info && info.status === "waiting" ? "Waiting for players" : "Waiting for the game"),
      seededMark(info));
    fill(byId("scoreline"));
    fill(byId("felt"), el("div", { class: "felt-note" },
      el("p", {}, `${seats.filter((s) => s.kind !== "empty").length} of ${seats.length} seats taken.`),
      el("ul", { class: "seat-lines" }, seats.map((s) => el("li", {}, `Seat ${s.seat + 1}: `, el("b", { text: s.name || "free" }), s.ready ? " · ready" : "")))));
    const waitingGame = { rules: info ? info.rules : { players: 0, teams: null }, seat: state.seat, phase: "dealing", decision: null, standIn: false, outcome: null, toAct: null, bids: [], trick: [] };
    fill(byId("actions"), info ? actionBar(state, waitingGame, info, seatNames, actions) : []);
    fill(byId("hand"));
    fill(byId("scores-body"), el("p", { class: "muted" }, "No hand has been scored yet."));
    fill(byId("last-body"), el("p", { class: "muted" }, "No trick has been played yet."));
    return;
  }
  fill(byId("facts"), facts(game, seatNames), seededMark(info));
  fill(byId("scoreline"), scoreline(game, seatNames));
  const seats = [...Array(game.rules.players).keys()].map((s) => seatBox(state, game, info, s, seatNames, now));
  const centre = [];
  if (game.summary && !game.outcome) centre.push(summaryPanel(state, game, game.summary, seatNames, actions));
  else if (game.trickDone && game.lastTrick && !game.trick.length) {
    centre.push(el("p", { class: "trick-note" }, el("b", { text: seatNames[game.lastTrick.winner] }), ` takes trick ${game.lastTrick.number}`));
  }
  fill(byId("felt"), el("div", { class: ["ring", `players-${game.rules.players}`] }, seats, trickCards(game, seatNames)), centre);
  fill(byId("actions"), actionBar(state, game, info, seatNames, actions));
  fill(byId("hand"), state.spectating ? [] : handCards(state, game, ui.chosen, actions));
  fill(byId("scores-body"), el("div", { class: "scoreline" }, scoreline(game, seatNames)), historyTable(game, seatNames));
  fill(byId("last-body"), lastTrickBody(game, seatNames));
}
