// The replay of a finished game: hand by hand and trick by trick (buttons and arrow keys),
// every hand face up (the game is over), the bids, the pitch, each trick and its winner,
// the hand's points and the running score. The address names the game and the moment
// (`/replay?game=12&hand=3&trick=2`), so a link to it can be shared on the LAN.

import { byId, el, fill } from "./dom.js";
import { SUITS, face, label, sortHand, suitIcon } from "./cards.js";
import { scoreChart } from "./chart.js";
import { records, sideNames } from "./records.js";
import { outcomeLine, sideLetter, sideOf } from "./story.js";
import { handPoints, historyTable } from "./table.js";
import { rulesText } from "./words.js";
import { variantOf, variantText } from "./variants.js";

const asked = new URLSearchParams(location.search);
const view = { record: null, steps: [], at: 0 };

/** Every moment of the game in order: each hand's deal and bidding (trick 0), after each of
 * its tricks (1 to 6), and its score (trick 7: `scored`). */
function stepsOf(record) {
  const steps = [];
  record.hands.forEach((hand, h) => {
    steps.push({ hand: h, trick: 0 });
    hand.tricks.forEach((_, t) => steps.push({ hand: h, trick: t + 1 }));
    if (hand.result) steps.push({ hand: h, trick: hand.tricks.length + 1, scored: true });
  });
  return steps;
}

const playsOf = (trick, players) => trick.cards.map((card, i) => ({ seat: (trick.leader + i) % players, card }));

/** The hand's bids in order: a dealer's bid equal to the highest so far is the dealer's steal. */
function bidsLine(hand, players) {
  let high = 0;
  return hand.bids.map((b) => {
    const word = b.bid === null ? "passes" : b.seat === hand.dealer && b.bid === high ? `takes the bid at ${b.bid}` : `bids ${b.bid}`;
    if (b.bid !== null) high = Math.max(high, b.bid);
    return el("li", { data: { seat: b.seat } }, el("b", { text: players[b.seat] }), ` ${word}`);
  });
}

function seatRow(record, hand, step, seat) {
  const rules = record.rules;
  const players = record.players;
  const played = new Set(step.scored ? [] : hand.tricks.slice(0, step.trick).flatMap((t) => t.cards));
  const trump = hand.result ? hand.result.trump : null;
  const variant = variantOf(rules);
  const dealt = sortHand(hand.deal[seat], trump, variant);
  const letter = sideLetter(rules, sideOf(rules, seat));
  const taken = hand.tricks.slice(0, step.trick).filter((t) => t.winner === seat).length;
  const made = hand.bids.find((b) => b.seat === seat);
  const pitcher = hand.result && hand.result.pitcher === seat;
  return el("li", { class: ["replay-seat", pitcher && "pitcher"], data: { seat } },
    el("div", { class: "seat-name" },
      letter ? el("span", { class: `side side-${letter}`, "aria-hidden": "true" }, letter) : null,
      el("span", { class: "name", text: players[seat] }),
      hand.dealer === seat ? el("span", { class: "badge badge-dealer", title: "dealer" }, "D") : null,
      pitcher ? el("span", { class: "badge badge-pitcher", title: "pitcher" }, "P") : null,
      el("span", { class: "muted" }, ` ${made ? (made.bid === null ? "passed" : `bid ${made.bid}`) : ""} · ${taken} trick${taken === 1 ? "" : "s"}`)),
    el("div", { class: "replay-cards", "aria-label": `${players[seat]}'s cards` },
      dealt.map((card) => face(card, "div", { class: played.has(card) ? "gone" : "held", title: played.has(card) ? `${label(card)}: played` : label(card) }, trump, variant))));
}

function trickView(record, hand, step) {
  const players = record.players;
  if (step.trick === 0) {
    const result = hand.result;
    if (hand.thrown_in) return el("p", { class: "replay-trick-note" }, "Everyone passed: the hand is thrown in, no score changes.");
    return el("p", { class: "replay-trick-note" }, result
      ? [el("b", { text: players[result.pitcher] }), ` pitches for ${result.bid}${result.stolen ? " (the dealer's steal)" : ""}: trump is `, suitIcon(result.trump), ` ${SUITS[result.trump].name}.`]
      : "The bidding.");
  }
  if (step.scored) return el("p", { class: "replay-trick-note" }, "The hand is scored.");
  const trick = hand.tricks[step.trick - 1];
  return el("div", { class: "replay-trick", data: { trick: step.trick, winner: trick.winner } },
    el("h3", {}, `Trick ${step.trick} of ${hand.tricks.length}: `, el("b", { text: players[trick.winner] }), " takes it"),
    el("ol", { class: "trick-cards" }, playsOf(trick, record.rules.players).map((p) => el("li", { class: p.seat === trick.winner ? "winning" : "", data: { seat: p.seat } },
      face(p.card, "div", {}, hand.result ? hand.result.trump : null, variantOf(record.rules)), el("span", { class: "who", text: players[p.seat] }), p.seat === trick.winner ? el("span", { class: "win-mark" }, "★ took it") : null))));
}

function where(step, record) {
  const hand = record.hands[step.hand];
  const what = step.trick === 0 ? "deal and bids" : step.scored ? "scored" : `trick ${step.trick} of ${hand.tricks.length}`;
  return `Hand ${hand.number} of ${record.hands.length} · ${what}`;
}

function draw() {
  const record = view.record;
  const step = view.steps[view.at];
  const hand = record.hands[step.hand];
  const players = record.players;
  const rules = record.rules;
  byId("replay-where").textContent = where(step, record);
  byId("prev-trick").disabled = byId("prev-hand").disabled = view.at === 0;
  byId("next-trick").disabled = byId("next-hand").disabled = view.at === view.steps.length - 1;
  fill(byId("replay-board"),
    el("h3", { class: "replay-hand-title" }, `Hand ${hand.number}: `, el("b", { text: players[hand.dealer] }), " deals",
      hand.result ? [" · ", el("b", { text: players[hand.result.pitcher] }), ` pitches for ${hand.result.bid} · trump `,
        suitIcon(hand.result.trump), ` ${SUITS[hand.result.trump].name}`] : hand.thrown_in ? " · thrown in" : null),
    el("ol", { class: "replay-bids", "aria-label": "The bids" }, bidsLine(hand, players)),
    trickView(record, hand, step),
    step.scored && hand.result ? el("section", { id: "replay-points", class: "replay-points summary", "aria-label": "The hand's points" },
      handPoints(rules, hand.result, players)) : null,
    el("ul", { class: "replay-seats" }, [...Array(rules.players).keys()].map((seat) => seatRow(record, hand, step, seat))));
  const scored = record.hands.slice(0, step.hand + (step.scored ? 1 : 0)).map((h) => h.result).filter(Boolean);
  fill(byId("replay-chart"), scoreChart(scored.map((r) => r.scores), sideNames(rules, players), rules.target, scored.length));
  fill(byId("replay-running"), historyTable({ rules, results: scored }, players, false)); // the hand's own summary names its points
  const address = new URL(location.href);
  address.search = `?game=${record.server.game_id}&hand=${hand.number}&trick=${step.trick}`;
  history.replaceState(null, "", address.pathname + address.search);
  byId("share-link").value = address.href;
}

function go(at) {
  view.at = Math.max(0, Math.min(view.steps.length - 1, at));
  draw();
}

/** The first step of the next (`+1`) or this or the previous (`-1`) hand. */
function handStep(direction) {
  const now = view.steps[view.at];
  if (direction > 0) {
    const next = view.steps.findIndex((s) => s.hand > now.hand);
    return next < 0 ? view.steps.length - 1 : next;
  }
  const target = now.trick === 0 ? now.hand - 1 : now.hand;
  return Math.max(0, view.steps.findIndex((s) => s.hand === Math.max(0, target)));
}

function bind() {
  byId("prev-trick").addEventListener("click", () => go(view.at - 1));
  byId("next-trick").addEventListener("click", () => go(view.at + 1));
  byId("prev-hand").addEventListener("click", () => go(handStep(-1)));
  byId("next-hand").addEventListener("click", () => go(handStep(1)));
  byId("copy-link").addEventListener("click", () => {
    const input = byId("share-link");
    input.select();
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(input.value).catch(() => {});
    else document.execCommand("copy");
  });
  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || event.target instanceof HTMLInputElement) return;
    const moves = { ArrowLeft: view.at - 1, ArrowRight: view.at + 1, ArrowUp: handStep(-1), ArrowDown: handStep(1),
      PageUp: handStep(-1), PageDown: handStep(1), Home: 0, End: view.steps.length - 1 };
    if (!(event.key in moves)) return;
    event.preventDefault();
    go(moves[event.key]);
  });
}

async function load() {
  const game = asked.get("game");
  if (!game || !/^[0-9]+$/.test(game)) {
    byId("replay-note").textContent = "Which game? Open a replay from the evening page.";
    return;
  }
  try {
    view.record = await records(`/api/games/${game}`);
  } catch (error) {
    byId("replay-note").textContent = `No replay: ${error.message}.`;
    return;
  }
  const record = view.record;
  view.steps = stepsOf(record);
  const hand = Number(asked.get("hand"));
  const trick = Number(asked.get("trick") || 0);
  const start = view.steps.findIndex((s) => record.hands[s.hand].number === hand && s.trick === trick);
  view.at = start < 0 ? 0 : start;
  document.title = `Replay of game ${record.server.game_id} · Setback`;
  byId("replay-title").textContent = `Game ${record.server.game_id} at table ${record.server.table}`;
  fill(byId("replay-players"), record.players.map((name, seat) => {
    const letter = sideLetter(record.rules, sideOf(record.rules, seat));
    return el("span", { class: "player" }, letter ? el("span", { class: `side side-${letter}`, "aria-hidden": "true" }, letter) : null, el("span", { class: "name", text: name }));
  }));
  byId("replay-rules").textContent = variantOf(record.rules) === "standard" ? rulesText(record.rules)
    : `${rulesText(record.rules)} · ${variantText(record.rules)}`;
  byId("replay-outcome").textContent = outcomeLine(record.outcome, record.rules, record.players);
  byId("replay-note").hidden = true;
  byId("replay").hidden = false;
  bind();
  draw();
  document.body.dataset.loaded = "true";
}

load();
