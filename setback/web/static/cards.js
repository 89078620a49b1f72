// Cards as the protocol writes them ("10H", "AS"), drawn by the page and said in words.

import { el, svg } from "./dom.js";

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

/** A card's rank, suit and rank value (2 to 14). */
export function parse(text) {
  const rank = text.slice(0, -1);
  const suit = text.slice(-1);
  return { text, rank, suit, value: RANKS.indexOf(rank) + 2 };
}

/** `10♥` */
export const label = (text) => parse(text).rank + SUITS[parse(text).suit].symbol;

/** "ten of hearts" */
export function spoken(text) {
  const { rank, suit } = parse(text);
  return `${RANK_WORDS[rank]} of ${SUITS[suit].name}`;
}

/** Both, as a screen reader hears a card: "10♥, ten of hearts". */
export const said = (text) => `${label(text)}, ${spoken(text)}`;

/** `cards` in the order a hand is held: trump first, then the other suits (colours
 * alternating), each high to low. */
export function sortHand(cards, trump) {
  const order = trump ? [trump, ...HAND_ORDER.filter((s) => s !== trump)] : HAND_ORDER;
  return [...cards].sort((a, b) => {
    const x = parse(a);
    const y = parse(b);
    return order.indexOf(x.suit) - order.indexOf(y.suit) || y.value - x.value;
  });
}

/** Why `card` may not be played now (the following rule), for a card the server did not list. */
export function whyNot(card, trick, trump, myTurn) {
  if (!myTurn) return `${label(card)} cannot be played: it is not your turn.`;
  if (trick.length && trump) {
    const led = parse(trick[0].card).suit;
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

/** A card face: its rank and suit in the corner and its suit large; `props` go on the outer element. */
export function face(text, tag = "div", props = {}) {
  const { rank, suit } = parse(text);
  const colour = SUITS[suit].red ? "red" : "black";
  return el(tag, { ...props, class: ["card", colour, props.class], data: { card: text, ...(props.data || {}) } },
    el("span", { class: "corner", "aria-hidden": "true" }, el("span", { class: "rank", text: rank }), suitIcon(suit)),
    suitIcon(suit, "big"));
}
