"""Scenarios and variants: `extends`, then `replace`, `add` and `remove`.

A scenario's effective program is its base library with the overrides of every
scenario in its `extends` chain applied, root first.  Each override must name
something that exists (`replace`, `remove`) or must not exist yet (`add`), and
removing a thing that other definitions still use is reported at the `remove`.
"""

from __future__ import annotations

import attrs

from ..diagnostics import Reporter, did_you_mean
from ..syntax import ast as A
from .model import DECL_KINDS, KIND_ALIASES, Program


def extends_chain(program: Program, scenario: A.ScenarioDecl, reporter: Reporter) -> list[A.ScenarioDecl] | None:
    """The scenarios from the root of the `extends` chain down to `scenario`;
    None (with an error) when a name is unknown or the chain is a cycle."""
    chain = [scenario]
    seen = {scenario.key}
    current = scenario
    while current.extends is not None:
        parent = program.decls["scenario"].get(current.extends.text)
        if parent is None:
            reporter.error("E0216", f"unknown scenario '{current.extends.text}'", current.extends.span,
                           did_you_mean(current.extends.text, program.decls["scenario"]))
            return None
        if parent.key in seen:
            members = [s.key for s in chain[chain.index(parent):]] if parent in chain else [s.key for s in chain]
            # Report a cycle once, from the member whose name sorts first.
            if scenario.key == min(members):
                cycle = " → ".join([s.key for s in chain] + [parent.key])
                reporter.error("E0503", f"scenarios extend each other in a cycle: {cycle}", current.extends.span,
                               "a scenario may extend one that does not, in the end, extend it back")
            return None
        seen.add(parent.key)
        chain.append(parent)
        current = parent
    return list(reversed(chain))


def _owned(program: Program, card_key: str):
    return [(d.kind, d.key) for d in getattr(program.decls["card"].get(card_key), "nested", [])]


ORIGINAL = "original"
# What a replacement may call the declaration it replaces from: a procedure
# or a phase (`call original(...)`), a value (`original`, or `original(...)`
# with other arguments).
_KEEPS_ORIGINAL = ("procedure", "phase", "value")


def _uses_original(node) -> bool:
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, (list, tuple)):
            stack.extend(n)
        elif isinstance(n, A.CallStmt) and n.proc.text == ORIGINAL:
            return True
        elif isinstance(n, A.Ref) and n.name.text == ORIGINAL:
            return True
        elif isinstance(n, A.Call) and n.func.text == ORIGINAL:
            return True
        elif attrs.has(type(n)) and not isinstance(n, (A.Span, A.Name, A.Citation)):
            stack.extend(getattr(n, f.name) for f in attrs.fields(type(n)))
    return False


def _renamed_original(node, hidden: str, params: list[A.Param]):
    """A copy of `node` in which `original` names `hidden` (the copy of the
    replaced declaration); nodes without it are shared, not copied."""
    if isinstance(node, list):
        items = [_renamed_original(n, hidden, params) for n in node]
        return items if any(a is not b for a, b in zip(items, node)) else node
    if isinstance(node, tuple):
        items = tuple(_renamed_original(n, hidden, params) for n in node)
        return items if any(a is not b for a, b in zip(items, node)) else node
    if isinstance(node, A.CallStmt) and node.proc.text == ORIGINAL:
        return attrs.evolve(node, proc=A.Name(hidden, node.proc.span),
                            args=_renamed_original(node.args, hidden, params))
    if isinstance(node, A.Ref) and node.name.text == ORIGINAL:  # a value's: with the same arguments
        return A.Call(node.span, A.Name(hidden, node.name.span),
                      [A.Ref(node.span, A.Name(p.name.text, node.span)) for p in params])
    if isinstance(node, A.Call) and node.func.text == ORIGINAL:
        return attrs.evolve(node, func=A.Name(hidden, node.func.span),
                            args=_renamed_original(node.args, hidden, params))
    if not attrs.has(type(node)) or isinstance(node, (A.Span, A.Name, A.Citation)):
        return node
    changes = {}
    for f in attrs.fields(type(node)):
        v = getattr(node, f.name)
        new = _renamed_original(v, hidden, params)
        if new is not v:
            changes[f.name] = new
    return attrs.evolve(node, **changes) if changes else node


def _keep_original(program: Program, old: A.Decl, new: A.Decl) -> A.Decl:
    """`replace` of a procedure, phase or value whose body uses `original`:
    the replaced declaration is kept under a name no source writes
    (`NAME__original`, then `NAME__original2` ...) and `original` in the new
    one names it.  A replaced phase is kept as a procedure of no parameters."""
    if new.kind not in _KEEPS_ORIGINAL or not _uses_original(getattr(new, "body", None) or getattr(new, "expr", None)):
        return new
    kind = "value" if old.kind == "value" else "procedure"
    table = program.decls[kind]
    hidden, n = f"{old.key}__{ORIGINAL}", 1
    while hidden in table:
        n += 1
        hidden = f"{old.key}__{ORIGINAL}{n}"
    if old.kind == "phase":
        kept = A.ProcedureDecl(old.span, A.Name(hidden, old.name.span), cites=old.cites, note=old.note,
                               body=old.body)
    else:
        kept = attrs.evolve(old, name=A.Name(hidden, old.name.span))
    table[hidden] = kept
    params = getattr(new, "params", [])
    if new.kind == "value":
        return attrs.evolve(new, expr=_renamed_original(new.expr, hidden, params))
    return attrs.evolve(new, body=_renamed_original(new.body, hidden, params))


def _cites_rule(decl: A.Decl, number: str) -> bool:
    return any(c.number == number or c.number.startswith(number + ".") for c in decl.cites)


def apply_override(program: Program, scenario: A.ScenarioDecl, o: A.Override, reporter: Reporter,
                   changes: list[tuple[str, str, str, A.Span]]) -> None:
    if o.action in ("replace", "add"):
        decl = o.decl
        table = program.decls[decl.kind]
        exists = decl.key in table
        if o.action == "replace" and not exists:
            reporter.error("E0501", f"`replace` names {decl.kind} '{decl.key}', which does not exist",
                           decl.name.span, did_you_mean(decl.key, table) or "use `add` for something new")
            return
        if o.action == "add" and exists:
            reporter.error("E0502", f"`add` names {decl.kind} '{decl.key}', which already exists",
                           decl.name.span, notes=[("defined here", table[decl.key].name.span)],
                           hint="use `replace` to change it")
            return
        if o.action == "replace" and decl.kind == "card":
            for kind, key in _owned(program, decl.key):
                program.decls[kind].pop(key, None)
        if o.action == "replace":
            decl = _keep_original(program, table[decl.key], decl)
        table[decl.key] = decl
        if isinstance(decl, A.CardDecl):
            for nested in decl.nested:
                program.decls[nested.kind][nested.key] = nested
        changes.append((o.action, decl.kind, decl.key, o.span))
        return
    if o.action == "remove":
        kind_text = o.target_kind.text
        kind = KIND_ALIASES.get(kind_text, kind_text)
        removable = [k for k in DECL_KINDS if k not in ("scenario", "rulebook")]
        if kind in ("scenario", "rulebook"):
            reporter.error("E0214", f"a scenario cannot remove a {kind}", o.target_kind.span,
                           f"what can be removed: {', '.join(removable)}")
            return
        if kind not in DECL_KINDS:
            reporter.error("E0214", f"'{kind_text}' is not a kind of definition", o.target_kind.span,
                           did_you_mean(kind_text, removable) or f"what can be removed: {', '.join(removable)}")
            return
        table = program.decls[kind]
        key = o.target
        if key not in table and kind == "card":
            card = program.card_by_name(key)
            key = card.key if card else key
        if key not in table:
            pool = list(table) + ([c.name.text for c in table.values()] if kind == "card" else [])
            reporter.error("E0501", f"`remove` names {kind} '{o.target}', which does not exist", o.target_span,
                           did_you_mean(o.target, pool))
            return
        if kind == "card":
            for nested_kind, nested_key in _owned(program, key):
                program.decls[nested_kind].pop(nested_key, None)
        del table[key]
        changes.append(("remove", kind, key, o.span))
        return
    # remove cites N: everything that implements that rule (or one under it).
    number = o.rule.number
    removed = 0
    for kind in ("procedure", "phase", "restriction", "modifier", "trigger", "value", "table"):
        for key, decl in list(program.decls[kind].items()):
            if _cites_rule(decl, number):
                del program.decls[kind][key]
                changes.append(("remove", kind, key, o.span))
                removed += 1
    if not removed:
        reporter.error("E0501", f"nothing that can be removed cites rule {number}", o.rule.span,
                       "`remove cites N` removes procedures, phases, restrictions, modifiers, triggers, "
                       "values and tables citing N or a rule under it")


def _segments(block: A.Block | None):
    """Every `segment` of a body, nested ones too, in source order."""
    if block is None:
        return
    for s in block.body:
        if isinstance(s, A.Segment):
            yield s
        for inner in _inner_blocks(s):
            yield from _segments(inner)


def _inner_blocks(s: A.Stmt) -> list[A.Block]:
    if isinstance(s, A.If):
        return [b for _, b in s.branches] + ([s.otherwise] if s.otherwise is not None else [])
    if isinstance(s, (A.Segment, A.For, A.Repeat, A.While)):
        return [s.body]
    return []


def _with_inserted(block: A.Block, anchor: str, position: str, stmts: list[A.Stmt]) -> A.Block | None:
    """A copy of `block` with `stmts` before or after its segment `anchor`
    (copied only along the way to it: the base's blocks are shared), or None
    when it holds no such segment."""
    for i, s in enumerate(block.body):
        if isinstance(s, A.Segment) and s.name.text == anchor:
            at = i if position == "before" else i + 1
            return attrs.evolve(block, body=block.body[:at] + stmts + block.body[at:])
        for inner in _inner_blocks(s):
            new = _with_inserted(inner, anchor, position, stmts)
            if new is None:
                continue
            if isinstance(s, A.If):
                copy = attrs.evolve(s, branches=[(c, new if b is inner else b) for c, b in s.branches],
                                    otherwise=new if s.otherwise is inner else s.otherwise)
            else:
                copy = attrs.evolve(s, body=new)
            return attrs.evolve(block, body=block.body[:i] + [copy] + block.body[i + 1:])
    return None


def apply_insert(program: Program, o: A.Override, reporter: Reporter, changes: list) -> tuple[str, str] | None:
    """`insert phase P before|after Q in SEQ` and `insert into KIND NAME
    before|after SEGMENT { ... }` (or `at start` / `at end`): the target
    (kind, key) changed, or None after an error."""
    anchor, position = o.anchor.text, o.position
    if position == "at" and anchor not in ("start", "end"):
        reporter.error("E0520", f"`at {anchor}`: an insertion goes `at start` or `at end`", o.anchor.span,
                       "or `before NAME` / `after NAME`")
        return None
    if o.action == "insert_phase":
        seqs = program.decls["sequence"]
        seq = seqs.get(o.into.text)
        if seq is None:
            reporter.error("E0219", f"unknown sequence '{o.into.text}'", o.into.span, did_you_mean(o.into.text, seqs))
            return None
        phases = program.decls["phase"]
        if o.target not in phases:
            reporter.error("E0210", f"unknown phase '{o.target}'", o.target_span,
                           did_you_mean(o.target, phases) or "declare it first: `add phase NAME cites N { ... }`")
            return None
        names = [p.text for p in seq.phases]
        if o.target in names:
            reporter.error("E0521", f"phase '{o.target}' is already in sequence '{seq.key}'", o.target_span,
                           "a phase runs once per turn: insert it once, or remove it first",
                           notes=[("it is listed here", seq.phases[names.index(o.target)].span)])
            return None
        new_name = A.Name(o.target, o.target_span)
        if position == "at":
            at = 0 if anchor == "start" else len(names)
        elif anchor not in names:
            reporter.error("E0520", f"sequence '{seq.key}' has no phase '{anchor}'", o.anchor.span,
                           did_you_mean(anchor, names) or f"its phases: {', '.join(names)}")
            return None
        else:
            at = names.index(anchor) + (position == "after")
        seqs[seq.key] = attrs.evolve(seq, phases=seq.phases[:at] + [new_name] + seq.phases[at:])
        changes.append(("insert", "sequence", seq.key, o.span))
        return ("sequence", seq.key)
    kind_text = o.target_kind.text
    if kind_text not in ("procedure", "phase"):
        reporter.error("E0214", f"statements are inserted into a procedure or a phase, not a '{kind_text}'",
                       o.target_kind.span, "write `insert into procedure NAME ...` or `insert into phase NAME ...`")
        return None
    table = program.decls[kind_text]
    decl = table.get(o.target)
    if decl is None:
        reporter.error("E0205" if kind_text == "procedure" else "E0210", f"unknown {kind_text} '{o.target}'",
                       o.target_span, did_you_mean(o.target, table))
        return None
    stmts = list(o.body.body)
    if o.cites:  # the insertion's own rule: on the inserted statements, as a segment's would be
        stmts = [A.Segment(o.body.span, A.Name("inserted", o.span), list(o.cites), o.body)]
    own = {s.name.text: s for s in _segments(decl.body)}
    for s in _segments(o.body):
        if s.name.text in own:
            reporter.error("E0521", f"{kind_text} '{decl.key}' already has a segment '{s.name.text}'", s.name.span,
                           "give the inserted segment a name of its own (is it inserted twice?)",
                           notes=[("that segment is here", own[s.name.text].name.span)])
            return None
    body = decl.body or A.Block(decl.span, None, [])
    if position == "at":
        new = attrs.evolve(body, body=stmts + body.body if anchor == "start" else body.body + stmts)
    else:
        new = _with_inserted(body, anchor, position, stmts)
        if new is None:
            names = list(own)
            reporter.error("E0520", f"{kind_text} '{decl.key}' has no segment '{anchor}'", o.anchor.span,
                           did_you_mean(anchor, names) or (f"its segments: {', '.join(names)}" if names else
                                                           f"name a point of it with `segment NAME {{ ... }}`, "
                                                           "or insert `at start` / `at end`"))
            return None
    table[decl.key] = attrs.evolve(decl, body=new)
    changes.append(("insert", kind_text, decl.key, o.span))
    return (kind_text, decl.key)


def _undoes(o: A.Override, inserted: dict) -> tuple | None:
    """The insertion a later `remove` or `replace` in the same scenario would lose."""
    if o.action == "replace" and o.decl is not None:
        key = (o.decl.kind, o.decl.key)
    elif o.action == "remove" and o.target_kind is not None:
        kind = KIND_ALIASES.get(o.target_kind.text, o.target_kind.text)
        key = (kind, o.target)
    else:
        return None
    found = inserted.get(key)
    if found is None and key[0] == "phase":  # removing a phase an insertion put into a sequence
        found = next((ins for (k, _), ins in inserted.items() if ins.action == "insert_phase"
                      and ins.target == key[1]), None)
    return (key, found) if found is not None else None


def effective_program(base: Program, scenario: A.ScenarioDecl, reporter: Reporter) -> tuple[Program, list]:
    """The program a scenario plays, with the list of what its variants changed."""
    program = base.derived()
    program.scenario = scenario
    changes: list[tuple[str, str, str, A.Span]] = []
    chain = extends_chain(base, scenario, reporter)
    if chain is None:
        return program, changes
    for link in chain:
        inserted: dict[tuple[str, str], A.Override] = {}
        for o in link.overrides:
            if o.action in ("insert_phase", "insert_steps"):
                target = apply_insert(program, o, reporter, changes)
                if target is not None:
                    inserted.setdefault(target, o)
                continue
            lost = _undoes(o, inserted)
            if lost is not None:
                what = "removes" if o.action == "remove" else "replaces"
                reporter.error("E0522", f"this {what} {lost[0][0]} '{lost[0][1]}', into which the scenario inserts",
                               o.span, "the insertion would be lost: drop it, or write it into the replacement "
                               "(or put the `replace` before the `insert`)",
                               notes=[("inserted here", lost[1].span)])
            apply_override(program, link, o, reporter, changes)
    # The scenario's own settings fall back on its ancestors'.
    merged = A.ScenarioDecl(scenario.span, scenario.name, cites=scenario.cites, note=scenario.note,
                            title=scenario.title, extends=scenario.extends)
    for link in chain:
        if link.turns:
            merged.turns, merged.turns_span, merged.turns_cites = link.turns, link.turns_span, link.turns_cites
        merged.sequence = link.sequence or merged.sequence
        merged.limits = {**merged.limits, **link.limits}
        merged.results = [r for r in merged.results if r.name.text not in {x.name.text for x in link.results}]
        merged.results.extend(link.results)
        merged.options = [o for o in merged.options if o.name.text not in {x.name.text for x in link.options}]
        merged.options.extend(link.options)
        merged.setup.extend(link.setup)
        merged.setup_cites.extend(link.setup_cites)
        merged.overrides.extend(link.overrides)
    program.scenario = merged
    return program, changes
