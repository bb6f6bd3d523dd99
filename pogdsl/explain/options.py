"""Why an option of the pending decision is legal, forbidden, or not offered.

The options of a decision are its choice's candidates (every combination of
its `for` sources that passes its `where`, the domain filter) minus what the
restrictions on the choice forbid.  Each of those is read here from the
compiled program's AST and walked as a tree (conditions.py) for the option
asked about, on a copy of the game, only when asked.
"""

from __future__ import annotations

import difflib
from attrs import define, field

from ..runtime import builtins as B
from ..runtime.errors import GameError
from ..syntax import ast as A
from .conditions import Block, Evaluator, Finding, plain, show
from .unparse import unparse

# Texts worked out when looking for an option left out of the choice's domain.
MAX_TEXTS = 20_000


@define
class Reason:
    """What one restriction clause or domain filter says of the option."""

    block: Block
    kind: str            # "restriction", "filter" (the choice's `where`) or "source" (a `for … in` list)
    span: A.Span | None  # the clause itself (`forbid …`, the `where`, the source)
    decides: bool        # it forbids the option, or leaves it out
    parts: list[tuple[str, Finding]] = field(factory=list)  # ("when" | "unless" | "where" | …, finding)
    said: str = ""       # for a source: what it lacks

    def deciding(self) -> Finding | None:
        """The sub-condition that decided: for a clause that forbids, its
        `unless` (false) when it has one, else its `when`; for one that does
        not, the part that failed (a false `when`, a true `unless`)."""
        if not self.parts:
            return None
        role, finding = self.parts[-1]
        return finding.deciding()

    def headline(self) -> str:
        leaf = self.deciding()
        if leaf is None:
            return self.said or "it holds"
        return because(leaf, self.block)

    def lines(self, tree: bool = True) -> list[str]:
        """With `tree`: the clause, then each condition as a tree of its
        parts; without: one line, the clause and the part that decided."""
        where = f"{self.block.name}, {self.span.location}" if self.span is not None else self.block.name
        head = {"restriction": "forbids it" if self.decides else "does not forbid it",
                "filter": "leaves it out" if self.decides else "lets it in",
                "source": "does not offer it"}[self.kind]
        if not tree:
            leaf = self.deciding()
            said = self.said if leaf is None else leaf.sentence()
            if leaf is not None and leaf.block is not None and leaf.block.name != self.block.name:
                said += f" (in `{leaf.block.name}`, {leaf.location})"
            return [f"{where} {head}: {said}"]
        out = [f"{where} {head}" + (":" if self.parts else "")]  # (what a source lacks is in the headline)
        for role, finding in self.parts:
            branch = finding.lines(2)
            out.append(f"    {role}: " + branch[0].strip())
            out += branch[1:]
        return out

    def to_json(self) -> dict:
        leaf = self.deciding()
        data = {"block": self.block.name, "kind": self.kind, "decides": self.decides,
                "file": self.span.file if self.span else None, "line": self.span.line if self.span else None,
                "rules": list(self.block.rules), "note": self.block.note}
        data.update(_leaf_json(leaf, self.block))
        if self.said:
            data["said"] = self.said
        for role, finding in self.parts:
            data[role] = finding.to_json()
        return data


def because(leaf: Finding, block: Block) -> str:
    """"`turn > 1` is false: turn is 1 — `reinforcements_allowed`, rules/09-events.pog:172, rule 9.5.3.1"."""
    owner = leaf.block or block
    rules = f", {'rules' if len(owner.rules) > 1 else 'rule'} {', '.join(owner.rules)}" if owner.rules else ""
    return f"{leaf.sentence()} — `{owner.name}`, {leaf.location}{rules}"


def _leaf_json(leaf: Finding | None, block: Block) -> dict:
    if leaf is None:
        return {"condition": None, "value": None, "values": {}}
    owner = leaf.block or block
    return {"condition": leaf.text, "value": plain(leaf.value),
            "values": {name: plain(v) for name, v in leaf.seen},
            "condition_file": leaf.expr.span.file, "condition_line": leaf.expr.span.line,
            "condition_block": owner.name, "condition_rules": list(owner.rules), "condition_note": owner.note}


@define
class Explanation:
    """Why one option of a decision is what it is.

    `verdict`: "legal", "forbidden", "not offered" (outside the choice's
    domain), "unknown" (it names no option: `suggestions` lists the
    nearest) or "no decision"."""

    option: str
    verdict: str
    choice: str | None = None
    by: str | None = None
    shown: str | None = None  # the option as the game writes it
    headline: str = ""
    reasons: list[Reason] = field(factory=list)
    suggestions: list[str] = field(factory=list)

    def decisive(self) -> Reason | None:
        """The reason that decided (the first restriction forbidding, the
        filter or source leaving it out); None for a legal option."""
        return next((r for r in self.reasons if r.decides), None)

    def to_text(self) -> str:
        lines = [self.headline]
        decisive = self.decisive()
        if decisive is not None and decisive.deciding() is not None:
            lines.append(f"  because {decisive.headline()}")
        for reason in self.reasons:  # a legal option: each clause passed, on one line
            lines += ["  " + line for line in reason.lines(tree=self.verdict != "legal")]
        return "\n".join(lines)

    def to_json(self) -> dict:
        decisive = self.decisive()
        block = decisive.block if decisive is not None else None
        data = {"option": self.shown or self.option, "asked": self.option, "verdict": self.verdict,
                "choice": self.choice, "by": self.by, "message": self.headline,
                "block": block.name if block else None,
                "file": decisive.span.file if decisive and decisive.span else None,
                "line": decisive.span.line if decisive and decisive.span else None,
                "rules": list(block.rules) if block else [], "note": block.note if block else None}
        data.update(_leaf_json(decisive.deciding() if decisive else None, block) if block else
                    {"condition": None, "value": None, "values": {}})
        data["reasons"] = [r.to_json() for r in self.reasons]
        if self.suggestions:
            data["suggestions"] = list(self.suggestions)
        return data


# ============================================================ the decision
class _Decision:
    """The pending decision of a game, with what explanations need: its
    choice's AST (`choose` statement and declaration), its candidates, and
    the restrictions on it."""

    def __init__(self, game, viewer: str | None = None):
        self.game = game
        self.p = game.s["pending"]
        self.ev = Evaluator(game, viewer)
        self.w = game.w
        self.spec = game._pending_spec()
        self.node = _choose_nodes(self.w).get(_span_key(self.spec.span)) if self.spec is not None else None
        self.decl = self.w.choices.get(self.p["choice"])
        self.locals = dict(self.ev.g.s["stack"][-1]["l"])
        self.legal = {o.lower(): o for o in self.p["options"]}
        self._candidates: dict[str, tuple] | None = None

    @property
    def choice_block(self) -> Block:
        cites = [c.number for c in self.node.cites] if self.node is not None and self.node.cites else \
            list(self.p["rules"])
        span = self.node.span if self.node is not None else None
        note = self.decl.note if self.decl is not None else None
        return Block("choice", self.p["choice"], span, cites, note)

    def candidates(self) -> dict[str, tuple]:
        """lower-case text → (text, values) of every candidate, legal or forbidden."""
        if self._candidates is None:
            found: dict[str, tuple] = {}
            for text, values in zip(self.p["options"], self.p["values"]):
                found[text.lower()] = (text, tuple(values))
            if self.spec is not None:
                g = self.ev.g
                g.memo = {}
                try:
                    for values in self.spec.enumerate(g, dict(self.locals)):
                        text = self.spec.text(values, g)
                        found.setdefault(text.lower(), (text, values))
                except GameError:
                    pass
                finally:
                    g.memo = None
            self._candidates = found
        return self._candidates

    # ------------------------------------------------------------ restrictions
    def clauses(self):
        """(restriction, forbid clause, card carrying it or None) on this choice, in the order play tests them."""
        cards = {c.key: c for c in self.w.cards}
        for decl in self.w.program.all("restriction"):
            for f in decl.forbids:
                if f.choice.text == self.p["choice"]:
                    yield decl, f, cards.get(decl.owner) if decl.owner else None

    def restriction_reasons(self, values: tuple) -> list[Reason]:
        self.ev.g.work_left = self.ev.g.max_work  # each option's walk gets the work play gives one decision
        reasons = []
        for decl, f, card in self.clauses():
            if card is not None and not self.ev.g.card_in_play(card.index):
                continue  # a card's restriction holds only while the card is in play
            bound = dict(zip((v.text for v in f.vars), values))
            if card is not None:
                bound["this_card"] = card
            block = Block.of(decl)
            parts = []
            forbids = True
            if f.when is not None:
                when = self.ev.explain(f.when, bound, block)
                parts.append(("when", when))
                forbids = bool(when.value) and when.error is None
            if forbids and f.unless is not None:
                unless = self.ev.explain(f.unless, bound, block)
                parts.append(("unless", unless))
                forbids = not unless.value and unless.error is None
            reasons.append(Reason(block, "restriction", f.span, forbids, parts))
        return reasons

    # ------------------------------------------------------------ the domain
    def domain_filter(self, values: tuple) -> Reason | None:
        """The choice's `where`, walked for these values."""
        if self.node is None or self.node.where is None:
            return None
        bound = {**self.locals, **dict(zip((v.text for v in self.node.vars), values))}
        self.ev.g.work_left = self.ev.g.max_work
        finding = self.ev.explain(self.node.where, bound, self.choice_block)
        return Reason(self.choice_block, "filter", self.node.where.span, not finding.value, [("where", finding)])

    def unfiltered(self, widen: int | None = None):
        """(values, text) of the candidates without the `where`; with
        `widen`, the i-th source replaced by every thing of its type."""
        node, g = self.node, self.ev.g
        if node is None:
            return
        g.work_left = g.max_work
        var_order = [v.text for v in node.vars]
        count = 0

        def walk(i: int, bound: dict):
            nonlocal count
            if i == len(node.bindings):
                values = tuple(bound.get(v) for v in var_order)
                try:
                    yield values, self.spec.text(values, g)
                except (GameError, AttributeError, KeyError, TypeError):
                    return
                return
            b = node.bindings[i]
            try:
                items = self._universe(b.var.text) if i == widen else \
                    list(B.iterate(g, self.ev.run(b.source, bound)))
            except GameError:
                return
            for item in items or []:
                count += 1
                if count > MAX_TEXTS:
                    return
                yield from walk(i + 1, {**bound, b.var.text: item})

        yield from walk(0, dict(self.locals))

    def _universe(self, var: str) -> list:
        """Every thing of the type of the choice's parameter bound to `var`."""
        if self.decl is None or self.node is None:
            return []
        names = [v.text for v in self.node.vars]
        if var not in names or names.index(var) >= len(self.decl.params):
            return []
        param = self.decl.params[names.index(var)]
        if param.type is None:
            return []
        kind = param.type.text
        if kind == "unit":
            return list(self.w.units)
        if kind == "card":
            return list(self.w.cards)
        return list(self.w.by_kind.get(kind, {}).values())


_CHOOSE_INDEX: dict[int, tuple] = {}


def _span_key(span) -> tuple:
    return (span.file, span.line, span.col) if span is not None else ()


def _choose_nodes(world) -> dict:
    """Every `choose` statement of the world's program, by where it is written."""
    cached = _CHOOSE_INDEX.get(id(world))
    if cached is not None and cached[0] is world:
        return cached[1]
    index: dict = {}
    seen: set[int] = set()

    def walk(obj):
        if isinstance(obj, (list, tuple)):
            for x in obj:
                walk(x)
        elif isinstance(obj, dict):
            for x in obj.values():
                walk(x)
        elif hasattr(obj, "__attrs_attrs__") and not isinstance(obj, (A.Expr, A.Span, A.Name)):
            if id(obj) in seen:
                return
            seen.add(id(obj))
            if isinstance(obj, A.Choose):
                index[_span_key(obj.span)] = obj
            for a in obj.__attrs_attrs__:
                walk(getattr(obj, a.name))

    for decls in world.program.decls.values():
        walk(decls)
    _CHOOSE_INDEX[id(world)] = (world, index)
    return index


# ============================================================ the API
def explain_option(game, text: str, viewer: str | None = None) -> Explanation:
    """Why TEXT (an option of the pending decision, matched as answers are:
    the whole text in any case, a unique beginning, or its number among the
    legal options) is legal, forbidden or not offered.  `viewer`: the side
    (key) the explanation is for; the values it shows are that side's view
    (a card in another side's hand or draw pile is a hidden card).  None:
    the whole game, as for a save a rules lawyer reads."""
    asked = " ".join(str(text).split())
    if game.s["pending"] is None:
        return Explanation(asked, "no decision", headline="there is no decision now: the game is over"
                           if game.over else "there is no decision now")
    d = _Decision(game, viewer)
    p = d.p
    base = dict(choice=p["choice"], by=p["by"])
    if asked.isdigit() and 1 <= int(asked) <= len(p["options"]):
        asked = p["options"][int(asked) - 1]
    key = asked.lower()
    candidates = d.candidates()
    if key not in candidates and key not in d.legal:
        starts = sorted({k for k in set(candidates) | set(d.legal) if k.startswith(key)}) if key else []
        if len(starts) > 1:
            shown = " | ".join(candidates.get(k, (d.legal.get(k),))[0] for k in starts[:12])
            return Explanation(asked, "unknown", headline=f"'{_cut(asked)}' is the beginning of several options: {shown}",
                               suggestions=[candidates.get(k, (d.legal.get(k),))[0] for k in starts], **base)
        if starts:
            key = starts[0]
    if key in d.legal and (key not in candidates or _is_pass(d, key)):
        shown = d.legal[key]
        return Explanation(asked, "legal", shown=shown, headline=f"'{shown}' is legal now (the choice may be "
                           "passed: it is its optional answer)" if _is_pass(d, key) else f"'{shown}' is legal now",
                           **base)
    if key in candidates:
        shown, values = candidates[key]
        reasons = d.restriction_reasons(values)
        if key in d.legal:
            return Explanation(asked, "legal", shown=shown, headline=_legal_headline(shown, reasons),
                               reasons=reasons, **base)
        forbidding = [r for r in reasons if r.decides]
        return Explanation(asked, "forbidden", shown=shown, headline=_forbidden_headline(asked, shown, forbidding),
                           reasons=forbidding or reasons, **base)
    return _not_offered(d, asked, base)


def forbidden_options(game, viewer: str | None = None) -> list[Explanation]:
    """Every option of the pending decision that a restriction forbids, each
    with its reasons, in the order the choice lists its candidates (`viewer`
    as for explain_option)."""
    if game.s["pending"] is None:
        return []
    d = _Decision(game, viewer)
    out = []
    for key, (shown, values) in d.candidates().items():
        if key in d.legal:
            continue
        forbidding = [r for r in d.restriction_reasons(values) if r.decides]
        out.append(Explanation(shown, "forbidden", choice=d.p["choice"], by=d.p["by"], shown=shown,
                               headline=_forbidden_headline(shown, shown, forbidding), reasons=forbidding))
    return out


def _cut(text: str, width: int = 80) -> str:
    """A text the user typed, as messages repeat it: cut short when long."""
    return text if len(text) <= width else text[:width - 1] + "…"


def _is_pass(d: _Decision, key: str) -> bool:
    spec = d.spec
    return spec is not None and spec.optional and key == spec.optional_label.lower()


def _legal_headline(shown: str, reasons: list[Reason]) -> str:
    if not reasons:
        return f"'{shown}' is legal now (no restriction applies to this choice)"
    names = sorted({r.block.name for r in reasons})
    return f"'{shown}' is legal now: no restriction forbids it ({len(names)} tested: {', '.join(names)})"


def _forbidden_headline(asked: str, shown: str, forbidding: list[Reason]) -> str:
    """As the game words a refusal (Game._forbidden_error): names, rules, notes."""
    said = f"'{shown}'" if shown.lower() == asked.lower() else f"'{_cut(asked)}' ({shown})"
    if not forbidding:
        return f"{said} is not legal now"
    names = ", ".join(dict.fromkeys(r.block.name for r in forbidding))
    rules = ", ".join(dict.fromkeys(n for r in forbidding for n in r.block.rules)) or "?"
    message = f"{said} is forbidden by {names} (rule {rules})"
    notes = list(dict.fromkeys(r.block.note for r in forbidding if r.block.note))
    return message + (": " + " ".join(notes) if notes else "")


def _not_offered(d: _Decision, asked: str, base: dict) -> Explanation:
    """An option outside the choice's domain: left out by its `where`, or
    by a `for … in` source (tried with that source widened to every thing of
    its type); else it names no option, and the nearest are suggested."""
    key = asked.lower()
    candidates = d.candidates()
    left_out: dict[str, tuple] = {}
    if d.node is not None and d.node.where is not None:
        for values, text in d.unfiltered():
            if text.lower() not in candidates:
                left_out.setdefault(text.lower(), (text, None, values))
    if d.node is not None:
        for i in range(len(d.node.bindings)):
            for values, text in d.unfiltered(widen=i):
                if text.lower() not in candidates:
                    left_out.setdefault(text.lower(), (text, i, values))
    starts = [key] if key in left_out else [k for k in left_out if k.startswith(key)] if key else []
    if len(starts) > 1:
        shown = [left_out[k][0] for k in starts]
        return Explanation(asked, "unknown", headline=f"'{_cut(asked)}' is the beginning of several options left out: "
                           + " | ".join(shown[:12]) + (" | …" if len(shown) > 12 else ""),
                           suggestions=shown, **base)
    if starts:
        text, source, values = left_out[starts[0]]
        if source is None:
            reason = d.domain_filter(values)
            head = (f"'{text}' is not offered: the choice's `where` ({d.p['choice']}, "
                    f"{d.node.where.span.location}) leaves it out")
        else:
            reason = _source_reason(d, source, values)
            head = f"'{text}' is not offered: {reason.said}"
        return Explanation(asked, "not offered", shown=text, headline=head, reasons=[reason], **base)
    near = _nearest(asked, [t for t, _ in candidates.values()] + [t for t, _, _ in left_out.values()])
    head = (f"'{_cut(asked)}' is not an option of this decision ({d.p['choice']}), legal or forbidden, nor one its "
            "domain leaves out")
    if near:
        head += "; did you mean " + " or ".join(f"'{t}'" for t in near) + "?"
    return Explanation(asked, "unknown", headline=head, suggestions=near, **base)


def _nearest(asked: str, texts: list[str]) -> list[str]:
    """The options closest to a misspelt one (legal ones first among equals)."""
    lowered = {t.lower(): t for t in texts}
    return [lowered[t] for t in difflib.get_close_matches(asked.lower(), list(lowered), n=3, cutoff=0.6)]


def _source_reason(d: _Decision, i: int, values: tuple) -> Reason:
    """Why the value of the i-th `for … in` source is not among its items:
    the source's text and items, and when the source is a list built with a
    `where`, that `where` walked for the value."""
    b = d.node.bindings[i]
    var = b.var.text
    value = values[[v.text for v in d.node.vars].index(var)]
    bound = dict(d.locals)
    for earlier in d.node.bindings[:i]:
        bound[earlier.var.text] = values[[v.text for v in d.node.vars].index(earlier.var.text)]
    source = b.source
    try:
        while isinstance(source, A.CondExpr):  # the branch the source takes here
            source = source.then if d.ev.run(source.cond, bound) else source.otherwise
        items = d.ev.run(source, bound)
    except GameError as err:
        items = f"(cannot be worked out: {err})"
    said = f"{var} = {show(value)} is not in `{unparse(source)}`, which is {show(d.ev.seen(items))} here"
    parts = []
    comprehension, scope, block = _built_list(d, source, bound)
    if comprehension is not None:
        var_name = comprehension.var.text
        finding = d.ev.explain(comprehension.where, {**scope, var_name: value}, block)
        parts.append((f"where ({var_name} = {show(value)})", finding))
    return Reason(d.choice_block, "source", b.source.span, True, parts, said)


def _built_list(d: _Decision, source: A.Expr, bound: dict, depth: int = 0):
    """When a source is a list built with a `where` (`[s for s in xs where
    c]`), written there or as a value's expression (`activatable_spaces(p)`):
    the comprehension, the names bound where it is written, and its block."""
    block = d.choice_block
    while depth < 8:
        if isinstance(source, A.ListComp):
            plain_item = isinstance(source.item, A.Ref) and source.item.name.text == source.var.text
            return (source, bound, block) if plain_item and source.where is not None else (None, None, None)
        called = d.ev._value_called(source, bound)
        if called is None:
            break
        decl, _, args = called
        bound = dict(zip((p.name.text for p in decl.params), args))
        source, block, depth = decl.expr, Block.of(decl), depth + 1
    return None, None, None
