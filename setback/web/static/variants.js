// The variants a table may play (spec.md section 3, "Variants"), as the page needs them: their
// names, points in play, default targets, sides, and which cards belong to trump.

/** Each variant (the wire's spelling): `off` the rank of its off-card (the card of that rank
 * in the other suit of trump's colour, a trump), `jokers` each joker's place in the trump order
 * (a rank value between the naturals': the off-card is half a rank below its rank), `points` in the order results list them. */
export const VARIANTS = {
  standard: { name: "Standard", off: null, jokers: {}, target: 11, pairsOnly: false,
    points: ["high", "low", "jack", "game"] },
  joker: { name: "Joker", off: null, jokers: { JK: 1 }, target: 10, pairsOnly: false,
    points: ["high", "low", "jack", "joker", "game"] },
  ten_point: { name: "Ten-point", off: "J", jokers: { BJ: 10.4, LJ: 10.3 }, target: 21, pairsOnly: false,
    points: ["high", "low", "jack", "off_jack", "big_joker", "little_joker", "three", "game"] },
  pedro: { name: "Pedro", off: "5", jokers: {}, target: 31, pairsOnly: true,
    points: ["high", "low", "jack", "five", "off_five", "game"] },
};

/** Each point's name (a result's `awards`) for people. */
export const POINT_WORDS = {
  high: "High", low: "Low", jack: "Jack", game: "Game", joker: "Joker", off_jack: "Off-jack",
  big_joker: "Big joker", little_joker: "Little joker", three: "Three", five: "Five", off_five: "Off-five",
};

/** A table's variant: `rules.variant`, the standard game when left out. */
export const variantOf = (rules) => VARIANTS[(rules && rules.variant) || "standard"] ? (rules && rules.variant) || "standard" : "standard";

/** "Ten-point: High Low Jack Off-jack Big joker Little joker Three Game". */
export function variantText(rules) {
  const variant = VARIANTS[variantOf(rules)];
  return `${variant.name}: ${variant.points.map((p) => POINT_WORDS[p]).join(" ")}`;
}
