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
from .model import DECL_KINDS, KIND_ALIASES, Program, clone_decl

# What `edit KIND TARGET [no] ATTRIBUTE VALUE*` can change, by kind: the
# attribute as written, the field of the declaration it sets, and the values it
# takes ("flag": none; "name", "int", "factors": one; "at": two numbers;
# "names": one or more names; "rp": name-number pairs; "port": one name, added
# or, after `no`, taken away).  `no` turns a flag off, a number to 0 and a name
# to none.
EDITABLE: dict[str, dict[str, tuple[str, str]]] = {
    "space": {"terrain": ("terrain", "name"), "nation": ("nation", "name"), "map": ("map", "name"),
              "vp": ("vp", "flag"), "fort": ("fort", "int"), "capital": ("capital", "flag"),
              "supply": ("supply", "supply"), "port": ("ports", "port"), "control": ("control", "name"),
              "at": ("at", "at")},
    "unit": {"type": ("unit_type", "name"), "nation": ("nation", "name"), "full": ("full", "factors"),
             "reduced": ("reduced", "factors"), "count": ("count", "int"), "rp": ("rp", "name"),
             "never_replaced": ("never_replaced", "flag"), "near_east": ("near_east", "flag")},
    "card": {"deck": ("deck", "name"), "ops": ("ops", "int"), "sr": ("sr", "int"),
             "war_status": ("war_status", "int"), "removed": ("removed", "flag"), "combat": ("combat", "flag"),
             "optional": ("optional", "flag"), "rp": ("rp", "rp"), "reinforcements": ("reinforcements", "names")},
    "term": {"weight": ("weight", "int")},
}
# What `no ATTRIBUTE` may turn off (the others always have a value).
_NEGATABLE = {"flag", "supply", "port", "rp", "names"}
_NEGATABLE_FIELDS = {("space", "fort"), ("space", "control"), ("unit", "rp"), ("unit", "reduced")}
_TAKES = {"flag": "no value", "name": "one name", "int": "one number", "factors": "combat factors like 4-3-3",
          "at": "two numbers (x y)", "names": "one or more names", "rp": "pairs of a nation and a number",
          "port": "the side whose port it is", "supply": "nothing, or the side or nation it supplies"}


# The longest chain of `extends` (the project's longest is 3): each scenario
# is merged from its whole chain, so checking a chain of thousands, each
# extending the one before, took minutes.
MAX_EXTENDS = 32


def extends_chain(program: Program, scenario: A.ScenarioDecl, reporter: Reporter) -> list[A.ScenarioDecl] | None:
    """The scenarios from the root of the `extends` chain down to `scenario`;
    None (with an error) when a name is unknown, the chain is a cycle or
    longer than MAX_EXTENDS."""
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
        if len(chain) > MAX_EXTENDS:
            reporter.error("E0503", f"scenario '{scenario.key}' extends a chain of more than {MAX_EXTENDS} "
                           "scenarios", scenario.extends.span,
                           "each scenario of the chain is merged into every one below it: extend a scenario "
                           "nearer the root, or gather the edits into fewer scenarios")
            return None
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


def _edit_values(o: A.Override, takes: str, reporter: Reporter):
    """The value an edit gives its field (or `_BAD` after an error)."""
    vals = o.values
    names = [v for v in vals if isinstance(v, A.Name)]
    numbers = [v for v in vals if isinstance(v, tuple) and isinstance(v[0], int)]
    factors = [v for v in vals if isinstance(v, tuple) and isinstance(v[0], tuple)]
    fits = {
        "flag": not vals,
        "name": len(vals) == 1 and len(names) == 1,
        "int": len(vals) == 1 and len(numbers) == 1,
        "factors": len(vals) == 1 and len(factors) == 1,
        "at": len(vals) == 2 and len(numbers) == 2,
        "names": len(vals) >= 1 and len(names) == len(vals),
        "rp": len(vals) >= 2 and len(vals) % 2 == 0 and all(isinstance(vals[i], A.Name) for i in range(0, len(vals), 2))
        and all(isinstance(vals[i], tuple) and isinstance(vals[i][0], int) for i in range(1, len(vals), 2)),
        "port": len(vals) == 1 and len(names) == 1,
        "supply": len(vals) <= 1 and len(names) == len(vals),
    }[takes]
    if o.negated and takes != "port":
        fits = not vals
    if not fits:
        where = vals[0].span if vals and isinstance(vals[0], A.Name) else vals[0][1] if vals else o.attribute.span
        written = "`no " + o.attribute.text + "`" if o.negated else f"`{o.attribute.text}`"
        wants = "no value" if o.negated and takes != "port" else _TAKES[takes]
        reporter.error("E0511", f"{written} takes {wants}", where,
                       f"for example: edit {o.target_kind.text} {o.target} {'no ' if o.negated else ''}"
                       f"{_example(o.attribute.text, takes)}")
        return _BAD
    if takes == "flag":
        return not o.negated
    if takes in ("name", "port"):
        return names[0]
    if takes in ("int", "factors"):
        return vals[0][0]
    if takes == "at":
        return (vals[0][0], vals[1][0])
    if takes == "names":
        return names
    if takes == "rp":
        return [(vals[i], vals[i + 1][0]) for i in range(0, len(vals), 2)]
    return names[0] if names else None  # supply


_BAD = object()


def _example(attribute: str, takes: str) -> str:
    return attribute + {"flag": "", "name": " NAME", "int": " 2", "factors": " 4-3-3", "at": " 100 200",
                        "names": " NAME NAME", "rp": " ge 1", "port": " ap", "supply": ""}[takes]


def _find(program: Program, kind: str, target: str):
    table = program.decls[kind]
    if target in table:
        return target
    if kind == "card":
        card = program.card_by_name(target)
        return card.key if card else None
    return None


def _edited_part(decl, field: str, takes: str):
    return (decl.supply, decl.supply_for) if takes == "supply" else getattr(decl, field)


def _plain(value):
    """A declaration's attribute without its source places, to compare two."""
    if isinstance(value, A.Name):
        return value.text
    if isinstance(value, (list, tuple)):
        return tuple(_plain(v) for v in value)
    return value


def apply_edit(program: Program, o: A.Override, reporter: Reporter, changes: list,
               edited: dict) -> None:
    """`edit KIND TARGET [no] ATTRIBUTE VALUE*`: the declaration again with one
    attribute changed (a copy: the base program keeps its own)."""
    kind = o.target_kind.text
    if kind not in EDITABLE:
        guess = did_you_mean(kind, list(EDITABLE))
        reporter.error("E0511", f"`edit` changes a space, a unit, a card or a term, not a '{kind}'",
                       o.target_kind.span,
                       (guess + "; " if guess else "") + "to change anything else, `replace` it whole")
        return
    if kind == "card" and o.target not in program.decls["card"]:
        twins = [c for c in program.decls["card"].values() if c.name.text == o.target]
        if len(twins) > 1:
            listed = " and ".join(f"{c.side.text.upper() if c.side else '?'} {c.number}" for c in twins)
            reporter.error("E0223", f"'{o.target}' is the name of {len(twins)} cards ({listed}): it cannot say "
                                    "which one", o.target_span,
                           f"name the card by side and number: edit card {twins[0].key} …")
            return
    key = _find(program, kind, o.target)
    if key is None:
        table = program.decls[kind]
        pool = list(table) + ([c.name.text for c in table.values()] if kind == "card" else [])
        reporter.error("E0501", f"`edit` names {kind} '{o.target}', which does not exist", o.target_span,
                       did_you_mean(o.target, pool) or f"use `add {kind} ...` for something new")
        return
    attr = o.attribute.text
    attrs = EDITABLE[kind]
    if attr not in attrs:
        others = [k for k, table in EDITABLE.items() if attr in table]
        if others:
            message = f"a {kind} has no attribute '{attr}' (it is one of a {others[0]}'s)"
        else:
            message = f"unknown attribute '{attr}' of a {kind}"
        reporter.error("E0511", message, o.attribute.span,
                       did_you_mean(attr, list(attrs)) or f"a {kind}'s attributes: {', '.join(attrs)}")
        return
    field, takes = attrs[attr]
    if o.negated and takes not in _NEGATABLE and (kind, field) not in _NEGATABLE_FIELDS:
        reporter.error("E0511", f"a {kind}'s {attr} cannot be turned off with `no`", o.attribute.span,
                       f"give it a value: edit {kind} {o.target} {_example(attr, takes)}")
        return
    # (`no ATTRIBUTE` takes no value, but for `no port SIDE`)
    value = _edit_values(o, "port" if takes == "port" else "flag" if o.negated else takes, reporter)
    if value is _BAD:
        return
    # One scenario changes one attribute once: `vp` and `no vp` (or two
    # different forts) in one place contradict each other.
    mark = (kind, key, attr, value.text if takes == "port" else None)
    first = edited.get(mark)
    if first is not None:
        reporter.error("E0512", f"{kind} '{key}': {attr} is edited twice here", o.attribute.span,
                       notes=[("first edited here", first.attribute.span)],
                       hint="keep one edit of each attribute (a scenario that extends this one may edit it again)")
        return
    edited[mark] = o
    decl = clone_decl(program.decls[kind][key])
    if o.negated:
        if takes == "port":
            ports = [p for p in decl.ports if p.text != value.text]
            if len(ports) == len(decl.ports):
                reporter.error("E0511", f"space '{key}' has no {value.text} port to take away", value.span,
                               "the ports it has: " + (", ".join(p.text for p in decl.ports) or "none"))
                return
            decl.ports = ports
        elif takes in ("flag", "supply"):
            setattr(decl, field, False)
            if takes == "supply":
                decl.supply_for = None
        elif takes in ("rp", "names") and kind == "card":
            setattr(decl, field, [])
        elif field == "fort":
            decl.fort = 0
        else:
            setattr(decl, field, None)
    elif takes == "port":
        if any(p.text == value.text for p in decl.ports):
            reporter.error("E0512", f"space '{key}' already has a {value.text} port", value.span)
            return
        decl.ports = [*decl.ports, value]
    elif takes == "supply":
        decl.supply, decl.supply_for = True, value
    else:
        setattr(decl, field, value)
    before = program.decls[kind][key]
    if _plain(_edited_part(before, field, takes)) == _plain(_edited_part(decl, field, takes)):
        now = _plain(getattr(decl, field))
        shown = "no " + attr if o.negated or now is False else attr if now is True else f"{attr} {now}"
        reporter.warning("W0516", f"this edit changes nothing: {kind} '{key}' already has {shown}", o.span,
                         "remove the edit, or check which declaration it was meant for")
    program.decls[kind][key] = decl
    program.edited_at[(kind, key)] = (o.span, o.cites)
    changes.append(("edit", kind, key, o.span))


def apply_extend_enum(program: Program, o: A.Override, reporter: Reporter, changes: list) -> None:
    """`extend enum NAME { member, ... }`: the enumeration with new members
    after its own (the base program keeps its own)."""
    enum = program.decls["enum"].get(o.target)
    if enum is None:
        reporter.error("E0501", f"`extend enum` names enum '{o.target}', which does not exist", o.target_span,
                       did_you_mean(o.target, program.decls["enum"]) or "declare a new one with `add` in a rule file")
        return
    added = []
    for m in o.values:
        if m.text in program.enum_members:
            owner, first = program.enum_members[m.text]
            reporter.error("E0502", f"enum member '{m.text}' already exists (in enum '{owner}')", m.span,
                           notes=[("defined here", first.span)], hint="an enum member's name is unique: pick another")
            continue
        program.enum_members[m.text] = (enum.key, m)
        added.append(m)
    if not added:
        return
    new = clone_decl(enum)
    new.members = [*enum.members, *added]
    program.decls["enum"][enum.key] = new
    program.edited_at[("enum", enum.key)] = (o.span, o.cites)  # (diff shows the extension, with its cites)
    changes.append(("extend", "enum", enum.key, o.span))


def apply_connection(program: Program, o: A.Override, reporter: Reporter, changes: list) -> None:
    """`add connections { A -- B }` (one override a line) and `remove connection A -- B`."""
    c = o.connection
    pair = frozenset((c.a.text, c.b.text))
    found = next((x for x in program.connections if frozenset((x.a.text, x.b.text)) == pair), None)
    label = f"{c.a.text} {'~~' if c.dotted else '--'} {c.b.text}"
    if o.action == "add_connection":
        if found is not None:
            reporter.error("E0502", f"`add` connects '{c.a.text}' and '{c.b.text}', which are connected already",
                           c.span, notes=[("connected here", found.span)],
                           hint="remove the connection first (`remove connection A -- B`) to change it")
            return
        program.connections = [*program.connections, c]
        changes.append(("add", "connection", label, o.span))
        return
    if found is None or found.dotted != c.dotted:
        what = "not connected" if found is None else \
            f"connected by a {'dotted (~~)' if found.dotted else 'solid (--)'} line"
        reporter.error("E0501", f"`remove connection` names '{label}', but they are {what}", c.span,
                       "name the two spaces of an existing connection, with its line (-- or ~~)")
        return
    program.connections = [x for x in program.connections if x is not found]
    changes.append(("remove", "connection", label, o.span))


def apply_override(program: Program, scenario: A.ScenarioDecl, o: A.Override, reporter: Reporter,
                   changes: list[tuple[str, str, str, A.Span]], edited: dict | None = None) -> None:
    if o.action == "edit":
        apply_edit(program, o, reporter, changes, {} if edited is None else edited)
        return
    if o.action in ("add_connection", "remove_connection"):
        apply_connection(program, o, reporter, changes)
        return
    if o.action == "extend_enum":
        apply_extend_enum(program, o, reporter, changes)
        return
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
        removable = [k for k in DECL_KINDS if k not in ("scenario", "ruleset", "rulebook")]
        if kind in ("scenario", "ruleset", "rulebook"):
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
        if o.cites:
            program.removed_at[(kind, key)] = (o.span, o.cites)
        changes.append(("remove", kind, key, o.span))
        return
    # remove cites N: everything that implements that rule (or one under it).
    number = o.rule.number
    removed = 0
    for kind in ("procedure", "phase", "restriction", "modifier", "trigger", "value", "term", "table"):
        for key, decl in list(program.decls[kind].items()):
            if _cites_rule(decl, number):
                del program.decls[kind][key]
                changes.append(("remove", kind, key, o.span))
                removed += 1
    if not removed:
        reporter.error("E0501", f"nothing that can be removed cites rule {number}", o.rule.span,
                       "`remove cites N` removes procedures, phases, restrictions, modifiers, triggers, "
                       "values, terms and tables citing N or a rule under it")


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
                                                           "name a point of it with `segment NAME { ... }`, "
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


def expand_uses(program: Program, link: A.ScenarioDecl, reporter: Reporter,
                seen: tuple = ()) -> list[A.ScenarioDecl]:
    """The rule sets a scenario (or rule set) `uses`, each before what uses it,
    then the scenario itself."""
    out: list[A.ScenarioDecl] = []
    for name in link.uses:
        ruleset = program.decls["ruleset"].get(name.text)
        if ruleset is None:
            reporter.error("E0513", f"unknown rule set '{name.text}'", name.span,
                           did_you_mean(name.text, program.decls["ruleset"])
                           or "a rule set is declared with `ruleset NAME \"title\" cites N { ... }`")
            continue
        if ruleset.key in seen or ruleset.key == link.key:
            reporter.error("E0503", f"rule set '{ruleset.key}' uses itself", name.span,
                           "a rule set may use others that do not, in the end, use it back")
            continue
        out.extend(expand_uses(program, ruleset, reporter, seen + (link.key,)))
    out.append(link)
    return out


def apply_setup_override(o: A.Override, blocks: list[A.SetupBlock], reporter: Reporter, changes: list) -> None:
    """`replace setup NAME { ... }` and `remove setup NAME`: a named set-up
    block of a scenario this one extends (or of a rule set it uses)."""
    at = next((i for i, b in enumerate(blocks) if b.name is not None and b.name.text == o.target), None)
    if at is None:
        named = [b.name.text for b in blocks if b.name is not None]
        reporter.error("E0501", f"`{'replace' if o.action == 'replace_setup' else 'remove'} setup` names set-up "
                                f"block '{o.target}', which does not exist", o.target_span,
                       did_you_mean(o.target, named)
                       or ("the named set-up blocks: " + ", ".join(named) if named
                           else "only a named block (`setup NAME cites N { ... }`) can be replaced or removed"))
        return
    if o.action == "replace_setup":
        blocks[at] = A.SetupBlock(o.span, A.Name(o.target, o.target_span), o.block, o.cites)
        changes.append(("replace", "setup", o.target, o.span))
    else:
        del blocks[at]
        changes.append(("remove", "setup", o.target, o.span))


def conditional_options(program: Program, scenario: A.ScenarioDecl) -> list[str]:
    """The options some `when option NAME { ... }` of the scenario's chain (or
    of a rule set it uses) depends on."""
    silent = Reporter()
    chain = extends_chain(program, scenario, silent) or []
    names: list[str] = []

    def walk(overrides):
        for o in overrides:
            if o.action == "when":
                if o.target not in names:
                    names.append(o.target)
                walk([v for k, v in o.items if k == "override"])

    for link in chain:
        for item in expand_uses(program, link, silent):
            walk(item.overrides)
    return names


def effective_program(base: Program, scenario: A.ScenarioDecl, reporter: Reporter,
                      options: dict | None = None) -> tuple[Program, list]:
    """The program a scenario plays, with the list of what its variants
    changed.  `options` (name → value) decide its `when option` blocks; an
    option not given is at its default."""
    program = base.derived()
    program.scenario = scenario
    if scenario.key not in program.decls["scenario"]:  # one composed on the command line (NAME+RULESET)
        program.decls["scenario"][scenario.key] = scenario
    changes: list[tuple[str, str, str, A.Span]] = []
    chain = extends_chain(base, scenario, reporter)
    if chain is None:
        return program, changes
    links = [item for link in chain for item in expand_uses(base, link, reporter)]
    # The scenario's own settings fall back on its ancestors' (and the rule
    # sets they use, each before its user).
    merged = A.ScenarioDecl(scenario.span, scenario.name, cites=scenario.cites, note=scenario.note,
                            title=scenario.title, extends=scenario.extends)
    blocks: list[A.SetupBlock] = []

    def add_block(b: A.SetupBlock) -> None:
        twin = next((x for x in blocks if b.name is not None and x.name is not None and x.name.text == b.name.text),
                    None)
        if twin is not None:
            reporter.error("E0502", f"set-up block '{b.name.text}' already exists", b.name.span,
                           notes=[("defined here", twin.name.span)],
                           hint=f"use `replace setup {b.name.text} {{ ... }}` to change it")
            return
        blocks.append(b)

    def apply_all(link, overrides, edited, inserted) -> None:
        for o in overrides:
            if o.action in ("insert_phase", "insert_steps"):
                target = apply_insert(program, o, reporter, changes)
                if target is not None:
                    inserted.setdefault(target, o)
                merged.overrides.append(o)
                continue
            lost = _undoes(o, inserted)
            if lost is not None:
                what = "removes" if o.action == "remove" else "replaces"
                reporter.error("E0522", f"this {what} {lost[0][0]} '{lost[0][1]}', into which the scenario inserts",
                               o.span, "the insertion would be lost: drop it, or write it into the replacement "
                               "(or put the `replace` before the `insert`)",
                               notes=[("inserted here", lost[1].span)])
            if o.action == "when":
                if when_holds(o):
                    inner = [v for k, v in o.items if k == "override"]
                    # (an edit here may change again what an edit outside changed: that is its point)
                    apply_all(link, inner, {}, inserted)
                    for k, v in o.items:
                        if k == "setup":
                            add_block(v)
                continue
            if o.action == "replace_setup" or (o.action == "remove" and o.target_kind.text == "setup"):
                apply_setup_override(o, blocks, reporter, changes)
            else:
                apply_override(program, link, o, reporter, changes, edited)
            merged.overrides.append(o)

    def when_holds(o: A.Override) -> bool:
        """`when option NAME { ... }`: NAME is an on/off option of this
        scenario; its items apply when it is on."""
        for k, v in o.items:
            if k not in ("override", "setup"):
                reporter.error("E0514", "only changes and set-up blocks can depend on an option", o.target_span,
                               "move turns, sequence, limits and options out of the `when option` block")
                return False
        declared = {x.name.text: x for x in merged.options}
        opt = declared.get(o.target)
        if opt is None:
            reporter.error("E0504", f"unknown option '{o.target}': scenario '{scenario.key}' declares no such option",
                           o.target_span, did_you_mean(o.target, declared)
                           or "declare it before the `when option` block: `option NAME \"text\" default off`")
            return False
        if opt.kind != "bool":
            reporter.error("E0514", f"`when option {o.target}`: '{o.target}' is not an on/off option", o.target_span,
                           "a `when option` block depends on an on/off option (declared `default on` or `off`)")
            return False
        value = (options or {}).get(o.target, opt.default)
        return bool(value)

    for link in links:
        merged.options = [o for o in merged.options if o.name.text not in {x.name.text for x in link.options}]
        merged.options.extend(link.options)
        edited: dict = {}
        apply_all(link, link.overrides, edited, {})
        for b in link.setup_blocks:
            add_block(b)
        if link.turns:
            merged.turns, merged.turns_span, merged.turns_cites = link.turns, link.turns_span, link.turns_cites
        merged.sequence = link.sequence or merged.sequence
        merged.limits = {**merged.limits, **link.limits}
        merged.results = [r for r in merged.results if r.name.text not in {x.name.text for x in link.results}]
        merged.results.extend(link.results)
        if link is not scenario and isinstance(link, A.RulesetDecl):
            merged.cites = merged.cites + [c for c in link.cites if c.number not in {x.number for x in merged.cites}]
    merged.setup_blocks = blocks
    merged.setup = [b.block for b in blocks]
    merged.setup_cites = [c for b in blocks for c in b.cites]
    program.scenario = merged
    return program, changes
