"""A condition evaluated as a tree, for one option, to say which part decided.

The game runs generated code for its conditions (one call for the whole
expression); an explanation needs the parts.  `Evaluator` walks the AST of a
condition at the moment it is asked, and for every leaf (a name, an
attribute, a call to the vocabulary) it runs the runtime's own reference
closure (`Compiler.closure`, the form generated code is tested against), so
a leaf here means exactly what it means in play.  A call to a declared value
(`reinforcements_allowed(p, c)`) is run by the runtime too (modifiers
included), then opened: its own expression is walked with its parameters
bound, so the explanation goes down to the part of the value that decided.

What decided, node by node:

* `a and b and c`: false, the first false part; true, every part (the last
  one is taken as the deciding one: guards come first, the test last);
* `a or b`: true, the first true part; false, every part;
* `not a`: a, the other way round;
* `any(x for u in us where …)`: true, the first u that satisfies it (false:
  none does); `all(…)` false, the first u that fails (true: all do);
* `if c then a else b`: c, then the branch taken;
* a comparison or a membership: the values it saw on each side.
"""

from __future__ import annotations

from typing import Any

from attrs import define, field

from ..runtime import builtins as B
from ..runtime.compile import Compiler
from ..runtime.errors import GameError
from ..runtime.hidden import hidden_from
from ..runtime.values import Entity, ScopedState, text_of
from ..syntax import ast as A
from .unparse import unparse

# How deep calls into values are opened, and how many items of a list are shown.
MAX_DEPTH = 8
SHOWN_ITEMS = 8


class HiddenCard:
    """A card shown to a side that may not see it (in another side's hand or
    draw pile): the explanation says a card is there, not which."""

    def __str__(self) -> str:
        return "a hidden card"


HIDDEN_CARD = HiddenCard()


def show(value: Any) -> str:
    """A value as an explanation shows it: true/false (as conditions are
    written), lists bracketed and cut short."""
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, list):
        items = [show(v) for v in value[:SHOWN_ITEMS]]
        more = f", … {len(value) - SHOWN_ITEMS} more" if len(value) > SHOWN_ITEMS else ""
        return f"[{', '.join(items)}{more}]"
    if isinstance(value, (ScopedState, HiddenCard)):
        return getattr(value, "name", None) or str(value)
    if isinstance(value, Entity) and value.kind == "card":  # `cp 7 (German Reinforcements (GE 9))`
        name = getattr(getattr(value.data, "name", None), "text", None)
        return f"{value.key} ({name})" if name else value.key
    if isinstance(value, Entity) or value is None:
        return text_of(value)
    return str(value)


def plain(value: Any):
    """A value as plain JSON data: entities by their key, lists as lists."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, list):
        return [plain(v) for v in value[:100]]
    return show(value)


@define
class Block:
    """A declaration a finding lies in: a restriction, a value, a choice."""

    kind: str
    name: str
    span: A.Span | None
    rules: list[str]
    note: str | None

    @classmethod
    def of(cls, decl: A.Decl, kind: str | None = None) -> "Block":
        return cls(kind or decl.kind, decl.key, decl.span, [c.number for c in decl.cites], decl.note)

    def where(self) -> str:
        """`name, file:line, rule N` (the citation part left out when it cites nothing)."""
        parts = [f"`{self.name}`"]
        if self.span is not None:
            parts.append(self.span.location)
        if self.rules:
            parts.append(("rules " if len(self.rules) > 1 else "rule ") + ", ".join(self.rules))
        return ", ".join(parts)


@define
class Finding:
    """One part of a condition, evaluated: its text, its value, the values
    it saw, and the parts that decided it."""

    expr: A.Expr
    value: Any
    block: Block | None  # the declaration the expression is written in
    seen: list[tuple[str, Any]] = field(factory=list)
    parts: list["Finding"] = field(factory=list)
    opened: Block | None = None  # a call to a value: the value, whose expression is parts[0]
    note: str = ""  # what the walk says of itself ("no u in …", "for u = X")
    error: str | None = None

    @property
    def text(self) -> str:
        return unparse(self.expr)

    @property
    def location(self) -> str:
        span = self.expr.span
        return span.location if span is not None else "?"

    def sentence(self) -> str:
        """"`turn > 1` is false: turn is 1"."""
        if self.error is not None:
            return f"`{self.text}` cannot be worked out here: {self.error}"
        said = f"`{self.text}` is {show(self.value)}"
        seen = [f"{name} is {show(v)}" for name, v in self.seen]
        extra = "; ".join(x for x in (", ".join(seen), self.note) if x)
        return f"{said}: {extra}" if extra else said

    def deciding(self) -> "Finding":
        """The innermost part that decided (the leaf a reader wants first)."""
        node = self
        while node.parts and not isinstance(node.expr, (A.Compare, A.Member)):  # a comparison says its values
            following = node.parts[_deciding_index(node)]
            if _all_parts_hold(following) and following.parts:
                # Below the top, an `and` that holds holds by all its parts
                # alike: what it is part of (a value's call) is the answer.
                break
            node = following
        return node

    def lines(self, indent: int = 0) -> list[str]:
        """The tree, one finding a line, each part under what it decided."""
        head = self.sentence()
        if self.opened is not None:
            head += f" — {self.opened.where()}"
            if self.opened.note:
                head += f": {self.opened.note}"
        out = ["  " * indent + head]
        for part in self.parts:
            out += part.lines(indent + 1)
        return out

    def to_json(self) -> dict:
        data = {"condition": self.text, "value": plain(self.value), "file": self.expr.span.file,
                "line": self.expr.span.line, "values": {name: plain(v) for name, v in self.seen}}
        if self.note:
            data["note"] = self.note
        if self.error is not None:
            data["error"] = self.error
        if self.opened is not None:
            data["opens"] = self.opened.name
        if self.parts:
            data["parts"] = [p.to_json() for p in self.parts]
        return data


def _deciding_index(node: Finding) -> int:
    e = node.expr
    if isinstance(e, A.BoolOp) and e.op == "and" and node.value:
        return len(node.parts) - 1  # every part holds: the last is the test proper
    return 0


def _all_parts_hold(node: Finding) -> bool:
    return isinstance(node.expr, A.BoolOp) and node.expr.op == "and" and bool(node.value) and len(node.parts) > 1


def _is_literal(e: A.Expr) -> bool:
    return isinstance(e, (A.IntLit, A.BoolLit, A.NoneLit, A.TextLit, A.RangeLit))


class Evaluator:
    """Conditions of one position, walked as trees.  It works on a copy of
    the game: the walk binds names and counts work as play does, and the
    game asked about is left exactly as it was.  With a `viewer` (a side's
    key), the values shown are that side's view of them: a card in another
    side's hand or draw pile is shown as a hidden card."""

    def __init__(self, game, viewer: str | None = None):
        self.viewer = viewer
        self._pile_of = None if viewer is None else \
            {i: key for key, cards in game.s["piles"].items() for i in cards}
        self.g = game.copy()
        self.g.work_left = self.g.max_work
        self.w = game.w
        self.compiler = Compiler(self.w, None, codegen=False)
        self.values = self.w.program.decls["value"]
        self._closures: dict = {}

    def seen(self, value: Any) -> Any:
        """A value as the viewer may see it (the walk itself uses the real one)."""
        if self._pile_of is None:
            return value
        if isinstance(value, list):
            return [self.seen(v) for v in value]
        if isinstance(value, Entity) and value.kind == "card":
            pile = self._pile_of.get(value.index)
            if pile is not None and hidden_from(self.viewer, pile) == "cards":
                return HIDDEN_CARD
        return value

    # ------------------------------------------------------------ leaves
    def run(self, e: A.Expr, l: dict) -> Any:
        """The value of `e` as the runtime works it out (its reference closure)."""
        key = (id(e), frozenset(l))
        fn = self._closures.get(key)
        if fn is None:
            fn = self._closures[key] = self.compiler.closure(e, set(l))
        return fn(self.g, dict(l))

    # ------------------------------------------------------------ trees
    def explain(self, e: A.Expr, l: dict, block: Block | None, depth: int = 0) -> Finding:
        """`e` evaluated with the names `l` bound, as a tree of findings."""
        try:
            return self._explain(e, l, block, depth)
        except GameError as err:
            return Finding(e, None, block, error=err.message if hasattr(err, "message") else str(err))
        except RecursionError:
            return Finding(e, None, block, error="values nested too deeply to open")

    def _explain(self, e, l, block, depth) -> Finding:
        if isinstance(e, A.BoolOp):
            return self._bool_op(e, l, block, depth)
        if isinstance(e, A.Not):
            inner = self.explain(e.operand, l, block, depth)
            return Finding(e, not inner.value, block, parts=[inner])
        if isinstance(e, A.CondExpr):
            test = self.explain(e.cond, l, block, depth)
            branch = self.explain(e.then if test.value else e.otherwise, l, block, depth)
            return Finding(e, branch.value, block, parts=[test, branch])
        if isinstance(e, (A.Compare, A.Member)):
            return self._compare(e, l, block, depth)
        if isinstance(e, A.Aggregate) and e.func in ("any", "all"):
            return self._quantifier(e, l, block, depth)
        opened = self._value_called(e, l)
        if opened is not None:
            return self._open_value(e, l, block, depth, *opened)
        return Finding(e, self.seen(self.run(e, l)), block)

    def _bool_op(self, e: A.BoolOp, l, block, depth) -> Finding:
        parts = []
        for operand in e.operands:  # evaluated as play does: stopping at the answer
            part = self.explain(operand, l, block, depth)
            parts.append(part)
            if part.error is None and bool(part.value) == (e.op == "or"):
                return Finding(e, e.op == "or", block, parts=[part])
            if part.error is not None:
                return Finding(e, None, block, parts=[part], error=part.error)
        return Finding(e, e.op == "and", block, parts=parts)

    def _compare(self, e, l, block, depth) -> Finding:
        value = self.run(e, l)
        sides = (e.left, e.right) if isinstance(e, A.Compare) else (e.item, e.container)
        seen = []
        parts = []
        for side in sides:
            if _is_literal(side) or self._names_a_thing(side, l):
                continue  # a constant (`event`, `none`, `Paris`) says itself
            opened = self._value_called(side, l)
            if opened is not None and depth < MAX_DEPTH:
                part = self._open_value(side, l, block, depth, *opened)
                if isinstance(opened[1], bool) or part.note:  # a number is opened when modifiers changed it
                    parts.append(part)
            seen.append((unparse(side), self.seen(self.run(side, l))))
        return Finding(e, value, block, seen=seen, parts=parts)

    def _quantifier(self, e: A.Aggregate, l, block, depth) -> Finding:
        value = self.run(e, l)
        var = e.var.text
        wanted = e.func == "any"  # any: the first item that holds; all: the first that fails
        if bool(value) != wanted:
            return Finding(e, value, block, note=(f"no {var} in `{unparse(e.source)}` satisfies it" if wanted
                                                  else f"every {var} in `{unparse(e.source)}` satisfies it"))
        for item in B.iterate(self.g, self.run(e.source, l)):
            inner = {**l, var: item}
            if e.where is not None and not self.run(e.where, inner):
                continue
            if bool(self.run(e.item, inner)) == wanted:
                part = self.explain(e.item, inner, block, depth)
                return Finding(e, value, block, parts=[part], note=f"for {var} = {show(self.seen(item))}")
        return Finding(e, value, block)

    def _names_a_thing(self, e: A.Expr, l: dict) -> bool:
        """`e` names a thing of the world (a space, a card, an enum's member)."""
        if not isinstance(e, A.Ref):
            return False
        name = e.name.text
        return name not in l and name not in self.w.state_decls and name not in self.values \
            and name in self.w.names

    # ------------------------------------------------------------ values
    def _value_called(self, e: A.Expr, l: dict):
        """(declaration, its result, its arguments) when `e` calls a declared
        value (`f(a, b)`, or a value with no parameters named alone)."""
        if isinstance(e, A.Call):
            name, args = e.func.text, e.args
        elif isinstance(e, A.Ref) and e.name.text not in l:
            name, args = e.name.text, []
        else:
            return None
        decl = self.values.get(name)
        if decl is None or decl.expr is None or len(decl.params) != len(args):
            return None
        return decl, self.run(e, l), [self.run(a, l) for a in args]

    def _open_value(self, e, l, block, depth, decl: A.ValueDecl, result, args) -> Finding:
        params = [p.name.text for p in decl.params]
        seen = [(name, self.seen(v)) for name, v in zip(params, args)]
        finding = Finding(e, self.seen(result), block, seen=seen, opened=Block.of(decl))
        if depth >= MAX_DEPTH:
            return finding
        inner = self.explain(decl.expr, dict(zip(params, args)), Block.of(decl), depth + 1)
        if inner.error is None and inner.value != self.seen(result):
            # Its modifiers changed it: the expression alone did not decide.
            names = self._modifiers_applying(decl.key, args)
            changed = (f"modifier {names[0]} changes it" if len(names) == 1
                       else f"modifiers {', '.join(names)} change it")
            finding.note = f"its own expression gives {show(inner.value)}; {changed}"
            return finding
        finding.parts = [inner]
        return finding

    def _modifiers_applying(self, name: str, args: list) -> list[str]:
        """The modifiers of value NAME whose condition holds for these
        arguments (as builtins._value_of tests them), by name."""
        found = []
        for hooked, contribution, _, when in self.w.modifiers.get(name, []):
            if hooked.owner is not None and not self.g.card_in_play(hooked.owner):
                continue
            bound = {v.text: a for v, a in zip(contribution.vars, args)}
            if hooked.owner is not None:
                bound["this_card"] = self.w.cards[hooked.owner]
            try:
                if when is not None and not when(self.g, bound):
                    continue
            except GameError:
                continue
            if hooked.decl.key not in found:
                found.append(hooked.decl.key)
        return found
