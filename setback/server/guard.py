"""Wrong passwords by address: an address that keeps guessing is refused for a while."""

from __future__ import annotations

from collections import deque

GUESSES = 10
"""Wrong passwords an address may give within :data:`WINDOW_SECONDS`."""
WINDOW_SECONDS = 60.0


class PasswordGuard:
    """Counts each address's wrong passwords over the last :data:`WINDOW_SECONDS`."""

    def __init__(self, guesses: int = GUESSES, window: float = WINDOW_SECONDS) -> None:
        self.guesses = guesses
        self.window = window
        self._wrong: dict[str, deque[float]] = {}

    def wait(self, host: str, now: float) -> float:
        """Seconds before ``host`` may try a password again (0: now)."""
        wrong = self._forget(host, now)
        if len(wrong) < self.guesses:
            return 0.0
        return wrong[0] + self.window - now

    def wrong(self, host: str, now: float) -> None:
        """``host`` gave a wrong password."""
        self._forget(host, now)
        self._wrong.setdefault(host, deque()).append(now)

    def _forget(self, host: str, now: float) -> deque[float]:
        """``host``'s wrong passwords within the window (an address with none is forgotten)."""
        wrong = self._wrong.get(host)
        if wrong is None:
            return deque()
        while wrong and wrong[0] <= now - self.window:
            wrong.popleft()
        if not wrong:
            del self._wrong[host]
        return wrong
