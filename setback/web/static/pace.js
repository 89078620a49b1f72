// The pace a page shows a game at: each message is folded in in order, and after a card, a
// finished trick and a hand's result the page holds on for a moment so that people see
// them (bots answer at once); a page far behind, or given a snapshot, catches up at once.

const PAUSES = { card_played: 500, trick_won: 1500, hand_scored: 1500 };
const CATCH_UP_MS = 4000;

/** The share of a person's pauses the address asks for (`?pace=0.2`; 0: none). */
export const paceAsked = () => Math.max(0, Number(new URLSearchParams(location.search).get("pace") ?? 1)) || 0;

export class Inbox {
  /** `fold(message, now)` takes each message in turn; `drawn()` once the inbox is caught up
   * or holding; `mine(event)` says which events were this page's own move (no pause). */
  constructor({ fold, drawn, mine = () => false, pace = paceAsked() }) {
    Object.assign(this, { fold, drawn, mine, pace });
    this.queue = [];
    this.holdUntil = 0;
    this.timer = null;
  }

  push(message) {
    this.queue.push({ message, at: performance.now() });
    this.pump();
  }

  /** How long to show `message` before the next one (0: go on at once). */
  pauseAfter(message) {
    if (message.type !== "event" || this.mine(message.event)) return 0;
    return (PAUSES[message.event.kind] || 0) * this.pace;
  }

  pump() {
    clearTimeout(this.timer);
    while (this.queue.length) {
      const now = performance.now();
      const behind = now - this.queue[0].at > CATCH_UP_MS || this.queue.some((m) => m.message.type === "snapshot");
      if (now < this.holdUntil && !behind) {
        this.timer = setTimeout(() => this.pump(), this.holdUntil - now);
        break;
      }
      const { message } = this.queue.shift();
      this.fold(message, now);
      const pause = this.pauseAfter(message);
      if (pause) this.holdUntil = now + pause;
    }
    this.drawn();
  }
}
