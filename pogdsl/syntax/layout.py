"""A small pretty-printer: documents laid out within a width (Wadler's
"prettier printer", with Lindig's strict groups and Leijen's `align`).

A document is text, a line break, or a part grouped, nested or aligned:

* a `str` is printed as it is (it holds no line break);
* `LINE` is a space, or a line break where its group does not fit; `SOFT`
  is nothing, or a line break;
* a `Suffix` goes at the end of the line it falls on;
* `HARD` is always a line break (a group holding one never fits), `BLANK`
  a blank line;
* `Group(...)`: its breaks all stay spaces if the group fits the line up to
  the next break after it, else they all break;
* `Fill(a, b, ...)`: its items a space apart, a line broken only before an
  item that does not fit on the current line;
* `Nest(n, ...)`: breaks inside are indented n columns more;
* `Align(...)`: breaks inside go to the column where it starts;
* a list (or tuple) is its parts one after another.

Line breaks never pile up: a break where the line is still empty only sets
the indentation of what comes next, so a comment that ends its line and the
break after it make one line end, not two.  Blank lines come only from
`BLANK`; trailing spaces are never written.
"""

from __future__ import annotations


class _Break:
    __slots__ = ("flat", "forced", "blank")

    def __init__(self, flat: str, forced: bool, blank: bool = False):
        self.flat, self.forced, self.blank = flat, forced, blank


LINE = _Break(" ", False)
SOFT = _Break("", False)
HARD = _Break("", True)
BLANK = _Break("", True, blank=True)


def _flatten(parts) -> tuple:
    out = []
    for p in parts:
        if isinstance(p, (list, tuple)):
            out.extend(_flatten(p))
        elif p is not None and p != "":
            out.append(p)
    return tuple(out)


def _has_hard(parts) -> bool:
    return any((isinstance(p, _Break) and p.forced) or (isinstance(p, _Box) and p.hard) for p in parts)


class Suffix:
    """Text put at the end of the line it falls on, whatever comes after it
    on that line (a comment that ends a line of code); it takes no room."""

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text


class _Box:
    __slots__ = ("parts", "hard")

    def __init__(self, *parts):
        self.parts = _flatten(parts)
        self.hard = _has_hard(self.parts)


class Group(_Box):
    __slots__ = ()


class Align(_Box):
    __slots__ = ()


class Nest(_Box):
    __slots__ = ("by",)

    def __init__(self, by: int, *parts):
        super().__init__(*parts)
        self.by = by


class _Seq(_Box):
    """Parts one after another, kept as one item (of a Fill)."""

    __slots__ = ()


class Fill(_Box):
    """Items one after another, a space apart, going on to a new line only
    before an item that does not fit on the current one."""

    __slots__ = ()

    def __init__(self, *items):
        parts = []
        for i, item in enumerate(items):
            parts += [LINE, _Seq(item)] if i else [_Seq(item)]
        super().__init__(*parts)


class _FillStep:
    """In `render`: the break before one item of a Fill, decided there."""

    __slots__ = ("item",)

    def __init__(self, item):
        self.item = item


_FLAT, _BROKEN = 0, 1


def render(doc, width: int) -> str:
    """The document as text, its lines kept within WIDTH where it can be."""
    lines: list[str] = []
    line: list[str] = []
    column = 0
    indent = 0
    blank = False
    suffixes: list[str] = []
    stack = [(0, _BROKEN, doc)]
    while stack:
        ind, mode, d = stack.pop()
        if isinstance(d, Suffix):
            suffixes.append(d.text)
        elif isinstance(d, str):
            if not line:
                if d.isspace():
                    continue  # (a separator at the start of a line)
                if blank and lines:
                    lines.append("")
                blank = False
                line.append(" " * indent)
                column = indent
            line.append(d)
            column += len(d)
        elif isinstance(d, _Break):
            if mode == _FLAT and not d.forced:
                if d.flat and line:
                    line.append(d.flat)
                    column += len(d.flat)
                continue
            if line:
                lines.append("".join(line).rstrip() + "".join(suffixes))
                line, suffixes = [], []
            indent = column = ind
            blank = blank or d.blank
        elif isinstance(d, (list, tuple)):
            stack.extend((ind, mode, p) for p in reversed(d))
        elif isinstance(d, _Seq):
            stack.extend((ind, mode, p) for p in reversed(d.parts))
        elif isinstance(d, Nest):
            stack.extend((ind + d.by, mode, p) for p in reversed(d.parts))
        elif isinstance(d, Align):
            here = column if line else indent
            stack.extend((here, mode, p) for p in reversed(d.parts))
        elif isinstance(d, Fill):
            items = d.parts[0::2]
            if mode == _FLAT:
                stack.extend((ind, _FLAT, p) for p in reversed(d.parts))
                continue
            stack.extend((ind, mode, _FillStep(p)) for p in reversed(items[1:]))
            stack.append((ind, _BROKEN, Group(items[0])))
        elif isinstance(d, _FillStep):
            here = column if line else indent
            if line and _fits(width - here - 1, (d.item,), stack):  # (with the brackets closing after it)
                line.append(" ")
                column += 1
                stack.append((ind, _FLAT, d.item))
            elif line and not _fits(width - ind, (d.item,), []) and 4 * (here - ind) <= width - ind:
                # (an item too long for any line of its own is broken where
                # it stands when the line so far is short — a new line first
                # would only leave a stub behind — but goes to a new line
                # after a longer start, where its own breaks would pile up
                # against the right margin)
                line.append(" ")
                column += 1
                stack.append((ind, _BROKEN, Group(d.item)))
            else:
                if line:
                    lines.append("".join(line).rstrip() + "".join(suffixes))
                    line, suffixes = [], []
                indent = column = ind
                stack.append((ind, _BROKEN, Group(d.item)))
        elif isinstance(d, Group):
            if mode == _FLAT:
                fits = True
            else:
                fits = not d.hard and _fits(width - (column if line else indent), d.parts, stack)
            stack.extend((ind, _FLAT if fits else _BROKEN, p) for p in reversed(d.parts))
        else:
            raise TypeError(f"not a document: {d!r}")
    if line or suffixes:
        lines.append("".join(line).rstrip() + "".join(suffixes))
    return "\n".join(lines) + "\n" if lines else ""


def _fits(room: int, parts, rest) -> bool:
    """Whether PARTS, flat, and what follows them up to the next break of
    the REST (in its own mode), take at most ROOM columns."""
    todo = [(_FLAT, p) for p in reversed(parts)]
    rest_at = len(rest)
    while room >= 0:
        if not todo:
            if rest_at == 0:
                return True
            rest_at -= 1
            _, mode, d = rest[rest_at]
            todo.append((mode, d))
            continue
        mode, d = todo.pop()
        if isinstance(d, str):
            room -= len(d)
        elif isinstance(d, _Break):
            if d.forced or mode == _BROKEN:
                return True
            room -= len(d.flat)
        elif isinstance(d, _FillStep):
            return True  # (the next item of a fill may go to a line of its own)
        elif isinstance(d, (list, tuple)):
            todo.extend((mode, p) for p in reversed(d))
        elif isinstance(d, _Box):
            # (a group still to be laid out is measured flat: a forced break
            # in it ends the line measured)
            inner = _FLAT if isinstance(d, Group) else mode
            todo.extend((inner, p) for p in reversed(d.parts))
    return False
