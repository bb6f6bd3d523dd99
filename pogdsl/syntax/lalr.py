"""The fast path: Lark's LALR tables for `pog.lark`, driven without Lark.

Lark's own pipeline (contextual lexer → parser → parse tree with propagated
positions → `ToAst`) spent most of a cold `pogdsl check` on work a valid file
does not need: importing Lark and loading its tables, compiling one regular
expression per parser state on first use, building a `Tree` and a `Meta` for
every reduction and then walking the trees a second time.  This module runs the
*same* tables, exported from Lark into `pog.tables.json` (see `export_tables`),
with

* one scanner regex for all terminals; a word is a keyword only where the
  parser state accepts that keyword, otherwise a NAME — as Lark's contextual
  lexer decides — and a rule number or factors the state cannot take are read
  again with the ordinary terminals, as the contextual lexer would;
* the AST built during the parse: each reduction filters its children exactly
  as Lark's parse-tree builder would (the filter lists are Lark's own,
  exported with the tables) and calls the `ToAst` method of its rule;
* positions kept on a stack beside the values, so every span covers the text
  Lark's `propagate_positions` would give it.

Anything the fast path does not accept raises `FastPathMiss`; the caller then
parses with Lark itself, whose exceptions carry the expected-token sets the
diagnostics are written from.  So every error message is Lark's, and a valid
file gives exactly the AST Lark's pipeline gives (tests/test_parser.py compares
both on every project file and on mutated ones).
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

TABLES_FORMAT = "pogdsl-lalr/1"


class FastPathMiss(Exception):
    """The fast path cannot parse this text; use Lark's parser for the error.

    When the miss is a token the parser cannot take, it says where, and
    `expected` lists exactly the terminals that could have come instead."""

    def __init__(self, line: int | None = None, column: int | None = None, expected: frozenset | None = None):
        super().__init__("not on the fast path")
        self.line = line
        self.column = column
        self.expected = expected


class NestedTooDeeply(Exception):
    """The text nests deeper than the later stages (checker, compiler) follow:
    blocks (the parser's stack) or an expression (`1 + 1 + …`, `x.a.a…`)."""

    def __init__(self, line: int, column: int, expression: bool = False):
        super().__init__(f"nested too deeply at {line}:{column}")
        self.line = line
        self.column = column
        self.expression = expression


# The parser's stack grows by about three entries for each nested block; the
# project's own files never pass 60.  400 leaves room for some 130 nested
# blocks, well within what the recursive checker and compiler can follow.
MAX_STACK = 400

# How deeply the syntax tree of one file may nest: each rule that builds a
# node adds a level (a sum of n terms, a chain `x.a.a…` of n links or n nested
# brackets nest n levels).  The project's own files never pass 40; the checker,
# the code generator and Python's own compiler of the generated code all follow
# this depth with room to spare.
MAX_DEPTH = 100


class Tok(str):
    """A token: its text, with the fields of Lark's `Token` that `ToAst` reads."""

    __slots__ = ("column", "end_column", "end_line", "end_pos", "line", "start_pos", "type", "value")

    def __repr__(self) -> str:
        return f"Tok({self.type!r}, {self.value!r})"


_new_str = str.__new__


def _token(kind: str, value: str, pos: int, line: int, column: int) -> Tok:
    token = _new_str(Tok, value)
    token.type = kind
    token.value = value
    token.start_pos = pos
    token.line = token.end_line = line
    token.column = column
    token.end_column = column + len(value)
    token.end_pos = pos + len(value)
    return token


class _Meta:
    """What `ToAst` reads of Lark's `Meta`: where a reduction starts and ends."""

    __slots__ = ("column", "empty", "end_column", "end_line", "line")

    def __init__(self, line, column, end_line, end_column):
        self.line = line
        self.column = column
        self.end_line = end_line
        self.end_column = end_column
        self.empty = False


class _EmptyMeta:
    __slots__ = ("empty",)

    def __init__(self):
        self.empty = True


_EMPTY = _EmptyMeta()


class _Splice(list):
    """The children of an inlined `_rule` (Lark's EBNF repetitions), spliced
    into the parent's children by the parent's filter."""


def grammar_key(grammar_text: str) -> str:
    return hashlib.sha256((TABLES_FORMAT + "\n" + grammar_text).encode()).hexdigest()


# ---------------------------------------------------------------------- export

def export_tables(lark_parser, grammar_text: str) -> dict:
    """The tables and filters of a Lark LALR parser as plain JSON data."""
    from lark.parse_tree_builder import maybe_create_child_filter
    from lark.parsers.lalr_analysis import Shift

    table = lark_parser.parser.parser.parser.parse_table
    rules = list(lark_parser.rules)
    index = {id(rule): i for i, rule in enumerate(rules)}
    exported_rules = []
    for rule in rules:
        opts = rule.options
        made = maybe_create_child_filter(rule.expansion, opts.keep_all_tokens, False, None)
        include = [[i, bool(expand)] for i, expand in made.args[0]] if made is not None else None
        exported_rules.append({
            "origin": rule.origin.name,
            "size": len(rule.expansion),
            "callback": rule.alias or opts.template_source or rule.origin.name,
            "expand1": bool(opts.expand1 and not rule.alias),
            "include": include,
            "inline": rule.origin.name.startswith("_"),
            # `?a: b` — the value is the child itself, nothing to build.
            "passthrough": bool(opts.expand1 and not rule.alias and len(rule.expansion) == 1
                                and not rule.expansion[0].is_term
                                and not rule.expansion[0].name.startswith("_")),
        })
    states = {}
    for state, actions in table.states.items():
        # A shift (or goto) is the next state; a reduction is -1 - rule index.
        states[str(state)] = {kind: (arg if action is Shift else -1 - index[id(arg)])
                              for kind, (action, arg) in actions.items()}
    ignore = list(lark_parser.lexer_conf.ignore)
    from lark.grammar import NonTerminal
    from lark.parsers.grammar_analysis import GrammarAnalyzer

    first = GrammarAnalyzer(lark_parser.parser.parser_conf).FIRST
    terminals = [{"name": t.name, "regex": t.pattern.to_regexp(), "priority": t.priority,
                  "string": t.pattern.value if t.pattern.type == "str" else None,
                  "max_width": t.pattern.max_width}
                 for t in lark_parser.terminals]
    return {
        "format": TABLES_FORMAT,
        "key": grammar_key(grammar_text),
        "start": table.start_states["start"],
        "end": table.end_states["start"],
        "ignore": ignore,
        "terminals": terminals,
        "rules": exported_rules,
        "states": states,
        # What can start an expression: a hint says "an expression" for these.
        "expression_start": sorted(t.name for t in first[NonTerminal("expr")]),
    }


def load_tables(path: Path, grammar_text: str) -> dict | None:
    """The exported tables, or None when missing, damaged or not for this grammar."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("key") != grammar_key(grammar_text):
        return None
    return data


# ---------------------------------------------------------------------- driver

class FastParser:
    """Parses a whole file with the exported tables and a `ToAst` instance."""

    def __init__(self, tables: dict, to_ast_class):
        self.to_ast_class = to_ast_class
        self.current = None  # the ToAst instance of the file being parsed
        self.span = None  # (line, column, end_line, end_column) of the reduction being built
        self.chains: dict[tuple, int] = {}  # see _run: pass-through chains, worked out once
        self.expression_start = frozenset(tables.get("expression_start", ()))
        self.start_state = tables["start"]
        self.end_state = tables["end"]
        self._build_scanner(tables)
        reductions = [self._reduction(rule) for rule in tables["rules"]]
        # Per state: kind → (True, next state) or (False, (callback, size, origin)).
        self.states = {
            int(state): {kind: (True, arg) if arg >= 0 else (False, reductions[-1 - arg])
                         for kind, arg in actions.items()}
            for state, actions in tables["states"].items()
        }

    def _reduction(self, rule: dict):
        if rule["passthrough"]:
            return None, rule["size"], rule["origin"], 0
        # An inlined `_rule` (a repetition) adds no level: its items are spliced into the parent.
        return self._callback(rule), rule["size"], rule["origin"], 0 if rule["inline"] else 1

    def _callback(self, rule: dict):
        include = rule["include"]
        expand1 = rule["expand1"]
        method = getattr(self.to_ast_class, rule["callback"], None)
        inline = rule["inline"]
        if inline:
            def build(children):
                return children if type(children) is _Splice else _Splice(children)
        elif method is None:
            def build(children):
                raise FastPathMiss()  # a bare parse tree: leave it to Lark
        else:
            def build(children):
                span = self.span
                return method(self.current, _EMPTY if span is None else _Meta(*span), children)

        if expand1:
            inner = build

            def build(children):
                return children[0] if len(children) == 1 else inner(children)

        if include is None:
            return build

        include = [tuple(item) for item in include]
        if inline and include and include[0] == (0, True):
            # A repetition `_r: _r "," x | x` reduces once per item: extend the
            # splice built so far in place (it is consumed only here) rather
            # than copy it each time, so a list of n items takes O(n), not O(n²).
            rest = include[1:]

            def filtered(children):
                kept = children[0]
                if type(kept) is not _Splice:
                    kept = _Splice(kept)
                for i, expand in rest:
                    if expand:
                        kept.extend(children[i])
                    else:
                        kept.append(children[i])
                return build(kept)
            return filtered

        def filtered(children):
            kept = []
            for i, expand in include:
                if expand:
                    kept.extend(children[i])
                else:
                    kept.append(children[i])
            return build(kept)
        return filtered

    # ------------------------------------------------------------------ lexing
    def _build_scanner(self, tables: dict) -> None:
        ignore = set(tables["ignore"])
        terminals = tables["terminals"]
        word = re.compile(next(t["regex"] for t in terminals if t["name"] == "NAME"))
        self.keywords: dict[str, str] = {}
        scanned, skipped = [], []
        for t in terminals:
            if t["name"] in ignore:
                skipped.append(t["regex"])
            elif t["string"] is not None and word.fullmatch(t["string"]) and t["priority"] == 0:
                self.keywords[t["string"]] = t["name"]
            else:
                scanned.append(t)
        # Lark's own order: higher priority, then longer fixed width, then longer pattern.
        scanned.sort(key=lambda t: (-t["priority"], -t["max_width"], -len(t["string"] or t["regex"]), t["name"]))
        # One match per token: the ignored text before it (spaces, comments) is
        # part of the same match, outside any named group.  The group is atomic
        # so that a failed match never backtracks into a comment and reads a
        # token out of it (`# }` at the end of a file is not a brace).
        skip = "(?>(?:%s)*)" % "|".join(f"(?:{r})" for r in skipped)
        groups = "|".join(f"(?P<{t['name']}>{t['regex']})" for t in scanned)
        self.scanner = re.compile(f"{skip}(?:{groups})")
        self.trailer = re.compile(skip + r"\Z")
        self.high = {t["name"] for t in scanned if t["priority"] > 0}
        self.terminal_names = [t["name"] for t in terminals if t["name"] not in ignore] + ["$END"]
        low = "|".join(f"(?P<{t['name']}>{t['regex']})" for t in scanned if t["priority"] == 0)
        self.low_scanner = re.compile(low)

    def acceptable(self, state_stack: list[int]) -> frozenset:
        """The terminals that the parser in this configuration would shift next.

        An LALR state may reduce on a lookahead that can never be shifted after
        the reductions (lookaheads of merged states), so each candidate is
        followed through its reductions on a copy of the stack; only the ones
        that end in a shift are kept.  This is what a syntax error's hint lists."""
        top = self.states[state_stack[-1]]
        terminals = [k for k in self.terminal_names if k in top]
        return frozenset(k for k in terminals if self._would_shift(list(state_stack), k))

    def _would_shift(self, stack: list[int], kind: str) -> bool:
        states = self.states
        for _ in range(10_000):  # a reduction chain is finite; this only guards the loop
            action = states[stack[-1]].get(kind)
            if action is None:
                return False
            shift, arg = action
            if shift:
                return True
            n, origin = arg[1], arg[2]
            if n:
                del stack[-n:]
            if not stack:
                return False
            goto = states[stack[-1]].get(origin)
            if goto is None:
                return False
            stack.append(goto[1])
        return False

    def _follow_chain(self, below: int, origin: str, kind: str) -> int:
        """The state after a run of pass-through reductions under lookahead `kind`."""
        states = self.states
        state = states[below][origin][1]
        while True:
            shift, arg = states[state].get(kind, (True, None))
            if shift or arg[0] is not None:
                return state
            state = states[below][arg[2]][1]

    # ----------------------------------------------------------------- parsing
    def parse(self, text: str, path: str):
        self.current = self.to_ast_class(path)
        try:
            return self._run(text)
        finally:
            self.current = None
            self.span = None

    def _run(self, text: str):
        states = self.states
        keywords = self.keywords
        high = self.high
        match = self.scanner.match
        count = text.count
        rfind = text.rfind
        state_stack = [self.start_state]
        value_stack: list = []
        # How deeply nested each value is (a token 0, a node one more than its deepest child).
        depth_stack: list = []
        max_depth = MAX_DEPTH
        # (line, column, end_line, end_column) of each value, or None if it covers no text.
        pos_stack: list = []
        pos, line, line_start = 0, 1, 0
        end_state = self.end_state
        chains = self.chains
        while True:
            m = match(text, pos)
            if m is not None:
                kind = m.lastgroup
                start = m.start(kind)
                if start != pos:
                    newlines = count("\n", pos, start)
                    if newlines:
                        line += newlines
                        line_start = rfind("\n", pos, start) + 1
                value = m.group(kind)
                actions = states[state_stack[-1]]
                if kind == "NAME":
                    keyword = keywords.get(value)
                    if keyword is not None and keyword in actions:
                        kind = keyword
                elif kind in high and kind not in actions:
                    low = self.low_scanner.match(text, start)
                    if low is None:
                        raise FastPathMiss()
                    kind, value = low.lastgroup, low.group()
                column = start - line_start + 1
                token = _token(kind, value, start, line, column)
                tok_pos = (line, column, line, column + len(value))
                pos = start + len(value)
            elif self.trailer.match(text, pos):
                kind = "$END"
                token = None
                actions = states[state_stack[-1]]
            else:
                raise FastPathMiss()
            while True:
                try:
                    shift, arg = actions[kind]
                except KeyError:
                    where = (token.line, token.column) if token is not None else (line, pos - line_start + 1)
                    raise FastPathMiss(*where, self.acceptable(state_stack)) from None
                if shift:
                    if token is None:
                        raise FastPathMiss()
                    state_stack.append(arg)
                    value_stack.append(token)
                    pos_stack.append(tok_pos)
                    depth_stack.append(0)
                    if len(state_stack) > MAX_STACK:
                        raise NestedTooDeeply(token.line, token.column)
                    break
                callback, n, origin, bump = arg
                if callback is None:
                    # A `?rule` with one child: the child is the value, same span.
                    # Chains of them (expr → or_expr → … → atom) only replace the
                    # top state; where a chain ends depends on the state below,
                    # the top state and the lookahead, so it is worked out once.
                    key = (state_stack[-2], state_stack[-1], kind)
                    final = chains.get(key)
                    if final is None:
                        final = self._follow_chain(state_stack[-2], origin, kind)
                        chains[key] = final
                    state_stack[-1] = final
                    actions = states[final]
                    continue
                else:
                    if n:
                        children = value_stack[-n:]
                        spans = pos_stack[-n:]
                        del state_stack[-n:]
                        del value_stack[-n:]
                        del pos_stack[-n:]
                        depths = depth_stack[-n:]
                        depth = max(depths) + bump
                        del depth_stack[-n:]
                        if depth > max_depth:
                            # at the start of the deepest part: the expression that nests too deeply
                            at = spans[depths.index(depth - bump)] or spans[0] or (line, 1)
                            raise NestedTooDeeply(at[0], at[1], expression=True)
                        first, last = spans[0], spans[-1]
                        if first is None:
                            first = next((p for p in spans if p is not None), None)
                        if first is None:
                            span = None
                        else:
                            if last is None:
                                last = next(p for p in reversed(spans) if p is not None)
                            span = (first[0], first[1], last[2], last[3])
                    else:
                        children, span, depth = [], None, bump
                    self.span = span
                    value_stack.append(callback(children))
                    pos_stack.append(span)
                    depth_stack.append(depth)
                state_stack.append(states[state_stack[-1]][origin][1])
                if token is None and state_stack[-1] == end_state:
                    return value_stack[-1]
                actions = states[state_stack[-1]]
