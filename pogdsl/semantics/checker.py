"""Name resolution and kind checking of a `Program`.

The checker walks every declaration once, with a scope of local names, and
reports: unknown names (with a "did you mean"), the wrong kind of thing in a
slot (a unit where a space is wanted), wrong arity, bad effect arguments,
assignments to non-state, malformed tables, unknown or contradictory rule
citations, flags read but never written, unreachable phases and procedures.
"""

from __future__ import annotations

import difflib

import re
from collections import defaultdict

import attrs

from ..diagnostics import Reporter, did_you_mean
from ..syntax import ast as A
from ..syntax.template import template_parts
from .citations import collect_citations
from .model import EVALUATION_SCALE, PRINTED_RANGES, Global, Program, state_value_kind
from .vocabulary import (
    ANY, ATTRIBUTES, EVENTS, FUNCTIONS, TYPE_NAMES, VERBS, WRITABLE_ATTRIBUTES, Scope, element_kind, list_of,
)

# The diagnostic code for "unknown X" when one kind of thing is wanted.
UNKNOWN_CODE = {
    "nation": ("E0202", "nation"), "space": ("E0203", "space"), "unit": ("E0204", "unit"),
    "side": ("E0212", "side"), "map": ("E0213", "map"), "card": ("E0211", "card"),
    "box": ("E0218", "box"), "table": ("E0209", "table"), "phase": ("E0210", "phase"),
}
SCOPE_KINDS = ("side", "nation", "space", "unit")
# What a box may declare it `receives`: `eliminated` — the units an `eliminate`
# without a destination sends there (one box per side when kept per side).
BOX_ROLES = frozenset({"eliminated"})
_FLAG_KINDS = ("flag",)
# Words a writer uses for a truth value that the language spells `true` and `false`.
BOOLEAN_LOOKALIKES = frozenset({"yes", "no", "true", "false", "on", "off"})  # (compared lower-cased: True, FALSE)


_NO_LITERAL = object()


def _state_written(stmt) -> str | None:
    """The state a `set` or `shift` statement writes (`trench[Verdun]`,
    `Verdun.trench`: trench), or None."""
    if not isinstance(stmt, A.Effect) or stmt.verb not in ("set", "shift"):
        return None
    target = stmt.obj
    if isinstance(target, A.Ref):
        return target.name.text
    if isinstance(target, A.Index) and isinstance(target.obj, A.Ref):
        return target.obj.name.text
    if isinstance(target, A.Attr):
        return target.attr.text
    return None


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _article(kind: str) -> str:
    # By sound, not spelling: "a unit", "an army".
    if kind.startswith(("uni", "use", "one")):
        return "a"
    return "an" if kind[:1] in "aeiou" else "a"


def describe(kind: str) -> str:
    if kind.startswith("list:"):
        return f"a list of {element_kind(kind)}s"
    if kind.startswith("scoped:"):
        return f"state scoped per entry (write {kind[7:]}[...])"
    return f"{_article(kind)} {kind}"


def _closure(after: dict[str, set[str]]) -> dict[str, set[str]]:
    """For each modifier, every modifier it is applied after, directly or not."""
    out: dict[str, set[str]] = {}
    for start in after:
        seen: set[str] = set()
        todo = list(after[start])
        while todo:
            n = todo.pop()
            if n not in seen:
                seen.add(n)
                todo.extend(after.get(n, ()))
        out[start] = seen
    return out


def _shape(e, names: dict[str, str], owner) -> object:
    """An expression's structure without its spans, bound names by position and
    `this_card` by the card carrying the modifier: two contributions whose
    shapes are equal compute the same thing."""
    if e is None:
        return None
    if isinstance(e, A.Name):
        return names.get(e.text, e.text)
    if isinstance(e, A.Ref):
        t = e.name.text
        if t == "this_card":
            return ("card", owner)
        return ("ref", names.get(t, t))
    if isinstance(e, (list, tuple)):
        return tuple(_shape(x, names, owner) for x in e)
    if isinstance(e, A.Expr):
        return (type(e).__name__,) + tuple(
            _shape(getattr(e, f.name), names, owner) for f in attrs.fields(type(e)) if f.name != "span")
    return e


def _bound(c: A.Contribution) -> dict[str, str]:
    return {v.text: f"${i}" for i, v in enumerate(c.vars)}


def _replacements_agree(m1, c1, m2, c2) -> bool:
    """Both give the same result (`:= false` twice): their order changes nothing."""
    return _shape(c1.expr, _bound(c1), m1.owner) == _shape(c2.expr, _bound(c2), m2.owner)


def _conjuncts(e) -> list:
    if isinstance(e, A.BoolOp) and e.op == "and":
        return [x for o in e.operands for x in _conjuncts(o)]
    return [] if e is None else [e]


def _constant(shape) -> bool:
    """A shape that names one fixed thing: a literal, a card, or a global name."""
    return (shape[0] in ("IntLit", "TextLit", "BoolLit", "NoneLit", "card")
            or (shape[0] == "ref" and not str(shape[1]).startswith("$")))


def _in_own_combat(m, c) -> bool:
    """The condition asks `in_combat(this_card)` of the card carrying the
    modifier: the card was playable in this combat."""
    return m.owner is not None and any(
        isinstance(e, A.Call) and e.func.text == "in_combat" and len(e.args) == 1
        and isinstance(e.args[0], A.Ref) and e.args[0].name.text == "this_card" for e in _conjuncts(c.when))


def _equalities(m, c, playable=None) -> list[tuple[object, object, bool]]:
    """The `x == k` and `x != k` conjuncts of a contribution's condition, as
    (shape of x, shape of k, equal?), k a constant.  A contribution that holds
    only in its own card's combat also has the card's `playable when`
    conjuncts (`playable`): they held when the card was played, and what they
    ask of the combat (who attacks, who defends) does not change in it."""
    out = []
    conds = _conjuncts(c.when) + (_conjuncts(playable) if playable is not None and _in_own_combat(m, c) else [])
    for e in conds:
        if isinstance(e, A.Compare) and e.op in ("==", "!="):
            left, right = _shape(e.left, _bound(c), m.owner), _shape(e.right, _bound(c), m.owner)
            if not _constant(right) and _constant(left):
                left, right = right, left
            if _constant(right):
                out.append((left, right, e.op == "=="))
    return out


def _exclusive(m1, c1, m2, c2, playable=lambda m: None) -> bool:
    """The two conditions cannot hold together: one asks `x == k1`, the other
    `x == k2` with another constant (or `x != k1`).  Names of the game are
    taken as distinct things, so this is a cheap proof, never a guess that
    they overlap."""
    for x1, k1, eq1 in _equalities(m1, c1, playable(m1)):
        for x2, k2, eq2 in _equalities(m2, c2, playable(m2)):
            if x1 != x2:
                continue
            if eq1 and eq2 and k1 != k2:
                return True
            if eq1 != eq2 and k1 == k2:
                return True
    return False


# An option's kind, in words, and the kind of value `option("NAME")` gives.
_OPTION_KINDS = {"bool": "an on/off option", "int": "a number option", "names": "a choice among names"}
_OPTION_VALUE_KINDS = {"bool": "bool", "int": "int", "names": "text"}


_COLOUR = re.compile(r"#[0-9a-fA-F]{6}")


class Checker:
    def __init__(self, program: Program, reporter: Reporter):
        self.p = program
        self.r = reporter
        self.globals: dict[str, Global] = program.globals()
        self.enums = {e.key: e for e in program.all("enum")}
        self.flag_reads: dict[str, A.Span] = {}
        self.state_writes: set[str] = set()
        self.called: set[str] = set()
        self.cited: dict[str, list[A.Span]] = defaultdict(list)
        self.value_kinds: dict[str, str] = {}  # value name → what its expression gives (see value_kind)
        self._value_needs: dict[str, list[str]] | None = None
        # Names printed on more than one card (Withdrawal, Entrench …): a quoted
        # name cannot pick one of them, so using it is an error (E0223).
        by_name: dict[str, list[A.CardDecl]] = defaultdict(list)
        for card in program.all("card"):
            by_name[card.name.text].append(card)
        self.shared_card_names = {name: cards for name, cards in by_name.items() if len(cards) > 1}
        # `option("NAME")` in a shared file may name an option of any scenario
        # (the others play it at its default); in a scenario's own `add` or
        # `replace`, only an option of that scenario (or what it extends).
        self.own_options = False
        self._options: dict[str, list[A.ScenarioOption]] | None = None

    # ================================================================ entry
    def run_only(self, decls: list[A.Decl]) -> None:
        """Check just these declarations (a variant's replacements) in the
        context of the whole program."""
        self.own_options = True  # they belong to this scenario alone: only its options exist for them
        for decl in decls:
            handler = self._DECL_CHECKS.get(decl.kind)
            if handler is not None:
                handler(self, decl)

    def run(self) -> None:
        p = self.p
        for decl in p.all("nation"):
            self.expect_name(decl.side, ("side",), allow_none=True)
            if decl.neutral and self.hostile_side(decl.side):
                self.r.error("E0562", f"nation '{decl.key}' is neutral, but its side '{decl.side.text}' is hostile",
                             decl.name.span, "a hostile side is at war with every side from the start: drop "
                             "`neutral`, or give the nation a playing side")
        for decl in p.all("space"):
            self.check_space(decl)
        self.check_connections()
        receivers: dict[str, A.BoxDecl] = {}
        for decl in p.all("box"):
            if decl.per is not None and decl.per.text not in SCOPE_KINDS:
                self.r.error("E0214", f"a box can be kept per {', '.join(SCOPE_KINDS)}, not per '{decl.per.text}'",
                             decl.per.span)
            self.check_box_role(decl, receivers)
        for decl in p.all("unit"):
            self.check_unit(decl)
        for decl in p.all("table"):
            self.check_table(decl)
        for decl in p.all("state"):
            self.check_state(decl)
        # Values are checked after what they read, so that working out what
        # one gives never walks down a long chain of others; a loop of values
        # is an error of its own and counts as giving anything.
        looped = self.check_value_cycles()
        for key in looped:
            self.value_kinds[key] = ANY
        for decl in self.values_in_dependency_order():
            self.check_params(decl.params)
            if decl.key in looped:
                self.check_expr(decl.expr, self.param_scope(decl.params))
            else:
                self.value_kind(decl)
        for decl in p.all("term"):
            self.check_term(decl)
        self.check_evaluation_scale()
        self.check_printed_ranges()
        for decl in p.all("choice"):
            self.check_params(decl.params)
            self.check_template(decl)
        for decl in p.all("signal"):
            self.check_params(decl.params)
        for decl in p.all("procedure"):
            self.check_params(decl.params)
            self.check_block(decl.body, self.param_scope(decl.params))
        for decl in p.all("phase"):
            self.check_block(decl.body, Scope())
        for decl in p.all("sequence"):
            for name in decl.phases:
                if name.text not in p.decls["phase"]:
                    self.unknown(name, "E0210", "phase", p.decls["phase"])
        for decl in p.all("restriction"):
            self.check_restriction(decl)
        for decl in p.all("modifier"):
            self.check_modifier(decl)
        self.check_modifier_order()
        for decl in p.all("trigger"):
            self.check_trigger(decl)
        for decl in p.all("card"):
            self.check_card(decl)
        for decl in p.all("scenario") + p.all("ruleset"):
            self.check_scenario_body(decl)
            self.check_setup_changes(decl)
        for decl in p.all("display"):
            self.check_display(decl)
        self.collect_citations()
        self.check_citations()
        self.check_uncited()
        self.check_flow()

    # ================================================================ display
    def check_display(self, decl: A.DisplayDecl) -> None:
        """A display line names a side, nation, terrain or map that exists, a
        glyph role the drawing has, and state the board can show."""
        from ..board.roles import GLYPH_ROLES, TRACK_BUILTINS

        colour_kinds = {"side": "side", "nation": "nation", "map": "map"}
        for item in decl.items:
            name = item.name
            if item.item == "colour":
                if item.kind == "terrain":
                    member = self.p.enum_members.get(name.text)
                    if member is None or member[0] != "terrain":
                        pool = [m for m, (enum, _) in self.p.enum_members.items() if enum == "terrain"]
                        self.unknown(name, "E0214", "terrain", pool)
                else:
                    self.expect_name(name, (colour_kinds[item.kind],))
                if not _COLOUR.fullmatch(item.text):
                    self.r.error("E0225", f"'{item.text}' is not a colour", item.span,
                                 'write it as "#rrggbb" (e.g. "#4a78c2")')
            elif item.item == "glyph" and name.text not in GLYPH_ROLES:
                self.r.error("E0225", f"the board prints no mark called '{name.text}'", name.span,
                             did_you_mean(name.text, list(GLYPH_ROLES)) or f"marks: {', '.join(GLYPH_ROLES)}")
            elif item.item in ("marker", "track"):
                self.check_display_state(item, TRACK_BUILTINS)

    def check_display_state(self, item: A.DisplayItem, builtins: tuple) -> None:
        name = item.name
        if item.within is not None:
            self.check_display_local(item)
            return
        if item.item == "track" and name.text in builtins:
            return
        state = self.p.decls["state"].get(name.text)
        value = self.p.decls["value"].get(name.text) if item.item == "marker" else None
        if state is None and value is not None:
            params = value.params
            if len(params) != 1 or params[0].is_list or params[0].type is None \
                    or params[0].type.text not in ("space", "unit"):
                self.r.error("E0225", f"'{name.text}' does not take one space or one unit: a marker shows a value "
                             "worked out for each space or each unit", name.span,
                             "declare it `value NAME(u: unit) = ...` or `value NAME(s: space) = ...`")
            return
        if state is None:
            pool = list(self.p.decls["state"]) + list(builtins)
            if item.item == "marker":
                pool += list(self.p.decls["value"])
            self.unknown(name, "E0225", "state variable" + (" or value" if item.item == "marker" else ""), pool)
            return
        scope = state.scope.text if state.scope is not None else None
        if item.item == "marker":
            names_a_space = state.type is not None and not state.type.is_list and state.type.type.text == "space"
            if scope not in ("space", "unit") and not (scope is None and names_a_space):
                self.r.error("E0225", f"'{name.text}' is kept neither per space nor per unit, nor names a space: "
                             "no place on the board to show it", name.span, "show it with `track` instead")
        elif scope not in (None, "side", "nation"):
            self.r.error("E0225", f"'{name.text}' is kept per {scope}: a track shows one value, or one per "
                         "side or nation", name.span, "show it with `marker` instead")
        elif item.only and scope is None:
            self.r.error("E0225", f"'{name.text}' is one value: `for` picks sides or nations of a track kept "
                         "per side or nation", item.only[0].span)
        else:
            for who in item.only:
                self.expect_name(who, (scope,))

    def check_display_local(self, item: A.DisplayItem) -> None:
        """`track NAME "LABEL" in PROCEDURE`: NAME is one of the procedure's
        parameters or of the names its body binds (let, for, choose)."""
        proc = self.p.decls["procedure"].get(item.within.text)
        if proc is None:
            self.unknown(item.within, "E0225", "procedure", list(self.p.decls["procedure"]))
            return
        if item.only:
            self.r.error("E0225", f"'{item.name.text}' is a local of {proc.name.text}, one value: `for` picks sides or "
                         "nations of a track kept per side or nation", item.only[0].span)
        local = _procedure_locals(proc)
        if item.name.text not in local:
            self.r.error("E0225", f"procedure {proc.name.text} has no parameter or local named '{item.name.text}'",
                         item.name.span, did_you_mean(item.name.text, sorted(local)) or
                         (f"its names: {', '.join(sorted(local))}" if local else None))

    # ================================================================ names
    def unknown(self, name: A.Name, code: str, what: str, pool) -> None:
        if name.text.lower() in BOOLEAN_LOOKALIKES:
            hint = "a truth value is written `true` or `false`"
        else:
            hints = [did_you_mean(name.text, pool), self.side_meant(name.text)]
            if what == "side" or hints[1]:
                hints.append(("the sides are " if not any(hints) else "The sides are ")
                             + ", ".join(self.side_list()))
            hint = " ".join(h for h in hints if h) or None
        self.r.error(code, f"unknown {what} '{name.text}'", name.span, hint)

    def side_list(self) -> list[str]:
        return [f"{s.key} ({s.title})" if s.title else s.key for s in self.p.all("side") if not s.hostile]

    def side_meant(self, text: str) -> str | None:
        """`allies` or `central` for a side: the word is close to a word of a
        side's title, which a writer remembers before its short name."""
        word = text.lower().replace("_", " ")
        for side in self.p.all("side"):
            words = (side.title or "").lower().split()
            if word == (side.title or "").lower() or difflib.get_close_matches(word, words, n=1, cutoff=0.75):
                return f"did you mean the side '{side.key}'?"
        return None

    def expect_name(self, name: A.Name | None, kinds: tuple[str, ...], allow_none: bool = False) -> str:
        """Resolve a bare name that must be one of `kinds`; report if not."""
        if name is None:
            return ANY
        if allow_none and name.text == "none":
            return "none"
        g = self.globals.get(name.text)
        if g is None:
            self.report_unknown(name, kinds)
            return ANY
        if g.kind not in kinds and not (g.kind == "card" and "card" in kinds):
            self.wrong_kind(name.text, g.kind, kinds, name.span)
        return g.kind

    def report_unknown(self, name: A.Name, kinds: tuple[str, ...], scope: Scope | None = None) -> None:
        if name.text == "original":  # the replaced declaration, outside a replacement
            self.misplaced_original(name)
            return
        # "a unit or a list of units" is still "unknown unit"; where a space or a
        # box may go, a missing name is most likely a misspelt space.
        kinds = tuple(dict.fromkeys(element_kind(k) if k.startswith("list:") else k for k in kinds))
        if "space" in kinds and set(kinds) <= {"space", "box", "pile"}:
            pool = [k for k, g in self.globals.items() if g.kind in ("space", "box")]
            self.unknown(name, "E0203", "space", pool)
            return
        if len(kinds) == 1 and kinds[0] in UNKNOWN_CODE:
            code, what = UNKNOWN_CODE[kinds[0]]
            if kinds[0] == "card":
                pool = [c.name.text for c in self.p.all("card")]
            else:
                pool = [k for k, g in self.globals.items() if g.kind == kinds[0]]
            self.unknown(name, code, what, pool)
            return
        if len(kinds) == 1 and kinds[0] in self.enums:
            enum = self.enums[kinds[0]]
            hint = did_you_mean(name.text, [m.text for m in enum.members])
            self.r.error("E0214", f"'{name.text}' is not a member of enum '{enum.key}'", name.span,
                         hint or f"one of: {', '.join(m.text for m in enum.members)}")
            return
        if len(kinds) == 1 and kinds[0] not in ("any",) and kinds[0] not in UNKNOWN_CODE \
                and ":" not in kinds[0] and kinds[0] not in ("int", "bool", "text", "none"):
            self.r.error("E0214", f"'{name.text}' should be a {kinds[0]}, but no enum '{kinds[0]}' is declared",
                         name.span, f"declare it: enum {kinds[0]} {{ {name.text}, ... }}")
            return
        pool = list(self.globals)
        local = scope
        while local is not None:
            pool.extend(local.names)
            local = local.parent
        self.unknown(name, "E0201", "name", pool)

    def wrong_kind(self, text: str, actual: str, wanted: tuple[str, ...], span: A.Span) -> None:
        wanted_text = " or ".join(describe(k) for k in wanted)
        subject = f"'{text}' is" if text else "this is"
        self.r.error("E0301", f"{subject} {describe(actual)}, but {wanted_text} is wanted here", span)

    def compatible(self, actual: str, wanted: tuple[str, ...]) -> bool:
        if actual in (ANY, "none") or ANY in wanted or actual in wanted:
            return True
        if actual.startswith("list:"):
            # A list fits a list of the same things; a list of none or of
            # anything fits any list ([none] joins a list of spaces).
            return any(w.startswith("list:") and self.compatible(element_kind(actual), (element_kind(w),))
                       for w in wanted)
        return False

    # ================================================================ board
    def check_repeated(self, decl: A.Decl) -> None:
        for item, span in decl.repeated:
            self.r.error("E0405", f"{decl.kind} '{decl.key}' gives '{item}' twice; only one can hold",
                         span, "remove one of them")

    def check_space(self, s: A.SpaceDecl) -> None:
        self.check_repeated(s)
        if s.terrain is not None:
            self.expect_name(s.terrain, ("terrain",))
        if s.nation is None:
            self.r.error("E0202", f"space '{s.key}' has no nation", s.name.span,
                         "put it in a `spaces nation X { }` group or add `nation X`")
        else:
            self.expect_name(s.nation, ("nation",), allow_none=True)
        if s.map is None:
            self.r.error("E0213", f"space '{s.key}' is on no map", s.name.span,
                         "put it in a `spaces map X { }` group or add `map X`")
        else:
            self.expect_name(s.map, ("map",))
        self.expect_name(s.control, ("side",), allow_none=True)
        for port in s.ports:
            self.expect_name(port, ("side",))
            if self.hostile_side(port):
                self.r.error("E0561", f"space '{s.key}' is a port of the hostile side '{port.text}'", port.span,
                             "a hostile side has no player to use ports, cards or supply sources: name a "
                             "playing side")
        if s.supply_for is not None:
            self.expect_name(s.supply_for, ("side", "nation"))
            if self.hostile_side(s.supply_for):
                self.r.error("E0561", f"space '{s.key}' is a supply source of the hostile side "
                             f"'{s.supply_for.text}'", s.supply_for.span,
                             "a hostile side has no player to use ports, cards or supply sources: name a "
                             "playing side")

    def hostile_side(self, name: A.Name | None) -> bool:
        """Whether a name is that of a side declared `hostile`."""
        if name is None:
            return False
        decl = self.p.decls["side"].get(name.text)
        return decl is not None and decl.hostile

    def check_connections(self) -> None:
        seen: dict[frozenset, A.Connection] = {}
        spaces = self.p.decls["space"]
        for c in self.p.connections:
            for end in (c.a, c.b):
                if end.text not in spaces:
                    self.report_unknown(end, ("space",))
            if c.a.text == c.b.text:
                self.r.error("E0402", f"'{c.a.text}' is connected to itself", c.span)
            pair = frozenset((c.a.text, c.b.text))
            if pair in seen:
                self.r.error("E0402", f"'{c.a.text}' and '{c.b.text}' are connected twice", c.span,
                             notes=[("first connected here", seen[pair].span)])
            else:
                seen[pair] = c
            for n in c.only:
                self.expect_name(n, ("nation",))
        # A space no line touches can never be entered, left or supplied:
        # most likely a connection was forgotten (a variant adding a space).
        connected = {end.text for c in self.p.connections for end in (c.a, c.b)}
        for key, decl in spaces.items():
            if key not in connected:
                self.r.warning("W0706", f"space '{key}' has no connections: no unit can enter or leave it",
                               decl.name.span, f"connect it: `{key} -- OTHER` in a connections block")

    def check_box_role(self, decl: A.BoxDecl, receivers: dict) -> None:
        """`receives ROLE`: one of the closed set of roles, and one box per role."""
        role = decl.receives
        if role is None:
            return
        if role.text not in BOX_ROLES:
            self.r.error("E0221", f"a box cannot receive '{role.text}'", role.span,
                         did_you_mean(role.text, sorted(BOX_ROLES))
                         or f"a box can receive: {', '.join(sorted(BOX_ROLES))}")
            return
        other = receivers.get(role.text)
        if other is not None:
            self.r.error("E0401", f"boxes '{other.key}' and '{decl.key}' both receive {role.text} units", role.span,
                         notes=[("the first is declared here", other.name.span)],
                         hint="only one box may take in the units that no effect sends elsewhere")
            return
        receivers[role.text] = decl

    def check_unit(self, u: A.UnitDecl) -> None:
        self.expect_name(u.nation, ("nation",))
        self.expect_name(u.unit_type, ("unit_type",))
        if u.rp is not None:
            self.expect_name(u.rp, ("nation", "rp_pool"))
        if u.count < 1:
            self.r.error("E0304", f"unit '{u.key}' has count {u.count}; it must be at least 1", u.name.span)

    def check_table(self, t: A.TableDecl) -> None:
        seen: dict[str, A.TableRow] = {}
        width = len(t.columns) if t.columns else None
        for row in t.rows:
            label = row.key.label()
            if label in seen:
                self.r.error("E0403", f"table '{t.key}' has two rows keyed {label}", row.key.span,
                             notes=[("first row here", seen[label].span)])
            seen[label] = row
            if row.key.kind == "name":
                self.expect_name(row.key.name, ("any",)) if row.key.name.text not in self.globals else None
            if width is None:
                width = len(row.cells)
            elif len(row.cells) != width:
                self.r.error("E0406", f"row {label} of table '{t.key}' has {len(row.cells)} cells, "
                             f"but the table has {width} columns", row.span)
            for cell in row.cells:
                if isinstance(cell, A.Name) and cell.text not in self.globals and cell.text != "none":
                    self.report_unknown(cell, (ANY,))

    def check_state(self, s: A.StateDecl) -> None:
        if s.scope is not None and s.scope.text not in SCOPE_KINDS:
            self.r.error("E0214", f"state can be kept per {', '.join(SCOPE_KINDS)}, not per '{s.scope.text}'",
                         s.scope.span)
        if s.low is not None and s.high is not None and s.low > s.high:
            self.r.error("E0304", f"range {s.low}..{s.high} is empty", s.name.span)
        if s.type is not None:
            self.check_type(s.type.type)
        if s.start is not None:
            kind = self.check_expr(s.start, Scope())
            want = state_value_kind(s)
            if not self.compatible(kind, (want,)):
                self.wrong_kind("", kind, (want,), s.start.span)
            if isinstance(s.start, A.IntLit) and s.low is not None and not s.low <= s.start.value <= s.high:
                self.r.error("E0304", f"start value {s.start.value} is outside {s.low}..{s.high}", s.start.span)

    # ================================================================ evaluation
    def check_term(self, t: A.TermDecl) -> None:
        """A term of the evaluation: one parameter, the side judging, a whole
        number for it, and the rule that makes it matter with a note saying
        why (a player's judgement is reviewed like any rule)."""
        self.check_params(t.params)
        if len(t.params) != 1 or (t.params[0].type is not None and t.params[0].type.text != "side"):
            self.r.error("E0306", f"term '{t.key}' must take one parameter, the side it judges for",
                         t.name.span, f"write `term {t.key}(p: side) weight N cites ... = ...`")
        if not t.cites or t.note is None:
            missing = " and no ".join(w for w, gone in (("citation", not t.cites), ("note", t.note is None))
                                      if gone)
            self.r.error("E0607", f"term '{t.key}' has no {missing}: a term of the evaluation says which rule "
                                  "makes it matter, and why, in its own words", t.name.span,
                         " and ".join(h for h, gone in (("add `cites N` before `=`", not t.cites),
                                                        ("add a \"note\" after the expression", t.note is None))
                                      if gone))
        kind = self.check_expr(t.expr, self.param_scope(t.params))
        if not self.compatible(kind, ("int",)):
            self.wrong_kind("", kind, ("int",), t.expr.span)

    def check_evaluation_scale(self) -> None:
        """Terms are turned into a win expectation by `evaluation_scale`: a
        value with no parameters, declared wherever terms are."""
        terms = self.p.all("term")
        if not terms:
            return
        scale = self.p.decls["value"].get(EVALUATION_SCALE)
        if scale is None:
            self.r.error("E0306", f"terms of the evaluation are declared but no `value {EVALUATION_SCALE}`",
                         terms[0].name.span, f"declare `value {EVALUATION_SCALE} cites N = 40 \"...\"`: the "
                         "lead in weighted terms that makes a win about e (2.7) times as likely as a loss")
        elif scale.params:
            self.r.error("E0306", f"value '{EVALUATION_SCALE}' takes no parameters", scale.name.span)

    def check_printed_ranges(self) -> None:
        """A card value outside the range the game declares for it (`value
        printed_ops = 2..5`): warned, as a typo is likelier than a new kind of
        card.  Each such value must be a plain range."""
        ranges = {}
        for field_name, value_name in PRINTED_RANGES.items():
            decl = self.p.decls["value"].get(value_name)
            if decl is None:
                continue
            if decl.params or not isinstance(decl.expr, A.RangeLit):
                self.r.error("E0306", f"value '{value_name}' is the range of a card's {field_name}: write it as "
                             "LOW..HIGH", decl.name.span, f"value {value_name} cites N = 2..5")
                continue
            ranges[field_name] = (decl.expr.low, decl.expr.high, value_name)
        if not ranges:
            return
        for card in self.p.all("card"):
            values = [(f, getattr(card, f)) for f in ("ops", "sr", "war_status")]
            values += [("rp", n) for _, n in card.rp]
            for field_name, n in values:
                bounds = ranges.get(field_name)
                if bounds is not None and not bounds[0] <= n <= bounds[1]:
                    low, high, value_name = bounds
                    self.r.warning("W0903", f"card '{card.key}': {field_name} {n} is outside the printed range "
                                            f"{low}..{high}", card.name.span,
                                   f"the game's cards have {field_name} {low} to {high} ({value_name}); "
                                   "check the value, or widen the range in a variant")

    # ================================================================ params
    def check_type(self, name: A.Name | None) -> None:
        if name is None:
            return
        if name.text not in TYPE_NAMES and name.text not in self.enums and name.text != "unit_type":
            hint = did_you_mean(name.text, sorted(TYPE_NAMES | set(self.enums)))
            self.r.error("E0214", f"unknown type '{name.text}'", name.span, hint)

    def check_params(self, params: list[A.Param]) -> None:
        seen = set()
        for prm in params:
            if prm.name.text in seen:
                self.r.error("E0404", f"parameter '{prm.name.text}' is named twice", prm.name.span)
            seen.add(prm.name.text)
            self.check_type(prm.type)

    @staticmethod
    def param_kind(prm: A.Param) -> str:
        if prm.type is None:
            return ANY
        return list_of(prm.type.text) if prm.is_list else prm.type.text

    def param_scope(self, params: list[A.Param], parent: Scope | None = None) -> Scope:
        scope = Scope({}, parent)
        for prm in params:
            scope.names[prm.name.text] = self.param_kind(prm)
        return scope

    def check_template(self, c: A.ChoiceDecl) -> None:
        import re

        if c.weight is not None:
            self.expect_expr(c.weight, ("int",), self.param_scope(c.params))
        if c.default is not None:
            self.expect_expr(c.default, ("int",), self.param_scope(c.params))
        names = {p.name.text for p in c.params}
        for m in re.finditer(r"\{([A-Za-z_][A-Za-z0-9_]*)[^}]*\}", c.template):
            if m.group(1) not in names:
                self.r.error("E0201", f"the text of choice '{c.key}' shows '{{{m.group(1)}}}', "
                             "which is not one of its parameters", c.name.span,
                             f"parameters: {', '.join(sorted(names)) or 'none'}")

    # ================================================================ behaviour
    @staticmethod
    def owner_scope(decl: A.Decl) -> Scope | None:
        """Inside a card, `this_card` names the card that carries the declaration."""
        return Scope({"this_card": "card"}) if getattr(decl, "owner", None) else None

    def check_restriction(self, r: A.RestrictionDecl) -> None:
        for f in r.forbids:
            choice = self.p.decls["choice"].get(f.choice.text)
            if choice is None:
                self.unknown(f.choice, "E0206", "choice", self.p.decls["choice"])
                scope = Scope({v.text: ANY for v in f.vars}, self.owner_scope(r))
            else:
                if len(f.vars) != len(choice.params):
                    self.r.error("E0302", f"choice '{choice.key}' has {_count(len(choice.params), 'parameter')}, "
                                 f"but {_count(len(f.vars), 'name')} {'is' if len(f.vars) == 1 else 'are'} "
                                 "given", f.span)
                scope = Scope({v.text: self.param_kind(p) for v, p in zip(f.vars, choice.params)},
                              self.owner_scope(r))
            for cond in (f.when, f.unless):
                if cond is not None:
                    self.check_expr(cond, scope)

    def check_modifier(self, m: A.ModifierDecl) -> None:
        for c in m.contributions:
            value = self.p.decls["value"].get(c.value.text)
            if value is None:
                self.unknown(c.value, "E0207", "value", self.p.decls["value"])
                scope = Scope({v.text: ANY for v in c.vars}, self.owner_scope(m))
            else:
                if len(c.vars) != len(value.params):
                    self.r.error("E0302", f"value '{value.key}' has {_count(len(value.params), 'parameter')}, "
                                 f"but {_count(len(c.vars), 'name')} {'is' if len(c.vars) == 1 else 'are'} "
                                 "given", c.span)
                scope = Scope({v.text: self.param_kind(p) for v, p in zip(c.vars, value.params)},
                              self.owner_scope(m))
            self.check_expr(c.expr, scope)
            if c.when is not None:
                self.check_expr(c.when, scope)

    # ================================================================ modifier order
    def modifier_after(self) -> dict[str, set[str]]:
        """Each modifier's `after` names, resolved (unknown ones reported)."""
        mods = self.p.decls["modifier"]
        after: dict[str, set[str]] = {}
        for m in mods.values():
            names = set()
            for n in m.after:
                if n.text not in mods:
                    self.unknown(n, "E0222", "modifier", mods)
                else:
                    names.add(n.text)
            after[m.key] = names
        return after

    def check_modifier_order(self) -> None:
        """Two modifiers that can both replace (`:=`) one value with different
        results must be ordered (`after`); else only source order decides."""
        mods = self.p.decls["modifier"]
        after = self.modifier_after()
        later = _closure(after)  # m -> every modifier m is applied after
        for m in mods.values():
            if m.key in later[m.key]:
                self.r.error("E0802", f"modifier '{m.key}' is ordered after itself, through "
                             f"{', '.join(sorted(later[m.key] - {m.key}))}", m.name.span,
                             "remove one of the `after` names so that the order runs one way")
        cards = self.p.decls["card"]

        def playable(m):
            card = cards.get(m.owner) if m.owner else None
            return card.playable if card is not None else None

        by_value: dict[str, list] = defaultdict(list)
        for m in mods.values():
            for c in m.contributions:
                if c.op == ":=":
                    by_value[c.value.text].append((m, c))
        for value, entries in by_value.items():
            for i, (m1, c1) in enumerate(entries):
                for m2, c2 in entries[i + 1:]:
                    if m1 is m2 or m1.key in later[m2.key] or m2.key in later[m1.key]:
                        continue
                    if _replacements_agree(m1, c1, m2, c2) or _exclusive(m1, c1, m2, c2, playable):
                        continue
                    first, second = sorted([(m1, c1), (m2, c2)], key=lambda mc: (mc[1].span.file, mc[1].span.line))
                    self.r.warning(
                        "W0801",
                        f"modifiers '{first[0].key}' and '{second[0].key}' both replace '{value}' "
                        "and nothing says which one stands when both apply",
                        second[1].span,
                        f"write `modifier {second[0].key} after {first[0].key}` if '{second[0].key}' should "
                        f"prevail (or the other way round); today the order of the source files decides",
                        [(f"'{first[0].key}' replaces it here", first[1].span)])

    def event_params(self, name: A.Name) -> list[tuple[str, str]] | None:
        if name.text in EVENTS:
            return list(EVENTS[name.text].params)
        signal = self.p.decls["signal"].get(name.text)
        if signal is not None:
            return [(p.name.text, self.param_kind(p)) for p in signal.params]
        return None

    def check_trigger(self, t: A.TriggerDecl) -> None:
        params = self.event_params(t.event)
        if params is None:
            self.unknown(t.event, "E0215", "event or signal", list(EVENTS) + list(self.p.decls["signal"]))
            scope = Scope({v.text: ANY for v in t.vars}, self.owner_scope(t))
        else:
            if len(t.vars) > len(params):
                self.r.error("E0302", f"'{t.event.text}' gives {len(params)} values, but {len(t.vars)} "
                             "names are given", t.event.span)
            scope = Scope({v.text: kind for v, (_, kind) in zip(t.vars, params)}, self.owner_scope(t))
        if t.when is not None:
            self.check_expr(t.when, scope)
        self.check_block(t.body, scope.child())

    def check_card(self, c: A.CardDecl) -> None:
        self.check_repeated(c)
        self.expect_name(c.side, ("side",))
        if self.hostile_side(c.side):
            self.r.error("E0561", f"card '{c.key}' belongs to the hostile side '{c.side.text}'", c.side.span,
                         "a hostile side has no player to use ports, cards or supply sources: name a "
                         "playing side")
        if c.deck is not None:
            self.expect_name(c.deck, ("deck",))
        for nation, _ in c.rp:
            self.expect_name(nation, ("nation", "rp_pool"))
        for unit in c.reinforcements:
            self.expect_name(unit, ("unit",))
        scope = Scope({"this_card": "card"})
        if c.playable is not None:
            self.check_expr(c.playable, scope)
        if c.event is not None:
            self.check_block(c.event, scope.child())

    def _start_literal(self, decl: A.StateDecl):
        """A state's start value when it is a plain literal (or the default
        the interpreter gives), else _NO_LITERAL."""
        e = decl.start
        if e is None:
            if decl.state_kind in ("track", "counter"):
                return decl.low if decl.low is not None else 0
            if decl.state_kind == "flag" or (decl.state_kind == "marker" and decl.low is None):
                return False
            return decl.low if decl.state_kind == "marker" else None
        if isinstance(e, (A.IntLit, A.BoolLit)):
            return e.value
        if isinstance(e, A.NoneLit):
            return None
        return _NO_LITERAL

    def check_setup_changes(self, s: A.ScenarioDecl) -> None:
        """A set-up line that sets a state to the value it starts with, and
        that nothing set before it (an earlier line, a parent scenario's
        set-up), changes nothing: W0517."""
        written: set[str] = set()
        parent = self.p.decls["scenario"].get(s.extends.text) if s.extends is not None else None
        seen = {s.key}
        while parent is not None and parent.key not in seen:
            seen.add(parent.key)
            for block in parent.setup:
                written |= {_state_written(stmt) for stmt in block.body}
            parent = self.p.decls["scenario"].get(parent.extends.text) if parent.extends is not None else None
        for block in s.setup:
            for stmt in block.body:
                name = _state_written(stmt)
                value = stmt.arg("to") if isinstance(stmt, A.Effect) and stmt.verb == "set" else None
                decl = self.p.decls["state"].get(name) if name else None
                if decl is not None and name not in written and isinstance(value, (A.IntLit, A.BoolLit, A.NoneLit)):
                    start = self._start_literal(decl)
                    literal = None if isinstance(value, A.NoneLit) else value.value
                    if start is not _NO_LITERAL and start == literal and type(start) is type(literal):
                        shown = "none" if literal is None else str(literal).lower()
                        self.r.warning("W0517", f"this set-up line changes nothing: '{name}' starts at {shown}",
                                       stmt.span, "remove it, or set the value the scenario needs")
                written.add(name)

    def check_scenario_body(self, s: A.ScenarioDecl) -> None:
        if s.turns is not None and s.turns[0] > s.turns[1]:
            self.r.error("E0304", f"turns {s.turns[0]}..{s.turns[1]} is an empty range", s.turns_span or s.name.span,
                         "the first turn comes first: turns FIRST..LAST")
        from ..runtime.limits import LIMITS, MAXIMA

        for name, (n, name_span, n_span) in s.limits.items():
            if name not in LIMITS:
                self.r.error("E0224", f"unknown limit '{name}'", name_span,
                             "the limits are " + ", ".join(LIMITS))
            elif n < 1:
                self.r.error("E0304", f"limit {name} {n}: a limit is at least 1", n_span)
            elif n > MAXIMA[name]:
                option = {"steps": "--max-steps", "decisions": "--max-decisions"}.get(name)
                self.r.error("E0304", f"limit {name} {n}: a source may set it to at most {MAXIMA[name]:,}, what "
                             "one process can afford", n_span,
                             f"on your own machine, `{option} N` of play and simulate goes further" if option
                             else None)
        seen_options: dict[str, A.ScenarioOption] = {}
        for option in s.options:
            first = seen_options.get(option.name.text)
            if first is not None:
                self.r.error("E0401", f"option '{option.name.text}' is declared twice", option.name.span,
                             notes=[("first declared here", first.name.span)])
            seen_options.setdefault(option.name.text, option)
            self.check_option(option)
        if s.sequence is not None and s.sequence.text not in self.p.decls["sequence"]:
            self.unknown(s.sequence, "E0219", "sequence", self.p.decls["sequence"])
        if not self._is_variant(s):  # a variant's set-up is checked against what it plays
            self.check_setup(s)
        else:
            for block in s.setup:
                self.called.update(_calls_in(block))

    def check_option(self, o: A.ScenarioOption) -> None:
        """The default is one of the values the option takes; every scenario
        declaring an option of that name gives it the same kind."""
        where = o.default_span or o.name.span
        if o.kind == "bool":
            if not isinstance(o.default, bool):
                self.r.error("E0304", f"option '{o.name.text}' has default {A.option_text(o.default)} but no values",
                             where, "an on/off option has default on or off; an option with values says them: "
                                    "`range LO..HI` or `one of A, B`")
        elif o.kind == "int":
            if o.low > o.high:
                self.r.error("E0304", f"range {o.low}..{o.high} is empty", o.name.span,
                             "the lowest value comes first: range LO..HI")
            elif isinstance(o.default, bool) or not isinstance(o.default, int) or not o.low <= o.default <= o.high:
                self.r.error("E0304", f"option '{o.name.text}' has default {A.option_text(o.default)}, "
                                      f"outside its range {o.low}..{o.high}", where)
        else:
            names = [n.text for n in o.names]
            for i, n in enumerate(o.names):
                if n.text in names[:i] or n.text in ("none", "on", "off"):
                    self.r.error("E0405", f"option '{o.name.text}' lists '{n.text}' "
                                          + ("twice" if n.text in names[:i] else "(a word it cannot take)"), n.span)
            if o.default is not None and (not isinstance(o.default, str) or o.default not in names):
                self.r.error("E0304", f"option '{o.name.text}' has default {A.option_text(o.default)}, "
                                      f"which is not one of {', '.join(names)}", where,
                             did_you_mean(str(o.default), names) or "the default is one of the names, or none")
        for other in self.declared_options().get(o.name.text, []):
            if other.kind != o.kind:
                self.r.error("E0301", f"option '{o.name.text}' is {_OPTION_KINDS[o.kind]} here but "
                                      f"{_OPTION_KINDS[other.kind]} in another scenario", o.name.span,
                             notes=[("declared there", other.name.span)],
                             hint="`option(\"NAME\")` must give one kind of value in every scenario: rename one")
                break

    def declared_options(self) -> dict[str, list[A.ScenarioOption]]:
        """Every option any scenario of the program declares, by name."""
        if self._options is None:
            self._options = defaultdict(list)
            for sc in self.p.all("scenario") + self.p.all("ruleset"):
                for o in sc.options:
                    self._options[o.name.text].append(o)
        return self._options

    def option_call(self, e: A.Call, scope: Scope) -> str:
        """`option("NAME")`: the name is written as text and names an option
        that the scenarios this source belongs to declare; it gives that
        option's kind of value."""
        if len(e.args) != 1:
            self.r.error("E0302", f"'option' takes 1 argument, but {len(e.args)} are given", e.span,
                         'for example: option("eight_card_hands")')
            for a in e.args:
                self.check_expr(a, scope)
            return ANY
        arg = e.args[0]
        if not isinstance(arg, A.TextLit):
            self.expect_expr(arg, ("text",), scope)
            self.r.error("E0504", "`option` takes the option's name written as text", arg.span,
                         'for example: option("eight_card_hands"), so that the name can be checked')
            return ANY
        if self.own_options and self.p.scenario is not None:
            known = {o.name.text: [o] for o in self.p.scenario.options}
            where = f"scenario '{self.p.scenario.key}' declares no such option"
        else:
            known = self.declared_options()
            where = "no scenario declares it"
        found = known.get(arg.value)
        if not found:
            names = sorted(known)
            self.r.error("E0504", f"unknown option '{arg.value}': {where}", arg.span,
                         did_you_mean(arg.value, names)
                         or (f"the options: {', '.join(names)}" if names else "no scenario declares an option")
                         + "; a scenario declares one with `option NAME \"text\" default ...`")
            return ANY
        kinds = {o.kind for o in found}
        return _OPTION_VALUE_KINDS[kinds.pop()] if len(kinds) == 1 else ANY

    def check_setup(self, s: A.ScenarioDecl) -> None:
        for block in s.setup:
            self.check_block(block, Scope())

    def _is_variant(self, s: A.ScenarioDecl) -> bool:
        if isinstance(s, A.RulesetDecl):  # checked in each scenario that uses it
            return True
        from .variants import MAX_EXTENDS

        seen = set()
        while s is not None and s.key not in seen:
            if s.overrides or s.uses or len(seen) > MAX_EXTENDS:  # (a chain too long: E0503, no more walking)
                return True
            seen.add(s.key)
            s = self.p.decls["scenario"].get(s.extends.text) if s.extends else None
        return False

    # ================================================================ statements
    def check_block(self, block: A.Block | None, scope: Scope) -> None:
        if block is None:
            return
        for stmt in block.body:
            self.check_stmt(stmt, scope)

    def check_stmt(self, s: A.Stmt, scope: Scope) -> None:
        method = getattr(self, "stmt_" + type(s).__name__)
        method(s, scope)

    def stmt_Let(self, s: A.Let, scope: Scope) -> None:
        scope.names[s.var.text] = self.check_expr(s.value, scope)

    def stmt_If(self, s: A.If, scope: Scope) -> None:
        for cond, block in s.branches:
            self.check_expr(cond, scope)
            self.check_block(block, scope.child())
        if s.otherwise is not None:
            self.check_block(s.otherwise, scope.child())

    def stmt_For(self, s: A.For, scope: Scope) -> None:
        inner = scope.child()
        inner.names[s.var.text] = element_kind(self.check_expr(s.source, scope))
        if s.where is not None:
            self.check_expr(s.where, inner)
        self.check_block(s.body, inner)

    def stmt_Repeat(self, s: A.Repeat, scope: Scope) -> None:
        self.expect_expr(s.count, ("int",), scope)
        inner = scope.child()
        if s.var is not None:
            inner.names[s.var.text] = "int"
        self.check_block(s.body, inner)

    def stmt_While(self, s: A.While, scope: Scope) -> None:
        self.check_expr(s.cond, scope)
        self.check_block(s.body, scope.child())

    def stmt_Choose(self, s: A.Choose, scope: Scope) -> None:
        choice = self.p.decls["choice"].get(s.choice.text)
        if choice is None:
            self.unknown(s.choice, "E0206", "choice", self.p.decls["choice"])
        elif len(s.vars) != len(choice.params):
            self.r.error("E0302", f"choice '{choice.key}' has {_count(len(choice.params), 'parameter')}, "
                         f"but {_count(len(s.vars), 'name')} {'is' if len(s.vars) == 1 else 'are'} given",
                         s.choice.span)
        self.expect_expr(s.by, ("side",), scope)
        if isinstance(s.by, A.Ref) and self.hostile_side(s.by.name) and scope.lookup(s.by.name.text) is None:
            self.r.error("E0560", f"`choose {s.choice.text} by {s.by.name.text}`: '{s.by.name.text}' is a hostile "
                         "side, which no player plays", s.by.span,
                         "write the decision for a playing side, or let the rules decide for the hostile side: "
                         "a choice's `default` score picks its option when `by` turns out to be a hostile side")
        names = {v.text for v in s.vars}
        inner = scope.child()
        for b in s.bindings:
            if b.var.text not in names:
                self.r.error("E0201", f"'{b.var.text}' is not one of the names this choice binds", b.var.span,
                             f"the choice binds: {', '.join(v.text for v in s.vars)}")
            inner.names[b.var.text] = element_kind(self.check_expr(b.source, inner))
        bound = {b.var.text for b in s.bindings}
        for v in s.vars:
            if v.text not in bound:
                self.r.error("E0201", f"'{v.text}' is chosen but never given candidates", v.span,
                             f"add `{v.text} in ...` after `for`")
        if s.where is not None:
            self.check_expr(s.where, inner)
        if choice is not None:
            for v, prm in zip(s.vars, choice.params):
                kind = inner.names.get(v.text, ANY)
                want = self.param_kind(prm)
                if not self.compatible(kind, (want,)):
                    self.wrong_kind(v.text, kind, (want,), v.span)
        for v in s.vars:
            scope.names[v.text] = inner.names.get(v.text, ANY)

    def stmt_Roll(self, s: A.Roll, scope: Scope) -> None:
        scope.names[s.var.text] = "int"

    def stmt_CallStmt(self, s: A.CallStmt, scope: Scope) -> None:
        proc = self.p.decls["procedure"].get(s.proc.text)
        if proc is None and s.proc.text == "original":
            self.misplaced_original(s.proc)
            for a in s.args:
                self.check_expr(a, scope)
            return
        if proc is None:
            self.unknown(s.proc, "E0205", "procedure", self.p.decls["procedure"])
            for a in s.args:
                self.check_expr(a, scope)
            return
        self.called.add(proc.key)
        if len(s.args) != len(proc.params):
            self.r.error("E0302", f"procedure '{proc.key}' takes {_count(len(proc.params), 'argument')}, "
                         f"but {len(s.args)} {'is' if len(s.args) == 1 else 'are'} given", s.span)
        for arg, prm in zip(s.args, proc.params):
            self.expect_expr(arg, (self.param_kind(prm),), scope)

    def stmt_Segment(self, s: A.Segment, scope: Scope) -> None:
        self.check_block(s.body, scope.child())

    def stmt_Return(self, s: A.Return, scope: Scope) -> None:
        return

    def stmt_Effect(self, s: A.Effect, scope: Scope) -> None:
        verb = VERBS[s.verb]
        if s.verb in ("set", "shift"):
            self.check_target(s, scope)
        elif s.verb == "emit":
            self.check_emit(s, scope)
        elif verb.obj is not None:
            if s.obj is None:
                if verb.obj.required:
                    self.r.error("E0303", f"'{s.verb}' needs {describe(verb.obj.kinds[0])} after it", s.span,
                                 f"for example: {verb.example.splitlines()[0]}")
            else:
                self.expect_expr(s.obj, verb.obj.kinds, scope)
        seen = set()
        for prep, expr in s.args:
            slot = verb.preps.get(prep)
            if slot is None:
                allowed = ", ".join(f"'{p}'" for p in verb.preps) or "no other words"
                self.r.error("E0303", f"'{s.verb}' does not take '{prep}'", expr.span,
                             f"'{s.verb}' takes {allowed}; for example: {verb.example.splitlines()[0]}")
                self.check_expr(expr, scope)
                continue
            if prep in seen:
                self.r.error("E0303", f"'{prep}' is given twice", expr.span)
            seen.add(prep)
            if s.verb == "set":
                continue  # checked against the target's kind in check_target
            if "result" in slot.kinds:
                self.check_result_name(expr)
                continue
            self.expect_expr(expr, slot.kinds, scope)
        for prep, slot in verb.preps.items():
            if slot.required and prep not in seen:
                self.r.error("E0303", f"'{s.verb}' needs '{prep} …'", s.span,
                             f"for example: {verb.example.splitlines()[0]}")

    def check_result_name(self, e: A.Expr) -> None:
        """`end_game ... as NAME`: NAME is a result the scenario declares
        (`result NAME`); checking the library, one that any scenario declares."""
        scenarios = [self.p.scenario] if self.p.scenario is not None else self.p.all("scenario")
        declared = {r.name.text for sc in scenarios for r in getattr(sc, "results", [])}
        hint = ("a scenario declares the results its rules end a game with: `result NAME \"title\" cites N`"
                + (f"; declared: {', '.join(sorted(declared))}" if declared else ""))
        if not isinstance(e, A.Ref):
            self.r.error("E0524", "`as` takes the name of a game result", e.span, hint)
            return
        name = e.name.text
        if name not in declared:  # (one message for the library and every scenario: it is said once)
            where = (f"scenario '{self.p.scenario.key}' does not declare it" if self.p.scenario is not None
                     else "no scenario declares it")
            self.r.error("E0524", f"game result '{name}' is not declared", e.span,
                         did_you_mean(name, declared) or f"{where}; " + hint)

    def check_target(self, s: A.Effect, scope: Scope) -> None:
        """`set X to v` / `shift X by n`: X must be state, a scoped entry of it, or a local."""
        target = s.obj
        kind = ANY
        if isinstance(target, A.Ref):
            local = scope.lookup(target.name.text)
            if local is not None:
                kind = local
            else:
                g = self.globals.get(target.name.text)
                if g is None:
                    self.report_unknown(target.name, (ANY,), scope)
                    return
                if not isinstance(g.decl, A.StateDecl):
                    self.r.error("E0305", f"'{target.name.text}' is {describe(g.kind)}, not state, "
                                 f"so '{s.verb}' cannot change it", target.span,
                                 "declare it with track, counter, flag, marker or var")
                    return
                if g.kind.startswith("scoped:"):
                    self.r.error("E0305", f"'{target.name.text}' is kept per {g.decl.scope.text}: "
                                 f"say which one, e.g. {target.name.text}[...]", target.span)
                    return
                kind = g.kind
                self.state_writes.add(g.decl.key)
        elif isinstance(target, A.Index) and isinstance(target.obj, A.Ref) and \
                isinstance(getattr(self.globals.get(target.obj.name.text), "decl", None), A.StateDecl):
            decl = self.globals[target.obj.name.text].decl
            kind = self.check_expr(target, scope)
            self.state_writes.add(decl.key)
        elif isinstance(target, A.Attr):
            kind = self.check_expr(target.obj, scope)
            decl = self.scoped_state_attr(kind, target.attr.text)
            if decl is None and (kind, target.attr.text) in WRITABLE_ATTRIBUTES:
                want = ATTRIBUTES[kind][target.attr.text]
                value = s.arg("to")
                if s.verb == "set" and value is not None:
                    self.expect_expr(value, (want,), scope)
                return
            if decl is None:
                self.r.error("E0305", f"'{target.attr.text}' is not state that '{s.verb}' can change",
                             target.span, "declare it as `marker NAME per KIND` to keep it per entry")
                return
            self.state_writes.add(decl.key)
            kind = state_value_kind(decl)
        else:
            if isinstance(target, A.Index) and isinstance(target.obj, A.Ref) \
                    and target.obj.name.text not in self.globals and scope.lookup(target.obj.name.text) is None:
                self.report_unknown(target.obj.name, (ANY,), scope)
                return
            self.r.error("E0305", f"'{s.verb}' can only change state or a local name", target.span if target
                         else s.span, "declare it with track, counter, flag, marker or var")
            return
        if s.verb == "shift":
            if not self.compatible(kind, ("int",)):
                self.wrong_kind("", kind, ("int",), target.span)
        else:
            value = s.arg("to")
            if value is not None:
                self.expect_expr(value, (kind,), scope)
                decl = self._target_state(target)
                literal = value.value if isinstance(value, A.IntLit) else (
                    -value.operand.value if isinstance(value, A.Neg) and isinstance(value.operand, A.IntLit) else None)
                if decl is not None and literal is not None and decl.low is not None \
                        and not decl.low <= literal <= decl.high:
                    self.r.error("E0304", f"{literal} is outside the range {decl.low}..{decl.high} of "
                                 f"'{decl.key}'", value.span)

    def _target_state(self, target) -> A.StateDecl | None:
        name = None
        if isinstance(target, A.Ref):
            name = target.name.text
        elif isinstance(target, A.Index) and isinstance(target.obj, A.Ref):
            name = target.obj.name.text
        elif isinstance(target, A.Attr):
            name = target.attr.text
        decl = self.p.decls["state"].get(name) if name else None
        return decl

    def check_emit(self, s: A.Effect, scope: Scope) -> None:
        call = s.obj
        if not isinstance(call, A.Call):
            self.r.error("E0303", "'emit' needs a signal with its values, e.g. emit capital_fell(Paris)",
                         s.span)
            return
        signal = self.p.decls["signal"].get(call.func.text)
        if signal is None:
            self.unknown(call.func, "E0215", "signal", self.p.decls["signal"])
            return
        if len(call.args) != len(signal.params):
            self.r.error("E0302", f"signal '{signal.key}' carries {len(signal.params)} values, "
                         f"but {len(call.args)} are given", call.span)
        for arg, prm in zip(call.args, signal.params):
            self.expect_expr(arg, (self.param_kind(prm),), scope)

    def check_card_name(self, name: A.Name) -> None:
        cards = self.shared_card_names.get(name.text)
        if cards:
            listed = " and ".join(f"{c.side.text.upper() if c.side else '?'} {c.number}" for c in cards)
            self.r.error("E0223", f"'{name.text}' is the name of {len(cards)} cards ({listed}): it cannot say "
                                  "which one", name.span,
                         "inside the card's own file write `this_card`; elsewhere test the card through "
                         "something only it sets (a state it writes when played)",
                         [(f"{c.side.text.upper() if c.side else '?'} {c.number} is defined here", c.name.span)
                          for c in cards])

    # ================================================================ expressions
    def expect_expr(self, e: A.Expr, kinds: tuple[str, ...], scope: Scope) -> str:
        if isinstance(e, A.Ref) and scope.lookup(e.name.text) is None:
            text = e.name.text
            if "card" in kinds and self.p.card_by_name(text) is not None:
                self.check_card_name(e.name)
                return "card"
            g = self.globals.get(text)
            if g is None:
                self.report_unknown(e.name, kinds, scope)
                return ANY
        kind = self.check_expr(e, scope)
        if not self.compatible(kind, kinds):
            text = e.name.text if isinstance(e, A.Ref) else ""
            self.wrong_kind(text, kind, kinds, e.span)
        return kind

    def check_expr(self, e: A.Expr | None, scope: Scope) -> str:
        if e is None:
            return ANY
        return getattr(self, "expr_" + type(e).__name__)(e, scope)

    def expr_IntLit(self, e, scope):
        return "int"

    def expr_TextLit(self, e, scope):
        if e.raw is not None:  # `"{expr} ..."`: each expression is checked where it stands
            parts, errors = template_parts(e)
            for message, span in errors:
                self.r.error("E0101", message, span, "`{expr}` shows a value; `{{` and `}}` write a brace")
            for p in parts:
                if not isinstance(p, str):
                    self.check_expr(p, scope)
        return "text"

    def expr_BoolLit(self, e, scope):
        return "bool"

    def expr_NoneLit(self, e, scope):
        return "none"

    def expr_Ref(self, e: A.Ref, scope: Scope) -> str:
        text = e.name.text
        local = scope.lookup(text)
        if local is not None:
            return local
        g = self.globals.get(text)
        if g is None:
            self.report_unknown(e.name, (ANY,), scope)
            return ANY
        if isinstance(g.decl, A.StateDecl) and g.decl.state_kind in _FLAG_KINDS:
            self.flag_reads.setdefault(g.decl.key, e.span)
        if g.kind == "function":
            self.r.error("E0302", f"value '{text}' takes parameters: write {text}(...)", e.span)
            return ANY
        if g.kind == "card":
            self.check_card_name(e.name)
        if isinstance(g.decl, A.ValueDecl):
            return self.value_kind(g.decl)
        return g.kind

    def expr_ListLit(self, e: A.ListLit, scope):
        kinds = {self.check_expr(i, scope) for i in e.items}
        return list_of(kinds.pop()) if len(kinds) == 1 else list_of(ANY)

    def expr_RangeLit(self, e, scope):
        if e.low > e.high:
            self.r.error("E0304", f"range {e.low}..{e.high} is empty", e.span)
        return list_of("int")

    def _comprehension(self, var: A.Name, source: A.Expr, where, scope: Scope) -> Scope:
        inner = scope.child()
        inner.names[var.text] = element_kind(self.check_expr(source, scope))
        if where is not None:
            self.check_expr(where, inner)
        return inner

    def expr_ListComp(self, e: A.ListComp, scope):
        inner = self._comprehension(e.var, e.source, e.where, scope)
        return list_of(self.check_expr(e.item, inner))

    def expr_Aggregate(self, e: A.Aggregate, scope):
        inner = self._comprehension(e.var, e.source, e.where, scope)
        item = self.check_expr(e.item, inner)
        if e.func in ("min", "max"):
            self.ordered_items(item, e.item.span)
        return {"any": "bool", "all": "bool", "count": "int", "sum": "int"}.get(e.func, item)

    def expr_AggregateCall(self, e: A.AggregateCall, scope):
        kinds = [self.check_expr(a, scope) for a in e.args]
        if e.func in ("any", "all"):
            return "bool"
        if e.func in ("count", "sum"):
            return "int"
        if len(kinds) == 1:
            self.ordered_items(element_kind(kinds[0]) if kinds[0].startswith("list:") else kinds[0], e.args[0].span)
            return element_kind(kinds[0])
        for kind, arg in zip(kinds, e.args):
            self.ordered_items(kind, arg.span)
        return kinds[0] if kinds and all(k == kinds[0] for k in kinds) else ANY

    def ordered_items(self, kind: str, span: A.Span) -> None:
        """`min` and `max` pick among numbers, as `<` compares only numbers:
        spaces, units and the other things of the game have no order."""
        if not self.compatible(kind, ("int",)):
            self.wrong_kind("", kind, ("int",), span)

    def scoped_state_attr(self, obj_kind: str, attr: str) -> A.StateDecl | None:
        decl = self.p.decls["state"].get(attr)
        if decl is not None and decl.scope is not None and decl.scope.text == obj_kind:
            return decl
        return None

    def expr_Attr(self, e: A.Attr, scope):
        kind = self.check_expr(e.obj, scope)
        attrs = ATTRIBUTES.get(kind)
        state = self.scoped_state_attr(kind, e.attr.text)
        if state is not None:
            if state.state_kind in _FLAG_KINDS:
                self.flag_reads.setdefault(state.key, e.span)
            return state_value_kind(state)
        if attrs is None:
            return ANY
        if e.attr.text not in attrs:
            hint = did_you_mean(e.attr.text, attrs)
            self.r.error("E0220", f"{describe(kind)} has no attribute '{e.attr.text}'", e.attr.span,
                         hint or f"attributes: {', '.join(sorted(attrs))}")
            return ANY
        return attrs[e.attr.text]

    def expr_Index(self, e: A.Index, scope):
        if isinstance(e.obj, A.Ref) and scope.lookup(e.obj.name.text) is None:
            g = self.globals.get(e.obj.name.text)
            if g is not None and isinstance(g.decl, A.StateDecl):
                decl = g.decl
                if decl.scope is None:
                    self.r.error("E0302", f"'{decl.key}' is one value, not kept per entry: write it without [...]",
                                 e.span)
                    return state_value_kind(decl)
                if len(e.args) != 1:
                    self.r.error("E0302", f"'{decl.key}' is kept per {decl.scope.text}: give one {decl.scope.text}",
                                 e.span)
                for a in e.args[:1]:
                    self.expect_expr(a, (decl.scope.text,), scope)
                if decl.state_kind in _FLAG_KINDS:
                    self.flag_reads.setdefault(decl.key, e.span)
                return state_value_kind(decl)
            if g is not None and isinstance(g.decl, A.BoxDecl):
                if g.decl.per is None:
                    self.r.error("E0302", f"box '{g.decl.key}' is a single box: write it without [...]", e.span)
                elif len(e.args) != 1:
                    self.r.error("E0302", f"box '{g.decl.key}' is kept per {g.decl.per.text}: give one", e.span)
                for a in e.args[:1]:
                    self.expect_expr(a, (g.decl.per.text,), scope)
                return "box"
            if g is not None and isinstance(g.decl, A.TableDecl):
                for a in e.args:
                    self.check_expr(a, scope)
                if len(e.args) not in (1, 2):
                    self.r.error("E0302", f"table '{g.decl.key}' is read as {g.decl.key}[row] or "
                                 f"{g.decl.key}[row, column]", e.span)
                return ANY
        kind = self.check_expr(e.obj, scope)
        for a in e.args:
            self.check_expr(a, scope)
        return element_kind(kind) if kind.startswith("list:") else ANY

    def misplaced_original(self, name: A.Name) -> None:
        self.r.error("E0523", "`original` means something only in a replacement of a procedure, phase or value",
                     name.span, "use it inside `replace procedure|phase NAME { ... call original(...) }` or "
                     "`replace value NAME = ... original ...` in a scenario")

    def expr_Call(self, e: A.Call, scope):
        name = e.func.text
        if name == "original" and name not in self.p.decls["value"] and scope.lookup(name) is None:
            self.misplaced_original(e.func)
            for a in e.args:
                self.check_expr(a, scope)
            return ANY
        if name == "option" and name not in self.p.decls["value"]:
            return self.option_call(e, scope)
        fn = FUNCTIONS.get(name)
        if fn is not None:
            lowest = fn.optional_from if fn.optional_from is not None else len(fn.params)
            if not lowest <= len(e.args) <= len(fn.params):
                want = f"{lowest} to {len(fn.params)}" if lowest != len(fn.params) else str(len(fn.params))
                self.r.error("E0302", f"'{name}' takes {want} arguments, but {len(e.args)} are given", e.span,
                             f"for example: {fn.example}")
            for arg, (_, kinds) in zip(e.args, fn.params):
                self.expect_expr(arg, kinds, scope)
            return fn.returns
        value = self.p.decls["value"].get(name)
        if value is not None:
            if len(e.args) != len(value.params):
                self.r.error("E0302", f"value '{name}' takes {len(value.params)} arguments, "
                             f"but {len(e.args)} are given", e.span)
            for arg, prm in zip(e.args, value.params):
                self.expect_expr(arg, (self.param_kind(prm),), scope)
            return self.value_kind(value)
        for a in e.args:
            self.check_expr(a, scope)
        if name in self.p.decls["procedure"]:
            self.r.error("E0217", f"'{name}' is a procedure: run it with `call {name}(...)`", e.func.span)
            return ANY
        self.unknown(e.func, "E0217", "function", list(FUNCTIONS) + list(self.p.decls["value"]))
        return ANY

    def value_kind(self, decl) -> str:
        """What a value gives, from its expression, checked on first need (a
        value may be called before its declaration is reached; the reporter
        keeps each diagnostic once).  A value reached again while its own
        expression is being checked (recursion) gives ANY."""
        known = self.value_kinds.get(decl.key)
        if known is not None:
            return known
        self.value_kinds[decl.key] = ANY
        kind = self.value_kinds[decl.key] = self.check_expr(decl.expr, self.param_scope(decl.params))
        return kind

    def expr_Reach(self, e: A.Reach, scope):
        self.expect_expr(e.source, ("space", list_of("space")), scope)
        inner = scope.child()
        inner.names[e.var.text] = "space"
        if e.where is not None:
            self.check_expr(e.where, inner)
        return list_of("space")

    def expr_CondExpr(self, e: A.CondExpr, scope):
        self.check_expr(e.cond, scope)
        a = self.check_expr(e.then, scope)
        b = self.check_expr(e.otherwise, scope)
        return a if a == b or b == "none" else (b if a == "none" else ANY)

    def expr_Not(self, e, scope):
        self.check_expr(e.operand, scope)
        return "bool"

    def expr_Neg(self, e, scope):
        self.expect_expr(e.operand, ("int",), scope)
        return "int"

    def expr_BinOp(self, e, scope):
        if e.op == "+":
            left = self.check_expr(e.left, scope)
            if left.startswith("list:"):  # list + list joins them
                self.expect_expr(e.right, (left, list_of(ANY)), scope)
                return left
            if not self.compatible(left, ("int",)):
                self.wrong_kind("", left, ("int", list_of(ANY)), e.left.span)
            self.expect_expr(e.right, ("int",), scope)
            return "int"
        self.expect_expr(e.left, ("int",), scope)
        self.expect_expr(e.right, ("int",), scope)
        return "int"

    def expr_Compare(self, e, scope):
        left = self.check_expr(e.left, scope)
        right = self.check_expr(e.right, scope)
        if e.op in ("<", "<=", ">", ">="):
            for kind, side in ((left, e.left), (right, e.right)):
                if not self.compatible(kind, ("int",)):
                    self.wrong_kind("", kind, ("int",), side.span)
        return "bool"

    def expr_Member(self, e, scope):
        self.check_expr(e.item, scope)
        self.check_expr(e.container, scope)
        return "bool"

    def expr_BoolOp(self, e, scope):
        for operand in e.operands:
            self.check_expr(operand, scope)
        return "bool"

    # ================================================================ citations and flow
    def collect_citations(self) -> None:
        self.cited = collect_citations(self.p)

    def check_citations(self) -> None:
        """Each citation against its rulebook's index: a bare number against the
        main rulebook's, `soe 12.4.6` against rulebook soe's."""
        p = self.p
        if not p.rule_index and not p.rulebooks:
            return
        for text, spans in self.cited.items():
            book, number = A.split_citation(text)
            if book is not None and book != p.main_rulebook and book not in p.rulebooks:
                known = sorted(p.rulebooks)
                hint = did_you_mean(book, known)
                for span in spans:
                    self.r.error("E0605", f"unknown rulebook '{book}' in the citation '{text}'", span,
                                 f"{hint} (known rulebooks: {', '.join(known)})" if hint
                                 else f"known rulebooks: {', '.join(known) or 'none'}")
                continue
            index = p.rulebook_index(book)
            where = "the rule index" if book is None or book == p.main_rulebook else f"rulebook {book}"
            entry = index.get(number)
            if entry is None:
                hint = did_you_mean(number, index)
                for span in spans:
                    self.r.error("E0601", f"rule {number} is not in {where}", span, hint)
            elif entry.not_applicable is not None:
                self.r.error("E0602", f"rule {text} is cited here but {where} says it does not apply "
                             f"({entry.not_applicable})", spans[0], notes=[("marked not applicable here", entry.span)],
                             hint="remove the not_applicable mark or cite another rule")
        for index in [p.rule_index, *p.rulebooks.values()]:
            for entry in index.values():
                if entry.approximated is not None and entry.not_applicable is not None:
                    self.r.error("E0608", f"rule {entry.number} is marked both not applicable and approximated",
                                 entry.span, "a rule the game leaves out is not applicable; one it implements "
                                 "less some detail is approximated: keep the one that holds")
        for book, index in p.rulebooks.items():
            for entry in index.values():
                if entry.same_as is None:
                    continue
                if entry.same_as.number not in p.rule_index:
                    self.r.error("E0606", f"rule {entry.number} of rulebook {book} is said to be the same as rule "
                                 f"{entry.same_as.number}, which is not in the main rule index"
                                 + (f" ({p.main_rulebook})" if p.main_rulebook else ""), entry.same_as.span,
                                 did_you_mean(entry.same_as.number, p.rule_index))

    # The blocks that state a rule: how play goes, the cards (whose events are
    # rules) and the scenarios and rule sets.  The board's and the pieces'
    # data (sides, nations, spaces, units) may cite, but need not.
    RULE_LIKE = ("procedure", "phase", "sequence", "restriction", "modifier", "trigger", "table", "value", "display",
                 "choice", "card", "scenario", "ruleset")

    def check_uncited(self) -> None:
        """Rule-like blocks should say which rule they implement (only where the
        project has a rule index to cite from); a card's event and its
        `playable when` are rules of their own and cite theirs."""
        if not self.p.rule_index:
            return
        hint = "add `cites N` with the rulebook number it implements"
        for kind in self.RULE_LIKE:
            for decl in self.p.all(kind):
                if not decl.cites:
                    self.r.warning("W0604", f"{kind} '{decl.key}' cites no rule", decl.name.span, hint)
        for card in self.p.all("card"):
            if card.event is not None and not card.event_cites:
                self.r.warning("W0604", f"the event of card '{card.key}' cites no rule", card.event.span,
                               "write `event cites N { ... }` with the rule the event applies")
            if card.playable is not None and not card.playable_cites:
                self.r.warning("W0604", f"the `playable when` of card '{card.key}' cites no rule",
                               card.playable.span, "add `cites N` after its condition")

    def value_needs(self) -> dict[str, list[str]]:
        """For each value, the values its expression (or a modifier of it)
        reads: worked out once."""
        if self._value_needs is None:
            values = self.p.decls["value"]
            needs = {key: _values_read(decl.expr, values, decl.params) for key, decl in values.items()}
            for m in self.p.all("modifier"):
                for c in m.contributions:
                    if c.value.text in needs:
                        needs[c.value.text] += _values_read([c.expr, c.when], values, c.vars)
            self._value_needs = needs
        return self._value_needs

    def values_in_dependency_order(self) -> list[A.ValueDecl]:
        """Every value after the values it reads (loops broken anywhere)."""
        values = self.p.decls["value"]
        needs = self.value_needs()
        done: set[str] = set()
        ordered: list[A.ValueDecl] = []
        for root in values:
            if root in done:
                continue
            done.add(root)
            work = [(root, iter(needs[root]))]
            while work:
                node, edges = work[-1]
                for nxt in edges:
                    if nxt not in done:
                        done.add(nxt)
                        work.append((nxt, iter(needs[nxt])))
                        break
                else:
                    work.pop()
                    ordered.append(values[node])
        return ordered

    def check_value_cycles(self) -> set[str]:
        """A value whose working-out needs itself, directly, through other
        values or through a modifier of one of them, would never finish: the
        language has no recursion, so every such loop is an error, reported
        once, at the loop's first value in source order, with its path.
        Gives the values caught in a loop."""
        values = self.p.decls["value"]
        order = {key: i for i, key in enumerate(values)}
        looped: set[str] = set()
        for loop in _loops(self.value_needs()):
            looped.update(loop)
            first = min(loop, key=order.__getitem__)
            start = loop.index(first)
            path = loop[start:] + loop[:start] + [first]
            what = f"value '{first}' is defined in terms of itself" if len(loop) == 1 else \
                "values are defined in terms of each other"
            self.r.error("E0705", f"{what}: {' → '.join(path)}", values[first].name.span,
                         "write the value from other values; the language has no recursion")
        return looped

    def check_flow(self) -> None:
        for key, span in self.flag_reads.items():
            if key not in self.state_writes:
                self.r.warning("W0701", f"flag '{key}' is read but nothing ever sets it", span,
                               f"add `set {key} to true` where it becomes true, or remove the test")
        in_sequence = {n.text for s in self.p.all("sequence") for n in s.phases}
        for phase in self.p.all("phase"):
            if phase.key not in in_sequence:
                self.r.warning("W0702", f"phase '{phase.key}' is in no sequence, so it never runs", phase.name.span,
                               "list it in a `sequence` block")
        for proc in self.p.all("procedure"):
            if proc.key not in self.called:
                self.r.warning("W0703", f"procedure '{proc.key}' is never called", proc.name.span)


def _values_read(node, values: dict, bound) -> list[str]:
    """The declared values an expression reads or calls, leaving out names
    bound inside it or by its parameters (which hide a value of that name)."""
    hidden = {getattr(b, "text", None) or getattr(getattr(b, "name", None), "text", None) for b in bound}
    found: list[str] = []
    for e in A.walk_exprs(node):
        for field_name in ("var", "vars"):
            binder = getattr(e, field_name, None)
            for b in binder if isinstance(binder, list) else [binder]:
                if isinstance(b, A.Name):
                    hidden.add(b.text)
    for e in A.walk_exprs(node):
        name = e.name.text if isinstance(e, A.Ref) else e.func.text if isinstance(e, A.Call) else None
        if name in values and name not in hidden:
            found.append(name)
    return found


def _loops(needs: dict[str, list[str]]) -> list[list[str]]:
    """One loop of each strongly connected group of values that needs itself,
    as the list of values around it (iterative Tarjan: a long chain of
    values cannot reach Python's recursion limit)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    groups: list[list[str]] = []
    for root in needs:
        if root in index:
            continue
        work = [(root, iter(needs[root]))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            advanced = False
            for nxt in edges:
                if nxt not in needs:
                    continue
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(needs[nxt])))
                    advanced = True
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1 or node in needs[node]:
                    groups.append(group)
    return [_cycle_in(group, needs) for group in groups]


def _cycle_in(group: list[str], needs: dict[str, list[str]]) -> list[str]:
    """A path around a strongly connected group, from its first member back
    to it (breadth-first, so the shortest)."""
    members = set(group)
    start = group[-1]
    came_from: dict[str, str | None] = {start: None}
    frontier = [start]
    while frontier:
        nxt_frontier = []
        for node in frontier:
            for nxt in needs[node]:
                if nxt == start:
                    path = [node]
                    while came_from[path[-1]] is not None:
                        path.append(came_from[path[-1]])
                    return path[::-1]
                if nxt in members and nxt not in came_from:
                    came_from[nxt] = node
                    nxt_frontier.append(nxt)
        frontier = nxt_frontier
    return [start]


def _calls_in(block: A.Block) -> set[str]:
    """The procedures a block calls, however deeply nested."""
    found: set[str] = set()
    for stmt in block.body:
        if isinstance(stmt, A.CallStmt):
            found.add(stmt.proc.text)
        for inner in (getattr(stmt, "body", None), getattr(stmt, "otherwise", None)):
            if isinstance(inner, A.Block):
                found |= _calls_in(inner)
        for _, branch in getattr(stmt, "branches", ()):
            found |= _calls_in(branch)
    return found


def _check_value(self, decl):
    self.check_params(decl.params)
    self.value_kind(decl)


def _check_procedure(self, decl):
    self.check_params(decl.params)
    self.check_block(decl.body, self.param_scope(decl.params))


def _check_choice(self, decl):
    self.check_params(decl.params)
    self.check_template(decl)


Checker._DECL_CHECKS = {
    "space": Checker.check_space, "unit": Checker.check_unit, "table": Checker.check_table,
    "state": Checker.check_state, "value": _check_value, "term": Checker.check_term, "choice": _check_choice,
    "signal": lambda self, d: self.check_params(d.params), "procedure": _check_procedure,
    "phase": lambda self, d: self.check_block(d.body, Scope()), "restriction": Checker.check_restriction,
    "modifier": Checker.check_modifier, "trigger": Checker.check_trigger, "card": Checker.check_card,
}


def check(program: Program, reporter: Reporter, only: list[A.Decl] | None = None) -> Checker:
    """Check a program (or, with `only`, just those declarations within it)."""
    checker = Checker(program, reporter)
    if only is None:
        checker.run()
    else:
        checker.run_only(only)
    return checker


# ==================================================================== cards
def check_card_events(program: Program, reporter: Reporter, own_folders: list, required: bool) -> None:
    """A card without an event (its `event { ... }` block not written).

    In the project's own deck (a file under one of OWN_FOLDERS, the project's
    cards/ folder) it is an error (E0901) once the project says every card must
    have one (`require-card-events = true` under `[tool.pogdsl]` in its
    pyproject.toml), and is not reported before.  Anywhere else (a modder's
    file checked with the project, a file checked on its own) it is a warning
    (W0902): such a card can be played for operations, SR or replacements,
    never as an event, which may well be meant, but is worth a look."""
    from pathlib import Path

    # (an item of OWN_FOLDERS may be a (folder, required) pair: the installed
    # library's deck follows the library's settings, the user's their own)
    folders = [(Path(f[0]).resolve(), bool(f[1])) if isinstance(f, tuple) else (Path(f).resolve(), required)
               for f in own_folders]
    cwd = Path.cwd()
    for decl in program.all("card"):
        if decl.event is not None:
            continue
        path = Path(decl.span.file)
        path = (path if path.is_absolute() else cwd / path).resolve()
        own = [must for folder, must in folders if path.is_relative_to(folder)]
        side = decl.side.text.upper() if decl.side else "?"
        what = f"card {side} {decl.number} '{decl.name.text}' has no event"
        if own:
            if own[0]:
                reporter.error("E0901", what, decl.name.span,
                               "write its `event cites N { ... }` block (docs/writing-a-card.rst); every card "
                               "of this project's deck must have one")
        else:
            reporter.warning("W0902", what + ": it can only be played for operations, SR or replacements",
                             decl.name.span, "write its `event cites N { ... }` block if the card has an event")


def _procedure_locals(proc: A.ProcedureDecl) -> set[str]:
    """The names a procedure's frame may hold: its parameters and what its
    body binds with let, for and choose."""
    names = {p.name.text for p in proc.params}
    stack = [proc.body]
    while stack:
        n = stack.pop()
        if isinstance(n, (list, tuple)):
            stack.extend(n)
        elif isinstance(n, A.Let):
            names.add(n.var.text)
        elif isinstance(n, A.For):
            names.add(n.var.text)
            stack.append(n.body)
        elif isinstance(n, A.Choose):
            names.update(v.text for v in n.vars)
        elif isinstance(n, (A.Stmt, A.Block)):
            stack.extend(getattr(n, f.name) for f in attrs.fields(type(n)))
    return names
