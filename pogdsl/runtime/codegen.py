"""Expressions → Python source, compiled once per world.

`Compiler.expr` first asks this module for an expression: the whole tree
becomes one Python function ``f(g, l)`` whose body is a single Python
expression, so evaluating ``u.side == p and at_war(u.nation)`` is one call
instead of a call per node of the tree.  The generated code does exactly what
the closures of `compile.py` do — the same built-ins, attribute getters,
`value_of` and helpers, in the same order, with the same laziness (`and`,
`or`, `if … then … else`) — only without a Python call between every node:

* a local of the frame is ``l['x']``; a comprehension's or aggregate's own
  variable is a Python variable of the generated comprehension, so nothing
  is written into the frame while it runs;
* every other object the code needs (entities, getters, built-in functions,
  spans) is passed in by name, never rebuilt from text.

A node this generator does not handle (`reach`, a text with placeholders)
becomes a call of its closure — unless a comprehension variable is in scope
there, which a closure could not see: then the whole expression is left to
the closures.  Any expression thus runs one way or the other, never half.
"""

from __future__ import annotations

from ..semantics.vocabulary import FUNCTIONS as VOCAB_FUNCTIONS
from ..syntax import ast as A
from . import builtins as B
from .errors import GameError
from .values import ScopedState, text_of


class Unsupported(Exception):
    """This expression is left to the closures."""


def ordered_compare(x, y, op: str, span):
    """`<`, `<=`, `>`, `>=` as the language means them: none compares false."""
    if x is None or y is None:
        return False
    try:
        if op == "<":
            return x < y
        if op == "<=":
            return x <= y
        if op == ">":
            return x > y
        return x >= y
    except TypeError:
        raise GameError(f"cannot compare {text_of(x)} and {text_of(y)}", span) from None


def divide(x, y, op: str, span):
    """`/` and `%` on whole numbers; dividing by zero is a game error."""
    if y == 0:
        raise GameError("division by zero", span)
    return x // y if op == "/" else x % y


_AGGREGATE_OPS = {"any": any, "all": all, "count": len, "sum": sum}


def _aggregate_call(func: str, values: list):
    if func == "min":
        return min(values, default=None)
    if func == "max":
        return max(values, default=None)
    return _AGGREGATE_OPS[func](values)


def _aggregate_many(func: str, values: list):
    if func == "count":
        return sum(1 for x in values if x)
    return {"any": any, "all": all, "sum": sum, "min": min, "max": max}[func](values)


class Generator:
    """Generates one expression; `function()` compiles it."""

    def __init__(self, compiler):
        self.compiler = compiler
        self.w = compiler.w
        self.env: dict[str, object] = {
            "B": B, "value_of": B.value_of, "iterate": B.iterate, "index": B.index,
            "_ordered": ordered_compare, "_divide": divide, "_aggregate_call": _aggregate_call,
            "_aggregate_many": _aggregate_many,
        }
        self.locals_used: dict[str, A.Span] = {}
        self.fresh = 0

    # ------------------------------------------------------------------ entry
    def function(self, e: A.Expr, names: set[str]):
        body = self.gen(e, names, {})
        where = f"{e.span.file}:{e.span.line}" if e.span else "?"
        source = ("def _expr(g, l):\n"
                  "    try:\n"
                  f"        return {body}\n"
                  "    except KeyError as err:\n"
                  "        raise _unbound(err)\n")
        env = dict(self.env)
        spans = dict(self.locals_used)

        def unbound(err: KeyError):
            name = err.args[0] if err.args else None
            if isinstance(name, str) and name in spans:
                return GameError(f"'{name}' has no value yet here", spans[name])
            return err

        env["_unbound"] = unbound
        code = compile(source, f"<expression at {where}>", "exec")
        exec(code, env)  # noqa: S102 - source generated here from a checked AST, never from user text
        fn = env["_expr"]
        fn.source = body  # for tests and debugging
        return fn

    def const(self, value) -> str:
        if value is None or isinstance(value, (bool, int)):
            return repr(value)
        if isinstance(value, str):
            return repr(value)
        self.fresh += 1
        name = f"k{self.fresh}"
        self.env[name] = value
        return name

    # ------------------------------------------------------------------ nodes
    def gen(self, e, names: set[str], cvars: dict[str, str]) -> str:
        if e is None:
            return "None"
        method = getattr(self, "g_" + type(e).__name__, None)
        if method is None:
            return self.closure(e, names, cvars)
        return method(e, names, cvars)

    def closure(self, e, names, cvars) -> str:
        """A node left to its closure: only where no comprehension variable is in scope."""
        if cvars:
            raise Unsupported(type(e).__name__)
        fn = getattr(self.compiler, "x_" + type(e).__name__)(e, names)
        return f"{self.const(fn)}(g, l)"

    def g_IntLit(self, e, names, cvars):
        return repr(e.value)

    def g_BoolLit(self, e, names, cvars):
        return repr(bool(e.value))

    def g_NoneLit(self, e, names, cvars):
        return "None"

    def g_TextLit(self, e, names, cvars):
        if "{" not in e.value:
            return repr(e.value)
        return self.closure(e, names, cvars)

    def g_Ref(self, e: A.Ref, names, cvars):
        return self.name(e.name.text, names, cvars, e.span)

    def name(self, name: str, names, cvars, span) -> str:
        if name in cvars:
            return cvars[name]
        if name in names:
            self.locals_used.setdefault(name, span)
            return f"l[{name!r}]"
        w = self.w
        if name in w.state_decls:
            decl = w.state_decls[name]
            if decl.scope is None:
                return f"g.s['vars'][{name!r}]"
            return self.const(ScopedState(name))
        if name in self.compiler.p.decls["value"]:
            return f"value_of(g, {name!r}, ())"
        constant = B.CONSTANTS.get(name)
        if constant is not None:
            return f"{self.const(constant)}(g, l)"
        if name in w.names:
            value = w.names[name]
            if isinstance(value, A.BoxDecl):
                return self.const(w.by_kind["box"].get(name, value))
            return self.const(value)
        raise GameError(f"'{name}' means nothing in this scenario", span)

    def g_ListLit(self, e, names, cvars):
        return "[" + ", ".join(self.gen(i, names, cvars) for i in e.items) + "]"

    def g_RangeLit(self, e, names, cvars):
        return f"list(range({int(e.low)}, {int(e.high) + 1}))"

    def comprehension_var(self, var: str, cvars) -> tuple[str, dict]:
        self.fresh += 1
        py = f"v{self.fresh}_{var}" if var.isidentifier() else f"v{self.fresh}"
        return py, {**cvars, var: py}

    def g_ListComp(self, e: A.ListComp, names, cvars):
        source = self.gen(e.source, names, cvars)
        py, inner = self.comprehension_var(e.var.text, cvars)
        item = self.gen(e.item, names, inner)
        cond = f" if {self.gen(e.where, names, inner)}" if e.where is not None else ""
        return f"[{item} for {py} in iterate(g, {source}){cond}]"

    def g_Aggregate(self, e: A.Aggregate, names, cvars):
        source = self.gen(e.source, names, cvars)
        py, inner = self.comprehension_var(e.var.text, cvars)
        item = self.gen(e.item, names, inner)
        cond = f" if {self.gen(e.where, names, inner)}" if e.where is not None else ""
        loop = f"for {py} in iterate(g, {source}){cond}"
        func = e.func
        if func == "any":
            return f"any({item} {loop})"
        if func == "all":
            return f"all({item} {loop})"
        if func == "count":
            return f"sum(1 {loop} if {item})"
        if func == "sum":
            return f"sum({item} {loop})"
        return f"{func}(({item} {loop}), default=None)"

    def g_AggregateCall(self, e: A.AggregateCall, names, cvars):
        args = [self.gen(a, names, cvars) for a in e.args]
        if len(args) == 1:
            return f"_aggregate_call({e.func!r}, iterate(g, {args[0]}))"
        return f"_aggregate_many({e.func!r}, [{', '.join(args)}])"

    def g_Attr(self, e: A.Attr, names, cvars):
        obj = self.gen(e.obj, names, cvars)
        getter = self.const(B.attribute_getter(self.w, e.attr.text))
        return f"{getter}(g, {obj}, {self.const(e.span)})"

    def g_Index(self, e: A.Index, names, cvars):
        obj = self.gen(e.obj, names, cvars)
        args = ", ".join(self.gen(a, names, cvars) for a in e.args)
        return f"index(g, {obj}, [{args}], {self.const(e.span)})"

    def argument(self, a, names, cvars, kinds) -> str:
        # As `Compiler.expr_as`: a quoted name that is a card's, where a card is
        # wanted, means the card.
        if "card" in kinds and isinstance(a, A.Ref) and a.name.text not in names and a.name.text not in cvars:
            card = self.w.by_kind.get("card_name", {}).get(a.name.text)
            if card is not None:
                return self.const(card)
        return self.gen(a, names, cvars)

    def g_Call(self, e: A.Call, names, cvars):
        name = e.func.text
        signature = VOCAB_FUNCTIONS.get(name)
        if signature is not None:
            kinds = [k for _, k in signature.params]
            args = [self.argument(a, names, cvars, kinds[i] if i < len(kinds) else ())
                    for i, a in enumerate(e.args)]
        else:
            args = [self.gen(a, names, cvars) for a in e.args]
        if name in B.FUNCTIONS:
            fn = self.const(B.FUNCTIONS[name])
            return f"{fn}(g, {self.const(e.span)}{''.join(', ' + a for a in args)})"
        if name in self.compiler.p.decls["value"]:
            packed = "(" + "".join(a + ", " for a in args) + ")"
            return f"value_of(g, {name!r}, {packed})"
        raise GameError(f"unknown function '{name}'", e.span)

    def g_CondExpr(self, e: A.CondExpr, names, cvars):
        c, a, b = (self.gen(x, names, cvars) for x in (e.cond, e.then, e.otherwise))
        return f"({a} if {c} else {b})"

    def g_Not(self, e, names, cvars):
        return f"(not {self.gen(e.operand, names, cvars)})"

    def g_Neg(self, e, names, cvars):
        return f"(-{self.gen(e.operand, names, cvars)})"

    def g_BinOp(self, e: A.BinOp, names, cvars):
        a, b = self.gen(e.left, names, cvars), self.gen(e.right, names, cvars)
        if e.op in ("+", "-", "*"):
            return f"({a} {e.op} {b})"
        return f"_divide({a}, {b}, {e.op!r}, {self.const(e.span)})"

    def g_Compare(self, e: A.Compare, names, cvars):
        a, b = self.gen(e.left, names, cvars), self.gen(e.right, names, cvars)
        if e.op in ("==", "!="):
            return f"({a} {e.op} {b})"
        return f"_ordered({a}, {b}, {e.op!r}, {self.const(e.span)})"

    def g_Member(self, e: A.Member, names, cvars):
        item, container = self.gen(e.item, names, cvars), self.gen(e.container, names, cvars)
        return f"({item} {'not in' if e.negated else 'in'} iterate(g, {container}))"

    def g_BoolOp(self, e: A.BoolOp, names, cvars):
        parts = [self.gen(o, names, cvars) for o in e.operands]
        return "bool(" + f" {e.op} ".join(parts) + ")"


def generate(compiler, e: A.Expr, names: set[str]):
    """The compiled function of `e`, or None to use the closures."""
    try:
        return Generator(compiler).function(e, names)
    except (Unsupported, RecursionError, SyntaxError):
        return None
