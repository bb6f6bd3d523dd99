"""Texts that show values: `log "{u} retreats to {len(path)} spaces"`.

Each `{...}` in a text literal holds any expression of the language; `{{`
and `}}` write a brace itself.  A text is read into its parts (strings and
expressions) the first time the checker or the compiler asks, so a file with
no such text pays nothing.  The expressions are parsed by the language's own
parser, and every span inside them points into the text where it stands, so
an unknown name in braces is reported at its own column like any other.

Inside a text a quote is written `\\"`: `{if won then \\"yes\\" else \\"no\\"}`.
"""

from __future__ import annotations

import attrs

from . import ast as A

# The most `{…}` one text may show.  Each is parsed on its own, a fraction of
# a millisecond: twenty thousand in one text kept `check` busy for seconds.
MAX_INTERPOLATIONS = 100

# Braces hold an expression as parentheses do (so `{if a then b else c}` reads
# as `(if a then b else c)`).
_PREFIX = "value _text_ = ("


def template_parts(e: A.TextLit) -> tuple[list, list[tuple[str, A.Span]]]:
    """(parts, errors): parts are strings and expressions in order; errors are
    (message, span) of a `{` never closed or braces that hold no expression."""
    cached = e.__dict__.get("_parts")
    if cached is None:
        cached = _split(e.raw, e.span) if e.raw is not None else ([e.value], [])
        e.__dict__["_parts"] = cached
    return cached


def is_template(e: A.TextLit) -> bool:
    return e.raw is not None


def _unescape(raw: str) -> tuple[str, list[int]]:
    """The text of a stretch of a quoted token, and for each of its characters
    the offset in `raw` it comes from."""
    from .transform import _ESCAPES

    out, where, i = [], [], 0
    while i < len(raw):
        ch = raw[i]
        if ch == "\\" and i + 1 < len(raw) and raw[i + 1] in _ESCAPES:
            out.append(_ESCAPES[raw[i + 1]])
            where.append(i)
            i += 2
        else:
            out.append(ch)
            where.append(i)
            i += 1
    return "".join(out), where


def _split(raw: str, span: A.Span):
    body = raw[1:-1]  # without the quotes: offset k in body is column span.col + 1 + k
    base = span.col + 1
    parts: list = []
    errors: list[tuple[str, A.Span]] = []
    literal: list[str] = []
    i = 0
    shown = 0  # the `{…}` read so far

    def at(offset: int, width: int = 1) -> A.Span:
        return A.Span(span.file, span.line, base + offset, span.line, base + offset + width)

    while i < len(body):
        ch = body[i]
        if ch == "\\" and i + 1 < len(body):
            literal.append(body[i:i + 2])
            i += 2
            continue
        if ch == "}" and body[i + 1:i + 2] == "}":
            literal.append("}")
            i += 2
            continue
        if ch != "{":
            literal.append(ch)
            i += 1
            continue
        if body[i + 1:i + 2] == "{":
            literal.append("{")
            i += 2
            continue
        if shown == MAX_INTERPOLATIONS:
            errors.append((f"more than {MAX_INTERPOLATIONS} `{{…}}` in one text: split it, or show a list "
                           "with one `{…}`", at(i)))
            literal.append(body[i:])
            break
        end = _closing(body, i + 1)
        if end is None:
            errors.append(("a `{` in this text is never closed: write `{{` for a brace itself", at(i)))
            literal.append(body[i:])
            break
        if literal:
            parts.append(_unescape("".join(literal))[0])
            literal = []
        inner = body[i + 1:end]
        shown += 1
        expr = _parse(inner, i + 1, at, errors)
        parts.append(expr if expr is not None else "{" + _unescape(inner)[0] + "}")
        i = end + 1
    if literal:
        parts.append(_unescape("".join(literal))[0])
    return parts, errors


def _closing(body: str, start: int) -> int | None:
    """The offset of the `}` that closes a `{` opened before `start` (braces of
    quoted texts inside it do not count)."""
    depth, i, quoted = 0, start, False
    while i < len(body):
        ch = body[i]
        if ch == "\\" and body[i + 1:i + 2] == '"':
            quoted = not quoted
            i += 2
            continue
        if ch == "\\":
            i += 2
            continue
        if not quoted:
            if ch == "{":
                depth += 1
            elif ch == "}":
                if depth == 0:
                    return i
                depth -= 1
        i += 1
    return None


def _parse(inner_raw: str, offset: int, at, errors) -> A.Expr | None:
    from .parser import parse_text

    text, where = _unescape(inner_raw)
    if not text.strip():
        errors.append(("empty braces in a text: put an expression in them, or write `{{}}` for braces",
                       at(offset - 1, 2)))
        return None
    module, diags = parse_text(_PREFIX + text + ")", "<text>")
    decl = module.decls[0] if len(module.decls) == 1 and not module.connections else None
    if diags or not isinstance(decl, A.ValueDecl) or decl.cites or decl.note is not None:
        column = None
        for d in diags:
            if d.span is not None and d.span.line == 1:
                column = d.span.col
                break
        k = _source_offset(column, where, inner_raw) if column else 0
        message = diags[0].message if diags else "this is not one expression"
        if "value _text_" in message or (column and column - 1 - len(_PREFIX) >= len(text)):
            message = "the expression ends before it is complete"
        errors.append((f"in the braces of a text: {message}", at(offset + k)))
        return None

    def shift(s: A.Span) -> A.Span:
        if s.file != "<text>":
            return s
        start = offset + _source_offset(s.col, where, inner_raw)
        end = offset + _source_offset(s.end_col, where, inner_raw) if s.end_line == 1 else start + 1
        return at(start, max(1, end - start))

    _reposition(decl.expr, shift)
    return decl.expr


def _source_offset(col: int, where: list[int], raw: str) -> int:
    """The offset in the raw text of a column of the parsed `_PREFIX + text`."""
    k = col - 1 - len(_PREFIX)
    if k < 0:
        return 0
    return where[k] if k < len(where) else len(raw)


def _reposition(node, shift) -> None:
    """Move every span of an expression tree (names and nested texts too)."""
    stack, seen = [node], set()
    while stack:
        n = stack.pop()
        if isinstance(n, (list, tuple)):
            stack.extend(n)
            continue
        if not attrs.has(type(n)) or isinstance(n, A.Span) or id(n) in seen:
            continue
        seen.add(id(n))
        for f in attrs.fields(type(n)):
            v = getattr(n, f.name)
            if isinstance(v, A.Span):
                object.__setattr__(n, f.name, shift(v))
            elif isinstance(v, A.Name):
                object.__setattr__(n, f.name, A.Name(v.text, shift(v.span)))
            elif isinstance(v, (list, tuple)) or attrs.has(type(v)):
                stack.append(v)
        cached = n.__dict__.get("_parts") if hasattr(n, "__dict__") else None
        if cached is not None:  # a nested text already read: its expressions move too
            stack.append([p for p in cached[0] if not isinstance(p, str)])

