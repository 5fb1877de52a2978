"""Printing within the terminal's width (rich's, from ``COLUMNS`` when the output is not a terminal):
tables whose columns fit it, and text wrapped on words, never inside an interval ``[lo, hi]``.

Rich breaks a cell or a line at any space, and so in the middle of an interval (``0.460 [0.449,`` /
``0.471]``). Here an interval, a short parenthesis such as ``(+15.02 pp)`` and a numbered item's
number and first word (``1. expert``) are one word; outside a table an estimate and its interval are
one word too. A table column too narrow for an estimate and its interval on one line puts the
interval under the estimate, in every cell of the column alike; a table too wide for its narrowest
columns is split into several, its first column (the row names) repeated in each.
"""

from __future__ import annotations

import re
import textwrap

from rich.markup import escape
from rich.table import Table
from rich.text import Text

#: stands for a space no line may break at: a private-use character, one column wide and no space
_GLUE = "\ue000"
_INTERVAL = re.compile(r"\[[^\[\]\n]*\]")
_SHORT_PARENTHESIS = re.compile(r"\((?:[^()\s]+ )?[^()\s]+\)")
_BEFORE_INTERVAL = re.compile(r"(?<=\S) (?=\[)")
_LEADING_ESTIMATE = re.compile(r"^(\S+) (?=\[)")
_ITEM_NUMBER = re.compile(r"(?:^|(?<=[\s,]))\d+\. (?=\S)")   # "1. expert" in a list of them


def _glued(line: str, estimates: bool) -> str:
    """``line`` with the spaces no line may break at made ``_GLUE``: those inside an interval and a
    short parenthesis, after a numbered item's number, and with ``estimates`` the one between an
    estimate and its interval."""
    def glue(m):
        return m.group(0).replace(" ", _GLUE)

    line = _ITEM_NUMBER.sub(glue, _SHORT_PARENTHESIS.sub(glue, _INTERVAL.sub(glue, line)))
    return _BEFORE_INTERVAL.sub(_GLUE, line) if estimates else line


def wrap(text: str, width: int, estimates: bool = True) -> list[str]:
    """The lines of ``text`` (its own line breaks kept) wrapped on words to ``width`` columns,
    never inside an interval or a short parenthesis, nor after a numbered item's number, nor, with
    ``estimates``, between an estimate and its interval. A word longer than ``width`` is a line of
    its own, longer than ``width``."""
    out = []
    for line in text.split("\n"):
        parts = textwrap.wrap(_glued(line, estimates), max(width, 1), break_long_words=False,
                              break_on_hyphens=False)
        out += [p.replace(_GLUE, " ") for p in parts] or [""]
    return out


def _words(text: str) -> list[str]:
    """The words of a cell's ``text`` that no line breaks inside (an estimate and its interval are two)."""
    return [w.replace(_GLUE, " ") for w in _glued(text, False).split()]


def _plain(cell) -> str:
    """The text a table cell shows (markup read)."""
    return cell.plain if isinstance(cell, Text) else Text.from_markup(str(cell)).plain


def _stacked(text: str) -> str:
    """A cell ``"est [lo, hi] ..."`` as ``"est"`` over ``"[lo, hi] ..."``; any other cell as it is."""
    return text if "\n" in text else _LEADING_ESTIMATE.sub(r"\1\n", text, count=1)


class _Column:
    """What one column of a table needs: its narrowest width (its longest word), its natural width
    (its longest line), that with every estimate's interval under it, and the width its estimates
    take beside their intervals (0: it has none)."""

    def __init__(self, header: str, cells: list[str]):
        self.narrowest = max((len(w) for t in [header, *cells] for w in _words(t)), default=1)
        self.natural = _longest_line([header, *cells])
        self.stacked = _longest_line([header, *map(_stacked, cells)])
        self.side_by_side = max((len(c) for c in cells if "\n" not in c and _LEADING_ESTIMATE.match(c)), default=0)

    def width(self, room: int) -> int:
        """Its width given ``room`` columns of the terminal: no wider than its lines are once its
        estimates are stacked, where they are."""
        return min(room, self.stacked) if room < self.side_by_side else room


def _longest_line(texts) -> int:
    """The length of the longest line of ``texts``."""
    return max((len(line) for t in texts for line in t.split("\n")), default=1)


def _frame(table: Table, columns: int, console) -> int:
    """Columns of the terminal a table of ``columns`` columns gives its borders and padding."""
    probe = Table(box=table.box, show_edge=table.show_edge, padding=table.padding, pad_edge=table.pad_edge,
                  collapse_padding=table.collapse_padding, show_header=False)
    for _ in range(columns):
        probe.add_column(width=1)
    return console.measure(probe).maximum - columns


def _narrowed(widths: list[int], floors: list[int], room: int) -> list[int]:
    """``widths`` narrowed until they sum to at most ``room``, none below its floor: the widest
    column gives up a column of the terminal first, as rich does."""
    widths = list(widths)
    while sum(widths) > room:
        can = [j for j, w in enumerate(widths) if w > floors[j]]
        if not can:
            break
        widths[max(can, key=lambda j: widths[j])] -= 1
    return widths


def _shrunk(columns: list[_Column], room: int, stack: bool) -> list[int]:
    """Column widths summing to at most ``room`` (where their narrowest allow), from their natural
    widths (with ``stack``, their widths with every estimate's interval under it): narrowed first no
    further than their estimates beside their intervals, then, if that is not enough, to their
    narrowest; a column then too narrow for its estimates beside their intervals is as wide as its
    lines once they are stacked."""
    start = [c.stacked if stack else c.natural for c in columns]
    side_by_side = _narrowed(start, [max(c.narrowest, 0 if stack else c.side_by_side) for c in columns], room)
    widths = [c.width(w) for c, w in zip(columns, _narrowed(side_by_side, [c.narrowest for c in columns], room))]
    return _widened(widths, [c.stacked if w < c.side_by_side else want for c, w, want in zip(columns, widths, start)],
                    room)


def _widened(widths: list[int], wants: list[int], room: int) -> list[int]:
    """``widths`` given back, up to ``wants``, the room a stacked column left: a column of the
    terminal at a time, to the column furthest below what it wants."""
    widths = list(widths)
    while sum(widths) < room and any(w < want for w, want in zip(widths, wants)):
        j = max(range(len(widths)), key=lambda j: wants[j] - widths[j])
        widths[j] += 1
    return widths


def _fits(columns: list[_Column], keep: list[int], table: Table, console) -> bool:
    """Whether the columns ``keep`` fit the console's width at their narrowest."""
    return sum(columns[j].narrowest for j in keep) + _frame(table, len(keep), console) <= console.width


def _groups(columns: list[_Column], table: Table, console) -> list[list[int]]:
    """The table's columns in groups, each with the first column, narrow enough for the terminal:
    as few groups as fit (one other column in each at least), the others shared out evenly in
    their order."""
    greedy = [[0]]
    for j in range(1, len(columns)):
        if len(greedy[-1]) > 1 and not _fits(columns, greedy[-1] + [j], table, console):
            greedy.append([0])
        greedy[-1].append(j)
    size, more = divmod(len(columns) - 1, len(greedy))
    ends = [1 + i * size + min(i, more) for i in range(len(greedy) + 1)]   # the first ``more`` one wider
    even = [[0, *range(a, b)] for a, b in zip(ends, ends[1:])]
    return even if all(_fits(columns, keep, table, console) for keep in even) else greedy


def _part(table: Table, keep: list[int], widths: list[int], columns: list[_Column], title) -> Table:
    """A table of the columns ``keep`` of ``table``, each as wide as ``widths`` says, its cells
    wrapped to it (an estimate's interval under it in a column too narrow for both on one line)."""
    part = Table(title=title, box=table.box, show_header=table.show_header, show_edge=table.show_edge,
                 show_lines=table.show_lines, padding=table.padding, pad_edge=table.pad_edge,
                 collapse_padding=table.collapse_padding, header_style=table.header_style,
                 title_justify=table.title_justify)
    cells = []
    for j, w in zip(keep, widths):
        col = table.columns[j]
        part.add_column(col.header, justify=col.justify, style=col.style, header_style=col.header_style,
                        vertical=col.vertical, width=w, overflow="fold")
        stack = columns[j].side_by_side > w
        cells.append([_cell(c, w, stack) for c in col.cells])
    for r, row in enumerate(table.rows):
        part.add_row(*(col[r] for col in cells), style=row.style, end_section=row.end_section)
    return part


def _cell(cell, width: int, stack: bool) -> Text:
    """A cell's text wrapped to ``width`` on words, never inside an interval; with ``stack`` an
    estimate's interval under the estimate. Its style and justification are kept."""
    text = _plain(cell)
    lines = wrap(_stacked(text) if stack else text, width, estimates=False)
    style, justify = (cell.style, cell.justify) if isinstance(cell, Text) else ("", None)
    return Text("\n".join(lines), style=style, justify=justify)


def literal(table: Table) -> Table:
    """``table`` with every string cell and header escaped (``rich.markup.escape``): a figure is
    never read as markup, where rich would eat ``[unbounded, -359.3]`` as a style (it printed a
    clean loss's Elo as ``unbounded  n=31``). A cell that is a ``Text`` is literal already; a table
    escaped once is not escaped again."""
    if getattr(table, "_literal", False):
        return table
    table._literal = True
    for col in table.columns:
        col._cells[:] = [escape(c) if isinstance(c, str) else c for c in col._cells]
        if isinstance(col.header, str):
            col.header = escape(col.header)
    if isinstance(table.title, str):
        table.title = escape(table.title)
    return table


def _literal_intervals(text: str) -> str:
    """A printed line with every interval ``[lo, hi]`` in it escaped (a style tag has no comma in it;
    the line's own markup, ``[yellow]...[/]``, is kept)."""
    return _INTERVAL.sub(lambda m: escape(m.group(0)) if "," in m.group(0) else m.group(0), text)


def fit(table: Table, console) -> list:
    """``table`` fitted to the console's width: itself if it fits as it is; else its columns narrowed,
    widest first, to their longest word (its cells wrapped on words, never inside an interval, an
    estimate's interval under it where a column is too narrow for both); else, too wide even so, its
    title wrapped to the width, then several tables of fewer columns, each with the first column
    (the later ones titled "(continued)"), the interval under its estimate in all of them."""
    literal(table)
    columns = [_Column(_plain(c.header) if table.show_header else "", [_plain(x) for x in c.cells])
               for c in table.columns]
    n, width = len(columns), console.width
    if sum(c.natural for c in columns) + _frame(table, n, console) <= width:
        return [table]
    groups = [list(range(n))]
    if n > 2 and sum(c.narrowest for c in columns) + _frame(table, n, console) > width:
        groups = _groups(columns, table, console)
    if len(groups) == 1:
        return [_part(table, groups[0], _shrunk(columns, width - _frame(table, n, console), False), columns,
                      table.title)]
    # split: the title above every part, as wide as the terminal, and the interval under its estimate in
    # every part alike
    parts = [Text("\n".join(wrap(_plain(table.title), width)), style="table.title")] if table.title else []
    for i, keep in enumerate(groups):
        widths = _shrunk([columns[j] for j in keep], width - _frame(table, len(keep), console), True)
        parts.append(_part(table, keep, widths, columns, None if i == 0 else "(continued)"))
    return parts


class Fitted:
    """A console whose ``print`` fits every table to the width (``fit``: its figures never read as
    markup) and wraps every string on words, never inside an interval nor between an estimate and
    its interval (``wrap``: an interval in it never read as markup either); a string
    printed with ``soft_wrap=True`` (a command to paste back) is printed as it is, on one line. What
    else it is asked is the console's."""

    def __init__(self, console):
        self.console = console

    def __getattr__(self, name):
        return getattr(self.console, name)

    def print(self, *objects, sep: str = " ", **options) -> None:
        """Print ``objects`` as the console does, tables fitted and strings wrapped to its width."""
        if options.get("soft_wrap") or not objects:
            self.console.print(*objects, sep=sep, **options)
        elif all(isinstance(o, str) for o in objects):
            lines = wrap(sep.join(objects), self.console.width)
            if options.get("markup", True):
                lines = [_literal_intervals(line) for line in lines]
            self.console.print("\n".join(lines), soft_wrap=True, **options)
        else:
            self.console.print(*(t for o in objects for t in (fit(o, self.console) if isinstance(o, Table) else [o])),
                               sep=sep, **options)


def fitted(console) -> Fitted:
    """``console`` as a ``Fitted`` one (itself if it is one already)."""
    return console if isinstance(console, Fitted) else Fitted(console)
