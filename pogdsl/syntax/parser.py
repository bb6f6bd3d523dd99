"""Text → AST, with per-block error recovery and two caches.

* The Lark LALR tables are built once per grammar version and cached on disk
  (Lark's own `cache=`), so a cold start does not pay for grammar analysis.
* Parsed modules are cached by content hash (`~/.cache/pogdsl/ast-*.json`), so
  checking an unchanged project only reads its ASTs back — as plain JSON data
  (syntax/plain.py), in a file sealed against tampering (sealed_cache.py).

Recovery: every top-level block starts with a keyword in column 1.  When a file
does not parse, it is cut at those lines and each block is parsed on its own, so
three broken blocks give three errors at their own lines and the good blocks
still reach the checker.
"""

from __future__ import annotations

import gc
import hashlib
import json
import os
import re
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

from .. import __version__
from ..diagnostics import ERROR, Diagnostic
from ..project import cache_dir
from . import ast as A

# Lark, the tables and the transformer are loaded only when a file must really
# be parsed: a warm check of an unchanged project never pays for them.

GRAMMAR_PATH = Path(__file__).resolve().parent.parent / "grammar" / "pog.lark"

TOP_LEVEL_KEYWORDS = (
    "side", "nation", "map", "enum", "spaces", "connections", "box", "units", "table",
    "track", "counter", "flag", "marker", "var", "value", "term", "choice", "signal", "procedure",
    "phase", "sequence", "restriction", "modifier", "trigger", "card", "scenario", "ruleset", "rulebook",
)
_BLOCK_START = re.compile(r"^(?:%s)\b" % "|".join(TOP_LEVEL_KEYWORDS))

# How terminals read in an error message.
_READABLE = {
    "LBRACE": "'{'", "RBRACE": "'}'", "LPAR": "'('", "RPAR": "')'", "LSQB": "'['", "RSQB": "']'",
    "COMMA": "','", "COLON": "':'", "DOT": "'.'", "EQUAL": "'='", "SLASH": "'/'", "PLUS": "'+'",
    "MINUS": "'-'", "STAR": "'*'", "PERCENT": "'%'", "MORETHAN": "'>'", "LESSTHAN": "'<'",
    "NAME": "a name", "QNAME": "a 'quoted name'", "STRING": "a \"text\"", "INT": "a number",
    "RULE_NUM": "a rule number such as 12.4.3", "FACTORS": "factors such as 5-3-3",
    "SOLID": "'--'", "DOTTED": "'~~'", "$END": "end of file",
}


@lru_cache(maxsize=1)
def grammar_text() -> str:
    return GRAMMAR_PATH.read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def grammar_digest() -> str:
    """Identifies the grammar and the code that turns its trees into ASTs: a
    cached parse is only reused if none of them changed."""
    here = Path(__file__).resolve().parent
    # (lalr.py and this file too: their limits and messages are part of a cached
    # result; plain.py is how it is stored)
    code = "".join((here / name).read_text(encoding="utf-8")
                   for name in ("ast.py", "transform.py", "template.py", "lalr.py", "parser.py", "plain.py",
                                "../numbers.py"))
    return hashlib.sha256((grammar_text() + code + __version__).encode()).hexdigest()[:16]


_LARK_OPTIONS = dict(parser="lalr", propagate_positions=True, strict=True, maybe_placeholders=False)

# Two artefacts generated from pog.lark ship in the package, as a parser
# generator's output would, so that no run (not even the first on a machine)
# analyses the grammar — Lark needs about 1.4 s for that here:
#   * pog.tables.json — the LALR tables and tree filters, read by the fast path
#     (`lalr.FastParser`), keyed by the grammar text;
#   * pog.lalr — Lark's own saved parser, for the error path, keyed by the
#     grammar, Lark's version and the options (it ships with the code, so it
#     is as trusted as the code).
# A stale or missing artefact is simply rebuilt in memory.  Regenerate both with `python -m pogdsl.syntax.tables`; a test
# fails while they are stale.
SHIPPED_TABLES = GRAMMAR_PATH.with_suffix(".tables.json")
SHIPPED_LARK = GRAMMAR_PATH.with_suffix(".lalr")


def lark_key() -> str:
    import lark

    text = grammar_text() + lark.__version__ + repr(sorted(_LARK_OPTIONS.items()))
    return hashlib.sha256(text.encode()).hexdigest()


def _load_shipped_lark():
    from lark import Lark

    try:
        with SHIPPED_LARK.open("rb") as fh:
            if fh.readline().decode("ascii", "replace").strip() != lark_key():
                return None
            return Lark.load(fh)
    except Exception:  # missing, stale or damaged: build the tables instead
        return None


def write_shipped_tables() -> list[Path]:
    """Build the tables from the grammar and write both artefacts next to it."""
    import json

    from lark import Lark

    from .lalr import export_tables

    parser = Lark(grammar_text(), **_LARK_OPTIONS)
    with SHIPPED_LARK.open("wb") as fh:
        fh.write(lark_key().encode("ascii") + b"\n")
        parser.save(fh)
    data = export_tables(parser, grammar_text())
    SHIPPED_TABLES.write_text(json.dumps(data, separators=(",", ":"), sort_keys=True) + "\n", encoding="utf-8")
    return [SHIPPED_TABLES, SHIPPED_LARK]


@lru_cache(maxsize=1)
def get_parser():
    """Lark's parser: the error path, and the source of the tables."""
    from lark import Lark

    shipped = _load_shipped_lark()
    if shipped is not None:
        return shipped
    # Built in memory, never kept in the user's cache folder: Lark's cache is
    # a pickle, which a file planted there would make run code.
    return Lark(grammar_text(), **_LARK_OPTIONS)


@lru_cache(maxsize=1)
def get_fast_parser():
    from .lalr import FastParser, export_tables, load_tables
    from .transform import ToAst

    tables = load_tables(SHIPPED_TABLES, grammar_text())
    if tables is None:
        tables = export_tables(get_parser(), grammar_text())
    return FastParser(tables, ToAst)


def _readable(terminal: str) -> str:
    if terminal in _READABLE:
        return _READABLE[terminal]
    if terminal.isupper() and terminal.isalpha():
        return f"'{terminal.lower()}'"
    return terminal


# A token written where the language wants another one it resembles: what
# the writer most likely meant, said before the list of what may come.
# (unexpected token, a terminal that must be expected there, the advice)
_MISTAKEN = (
    ("=", "TO", "an effect takes its value after 'to': `set NAME to VALUE`, not '='"),
    ("=", "LESSTHAN", "a comparison is written '==' (one '=' only gives a `let` or a value its definition)"),
)


def _mistaken_hint(token: str, expected) -> str | None:
    for written, wanted, advice in _MISTAKEN:
        if token == written and wanted in expected:
            return advice
    return None


def _expected_hint(expected, token: str | None = None) -> str | None:
    expected = {t for t in expected if not t.startswith("__")}
    first = _mistaken_hint(token, expected) if token is not None else None
    parts = []
    starts = _expression_start()
    if starts and starts <= expected:
        # Everything that can begin an expression: say so, naming the keywords
        # (they are the ones a writer forgets can go there).
        words = sorted(_readable(t) for t in starts if t.isalpha() and t.isupper() and t not in _READABLE)
        parts.append("an expression (a number, a name, a \"text\", '(', '[', '-', " + ", ".join(words) + ")")
        expected -= starts
    # Words before punctuation: a forgotten keyword is the likelier mistake.
    names = sorted({_readable(t) for t in expected}, key=lambda n: (not (n[:1].isalpha() or n[1:2].isalpha()), n))
    if len(names) > 8:
        names = names[:8] + ["…"]
    parts.extend(names)
    listed = "expected " + ", ".join(parts) if parts else None
    return "; ".join(h for h in (first, listed) if h) or None


def _expression_start() -> frozenset:
    try:
        return frozenset(get_fast_parser().expression_start)
    except Exception:  # tables unavailable: list the tokens one by one
        return frozenset()


def _span_at(path: str, line: int, col: int, width: int = 1) -> A.Span:
    return A.Span(path, line, col, line, col + max(1, width))


def _diagnose(err, path: str, block_line: int, block_head: str, has_brace: bool,
              exact: frozenset | None = None) -> Diagnostic:
    """The diagnostic for Lark's error `err` in one block.  `exact`, when given,
    is the fast path's own list of what could have come at the same place: it
    is exact where Lark's `expected` leaves out keywords or lists a token the
    parser would refuse after its reductions."""
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

    if isinstance(err, UnexpectedCharacters):
        ch = err.char
        if ch == '"':
            return Diagnostic(ERROR, "E0102", "unterminated text: a \"string\" must close on its line",
                              _span_at(path, err.line, err.column), "add the closing '\"'")
        if ch == "'":
            return Diagnostic(ERROR, "E0102", "unterminated name: a 'quoted name' must close on its line",
                              _span_at(path, err.line, err.column), "add the closing \"'\"")
        return Diagnostic(ERROR, "E0101", f"unexpected character {ch!r}", _span_at(path, err.line, err.column),
                          _expected_hint(err.allowed or []))
    if isinstance(err, UnexpectedEOF) or (isinstance(err, UnexpectedToken) and err.token.type == "$END"):
        expected = exact if exact is not None else (getattr(err, "expected", None) or [])
        if has_brace:
            return Diagnostic(ERROR, "E0101", f"block '{block_head}' is not closed before the next block",
                              _span_at(path, block_line, 1, len(block_head)), "add the missing '}'")
        return Diagnostic(ERROR, "E0101", f"'{block_head}' ends before it is complete",
                          _span_at(path, block_line, 1, len(block_head)), _expected_hint(expected))
    if isinstance(err, UnexpectedToken):
        tok = err.token
        shown = tok.value if len(tok.value) < 40 else tok.value[:37] + "…"
        expected = exact if exact is not None else err.expected
        return Diagnostic(ERROR, "E0101", f"unexpected {shown!r}",
                          _span_at(path, tok.line, tok.column, len(tok.value)), _expected_hint(expected, tok.value))
    return Diagnostic(ERROR, "E0101", "syntax error", _span_at(path, block_line, 1))


def _exact_expected(text: str, path: str, err) -> frozenset | None:
    """What the fast path says could have come where Lark stopped, if it
    stopped at the same place."""
    from lark.exceptions import UnexpectedToken

    from .lalr import FastPathMiss

    if not isinstance(err, UnexpectedToken):
        return None
    try:
        get_fast_parser().parse(text, path)
    except FastPathMiss as miss:
        if miss.expected is None:
            return None
        at_end = err.token.type == "$END"
        if at_end or (miss.line, miss.column) == (err.line, err.column):
            return miss.expected
    except Exception:  # the hint is a nicety; never let it hide the error
        return None
    return None


def _blocks(text: str):
    """Yield (first_line, block_text) for each top-level block of a file."""
    lines = text.split("\n")
    starts = [i for i, line in enumerate(lines) if _BLOCK_START.match(line)]
    if not starts or starts[0] != 0:
        starts.insert(0, 0)
    starts.append(len(lines))
    for a, b in zip(starts, starts[1:]):
        chunk = "\n".join(lines[a:b])
        if chunk.strip():
            yield a + 1, chunk


def _too_deep(path: str, err) -> Diagnostic:
    from .lalr import MAX_DEPTH

    if err.expression:
        return Diagnostic(ERROR, "E0103", f"expression or block nested too deeply (more than {MAX_DEPTH} levels)",
                          _span_at(path, err.line, err.column),
                          "split it into named values (`value part_one = …`) or procedures")
    return Diagnostic(ERROR, "E0103", "blocks or brackets are nested too deeply to read",
                      _span_at(path, err.line, err.column), "split the nesting into procedures or named values")


def _too_large(path: str, err) -> Diagnostic:
    from ..numbers import MAX_DIGITS, too_large

    return Diagnostic(ERROR, "E0104", too_large(err.text),
                      A.Span(path, err.line, err.column, err.line, err.column + err.width),
                      f"a number in a game fits in {MAX_DIGITS} digits; this one is probably a typing mistake")


def _lark_too_deep(tree, text: str, path: str):
    """NestedTooDeeply if a parse tree of Lark's nests deeper than MAX_DEPTH
    (the fast path's limit; walked without recursion), else None.  It is
    located as the fast path locates it, which reads the same text."""
    from lark import Token, Tree

    from .lalr import MAX_DEPTH, FastPathMiss, NestedTooDeeply

    todo = [(tree, 1)]
    while todo:
        node, depth = todo.pop()
        if depth > MAX_DEPTH:
            try:
                get_fast_parser().parse(text, path)
            except NestedTooDeeply as err:
                return err
            except FastPathMiss:
                pass
            token = next(node.scan_values(lambda v: isinstance(v, Token)), None)
            return NestedTooDeeply(getattr(token, "line", None) or 1, getattr(token, "column", None) or 1,
                                   expression=True)
        todo.extend((child, depth + 1) for child in node.children if isinstance(child, Tree))
    return None


def normalise_line_ends(text: str) -> str:
    """TEXT with every line ended by LF alone: a file saved with CR LF (Windows)
    or with a lone CR (classic Mac OS) has the same lines, so a located error
    names the line an editor shows (the parser counts lines by LF, and to it a
    lone CR is only white space)."""
    if "\r" not in text:
        return text
    return text.replace("\r\n", "\n").replace("\r", "\n")


# The longest text literal ("…") a source may hold, in characters as written
# (quotes and escapes counted).  The project's longest is about 530; the
# lexer's pattern for a text keeps a mark for every character it takes, and
# a text of 4 MiB took 27 s and 1.5 GB to read (with escapes, 64 KiB took
# half a minute).
MAX_TEXT = 50_000
# A line's pieces, each taken whole and never given back (possessive): a
# text (maybe unclosed), a comment, or a run of anything else.
_PIECES = re.compile(r'"(?:[^"\\\n]++|\\.)*+"?|#[^\n]*+|[^"#\n]++')


def _text_too_long(text: str, path: str) -> Diagnostic | None:
    """E0105 at the first text literal longer than MAX_TEXT, found without
    the lexer, in the lines long enough to hold one."""
    if len(text) <= MAX_TEXT:
        return None
    for number, line in enumerate(text.split("\n"), 1):
        if len(line) <= MAX_TEXT:
            continue
        for piece in _PIECES.finditer(line):
            if piece.group(0)[0] == '"' and piece.end() - piece.start() > MAX_TEXT:
                col = piece.start() + 1
                return Diagnostic(ERROR, "E0105", f"a text longer than {MAX_TEXT:,} characters",
                                  A.Span(path, number, col, number, col + 1),
                                  "a text in a source is a name, a note or a message: keep long prose in the docs")
    return None


def parse_text(text: str, path: str) -> tuple[A.Module, list[Diagnostic]]:
    """Parse one file's text.  Never raises for bad input."""
    text = normalise_line_ends(text)
    too_long = _text_too_long(text, path)
    if too_long is not None:
        return A.Module(path), [too_long]
    from .lalr import FastPathMiss, NestedTooDeeply
    from .transform import NumberTooLarge

    try:
        return get_fast_parser().parse(text, path), []
    except FastPathMiss:
        pass  # Lark's own parser says what is wrong, block by block
    except NestedTooDeeply as err:
        return A.Module(path), [_too_deep(path, err)]
    except NumberTooLarge as err:
        return A.Module(path), [_too_large(path, err)]
    from lark.exceptions import UnexpectedInput

    from .transform import ToAst

    parser = get_parser()
    try:
        tree = parser.parse(text)
        deep = _lark_too_deep(tree, text, path)
        if deep is not None:
            return A.Module(path), [_too_deep(path, deep)]
        return ToAst(path).transform(tree), []
    except UnexpectedInput:
        pass
    except NumberTooLarge as err:
        return A.Module(path), [_too_large(path, err)]
    except RecursionError:
        return A.Module(path), [Diagnostic(ERROR, "E0103", "blocks are nested too deeply to read",
                                           _span_at(path, 1, 1), "split the nesting into procedures")]
    module = A.Module(path)
    diags: list[Diagnostic] = []
    for first_line, chunk in _blocks(text):
        padded = "\n" * (first_line - 1) + chunk
        head = chunk.split("\n", 1)[0].strip()
        head = " ".join(head.replace("{", " ").split()[:2])
        try:
            tree = parser.parse(padded)
            deep = _lark_too_deep(tree, padded, path)
            if deep is not None:
                diags.append(_too_deep(path, deep))
                continue
            part = ToAst(path).transform(tree)
        except UnexpectedInput as err:
            diags.append(_diagnose(err, path, first_line, head, "{" in chunk, _exact_expected(padded, path, err)))
            continue
        except NumberTooLarge as err:
            diags.append(_too_large(path, err))
            continue
        except RecursionError:
            diags.append(Diagnostic(ERROR, "E0103", f"block '{head}' is nested too deeply to read",
                                    _span_at(path, first_line, 1, len(head)), "split the nesting into procedures"))
            continue
        module.decls.extend(part.decls)
        module.connections.extend(part.connections)
    return module, diags


@contextmanager
def bulk_allocation():
    """No cyclic garbage collection while ASTs are built or loaded.

    A project's ASTs are some eighty thousand objects and hold no cycles; with
    the collector on, each new generation of them sets off a collection that
    walks all the earlier ones again, which tripled the time to load them.
    Afterwards they are moved out of the collector's sight (`gc.freeze`): the
    checker's own allocations would otherwise set off full collections that
    walk them all again.  Being acyclic, they are still freed by reference
    counting when dropped."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if was_enabled:
            gc.enable()


def _parse_and_pack(items: list[tuple[str, str, str]]) -> list[tuple[str, str | None, object]]:
    """Parse (key, text, path) items; each clean module comes back as the JSON
    text the cache keeps (syntax/plain.py), and a module with diagnostics as
    (module, diags) objects."""
    from .plain import to_plain

    out = []
    for key, text, path in items:
        module, diags = parse_text(text, path)
        packed = None
        if not diags:
            try:
                packed = json.dumps(to_plain(module), separators=(",", ":"))
            except (RecursionError, TypeError, ValueError):  # too deep to store: parse it each time
                packed = None
        out.append((key, packed, (module, diags)))
    return out


def _worker_share(items):
    # Runs in the forked worker: the parent's loaded tables come with the fork.
    # What was packed for the cache is all the parent needs of a clean module.
    return [(key, packed, None if packed is not None else parsed) for key, packed, parsed in _parse_and_pack(items)]


def _fork_pool():
    """A one-worker process pool sharing this process's memory (fork), or None
    where forking is not available or not worth it."""
    import multiprocessing

    if (os.cpu_count() or 1) < 2 or "fork" not in multiprocessing.get_all_start_methods():
        return None
    from concurrent.futures import ProcessPoolExecutor

    try:
        return ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("fork"))
    except (OSError, ValueError):
        return None


def _deal(todo: list, share: float) -> tuple[list, list]:
    """Split the files to parse so that the first part holds about `share` of
    the text: largest files first, each to the part further below its target."""
    theirs, mine, their_size, my_size = [], [], 0, 0
    for item in sorted(todo, key=lambda t: -len(t[2])):
        if their_size * (1 - share) <= my_size * share:
            theirs.append(item)
            their_size += len(item[2])
        else:
            mine.append(item)
            my_size += len(item[2])
    return theirs, mine


class ParseCache:
    """Parsed modules keyed by a digest of (grammar, path, text), kept in one
    file so a warm load is a single read.  Each module is stored as its own
    JSON text (syntax/plain.py: data, never code), so new entries — parsed
    here or by the worker of `parse_many` — are written without encoding
    anything twice.  The file is sealed (sealed_cache.py): a damaged, stale,
    rewritten or planted file — or a FIFO in its place — is simply a miss;
    entries not used for a while are dropped when it grows."""

    LIMIT = 4000
    # The most a cache file may hold: the project's is about 4 MiB.
    FILE_LIMIT = 256 * 1024 * 1024
    # Below this many files to parse, a second process costs more than it saves.
    PARALLEL_FROM = 24
    # The worker's part of the text to parse.  Under half: the parent also
    # loads what the worker sends back, and starting the worker takes a while
    # (measured: 0.42 ends both at about the same time, 0.54 → 0.44 s here).
    WORKER_SHARE = 0.42

    def __init__(self) -> None:
        from .. import sealed_cache

        folder = cache_dir()
        self.path = folder / f"ast-{grammar_digest()}.json" if folder is not None else None
        self.entries: dict[str, str] = {}
        self.loaded: dict[str, A.Module] = {}
        self.used: set[str] = set()
        self.dirty = False
        if self.path is not None:
            content = sealed_cache.read(self.path, self.path.name, self.FILE_LIMIT)
            try:
                entries = json.loads(content) if content is not None else None
            except (ValueError, RecursionError):  # a damaged cache is just empty
                entries = None
            if isinstance(entries, dict) and all(type(v) is str for v in entries.values()):
                self.entries = entries

    @staticmethod
    def key(path: str, text: str) -> str:
        return hashlib.sha256(f"{path}\0{text}".encode()).hexdigest()

    def _cached(self, key: str) -> A.Module | None:
        from .plain import from_plain

        module = self.loaded.get(key)
        if module is None and key in self.entries:
            try:
                module = from_plain(json.loads(self.entries[key]))
            except (ValueError, RecursionError):  # a damaged entry is a miss
                del self.entries[key]
                return None
            if not isinstance(module, A.Module):
                del self.entries[key]
                return None
            self.loaded[key] = module
        return module

    def parse(self, text: str, path: str) -> tuple[A.Module, list[Diagnostic]]:
        return self.parse_many([(text, path)])[0]

    def parse_many(self, items: list[tuple[str, str]]) -> list[tuple[A.Module, list[Diagnostic]]]:
        """Parse (text, path) items, in order.  Cached ones are loaded; with many
        to parse and two cores, a forked worker parses part of them meanwhile."""
        with bulk_allocation():
            return self._parse_many(items)

    def _parse_many(self, items: list[tuple[str, str]]) -> list[tuple[A.Module, list[Diagnostic]]]:
        results: list = [None] * len(items)
        todo = []
        for i, (text, path) in enumerate(items):
            key = self.key(path, text)
            self.used.add(key)
            module = self._cached(key)
            if module is not None:
                results[i] = (module, [])
            else:
                todo.append((i, key, text, path))
        for i, key, packed, parsed in self._parse_todo(todo):
            if packed is None:
                results[i] = parsed
                continue
            self.entries[key] = packed
            self.dirty = True
            module = parsed[0] if parsed is not None else self._unpack(key, packed)
            self.loaded[key] = module
            results[i] = (module, [])
        return results

    def _unpack(self, key: str, packed: str) -> A.Module:
        from .plain import from_plain

        return from_plain(json.loads(packed))

    def _parse_todo(self, todo):
        """(index, key, packed, parsed) for each item to parse."""
        pool = _fork_pool() if len(todo) >= self.PARALLEL_FROM else None
        if pool is None:
            return [(i, *packed) for (i, *_), packed in zip(todo, _parse_and_pack([t[1:] for t in todo]))]
        get_fast_parser()  # loaded before the fork, so the worker has it too
        theirs, mine = _deal(todo, self.WORKER_SHARE)
        with pool:
            future = pool.submit(_worker_share, [t[1:] for t in theirs])
            done = [(i, *packed) for (i, *_), packed in zip(mine, _parse_and_pack([t[1:] for t in mine]))]
            try:
                shared = future.result()
            except Exception:  # a worker that failed: parse its share here
                shared = _parse_and_pack([t[1:] for t in theirs])
        done.extend((i, *packed) for (i, *_), packed in zip(theirs, shared))
        return done

    def save(self) -> None:
        from .. import sealed_cache

        if self.path is None or not self.dirty:
            return
        if len(self.entries) > self.LIMIT:
            self.entries = {k: v for k, v in self.entries.items() if k in self.used}
        try:
            content = json.dumps(self.entries, separators=(",", ":")).encode()
        except (RecursionError, ValueError):
            return
        # (a cache that cannot be written is only a missed speed-up)
        if sealed_cache.write(self.path, self.path.name, content):
            self.dirty = False
