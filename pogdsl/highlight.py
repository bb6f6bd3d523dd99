"""Syntax highlighting of `.pog` sources with Pygments.

`PogLexer` is registered with Pygments under the name ``pog`` (see the
``pygments.lexers`` entry point in pyproject.toml), so ``pygmentize -l pog``,
Sphinx (``.. code-block:: pog``) and any tool built on Pygments colour the
language.

The keyword list is not typed in here: it is read from the grammar,
``pogdsl/grammar/pog.lark``, when this module is imported.  Every double-quoted
word in the grammar is a keyword, so a keyword added to the language is
highlighted without touching this file.  Only the *category* of a few keywords
(declaration, effect verb, preposition, literal, operator word) is decided
here, by reading the grammar rules that list them (``verb``, ``prep``,
``aggregator``, ``bool_word``, ``state_kind``); a keyword of no category is a
plain ``Keyword``.

Token types a style sheet can rely on:

=========================== ==================================================
``Keyword.Declaration``     a declaration keyword opening a line: ``card``,
                            ``procedure``, ``space``, ``rule`` ...
``Keyword``                 other keywords: ``let``, ``if``, ``choose``,
                            ``cites``, ``when`` ...
``Keyword.Pseudo``          the effect verbs: ``move``, ``place``, ``shift`` ...
``Keyword.Reserved``        the prepositions of effects: ``to``, ``at``, ``by`` ...
``Keyword.Constant``        ``true``, ``false``, ``none``, ``on``, ``off``
``Operator.Word``           ``and``, ``or``, ``not``, ``in``
``Name.Builtin``            aggregators (``count``, ``sum`` ...), built-in
                            functions (``units_in``) and constants (``turn``)
``Name.Label``              rule numbers: ``12.4.3``, ``6.0.E.2``
``Name.Entity``             'Quoted Names'
``Name.Attribute``          the word after a dot: ``u.nation``
``Number.Other``            unit factors: ``5-3-3``
``String.Double``           "text", with ``String.Interpol`` for ``{name}``
=========================== ==================================================
"""

from __future__ import annotations

import re
from pathlib import Path

from pygments.lexer import RegexLexer, bygroups
from pygments.token import (
    Comment,
    Error,
    Keyword,
    Name,
    Number,
    Operator,
    Punctuation,
    String,
    Whitespace,
)

# The closed vocabulary's functions and constants (that module imports only attrs).
from .semantics.vocabulary import CONSTANTS as _CONSTANTS
from .semantics.vocabulary import FUNCTIONS as _FUNCTIONS

GRAMMAR_PATH = Path(__file__).resolve().parent / "grammar" / "pog.lark"

# Keywords that open a declaration when they start a line.  The same words in
# the middle of a line (`nation fr "France" side ap`, `for u in units`) are
# ordinary keywords or built-in names.
DECLARATION_KEYWORDS = (
    "side", "nation", "map", "enum", "spaces", "connections", "box", "units", "table",
    "track", "counter", "flag", "marker", "var", "value", "term", "choice", "signal", "procedure",
    "phase", "sequence", "restriction", "modifier", "trigger", "card", "scenario", "ruleset", "rulebook",
    "space", "rule",
)
OPERATOR_WORDS = ("and", "or", "not", "in")

_LITERAL = re.compile(r'"([A-Za-z_][A-Za-z0-9_]*)"')


def _strip_comments(grammar: str) -> str:
    """The grammar without its `//` comment lines (which quote words too)."""
    return "\n".join(line for line in grammar.splitlines() if not line.lstrip().startswith("//"))


def grammar_keywords(grammar: str | None = None) -> frozenset[str]:
    """Every keyword of the language: the double-quoted words of the grammar."""
    text = _strip_comments(grammar if grammar is not None else GRAMMAR_PATH.read_text(encoding="utf-8"))
    return frozenset(_LITERAL.findall(text))


def rule_keywords(rule: str, grammar: str | None = None) -> tuple[str, ...]:
    """The quoted words of one grammar rule (its first line and its indented
    continuation lines), e.g. ``rule_keywords("verb")``."""
    text = _strip_comments(grammar if grammar is not None else GRAMMAR_PATH.read_text(encoding="utf-8"))
    lines = text.splitlines()
    head = re.compile(rf"^[!?]?{re.escape(rule)}\s*:")
    for i, line in enumerate(lines):
        if head.match(line):
            body = [line]
            for follow in lines[i + 1:]:
                if follow[:1] in (" ", "\t") and follow.strip():
                    body.append(follow)
                else:
                    break
            return tuple(dict.fromkeys(_LITERAL.findall("\n".join(body))))
    return ()


def _keyword_table() -> dict[str, object]:
    grammar = GRAMMAR_PATH.read_text(encoding="utf-8")
    table: dict[str, object] = {word: Keyword for word in grammar_keywords(grammar)}
    for word in rule_keywords("verb", grammar):
        table[word] = Keyword.Pseudo
    for word in rule_keywords("prep", grammar):
        table[word] = Keyword.Reserved
    for word in rule_keywords("aggregator", grammar):
        table[word] = Name.Builtin
    for word in ("true", "false", "none") + rule_keywords("bool_word", grammar):
        if word in table:
            table[word] = Keyword.Constant
    for word in OPERATOR_WORDS:
        if word in table:
            table[word] = Operator.Word
    return table


KEYWORD_TYPES: dict[str, object] = _keyword_table()
KEYWORDS: frozenset[str] = frozenset(KEYWORD_TYPES)
BUILTIN_FUNCTIONS: frozenset[str] = frozenset(_FUNCTIONS)
BUILTIN_CONSTANTS: frozenset[str] = frozenset(_CONSTANTS)
BUILTINS: frozenset[str] = BUILTIN_FUNCTIONS | BUILTIN_CONSTANTS


def _word(lexer, match):
    """A bare word: a keyword of its category, a built-in, or a plain name.

    A few words are both: `units` and `spaces` open declarations but, in the
    middle of a line, are the constants; `option` is a scenario item but
    `option("...")` is the built-in function."""
    word = match.group(0)
    kind = KEYWORD_TYPES.get(word)
    if kind is None or kind is Keyword:
        called = match.string[match.end():match.end() + 1] == "("
        if word in BUILTIN_CONSTANTS or (word in BUILTIN_FUNCTIONS and (called or kind is None)):
            yield match.start(), Name.Builtin, word
            return
    yield match.start(), kind or Name, word


_NAME = r"[A-Za-z_][A-Za-z0-9_]*"


class PogLexer(RegexLexer):
    """Lexer for pogdsl, the rules language of Paths of Glory (`.pog` files)."""

    name = "pog"
    aliases = ["pog", "pogdsl"]
    filenames = ["*.pog"]
    mimetypes = ["text/x-pogdsl"]
    flags = re.MULTILINE

    tokens = {
        "root": [
            # A declaration keyword starting a line (after its indentation).
            (rf"^([ \t]*)({'|'.join(DECLARATION_KEYWORDS)})\b", bygroups(Whitespace, Keyword.Declaration)),
            (r"\n", Whitespace),
            (r"[ \t\r\f]+", Whitespace),
            (r"#[^\n]*", Comment.Single),
            (r'"', String.Double, "text"),
            (r"'[^'\n]+'", Name.Entity),
            (r"'", Error),
            # Rule numbers before plain numbers: 12.4.3, 6.0, 6.0.E.2.
            (r"[0-9]+(?:\.[0-9]+)+(?:\.[A-H](?:\.[0-9]+)?)?\b", Name.Label),
            (r"[0-9]+-[0-9]+-[0-9]+\b", Number.Other),
            (r"[0-9]+", Number.Integer),
            # An attribute after a dot (`u.nation`), even when it is a keyword.
            (rf"(\.)({_NAME})", bygroups(Punctuation, Name.Attribute)),
            # A word indexed like state or a table (`control[s]`) is a name.
            (rf"{_NAME}(?=\[)", Name),
            (_NAME, _word),
            (r"\.\.|\+=|-=|:=|==|!=|<=|>=|--|~~", Operator),
            (r"[-+*/%<>=]", Operator),
            (r"[{}()\[\],:.]", Punctuation),
            (r".", Error),
        ],
        "text": [
            (r'"', String.Double, "#pop"),
            (r"\\.", String.Escape),
            (rf"\{{{_NAME}[^}}\n\"]*\}}", String.Interpol),
            (r'[^"\\{\n]+', String.Double),
            (r"\{", String.Double),
            (r"\n", Error, "#pop"),
        ],
    }


__all__ = [
    "BUILTINS",
    "BUILTIN_CONSTANTS",
    "BUILTIN_FUNCTIONS",
    "DECLARATION_KEYWORDS",
    "KEYWORDS",
    "KEYWORD_TYPES",
    "PogLexer",
    "grammar_keywords",
    "rule_keywords",
]
