"""Text → AST, with per-block error recovery and two caches.

* The Lark LALR tables are built once per grammar version and cached on disk
  (Lark's own `cache=`), so a cold start does not pay for grammar analysis.
* Parsed modules are cached by content hash (`~/.cache/pogdsl/ast`), so checking
  an unchanged project only unpickles its ASTs.

Recovery: every top-level block starts with a keyword in column 1.  When a file
does not parse, it is cut at those lines and each block is parsed on its own, so
three broken blocks give three errors at their own lines and the good blocks
still reach the checker.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import re
from functools import lru_cache
from pathlib import Path

from .. import __version__
from ..diagnostics import ERROR, Diagnostic
from . import ast as A

# Lark, the tables and the transformer are loaded only when a file must really
# be parsed: a warm check of an unchanged project never pays for them.

GRAMMAR_PATH = Path(__file__).resolve().parent.parent / "grammar" / "pog.lark"

TOP_LEVEL_KEYWORDS = (
    "side", "nation", "map", "enum", "spaces", "connections", "box", "units", "table",
    "track", "counter", "flag", "marker", "var", "value", "choice", "signal", "procedure",
    "phase", "sequence", "restriction", "modifier", "trigger", "card", "scenario", "rulebook",
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


def _cache_dir() -> Path | None:
    base = os.environ.get("POGDSL_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "pogdsl"
    )
    path = Path(base)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return path if os.access(path, os.W_OK) else None


@lru_cache(maxsize=1)
def grammar_text() -> str:
    return GRAMMAR_PATH.read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def grammar_digest() -> str:
    """Identifies the grammar and the code that turns its trees into ASTs: a
    cached parse is only reused if none of them changed."""
    here = Path(__file__).resolve().parent
    code = "".join((here / name).read_text(encoding="utf-8") for name in ("ast.py", "transform.py"))
    return hashlib.sha256((grammar_text() + code + __version__).encode()).hexdigest()[:16]


@lru_cache(maxsize=1)
def get_parser():
    from lark import Lark

    options = dict(parser="lalr", propagate_positions=True, strict=True, maybe_placeholders=False)
    cache = _cache_dir()
    if cache is not None:
        try:
            return Lark(grammar_text(), cache=str(cache / f"lalr-{grammar_digest()}.cache"), **options)
        except OSError:
            pass
    return Lark(grammar_text(), **options)


def _readable(terminal: str) -> str:
    if terminal in _READABLE:
        return _READABLE[terminal]
    if terminal.isupper() and terminal.isalpha():
        return f"'{terminal.lower()}'"
    return terminal


def _expected_hint(expected) -> str | None:
    names = sorted({_readable(t) for t in expected if not t.startswith("__")})
    if not names:
        return None
    if len(names) > 8:
        names = names[:8] + ["…"]
    return "expected " + ", ".join(names)


def _span_at(path: str, line: int, col: int, width: int = 1) -> A.Span:
    return A.Span(path, line, col, line, col + max(1, width))


def _diagnose(err, path: str, block_line: int, block_head: str, has_brace: bool) -> Diagnostic:
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
        expected = getattr(err, "expected", None) or []
        if has_brace:
            return Diagnostic(ERROR, "E0101", f"block '{block_head}' is not closed before the next block",
                              _span_at(path, block_line, 1, len(block_head)), "add the missing '}'")
        return Diagnostic(ERROR, "E0101", f"'{block_head}' ends before it is complete",
                          _span_at(path, block_line, 1, len(block_head)), _expected_hint(expected))
    if isinstance(err, UnexpectedToken):
        tok = err.token
        shown = tok.value if len(tok.value) < 40 else tok.value[:37] + "…"
        return Diagnostic(ERROR, "E0101", f"unexpected {shown!r}",
                          _span_at(path, tok.line, tok.column, len(tok.value)), _expected_hint(err.expected))
    return Diagnostic(ERROR, "E0101", "syntax error", _span_at(path, block_line, 1))


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


def parse_text(text: str, path: str) -> tuple[A.Module, list[Diagnostic]]:
    """Parse one file's text.  Never raises for bad input."""
    from lark.exceptions import UnexpectedInput

    from .transform import ToAst

    parser = get_parser()
    try:
        tree = parser.parse(text)
        return ToAst(path).transform(tree), []
    except UnexpectedInput:
        pass
    except RecursionError:
        return A.Module(path), [Diagnostic(ERROR, "E0101", "blocks are nested too deeply to read",
                                           _span_at(path, 1, 1), "split the nesting into procedures")]
    module = A.Module(path)
    diags: list[Diagnostic] = []
    for first_line, chunk in _blocks(text):
        padded = "\n" * (first_line - 1) + chunk
        head = chunk.split("\n", 1)[0].strip()
        head = " ".join(head.replace("{", " ").split()[:2])
        try:
            part = ToAst(path).transform(parser.parse(padded))
        except UnexpectedInput as err:
            diags.append(_diagnose(err, path, first_line, head, "{" in chunk))
            continue
        except RecursionError:
            diags.append(Diagnostic(ERROR, "E0101", f"block '{head}' is nested too deeply to read",
                                    _span_at(path, first_line, 1, len(head)), "split the nesting into procedures"))
            continue
        module.decls.extend(part.decls)
        module.connections.extend(part.connections)
    return module, diags


class ParseCache:
    """Parsed modules keyed by a digest of (grammar, path, text), kept in one
    pickle file so a warm load is a single read.  A damaged or stale file is
    simply a miss; entries not used for a while are dropped when it grows."""

    LIMIT = 4000

    def __init__(self) -> None:
        folder = _cache_dir()
        self.path = folder / f"ast-{grammar_digest()}.pickle" if folder is not None else None
        self.entries: dict[str, A.Module] = {}
        self.used: set[str] = set()
        self.dirty = False
        if self.path is not None and self.path.exists():
            try:
                with self.path.open("rb") as fh:
                    self.entries = pickle.load(fh)
            except Exception:  # a damaged cache is just empty
                self.entries = {}

    @staticmethod
    def key(path: str, text: str) -> str:
        return hashlib.sha256(f"{path}\0{text}".encode()).hexdigest()

    def parse(self, text: str, path: str) -> tuple[A.Module, list[Diagnostic]]:
        key = self.key(path, text)
        self.used.add(key)
        module = self.entries.get(key)
        if module is not None:
            return module, []
        module, diags = parse_text(text, path)
        if not diags:
            self.entries[key] = module
            self.dirty = True
        return module, diags

    def save(self) -> None:
        if self.path is None or not self.dirty:
            return
        if len(self.entries) > self.LIMIT:
            self.entries = {k: v for k, v in self.entries.items() if k in self.used}
        try:
            tmp = self.path.with_suffix(f".{os.getpid()}.tmp")
            with tmp.open("wb") as fh:
                pickle.dump(self.entries, fh, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, self.path)
            self.dirty = False
        except Exception:  # a cache that cannot be written is only a missed speed-up
            pass
