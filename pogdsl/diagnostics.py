"""Compiler diagnostics: what went wrong, where, and what to do about it.

Every stage reports problems as `Diagnostic`s rather than raising, so one run
shows a user every mistake at once.  The rendering follows the shape users know
from compilers::

    cards/cp/guns-of-august.pog:12:9: error[E0203]: unknown space 'Leige'
       12 |     place 'GE 1' at Leige
          |                     ^^^^^
       = hint: did you mean 'Liege'?
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable

from attrs import define, field

from .safe_io import escape_controls
from .syntax.ast import Span

ERROR = "error"
WARNING = "warning"

# The catalogue of codes, so the docs can list them and tests can name them.
CODES: dict[str, str] = {
    # files and syntax
    "E0001": "the file cannot be read as text",
    "E0101": "syntax error",
    "E0102": "unterminated or malformed token",
    "E0103": "nested too deeply",
    "E0104": "number outside the range of whole numbers",
    "E0105": "a text longer than a source may hold",
    "E0106": "pogdsl fmt cannot lay the file out without changing what it says",
    "E0107": "a file too large for pogdsl fmt to lay out",
    # names
    "E0201": "unknown name",
    "E0202": "unknown nation",
    "E0203": "unknown space",
    "E0204": "unknown unit",
    "E0205": "unknown procedure",
    "E0206": "unknown choice",
    "E0207": "unknown value",
    "E0209": "unknown table",
    "E0210": "unknown phase",
    "E0211": "unknown card",
    "E0212": "unknown side",
    "E0213": "unknown map",
    "E0214": "unknown type or enumeration member",
    "E0215": "unknown event or signal",
    "E0216": "unknown scenario",
    "E0217": "unknown function",
    "E0218": "unknown box",
    "E0219": "unknown sequence",
    "E0220": "unknown attribute",
    "E0221": "unknown box role",
    "E0222": "unknown modifier",
    "E0223": "a card name borne by several cards",
    "E0224": "unknown limit",
    "E0225": "a display line naming nothing the board can show",
    # kinds and arity
    "E0301": "wrong kind of thing",
    "E0302": "wrong number of arguments",
    "E0303": "bad effect arguments",
    "E0304": "value out of range",
    "E0305": "assignment to something that is not state",
    "E0306": "an evaluation term or scale of the wrong form",
    # duplicates
    "E0401": "duplicate definition",
    "E0402": "duplicate connection",
    "E0403": "duplicate table row",
    "E0404": "duplicate local name",
    "E0405": "an item given twice in one block",
    "E0406": "table row with the wrong number of cells",
    # variants
    "E0501": "override of something that does not exist",
    "E0502": "added definition already exists",
    "E0503": "cyclic extends, or a chain of extends too long",
    "E0504": "unknown scenario option",
    "E0520": "unknown point to insert at",
    "E0521": "inserted twice",
    "E0522": "an insertion into something the same scenario removes or replaces",
    "E0523": "`original` outside a replacement",
    "E0524": "a game result the scenario does not declare",
    "E0526": "more scenarios than one check takes",
    "E0511": "an edit that does not fit what it edits",
    "E0512": "contradictory edits",
    "E0513": "unknown rule set",
    "E0514": "a `when option` block that cannot depend on its option",
    "W0515": "a rule set no scenario uses",
    "W0516": "an edit that changes nothing",
    "W0517": "a set-up line that changes nothing",
    "E0560": "a decision asked of a hostile side",
    "E0561": "a card, port or supply source of a hostile side",
    "E0562": "a neutral nation of a hostile side",
    # rule citations
    "E0601": "cited rule number is not in the rule index",
    "E0602": "rule number cited for conflicting things",
    "E0603": "duplicate rule index entry",
    "W0604": "rule-like block cites no rule",
    "E0605": "citation names an unknown rulebook",
    "E0606": "`same_as` names a rule the main rulebook does not list",
    "E0607": "an evaluation term without a citation or a note",
    "E0608": "a rule both not applicable and approximated",
    # reachability and data flow
    "W0701": "flag read but never written",
    "W0702": "phase never reached",
    "W0703": "procedure never called",
    "W0704": "empty file",
    "E0705": "a value defined in terms of itself",
    "W0706": "a space with no connections",
    # order of modifiers
    "W0801": "two modifiers replace one value in no stated order",
    "E0802": "modifiers ordered after each other in a circle",
    # cards
    "E0901": "a card of the project's own deck has no event",
    "W0902": "a card has no event",
    "W0903": "a card value outside the printed range",
}


@define(slots=True)
class Diagnostic:
    severity: str
    code: str
    message: str
    span: Span | None
    hint: str | None = None
    notes: list[tuple[str, Span | None]] = field(factory=list)

    @property
    def is_error(self) -> bool:
        return self.severity == ERROR

    def sort_key(self):
        s = self.span
        return (s.file, s.line, s.col) if s else ("", 0, 0)

    def to_json(self) -> dict:
        s = self.span
        return {
            "severity": self.severity,
            "code": self.code,
            "message": self.message,
            "file": s.file if s else None,
            "line": s.line if s else None,
            "column": s.col if s else None,
            "end_line": s.end_line if s else None,
            "end_column": s.end_col if s else None,
            "hint": self.hint,
            "notes": [{"message": m, "at": str(sp) if sp else None} for m, sp in self.notes],
        }


class Sources:
    """The text of every file read, so diagnostics can quote their line."""

    def __init__(self) -> None:
        self._lines: dict[str, list[str]] = {}

    def add(self, path: str, text: str) -> None:
        # Lines as the parser counts them: only '\n' ends a line (not a form feed).
        self._lines[path] = [line.rstrip("\r") for line in text.split("\n")]

    def line(self, path: str, number: int) -> str | None:
        lines = self._lines.get(path)
        if lines is None or not 1 <= number <= len(lines):
            return None
        return lines[number - 1]


def render(diag: Diagnostic, sources: Sources) -> str:
    """Format one diagnostic with its source line and a caret under the span."""
    s = diag.span
    where = f"{s.file}:{s.line}:{s.col}: " if s and s.line else (f"{s.file}: " if s else "")
    out = [f"{where}{diag.severity}[{diag.code}]: {diag.message}"]
    text = sources.line(s.file, s.line) if s and s.line else None
    if text is not None:
        gutter = str(s.line)
        pad = " " * len(gutter)
        expanded = text.replace("\t", " ")
        width = (s.end_col - s.col) if s.end_line == s.line and s.end_col > s.col else max(
            1, len(expanded.rstrip()) - s.col + 1
        )
        shown, start, width = _window(expanded, s.col - 1, max(1, width))
        # a control character in the line is shown escaped (safe_io), the caret kept under its span
        before, under = shown[:start], shown[start:start + width]
        shown_before, shown_under = escape_controls(before), escape_controls(under)
        out.append(f" {gutter} | {escape_controls(shown)}")
        out.append(f" {pad} | {' ' * len(shown_before)}{'^' * max(1, width + len(shown_under) - len(under))}")
    for message, span in diag.notes:
        out.append(f"   = note: {message}" + (f" ({span})" if span else ""))
    if diag.hint:
        out.append(f"   = hint: {diag.hint}")
    return "\n".join(out)


# A quoted source line is cut to a window this wide around its span, and a
# name quoted in a message to this many characters: a generated or hostile
# file with a line of a megabyte gets a diagnostic of a few lines, not a
# copy of itself.
QUOTED_LINE_MOST = 120
QUOTED_NAME_MOST = 60
_LONG_QUOTE = re.compile(r"'([^'\n]{%d,})'" % (QUOTED_NAME_MOST + 1))


def _window(line: str, start: int, width: int) -> tuple[str, int, int]:
    """(the part of LINE shown, where the span starts in it, the span's
    width shown): the whole line when it is short, else at most
    QUOTED_LINE_MOST characters from a little before the span, marked '…'
    where cut, the caret cut to what is shown."""
    if len(line) <= QUOTED_LINE_MOST:
        return line, start, width
    lead = min(start, 30)
    first = start - lead
    last = min(len(line), first + QUOTED_LINE_MOST)
    shown = line[first:last]
    if first > 0:
        shown, lead = "…" + shown, lead + 1
    if last < len(line):
        shown += "…"
    return shown, lead, max(1, min(width, last - start))


def clip_names(message: str) -> str:
    """MESSAGE with each quoted name longer than QUOTED_NAME_MOST cut short
    (its length said), so a message never repeats a huge token."""
    def clip(m: re.Match) -> str:
        return f"'{m[1][:QUOTED_NAME_MOST - 10]}…' ({len(m[1]):,} characters)"
    return _LONG_QUOTE.sub(clip, message)


def did_you_mean(word: str, candidates: Iterable[str]) -> str | None:
    """The closest candidate to a misspelt name, as a hint, or None."""
    # Only names of a similar length can be close; filtering first keeps this
    # cheap when a file has many mistakes and the pool has hundreds of names.
    slack = max(2, len(word) // 3)
    pool = [c for c in candidates if abs(len(c) - len(word)) <= slack]
    match = difflib.get_close_matches(word, pool, n=1, cutoff=0.6)
    if not match:
        lowered = {c.lower(): c for c in pool}
        if word.lower() in lowered:
            match = [lowered[word.lower()]]
    return f"did you mean '{match[0]}'?" if match else None


class Reporter:
    """Collects diagnostics from every stage, once each."""

    def __init__(self) -> None:
        self.items: list[Diagnostic] = []
        self._seen: set[tuple] = set()

    def report(self, severity: str, code: str, message: str, span: Span | None,
               hint: str | None = None, notes: list | None = None) -> None:
        key = (code, message, span.file if span else None, span.line if span else None,
               span.col if span else None)
        if key in self._seen:
            return
        self._seen.add(key)
        self.items.append(Diagnostic(severity, code, clip_names(message), span, hint, notes or []))

    def error(self, code: str, message: str, span: Span | None, hint: str | None = None,
              notes: list | None = None) -> None:
        self.report(ERROR, code, message, span, hint, notes)

    def warning(self, code: str, message: str, span: Span | None, hint: str | None = None,
                notes: list | None = None) -> None:
        self.report(WARNING, code, message, span, hint, notes)

    def extend(self, diags: Iterable[Diagnostic]) -> None:
        for d in diags:
            self.report(d.severity, d.code, d.message, d.span, d.hint, d.notes)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.items if d.is_error]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.items if not d.is_error]

    def sorted(self) -> list[Diagnostic]:
        return sorted(self.items, key=Diagnostic.sort_key)
