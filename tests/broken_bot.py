"""A bot that gets things wrong on purpose, to show that each check of ``setback check-bot``
can fail. Plain Python, as a bot author's would be: ``python3 broken_bot.py FAULT,FAULT``.

Faults: ``no-pong`` (ignores ping), ``no-retry`` (a refused answer is never made again),
``no-ready`` (never says ready), ``quits`` (exits when the line drops or on any error),
``slow`` (takes 1.5 s when the clock gives 1 s or less), ``bad-hello`` (an unreadable
version, a non-boolean events), ``illegal`` (answers with a card it does not hold, then
the lowest legal action once refused), ``no-token`` (comes back without its token).
"""

from __future__ import annotations

import json
import os
import socket
import sys
import time

FAULTS = set(sys.argv[1].split(",")) if len(sys.argv) > 1 else set()
HOST, PORT = os.environ["SETBACK_HOST"], int(os.environ["SETBACK_PORT"])
TABLE, SEAT, NAME = os.environ["SETBACK_TABLE"], int(os.environ["SETBACK_SEAT"]), os.environ["SETBACK_NAME"]


def connect(token: str | None) -> tuple[socket.socket, object]:
    for _ in range(60):
        try:
            line = socket.create_connection((HOST, PORT))
            break
        except OSError:
            time.sleep(0.5)
    else:
        sys.exit(1)
    hello: dict[str, object] = {"type": "hello", "version": "1.x" if "bad-hello" in FAULTS else "1.2",
                                "name": NAME, "kind": "bot"}
    if "bad-hello" in FAULTS:
        hello["events"] = "yes"
    if token and "no-token" not in FAULTS:
        hello["token"] = token
    line.sendall((json.dumps(hello) + "\n").encode())
    return line, line.makefile("r", encoding="utf-8")


def main() -> None:
    token: str | None = None
    seated = False
    line, lines = connect(None)

    def send(message: dict[str, object]) -> None:
        line.sendall((json.dumps(message) + "\n").encode())

    while True:
        try:
            text = lines.readline()  # type: ignore[attr-defined]
        except OSError:  # a cut line (reset by peer) is a dropped connection, as an end of file is
            text = ""
        if not text:
            if "quits" in FAULTS or not seated:
                sys.exit(1)
            line, lines = connect(token)
            continue
        message = json.loads(text)
        kind = message["type"]
        if kind == "welcome":
            if not seated or message["token"] != token:
                token = message["token"]
                send({"type": "join", "id": "join", "table": TABLE, "seat": SEAT, "ready": True})
        elif kind == "joined":
            seated, token = True, message["token"]
        elif kind == "decide":
            view = message["view"]
            limit = (message.get("clock") or {}).get("limit_ms")
            if "slow" in FAULTS and limit is not None and limit <= 1000:
                time.sleep(1.5)
            action = "play 1Z" if "illegal" in FAULTS else view["legal"][0]
            send({"type": "act", "request": message["request"], "action": action})
            last = (message["request"], view["legal"][0])
        elif kind == "game_over" and "no-ready" not in FAULTS:
            send({"type": "ready"})
        elif kind == "ping" and "no-pong" not in FAULTS:
            send({"type": "pong", "nonce": message.get("nonce")})
        elif kind == "error":
            code = message["code"]
            if code == "illegal_action" and "no-retry" not in FAULTS:
                send({"type": "act", "request": last[0], "action": last[1]})
            elif "quits" in FAULTS or message.get("fatal") or code == "invalid_field":
                sys.exit(1)


if __name__ == "__main__":
    main()
