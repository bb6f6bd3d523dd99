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

import itertools
import linecache
import operator
import re

import attrs

from ..semantics.vocabulary import ATTRIBUTES as VOCAB_ATTRIBUTES
from ..semantics.vocabulary import FUNCTIONS as VOCAB_FUNCTIONS
from ..syntax import ast as A
from . import builtins as B
from .deps import counts_a_list
from .errors import GameError
from .values import Entity, Found, ScopedState, text_of


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


def _ordered_op(op: str, test):
    """`ordered_compare` for one operator, two whole numbers compared at once
    (the common case: costs, factors, turns)."""
    def compare(x, y, span):
        if x.__class__ is int and y.__class__ is int:
            return test(x, y)
        return ordered_compare(x, y, op, span)
    return compare


# (operator.lt, not int.__lt__: calling a slot wrapper copies its arguments
# into a new tuple, 0.5% of a game's instructions when this used it)
ORDERED = {"<": _ordered_op("<", operator.lt), "<=": _ordered_op("<=", operator.le),
           ">": _ordered_op(">", operator.gt), ">=": _ordered_op(">=", operator.ge)}


def divide(x, y, op: str, span):
    """`/` and `%` on whole numbers; dividing by zero is a game error."""
    if y == 0:
        raise GameError("division by zero", span)
    return x // y if op == "/" else x % y


def extreme(func: str, values, span=None):
    """`min` or `max` of some numbers (none when there are none).  Only
    numbers are ordered, as for `<`: the checker refuses min and max of
    spaces or units, and anything unordered that gets here all the same (a
    none among numbers) is a game error, not a crash."""
    values = list(values)
    try:
        return (min if func == "min" else max)(values, default=None)
    except TypeError:
        shown = ", ".join(text_of(v) for v in values[:4]) + (", ..." if len(values) > 4 else "")
        raise GameError(f"{func} compares numbers, not {shown}", span) from None


_AGGREGATE_OPS = {"any": any, "all": all, "count": len, "sum": sum}


def _aggregate_call(func: str, values: list, span=None):
    if func in ("min", "max"):
        return extreme(func, values, span)
    return _AGGREGATE_OPS[func](values)


def _aggregate_many(func: str, values: list, span=None):
    if func == "count":
        return sum(1 for x in values if x)
    if func in ("min", "max"):
        return extreme(func, values, span)
    return {"any": any, "all": all, "sum": sum}[func](values)


def _list_size(compiler) -> int:
    """The world's list size limit (limits.py), while its code is generated."""
    from .limits import DEFAULTS

    return (getattr(getattr(compiler, "w", None), "limits", None) or DEFAULTS)["list_size"]


# The longest Python text a value is written in place as (a call costs more
# than most one-line values, not more than a page of code).
INLINE_MOST = 2_000


class Namespace:
    """The globals every function generated for one world shares: helpers,
    the constants the code names (entities, getters, spans), and one function
    per value (``V_name``), so values call each other directly."""

    def __init__(self):
        self.env: dict[str, object] = {
            "B": B, "value_of": B.value_of, "iterate": B.iterate, "index": B.index,
            "_ordered": ordered_compare, "_lt": ORDERED["<"], "_le": ORDERED["<="],
            "_gt": ORDERED[">"], "_ge": ORDERED[">="], "_divide": divide, "_aggregate_call": _aggregate_call,
            "_aggregate_many": _aggregate_many, "_extreme": extreme, "_reach": B.reach,
            "_reach_in_region": B.reach_in_region, "_add": B.add, "_sub": B.sub, "_mul": B.mul, "_members": B.members,
            "_Found": Found, "_Entity": Entity, "_card_in_play": _card_in_play,
        }
        self.count = 0
        self._named: dict[int, str] = {}

    def fresh(self, prefix: str) -> str:
        self.count += 1
        return f"{prefix}{self.count}"

    def const(self, value) -> str:
        name = self._named.get(id(value))
        if name is None or self.env.get(name) is not value:
            name = self._named[id(value)] = self.fresh("k")
            self.env[name] = value
        return name

    def define(self, source: str, name: str, where: str):
        filename = f"<{where}>"
        code = compile(source, filename, "exec")
        exec(code, self.env)  # noqa: S102 - source generated here from a checked AST, never from user text
        # Tracebacks and profilers can then show the generated line.
        linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
        fn = self.env[name]
        fn.generated = source
        return fn


def _card_in_play(g, card_index: int) -> bool:
    return g.card_in_play(card_index)


# Attributes read without a call, for an entity of the kind named: `{x}` is
# the object.  Anything else goes through `B.attribute_getter`.
_INLINE = {
    ("unit", "name"): "{x}.key", ("unit", "nation"): "{x}.data.nation", ("unit", "side"): "{x}.data.side",
    ("unit", "type"): "{x}.data.type", ("unit", "reduced"): "g.s['reduced'][{x}.index]",
    ("unit", "near_east"): "{x}.data.near_east", ("unit", "never_replaced"): "{x}.data.never_replaced",
    ("unit", "rp"): "{x}.data.rp", ("unit", "full_cf"): "{x}.data.full[0]",
    ("unit", "army"): "({x}.data.type is not None and {x}.data.type.key == 'army')",
    ("unit", "corps"): "({x}.data.type is not None and {x}.data.type.key == 'corps')",
    # (a unit's location is a space's number, a box's, or none: {on_map} maps
    # the spaces' numbers to the spaces)
    ("unit", "space"): "{on_map}.get(g.s['loc'][{x}.index])",
    ("unit", "on_map"): "(g.s['loc'][{x}.index] in {on_map})",
    # ({places} maps every location's number to its space or box, as
    # World.place_entity does)
    ("unit", "location"): "{places}.get(g.s['loc'][{x}.index])",
    ("space", "name"): "{x}.key", ("space", "nation"): "{x}.data.nation", ("space", "terrain"): "{x}.data.terrain",
    ("space", "vp"): "{x}.data.vp", ("space", "fort"): "{x}.data.fort", ("space", "capital"): "{x}.data.capital",
    ("space", "map"): "{x}.data.map", ("space", "supply"): "{x}.data.supply",
    ("space", "fort_destroyed"): "g.s['fort_destroyed'][{x}.index]",
    ("space", "control"): "{sides}.get(g.s['control'][{x}.index])",
    ("nation", "name"): "{x}.key", ("nation", "side"): "{x}.data[1]",
    ("nation", "at_war"): "g.s['at_war'].get({x}.key, False)",
    ("nation", "neutral"): "{x}.data[0].neutral", ("nation", "minor"): "{x}.data[0].minor",
}
# Built-ins whose result is a list of one kind of entity (for comprehension variables).
_RESULT_KINDS = {
    "units_in": "unit", "units_of": "unit", "units_at": "unit", "enemy_units_at": "unit", "enemies_of": "side",
    "adjacent": "space", "adjacent_for": "space",
    "adjacent_open": "space", "solid_adjacent": "space", "reach_along": "space",
    "reach_within": "space",
}
# The kinds of a value's parameters tested once on entry (Generator.value_function).
_GUARDED_KINDS = frozenset({"unit", "space", "nation", "card"})
_CONSTANT_KINDS = {"spaces": "space", "units": "unit", "nations": "nation", "cards": "card", "sides": "side",
                   "hostile_sides": "side"}


class Generator:
    """Generates one function; `function()` compiles an expression of a frame,
    `value_function()` a value, `forbid_function()` a choice's restrictions."""

    def __init__(self, compiler):
        self.compiler = compiler
        self.w = compiler.w
        ns = getattr(compiler, "ns", None)
        self.ns = ns if ns is not None else Namespace()
        self.env = self.ns.env
        self.direct_values = getattr(compiler, "direct_values", False)
        self.locals_used: dict[str, A.Span] = {}
        self.kinds: dict[str, str] = {}  # Python variable → the kind of entity it holds, when known
        # The Python variables certain to hold an entity of their kind (a
        # loop over the map or over a built-in's units or spaces, a value's
        # parameter checked once on entry): read inline without testing the
        # kind at each read.  `guarded`: the parameters among them read so.
        self.trusted: set[str] = set()
        self.guarded: set[str] = set()
        self.params_kinds: dict[str, str] = {}
        self.inlined = False  # an attribute read inline: an AttributeError means a wrong kind or none
        self.frameless = False  # a value or restriction checker: there is no frame `l` to hand a closure
        self.saw_random = False
        self.fresh = 0
        # In a space filter's test: the Python name of the space tested.  A
        # value called with it is worked out directly, not remembered: the
        # filter already keeps the result per space, and an entry per space
        # would cost more than the test.
        self.per_space: str | None = None
        self._inlining: set[str] = set()  # the values being written in place (inline_value)
        # In a loop over a choice's candidates (weights_function): the Python
        # names of the parameters shared by all of them, and each call of
        # those alone → the names of its result and of the arguments it had.
        self.hoisting: set[str] | None = None
        self.hoisted: dict = {}
        self.hoisted_calls: dict[str, tuple[str, str]] = {}  # a hoisted call's expression → (call, key)
        # Inside a comprehension or an aggregate: the tests' containers that
        # are fetched once before the outermost one ((Python name, what it
        # holds)), and the Python names bound outside every loop (the
        # function's parameters), the only containers so fetched.
        self.loop_members: list | None = None
        self.outer_names: set[str] = set()
        # For a restriction checker: the positions of the values every
        # candidate of an offer shares (forbid_function, _hoisted).
        self.shared: frozenset = frozenset()

    # ------------------------------------------------------------------ entry
    def function(self, e: A.Expr, names: set[str], slow=None):
        """`f(g, l)`.  `slow`, the closure of the same expression, answers
        instead when an attribute read inline meets a wrong kind or none (it
        raises the located error the closures give)."""
        self.inline_ok = slow is not None
        body = self.generate_pure(e, names, {})
        where = f"expression at {e.span.file}:{e.span.line}" if e.span else "expression"
        spans = dict(self.locals_used)

        def unbound(err: KeyError):
            name = err.args[0] if err.args else None
            if isinstance(name, str) and name in spans:
                return GameError(f"'{name}' has no value yet here", spans[name])
            return err

        fn_name, unbound_name = self.ns.fresh("_expr"), self.ns.fresh("_unbound")
        self.env[unbound_name] = unbound
        source = (f"def {fn_name}(g, l):\n"
                  "    try:\n"
                  f"        return {body}\n"
                  "    except KeyError as err:\n"
                  f"        raise {unbound_name}(err)\n")
        if self.inlined:
            source += f"    except AttributeError:\n        return {self.const(slow)}(g, l)\n"
        fn = self.ns.define(source, fn_name, where)
        fn.source = body  # for tests and debugging
        return fn

    def _bind_parameters(self, decl: A.ValueDecl) -> tuple[dict, list]:
        """({parameter: Python name}, [Python names]) of a value's parameters,
        as arguments of a frameless function (no locals dict), their kinds
        noted for the attributes read from them."""
        self.inline_ok = True
        self.frameless = True
        cvars, args = {}, []
        for prm in decl.params:
            py = self.pyname(prm.name.text)
            cvars[prm.name.text] = py
            args.append(py)
            if prm.type is not None and not prm.is_list:
                self.kinds[py] = prm.type.text
        self.outer_names.update(args)
        return cvars, args

    def value_function(self, decl: A.ValueDecl, slow):
        """`V(g, a, b)`: a value's base expression with its parameters as
        Python arguments.  `slow(g, *args)` is its closure form."""
        cvars, args = self._bind_parameters(decl)
        for py in args:
            if self.kinds.get(py) in _GUARDED_KINDS:
                self.params_kinds[py] = self.kinds[py]
                self.trusted.add(py)
        body = self.generate_pure(decl.expr, set(), cvars)
        fn_name = self.ns.fresh("_value")
        params = "".join(", " + a for a in args)
        source = f"def {fn_name}(g{params}):\n"
        if self.inlined:
            # A parameter read inline without its kind tested is tested once
            # here: anything else than none or an entity of its kind (or no
            # entity at all, whose `kind` raises) goes to the closures, as a
            # read meeting it would.
            guard = " or ".join(f"({py} is not None and {py}.kind != {self.params_kinds[py]!r})"
                                for py in args if py in self.guarded)
            guard = f"        if {guard}:\n            return {self.const(slow)}(g{params})\n" if guard else ""
            source += (f"    try:\n{guard}        return {body}\n"
                       f"    except AttributeError:\n        return {self.const(slow)}(g{params})\n")
        else:
            source += f"    return {body}\n"
        fn = self.ns.define(source, fn_name, f"value {decl.key} at {decl.span.file}:{decl.span.line}")
        fn.source = body
        return fn

    def weights_function(self, decl: A.ValueDecl, one, shared: frozenset = frozenset()):
        """`W(g, candidates, at, known)`: a choice's weight for each of its
        candidates (tuples of the option's values), as Game._weights_now
        works it out one candidate at a time, in one loop: the weight written
        inline for each, no call per candidate.  `one(g, *values)` is the
        weight of one option (Compiler.weight_function), taken where the
        inline form would fall back to its closure or for a tuple of another
        length.  The values called with `shared` parameters alone (their
        positions: one value for every candidate of an offer, as `p in
        [player]` binds) are worked out once for the loop (value_call)."""
        cvars, args = self._bind_parameters(decl)
        if not args:
            raise Unsupported("a weight of no parameter")
        self.hoisting = {args[i] for i in shared if i < len(args)}
        body = self.generate_pure(decl.expr, set(), cvars)
        self.hoisting = None
        if self.hoisted and "lambda" in body:  # (a name bound inside a lambda would be the lambda's own)
            self.hoisted = {}
            body = self.generate_pure(decl.expr, set(), cvars)
        fn_name = self.ns.fresh("_weights")
        one_name = self.const(one)
        work_out = f"weight = {body}"
        if self.inlined:
            work_out = (f"try:\n                    {work_out}\n                except AttributeError:\n"
                        f"                    weight = {one_name}(g, *values)")
        source = (f"def {fn_name}(g, candidates, at, known):\n"
                  "    out = []\n    append = out.append\n    get = known.get\n"
                  + "".join(f"    {at} = None\n" for _, at in self.hoisted.values()) +
                  "    for values in candidates:\n"
                  "        value = values[at]\n"
                  "        if value is None and values.count(None) == len(values):\n"
                  "            append(1)\n            continue\n"
                  "        weight = get(value)\n"
                  "        if weight is None:\n"
                  f"            if len(values) != {len(args)}:\n"
                  f"                weight = {one_name}(g, *values)\n"
                  "            else:\n"
                  f"                {', '.join(args)}, = values\n"
                  f"                {work_out}\n"
                  "            if weight.__class__ is not int:\n                weight = int(weight)\n"
                  "        append(weight if weight > 0 else 0)\n"
                  "    return out\n")
        return self.ns.define(source, fn_name, f"weights of {decl.key} at {decl.span.file}:{decl.span.line}")

    def filter_condition(self, decl: A.ValueDecl, slow):
        """`C(g, t, a, b)`, the test of a value `[t for t in spaces where C]`
        for one space t (see deps.space_filter), and `S(g, a, b)`, the value
        itself: the test of every space, inline.  `slow(g, t, a, b)` is the
        test's closure form."""
        self.inline_ok = True
        self.frameless = True
        e = decl.expr
        cvars = {e.var.text: "t"}
        self.kinds["t"] = "space"
        self.trusted.add("t")  # (a space of the map, always)
        self.per_space = "t"
        args = []
        for prm in decl.params:
            py = self.pyname(prm.name.text)
            cvars[prm.name.text] = py
            args.append(py)
        self.outer_names.update(["t", *args])
        body = self.generate_pure(e.where, set(), cvars)
        params = "".join(", " + a for a in args)
        where = f"value {decl.key} at {decl.span.file}:{decl.span.line}"
        test, scan = self.ns.fresh("_filter"), self.ns.fresh("_scan")
        slow_scan = _slow_scan(self.w.spaces, slow)
        if self.inlined:
            test_source = (f"def {test}(g, t{params}):\n    try:\n        return {body}\n"
                           f"    except AttributeError:\n        return {self.const(slow)}(g, t{params})\n")
            scan_source = (f"def {scan}(g{params}):\n"
                           f"    try:\n        return [t for t in {self.const(self.w.spaces)} if {body}]\n"
                           f"    except AttributeError:\n        return {self.const(slow_scan)}(g{params})\n")
        else:
            test_source = f"def {test}(g, t{params}):\n    return {body}\n"
            scan_source = f"def {scan}(g{params}):\n    return [t for t in {self.const(self.w.spaces)} if {body}]\n"
        return (self.ns.define(test_source, test, f"test of {where}"),
                self.ns.define(scan_source, scan, f"scan of {where}"))

    def forbid_function(self, choice: A.ChoiceDecl, entries: list, slow, shared: frozenset = frozenset()):
        """`F(g, v1, v2, …)`: whether any restriction forbids the option with
        these values, every condition inline with the option's values as
        Python arguments.  A condition left to the closures is called with a
        frame built for it (`entry_fallback`); `slow(g, values)` answers if an
        attribute read inline meets a wrong kind or none.

        When the choice has parameters of a small closed type (an enum, a
        side), F dispatches on their values to a version of itself written
        for those values (`specialize`): a clause guarded by `mode == by_sea`
        is not even looked at for an overland option.

        SHARED: the positions of the values every candidate of an offer
        holds alike (`p in [player]`); a clause's leading tests reading none
        of the other values can then be worked out once an offer
        (`_hoisted`)."""
        self.shared = shared
        general = self._forbid_variant(choice, entries, slow, {}, "")
        positions = self.specialized_params(choice, entries)
        if not positions:
            return general
        variants = {}
        for combo in itertools.product(*(self.w.by_kind[choice.params[i].type.text].values()
                                         for i in positions)):
            fixed = dict(zip(positions, combo))
            label = ", ".join(m.key for m in combo)
            variants[combo if len(combo) > 1 else combo[0]] = \
                self._forbid_variant(choice, entries, slow, fixed, f" when {label}")
        args = [f"o{i}" for i in range(len(choice.params))]
        params = "".join(", " + a for a in args)
        key = (f"({', '.join(args[i] for i in positions)})" if len(positions) > 1 else args[positions[0]])
        fn_name = self.ns.fresh("_forbid")
        source = (f"def {fn_name}(g{params}):\n"
                  f"    try:\n        f = {self.const(variants)}.get({key}, {self.const(general)})\n"
                  f"    except TypeError:\n        f = {self.const(general)}\n"
                  f"    return f(g{params})\n")
        dispatch = self.ns.define(source, fn_name, f"restrictions of {choice.key} (dispatch)")
        # For Game.offer, which tests every candidate: the same dispatch done
        # in its own loop, a version that can forbid nothing given as None
        # (no call at all: `activate`'s move options, say).
        dispatch.variants = (tuple(positions),
                             {k: (None if f.forbids_nothing else f) for k, f in variants.items()},
                             None if general.forbids_nothing else general)
        dispatch.held = any(f.hoisted is not None for f in (general, *variants.values()))
        return dispatch

    def specialized_params(self, choice: A.ChoiceDecl, entries: list) -> list[int]:
        """The parameters (at most two) worth a version of F per value: of an
        enum type or a side, and compared with a constant by some clause."""
        counts = {}
        for i, prm in enumerate(choice.params):
            if prm.type is None or prm.is_list:
                continue
            members = self.w.by_kind.get(prm.type.text)
            if not members or len(members) > SPECIALIZE_AT_MOST or prm.type.text in ("card", "space", "unit"):
                continue
            n = 0
            for _, f, _ in entries:
                if i < len(f.vars):
                    n += _constant_tests(f.when, f.vars[i].text) + _constant_tests(f.unless, f.vars[i].text)
            if n:
                counts[i] = n
        return sorted(sorted(counts, key=lambda i: -counts[i])[:2])

    def _forbid_variant(self, choice: A.ChoiceDecl, entries: list, slow, fixed: dict, label: str):
        """F for options whose parameters at the `fixed` positions hold the
        given values: the clauses that cannot forbid such an option are left
        out, and the tests of those parameters are decided in advance."""
        self.inline_ok = True
        self.frameless = True
        self.inlined = False
        args = [f"o{i}" for i in range(len(choice.params))]
        kinds = [p.type.text if p.type is not None and not p.is_list else None for p in choice.params]
        values = "(" + "".join(a + ", " for a in args) + ")"
        lines = []
        for hooked, f, fallback in entries:
            f = self._for_values(f, fixed)
            if f is None:
                continue  # it cannot forbid these options
            test = self._clause_test(hooked, f, fallback, args, kinds, values)
            lines.append(f"    if {test}:\n        return True\n")
        fn_name = self.ns.fresh("_forbid")
        params = "".join(", " + a for a in args)
        body = "".join(lines) + "    return False\n"
        if self.inlined:
            body = ("    try:\n" + "".join("    " + ln for ln in body.splitlines(keepends=True))
                    + f"    except AttributeError:\n        return {self.const(slow)}(g, {values})\n")
        source = f"def {fn_name}(g{params}):\n{body}"
        fn = self.ns.define(source, fn_name, f"restrictions of {choice.key}{label}")
        fn.forbids_nothing = not lines
        fn.hoisted = self._hoisted(choice, entries, slow, fixed, label) if lines else None
        return fn

    def _clause_test(self, hooked, f: A.Forbid, fallback, args: list[str], kinds: list, values: str) -> str:
        """A whole clause as one Python test of the option's values: inline
        where it can be, else its closure (FALLBACK) called; a card's clause
        only while the card is in play."""
        test = self.forbid_test(hooked, f, args, kinds)
        if test is None:
            test = f"{self.const(fallback)}(g, {values})"
        if hooked.owner is not None:
            test = f"_card_in_play(g, {hooked.owner}) and {test}"
        return test

    def _for_values(self, f: A.Forbid, fixed: dict) -> A.Forbid | None:
        """The clause for options holding the `fixed` values (position →
        value), its tests of them decided in advance; None if it cannot
        forbid such an option."""
        if not fixed:
            return f
        bound = {f.vars[i].text: v for i, v in fixed.items() if i < len(f.vars)}
        known = self._denotes(f)
        when = specialize(f.when, bound, known) if f.when is not None else None
        unless = specialize(f.unless, bound, known) if f.unless is not None else None
        if _is_bool(when, False) or _is_bool(unless, True):
            return None
        return attrs.evolve(f, when=when, unless=unless)

    def _hoisted(self, choice: A.ChoiceDecl, entries: list, slow, fixed: dict, label: str):
        """For Game.offer, which tests every candidate of an offer: (G, H),
        G(g, *values) giving, for the clauses whose leading tests read none
        of the values that differ between candidates (only the state and
        the shared values: `u.nation == ru` of the unit redeployed,
        `in_summer()`, a card's being in play), whether those tests hold
        (None if working them out failed), and H(g, held, *values) the
        checker testing the rest of each such clause only where they held.
        The same answer for every candidate as F's, each test in the same
        order; None when no clause has such tests."""
        shared = self.shared
        if not shared:
            return None
        self.inline_ok = True
        self.frameless = True
        args = [f"o{i}" for i in range(len(choice.params))]
        kinds = [p.type.text if p.type is not None and not p.is_list else None for p in choice.params]
        values = "(" + "".join(a + ", " for a in args) + ")"
        guards, lines = [], []
        for hooked, f, fallback in entries:
            f = self._for_values(f, fixed)
            if f is None:
                continue
            split = self._split_clause(hooked, f, args, kinds, shared)
            if split is None:
                test = self._clause_test(hooked, f, fallback, args, kinds, values)
                lines.append(f"        if {test}:\n            return True\n")
                continue
            guard, rest = split
            lines.append(f"        if held[{len(guards)}]{' and ' + rest if rest else ''}:\n            return True\n")
            guards.append(guard)
        if not guards:
            return None
        params = "".join(", " + a for a in args)
        g_name, h_name = self.ns.fresh("_guards"), self.ns.fresh("_forbid_held")
        g_source = (f"def {g_name}(g{params}):\n    try:\n"
                    f"        return ({''.join('(not not (' + x + ')), ' for x in guards)})\n"
                    "    except Exception:  # (the checker F then answers, and meets the error where it would)\n"
                    "        return None\n")
        h_source = (f"def {h_name}(g, held{params}):\n    try:\n" + "".join(lines) + "        return False\n"
                    f"    except AttributeError:\n        return {self.const(slow)}(g, {values})\n")
        return (self.ns.define(g_source, g_name, f"shared tests of {choice.key}{label}"),
                self.ns.define(h_source, h_name, f"restrictions of {choice.key}{label} (shared tests apart)"))

    def _split_clause(self, hooked, f: A.Forbid, args: list[str], kinds: list, shared: frozenset):
        """(guard, rest) of a clause: the Python tests of its leading `when`
        operands that read none of the values candidates differ by (with the
        card's being in play, for a card's clause), and of what follows
        (empty when nothing does); None when it has no such operand or part
        of it cannot be generated."""
        varying = [v.text for i, v in enumerate(f.vars) if i not in shared]
        operands = (f.when.operands if isinstance(f.when, A.BoolOp) and f.when.op == "and"
                    else [f.when] if f.when is not None else [])
        n = 0
        while n < len(operands) and not any(_mentions(operands[n], v) for v in varying):
            n += 1
        if n == 0 and hooked.owner is None:
            return None
        cvars = self._clause_vars(hooked, f, args, kinds)
        try:
            guard = [self.generate_pure(o, set(), dict(cvars)) for o in operands[:n]]
            rest = [self.generate_pure(o, set(), dict(cvars)) for o in operands[n:]]
            if f.unless is not None:
                rest.append(f"not {self.generate_pure(f.unless, set(), dict(cvars))}")
        except Unsupported:
            return None
        if hooked.owner is not None:
            guard.insert(0, f"_card_in_play(g, {hooked.owner})")
        return " and ".join(guard), " and ".join(rest)

    def _clause_vars(self, hooked, f: A.Forbid, args: list[str], kinds: list) -> dict:
        """A clause's names → the Python arguments holding the option's
        values (and `this_card` for a card's clause), their kinds noted."""
        var_names = [v.text for v in f.vars]
        cvars = {v: args[i] for i, v in enumerate(var_names) if i < len(args)}
        for i in range(min(len(var_names), len(args))):
            if kinds[i]:
                self.kinds[args[i]] = kinds[i]
        if hooked.owner is not None:
            cvars["this_card"] = self.const(self.w.cards[hooked.owner])
        return cvars

    def _denotes(self, f: A.Forbid):
        """name → the entity a bare name means inside this clause (None for
        the clause's own variables, state, values and other names)."""
        own = {v.text for v in f.vars} | {"this_card", "turn"}
        w, values = self.w, self.compiler.p.decls["value"]

        def denotes(name: str):
            if name in own or name in w.state_decls or name in values or name in B.CONSTANTS:
                return None
            value = w.names.get(name)
            return value if isinstance(value, Entity) else None
        return denotes

    def forbid_test(self, hooked, f: A.Forbid, args: list[str], kinds: list) -> str | None:
        """One `forbid` clause as a Python test of the option's values (None
        when part of it is left to the closures)."""
        cvars = self._clause_vars(hooked, f, args, kinds)
        try:
            parts = []
            if f.when is not None:
                parts.append(self.generate_pure(f.when, set(), cvars))
            if f.unless is not None:
                parts.append(f"not {self.generate_pure(f.unless, set(), cvars)}")
        except Unsupported:
            return None
        return " and ".join(parts) or "True"

    def generate_pure(self, e, names, cvars) -> str:
        """`gen`, except that an expression drawing on chance reads no
        attribute inline: it could not be worked out a second time (by its
        closure) after an inline read failed."""
        self.saw_random = False
        inline, inlined = self.inline_ok, self.inlined
        body = self.gen(e, names, cvars)
        if self.saw_random and self.inlined and inline:
            self.inline_ok, self.inlined = False, inlined
            body = self.gen(e, names, cvars)
            self.inline_ok = inline
        return body

    def pyname(self, var: str) -> str:
        self.fresh += 1
        return f"v{self.fresh}_{var}" if var.isidentifier() else f"v{self.fresh}"

    def const(self, value) -> str:
        if value is None or isinstance(value, (bool, int)):
            return repr(value)
        if isinstance(value, str):
            return repr(value)
        return self.ns.const(value)

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
        if cvars or self.frameless:
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
        if e.raw is None:
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
            inline = self.inline_value(name, []) if self.direct_values else None
            if inline is not None:
                return inline
            if self.direct_values:
                return self.value_call(name, [])
            return f"value_of(g, {name!r}, ())"
        if name == "turn":
            return "g.s['turn']"
        constant = B.CONSTANTS.get(name)
        if constant is not None:
            return f"{self.const(constant)}(g, None)"  # a constant reads no frame
        if name in w.names:
            value = w.names[name]
            if isinstance(value, A.BoxDecl):
                return self.const(w.by_kind["box"].get(name, value))
            return self.const(value)
        raise GameError(f"'{name}' means nothing in this scenario", span)

    def g_ListLit(self, e, names, cvars):
        return "[" + ", ".join(self.gen(i, names, cvars) for i in e.items) + "]"

    def g_RangeLit(self, e, names, cvars):
        if int(e.high) - int(e.low) + 1 > _list_size(self.compiler):
            raise Unsupported("a range longer than the list size: its closure reports it")
        return f"list(range({int(e.low)}, {int(e.high) + 1}))"

    def comprehension_var(self, var: str, cvars, source=None) -> tuple[str, dict]:
        py = self.pyname(var)
        kind = self.element_kind(source, cvars) if source is not None else None
        if kind is not None:
            self.kinds[py] = kind
            self.trusted.add(py)  # (the map, or a built-in's list: entities of that kind only)
        return py, {**cvars, var: py}

    def element_kind(self, source, cvars) -> str | None:
        """The kind of entity a comprehension walks, when plain from the source."""
        if isinstance(source, A.Ref) and source.name.text not in cvars:
            return _CONSTANT_KINDS.get(source.name.text)
        if isinstance(source, A.Call):
            return _RESULT_KINDS.get(source.func.text)
        return None

    def static_kind(self, e, cvars) -> str | None:
        if isinstance(e, A.Ref):
            py = cvars.get(e.name.text)
            return self.kinds.get(py) if py is not None else None
        if isinstance(e, A.Attr):
            kind = self.static_kind(e.obj, cvars)
            result = VOCAB_ATTRIBUTES.get(kind, {}).get(e.attr.text) if kind else None
            return result if result in VOCAB_ATTRIBUTES else None
        return None

    def g_Reach(self, e: A.Reach, names, cvars):
        source = self.gen(e.source, names, cvars)
        if e.where is None:
            return f"_reach(g, {self.const(e.span)}, {source}, None)"
        w = e.where
        if (isinstance(w, A.Member) and not w.negated and isinstance(w.item, A.Ref)
                and w.item.name.text == e.var.text and not _mentions(w.container, e.var.text)):
            # `where t in R`, R the same for every t: worked out once, then a set lookup
            region = self.gen(w.container, names, cvars)
            return f"_reach_in_region(g, {self.const(e.span)}, {source}, {region})"
        py, inner = self.comprehension_var(e.var.text, cvars)
        self.kinds[py] = "space"
        self.trusted.add(py)  # (a search walks spaces of the map only)
        cond = self.gen(e.where, names, inner)
        return f"_reach(g, {self.const(e.span)}, {source}, (lambda {py}: {cond}))"

    def comprehension(self, e, names, cvars) -> tuple[str, str]:
        """The item and the `for … in … if …` clause of a list comprehension
        or an aggregate."""
        source = self.gen(e.source, names, cvars)
        py, inner = self.comprehension_var(e.var.text, cvars, e.source)
        item = self.gen(e.item, names, inner)
        cond = f" if {self.gen(e.where, names, inner)}" if e.where is not None else ""
        if isinstance(e.source, (A.ListLit, A.ListComp)):  # a Python list as written: walked as it is
            return item, f"for {py} in {source}{cond}"
        if isinstance(e.source, A.Call) and e.source.func.text == "adjacent" and len(e.source.args) == 1:
            # the neighbours walked as kept, one call instead of a list built and then walked
            space = self.gen(e.source.args[0], names, cvars)
            return item, f"for {py} in {self.const(B.adjacent_walk)}(g, {self.const(e.source.span)}, {space}){cond}"
        return item, f"for {py} in iterate(g, {source}){cond}"

    def g_ListComp(self, e: A.ListComp, names, cvars):
        return self.members_fetched_first(lambda: self._list_comp(e, names, cvars))

    def _list_comp(self, e: A.ListComp, names, cvars):
        item, loop = self.comprehension(e, names, cvars)
        return f"[{item} {loop}]"

    def g_Aggregate(self, e: A.Aggregate, names, cvars):
        return self.members_fetched_first(lambda: self._aggregate(e, names, cvars))

    def _aggregate(self, e: A.Aggregate, names, cvars):
        item, loop = self.comprehension(e, names, cvars)
        func = e.func
        if func == "any":
            return f"any({item} {loop})"
        if func == "all":
            return f"all({item} {loop})"
        if func == "count":
            return f"sum(1 {loop} if {item})"
        if func == "sum":
            return f"sum({item} {loop})"
        return f"_extreme({func!r}, ({item} {loop}), {self.const(e.span)})"

    def members_fetched_first(self, generate) -> str:
        """A comprehension or an aggregate (GENERATE writes it) with what
        its membership tests read from outside every loop (`t in region`, a
        parameter or a frame's local) fetched once before it: a list as it
        is, a search's result by its set (builtins.membership), instead of
        once for each item walked (reaches_region asks `t in region` of
        each neighbour, attrition `s not in cp_area` of each space held).
        Anything else fetched is none, and each test then takes the usual
        way, where it always met its error or its count of work."""
        outermost = self.loop_members is None
        if outermost:
            self.loop_members = []
        try:
            text = generate()
        finally:
            fetched = self.loop_members
            if outermost:
                self.loop_members = None
        if not outermost or not fetched:
            return text
        first = "".join(f"({name} := {self.const(B.membership)}({held})), " for name, held in fetched)
        return f"({first}{text})[{len(fetched)}]"

    def loop_member(self, container: str) -> str | None:
        """The Python name holding what a membership test inside a loop
        reads from CONTAINER, fetched before the outermost loop
        (members_fetched_first); None outside loops, or for a container a
        loop may bind."""
        if self.loop_members is None:
            return None
        if container in self.outer_names:
            held = container
        elif container.startswith("l['"):
            held = f"l.get({container[2:-1]})"  # (unbound: none here, and each test raises as before)
        else:
            return None
        for name, fetched in self.loop_members:
            if fetched == held:
                return name
        name = self.pyname("m")
        self.loop_members.append((name, held))
        return name

    def g_AggregateCall(self, e: A.AggregateCall, names, cvars):
        args = [self.gen(a, names, cvars) for a in e.args]
        span = f", {self.const(e.span)}" if e.func in ("min", "max") else ""
        if len(args) == 1:
            return f"_aggregate_call({e.func!r}, iterate(g, {args[0]}){span})"
        return f"_aggregate_many({e.func!r}, [{', '.join(args)}]{span})"

    def g_Attr(self, e: A.Attr, names, cvars):
        obj = self.gen(e.obj, names, cvars)
        attr = e.attr.text
        getter = self.const(B.attribute_getter(self.w, attr))
        generic = f"{getter}(g, {obj}, {self.const(e.span)})"
        if not getattr(self, "inline_ok", False):
            return generic
        kind = self.static_kind(e.obj, cvars) or _only_kind(attr)
        if kind is None or self.inline_attr(kind, attr, "x") is None:
            return generic
        self.inlined = True
        if isinstance(e.obj, A.Ref) and e.obj.name.text in cvars:  # a Python variable: read it twice
            if obj in self.trusted and self.kinds.get(obj) == kind:
                if obj in self.params_kinds:
                    self.guarded.add(obj)
                return f"({self.inline_attr(kind, attr, obj)})"
            return f"({self.inline_attr(kind, attr, obj)} if {obj}.kind == {kind!r} else {generic})"
        return f"{self.attr_reader(kind, attr)}(g, {obj}, {self.const(e.span)})"

    def attr_reader(self, kind: str, attr: str) -> str:
        """A generated `_A_kind_attr(g, x, span)`: the inline read for `kind`,
        the general getter for anything else."""
        name = f"_A_{kind}_{attr}"
        if name not in self.env:
            getter = self.const(B.attribute_getter(self.w, attr))
            source = (f"def {name}(g, x, span):\n"
                      f"    return {self.inline_attr(kind, attr, 'x')} if x.kind == {kind!r} else {getter}(g, x, span)\n")
            self.ns.define(source, name, f"attribute {attr} of a {kind}")
        return name

    def inline_attr(self, kind: str, attr: str, obj: str) -> str | None:
        """Python reading `obj.attr` for an entity of `kind`, or None."""
        decl = self.w.state_decls.get(attr)
        if decl is not None and decl.scope is not None:
            if decl.scope.text != kind:
                return None
            return self.scoped_read(attr, obj)
        template = _INLINE.get((kind, attr))
        if template is None:
            reader = B.kind_reader(self.w, kind, attr)
            return f"{self.const(reader)}(g, {obj})" if reader is not None else None
        sides = self.const(self.w.by_kind.get("side", {})) if "{sides}" in template else ""
        on_map = self.const(self._spaces_by_number()) if "{on_map}" in template else ""
        places = self.const(self._places_by_number()) if "{places}" in template else ""
        return template.format(x=obj, sides=sides, on_map=on_map, places=places)

    def scoped_read(self, name: str, obj: str) -> str:
        """Python reading the entry of state `name` kept for the entity `obj`
        (its `scope`), or the start value when it has none."""
        starts = self.const(self.w.state_start)  # (filled in after the code is generated: read then)
        return f"g.s['vars'][{name!r}].get({obj}.scope, {starts}[{name!r}])"

    def _spaces_by_number(self) -> dict:
        found = getattr(self.compiler, "spaces_by_number", None)
        if found is None:
            found = self.compiler.spaces_by_number = dict(enumerate(self.w.spaces))
        return found

    def _places_by_number(self) -> dict:
        found = getattr(self.compiler, "places_by_number", None)
        if found is None:
            found = self.compiler.places_by_number = dict(enumerate(self.w.spaces + self.w.boxes))
        return found

    def g_Index(self, e: A.Index, names, cvars):
        if isinstance(e.obj, A.Ref) and e.obj.name.text not in cvars and e.obj.name.text not in names \
                and len(e.args) == 1:
            decl = self.w.state_decls.get(e.obj.name.text)
            if decl is not None and decl.scope is not None:  # `trench[s]`: one entry of scoped state
                # (an entity's `scope` names its entry; anything else has none, and the
                # AttributeError hands over to the closures, which read it by its text)
                return self.scoped_read(decl.key, self.gen(e.args[0], names, cvars))
        if isinstance(e.obj, A.Ref) and e.obj.name.text not in cvars and e.obj.name.text not in names \
                and e.obj.name.text in self.w.tables and len(e.args) in (1, 2):  # `sr_cost[u.type]`
            keys = [self.gen(a, names, cvars) for a in e.args] + ["None"]
            return f"{self.const(self.w.tables[e.obj.name.text])}.cell_or_error({keys[0]}, {keys[1]}, {self.const(e.span)})"
        obj = self.gen(e.obj, names, cvars)
        if len(e.args) == 1 and isinstance(e.args[0], (A.Ref, A.Attr)):
            boxes = self.boxes_by_owner(obj)
            if boxes is not None:  # `reserve[u.side]`: the box of each side looked up by the side's identity
                arg = self.gen(e.args[0], names, cvars)  # (read again, as written, only for anything else)
                return f"({boxes}.get(id({arg})) or index(g, {obj}, [{arg}], {self.const(e.span)}))"
        args = ", ".join(self.gen(a, names, cvars) for a in e.args)
        return f"index(g, {obj}, [{args}], {self.const(e.span)})"

    def boxes_by_owner(self, obj: str) -> str | None:
        """For OBJ the generated name of a box declared per side, the name
        of a constant mapping each side's identity to its box (what
        builtins.index finds by the box's name); None for anything else."""
        decl = self.ns.env.get(obj)
        if not isinstance(decl, A.BoxDecl):
            return None
        owners = {id(box.data[1]): box for box in self.w.boxes
                  if box.data[0] is decl and box.data[1] is not None and box.data[1].scope == box.data[1].key}
        return self.const(owners) if owners else None

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
        if name == "random_pick":
            self.saw_random = True
        signature = VOCAB_FUNCTIONS.get(name)
        if signature is not None:
            kinds = [k for _, k in signature.params]
            args = [self.argument(a, names, cvars, kinds[i] if i < len(kinds) else ())
                    for i, a in enumerate(e.args)]
        else:
            args = [self.gen(a, names, cvars) for a in e.args]
        if name == "len" and counts_a_list(self.w, e.args):  # a list's length, the list being built here
            return f"len({args[0]})"
        if name == "at_war" and len(args) == 1 and "at_war" not in self.compiler.p.decls["value"]:
            return self.at_war(args[0], e.span)
        if name in B.FUNCTIONS:
            fn = self.const(B.FUNCTIONS[name])
            return f"{fn}(g, {self.const(e.span)}{''.join(', ' + a for a in args)})"
        if name in self.compiler.p.decls["value"]:
            inline = self.inline_value(name, args) if self.direct_values else None
            if inline is not None:
                return inline
            if self.direct_values:
                if (self.per_space is not None and not self.w.modifiers.get(name)
                        and any(re.search(rf"\b{self.per_space}\b", a) for a in args)):
                    return f"F_{name}(g{''.join(', ' + a for a in args)})"
                return self.value_call(name, args)
            packed = "(" + "".join(a + ", " for a in args) + ")"
            return f"value_of(g, {name!r}, {packed})"
        raise GameError(f"unknown function '{name}'", e.span)

    def value_call(self, name: str, args: list[str]) -> str:
        """`V_name(g, …)`; in a loop over a choice's candidates (`hoisting`:
        the Python names of the parameters every candidate of one offer
        shares), a call of such parameters alone is worked out once for the
        loop, when first needed, and again only if its arguments differ."""
        call = f"V_{name}(g{''.join(', ' + a for a in args)})"
        if self.hoisting is None or not set(args) <= self.hoisting:
            return call
        result, at = self.hoisted.setdefault(call, (f"h{len(self.hoisted)}", f"h{len(self.hoisted)}_at"))
        key = "(" + "".join(a + ", " for a in args) + ")"
        held = f"({result} if {at} == {key} else (({result} := {call}), ({at} := {key}))[0])"
        self.hoisted_calls[held] = (call, key)
        return held

    def hoisted_members(self, held: str) -> str | None:
        """For `x in f(p)` in a loop over a choice's candidates, `f(p)` a
        value_call worked out once for the loop (HELD, its expression): what
        the membership is tested on (a list as it is, a search's result by
        its set), also kept for the loop, or None when HELD is not such a
        call.  `activate`'s weight asks `s in front_spaces(player)` of each
        of some sixty candidates: the set is fetched once, not once each.
        Anything else than a list or a search's result gives None here, and
        the test takes the usual way at each candidate."""
        found = self.hoisted_calls.get(held) if self.hoisting is not None else None
        if found is None:
            return None
        call, key = found
        result, at = self.hoisted.setdefault(("in", call), (f"h{len(self.hoisted)}", f"h{len(self.hoisted)}_at"))
        return (f"({result} if {at} == {key} else "
                f"(({result} := {self.const(B.membership)}({held})), ({at} := {key}))[0])")

    def at_war(self, arg: str, span) -> str:
        """`at_war(n)` read in place for a nation (an entity of the plain
        class), the call for anything else (none, a subclass) as before:
        supply and SR ask it of every unit they look at."""
        if not (_PLAIN.fullmatch(arg) and not arg.lstrip("-").isdigit()):
            held = self.pyname("n")
            return (f"(g.s['at_war'].get({held}.key, False) if ({held} := {arg}).__class__ is _Entity "
                    f"else {self.const(B.at_war)}(g, {self.const(span)}, {held}))")
        return (f"(g.s['at_war'].get({arg}.key, False) if {arg}.__class__ is _Entity "
                f"else {self.const(B.at_war)}(g, {self.const(span)}, {arg}))")

    def inline_value(self, name: str, args: list[str]) -> str | None:
        """A one-line value (not remembered, no modifiers) written in place
        of its call, its parameters replaced by the arguments' Python: a
        call costs more than most such tests.  Values are pure, so an
        argument left unread is simply not worked out.  None when it cannot
        be: the value is remembered or modified, calls itself, draws on
        chance, or would read an argument that is not a plain name more than
        once or inside a loop (it would be worked out again each time)."""
        if name not in getattr(self.compiler, "inline_values", ()) or name in self._inlining:
            return None
        too_long = self.compiler.__dict__.setdefault("inline_too_long", set())
        if name in too_long:
            return None
        decl = self.compiler.p.decls["value"][name]
        if len(args) != len(decl.params) or any(isinstance(n, A.Call) and n.func.text == "random_pick"
                                                for n in A.walk_exprs(decl.expr)):
            return None
        cvars = {}
        for prm, arg in zip(decl.params, args):
            param = prm.name.text
            if not _PLAIN.fullmatch(arg) and _reads(decl.expr, param) not in ([], [False]):
                return None
            cvars[param] = arg
            if prm.type is not None and not prm.is_list and arg.isidentifier():
                self.kinds.setdefault(arg, prm.type.text)
        self._inlining.add(name)
        try:
            text = "(" + self.gen(decl.expr, set(), cvars) + ")"
        except Unsupported:
            return None
        finally:
            self._inlining.discard(name)
        if len(text) > INLINE_MOST:
            # Values each naming the one before twice would double the text at
            # every level (2^40 characters for forty of them): past this, the
            # value is called, and so is every value found too long before.
            too_long.add(name)
            return None
        return text

    def g_CondExpr(self, e: A.CondExpr, names, cvars):
        c, a, b = (self.gen(x, names, cvars) for x in (e.cond, e.then, e.otherwise))
        return f"({a} if {c} else {b})"

    def g_Not(self, e, names, cvars):
        return f"(not {self.gen(e.operand, names, cvars)})"

    def g_Neg(self, e, names, cvars):
        return f"(-{self.gen(e.operand, names, cvars)})"

    def g_BinOp(self, e: A.BinOp, names, cvars):
        a, b = self.gen(e.left, names, cvars), self.gen(e.right, names, cvars)
        if e.op in ("+", "-") and (isinstance(e.left, A.IntLit) or isinstance(e.right, A.IntLit)):
            return f"({a} {e.op} {b})"  # a number's own step: it cannot outgrow a step budget (see compile._plain_step)
        if e.op in ("+", "-", "*"):  # within the integer range, lists within the list size (limits.py)
            fn = {"+": "_add", "-": "_sub", "*": "_mul"}[e.op]
            return f"{fn}(g, {a}, {b}, {self.const(e.span)})"
        return f"_divide({a}, {b}, {e.op!r}, {self.const(e.span)})"

    def g_Compare(self, e: A.Compare, names, cvars):
        a, b = self.gen(e.left, names, cvars), self.gen(e.right, names, cvars)
        if e.op in ("==", "!="):
            return f"({a} {e.op} {b})"
        occupied = self.occupied_test(e, names, cvars)
        if occupied is not None:
            return occupied
        if self.whole_number(e.left) and self.whole_number(e.right):
            return f"({a} {e.op} {b})"  # (what _lt and the others do with two whole numbers)
        name = {"<": "_lt", "<=": "_le", ">": "_gt", ">=": "_ge"}[e.op]
        return f"{name}({a}, {b}, {self.const(e.span)})"

    def occupied_test(self, e: A.Compare, names, cvars) -> str | None:
        """`len(enemy_units_at(t, p)) > 0` (or `== 0`, `!= 0`) as a test that
        stops at the first such unit, without building the list to count it."""
        if not (isinstance(e.right, A.IntLit) and e.right.value == 0 and e.op in (">", "!=", "==")
                and isinstance(e.left, A.Call) and e.left.func.text == "len" and len(e.left.args) == 1):
            return None
        inner = e.left.args[0]
        if not (isinstance(inner, A.Call) and inner.func.text == "enemy_units_at" and len(inner.args) == 2
                and "enemy_units_at" not in self.compiler.p.decls["value"]):
            return None
        where, side = (self.gen(a, names, cvars) for a in inner.args)
        test = f"{self.const(B.has_enemy_units_at)}(g, {self.const(inner.span)}, {where}, {side})"
        return f"(not {test})" if e.op == "==" else test

    def whole_number(self, e) -> bool:
        """Whether an expression always gives a whole number (never none):
        a number written out, a list's length, a count."""
        if isinstance(e, A.IntLit):
            return True
        if isinstance(e, A.Aggregate):
            return e.func == "count"
        return isinstance(e, A.Call) and e.func.text == "len" and counts_a_list(self.w, e.args)

    def g_Member(self, e: A.Member, names, cvars):
        item = self.gen(e.item, names, cvars)
        op = 'not in' if e.negated else 'in'
        if isinstance(e.container, A.ListLit):  # `x in [a, b]`: a tuple, built in place
            items = [self.gen(i, names, cvars) for i in e.container.items]
            return f"({item} {op} ({''.join(i + ', ' for i in items)}))"
        container = self.gen(e.container, names, cvars)
        if _PLAIN.fullmatch(container) and not container.lstrip("-").isdigit():
            # a name or a frame's local, read twice at no cost: a plain list
            # (the common case) is tested as it is, without a call, and a
            # search's result by its set
            usual = (f"({container} if {container}.__class__ is list else {container}.as_set() "
                     f"if {container}.__class__ is _Found else _members(g, {container}))")
            fetched = self.loop_member(container)
            if fetched is not None:
                return f"({item} {op} ({fetched} if {fetched} is not None else {usual}))"
            return f"({item} {op} {usual})"
        members = self.hoisted_members(container)
        if members is not None:
            held = self.pyname("in")
            return (f"({item} {op} ({held} if ({held} := {members}) is not None "
                    f"else _members(g, {container})))")
        # Anything else (a value's result: `t in supply_open_spaces(p)`) is
        # worked out once into a local of the function, then tested the same way.
        held = self.pyname("in")
        return (f"({item} {op} ({held} if ({held} := {container}).__class__ is list else {held}.as_set() "
                f"if {held}.__class__ is _Found else _members(g, {held})))")

    def g_BoolOp(self, e: A.BoolOp, names, cvars):
        parts = [self.gen(o, names, cvars) for o in e.operands]
        # (`not not`: the truth value without a call of `bool`)
        return "(not not (" + f" {e.op} ".join(parts) + "))"


# A parameter with more values than this gets no version of F per value.
SPECIALIZE_AT_MOST = 8


def _slow_scan(spaces: list, slow):
    """A space filter's scan through its closures (to report a located error)."""
    return lambda g, *args: [t for t in spaces if slow(g, t, *args)]


def _is_bool(e, value: bool) -> bool:
    return isinstance(e, A.BoolLit) and e.value is value


def _constant_tests(e, var: str) -> int:
    """How many `var == X`, `var != X` or `var in [X, …]` tests the and/or/not
    skeleton of `e` holds (the ones `specialize` can decide)."""
    if isinstance(e, A.BoolOp):
        return sum(_constant_tests(o, var) for o in e.operands)
    if isinstance(e, A.Not):
        return _constant_tests(e.operand, var)
    if isinstance(e, A.CondExpr):
        return sum(_constant_tests(x, var) for x in (e.cond, e.then, e.otherwise))
    if isinstance(e, A.Compare) and e.op in ("==", "!="):
        return int(_is_ref(e.left, var) or _is_ref(e.right, var))
    if isinstance(e, A.Member):
        return int(_is_ref(e.item, var) and isinstance(e.container, A.ListLit))
    return 0


def _is_ref(e, var: str) -> bool:
    return isinstance(e, A.Ref) and e.name.text == var


def specialize(e, bound: dict, denotes):
    """`e` with its variables in `bound` fixed to those entities: a test of
    such a variable against a named constant (`mode == by_sea`, `p != cp`,
    `mode in [overland, by_sea]`) becomes true or false, and the and/or/not/
    if skeleton around it is simplified.  Only that skeleton is walked, so
    nothing inside a comprehension (where a name could be rebound) changes.
    Entities compare by identity, so the decision is exact."""
    if isinstance(e, A.BoolOp):
        parts = []
        for o in e.operands:
            o = specialize(o, bound, denotes)
            if isinstance(o, A.BoolLit):
                if o.value is (e.op == "or"):  # decides the whole…
                    if not parts:
                        return A.BoolLit(e.span, o.value)
                    parts.append(o)  # …once the operands before it have run, as they did
                    break
                continue  # neutral: true in an `and`, false in an `or`
            parts.append(o)
        if not parts:
            return A.BoolLit(e.span, e.op == "and")
        # One operand left: still as bool(…), as `and`/`or` give a truth value.
        return A.BoolOp(e.span, e.op, parts) if len(parts) > 1 or not _truth_valued(parts[0]) else parts[0]
    if isinstance(e, A.Not):
        o = specialize(e.operand, bound, denotes)
        return A.BoolLit(e.span, not o.value) if isinstance(o, A.BoolLit) else A.Not(e.span, o)
    if isinstance(e, A.CondExpr):
        c = specialize(e.cond, bound, denotes)
        if isinstance(c, A.BoolLit):
            return specialize(e.then if c.value else e.otherwise, bound, denotes)
        return A.CondExpr(e.span, c, specialize(e.then, bound, denotes), specialize(e.otherwise, bound, denotes))
    if isinstance(e, A.Compare) and e.op in ("==", "!="):
        decided = _decide_equal(e.left, e.right, bound, denotes)
        if decided is None:
            decided = _decide_equal(e.right, e.left, bound, denotes)
        if decided is not None:
            return A.BoolLit(e.span, decided == (e.op == "=="))
        return e
    if isinstance(e, A.Member) and isinstance(e.item, A.Ref) and e.item.name.text in bound \
            and isinstance(e.container, A.ListLit):
        value = bound[e.item.name.text]
        members = [_constant(i, denotes) for i in e.container.items]
        if all(m is not _UNKNOWN for m in members):
            return A.BoolLit(e.span, any(m is value for m in members) != e.negated)
    return e


_UNKNOWN = object()


def _constant(e, denotes):
    if isinstance(e, A.NoneLit):
        return None
    if isinstance(e, A.Ref):
        value = denotes(e.name.text)
        if value is not None:
            return value
    return _UNKNOWN


def _decide_equal(var_side, other, bound, denotes) -> bool | None:
    if not (isinstance(var_side, A.Ref) and var_side.name.text in bound):
        return None
    constant = _constant(other, denotes)
    if constant is _UNKNOWN:
        return None
    return bound[var_side.name.text] is constant


def _truth_valued(e) -> bool:
    """Whether `e` surely gives true or false (not another value that an
    `and`/`or` would have turned into one)."""
    return isinstance(e, (A.BoolLit, A.Compare, A.Member, A.Not, A.BoolOp))


# An argument's Python that may be read any number of times: a name, a
# number, a constant of the namespace, or a local of the frame.
_PLAIN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|-?[0-9]+|l\['[A-Za-z_][A-Za-z0-9_]*'\]")


def _reads(e, name: str, in_loop: bool = False) -> list[bool]:
    """Each place the expression reads `name`, as whether that place lies
    inside a loop (a comprehension's item or test, a search's test), where
    it is worked out once per item.  Shadowing is ignored: a place too many
    only costs an optimisation."""
    if isinstance(e, A.Ref):
        return [in_loop] if e.name.text == name else []
    if isinstance(e, (list, tuple)):
        return [r for x in e for r in _reads(x, name, in_loop)]
    if not isinstance(e, A.Expr):
        return []
    if isinstance(e, (A.ListComp, A.Aggregate, A.Reach)):
        inner = [getattr(e, f) for f in ("item", "where") if getattr(e, f, None) is not None]
        return _reads(e.source, name, in_loop) + _reads(inner, name, True)
    return [r for f in attrs.fields(type(e)) for r in _reads(getattr(e, f.name), name, in_loop)]


def _mentions(e, name: str) -> bool:
    """Whether the expression refers to `name` anywhere (shadowing ignored:
    a false yes only costs an optimisation)."""
    if isinstance(e, A.Ref):
        return e.name.text == name
    if isinstance(e, A.Name):
        return e.text == name
    if isinstance(e, (list, tuple)):
        return any(_mentions(x, name) for x in e)
    if not isinstance(e, A.Expr):
        return False
    return any(_mentions(getattr(e, f.name), name) for f in attrs.fields(type(e)))


def generate(compiler, e: A.Expr, names: set[str], slow=None):
    """The compiled function of `e`, or None to use the closures."""
    try:
        return Generator(compiler).function(e, names, slow)
    except (Unsupported, RecursionError, SyntaxError):
        return None


def _only_kind(attr: str) -> str | None:
    kinds = [k for k, attrs in VOCAB_ATTRIBUTES.items() if attr in attrs]
    return kinds[0] if len(kinds) == 1 else None
