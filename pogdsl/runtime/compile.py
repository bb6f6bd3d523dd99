"""AST → Python closures, once per world.

An expression becomes ``f(g, l)`` (g: the running game, with ``g.w`` the world
and ``g.s`` the state; l: the frame's locals), so evaluation is a call, not a
tree walk.  A step (from the rule graph's lowering) becomes ``run(g, frame)``.
Which names are locals is decided here, statically, per code unit.
"""

from __future__ import annotations

import itertools
import os
import re
from typing import Callable

from attrs import define, field

from ..semantics.vocabulary import FUNCTIONS as VOCAB_FUNCTIONS
from ..syntax import ast as A
from ..syntax.template import template_parts
from . import builtins as B
from .codegen import Generator, Namespace, Unsupported, divide, extreme, generate, ordered_compare
from .errors import GameError, LimitExceeded
from .limits import DEFAULTS
from .values import Entity, ScopedState, text_of

Fn = Callable  # (g, l) -> value


def ordered_modifiers(entries: list) -> list:
    """A value's modifier entries in the order they apply: source order, except
    that a modifier declared `after` others comes after every entry of theirs
    (so its `:=` stands).  A circle (the checker's E0802) keeps source order
    for what is left."""
    keys = {e[0].decl.key for e in entries}
    if not any(n.text in keys for e in entries for n in getattr(e[0].decl, "after", ())):
        return entries
    left = list(entries)
    out: list = []
    while left:
        waiting = {e[0].decl.key for e in left}
        for i, e in enumerate(left):
            needs = {n.text for n in getattr(e[0].decl, "after", ())} - {e[0].decl.key}
            if not (needs & waiting):
                break
        else:
            i = 0
        out.append(left.pop(i))
    return out


@define(slots=True)
class CStep:
    op: str
    run: Callable
    cites: tuple[str, ...]
    span: A.Span
    jump: int | None = None
    spec: object = None  # a choose step's ChoiceSpec, to explain refusals


@define(slots=True)
class Code:
    key: str
    steps: list[CStep]
    params: list[str] = field(factory=list)
    cites: tuple[str, ...] = ()
    # Each step's run, in order: the interpreter's loop calls them without
    # reading the step (an attribute read costs the compiled loop a lookup).
    runs: list = field(init=False)

    def __attrs_post_init__(self) -> None:
        self.runs = [step.run for step in self.steps]


@define
class Hooked:
    """A restriction, modifier or trigger, with the card that carries it (if any)."""

    decl: A.Decl
    owner: int | None  # card index; active only while that card is in play
    compiled: object = None
    code: Code | None = None
    # A modifier's or trigger's variables, named in order (bound to the
    # arguments at each use: written out once here).
    var_names: tuple = ()


# Expressions that are a single node gain nothing from generated code.
_LEAVES = (A.IntLit, A.BoolLit, A.NoneLit, A.TextLit)

_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)((?:\.[A-Za-z_][A-Za-z0-9_]*)*)\}")


class Compiler:
    def __init__(self, world, graph, codegen: bool | None = None):
        self.w = world
        self.g = graph
        self.p = world.program
        # POGDSL_CLOSURES=1 runs every expression as closures: the reference
        # the generated code is tested against.
        self.codegen = (os.environ.get("POGDSL_CLOSURES") != "1") if codegen is None else codegen
        # Generated functions share one namespace; values call each other by name there.
        self.ns = Namespace()
        self.direct_values = self.codegen
        self._forbid_asts: dict[str, list] = {}
        # choice → the positions of its values every candidate of an offer
        # shares, in every step choosing it (step_choose; forbid_functions)
        self._shared: dict[str, frozenset] = {}
        self.inline_values: set[str] = set()  # filled by compile_all (one_line_values)

    # ================================================================ whole world
    def compile_all(self) -> None:
        w, p = self.w, self.p
        self.inline_values = self.one_line_values()
        for decl in p.all("value"):
            w.values[decl.key] = ([prm.name.text for prm in decl.params], self.value_function(decl))
        card_index = {c.key: c.index for c in w.cards}
        def owner_of(decl):
            return card_index.get(decl.owner) if getattr(decl, "owner", None) else None

        def owned(decl) -> set[str]:
            return {"this_card"} if getattr(decl, "owner", None) else set()

        for decl in p.all("modifier"):
            for c in decl.contributions:
                names = {v.text for v in c.vars} | owned(decl)
                entry = (Hooked(decl, owner_of(decl), var_names=tuple(v.text for v in c.vars)), c,
                         self.expr(c.expr, names),
                         self.expr(c.when, names) if c.when is not None else None)
                w.modifiers.setdefault(c.value.text, []).append(entry)
        for name, entries in w.modifiers.items():
            w.modifiers[name] = ordered_modifiers(entries)
        for decl in p.all("restriction"):
            for f in decl.forbids:
                names = {v.text for v in f.vars} | owned(decl)
                hooked = Hooked(decl, owner_of(decl))
                var_names = tuple(v.text for v in f.vars)
                when = self.expr(f.when, names) if f.when is not None else None
                unless = self.expr(f.unless, names) if f.unless is not None else None
                entry = (hooked, var_names, when, unless, self.guard(f))
                w.restrictions.setdefault(f.choice.text, []).append(entry)
                self._forbid_asts.setdefault(f.choice.text, []).append(
                    (hooked, f, _entry_fallback(hooked, var_names, when, unless, w)))
        for decl in p.all("procedure"):
            params = [prm.name.text for prm in decl.params]
            w.codes[f"procedure:{decl.key}"] = self.code(f"procedure:{decl.key}", "body", params)
        for decl in p.all("phase"):
            w.codes[f"phase:{decl.key}"] = self.code(f"phase:{decl.key}", "body", [])
        for decl in p.all("trigger"):
            names = [v.text for v in decl.vars] + sorted(owned(decl))
            hooked = Hooked(decl, owner_of(decl), self.expr(decl.when, set(names)) if decl.when else None,
                            self.code(f"trigger:{decl.key}", "body", names),
                            tuple(v.text for v in decl.vars))
            w.codes[f"trigger:{decl.key}"] = hooked.code
            w.triggers.setdefault(decl.event.text, []).append(hooked)
        for card in w.cards:
            decl = card.data
            if decl.event is not None:
                w.codes[f"card:{decl.key}/event"] = self.code(f"card:{decl.key}", "event", ["this_card"])
            if decl.playable is not None:
                w.playable[card.index] = self.expr(decl.playable, {"this_card"})
        scenario_node = f"scenario:{self.w.scenario.key}"
        labels = self.g.nodes[scenario_node].get("code", {}) if scenario_node in self.g else {}
        for label in sorted(labels, key=lambda x: int(x[5:]) if x.startswith("setup") else 0):
            key = f"{scenario_node}/{label}"
            w.codes[key] = self.code(scenario_node, label, [])
            w.setup.append(key)

    def one_line_values(self) -> set[str]:
        """The values generated code writes in place of their calls: those
        not worth remembering (deps.Dependencies.costly) that no modifier
        adds to (codegen.Generator.inline_value)."""
        from .deps import Dependencies

        deps = Dependencies(self.w)
        return {name for name in self.p.decls["value"] if not deps.costly(name) and name not in deps.modified()}

    def value_function(self, decl: A.ValueDecl):
        """`f(g, *args)`: a value's base expression, generated with its
        parameters as Python arguments where codegen.py can, else closures
        over a frame built for the call."""
        params = [prm.name.text for prm in decl.params]
        closure = self.lazy_closure(decl.expr, set(params))

        def slow(g, *args):
            return closure(g, dict(zip(params, args)))
        if self.codegen:
            try:
                return Generator(self).value_function(decl, slow)
            except (Unsupported, RecursionError, SyntaxError):
                pass
        return slow

    def bind_values(self) -> None:
        """Name every value in the generated code's namespace (`V_name`): the
        function itself for a value that is simply recomputed, else a call
        through `value_of`, which remembers it and applies its modifiers."""
        w = self.w
        # [calls worked out, calls found good, last revision worked out at, revisions worked out at]
        w.cache_stats = {name: [0, 0, None, 0] for name in w.value_areas}
        self.ns.env["_remembered"] = B.remembered
        w.rebind_uncached = self.bind_uncached
        for name, (params, fn) in w.values.items():
            self.ns.env[f"F_{name}"] = fn  # the value worked out, never remembered
            if name not in w.value_costly and not w.modifiers.get(name):
                self.ns.env[f"V_{name}"] = fn
                continue
            args = [f"a{i}" for i in range(len(params))]
            packed = "(" + "".join(a + ", " for a in args) + ")"
            head = f"def V_{name}(g{''.join(', ' + a for a in args)}):\n"
            if name in w.static_values:
                # The result of earlier games, looked up here (as static_value
                # looks it up) without a call in between.  A `list of`
                # parameter is keyed by its items at once (B._frozen): an
                # unhashable key raised and caught at every call cost more
                # than the value (`bef_closed(g, t)` of a stack), and a result
                # not yet known is worked out under that key.
                self.ns.env["_static_value"] = B.static_value
                self.ns.env["_static_missed"] = B.static_missed
                results = self.ns.const(w.static_results)
                keyed = "(" + "".join((f"(tuple({a}) if isinstance({a}, list) else {a})" if p.is_list else a) + ", "
                                      for a, p in zip(args, self.p.decls["value"][name].params)) + ")"
                source = (head + "    if g._cache_values and g._trace is None:\n"
                          f"        key = ({name!r}, {keyed})\n"
                          f"        try:\n            return {results}[key]\n"
                          f"        except KeyError:\n            return _static_missed(g, key, {packed})\n"
                          "        except TypeError:\n            pass\n"
                          f"    return _static_value(g, {name!r}, {packed})\n")
            elif name in w.value_areas:
                # The common cases inline: a result already checked at this
                # revision, or one whose every area (its own and those of all
                # the values it may call, w.value_deps) is unchanged since it
                # was checked: then neither it nor anything it called can have
                # changed.
                areas = w.value_deps[name]
                stats = self.ns.const(w.cache_stats[name])

                def found_good(indent: str, stats: str = stats) -> str:
                    # Counted as found good, noted in the value calling it, returned.
                    return (f"{indent}{stats}[1] += 1\n"
                            f"{indent}if g.calls is not None:\n{indent}    g.calls.append(entry)\n"
                            f"{indent}return entry[0]\n")
                tests = " and ".join(f"ver.get({a!r}, 0) <= c" for a in areas) or "True"
                unchanged = (f"        ver = g.ver\n"
                             f"        if {tests}:\n            entry[1] = g.clock\n"
                             + found_good(" " * 12))
                if len(areas) > 1:
                    # While every option of a decision is listed, the state
                    # stands still and a value is asked for option after
                    # option (the activation cost of each space): the newest
                    # revision any of its areas was written at is worked out
                    # once per listing, kept in the listing's memo under the
                    # value's name (its other keys are (name, arguments)).
                    newest = "max(" + ", ".join(f"ver.get({a!r}, 0)" for a in areas) + ")"
                    unchanged = (f"        ver = g.ver\n"
                                 f"        if g.listing:\n"
                                 f"            memo = g.memo\n"
                                 f"            newest = memo.get({name!r})\n"
                                 f"            if newest is None:\n"
                                 f"                newest = memo[{name!r}] = {newest}\n"
                                 f"            if newest <= c:\n                entry[1] = g.clock\n"
                                 + found_good(" " * 16)
                                 + f"        elif {tests}:\n            entry[1] = g.clock\n"
                                 + found_good(" " * 12))
                if "board" in areas:
                    # The board changes with most moves, not with every step:
                    # the test above often holds.  Else a result that called
                    # no remembered value is still good if none of its own
                    # areas (`loc:17`, …) was written since.
                    unchanged += ("        if not entry[3]:\n"
                                 "            for a in entry[5]:\n                if ver.get(a, 0) > c:\n"
                                 "                    break\n"
                                 "            else:\n                entry[1] = g.clock\n"
                                 + found_good(" " * 16))
                # A list argument is keyed by its items (a search's result by
                # its identity, B._frozen): that part of the key is built so at once.
                self.ns.env["_key_part"] = B.key_part
                keyed = "(" + "".join((f"_key_part({a})" if p.is_list else a) + ", "
                                      for a, p in zip(args, self.p.decls["value"][name].params)) + ")"
                source = (head + f"    key = ({name!r}, {keyed})\n"
                          "    try:\n        entry = g.vcache.get(key)\n"
                          "    except TypeError:\n        entry = key = None\n"
                          "    if entry is not None:\n"
                          "        c = entry[1]\n"
                          "        if c == g.clock:\n"
                          + found_good(" " * 12)
                          + unchanged +
                          f"        return _remembered(g, key, entry, {name!r}, {packed})\n"
                          f"    return value_of(g, {name!r}, {packed}, key)\n")
            else:
                source = head + f"    return value_of(g, {name!r}, {packed})\n"
            self.ns.define(source, f"V_{name}", f"value {name}")

    def space_filters(self) -> None:
        """Values kept up to date one space at a time (deps.space_filter)."""
        from .deps import Dependencies, space_filter

        if not self.codegen:
            return
        w = self.w
        deps = Dependencies(w)
        for name in w.value_areas:
            decl = self.p.decls["value"][name]
            if w.modifiers.get(name):
                continue
            found = space_filter(deps, decl)
            if found is None or not (found[0] or found[2]):
                continue
            var = decl.expr.var.text
            params = [prm.name.text for prm in decl.params]
            closure = self.lazy_closure(decl.expr.where, {var, *params})

            def slow(g, t, *args, _closure=closure, _var=var, _params=params):
                return _closure(g, {_var: t, **dict(zip(_params, args))})
            try:
                cond, scan = Generator(self).filter_condition(decl, slow)
            except (Unsupported, RecursionError, SyntaxError):
                continue
            w.space_filters[name] = (found[0], found[1], cond)
            if found[2]:
                w.filter_neighbours[name] = found[2]
                if not w.neighbour_of:
                    w.neighbour_of = _neighbour_of(w)
                inner = self.neighbour_test(deps, decl, found)
                if inner is not None:
                    w.filter_inner[name] = inner
            # The full scan tests each space as the patches do: the values it
            # calls for one space are worked out, not remembered per space.
            w.values[name] = (w.values[name][0], scan)
            self.ns.env[f"F_{name}"] = w.values[name][1]

    def neighbour_test(self, deps, decl, found: tuple):
        """For a space filter `[t for t in spaces where any(P for x in
        adjacent(t))]` whose P reads only the state of x (and what the filter
        reads besides), P alone as a test of one space, `P(g, x, *args)`:
        the patches keep P of every space and test again only the spaces
        next to one whose P changed (builtins._patch_filter), not the spaces
        next to every space written.  None for any other shape."""
        from types import SimpleNamespace

        from .codegen import _mentions
        from .deps import space_filter

        e = decl.expr
        test = e.where
        if not (isinstance(test, A.Aggregate) and test.func == "any" and test.where is None
                and isinstance(test.source, A.Call) and test.source.func.text == "adjacent"
                and len(test.source.args) == 1 and isinstance(test.source.args[0], A.Ref)
                and test.source.args[0].name.text == e.var.text and not _mentions(test.item, e.var.text)):
            return None
        spaces = A.Ref(span=e.span, name=A.Name("spaces", e.span))
        each = SimpleNamespace(expr=A.ListComp(span=e.span, item=A.Ref(span=e.span, name=test.var), var=test.var,
                                               source=spaces, where=test.item),
                               params=decl.params, key=f"{decl.key} (each neighbour)", span=decl.span)
        reads = space_filter(deps, each)
        if reads is None or reads[2] or not reads[0] <= found[2] or not set(reads[1]) <= set(found[1]):
            return None
        var = test.var.text
        params = [prm.name.text for prm in decl.params]
        closure = self.lazy_closure(test.item, {var, *params})

        def slow(g, x, *args):
            return closure(g, {var: x, **dict(zip(params, args))})
        try:
            return Generator(self).filter_condition(each, slow)[0]
        except (Unsupported, RecursionError, SyntaxError):
            return None

    def bind_uncached(self, name: str) -> None:
        """`V_name` for a value no longer remembered: worked out at each call,
        and noted (by what it reads) in the value calling it."""
        params = self.w.values[name][0]
        args = [f"a{i}" for i in range(len(params))]
        packed = "(" + "".join(a + ", " for a in args) + ")"
        if self.w.modifiers.get(name):
            work = f"_value_of(g, {name!r}, {packed})"
        else:  # nothing to add to its expression: called directly
            work = f"F_{name}(g{''.join(', ' + a for a in args)})"
        # While options are listed, B.worked_out's record (written out here),
        # with the result; else the areas alone, as simulate's games need.
        source = (f"def V_{name}(g{''.join(', ' + a for a in args)}):\n"
                  f"    calls = g.calls\n    if calls is None:\n        return {work}\n"
                  "    if g.listing:\n"
                  f"        result = {work}\n"
                  f"        args = {packed}\n"
                  f"        calls.append((None, _areas(g.w, {name!r}, args), {name!r}, args, result))\n"
                  "        return result\n"
                  f"    calls.append((None, _areas(g.w, {name!r}, {packed})))\n"
                  f"    return {work}\n")
        self.ns.env["_value_of"] = B._value_of
        self.ns.env["_areas"] = B._areas
        self.ns.define(source, f"V_{name}", f"value {name} (not remembered)")

    def forbid_functions(self) -> None:
        """One function per choice saying whether any restriction forbids an
        option (codegen.Generator.forbid_function)."""
        w = self.w
        for choice, entries in w.restrictions.items():
            decl = w.choices.get(choice)
            if decl is None or not self.codegen:
                continue
            forbids = self._forbid_asts.get(choice, [])

            def slow(g, values, choice=choice):
                return bool(g._forbidden(choice, values))
            try:
                w.forbid_any[choice] = Generator(self).forbid_function(decl, forbids, slow,
                                                                       self._shared.get(choice, frozenset()))
            except (Unsupported, RecursionError, SyntaxError):
                pass

    def lazy_closure(self, e: A.Expr, names: set[str]) -> Fn:
        """The closure form of `e`, built when first needed (generated code
        falls back on it only to report an error)."""
        built: list = []

        def run(g, l):
            if not built:
                built.append(self.closure(e, set(names)))
            return built[0](g, l)
        return run

    def closure(self, e: A.Expr | None, names: set[str]) -> Fn:
        """An expression as closures only (the reference form)."""
        if e is None:
            return _const(None)
        return getattr(self, "x_" + type(e).__name__)(e, names)

    def guard(self, f: A.Forbid):
        """(position, values) when the forbid's condition requires one of its
        names to be one of some constants (`mode == by_sea and …`, `use in
        [ops, sr] and …`): the interpreter then skips options that cannot
        match without evaluating the condition.  None when there is no such test."""
        if f.when is None:
            return None
        operands = f.when.operands if isinstance(f.when, A.BoolOp) and f.when.op == "and" else [f.when]
        names = [v.text for v in f.vars]
        for e in operands:
            var, consts = None, None
            if isinstance(e, A.Compare) and e.op == "==":
                for a, b in ((e.left, e.right), (e.right, e.left)):
                    if isinstance(a, A.Ref) and a.name.text in names and isinstance(b, A.Ref):
                        var, consts = a.name.text, [b]
                        break
            elif isinstance(e, A.Member) and not e.negated and isinstance(e.item, A.Ref) \
                    and e.item.name.text in names and isinstance(e.container, A.ListLit):
                var, consts = e.item.name.text, e.container.items
            if var is None or not all(isinstance(c, A.Ref) for c in consts):
                continue
            values = [self.w.names.get(c.name.text) for c in consts]
            if any(v is None or not isinstance(v, Entity) for v in values) or \
                    any(c.name.text in names for c in consts):
                continue
            return names.index(var), frozenset(id(v) for v in values)
        return None

    # ================================================================ code units
    def code(self, owner: str, label: str, params: list[str]) -> Code:
        ids = self.g.nodes[owner]["code"][label]
        steps = [self.g.nodes[sid]["step"] for sid in ids]
        local_names = set(params) | _bound_names(steps)
        compiled = [self.step(s, local_names) for s in steps]
        for i, s in enumerate(steps[:-1]):
            test = steps[i + 1]
            if s.op == "for_next" and test.op == "branch" and test.jump == i:  # `for x in xs where c`
                compiled[i].run = self.for_next_where(s, test, local_names, i + 2)
        return Code(f"{owner}/{label}" if label != "body" else owner, compiled, params,
                    steps[0].cites if steps else ())

    def step(self, step, names: set[str]) -> CStep:
        make = getattr(self, "step_" + step.op)
        run = make(step, names)
        spec = getattr(run, "spec", None)
        return CStep(step.op, run, step.cites, step.span, step.jump, spec)

    # Each step_* returns run(g, frame).  g.pc-advancing is done by the loop;
    # steps that jump set frame["pc"].
    def step_let(self, step, names):
        fn, var = self.expr(step.node, names), step.args["var"]

        def run(g, frame):
            v = fn(g, frame["l"])
            if type(v) is list:
                B.stored(g, v)
            frame["l"][var] = v
        return run

    def step_branch(self, step, names):
        fn, target = self.expr(step.node, names), step.jump

        def run(g, frame):
            if not fn(g, frame["l"]):
                frame["pc"] = target
        return run

    def step_jump(self, step, names):
        target = step.jump

        def run(g, frame):
            frame["pc"] = target
        return run

    def step_return(self, step, names):
        def run(g, frame):
            g.pop_frame()
        return run

    def step_segment(self, step, names):
        name = step.args["name"]

        def run(g, frame):
            g.enter_segment(name, step.cites)
        return run

    def step_end_segment(self, step, names):
        def run(g, frame):
            return None
        return run

    def step_for_init(self, step, names):
        source, slot = self.expr(step.node.source, names), step.args["slot"]

        def run(g, frame):
            items = B.iterate(g, source(g, frame["l"]))
            frame["l"][slot] = [items, 0]
        return run

    def step_for_next(self, step, names):
        slot, var, exit_ = step.args["slot"], step.args["var"], step.jump

        def run(g, frame):
            it = frame["l"][slot]
            if it[1] < len(it[0]):
                frame["l"][var] = it[0][it[1]]
                it[1] += 1
            else:
                del frame["l"][slot]
                frame["pc"] = exit_
        return run

    def for_next_where(self, step, test, names, body: int):
        """`for x in xs where c` in one step: the items failing `c` are
        passed over here, instead of a step for each item and one for its
        test; on an item passing it, play goes on at the loop's body.  (The
        test's own step stays in place, for a frame saved between the two.)"""
        slot, var, exit_ = step.args["slot"], step.args["var"], step.jump
        where = self.expr(test.node, names)

        def run(g, frame):
            l = frame["l"]
            it = l[slot]
            items, i = it
            try:
                while i < len(items):
                    l[var] = items[i]
                    i += 1
                    if where(g, l):
                        it[1] = i
                        frame["pc"] = body
                        return
            except GameError as err:
                if err.span is None:
                    err.span, err.cites = test.span, err.cites or test.cites
                raise
            del l[slot]
            frame["pc"] = exit_
        return run

    def step_repeat_init(self, step, names):
        count, slot = self.expr(step.node, names), step.args["slot"]

        def run(g, frame):
            n = count(g, frame["l"])
            if not isinstance(n, int):
                raise GameError(f"repeat needs a number, got {text_of(n)}", step.span, step.cites)
            frame["l"][slot] = [n, 0]
        return run

    def step_repeat_next(self, step, names):
        slot, var, exit_ = step.args["slot"], step.args["var"], step.jump

        def run(g, frame):
            it = frame["l"][slot]
            if it[1] < it[0]:
                it[1] += 1
                if var:
                    frame["l"][var] = it[1]
            else:
                del frame["l"][slot]
                frame["pc"] = exit_
        return run

    def step_roll(self, step, names):
        var = step.args["var"]

        def run(g, frame):
            frame["l"][var] = g.roll(step)
        return run

    def step_call(self, step, names):
        node = step.node
        proc = node.proc.text
        args = [self.expr(a, names) for a in node.args]
        key = f"procedure:{proc}"

        if node.cites:  # `call P(...) cites N`: the callee's log lines name N too
            own = [c.number for c in node.cites]

            def run_cited(g, frame):
                values = [a(g, frame["l"]) for a in args]
                g.push_code(key, values)
                g.s["stack"][-1]["c"] = list(own)  # read by Game.log while this frame runs
            return run_cited

        w = self.w
        named: list = []  # the callee's parameters with their arguments, once the callee is compiled

        def run(g, frame):
            if not named:
                named.extend(zip(w.codes[key].params, args))
            l = frame["l"]
            g.push_frame(key, {param: a(g, l) for param, a in named})
        return run

    def _reads_nothing_but(self, e: A.Expr, params: set[str], cards: frozenset = frozenset()) -> bool:
        """Whether an expression's result depends on the given names alone
        (it reads no area of the state: deps.py); `cards`: those that are
        cards, whose printed values are no state."""
        from .deps import Dependencies

        return not Dependencies(self.w).of_expression(e, params, cards)  # (chance is an area too: deps.UNCACHEABLE)

    def step_choose(self, step, names):
        node: A.Choose = step.node
        choice = self.w.choices[node.choice.text]
        by = self.expr(node.by, names)
        inner = names | {v.text for v in node.vars}
        sources = [(b.var.text, self.expr(b.source, inner)) for b in node.bindings]
        # A source of one item (`p in [player]`) binds that item: no list, no loop.
        singles = {i: self.expr(b.source.items[0], inner) for i, b in enumerate(node.bindings)
                   if isinstance(b.source, A.ListLit) and len(b.source.items) == 1}
        where = self.expr(node.where, inner) if node.where is not None else None
        params = [p.name.text for p in choice.params]
        weight = self.expr(choice.weight, set(params)) if choice.weight is not None else None
        spec = ChoiceSpec(node.choice.text, [v.text for v in node.vars], by, sources, where, node.optional,
                          node.optional_label or "done", template(choice.template, params, self.w,
                                   typed={p.name.text for p in choice.params if p.type is not None}),
                          step.cites, step.span, choice.note, params, weight)
        spec.source_names = [name for name, _ in sources]
        # A source of one item bound before the first loop is worked out once
        # an offer: every candidate holds that very value.
        first_loop = min((i for i in range(len(node.bindings)) if i not in singles), default=len(node.bindings))
        shared = frozenset(spec.vars.index(node.bindings[i].var.text) for i in singles
                           if i < first_loop and node.bindings[i].var.text in spec.vars)
        known = self._shared.get(node.choice.text)
        self._shared[node.choice.text] = shared if known is None else known & shared
        if weight is not None:
            spec.weight_at = self.weight_function(choice, weight, params)
            shared = frozenset(spec.vars.index(node.bindings[i].var.text) for i in singles
                               if node.bindings[i].var.text in spec.vars)
            spec.weights_of = self.weights_function(choice, spec.weight_at, shared)
        if choice.default is not None:
            spec.default = self.expr(choice.default, set(params))
        card_params = frozenset(p.name.text for p in choice.params if p.type is not None and p.type.text == "card")
        if choice.weight is not None and self._reads_nothing_but(choice.weight, set(params), card_params):
            spec.weights = {}
        elif choice.weight is not None and self.codegen:
            spec.weight_fixed = self.fixed_weights(choice)
        spec.enumerate = self.enumerator(spec, singles)
        spec.distinct_texts = _texts_tell_apart(choice, [b.var.text for i, b in enumerate(node.bindings)
                                                         if i not in singles], self.w)
        spec.no_repeats = all(self.without_repeats(b.source, inner) for b in node.bindings)
        inline = self.inline_enumerator(spec, node, inner, set(singles))
        if inline is not None:
            spec.enumerate = inline
        if where is not None and set(spec.source_names) <= set(spec.vars):
            # A random player tests the `where` as it tests the restrictions:
            # only on the options it draws (Game._offer_sampled).
            spec.enumerate_unfiltered = (self.inline_enumerator(spec, node, inner, set(singles), filtered=False)
                                         or self.enumerator(spec, singles, filtered=False))
            spec.where_holds = self.inline_where(spec, node, inner) or _where_tester(spec)

        def run(g, frame):
            return g.offer(spec, frame)
        run.spec = spec
        return run

    def fixed_weights(self, choice: A.ChoiceDecl) -> tuple | None:
        """For a weight that reads the state: (the position of a parameter of
        a small enum, {its value → the weight}) for the values that decide the
        weight outright (`if mode == move then 2 else …`), so the options
        with those values are weighed without a call; None if none do."""
        from .codegen import SPECIALIZE_AT_MOST, _constant_tests, specialize

        own = {p.name.text for p in choice.params}
        w, values = self.w, self.p.decls["value"]

        def denotes(name: str):
            if name in own or name in w.state_decls or name in values or name in B.CONSTANTS:
                return None
            value = w.names.get(name)
            return value if isinstance(value, Entity) else None
        for i, prm in enumerate(choice.params):
            if prm.type is None or prm.is_list or prm.type.text in ("card", "space", "unit"):
                continue
            members = w.by_kind.get(prm.type.text)
            if not members or len(members) > SPECIALIZE_AT_MOST or not _constant_tests(choice.weight, prm.name.text):
                continue
            table = {}
            for value in members.values():
                decided = specialize(choice.weight, {prm.name.text: value}, denotes)
                if isinstance(decided, A.IntLit):
                    table[value] = max(0, decided.value)
            if table:
                return i, table
        return None

    def weight_function(self, choice: A.ChoiceDecl, weight: Fn, params: list[str]):
        """`f(g, *values)`: a choice's weight with the option's values as
        Python arguments, generated as a value is (weights are worked out
        for every candidate a random player draws among: a frame built for
        each would cost more than most weights)."""
        def slow(g, *args):
            return weight(g, dict(zip(params, args)))
        if self.codegen:
            shim = _WeightDecl(choice.params, choice.weight, f"weight of {choice.key}",
                               choice.weight.span or choice.span)
            try:
                return Generator(self).value_function(shim, slow)
            except (Unsupported, RecursionError, SyntaxError):
                pass
        return slow

    def weights_function(self, choice: A.ChoiceDecl, one, shared: frozenset = frozenset()):
        """`f(g, candidates, at, known)`: the weight of every candidate in one
        generated loop (codegen.Generator.weights_function), or None without
        codegen.  `shared`: the positions of the values every candidate of an
        offer shares (a source of one item)."""
        if not self.codegen:
            return None
        shim = _WeightDecl(choice.params, choice.weight, f"weight of {choice.key}", choice.weight.span or choice.span)
        for hoisted in (shared, frozenset()):
            try:
                return Generator(self).weights_function(shim, one, hoisted)
            except SyntaxError:  # a value worked out once, named where Python forbids it (a comprehension's source)
                continue
            except (Unsupported, RecursionError):
                return None
        return None

    def without_repeats(self, e: A.Expr, local: set[str], seen: frozenset = frozenset()) -> bool:
        """Whether a choice's source can never give the same thing twice (so
        its candidates need no sifting for equal ones: Game._option_groups):
        a list of one item, or of different things named outright; the map's
        spaces, the units, the cards, the cards of a pile (a card lies in
        one pile, once); `distinct(...)`; a comprehension keeping some items
        of such a list as they are; an `if` whose two lists are such; a
        value (with no modifier) that is one of those.  False when unsure."""
        values = self.p.decls["value"]
        if isinstance(e, A.ListLit):
            if len(e.items) <= 1:
                return True
            names = [i.name.text if isinstance(i, A.Ref) else None for i in e.items]
            if None in names or any(n in local or n in values for n in names):
                return False
            things = [self.w.names.get(n) for n in names]
            return all(isinstance(t, Entity) for t in things) and len({id(t) for t in things}) == len(things)
        if isinstance(e, A.ListComp):
            return (isinstance(e.item, A.Ref) and e.item.name.text == e.var.text
                    and self.without_repeats(e.source, local | {e.var.text}, seen))
        if isinstance(e, A.CondExpr):
            return self.without_repeats(e.then, local, seen) and self.without_repeats(e.otherwise, local, seen)
        name = e.name.text if isinstance(e, A.Ref) else e.func.text if isinstance(e, A.Call) else None
        if name is None or name in local:
            return False
        if name in values:
            if name in seen or self.w.modifiers.get(name):
                return False
            decl = values[name]
            return self.without_repeats(decl.expr, {p.name.text for p in decl.params}, seen | {name})
        if isinstance(e, A.Call):
            return name in ("distinct", "cards_in")
        return name in ("spaces", "units", "cards", "nations", "sides")

    def enumerator(self, spec: "ChoiceSpec", singles: dict | None = None, filtered: bool = True):
        """f(g, l) → the candidates of a choice: one nested Python loop per
        source, each binding its variable in the frame for the sources and
        the `where` after it (unless not `filtered`).  `singles` maps the
        position of a source of one item to that item's expression, bound
        without a loop."""
        singles = singles or {}
        order = [name for name, _ in spec.sources]
        env = {"iterate": B.iterate, "too_many": _too_many, "spec": spec}
        lines = ["def _enumerate(g, l):", "    out = []", "    n = 0"]
        indent = "    "
        innermost = max((i for i in range(len(spec.sources)) if i not in singles), default=-1)
        for i, (name, source) in enumerate(spec.sources):
            if i in singles:
                env[f"s{i}"] = singles[i]
                lines.append(f"{indent}x{i} = s{i}(g, l)")
            elif i == innermost:  # the candidates looked at, counted a source at a time (limits.py)
                env[f"s{i}"] = source
                lines.append(f"{indent}src = iterate(g, s{i}(g, l))")
                lines.append(f"{indent}n += len(src)")
                lines.append(f"{indent}if n > g.max_candidates:")
                lines.append(f"{indent}    raise too_many(g, spec)")
                lines.append(f"{indent}for x{i} in src:")
                indent += "    "
            else:
                env[f"s{i}"] = source
                lines.append(f"{indent}for x{i} in iterate(g, s{i}(g, l)):")
                indent += "    "
            lines.append(f"{indent}l[{name!r}] = x{i}")
        picked = [f"x{order.index(v)}" if v in order else "None" for v in spec.vars]
        row = "(" + "".join(p + ", " for p in picked) + ")"
        if spec.where is not None and filtered:
            env["where"] = spec.where
            lines.append(f"{indent}if where(g, l):")
            indent += "    "
        lines.append(f"{indent}out.append({row})")
        lines.append("    return out")
        source = "\n".join(lines) + "\n"
        label = "candidates" if filtered else "unfiltered candidates"
        exec(compile(source, f"<{label} of {spec.name} at {spec.span}>", "exec"), env)  # noqa: S102
        bind = env["_enumerate"]

        def enumerate_keeping_frame(g, l):
            # The loops bind the variables in the frame (see _keeping_frame).
            return _keeping_frame(l, order, lambda: bind(g, l))
        return enumerate_keeping_frame

    def inline_enumerator(self, spec: ChoiceSpec, node: A.Choose, inner: set[str], singles: set[int],
                          filtered: bool = True):
        """The candidates of a choice as one generated function, its sources
        and its `where` written inline, the variables bound by the loops
        plain Python locals (`enumerator` calls a function per source and
        per candidate, and binds each variable in the frame).  On anything
        unexpected (an attribute of the wrong kind or of none, a local with
        no value) it hands over to `enumerator`'s function, which reports the
        located error.  None when some expression cannot be generated.
        Not `filtered`: without the `where`."""
        if not self.codegen:
            return None
        slow = self.enumerator(spec, filtered=False) if not filtered else spec.enumerate
        frame_names = inner - set(spec.source_names)
        gen = Generator(self)
        gen.inline_ok = True
        cvars: dict[str, str] = {}
        lines, indent = [], "        "
        spec_name, too_many = self.ns.fresh("_spec"), "_too_many_candidates"
        innermost = max((i for i in range(len(node.bindings)) if i not in singles), default=-1)
        try:
            for i, b in enumerate(node.bindings):
                if i in singles:
                    lines.append(f"{indent}x{i} = {gen.generate_pure(b.source.items[0], frame_names, dict(cvars))}")
                else:
                    source = gen.generate_pure(b.source, frame_names, dict(cvars))
                    if not isinstance(b.source, (A.ListLit, A.ListComp)):  # (a list as written is walked as it is)
                        source = f"iterate(g, {source})"
                    if i == innermost:  # the candidates looked at, counted a source at a time (limits.py)
                        lines.append(f"{indent}src = {source}")
                        lines.append(f"{indent}n += len(src)")
                        lines.append(f"{indent}if n > g.max_candidates:")
                        lines.append(f"{indent}    raise {too_many}(g, {spec_name})")
                        source = "src"
                    lines.append(f"{indent}for x{i} in {source}:")
                    indent += "    "
                cvars[b.var.text] = f"x{i}"
            order = spec.source_names
            picked = [f"x{order.index(v)}" if v in order else "None" for v in spec.vars]
            row = "(" + "".join(p + ", " for p in picked) + ")"
            if node.where is not None and filtered:
                lines.append(f"{indent}if {gen.generate_pure(node.where, frame_names, dict(cvars))}:")
                indent += "    "
        except (Unsupported, RecursionError):
            return None
        lines.append(f"{indent}out.append({row})")
        fn_name, slow_name = self.ns.fresh("_candidates"), self.ns.fresh("_slow_candidates")
        self.ns.env[slow_name] = slow
        self.ns.env[spec_name] = spec
        self.ns.env.setdefault("iterate", B.iterate)
        self.ns.env[too_many] = _too_many
        source = "\n".join([f"def {fn_name}(g, l):", "    out = []", "    n = 0", "    try:", *lines, "    except (AttributeError, KeyError):",
                            f"        return {slow_name}(g, l)", "    return out"]) + "\n"
        try:
            label = "candidates" if filtered else "unfiltered candidates"
            return self.ns.define(source, fn_name, f"{label} of {spec.name} at {spec.span}")
        except SyntaxError:
            return None

    def inline_where(self, spec: ChoiceSpec, node: A.Choose, inner: set[str]):
        """The choice's `where` as one generated test (g, l, values) → bool,
        the option's values plain Python locals; on anything unexpected it
        hands over to `_where_tester`, which reports the located error.  None
        when the expression cannot be generated."""
        if not self.codegen:
            return None
        frame_names = inner - set(spec.source_names)
        gen = Generator(self)
        gen.inline_ok = True
        cvars = {name: f"x{i}" for i, name in enumerate(spec.source_names)}
        unpack = "".join(f"    x{i} = values[{spec.vars.index(name)}]\n" for i, name in enumerate(spec.source_names))
        try:
            test = gen.generate_pure(node.where, frame_names, dict(cvars))
        except (Unsupported, RecursionError):
            return None
        fn_name, slow_name = self.ns.fresh("_where"), self.ns.fresh("_slow_where")
        self.ns.env[slow_name] = _where_tester(spec)
        source = (f"def {fn_name}(g, l, values):\n{unpack}    try:\n        return not not ({test})\n"
                  f"    except (AttributeError, KeyError):\n        return {slow_name}(g, l, values)\n")
        try:
            return self.ns.define(source, fn_name, f"where of {spec.name} at {spec.span}")
        except SyntaxError:
            return None

    def step_effect(self, step, names):
        from .effects import compile_effect

        return compile_effect(self, step, names)

    # ================================================================ expressions
    def expr(self, e: A.Expr | None, names: set[str]) -> Fn:
        """An expression as a function (g, l): generated Python source where
        codegen.py can (one call for the whole tree), closures otherwise."""
        if e is None:
            return _const(None)
        if self.codegen and not isinstance(e, _LEAVES):
            fn = generate(self, e, names, self.lazy_closure(e, names))
            if fn is not None:
                return fn
        return getattr(self, "x_" + type(e).__name__)(e, names)

    def x_IntLit(self, e, names):
        return _const(e.value)

    def x_TextLit(self, e, names):
        if e.raw is None:
            return _const(e.value)
        pieces = [p if isinstance(p, str) else self.expr(p, names) for p in template_parts(e)[0]]
        if all(isinstance(p, str) for p in pieces):
            return _const("".join(pieces))

        def run(g, l):
            return "".join(p if isinstance(p, str) else text_of(p(g, l)) for p in pieces)
        return run

    def x_BoolLit(self, e, names):
        return _const(e.value)

    def x_NoneLit(self, e, names):
        return _const(None)

    def x_Ref(self, e: A.Ref, names):
        return self.name_fn(e.name.text, names, e.span)

    def name_fn(self, name: str, names: set[str], span) -> Fn:
        if name in names:
            def local(g, l):
                try:
                    return l[name]
                except KeyError:
                    raise GameError(f"'{name}' has no value yet here", span) from None
            return local
        w = self.w
        if name in w.state_decls:
            decl = w.state_decls[name]
            if decl.scope is None:
                return lambda g, l: g.s["vars"][name]
            return _const(ScopedState(name))
        if name in self.p.decls["value"]:  # compiled or not yet: looked up when called
            return lambda g, l: B.value_of(g, name, ())
        constant = B.CONSTANTS.get(name)
        if constant is not None:
            return constant
        if name in w.names:
            value = w.names[name]
            if isinstance(value, A.BoxDecl):
                return _const(w.by_kind["box"].get(name, value))
            return _const(value)
        raise GameError(f"'{name}' means nothing in this scenario", span)

    def x_ListLit(self, e, names):
        items = [self.expr(i, names) for i in e.items]
        return lambda g, l: [f(g, l) for f in items]

    def x_RangeLit(self, e, names):
        low, high, span = e.low, e.high, e.span
        if high - low + 1 > (self.w.limits or DEFAULTS)["list_size"]:
            return lambda g, l: B.span_range(g, low, high, span)  # (too long: a located error)
        values = list(range(low, high + 1))
        return lambda g, l: list(values)

    def _comprehension(self, var, source, where, names):
        inner = names | {var}
        src = self.expr(source, names)
        cond = self.expr(where, inner) if where is not None else None
        return inner, src, cond

    def x_ListComp(self, e: A.ListComp, names):
        var = e.var.text
        inner, src, cond = self._comprehension(var, e.source, e.where, names)
        item = self.expr(e.item, inner)

        def run(g, l):
            out = []
            saved = l.get(var, _MISSING)
            for x in B.iterate(g, src(g, l)):
                l[var] = x
                if cond is None or cond(g, l):
                    out.append(item(g, l))
            _restore(l, var, saved)
            return out
        return run

    def x_Aggregate(self, e: A.Aggregate, names):
        var = e.var.text
        inner, src, cond = self._comprehension(var, e.source, e.where, names)
        item = self.expr(e.item, inner)
        func = e.func

        def values(g, l):
            saved = l.get(var, _MISSING)
            try:
                for x in B.iterate(g, src(g, l)):
                    l[var] = x
                    if cond is None or cond(g, l):
                        yield item(g, l)
            finally:
                _restore(l, var, saved)

        # any and all stop at their answer: written as loops that put the
        # frame's binding of the loop name back however they stop (a generator
        # abandoned half-way would leave the name bound in the frame, where a
        # saved game would carry it)
        def run_any(g, l):
            saved = l.get(var, _MISSING)
            try:
                for x in B.iterate(g, src(g, l)):
                    l[var] = x
                    if (cond is None or cond(g, l)) and item(g, l):
                        return True
                return False
            finally:
                _restore(l, var, saved)

        def run_all(g, l):
            saved = l.get(var, _MISSING)
            try:
                for x in B.iterate(g, src(g, l)):
                    l[var] = x
                    if (cond is None or cond(g, l)) and not item(g, l):
                        return False
                return True
            finally:
                _restore(l, var, saved)

        if func == "any":
            return run_any
        if func == "all":
            return run_all
        if func == "count":
            return lambda g, l: sum(1 for v in values(g, l) if v)
        if func == "sum":
            return lambda g, l: sum(values(g, l))
        span = e.span
        return lambda g, l: extreme(func, values(g, l), span)

    def x_AggregateCall(self, e: A.AggregateCall, names):
        args = [self.expr(a, names) for a in e.args]
        func = e.func
        span = e.span

        def pick(xs):
            return extreme(func, xs, span)

        if len(args) == 1:
            one = args[0]
            op = {"any": any, "all": all, "count": len, "sum": sum, "min": pick, "max": pick}[func]
            return lambda g, l: op(B.iterate(g, one(g, l)))
        op = {"any": any, "all": all, "count": lambda xs: sum(1 for x in xs if x), "sum": sum,
              "min": pick, "max": pick}[func]
        return lambda g, l: op([a(g, l) for a in args])

    def x_Attr(self, e: A.Attr, names):
        obj = self.expr(e.obj, names)
        attr = e.attr.text
        getter = B.attribute_getter(self.w, attr)
        span = e.span

        def run(g, l):
            value = obj(g, l)
            return getter(g, value, span)
        return run

    def x_Index(self, e: A.Index, names):
        obj = self.expr(e.obj, names)
        args = [self.expr(a, names) for a in e.args]
        span = e.span

        def run(g, l):
            return B.index(g, obj(g, l), [a(g, l) for a in args], span)
        return run

    def expr_as(self, e: A.Expr | None, names: set[str], kinds) -> Fn:
        """An expression where a kind of thing is wanted: a quoted name that is
        a card's, where a card is wanted, means the card (not a space of the
        same name, as with 'Salonika')."""
        if "card" in kinds and isinstance(e, A.Ref) and e.name.text not in names:
            card = self.w.by_kind.get("card_name", {}).get(e.name.text)
            if card is not None:
                return _const(card)
        return self.expr(e, names)

    def x_Call(self, e: A.Call, names):
        name = e.func.text
        span = e.span
        signature = VOCAB_FUNCTIONS.get(name)
        if signature is not None:
            kinds = [k for _, k in signature.params]
            args = [self.expr_as(a, names, kinds[i] if i < len(kinds) else ()) for i, a in enumerate(e.args)]
        else:
            args = [self.expr(a, names) for a in e.args]
        if name in B.FUNCTIONS:
            fn = B.FUNCTIONS[name]
            if len(args) == 1:
                a0 = args[0]
                return lambda g, l: fn(g, span, a0(g, l))
            return lambda g, l: fn(g, span, *[a(g, l) for a in args])
        if name in self.p.decls["value"]:
            return lambda g, l: B.value_of(g, name, tuple(a(g, l) for a in args))
        raise GameError(f"unknown function '{name}'", span)

    def x_Reach(self, e: A.Reach, names):
        var = e.var.text
        source = self.expr(e.source, names)
        cond = self.expr(e.where, names | {var}) if e.where is not None else None
        span = e.span

        def run(g, l):
            saved = l.get(var, _MISSING)
            try:
                if cond is None:
                    return B.reach(g, span, source(g, l), None)
                return B.reach(g, span, source(g, l), lambda there: cond(g, {**l, var: there}))
            finally:
                _restore(l, var, saved)
        return run

    def x_CondExpr(self, e: A.CondExpr, names):
        c, a, b = self.expr(e.cond, names), self.expr(e.then, names), self.expr(e.otherwise, names)
        return lambda g, l: a(g, l) if c(g, l) else b(g, l)

    def x_Not(self, e, names):
        f = self.expr(e.operand, names)
        return lambda g, l: not f(g, l)

    def x_Neg(self, e, names):
        f = self.expr(e.operand, names)
        return lambda g, l: -f(g, l)

    def x_BinOp(self, e: A.BinOp, names):
        a, b = self.expr(e.left, names), self.expr(e.right, names)
        op = e.op
        span = e.span
        if op in ("+", "-") and _plain_step(e):
            return (lambda g, l: a(g, l) + b(g, l)) if op == "+" else (lambda g, l: a(g, l) - b(g, l))
        if op in ("+", "-", "*"):  # within the integer range, lists within the list size (limits.py)
            fn = {"+": B.add, "-": B.sub, "*": B.mul}[op]
            return lambda g, l: fn(g, a(g, l), b(g, l), span)

        def div(g, l):
            return divide(a(g, l), b(g, l), op, span)
        return div

    def x_Compare(self, e: A.Compare, names):
        a, b = self.expr(e.left, names), self.expr(e.right, names)
        op = e.op
        if op == "==":
            return lambda g, l: a(g, l) == b(g, l)
        if op == "!=":
            return lambda g, l: a(g, l) != b(g, l)
        span = e.span

        def ordered(g, l):
            return ordered_compare(a(g, l), b(g, l), op, span)
        return ordered

    def x_Member(self, e: A.Member, names):
        item, container = self.expr(e.item, names), self.expr(e.container, names)
        negated = e.negated

        def run(g, l):
            found = item(g, l) in B.iterate(g, container(g, l))
            return not found if negated else found
        return run

    def x_BoolOp(self, e: A.BoolOp, names):
        parts = [self.expr(o, names) for o in e.operands]
        if e.op == "and":
            if len(parts) == 2:
                p0, p1 = parts
                return lambda g, l: bool(p0(g, l) and p1(g, l))
            return lambda g, l: all(p(g, l) for p in parts)
        if len(parts) == 2:
            p0, p1 = parts
            return lambda g, l: bool(p0(g, l) or p1(g, l))
        return lambda g, l: any(p(g, l) for p in parts)

    # ================================================================ text


@define(frozen=True)
class _WeightDecl:
    """A choice's weight, shaped as the value declaration codegen.py writes a
    function of its parameters for."""

    params: list
    expr: A.Expr
    key: str
    span: A.Span


@define(slots=True)
class ChoiceSpec:
    name: str
    vars: list[str]
    by: Fn
    sources: list
    where: Fn | None
    optional: bool
    optional_label: str
    text: Callable
    cites: tuple
    span: A.Span
    prompt: str | None
    params: list = field(factory=list)
    weight: Fn | None = None
    # The weight again, as f(g, *values) (Compiler.weight_function).
    weight_at: Callable | None = None
    # The weight of every candidate at once, f(g, candidates, at, known)
    # (Compiler.weights_function; None without codegen): see Game._weights_now.
    weights_of: Callable | None = None
    # The score of an option when a hostile side decides (Game._take_default).
    default: Fn | None = None
    source_names: list = field(factory=list)
    enumerate: Callable | None = None  # (g, l) → candidate tuples (Compiler.enumerator)
    # The weights worked out, by the option's values, when the weight reads
    # nothing but them (None when it reads the state).
    weights: dict | None = None
    # For a weight that reads the state, the values of one parameter that
    # decide it outright: (position, {value → weight}) (Compiler.fixed_weights).
    weight_fixed: tuple | None = None
    # Whether options of different values always read differently (each
    # value that varies is shown as it is, and no two things of its type
    # share a name): a random player then need not write them to tell them
    # apart (Game._option_groups).
    distinct_texts: bool = False
    # Whether no source of the choice can give the same thing twice
    # (Compiler.without_repeats): its candidates are then all different.
    no_repeats: bool = False
    # For a choice with a `where`: its candidates without it, and the test of
    # one option (g, l, values) → bool.  A random player draws among those
    # and tests the `where` only on what it draws, as it tests restrictions.
    enumerate_unfiltered: Callable | None = None
    where_holds: Callable | None = None


def _keeping_frame(l: dict, names: list[str], run: Callable):
    """run(), which binds these names in the frame; the frame's own values
    of them are kept aside meanwhile and put back afterwards."""
    saved = {name: l[name] for name in names if name in l}
    try:
        return run()
    finally:
        for name in names:
            l.pop(name, None)
        l.update(saved)


def _where_tester(spec: ChoiceSpec) -> Callable:
    """(g, l, values) → whether the choice's `where` holds for an option,
    its variables bound in the frame meanwhile (as the enumerator binds them)."""
    bound = [(name, spec.vars.index(name)) for name in spec.source_names]
    where = spec.where

    def holds(g, l: dict, values: tuple) -> bool:
        def test():
            for name, i in bound:
                l[name] = values[i]
            return bool(where(g, l))
        return _keeping_frame(l, spec.source_names, test)
    return holds


def template(text: str, params: list[str], world=None, typed: set[str] = frozenset()) -> Callable:
    """The option text of a choice: {param} (or {param.attr}) replaced by the
    option's values.  A part in [brackets] is left out when a value in it is
    none, so one choice can read "play 12 ops (Entrench)" or "automatic_op"."""
    groups = []
    for optional, chunk in _split_groups(text):
        parts = []
        last = 0
        for m in _PLACEHOLDER.finditer(chunk):
            parts.append(chunk[last:m.start()])
            parts.append((params.index(m.group(1)) if m.group(1) in params else None,
                          [a for a in m.group(2).split(".") if a]))
            last = m.end()
        parts.append(chunk[last:])
        groups.append((optional, parts))

    getters: dict = {}

    def getter(g, attr):
        fn = getters.get(attr)
        if fn is None:
            fn = getters[attr] = B.attribute_getter(g.w, attr)
        return fn

    if world is not None:
        fast = _generated_render(groups, world, {params.index(p) for p in typed if p in params})
        if fast is not None:
            return fast

    def render(values, g=None) -> str:
        out = []
        for optional, parts in groups:
            piece = []
            dropped = False
            for p in parts:
                if isinstance(p, str):
                    piece.append(p)
                    continue
                i, attrs = p
                value = values[i] if i is not None else None
                if value is None and optional:
                    dropped = True
                    break
                for attr in attrs:
                    if value is None:
                        break
                    value = getter(g, attr)(g, value, None) if g is not None else value
                piece.append(text_of(value))
            if not dropped:
                out.append("".join(piece))
        return " ".join("".join(out).split())
    return render


def _generated_render(groups: list, world, typed: set[int] = frozenset()):
    """The option text of a choice as generated Python: the same result as
    `template`'s render, without walking the template at each option.  With
    no game (`g` None) attributes are not read, as there.

    The text is a function of the values it shows (each placeholder's value,
    attributes read), so it is remembered by them: a random player's offer
    renders every candidate, most of them again and again.  The shown values
    are keyed with their type when that matters (1, 1.0 and True are equal
    keys but read "1", "1.0" and "yes"): a parameter of a declared type
    (`typed`, by index) always holds values of one type, an attribute read
    may not.  A list among them is not a key, and the text is then built
    each time."""
    env = {"text_of": text_of, "_get": {}, "_texts": {}, "_odd": frozenset({bool, float}),
           "_LIMIT": TEXTS_REMEMBERED}
    shown: list[str] = []
    names: list[str] = []  # p0, p1…: the shown values, in order
    plain: set[str] = set()  # shown values whose type is known: keyed as they are
    lines = []
    for n, (optional, parts) in enumerate(groups):
        pieces = []
        tests = []
        for p in parts:
            if isinstance(p, str):
                if p:
                    pieces.append(repr(p))
                continue
            i, attrs = p
            value = f"values[{i}]" if i is not None else "None"
            if optional:
                tests.append(f"{value} is not None")
            name = f"p{len(names)}"
            names.append(name)
            if not attrs and i in typed:
                plain.add(name)
            if attrs:
                for attr in attrs:
                    env["_get"][attr] = B.attribute_getter(world, attr)
                env.setdefault("_chain", _render_chain)
                if _reads_no_state(attrs, world):  # the same value always reads the same: keyed by the value
                    shown.append(f"    {name} = {value}")
                    pieces.append(f"text_of(_chain(g, {name}, {attrs!r}, _get))")
                    continue
                if len(attrs) == 1:  # the common case, without the loop of _chain
                    env[f"_get_{name}"] = env["_get"][attrs[0]]
                    shown.append(f"    {name} = {value}")
                    shown.append(f"    if g is not None and {name} is not None:")
                    shown.append(f"        {name} = _get_{name}(g, {name}, None)")
                    pieces.append(f"text_of({name})")
                    continue
                value = f"_chain(g, {value}, {attrs!r}, _get)"
            shown.append(f"    {name} = {value}")
            pieces.append(f"text_of({name})")
        body = " + ".join(pieces) or "''"
        if tests:
            lines.append(f"    if {' and '.join(tests)}:")
            lines.append(f"        out.append({body})")
        else:
            lines.append(f"    out.append({body})")
    key = "(" + "".join(f"{p}, " if p in plain else f"({p} if {p}.__class__ not in _odd else ({p}.__class__, {p})), "
                        for p in names) + ")"
    source = ["def _render(values, g=None):", *shown,
              "    key = None",
              "    if g is not None:  # (without a game no attribute is read: not the text to keep)",
              f"        key = {key}",
              "        try:",
              "            return _texts[key]",
              "        except KeyError:",
              "            pass",
              "        except TypeError:  # a list shown: not a key",
              "            key = None",
              "    out = []",
              *lines,
              "    text = ' '.join(''.join(out).split())",
              "    if key is not None:",
              "        if len(_texts) >= _LIMIT:",
              "            _texts.clear()",
              "        _texts[key] = text",
              "    return text"]
    try:
        exec(compile("\n".join(source) + "\n", "<option text>", "exec"), env)  # noqa: S102
    except SyntaxError:
        return None
    return env["_render"]


# Past this many texts remembered for one choice, its store starts again
# from empty (shown values that come and go, like costs, would pile up).
TEXTS_REMEMBERED = 50_000


def _reads_no_state(attrs: list[str], world) -> bool:
    """Whether attributes read in a row from a value give the same result in
    every state: none of them is read from the changing state
    (deps.DYNAMIC_ATTRIBUTES, scoped state variables)."""
    from .deps import DYNAMIC_ATTRIBUTES

    return not any(a in DYNAMIC_ATTRIBUTES or a in world.state_decls for a in attrs)


def _render_chain(g, value, attrs, getters):
    if g is None:
        return value
    for attr in attrs:
        if value is None:
            break
        value = getters[attr](g, value, None)
    return value


def _texts_tell_apart(choice: A.ChoiceDecl, varying: list[str], world) -> bool:
    """Whether two options of a choice that differ in the values bound by
    these variables (the others are the same in every option) always read
    differently: by the shape of the template (`_template_tells_apart`), or,
    for a template that shows only fixed facts of its values, by writing the
    text of every option there could be (`_every_text_differs`)."""
    return _template_tells_apart(choice, varying, world) or _every_text_differs(choice, varying, world)


# Past this many possible options, the texts of a choice are not all written
# to see whether they differ.
TEXTS_CHECKED = 20_000


def _every_text_differs(choice: A.ChoiceDecl, varying: list[str], world) -> bool:
    """Whether, whatever the values the options share, the texts of all the
    options a choice could offer differ: each parameter has a type with a
    fixed set of things (or members), each one possibly none, the template
    reads no state (`{c.number}`, `{c.name}` of a card: fixed facts), and
    there are not too many combinations to write them all (TEXTS_CHECKED).
    `take_action`'s "play 12 ops (Entrench)" is one: the card's name tells
    two cards of one number apart."""
    names = [p.name.text for p in choice.params]
    placeholders = list(_PLACEHOLDER.finditer(choice.template))
    shown = [m.group(1) for m in placeholders]
    attrs = [a for m in placeholders for a in m.group(2).split(".") if a]
    if not shown or any(name not in names for name in shown) or not _reads_no_state(attrs, world):
        return False
    domains = []
    size = 1
    for param in choice.params:
        name = param.name.text
        if name not in varying and name not in shown:
            domains.append([None])  # the same in every option, and never read
            continue
        things = world.by_kind.get(param.type.text) if param.type is not None and not param.is_list else None
        if not things or param.type.text in ("unit", "text"):
            return False
        domains.append([None, *dict.fromkeys(things.values())])
        size *= len(domains[-1])
        if size > TEXTS_CHECKED:
            return False
    render = template(choice.template, names)  # no game: the facts are read from the things themselves
    facts = _FactsOnly(world)
    shared = [i for i, name in enumerate(names) if name not in varying]
    seen: set = set()
    for values in itertools.product(*domains):
        text = (tuple(values[i] for i in shared), render(values, facts))
        if text in seen:
            return False
        seen.add(text)
    return True


class _FactsOnly:
    """What a template reading fixed facts of its values needs of a game."""

    def __init__(self, world):
        self.w = world


def _template_tells_apart(choice: A.ChoiceDecl, varying: list[str], world) -> bool:
    """Whether the template keeps the options apart by its shape: each
    varying value must be a parameter shown plainly, `{s}`, of a type whose
    things all have names of their own (not a unit: identical pieces share
    a name; not a list; not text), and the text must read back one way: two
    shown values are kept apart by words that none of their names contains,
    or by a space when at most one of the names joined so may hold a space
    itself (`activate {s} {mode}`: the mode is the last word)."""
    params = {p.name.text: p for p in choice.params}
    for var in varying:
        param = params.get(var)
        if param is None or param.type is None or param.is_list or param.type.text in ("unit", "text"):
            return False
    parts: list = []  # literal text and shown names, in order, optional brackets dropped
    for _, chunk in _split_groups(choice.template):
        last = 0
        for m in _PLACEHOLDER.finditer(chunk):
            parts.append(chunk[last:m.start()])
            parts.append((m.group(1), bool(m.group(2))))
            last = m.end()
        parts.append(chunk[last:])
    shown = [p for p in parts if isinstance(p, tuple)]
    if any(name not in {n for n, with_attrs in shown if not with_attrs} for name in varying):
        return False
    if any(with_attrs or name not in params for name, with_attrs in shown):
        return False  # an attribute shown could read anything
    def keys(name):  # the names of the things of its type
        return world.by_kind.get(params[name].type.text, {}).keys()

    spaced_in_run = 0
    previous = None
    between = ""
    for part in parts:
        if isinstance(part, str):
            between += part
            continue
        name = part[0]
        spaced = any(any(c.isspace() for c in k) for k in keys(name))
        if previous is not None:
            word = between.strip()
            if not between:
                return False  # two names run together
            if not word:
                spaced_in_run += spaced
            elif any(_holds_words(k, word) for k in (*keys(previous), *keys(name))):
                return False
            else:
                spaced_in_run = int(spaced)
        else:
            spaced_in_run = int(spaced)
        if spaced_in_run > 1:
            return False
        previous, between = name, ""
    return True


def _holds_words(name: str, words: str) -> bool:
    """Whether the words follow one another in a name (`to` is not in
    `to_reserve`; `from` is in `Cape from Here`)."""
    have, want = name.split(), words.split()
    return any(have[i:i + len(want)] == want for i in range(len(have) - len(want) + 1))


def _split_groups(text: str) -> list[tuple[bool, str]]:
    out, depth, current = [], 0, []
    for ch in text:
        if ch == "[" and depth == 0:
            if current:
                out.append((False, "".join(current)))
            current, depth = [], 1
        elif ch == "]" and depth == 1:
            out.append((True, "".join(current)))
            current, depth = [], 0
        else:
            current.append(ch)
    if current:
        out.append((depth == 1, "".join(current)))
    return out


def _entry_fallback(hooked, var_names, when, unless, w):
    """One restriction entry evaluated through its closures (for a condition
    the generated checker leaves to them): does it forbid these values?"""
    def forbids(g, values) -> bool:
        bound = dict(zip(var_names, values))
        if hooked.owner is not None:
            bound["this_card"] = w.cards[hooked.owner]
        if when is not None and not when(g, bound):
            return False
        return not (unless is not None and unless(g, bound))
    return forbids


def _const(value):
    return lambda g, l: value


_MISSING = object()


def _restore(l: dict, var: str, saved) -> None:
    if saved is _MISSING:
        l.pop(var, None)
    else:
        l[var] = saved


def _plain_step(e: A.BinOp) -> bool:
    """`n + 1`, `x - 2`: a sum with a number written out grows by at most
    that number each time it is worked out, so within a step budget it
    stays far from anything a hang or memory notices; it is left unchecked
    (a value past the integer range is still refused when it is stored:
    builtins.stored).  Every other `+`, `-` and `*` is checked."""
    return isinstance(e.left, A.IntLit) or isinstance(e.right, A.IntLit)


def _too_many(g, spec) -> LimitExceeded:
    return LimitExceeded(f"choice '{spec.name}' has more than {g.max_candidates} candidates "
                         "(`limit candidates N` in the scenario raises it)", spec.span, spec.cites, "candidates")


def _bound_names(steps) -> set[str]:
    names: set[str] = set()
    for s in steps:
        if s.op in ("let", "roll"):
            names.add(s.args["var"])
        elif s.op == "for_next" or (s.op == "repeat_next" and s.args.get("var")):
            names.add(s.args["var"])
        elif s.op in ("for_init", "repeat_init"):
            names.add(s.args["slot"])
        elif s.op == "choose":
            names.update(v.text for v in s.node.vars)
        elif s.op == "effect" and s.node.verb == "set" and isinstance(s.node.obj, A.Ref):
            pass
    return names


def _neighbour_of(w) -> tuple:
    """For each space, the spaces it is a neighbour of (`adjacent(t)` holds
    it): the spaces whose test reads it, in a space filter that reads the
    neighbours of its space."""
    out = [[] for _ in w.spaces]
    for t, near in enumerate(w.neighbours):
        for x in near:
            out[x.index].append(t)
    return tuple(tuple(ts) for ts in out)
