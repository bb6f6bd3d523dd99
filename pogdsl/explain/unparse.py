"""An expression of the AST written back as `.pog` text, the way its author
would write it: explanations quote the sub-condition that decided.

Written from the tree (not cut from the source file) so that it needs no
file on disk and reads the same whatever the layout of the source; operands
are bracketed only where the grammar's precedence needs it.
"""

from __future__ import annotations

import re

from ..syntax import ast as A

# Binding strength, loosest first, as in the grammar (pogdsl/grammar/pog.lark).
_OR, _AND, _NOT, _COMPARE, _SUM, _TERM, _UNARY, _POSTFIX = range(8)
_PLAIN_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def unparse(e: A.Expr | None) -> str:
    """`e` as text (`turn > 1 and not besieged[Paris]`)."""
    if e is None:
        return ""
    return _text(e, _OR)


def _text(e: A.Expr, context: int) -> str:
    text, strength = _form(e)
    return f"({text})" if strength < context else text


def _name(text: str) -> str:
    return text if _PLAIN_NAME.match(text) else "'" + text.replace("'", "\\'") + "'"


def _args(items) -> str:
    return ", ".join(_text(a, _OR) for a in items)


def _where(e) -> str:
    return f" where {_text(e.where, _OR)}" if e.where is not None else ""


def _form(e: A.Expr) -> tuple[str, int]:  # noqa: C901 - one case per node class
    if isinstance(e, A.IntLit):
        return str(e.value), _POSTFIX
    if isinstance(e, A.TextLit):
        return (e.raw if e.raw is not None else '"' + e.value.replace('"', '\\"') + '"'), _POSTFIX
    if isinstance(e, A.BoolLit):
        return ("true" if e.value else "false"), _POSTFIX
    if isinstance(e, A.NoneLit):
        return "none", _POSTFIX
    if isinstance(e, A.Ref):
        return _name(e.name.text), _POSTFIX
    if isinstance(e, A.ListLit):
        return f"[{_args(e.items)}]", _POSTFIX
    if isinstance(e, A.RangeLit):
        return f"{e.low}..{e.high}", _POSTFIX
    if isinstance(e, A.ListComp):
        return f"[{_text(e.item, _OR)} for {e.var.text} in {_text(e.source, _OR)}{_where(e)}]", _POSTFIX
    if isinstance(e, A.Attr):
        return f"{_text(e.obj, _POSTFIX)}.{e.attr.text}", _POSTFIX
    if isinstance(e, A.Index):
        return f"{_text(e.obj, _POSTFIX)}[{_args(e.args)}]", _POSTFIX
    if isinstance(e, A.Call):
        return f"{_name(e.func.text)}({_args(e.args)})", _POSTFIX
    if isinstance(e, A.Aggregate):
        return f"{e.func}({_text(e.item, _OR)} for {e.var.text} in {_text(e.source, _OR)}{_where(e)})", _POSTFIX
    if isinstance(e, A.AggregateCall):
        return f"{e.func}({_args(e.args)})", _POSTFIX
    if isinstance(e, A.Reach):
        return f"reach({e.var.text} from {_text(e.source, _OR)}{_where(e)})", _POSTFIX
    if isinstance(e, A.CondExpr):
        return (f"(if {_text(e.cond, _OR)} then {_text(e.then, _OR)} else {_text(e.otherwise, _OR)})",
                _POSTFIX)
    if isinstance(e, A.Not):
        return f"not {_text(e.operand, _NOT)}", _NOT
    if isinstance(e, A.Neg):
        return f"-{_text(e.operand, _UNARY)}", _UNARY
    if isinstance(e, A.BinOp):
        strength = _SUM if e.op in ("+", "-") else _TERM
        return f"{_text(e.left, strength)} {e.op} {_text(e.right, strength + 1)}", strength
    if isinstance(e, A.Compare):
        return f"{_text(e.left, _SUM)} {e.op} {_text(e.right, _SUM)}", _COMPARE
    if isinstance(e, A.Member):
        op = "not in" if e.negated else "in"
        return f"{_text(e.item, _SUM)} {op} {_text(e.container, _SUM)}", _COMPARE
    if isinstance(e, A.BoolOp):
        strength = _AND if e.op == "and" else _OR
        # `and` inside `or` is bracketed although it binds tighter: as authors write it, for the reader
        return f" {e.op} ".join(f"({unparse(o)})" if isinstance(o, A.BoolOp) else _text(o, strength + 1)
                                for o in e.operands), strength
    return f"<{type(e).__name__}>", _POSTFIX
