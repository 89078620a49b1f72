// The page's link to the server: one WebSocket, one JSON message a text frame (spec.md,
// "WebSocket transport"), opened again after a drop, waiting longer each time.

const PAUSES = [500, 1000, 2000, 4000, 8000, 10000];
const WATCHDOG_MS = 5000;

/** Where the socket of the server that served this page is. */
export const socketUrl = () => `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`;

export class Link {
  /** `onOpen()` once a socket is open, `onMessage(message)` for each message,
   * `onDrop(why)` when it closes; it opens again by itself unless held. */
  constructor(url, { onOpen, onMessage, onDrop }) {
    Object.assign(this, { url, onOpen, onMessage, onDrop });
    this.socket = null;
    this.failures = 0;
    this.held = false;
    this.timer = null;
    this.heard = 0;
  }

  open() {
    this.held = false;
    clearTimeout(this.timer);
    if (this.socket) return;
    const socket = new WebSocket(this.url);
    this.socket = socket;
    socket.addEventListener("open", () => this.onOpen());
    socket.addEventListener("message", (frame) => {
      this.heard = Date.now();
      let message;
      try {
        message = JSON.parse(frame.data);
      } catch {
        return; // the server only sends JSON; anything else is not a message
      }
      if (message && typeof message === "object" && typeof message.type === "string") this.onMessage(message);
    });
    socket.addEventListener("close", (closed) => {
      this.drop(socket, closed.reason || (closed.wasClean ? "closed by the server" : "the connection dropped"));
    });
  }

  drop(socket, why) {
    if (this.socket !== socket) return;
    this.socket = null;
    this.onDrop(why);
    if (!this.held) this.timer = setTimeout(() => this.open(), PAUSES[Math.min(this.failures++, PAUSES.length - 1)]);
  }

  /** The server welcomed us: the next drop waits the shortest pause again. */
  settled() {
    this.failures = 0;
  }

  /** Send a message now; false when no socket is open. */
  send(message) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  /** Stop opening again (until `open`): the server refused us for a reason a retry would not change. */
  hold() {
    this.held = true;
    clearTimeout(this.timer);
  }

  /** After the page slept (a phone's screen off, a laptop's lid shut): a socket that says
   * nothing within a few seconds of a ping is dead, and is replaced at once. */
  check() {
    if (this.held) return;
    if (!this.socket) {
      this.failures = 0;
      this.open();
      return;
    }
    const asked = Date.now();
    if (!this.send({ type: "ping", nonce: asked })) return;
    const socket = this.socket;
    setTimeout(() => {
      if (this.socket !== socket || this.heard >= asked) return;
      socket.close(); // (its close event may be long in coming: it is forgotten now)
      this.failures = 0;
      this.drop(socket, "no answer after the page slept");
    }, WATCHDOG_MS);
  }
}
