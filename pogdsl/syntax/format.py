"""`.pog` text in its one canonical layout (`pogdsl fmt`, the language
server's formatting): text → parse tree → layout → text.

The layout is printed from the tree, so the spaces and line breaks the
author typed do not matter, only the tokens, the comments and where blank
lines were.  The rules (docs/modding.rst, "Formatting"):

* a top-level block starts in column 1; what a `{ … }` holds is indented two
  spaces, one item or statement a line; `}` stands alone on its line;
  `enum`, `extend enum` and a `sequence` without a note keep their names
  between braces on one line;
* one space between words, none inside brackets or before `,` `.` `:`,
  none around `..` and after a unary `-`; a call's or an index's bracket
  touches its name;
* a blank line the author left between two items, or before a comment on
  its own line, is kept (several count as one); no other blank line;
* a line longer than 100 columns is broken at its outermost places first:
  the line after a value's `=`, before a clause (`when`, `unless`, `for`,
  `where`, a choice's text, `weight`, `default`, a long header's `cites`),
  after a `,` between arguments; a chain of `and` / `or` / `+` / `*` … takes
  as many operands a line as fit, each new line starting with its operator
  (an operand too long for any line starts a new one unless the line so far
  is short: layout.py, Fill); `(if c then a else b)` breaks before `else`,
  and an `else (if …` chain goes on in one column; an aggregate breaks
  before its `for` and `where`; a `choose`'s bindings go one a line.  A continuation line is indented two spaces more than
  the item it belongs to, a bracket's content goes on at the column after
  the bracket.  Texts and names are never broken, so a line with a long text
  stays long;
* a note (the rule in our own words) after a declaration goes on its own
  line, indented two spaces;
* the lines of a file's spaces, units and connections are set in shared
  columns, and so are a table's rows (numbers to the right, names to the
  left) and runs of `edit` lines and of `place` statements;
* comments are kept where they were: one on its own line before what
  follows it, one after code at the end of that line.

Texts, quoted names, numbers and rule numbers are kept exactly as written.
Formatting never changes the program: the formatted text is parsed again
and must give the same syntax tree (locations aside), else the file is left
as it is and the error says so.
"""

from __future__ import annotations

import re
import threading
from functools import lru_cache

from ..diagnostics import ERROR, Diagnostic
from . import ast as A
from .layout import BLANK, HARD, LINE, Align, Fill, Group, Nest, Suffix, render

WIDTH = 100
INDENT = 2
# The largest text laid out: about fifteen times the project's largest source.
# Layout runs at some 30 KB a second, so a source of the largest size a check
# reads (4 MiB) would keep `fmt` or an editor busy for minutes.
FORMAT_LIMIT = 512 * 1024


class FormatError(Exception):
    """The text cannot be formatted: its diagnostics say why (the same as
    `pogdsl check` gives for a text that does not parse)."""

    def __init__(self, diagnostics: list[Diagnostic]):
        super().__init__("; ".join(d.message for d in diagnostics))
        self.diagnostics = diagnostics


# ------------------------------------------------------------------ parsing

_lock = threading.Lock()
_comments: list = []


@lru_cache(maxsize=1)
def _tree_parser():
    """Lark's parser of the same grammar keeping every token (keywords and
    brackets too), and handing comments, which the grammar ignores, to
    `_comments`.  Built in memory once per process (about a second)."""
    from lark import Lark

    from .parser import _LARK_OPTIONS, grammar_text

    return Lark(grammar_text(), **_LARK_OPTIONS, keep_all_tokens=True, lexer_callbacks={"COMMENT": _comments.append})


def _parse_tree(text: str):
    with _lock:
        _comments.clear()
        tree = _tree_parser().parse(text)
        comments = list(_comments)
        _comments.clear()
    return tree, comments


def _all_kept(comments, out: str) -> bool:
    """Whether every comment is in OUT, in its order."""
    at = 0
    for c in sorted(comments, key=lambda c: c.start_pos):
        at = out.find(c.value.rstrip(), at)
        if at < 0:
            return False
        at += len(c.value.rstrip())
    return True


def _plain_without_spans(module: A.Module):
    """The module as plain data with every location left out: two texts
    that say the same program in two layouts give equal values."""
    from .plain import _INDEX, to_plain

    span_tag = _INDEX[A.Span]

    def strip(v):
        if type(v) is list:
            if v and type(v[0]) is int and v[0] == span_tag:
                return None
            return [strip(x) for x in v]
        if type(v) is dict:
            return {k: strip(x) for k, x in v.items()}
        return v

    data = to_plain(module)
    data[2] = None  # the path
    return strip(data)


def format_text(text: str, path: str = "<text>", width: int = WIDTH) -> str:
    """TEXT in the canonical layout.  Raises FormatError (with located
    diagnostics) for a text that does not parse, is nested too deeply to
    lay out, or whose layout would change the program."""
    from .parser import normalise_line_ends, parse_text

    text = normalise_line_ends(text)
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\0" in text:  # (the layout marks comments with it; no source holds one)
        raise FormatError([Diagnostic(ERROR, "E0001", "this is a binary file, not a .pog source",
                                      A.Span(path, 1, 1, 1, 2))])
    if len(text) > FORMAT_LIMIT:
        raise FormatError([Diagnostic(
            ERROR, "E0107", f"too large to format ({len(text) // 1024} KiB of text; fmt lays out at most "
            f"{FORMAT_LIMIT // 1024} KiB)", A.Span(path, 1, 1, 1, 2), "split it into several files")])
    module, diags = parse_text(text, path)
    if diags:
        raise FormatError(diags)
    try:
        tree, comments = _parse_tree(text)
        doc = _Printer(text, comments).document(tree)
        out = _align_trailing_comments(render(doc, width))
    except RecursionError:
        raise FormatError([Diagnostic(ERROR, "E0103", "nested too deeply to lay out",
                                      A.Span(path, 1, 1, 1, 2), "split the nesting into procedures")]) from None
    again, problems = parse_text(out, path)
    if problems or _plain_without_spans(again) != _plain_without_spans(module) or not _all_kept(comments, out):
        raise FormatError([Diagnostic(
            ERROR, "E0106", "pogdsl fmt cannot lay this file out without changing what it says (a fault of "
            "pogdsl's): it is left as it is", A.Span(path, 1, 1, 1, 2),
            "please report it, with the file")])
    return out


# A comment after code is marked so that the comments ending a run of lines
# can be aligned once the lines are laid out (a source holds no NUL).
_TRAILING = "\0"


def _align_trailing_comments(text: str) -> str:
    """Comments ending consecutive lines start in one column, two spaces
    after the longest code among those lines."""
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        if _TRAILING not in lines[i]:
            i += 1
            continue
        j = i
        while j < len(lines) and _TRAILING in lines[j]:
            j += 1
        column = max(len(line.split(_TRAILING, 1)[0].rstrip()) for line in lines[i:j]) + 2
        for k in range(i, j):
            code, comment = lines[k].split(_TRAILING, 1)
            lines[k] = code.rstrip().ljust(column) + comment
        i = j
    return "\n".join(lines)


# ------------------------------------------------------------------ tree walking

def _first_token(node):
    while not hasattr(node, "type"):
        node = node.children[0]
    return node


def _last_token(node):
    while not hasattr(node, "type"):
        node = node.children[-1]
    return node


def _is_tree(node, *names) -> bool:
    return hasattr(node, "data") and (not names or node.data in names)


_OPEN, _CLOSE = {"(": ")", "[": "]"}, {")", "]"}
_NO_SPACE_BEFORE = {",", ")", "]", ".", ":", ".."}
_NO_SPACE_AFTER = {"(", "[", ".", ".."}
# Words that start a clause: where a long line breaks first, per node.
_CLAUSES = {
    "aggregate": {"for", "where"}, "list_comp": {"where"}, "reach": {"where"},
    "forbid": {"when", "unless"}, "contribution": {"when"}, "trigger_decl": {"when", "cites"},
    "choose_stmt": {"for", "where", "optional", "cites"}, "for_stmt": {"where"},
    "choice_decl": {"weight", "default", "cites"}, "card_playable": {"cites"},
}
# `replace DECL`, `add DECL` in a scenario.
_WRAPPERS = {"scenario_replace", "scenario_add", "scenario_replace_many", "scenario_add_many",
             "scenario_add_connections"}
# Nodes whose `{ names }` stay on one line (when they hold no note or comment).
_INLINE_BRACES = {"enum_decl", "scenario_extend_enum", "sequence_decl"}
_BLANK_LINE = re.compile(r"\n[ \t]*\n")


class _Bindings:
    """Stands for the node of a `choose`'s bindings (`for a in x, b in y`),
    which the grammar does not wrap in one: they break after their commas."""

    data = "bindings"


_BINDINGS = _Bindings()


class _Printer:
    """Builds the layout (pogdsl/syntax/layout.py) of one file's tree,
    taking its comments in as it passes their place."""

    def __init__(self, text: str, comments: list):
        self.text = text
        self.columns: dict[int, tuple] = {}  # the lines set in columns: their columns, widths and gap
        self.comments = sorted(comments, key=lambda c: c.start_pos)
        self.next_comment = 0
        self.last_end = 0  # where the last token or comment taken ends

    # ---------------------------------------------------------------- comments
    def _blank_before(self, pos: int) -> bool:
        return self.last_end > 0 and _BLANK_LINE.search(self.text, self.last_end, pos) is not None

    def comments_before(self, pos: int, blanks: bool = True) -> list:
        """The comments written before POS not yet placed: one on its own
        line stays on its own line, one after code ends that code's line."""
        out = []
        while self.next_comment < len(self.comments) and self.comments[self.next_comment].start_pos < pos:
            c = self.comments[self.next_comment]
            self.next_comment += 1
            line_start = self.text.rfind("\n", 0, c.start_pos) + 1
            own_line = self.text[line_start:c.start_pos].strip() == ""
            if own_line:
                out += [BLANK if blanks and self._blank_before(c.start_pos) else HARD, c.value.rstrip(), HARD]
            else:
                out.append(Suffix(_TRAILING + c.value.rstrip()))
            self.last_end = c.end_pos
        return out

    def token(self, tok) -> list:
        out = self.comments_before(tok.start_pos)
        out.append(tok.value)
        self.last_end = tok.end_pos
        if self.next_comment < len(self.comments):  # a comment ending this token's line stays on it
            c = self.comments[self.next_comment]
            between = self.text[tok.end_pos:c.start_pos]
            if "\n" not in between and between.strip() == "":
                out += self.comments_before(c.start_pos + 1)
        return out

    # ---------------------------------------------------------------- items
    def document(self, tree) -> list:
        # (a file's spaces share their columns, and so do its units and its connections)
        for kinds, gap in ((("space_line",), 2), (("unit_line",), 2), (("solid_connection", "dotted_connection"), 1)):
            self.align_in_columns([line for kind in kinds for line in tree.find_data(kind)], gap)
        out = self.lines(tree.children, top=True)
        out += self.comments_before(len(self.text) + 1)
        return out

    def lines(self, items, top: bool = False) -> list:
        """ITEMS one a line, with the comments before each and the blank
        lines the author left between them."""
        for run in _runs(items):
            self.align_in_columns(run, 1)
        out = []
        for i, item in enumerate(items):
            start = _first_token(item).start_pos
            lead = self.comments_before(start, blanks=i > 0 or top)
            brk = BLANK if (i > 0 or (top and lead)) and self._blank_before(start) else HARD
            if not lead and _is_tree(item, "card_sr") and i > 0 and _is_tree(items[i - 1], "card_ops"):
                brk = " "  # a card's `ops 4 sr 4` on one line, as printed on the card
            out += [lead, brk, self.item(item)]
        return out

    def item(self, node):
        if not _is_tree(node):
            return self.token(node)
        if node.data == "table_row" and self.row_layout is not None:
            return self.row(node)
        if id(node) in self.columns:
            return self.aligned(node)
        if node.data in _WRAPPERS:  # `replace` / `add` and a declaration laid out as one of its own
            return [self.token(node.children[0]), " ", self.item(node.children[1])]
        if node.data == "table_decl":
            return self.table(node)
        if any(not _is_tree(c) and c.value == "{" for c in node.children):
            return self.braced(node)
        return self.statement(node.children, node)

    def statement(self, children, node) -> list:
        """A line item: its words grouped (broken at its clauses when too
        long, continuation lines indented), then any block, then a note."""
        head, tail, note = [], [], None
        for i, child in enumerate(children):
            if _is_tree(child, "block", "elif_clause", "else_clause") or tail:
                tail.append(child)
            elif _is_tree(child, "note") and i == len(children) - 1:
                note = child
            else:
                head.append(child)
        out = [Nest(INDENT, Group(self.join(head, node)))]
        for child in tail:
            out += [" ", self.block(child) if _is_tree(child, "block") else self.statement(child.children, child)]
        if note is not None:
            out.append(Nest(INDENT, HARD, self.join(note.children, note)))
        return out

    def block(self, node):
        return self.braced(node)

    def braced(self, node) -> list:
        kids = node.children
        open_at = next(i for i, c in enumerate(kids) if not _is_tree(c) and c.value == "{")
        close_at = max(i for i, c in enumerate(kids) if not _is_tree(c) and c.value == "}")
        head, body, close = kids[:open_at], kids[open_at + 1:close_at], kids[close_at]
        out = [Nest(INDENT, Group(self.join(head, node))) if head else []]
        out += [" " if head else "", self.token(kids[open_at])]
        if node.data in _INLINE_BRACES and not any(_is_tree(c, "note") for c in body) \
                and not self._comment_before(close.start_pos):
            inner = self.join(body, node)
            out += [" ", inner, " " if body else "", self.token(close)]
            return out
        if not body and not self._comment_before(close.start_pos):
            return out + [self.token(close)]
        inner = self.lines(body)
        inner += self.comments_before(close.start_pos, blanks=False)
        out += [Nest(INDENT, inner), HARD, self.token(close)]
        return out

    def _comment_before(self, pos: int) -> bool:
        return self.next_comment < len(self.comments) and self.comments[self.next_comment].start_pos < pos

    # ---------------------------------------------------------------- words
    def join(self, children, node) -> list:
        """CHILDREN of NODE as words on a line: one space between them except
        around punctuation; a bracket's content aligned after it."""
        clauses = _CLAUSES.get(node.data, ())
        out = []
        prev = None
        i = 0
        while i < len(children):
            child = children[i]
            first = _first_token(child)
            if prev is not None:
                out.append(self.separator(prev, first, child, node, clauses))
            if node.data == "choose_stmt" and not _is_tree(child) and child.value == "for":
                # the bindings in a column of their own, one a line when they break
                end = i + 1
                while end < len(children) and (_is_tree(children[end], "binding")
                                               or (not _is_tree(children[end]) and children[end].value == ",")):
                    end += 1
                out += [self.token(child), " ", Align(Group(self.join(children[i + 1:end], _BINDINGS)))]
                prev = _last_token(children[end - 1])
                i = end
                continue
            if not _is_tree(child) and child.value in _OPEN and i + 1 < len(children):
                close = _matching(children, i)
                if close is not None:
                    out += [self.token(child), Align(Group(self.join(children[i + 1:close], node))),
                            self.token(children[close])]
                    prev = children[close]
                    i = close + 1
                    continue
            out.append(self.word(child))
            prev = _last_token(child)
            i += 1
        return out

    def separator(self, prev, first, child, node, clauses):
        p, f = prev.value, first.value
        if p == "=" and node.data in ("value_decl", "term_decl"):
            return LINE
        if f in _NO_SPACE_BEFORE or p in _NO_SPACE_AFTER:
            return ""
        if f in ("(", "[") and (not _is_tree(child) or _is_tree(child, "params")):
            return ""  # a call's, an index's or a declaration's brackets touch its name
        if p == "-" and node.data in ("neg", "cell_neg"):
            return ""
        if f == "+" and node.data == "key_at_least":
            return ""
        if node.data == "unit_line" and "/" in (p, f):
            return ""
        if p == ",":
            return LINE if node.data in ("args", "bindings") else " "
        if node.data in ("compare", "member", "not_member") and prev is _last_token(node.children[0]):
            return LINE
        if f == "for" and node.data == "aggregate" and not _is_tree(prev) and prev.type == "NAME" \
                and _first_token(node.children[2]) is prev:
            return " "  # (`count(x for x in …`: a lone name would be a stub on its line)
        if f in clauses or (node.data == "choice_decl" and first.type == "STRING"):
            return LINE  # (a choice's text is a clause too: it goes under its name when too long)
        return " "

    def word(self, child):
        if not _is_tree(child):
            return self.token(child)
        if child.data == "binop":
            return self.chain(_binop_chain(child))
        if child.data in ("and_expr", "or_expr"):
            return self.chain(child.children)
        if child.data in ("compare", "member", "not_member"):
            return Group(Align(self.join(child.children, child)))
        if child.data == "cond_expr":
            return self.conditional(child)
        if child.data in ("args", "aggregate", "list_comp", "reach"):
            return Group(self.join(child.children, child))
        if child.data == "note" and child is not None:
            return self.join(child.children, child)
        if child.data in ("block",) or any(not _is_tree(c) and c.value == "{" for c in child.children):
            return self.braced(child)
        return self.join(child.children, child)

    def chain(self, children):
        """`a and b and c` (or `or`, `+`, `*` …): as many operands a line as
        fit, a new line starting with its operator, under the first operand."""
        items = [self.word(children[0])]
        for i in range(1, len(children), 2):
            items.append([self.word(children[i]), " ", self.word(children[i + 1])])
        return Align(Fill(*items))

    def conditional(self, node) -> list:
        """`(if c then a else b)`: where it is too long, `else` starts a line
        under `if` (and `then` too, if `if c then a` is still too long); an
        `else (if …` goes on in the same column, so a chain of cases reads
        as a list of them."""
        closes, cases = [], []
        opened = []
        while True:
            lpar, if_, cond, then, value, else_, rest, rpar = node.children
            opened += [self.token(lpar)]
            case = Align(Group(self.token(if_), " ", self.word(cond), LINE, self.token(then), " ",
                               self.word(value)))
            cases.append([opened, case])
            opened = [self.token(else_), " "]
            closes.append(rpar)
            if not _is_tree(rest, "cond_expr"):
                break
            node = rest
        first, later = cases[0], cases[1:]
        body = Align(Group(first[1], [[LINE, c] for c in later], LINE, opened, self.word(rest)))
        return [first[0], body, [self.token(p) for p in reversed(closes)]]

    # ---------------------------------------------------------------- columns
    def align_in_columns(self, lines, gap: int) -> None:
        """Set LINES (items of one kind) in shared columns, GAP spaces apart."""
        if len(lines) < 2:
            return
        widths: dict[str, int] = {}
        order: list[str] = []
        for line in lines:
            previous = -1
            for kind, parts in _fields(line):
                if kind not in order:
                    order.insert(previous + 1, kind)
                previous = order.index(kind)
                if kind == "attr_at":
                    x, y = parts[0].children[1:]
                    widths["at_x"] = max(widths.get("at_x", 0), len(x.value))
                    widths["at_y"] = max(widths.get("at_y", 0), len(y.value))
                widths[kind] = max(widths.get(kind, 0), len(self.flat(parts, widths)))
        for line in lines:
            self.columns[id(line)] = (order, widths, gap)

    def flat(self, parts, widths) -> str:
        """A field's text on one line, as `aligned` writes it."""
        if _is_tree(parts[0], "attr_at"):
            return "at " + " " * widths["at_x"] + " " + " " * widths["at_y"]
        return " ".join(render(_Printer(self.text, []).word(p), 10 ** 9).rstrip("\n") for p in parts)

    def aligned(self, node) -> list:
        """A line of a run set in columns: each field in its column."""
        order, widths, gap = self.columns[id(node)]
        fields = _fields(node)
        kinds = [k for k, _ in fields]
        at = [order.index(k) for k in kinds]
        if at != sorted(at) or len(set(kinds)) < len(kinds):  # (fields in an order of their own)
            return self.statement(node.children, node)
        out = []
        if node.data == "space_line":
            out += [self.token(node.children[0]), " "]
        by_kind = dict(fields)
        last = max(at)
        for i, kind in enumerate(order[:last + 1]):
            if kind not in by_kind:
                out.append(" " * (widths[kind] + gap))
                continue
            parts = by_kind[kind]
            if kind == "attr_at":  # (coordinates right-aligned: `at  94 1021`)
                x, y = parts[0].children[1:]
                wx, wy = widths["at_x"], widths["at_y"]
                words = [self.token(parts[0].children[0]), " " * (wx - len(x.value) + 1), self.token(x),
                         " " * (wy - len(y.value) + 1), self.token(y)]
            else:
                words = []
                for j, part in enumerate(parts):
                    words += ([" "] if j else []) + [self.word(part)]
            out += [words, " " * (widths[kind] - len(self.flat(parts, widths)) + gap) if i < last else ""]
        return out

    # ---------------------------------------------------------------- tables
    def table(self, node) -> list:
        """A table with its rows' cells aligned in columns."""
        kids = node.children
        rows = [c for c in kids if _is_tree(c, "table_row")]
        keys = {id(r): _flat_text(r.children[1]) for r in rows}
        cells = {id(r): [_flat_text(c) for c in r.children[3:]] for r in rows}
        key_width = max((len(k) for k in keys.values()), default=0)
        columns: list[list[str]] = []
        for r in rows:
            for j, text in enumerate(cells[id(r)]):
                if j == len(columns):
                    columns.append([])
                columns[j].append(text)
        widths = [max(len(t) for t in col) for col in columns]
        numeric = [all(re.fullmatch(r"-?[0-9]+", t) for t in col) for col in columns]
        saved = self.row_layout
        self.row_layout = (key_width, widths, numeric)
        try:
            return self.braced(node)
        finally:
            self.row_layout = saved

    row_layout = None

    def row(self, node) -> list:
        key_width, widths, numeric = self.row_layout
        kids = node.children
        key = _flat_text(kids[1])
        out = [self.token(kids[0]), " ", *self.tokens_of(kids[1]), self.token(kids[2]),
               " " * (key_width - len(key) + 1)]
        texts = []
        for j, cell in enumerate(kids[3:]):
            text = _flat_text(cell)
            pad = " " * (widths[j] - len(text))
            texts.append([pad, *self.tokens_of(cell)] if numeric[j] else [*self.tokens_of(cell), pad])
        for j, t in enumerate(texts):
            out += [t, " " if j < len(texts) - 1 else ""]
        return out

    def tokens_of(self, node) -> list:
        if not _is_tree(node):
            return self.token(node)
        return [self.token(t) for t in node.scan_values(lambda v: hasattr(v, "type"))]


def _fields(node) -> list:
    """A line set in columns as (kind, parts) fields.  A space: its name and
    terrain, then one field per attribute; a unit: its type, name and
    factors, then its attributes; a connection: its ends, its mark, `only`;
    an `edit`: its target, its attribute (`no vp` one field), its values; a
    `place`: its unit, then one field per preposition; and `cites` last."""
    kids = node.children
    if node.data == "space_line":
        return [("name", [kids[1]]), ("terrain", [kids[2]])] + [(a.data, [a]) for a in kids[3:]]
    if node.data == "unit_line":
        factors = [k for k in kids[2:] if not _is_tree(k) and k.type in ("FACTORS", "SLASH")]
        return ([("type", [kids[0]]), ("name", [kids[1]]), ("factors", factors)]
                + [(a.data, [a]) for a in kids[2 + len(factors):]])
    if node.data in ("solid_connection", "dotted_connection"):
        fields = [("a", [kids[0]]), ("mark", [kids[1]]), ("b", [kids[2]])]
        return fields + ([("only", kids[3:])] if len(kids) > 3 else [])
    if node.data == "scenario_edit":
        cites = [k for k in kids if _is_tree(k, "cites")]
        words = [k for k in kids if not _is_tree(k, "cites")]
        neg = next((i for i, k in enumerate(words) if _is_tree(k, "edit_neg")), None)
        # (the attribute is the first bare word after the target, or `no` and it)
        attr_at = neg if neg is not None else next(
            i for i in range(3, len(words)) if not _is_tree(words[i]) and words[i].type == "NAME")
        attr_end = attr_at + 1 + (neg is not None)
        fields = [("edit", words[:2]), ("target", words[2:attr_at]), ("attribute", words[attr_at:attr_end])]
        values = words[attr_end:]
        return fields + ([("values", values)] if values else []) + ([("cites", cites)] if cites else [])
    fields = [("verb", [kids[0]])]
    for k in kids[1:]:
        if _is_tree(k, "effect_arg"):
            fields.append((_first_token(k).value, [k]))
        elif _is_tree(k, "cites"):
            fields.append(("cites", [k]))
        else:
            fields.append(("object", [k]))
    return fields


def _run_key(item):
    if not _is_tree(item):
        return None
    if item.data == "scenario_edit":
        return "edit"
    if item.data == "effect_stmt" and _first_token(item).value == "place":
        return "place"
    return None


def _runs(items) -> list:
    """Runs of consecutive lines of one kind that are set in columns: `edit`
    lines, `place` statements (comments and blank lines between them do not
    break a run)."""
    runs, run, key = [], [], None
    for item in items:
        k = _run_key(item)
        if k != key or k is None:
            if key is not None:
                runs.append(run)
            run, key = [], k
        if k is not None:
            run.append(item)
    if key is not None:
        runs.append(run)
    return runs


def _flat_text(node) -> str:
    if not _is_tree(node):
        return node.value
    return "".join(t.value for t in node.scan_values(lambda v: hasattr(v, "type")))


def _matching(children, i):
    want = _OPEN[children[i].value]
    depth = 0
    for j in range(i, len(children)):
        c = children[j]
        if _is_tree(c):
            continue
        if c.value == children[i].value:
            depth += 1
        elif c.value == want:
            depth -= 1
            if depth == 0:
                return j
    return None


def _binop_chain(node) -> list:
    """`a + b - c` as one run [a, +, b, -, c]: its operators break alike."""
    left, op, right = node.children
    kind = _first_token(op).value in ("+", "-")
    if _is_tree(left, "binop") and (_first_token(left.children[1]).value in ("+", "-")) == kind:
        return _binop_chain(left) + [op, right]
    return [left, op, right]
