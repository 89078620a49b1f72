// The game told in words: sides, the log's lines for events, a hand's result, the outcome
// (the terminal client's setback/telling/story.py, for the page).

import { SUITS, label } from "./cards.js";
import { REASONS, seatWord } from "./words.js";

const LETTERS = "ABCDEFG";

/** The side `seat` scores for (spec.md section 3). */
export const sideOf = (rules, seat) => (rules.teams === null ? seat : seat % rules.teams);
export const sideCount = (rules) => (rules.teams === null ? rules.players : rules.teams);
export const seatsOf = (rules, side) => [...Array(rules.players).keys()].filter((s) => sideOf(rules, s) === side);

/** A side's letter at a partnership table (A, B, ...); null when every player is a side. */
export const sideLetter = (rules, side) => (rules.teams === null ? null : LETTERS[side]);

/** The names of the seats on `side`, joined with `&`. */
export const sideName = (rules, side, names) => seatsOf(rules, side).map((s) => names[s]).join(" & ");

/** A side as a person reads it on the page: "A (ann & cy)" or "ann". */
export function sideLabel(rules, side, names) {
  const letter = sideLetter(rules, side);
  return letter ? `${letter} (${sideName(rules, side, names)})` : sideName(rules, side, names);
}

const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "±0");
export { signed };

/** The verdict of a hand: made, or set back (the bid, or the dealer's steal). */
export function verdict(result, names) {
  const pitcher = names[result.pitcher];
  const how = result.stolen ? `, the dealer, took the bid at ${result.bid}` : ` bid ${result.bid}`;
  return result.set_back
    ? `Hand ${result.hand_number}: ${pitcher}${how} and was set back ${result.bid}.`
    : `Hand ${result.hand_number}: ${pitcher}${how} and made it.`;
}

/** The seat whose side took Low: its captor with `low` captured, else the seat dealt it. */
export const lowHolder = (rules, result) =>
  rules.low === "captured" && result.low_captured_by !== undefined && result.low_captured_by !== null
    ? result.low_captured_by : result.low;

export function outcomeLine(outcome, rules, names) {
  const winners = sideName(rules, outcome.winner, names);
  const verb = seatsOf(rules, outcome.winner).length === 1 ? "wins" : "win";
  const scores = [...outcome.scores].sort((a, b) => b - a).join(" to ");
  const why = REASONS[outcome.reason] || outcome.reason.replaceAll("_", " ");
  const hands = `${outcome.hands_dealt} hand${outcome.hands_dealt === 1 ? "" : "s"}`;
  return `${winners} ${verb} the game, ${scores}, after ${hands} (${why}).`;
}

const plays = (list, names) => list.map((p) => `${names[p.seat]} ${label(p.card)}`).join(" · ");

/** The log's lines for one event (none for a single card: tricks are told whole); `highBid`
 * is the hand's highest bid before it, so that a dealer's bid equal to it is told as a steal. */
export function eventLines(event, rules, names, highBid = 0) {
  switch (event.kind) {
    case "cards_drawn": return [`Draw for the deal: ${plays(event.draws, names)}`];
    case "dealer_chosen": return [`${names[event.dealer]} deals first.`];
    case "hand_dealt": return [`Hand ${event.hand_number}: ${names[event.dealer]} deals.`];
    case "passed": return [`${names[event.seat]} passes.`];
    case "bid": return [event.amount === highBid
      ? `${names[event.seat]}, the dealer, takes the bid at ${event.amount}.`
      : `${names[event.seat]} bids ${event.amount}.`];
    case "thrown_in": return [`Everyone passed: hand ${event.hand_number} is thrown in.`];
    case "pitcher_chosen": return [`${names[event.pitcher]} pitches for ${event.bid}.`];
    case "trump_pitched": return [`Trump is ${SUITS[event.trump].name} (${SUITS[event.trump].symbol}), led by ${names[event.seat]}.`];
    case "trick_won": return [`Trick ${event.number}: ${plays(event.plays, names)} → ${names[event.winner]}`];
    case "hand_scored": {
      const r = event.result;
      const totals = r.scores.map((score, side) => `${sideName(rules, side, names)} ${score} (${signed(r.deltas[side])})`);
      return [verdict(r, names), `Score: ${totals.join(" · ")}`];
    }
    case "game_won": return [outcomeLine(event.outcome, rules, names)];
    case "timed_out": {
      const [verb, rest] = event.action.split(" ");
      const what = verb === "play" ? label(rest) : event.action;
      return [`Time ran out for ${names[event.seat]}: the server played ${what} for them.`];
    }
    default: return [];
  }
}

/** What changed at the seats of a table, for the others there to read. */
export function seatChanges(before, after, mine) {
  const lines = [];
  after.seats.forEach((now, i) => {
    const old = before.seats[i];
    if (!old || now.seat === mine) return;
    const name = now.name || old.name || seatWord(now.seat);
    if (old.name !== now.name) {
      if (old.name !== null) lines.push(`${old.name} left ${seatWord(old.seat)}.`);
      if (now.name !== null) lines.push(`${now.name} sat down in ${seatWord(now.seat)}.`);
    } else if (now.replaced_by_bot && !old.replaced_by_bot) lines.push(`A bot plays for ${name} now.`);
    else if (old.replaced_by_bot && !now.replaced_by_bot) lines.push(`${name} plays their seat again.`);
    else if (old.connected && !now.connected && now.kind !== "builtin") lines.push(`${name} lost their connection; their seat is kept for them.`);
    else if (now.connected && !old.connected && now.kind !== "builtin") lines.push(`${name} is back.`);
  });
  return lines;
}
