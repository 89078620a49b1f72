"""Rich renderables that fit the width they are drawn at, so a narrow terminal loses words, not facts.

:class:`Facts` lays short facts out in rows and never splits one; :class:`FirstFit` says a
thing the longest way that fits on one row.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.text import Text


def cut(text: Text, width: int) -> Text:
    """``text`` on one row of ``width`` cells, ending in an ellipsis when it had to be cut."""
    line = text.copy()
    line.no_wrap = True
    line.overflow = "ellipsis"
    if line.cell_len > width:
        line.truncate(max(1, width), overflow="ellipsis")
    return line


class Facts:
    """Facts side by side with ``gap`` between them, starting a new row where the next does not
    fit: a fact moves whole to the next row and is cut (with an ellipsis) only when it alone is
    wider than the width."""

    def __init__(self, facts: Sequence[Text], gap: str = "   ") -> None:
        self.facts = [fact for fact in facts if fact.plain]
        self.gap = gap

    @property
    def plain(self) -> str:
        """Every fact on one row, as on a wide screen."""
        return self.gap.join(fact.plain for fact in self.facts)

    def rows(self, width: int) -> list[Text]:
        rows: list[Text] = []
        for fact in self.facts:
            if rows and rows[-1].cell_len + len(self.gap) + fact.cell_len <= width:
                rows[-1].append(self.gap)
                rows[-1].append_text(fact)
            else:
                rows.append(cut(fact, width))
        return rows or [Text()]

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield from self.rows(options.max_width)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        widest = max((fact.cell_len for fact in self.facts), default=0)
        one_row = sum(fact.cell_len for fact in self.facts) + len(self.gap) * max(0, len(self.facts) - 1)
        return Measurement(min(widest, options.max_width), min(one_row, options.max_width))


class FirstFit:
    """The first of ``choices`` (longest first) that fits on one row; the last one cut if none does."""

    def __init__(self, *choices: Text) -> None:
        assert choices, "at least one way to say it"
        self.choices = choices

    @property
    def plain(self) -> str:
        """The longest way, as on a wide screen."""
        return self.choices[0].plain

    def choose(self, width: int) -> Text:
        fitting = next((choice for choice in self.choices if choice.cell_len <= width), self.choices[-1])
        return cut(fitting, width)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self.choose(options.max_width)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement(min(self.choices[-1].cell_len, options.max_width), options.max_width)
