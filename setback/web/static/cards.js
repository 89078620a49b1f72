// Cards as the protocol writes them ("10H", "AS"), drawn by the page and said in words.

import { el, svg } from "./dom.js";
import { VARIANTS } from "./variants.js";

export const SUITS = {
  C: { symbol: "♣", name: "clubs", red: false },
  D: { symbol: "♦", name: "diamonds", red: true },
  H: { symbol: "♥", name: "hearts", red: true },
  S: { symbol: "♠", name: "spades", red: false },
};

const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
const RANK_WORDS = {
  2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine", 10: "ten",
  J: "jack", Q: "queen", K: "king", A: "ace",
};
const HAND_ORDER = ["S", "H", "C", "D"]; // the colours alternate
const SAME_COLOUR = { C: "S", S: "C", D: "H", H: "D" };

/** The joker's mark in place of a suit symbol (not ★: that marks the card winning a trick). */
export const JOKER_GLYPH = "🃏";
/** The jokers (spec.md section 1): the one of `joker`, the big and little of `ten_point`. */
const JOKERS = { JK: { rank: "", words: "the joker" }, BJ: { rank: "B", words: "the big joker" }, LJ: { rank: "L", words: "the little joker" } };

/** A card's rank, suit and rank value (2 to 14); a joker has no suit (null) and value 0. */
export function parse(text) {
  if (JOKERS[text]) return { text, rank: JOKERS[text].rank, suit: null, value: 0, joker: true };
  const rank = text.slice(0, -1);
  const suit = text.slice(-1);
  return { text, rank, suit, value: RANKS.indexOf(rank) + 2, joker: false };
}

/** `10♥`; a joker `🃏`, `B🃏` or `L🃏`. */
export function label(text) {
  const card = parse(text);
  return card.rank + (card.joker ? JOKER_GLYPH : SUITS[card.suit].symbol);
}

/** "ten of hearts", "the big joker" */
export function spoken(text) {
  const { rank, suit, joker } = parse(text);
  return joker ? JOKERS[text].words : `${RANK_WORDS[rank]} of ${SUITS[suit].name}`;
}

/** The suit `text` belongs to at a table of `variant` once `trump` is known: trump for a joker
 * and the variant's off-card (the off-jack, the off-five), else its printed suit; before trump
 * is known its printed suit (null for a joker). */
export function suitOf(text, trump, variant = "standard") {
  const card = parse(text);
  if (!trump) return card.suit;
  if (card.joker) return trump;
  const off = VARIANTS[variant].off;
  return off && card.rank === off && card.suit === SAME_COLOUR[trump] ? trump : card.suit;
}

/** Whether `text` is a trump (see suitOf); nothing is before trump is known. */
export const isTrump = (text, trump, variant = "standard") => Boolean(trump) && suitOf(text, trump, variant) === trump;

/** A card's place in its suit, high first: its rank, or in trump the variant's order (the
 * off-card right below the card of its rank, the jokers where the variant puts them). */
function strength(text, trump, variant) {
  const card = parse(text);
  if (card.joker) return VARIANTS[variant].jokers[text] || 0;
  return isTrump(text, trump, variant) && card.suit !== trump ? card.value - 0.5 : card.value;
}

/** Both, as a screen reader hears a card: "10♥, ten of hearts". */
export const said = (text) => `${label(text)}, ${spoken(text)}`;

/** `cards` in the order a hand is held: trump first (with the cards that belong to it at
 * `variant`: the off-jack, the off-five, the jokers), then the other suits (colours
 * alternating), each high to low; before trump is known, each card in its printed suit and
 * the jokers last. */
export function sortHand(cards, trump, variant = "standard") {
  const order = trump ? [trump, ...HAND_ORDER.filter((s) => s !== trump)] : HAND_ORDER;
  const place = (text) => {
    const suit = suitOf(text, trump, variant);
    return suit === null ? order.length : order.indexOf(suit);
  };
  return [...cards].sort((a, b) => place(a) - place(b) || strength(b, trump, variant) - strength(a, trump, variant));
}

/** Why `card` may not be played now (the following rule, with the variant's suits), for a
 * card the server did not list. */
export function whyNot(card, trick, trump, myTurn, variant = "standard") {
  if (!myTurn) return `${label(card)} cannot be played: it is not your turn.`;
  if (trick.length && trump) {
    const led = suitOf(trick[0].card, trump, variant);
    if (led === trump) return `${label(card)} cannot be played: trump was led, and you hold trump.`;
    const name = SUITS[led].name;
    return `${label(card)} cannot be played: ${name} (${SUITS[led].symbol}) were led; play ${name} or trump.`;
  }
  return `${label(card)} cannot be played now.`;
}

const SHAPES = {
  H: [["path", { d: "M50 90C22 68 6 52 6 32C6 17 17 7 30 7C39 7 46 12 50 20C54 12 61 7 70 7C83 7 94 17 94 32C94 52 78 68 50 90Z" }]],
  D: [["path", { d: "M50 4L86 50L50 96L14 50Z" }]],
  S: [["path", { d: "M50 4C36 24 8 38 8 60C8 74 19 82 31 82C39 82 45 78 47 73C46 82 42 89 35 95H65C58 89 54 82 53 73C55 78 61 82 69 82C81 82 92 74 92 60C92 38 64 24 50 4Z" }]],
  C: [
    ["circle", { cx: 50, cy: 28, r: 19 }], ["circle", { cx: 27, cy: 58, r: 19 }], ["circle", { cx: 73, cy: 58, r: 19 }],
    ["path", { d: "M45 52C45 72 41 86 33 95H67C59 86 55 72 55 52Z" }],
  ],
};

/** A suit's symbol, drawn (it needs no font), hidden from screen readers: the text says it. */
export function suitIcon(suit, extra = "") {
  return svg("svg", { class: `suit ${SUITS[suit].red ? "red" : "black"} ${extra}`, viewBox: "0 0 100 100", "aria-hidden": "true" },
    SHAPES[suit].map(([tag, props]) => svg(tag, props)));
}

const STAR = "M50 6L62 38L96 38L68 58L79 92L50 71L21 92L32 58L4 38L38 38Z";

/** A joker's mark, drawn (it needs no font), hidden from screen readers. */
const jokerIcon = (extra = "") => svg("svg", { class: `suit joker-mark ${extra}`, viewBox: "0 0 100 100", "aria-hidden": "true" },
  [svg("path", { d: STAR })]);

/** A card face: its rank and suit in the corner and its suit large; `props` go on the outer
 * element. With `trump` known, a card that belongs to trump at `variant` though another suit
 * (or none) is printed on it is marked as trump and drawn in trump's colour. */
export function face(text, tag = "div", props = {}, trump = null, variant = "standard") {
  const { rank, suit, joker } = parse(text);
  const adopted = isTrump(text, trump, variant) && suit !== trump;
  const colourSuit = adopted ? trump : suit;
  const colour = colourSuit === null ? "joker" : SUITS[colourSuit].red ? "red" : "black";
  return el(tag, { ...props, class: ["card", colour, joker && "joker", adopted && "trump-card", props.class], data: { card: text, ...(props.data || {}) } },
    el("span", { class: "corner", "aria-hidden": "true" }, el("span", { class: "rank", text: rank }), joker ? jokerIcon() : suitIcon(suit)),
    joker ? jokerIcon("big") : suitIcon(suit, "big"),
    adopted ? el("span", { class: "trump-mark", title: "trump", "aria-hidden": "true" }, "T") : null);
}
