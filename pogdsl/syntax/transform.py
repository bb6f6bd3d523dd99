"""Rule by rule, what each grammar rule builds in the AST (`pogdsl.syntax.ast`).

`ToAst` has one method per grammar rule (or alias), called with the position of
the text the rule covered (`meta`: line, column, end_line, end_column) and the
rule's children after Lark's filtering (anonymous tokens dropped, `?rule`s and
`_rule`s inlined).  Two drivers call it:

* the fast path (`lalr.FastParser`) calls the methods during the parse;
* the error path hands it a Lark parse tree (`ToAst(path).transform(tree)`).

It does not import Lark: a token is anything that is a `str` with a `type`
(Lark's `Token`, or the fast path's own), so a check that never meets a syntax
error never loads Lark at all.
"""

from __future__ import annotations

from ..numbers import MAX_DIGITS
from . import ast as A


class _Cites(list):
    """Marks the citation list among a rule's children."""


class _Role:
    """Marks a box's `receives ROLE` among its children."""

    def __init__(self, name):
        self.name = name


class _After(list):
    """Marks a modifier's `after` list among its children."""


class _Note(str):
    """Marks a block's note (the rule in our own words) among children."""


_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}


def _unquote(text: str) -> str:
    """A "text" literal's value: only \\n, \\t, \\" and \\\\ are escapes; any other
    backslash stays as written (and non-ASCII text is never garbled)."""
    body = text[1:-1]
    if "\\" not in body:
        return body
    out, i = [], 0
    while i < len(body):
        ch = body[i]
        if ch == "\\" and i + 1 < len(body) and body[i + 1] in _ESCAPES:
            out.append(_ESCAPES[body[i + 1]])
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)


class NumberTooLarge(Exception):
    """A number in the source outside the language's range (pogdsl/numbers.py)."""

    def __init__(self, tok):
        super().__init__(str(tok))
        self.text = str(tok)
        self.line = getattr(tok, "line", 1) or 1
        self.column = getattr(tok, "column", 1) or 1
        self.width = len(self.text)


def _int(tok) -> int:
    """An INT token's value; NumberTooLarge past the language's range
    (Python's `int` refuses over 4,300 digits with a traceback, and a number
    that large is no game's)."""
    if len(tok) > MAX_DIGITS and len(tok.lstrip("0")) > MAX_DIGITS:
        raise NumberTooLarge(tok)
    return int(tok)


def _factors(tok) -> tuple[int, ...]:
    parts = tok.value.split("-")
    if any(len(p.lstrip("0")) > MAX_DIGITS for p in parts):
        raise NumberTooLarge(tok)
    return tuple(int(x) for x in parts)


def _is_token(item) -> bool:
    return isinstance(item, str) and getattr(item, "type", None) is not None


def _is(tok, type_):
    return _is_token(tok) and tok.type == type_


class ToAst:
    def __init__(self, path: str):
        self.path = path

    def transform(self, tree):
        """Build the AST of a Lark parse tree, bottom-up."""
        from lark import Tree

        def build(node):
            if not isinstance(node, Tree):
                return node
            children = [build(child) for child in node.children]
            method = getattr(self, str(node.data), None)
            if method is None:
                return Tree(node.data, children, node.meta)
            return method(node.meta, children)

        return build(tree)

    # ------------------------------------------------------------ helpers
    def _span(self, meta) -> A.Span:
        if getattr(meta, "empty", True) and not hasattr(meta, "line"):
            return A.Span(self.path, 0, 0, 0, 0)
        return A.Span(self.path, meta.line, meta.column, meta.end_line, meta.end_column)

    def _tok_span(self, tok) -> A.Span:
        return A.Span(self.path, tok.line, tok.column, tok.end_line, tok.end_column)

    def _name(self, tok) -> A.Name:
        if isinstance(tok, A.Name):
            return tok
        text = tok.value
        if tok.type == "QNAME":
            text = text[1:-1]
        return A.Name(text, self._tok_span(tok))

    @staticmethod
    def _extras(children):
        """Split the trailing optional `cites` and note from the rest."""
        cites, note, rest = [], None, []
        for c in children:
            if isinstance(c, _Cites):
                cites = cites + list(c)
            elif isinstance(c, _Note):
                note = str(c)
            else:
                rest.append(c)
        return rest, cites, note

    # ------------------------------------------------------------ start
    def start(self, meta, items):
        module = A.Module(self.path)
        for item in items:
            if isinstance(item, list):
                for sub in item:
                    if isinstance(sub, A.Connection):
                        module.connections.append(sub)
                    else:
                        module.decls.append(sub)
            else:
                module.decls.append(item)
        return module

    def cites(self, meta, children):
        return _Cites(children)

    def citation(self, meta, children):
        number = children[-1]
        book = children[0].value if len(children) == 2 else None
        span = self._span(meta) if book else self._tok_span(number)
        return A.Citation(A.citation_text(book, number.value), span)

    def note(self, meta, children):
        return _Note(_unquote(children[0].value))

    def name_list(self, meta, children):
        return [self._name(t) for t in children]

    # ------------------------------------------------------------ sides, nations
    def side_decl(self, meta, children):
        rest, cites, note = self._extras(children)
        title = next((_unquote(r.value) for r in rest[1:] if _is(r, "STRING")), None)
        hostile = "hostile" in [r for r in rest[1:] if isinstance(r, str) and not _is(r, "STRING")]
        return A.SideDecl(self._span(meta), self._name(rest[0]), title=title, hostile=hostile, cites=cites,
                          note=note)

    def nation_decl(self, meta, children):
        rest, cites, note = self._extras(children)
        name = self._name(rest[0])
        i = 1
        title = None
        if _is(rest[i], "STRING"):
            title = _unquote(rest[i].value)
            i += 1
        side = self._name(rest[i])
        flags = {str(f) for f in rest[i + 1 :]}
        return A.NationDecl(
            self._span(meta), name, title=title, side=side,
            neutral="neutral" in flags, minor="minor" in flags, cites=cites, note=note,
        )

    def flag_hostile(self, meta, children):
        return "hostile"

    def flag_neutral(self, meta, children):
        return "neutral"

    def flag_minor(self, meta, children):
        return "minor"

    def map_decl(self, meta, children):
        rest, cites, note = self._extras(children)
        title = _unquote(rest[1].value) if len(rest) > 1 else None
        return A.MapDecl(self._span(meta), self._name(rest[0]), title=title, cites=cites, note=note)

    def enum_decl(self, meta, children):
        rest, cites, note = self._extras(children)
        members = rest[1] if len(rest) > 1 else []
        return A.EnumDecl(self._span(meta), self._name(rest[0]), members=members, cites=cites, note=note)

    # ------------------------------------------------------------ board
    def group_nation(self, meta, children):
        return ("nation", self._name(children[0]))

    def group_map(self, meta, children):
        return ("map", self._name(children[0]))

    def spaces_block(self, meta, children):
        rest, cites, note = self._extras(children)
        defaults = dict(c for c in rest if isinstance(c, tuple))
        spaces = [c for c in rest if isinstance(c, A.SpaceDecl)]
        for s in spaces:
            if s.nation is None:
                s.nation = defaults.get("nation")
            if s.map is None:
                s.map = defaults.get("map")
            if not s.cites:
                s.cites = list(cites)
        return spaces

    def space_line(self, meta, children):
        space = A.SpaceDecl(self._span(meta), self._name(children[0]), terrain=self._name(children[1]))
        seen_items: set[str] = set()
        for attr in children[2:]:
            key, value, attr_span = attr
            if key in seen_items and key != "port":
                space.repeated.append((key, attr_span))
            seen_items.add(key)
            if key == "vp":
                space.vp = True
            elif key == "fort":
                space.fort = value
            elif key == "capital":
                space.capital = True
            elif key == "supply":
                space.supply = True
                space.supply_for = value
            elif key == "port":
                space.ports.append(value)
            elif key in ("control", "nation", "map"):
                setattr(space, key, value)
            elif key == "at":
                space.at = value
        return space

    def attr_vp(self, meta, c):
        return ("vp", True, self._span(meta))

    def attr_fort(self, meta, c):
        return ("fort", _int(c[0]), self._span(meta))

    def attr_capital(self, meta, c):
        return ("capital", True, self._span(meta))

    def attr_supply(self, meta, c):
        return ("supply", self._name(c[0]) if c else None, self._span(meta))

    def attr_port(self, meta, c):
        return ("port", self._name(c[0]), self._span(meta))

    def attr_control(self, meta, c):
        return ("control", self._name(c[0]), self._span(meta))

    def attr_nation(self, meta, c):
        return ("nation", self._name(c[0]), self._span(meta))

    def attr_map(self, meta, c):
        return ("map", self._name(c[0]), self._span(meta))

    def attr_at(self, meta, c):
        return ("at", (_int(c[0]), _int(c[1])), self._span(meta))

    def connections_block(self, meta, children):
        rest, cites, note = self._extras(children)
        for conn in rest:
            conn.cites = list(cites)
        return rest

    def solid_connection(self, meta, c):
        return A.Connection(self._span(meta), self._name(c[0]), self._name(c[2]), False, [], [])

    def dotted_connection(self, meta, c):
        return A.Connection(self._span(meta), self._name(c[0]), self._name(c[2]), True, c[3], [])

    def box_scope(self, meta, c):
        return self._name(c[0])

    def box_decl(self, meta, children):
        rest, cites, note = self._extras(children)
        title, per, receives = None, None, None
        for r in rest[1:]:
            if _is(r, "STRING"):
                title = _unquote(r.value)
            elif isinstance(r, _Role):
                receives = r.name
            elif isinstance(r, A.Name):
                per = r
        return A.BoxDecl(self._span(meta), self._name(rest[0]), title=title, per=per, receives=receives,
                         cites=cites, note=note)

    def box_role(self, meta, children):
        return _Role(self._name(children[0]))

    def units_block(self, meta, children):
        rest, cites, note = self._extras(children)
        nation = self._name(rest[0])
        units = rest[1:]
        for u in units:
            u.nation = nation
            if not u.cites:
                u.cites = list(cites)
        return units

    def unit_line(self, meta, children):
        unit_type = self._name(children[0])
        name = self._name(children[1])
        full = _factors(children[2])
        i = 3
        reduced = None
        if i < len(children) and _is(children[i], "FACTORS"):
            reduced = _factors(children[i])
            i += 1
        unit = A.UnitDecl(self._span(meta), name, unit_type=unit_type, full=full, reduced=reduced)
        for key, value in children[i:]:
            if key == "count":
                unit.count = value
            elif key == "rp":
                unit.rp = value
            elif key == "never_replaced":
                unit.never_replaced = True
            elif key == "near_east":
                unit.near_east = True
        return unit

    def attr_count(self, meta, c):
        return ("count", _int(c[0]))

    def attr_rp(self, meta, c):
        return ("rp", self._name(c[0]))

    def attr_never_replaced(self, meta, c):
        return ("never_replaced", True)

    def attr_near_east(self, meta, c):
        return ("near_east", True)

    # ------------------------------------------------------------ tables
    def key_int(self, meta, c):
        return A.TableKey(self._tok_span(c[0]), "int", _int(c[0]), _int(c[0]))

    def key_range(self, meta, c):
        return A.TableKey(self._span(meta), "range", _int(c[0]), _int(c[1]))

    def key_at_least(self, meta, c):
        return A.TableKey(self._span(meta), "at_least", _int(c[0]), 0)

    def key_name(self, meta, c):
        n = self._name(c[0])
        return A.TableKey(n.span, "name", name=n)

    def cell_int(self, meta, c):
        return _int(c[0])

    def cell_neg(self, meta, c):
        return -_int(c[0])

    def cell_name(self, meta, c):
        return self._name(c[0])

    def table_columns(self, meta, c):
        return ("columns", list(c))

    def table_row(self, meta, c):
        return A.TableRow(self._span(meta), c[0], list(c[1:]))

    def table_decl(self, meta, children):
        rest, cites, note = self._extras(children)
        table = A.TableDecl(self._span(meta), self._name(rest[0]), cites=cites, note=note)
        for r in rest[1:]:
            if isinstance(r, tuple):
                table.columns = r[1]
            else:
                table.rows.append(r)
        return table

    # ------------------------------------------------------------ state
    def state_kind(self, meta, c):
        return ("kind", c[0].value)

    def state_scope(self, meta, c):
        return ("scope", self._name(c[0]))

    def int_range(self, meta, c):
        return ("range", (_int(c[0]), _int(c[1])))

    def state_type(self, meta, c):
        return ("type", c[0])

    def state_start(self, meta, c):
        return ("start", c[0])

    def type_ref(self, meta, c):
        n = self._name(c[0])
        return A.Param(n, n, False)

    def list_type(self, meta, c):
        n = self._name(c[0])
        return A.Param(n, n, True)

    def state_decl(self, meta, children):
        rest, cites, note = self._extras(children)
        parts = dict(r for r in rest if isinstance(r, tuple))
        name = next(self._name(r) for r in rest if _is_token(r))
        low, high = parts.get("range", (None, None))
        return A.StateDecl(
            self._span(meta), name, state_kind=parts["kind"], scope=parts.get("scope"),
            low=low, high=high, type=parts.get("type"), start=parts.get("start"),
            cites=cites, note=note,
        )

    # ------------------------------------------------------------ behaviour
    def param(self, meta, c):
        name = self._name(c[0])
        if len(c) > 1:
            t = c[1]
            return A.Param(name, t.type, t.is_list)
        return A.Param(name, None)

    def params(self, meta, c):
        return ("params", list(c))

    @staticmethod
    def _params(rest):
        for r in rest:
            if isinstance(r, tuple) and r[0] == "params":
                return r[1]
        return []

    def value_decl(self, meta, children):
        rest, cites, note = self._extras(children)
        expr = [r for r in rest if isinstance(r, A.Expr)][0]
        return A.ValueDecl(self._span(meta), self._name(rest[0]), params=self._params(rest), expr=expr,
                           cites=cites, note=note)

    def term_decl(self, meta, children):
        rest, cites, note = self._extras(children)
        expr = [r for r in rest if isinstance(r, A.Expr)][0]
        weight = next(int(r) for r in rest[1:] if _is(r, "INT"))
        return A.TermDecl(self._span(meta), self._name(rest[0]), params=self._params(rest), expr=expr,
                          weight=weight, cites=cites, note=note)

    def choice_weight(self, meta, c):
        return ("weight", c[0])

    def choice_decl(self, meta, children):
        rest, cites, note = self._extras(children)
        template = next(_unquote(r.value) for r in rest[1:] if _is(r, "STRING"))
        weight = next((r[1] for r in rest if isinstance(r, tuple) and r[0] == "weight"), None)
        default = next((r[1] for r in rest if isinstance(r, tuple) and r[0] == "default"), None)
        return A.ChoiceDecl(self._span(meta), self._name(rest[0]), params=self._params(rest),
                            template=template, weight=weight, default=default, cites=cites, note=note)

    def choice_default(self, meta, c):
        return ("default", c[0])

    def signal_decl(self, meta, children):
        rest, cites, note = self._extras(children)
        return A.SignalDecl(self._span(meta), self._name(rest[0]), params=self._params(rest), cites=cites, note=note)

    def block(self, meta, children):
        rest, _, note = self._extras(children)
        return A.Block(self._span(meta), note, rest)

    def procedure_decl(self, meta, children):
        rest, cites, note = self._extras(children)
        body = rest[-1]
        return A.ProcedureDecl(self._span(meta), self._name(rest[0]), params=self._params(rest), body=body,
                               cites=cites, note=body.note)

    def phase_decl(self, meta, children):
        rest, cites, note = self._extras(children)
        body = rest[-1]
        return A.PhaseDecl(self._span(meta), self._name(rest[0]), body=body, cites=cites, note=body.note)

    def sequence_decl(self, meta, children):
        rest, cites, note = self._extras(children)
        return A.SequenceDecl(self._span(meta), self._name(rest[0]), phases=rest[1], cites=cites, note=note)

    def forbid(self, meta, c):
        when = c[2] if len(c) > 2 else None
        unless = c[3] if len(c) > 3 else None
        return A.Forbid(self._span(meta), self._name(c[0]), c[1], when, unless)

    def restriction_decl(self, meta, children):
        rest, cites, note = self._extras(children)
        return A.RestrictionDecl(self._span(meta), self._name(rest[0]), forbids=rest[1:], cites=cites, note=note)

    def contrib_op(self, meta, c):
        return ("op", c[0].value)

    def contribution(self, meta, c):
        value = self._name(c[0])
        i = 1
        vars_ = []
        if isinstance(c[i], list):
            vars_ = c[i]
            i += 1
        op = c[i][1]
        expr = c[i + 1]
        when = c[i + 2] if len(c) > i + 2 else None
        return A.Contribution(self._span(meta), value, vars_, op, expr, when)

    def modifier_after(self, meta, c):
        return _After(self._name(n) for n in c)

    def modifier_decl(self, meta, children):
        rest, cites, note = self._extras(children)
        after = [n for c in rest if isinstance(c, _After) for n in c]
        rest = [c for c in rest if not isinstance(c, _After)]
        return A.ModifierDecl(self._span(meta), self._name(rest[0]), contributions=rest[1:], cites=cites, note=note,
                              after=after)

    def trigger_decl(self, meta, children):
        rest, cites, note = self._extras(children)
        name, event = self._name(rest[0]), self._name(rest[1])
        i = 2
        vars_ = []
        if isinstance(rest[i], list):
            vars_ = rest[i]
            i += 1
        when = rest[i] if isinstance(rest[i], A.Expr) else None
        body = rest[-1]
        return A.TriggerDecl(self._span(meta), name, event=event, vars=vars_, when=when, body=body,
                             cites=cites, note=body.note)

    # ------------------------------------------------------------ cards
    def card_deck(self, meta, c):
        return ("deck", self._name(c[0]), self._span(meta))

    def card_ops(self, meta, c):
        return ("ops", _int(c[0]), self._span(meta))

    def card_sr(self, meta, c):
        return ("sr", _int(c[0]), self._span(meta))

    def rp_entry(self, meta, c):
        return (self._name(c[0]), _int(c[1]))

    def card_rp(self, meta, c):
        return ("rp", list(c), self._span(meta))

    def card_war_status(self, meta, c):
        return ("war_status", _int(c[0]), self._span(meta))

    def card_removed(self, meta, c):
        return ("removed", True, self._span(meta))

    def card_combat(self, meta, c):
        return ("combat", True, self._span(meta))

    def card_optional(self, meta, c):
        return ("optional", True, self._span(meta))

    def card_reinforcements(self, meta, c):
        return ("reinforcements", c[0], self._span(meta))

    def card_playable(self, meta, c):
        cites = list(c[1]) if len(c) > 1 else []
        return ("playable", (c[0], cites), self._span(meta))

    def card_event(self, meta, c):
        rest, cites, _ = self._extras(c)
        return ("event", (rest[0], cites), self._span(meta))

    def card_decl(self, meta, children):
        rest, cites, note = self._extras(children)
        card = A.CardDecl(self._span(meta), self._name(rest[2]), side=self._name(rest[0]), number=_int(rest[1]),
                          cites=cites, note=note)
        seen_items: set[str] = set()
        for item in rest[3:]:
            if isinstance(item, A.Decl):
                item.owner = card.key
                card.nested.append(item)
                continue
            key, value, item_span = item
            if key in seen_items:
                card.repeated.append((key, item_span))
            seen_items.add(key)
            if key == "playable":
                card.playable, card.playable_cites = value
            elif key == "event":
                card.event, card.event_cites = value
            else:
                setattr(card, key, value)
        return card

    # ------------------------------------------------------------ scenarios
    def bool_word(self, meta, c):
        return c[0].value == "on"

    def scenario_turns(self, meta, c):
        c, cites, _ = self._extras(c)
        return ("turns", (_int(c[0]), _int(c[1]), self._span(meta), cites))

    def scenario_sequence(self, meta, c):
        return ("sequence", self._name(c[0]))

    def scenario_result(self, meta, c):
        c, cites, _ = self._extras(c)
        title = _unquote(c[1].value) if len(c) > 1 else None
        return ("result", A.ScenarioResult(self._span(meta), self._name(c[0]), title, cites))

    def scenario_limit(self, meta, c):
        return ("limit", (self._name(c[0]), int(c[1]), self._tok_span(c[1])))

    def option_none(self, meta, c):
        return ("option_none", self._span(meta))

    def option_range(self, meta, c):
        return ("option_range", _int(c[0]), _int(c[1]))

    def option_names(self, meta, c):
        return ("option_names", c[0])

    def scenario_option(self, meta, c):
        rest, cites, _ = self._extras(c)
        name, rest = self._name(rest[0]), rest[1:]
        title = None
        if rest and _is(rest[0], "STRING"):
            title = _unquote(rest.pop(0).value)
        default, rest = rest[0], rest[1:]
        opt = A.ScenarioOption(self._span(meta), name, title, None, cites)
        if isinstance(default, bool):
            opt.default = default
        elif _is(default, "INT"):
            opt.default, opt.default_span = _int(default), self._tok_span(default)
        elif _is_token(default):
            opt.default, opt.default_span = str(default.value), self._tok_span(default)
        else:  # `none`
            opt.default_span = default[1]
        # The kind comes from the values it takes; the checker says whether
        # the default is one of them.
        if rest and rest[0][0] == "option_range":
            opt.kind, opt.low, opt.high = "int", rest[0][1], rest[0][2]
        elif rest:
            opt.kind, opt.names = "names", rest[0][1]
        return ("option", opt)

    def scenario_setup(self, meta, c):
        rest, cites, _ = self._extras(c)
        name = self._name(rest[0]) if len(rest) > 1 else None
        return ("setup", A.SetupBlock(self._span(meta), name, rest[-1], cites))

    def scenario_replace_setup(self, meta, c):
        rest, cites, _ = self._extras(c)
        name = self._name(rest[0])
        return ("override", A.Override(self._span(meta), "replace_setup", target_kind=A.Name("setup", name.span),
                                       target=name.text, target_span=name.span, block=rest[-1], cites=cites))

    def edit_neg(self, meta, c):
        return ("no", self._span(meta))

    def edit_target(self, meta, c):
        return self._name(c[0])

    def edit_name(self, meta, c):
        return self._name(c[0])

    def edit_int(self, meta, c):
        return (_int(c[0]), self._tok_span(c[0]))

    def edit_factors(self, meta, c):
        return (_factors(c[0]), self._tok_span(c[0]))

    def scenario_edit(self, meta, c):
        rest, cites, _ = self._extras(c)
        kind, rest = self._name(rest[0]), rest[1:]
        target = self._name(rest.pop(0))
        text, span = target.text, target.span
        if rest and _is_token(rest[0]) and rest[0].type == "INT":  # a card: side and number
            number = rest.pop(0)
            end = self._tok_span(number)
            text, span = f"{text} {number.value}", A.Span(span.file, span.line, span.col, end.end_line, end.end_col)
        negated = bool(rest) and isinstance(rest[0], tuple) and rest[0][0] == "no"
        if negated:
            rest.pop(0)
        attribute = self._name(rest.pop(0))
        return ("override", A.Override(self._span(meta), "edit", target_kind=kind, target=text, target_span=span,
                                       attribute=attribute, negated=negated, values=list(rest), cites=cites))

    def scenario_add_many(self, meta, c):
        return ("overrides", [A.Override(self._span(meta), "add", decl=d) for d in c[0]])

    def scenario_replace_many(self, meta, c):
        return ("overrides", [A.Override(self._span(meta), "replace", decl=d) for d in c[0]])

    def scenario_add_connections(self, meta, c):
        return ("overrides", [A.Override(conn.span, "add_connection", connection=conn) for conn in c[0]])

    def connection_mark(self, meta, c):
        return c[0]

    def scenario_remove_connection(self, meta, c):
        conn = A.Connection(self._span(meta), self._name(c[0]), self._name(c[2]), c[1].type == "DOTTED", [], [])
        return ("override", A.Override(self._span(meta), "remove_connection", connection=conn))

    def scenario_extend_enum(self, meta, c):
        rest, cites, _ = self._extras(c)
        name = self._name(rest[0])
        return ("override", A.Override(self._span(meta), "extend_enum", target_kind=A.Name("enum", name.span),
                                       target=name.text, target_span=name.span, values=list(rest[1]),
                                       cites=cites))

    def scenario_when(self, meta, c):
        name = self._name(c[0])
        items = []
        for k, v in c[1:]:
            items.extend([("override", o) for o in v] if k == "overrides" else [(k, v)])
        return ("override", A.Override(self._span(meta), "when", target=name.text, target_span=name.span,
                                       items=items))

    def scenario_uses(self, meta, c):
        return ("uses", list(c[0]))

    def scenario_replace(self, meta, c):
        return ("override", A.Override(self._span(meta), "replace", decl=c[0]))

    def scenario_add(self, meta, c):
        return ("override", A.Override(self._span(meta), "add", decl=c[0]))

    def target_name(self, meta, c):
        # `card cp 1` (side and number) or `card cp 1 'Name'` (the name only
        # restates it): the key is side and number; otherwise the name.
        parts = [t.value[1:-1] if t.type == "QNAME" else t.value for t in c]
        if len(c) >= 2 and c[1].type == "INT":
            parts = parts[:2]
        return (" ".join(parts), self._span(meta))

    def scenario_remove(self, meta, c):
        c, cites, _ = self._extras(c)
        target, span = c[1]
        return ("override", A.Override(self._span(meta), "remove", target_kind=self._name(c[0]),
                                       target=target, target_span=span, cites=cites))

    def insert_point(self, meta, c):
        return ("point", c[0].value, self._name(c[1]))

    def scenario_insert_phase(self, meta, c):
        c, cites, _ = self._extras(c)
        phase, (_, position, anchor), seq = self._name(c[0]), c[1], self._name(c[2])
        return ("override", A.Override(self._span(meta), "insert_phase", target=phase.text, target_span=phase.span,
                                       position=position, anchor=anchor, into=seq, cites=cites))

    def scenario_insert_steps(self, meta, c):
        c, cites, _ = self._extras(c)
        kind, target, (_, position, anchor), body = self._name(c[0]), self._name(c[1]), c[2], c[3]
        return ("override", A.Override(self._span(meta), "insert_steps", target_kind=kind, target=target.text,
                                       target_span=target.span, position=position, anchor=anchor, body=body,
                                       cites=cites))

    def scenario_remove_cites(self, meta, c):
        return ("override", A.Override(self._span(meta), "remove_cites", rule=c[0]))

    def scenario_decl(self, meta, children):
        rest, cites, note = self._extras(children)
        sc = A.ScenarioDecl(self._span(meta), self._name(rest[0]), cites=cites, note=note)
        items = rest[1:]
        # Header: optional title STRING, optional extends NAME.
        while items and _is_token(items[0]):
            tok = items.pop(0)
            if tok.type == "STRING":
                sc.title = _unquote(tok.value)
            else:
                sc.extends = self._name(tok)
        for key, value in items:
            if key == "turns":
                sc.turns, sc.turns_span, sc.turns_cites = value[:2], value[2], value[3]
            elif key == "sequence":
                sc.sequence = value
            elif key == "option":
                sc.options.append(value)
            elif key == "result":
                sc.results.append(value)
            elif key == "limit":
                name, n, span = value
                sc.limits[name.text] = (n, name.span, span)
            elif key == "setup":
                sc.setup_blocks.append(value)
                sc.setup.append(value.block)
                sc.setup_cites.extend(value.cites)
            elif key == "override":
                sc.overrides.append(value)
            elif key == "overrides":
                sc.overrides.extend(value)
            elif key == "uses":
                sc.uses.extend(value)
        for o in sc.overrides:
            # A space line has no `cites` of its own: it takes its enclosing
            # block's, here the scenario's, as in a `spaces` block.
            if isinstance(o.decl, A.SpaceDecl) and not o.decl.cites:
                o.decl.cites = list(sc.cites)
        return sc

    def ruleset_decl(self, meta, children):
        sc = self.scenario_decl(meta, children)
        rs = A.RulesetDecl(sc.span, sc.name, cites=sc.cites, note=sc.note, title=sc.title)
        for attr in ("turns", "turns_span", "turns_cites", "sequence", "options", "results", "limits", "setup",
                     "setup_cites", "overrides", "setup_blocks", "uses"):
            setattr(rs, attr, getattr(sc, attr))
        return rs

    # ------------------------------------------------------------ rule index
    def rule_na(self, meta, c):
        return ("na", _unquote(c[0].value))

    def rule_same(self, meta, c):
        return ("same", A.Citation(c[0].value, self._tok_span(c[0])))

    def rule_approx(self, meta, c):
        return ("approx", _unquote(c[0].value))

    def rule_entry(self, meta, c):
        title = na = same = approx = None
        for item in c[1:]:
            if isinstance(item, tuple):
                if item[0] == "na":
                    na = item[1]
                elif item[0] == "approx":
                    approx = item[1]
                else:
                    same = item[1]
            else:
                title = _unquote(item.value)
        return A.RuleEntry(self._span(meta), c[0].value, title, na, same, approx)

    def rulebook_decl(self, meta, children):
        rest, cites, note = self._extras(children)
        title = None
        entries = []
        for r in rest[1:]:
            if _is(r, "STRING"):
                title = _unquote(r.value)
            elif isinstance(r, A.RuleEntry):
                entries.append(r)
        return A.RulebookDecl(self._span(meta), self._name(rest[0]), title=title, entries=entries,
                              cites=cites, note=note)

    # ------------------------------------------------------------ display
    def display_decl(self, meta, children):
        rest, cites, note = self._extras(children)
        items = [r for r in rest[1:] if isinstance(r, A.DisplayItem)]
        return A.DisplayDecl(self._span(meta), self._name(rest[0]), items=items, cites=cites, note=note)

    def colour_kind(self, meta, c):
        return c[0].value

    def display_colour(self, meta, c):
        return A.DisplayItem(self._span(meta), "colour", c[0], self._name(c[1]), _unquote(c[2].value))

    def _display_line(self, item: str, meta, c):
        return A.DisplayItem(self._span(meta), item, None, self._name(c[0]), _unquote(c[1].value))

    def display_glyph(self, meta, c):
        return self._display_line("glyph", meta, c)

    def display_marker(self, meta, c):
        return self._display_line("marker", meta, c)

    def display_track(self, meta, c):
        line = self._display_line("track", meta, c[:2])
        for extra in c[2:]:
            if isinstance(extra, list):
                line.only = extra
            else:
                line.within = self._name(extra)
        return line

    # ------------------------------------------------------------ statements
    def let_stmt(self, meta, c):
        c, cites, _ = self._extras(c)
        return A.Let(self._span(meta), self._name(c[0]), c[1], cites=cites)

    def elif_clause(self, meta, c):
        return (c[0], c[1])

    def else_clause(self, meta, c):
        return ("else", c[0])

    def if_stmt(self, meta, c):
        c, cites, _ = self._extras(c)
        branches = [(c[0], c[1])]
        otherwise = None
        for extra in c[2:]:
            if extra[0] == "else":
                otherwise = extra[1]
            else:
                branches.append(extra)
        return A.If(self._span(meta), branches, otherwise, cites=cites)

    def for_stmt(self, meta, c):
        c, cites, _ = self._extras(c)
        where = c[2] if len(c) == 4 else None
        return A.For(self._span(meta), self._name(c[0]), c[1], where, c[-1], cites=cites)

    def repeat_stmt(self, meta, c):
        c, cites, _ = self._extras(c)
        var = self._name(c[1]) if len(c) == 3 else None
        return A.Repeat(self._span(meta), c[0], var, c[-1], cites=cites)

    def while_stmt(self, meta, c):
        c, cites, _ = self._extras(c)
        return A.While(self._span(meta), c[0], c[1], cites=cites)

    def binding(self, meta, c):
        return A.Binding(self._name(c[0]), c[1])

    def optional_clause(self, meta, c):
        return ("optional", _unquote(c[0].value) if c else None)

    def choose_stmt(self, meta, c):
        c, cites, _ = self._extras(c)
        choice, vars_, by = self._name(c[0]), c[1], c[2]
        bindings, where, optional, label = [], None, False, None
        for item in c[3:]:
            if isinstance(item, A.Binding):
                bindings.append(item)
            elif isinstance(item, tuple):
                optional, label = True, item[1]
            else:
                where = item
        return A.Choose(self._span(meta), choice, vars_, by, bindings, where, optional, label, cites=cites)

    def roll_stmt(self, meta, c):
        rest, cites, _ = self._extras(c)
        return A.Roll(self._span(meta), self._name(rest[0]), cites)

    def call_stmt(self, meta, c):
        c, cites, _ = self._extras(c)
        args = c[1] if len(c) > 1 else []
        return A.CallStmt(self._span(meta), self._name(c[0]), args, cites=cites)

    def segment_stmt(self, meta, c):
        rest, cites, _ = self._extras(c)
        return A.Segment(self._span(meta), self._name(rest[0]), cites, rest[1])

    def return_stmt(self, meta, c):
        _, cites, _ = self._extras(c)
        return A.Return(self._span(meta), cites=cites)

    def verb(self, meta, c):
        return ("verb", c[0].value)

    def prep(self, meta, c):
        return c[0].value

    def effect_arg(self, meta, c):
        return ("arg", (c[0], c[1]))

    def effect_stmt(self, meta, c):
        rest, cites, _ = self._extras(c)
        verb = rest[0][1]
        obj = None
        args = []
        for r in rest[1:]:
            if isinstance(r, tuple) and r[0] == "arg":
                args.append(r[1])
            else:
                obj = r
        return A.Effect(self._span(meta), verb, obj, args, cites)

    # ------------------------------------------------------------ expressions
    def args(self, meta, c):
        return list(c)

    def int_lit(self, meta, c):
        return A.IntLit(self._tok_span(c[0]), _int(c[0]))

    def text_lit(self, meta, c):
        raw = c[0].value
        return A.TextLit(self._tok_span(c[0]), _unquote(raw), raw=raw if ("{" in raw or "}" in raw) else None)

    def true_lit(self, meta, c):
        return A.BoolLit(self._span(meta), True)

    def false_lit(self, meta, c):
        return A.BoolLit(self._span(meta), False)

    def none_lit(self, meta, c):
        return A.NoneLit(self._span(meta))

    def ref(self, meta, c):
        n = self._name(c[0])
        return A.Ref(n.span, n)

    def list_lit(self, meta, c):
        return A.ListLit(self._span(meta), c[0] if c else [])

    def list_comp(self, meta, c):
        where = c[3] if len(c) > 3 else None
        return A.ListComp(self._span(meta), c[0], self._name(c[1]), c[2], where)

    def range_lit(self, meta, c):
        return A.RangeLit(self._span(meta), _int(c[0]), _int(c[1]))

    def attr(self, meta, c):
        return A.Attr(self._span(meta), c[0], self._name(c[1]))

    def index(self, meta, c):
        return A.Index(self._span(meta), c[0], c[1])

    def call(self, meta, c):
        return A.Call(self._span(meta), self._name(c[0]), c[1] if len(c) > 1 else [])

    def aggregator(self, meta, c):
        return c[0].value

    def aggregate(self, meta, c):
        where = c[4] if len(c) > 4 else None
        return A.Aggregate(self._span(meta), c[0], c[1], self._name(c[2]), c[3], where)

    def aggregate_call(self, meta, c):
        return A.AggregateCall(self._span(meta), c[0], c[1])

    def reach(self, meta, c):
        where = c[2] if len(c) > 2 else None
        return A.Reach(self._span(meta), self._name(c[0]), c[1], where)

    def cond_expr(self, meta, c):
        return A.CondExpr(self._span(meta), c[0], c[1], c[2])

    def not_op(self, meta, c):
        return A.Not(self._span(meta), c[0])

    def neg(self, meta, c):
        return A.Neg(self._span(meta), c[0])

    def comp_op(self, meta, c):
        return c[0].value

    add_op = mul_op = comp_op

    def binop(self, meta, c):
        return A.BinOp(self._span(meta), c[1], c[0], c[2])

    def compare(self, meta, c):
        return A.Compare(self._span(meta), c[1], c[0], c[2])

    def member(self, meta, c):
        return A.Member(self._span(meta), c[0], c[1], False)

    def not_member(self, meta, c):
        return A.Member(self._span(meta), c[0], c[1], True)

    def and_expr(self, meta, c):
        return A.BoolOp(self._span(meta), "and", list(c))

    def or_expr(self, meta, c):
        return A.BoolOp(self._span(meta), "or", list(c))
