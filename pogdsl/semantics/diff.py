"""What one resolved program plays differently from another, item by item.

The diff is semantic: it compares the two programs a pair of scenarios play
(each with its `extends` chain applied, `pogdsl.semantics.variants`), not the
lines of a variant that made them, so it sees every way a variant can change
the game.  Declarations are compared by content, never by where they were
written: a space restated word for word in a variant is no change.

Each difference is a `Change`:

* ``added``: a declaration, connection, option or set-up block only the
  variant has; ``removed``: one only the base has;
* ``edited``: in both, and what differs are plain attributes (a space's
  terrain, a unit's strength, a marker's range, the scenario's turns), each
  listed with its old and new value;
* ``replaced``: in both, and code differs (a body, an event, a condition);
  the plain attributes that changed are listed too, and each piece of code
  that changed is named (``event changed``).

`diff_programs` returns them ordered as a reviewer reads them: by the lowest
rule number each cites (the variant's declaration, or the base's for a
removal), those citing nothing last.
"""

from __future__ import annotations

from typing import Any

import attrs
from attrs import define, field

from ..numbers import rule_number_key
from ..syntax import ast as A
from .model import DECL_KINDS, Program

# The order of kinds when two items cite the same rule.
_KIND_ORDER: dict[str, int] = {}
for _kind in ("scenario", "option", "limit", "setup") + DECL_KINDS + ("connection",):
    _KIND_ORDER.setdefault(_kind, len(_KIND_ORDER))

# Fields that say where or how something was written, not what it is.
_IGNORED_FIELDS = {"span", "repeated", "turns_span", "default_span", "target_span"}
# A card's nested declarations are compared in their own namespaces.
_CARD_IGNORED = {"nested"}
# Scenario fields that name the scenario rather than what it plays, and the
# fields compared item by item (options, limits, set-up blocks).
_SCENARIO_OWN = {"name", "title", "extends", "note", "cites", "overrides", "options", "limits", "setup",
                 "setup_cites", "setup_blocks", "uses", "kind"}


@define
class AttributeChange:
    name: str
    old: str
    new: str
    # Where a changed piece of code was written, before and after: the CLI
    # quotes both and shows their line diff ("13 -> 12" inside a body).
    old_span: Any = field(default=None, eq=False, repr=False)
    new_span: Any = field(default=None, eq=False, repr=False)
    lines: list = field(factory=list, eq=False, repr=False)  # that diff, once quoted

    def __str__(self) -> str:
        if self.old == "…" and self.new == "…":
            return f"{self.name} changed"
        return f"{self.name} {self.old} -> {self.new}"

    def as_json(self) -> dict:
        out = {"name": self.name, "from": self.old, "to": self.new}
        if self.lines:
            out["diff"] = list(self.lines)
        return out


@define
class Change:
    kind: str           # what was changed: space, card, marker, option, setup, connection, scenario …
    name: str           # its key (a card's side and number, a connection's two ends …)
    change: str         # added | removed | edited | replaced
    attributes: list[AttributeChange] = field(factory=list)
    cites: list[str] = field(factory=list)
    file: str | None = None
    line: int | None = None
    namespace: str = ""  # the program namespace (DECL_KINDS) for declarations, else ""
    title: str | None = None  # a card's name, shown beside its key

    @property
    def location(self) -> str:
        return f"{self.file}:{self.line}" if self.file else ""

    def as_json(self) -> dict:
        return {"kind": self.kind, "name": self.name, "change": self.change,
                "attributes": [a.as_json() for a in self.attributes], "cites": list(self.cites),
                "file": self.file, "line": self.line}


# ------------------------------------------------------------------ content
def same(a: Any, b: Any) -> bool:
    """Equal by content, whatever the source spans."""
    if a is b:
        return True
    if isinstance(a, A.Span) and isinstance(b, A.Span):
        return True
    if isinstance(a, A.Name) and isinstance(b, A.Name):
        return a.text == b.text
    if isinstance(a, A.Citation) and isinstance(b, A.Citation):
        return a.number == b.number
    if type(a) is not type(b):
        return False
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if attrs.has(type(a)):
        return all(same(getattr(a, f.name), getattr(b, f.name))
                   for f in attrs.fields(type(a)) if f.name not in _IGNORED_FIELDS)
    return a == b


def _plain(value: Any) -> bool:
    """A value shown in full: numbers, words, names, and lists or tuples of them."""
    if value is None or isinstance(value, (bool, int, str, A.Name, A.Citation)):
        return True
    if isinstance(value, (list, tuple)):
        return all(_plain(v) for v in value)
    return False


def shown(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (A.Name, A.Citation)):
        return value.text if isinstance(value, A.Name) else value.number
    if isinstance(value, (list, tuple)):
        if not value:
            return "none"
        sep = "-" if isinstance(value, tuple) and all(isinstance(v, int) and not isinstance(v, bool)
                                                       for v in value) and len(value) == 3 else " "
        return (", " if isinstance(value, list) else sep).join(shown(v) for v in value)
    if not _plain(value):
        return "…"
    return str(value)


def _shown_field(name: str, value: Any) -> str:
    if name == "turns" and isinstance(value, tuple) and len(value) == 2:
        return f"{value[0]}..{value[1]}"
    return shown(value)


def _field_changes(old: Any, new: Any, skip: set[str] = frozenset()) -> tuple[list[AttributeChange], bool]:
    """The fields of two nodes of one type that differ, and whether any of them is code."""
    out: list[AttributeChange] = []
    code = False
    for f in attrs.fields(type(new)):
        if f.name in _IGNORED_FIELDS or f.name in skip:
            continue
        a, b = getattr(old, f.name), getattr(new, f.name)
        if same(a, b):
            continue
        if f.name == "note":  # prose: said to have changed, not quoted
            out.append(AttributeChange(f.name, "…", "…"))
        elif _plain(a) and _plain(b):
            out.append(AttributeChange(f.name, _shown_field(f.name, a), _shown_field(f.name, b)))
        else:
            code = True
            out.append(AttributeChange(f.name, "…", "…", span_of(a), span_of(b)))
    # What the thing is first; its citations and note after.
    out.sort(key=lambda a: a.name in ("cites", "note"))
    return out, code


def span_of(value: Any):
    """The source span a value was written at: a node's, or from the first to
    the last of a list of nodes; None when it has none (a number, a name)."""
    if isinstance(value, (list, tuple)):
        spans = [span_of(v) for v in value]
        spans = [sp for sp in spans if sp is not None]
        if not spans or any(sp.file != spans[0].file for sp in spans):
            return None
        return A.Span(spans[0].file, spans[0].line, spans[0].col, spans[-1].end_line, spans[-1].end_col)
    return getattr(value, "span", None) if not isinstance(value, A.Span) else value


def line_diff(old_lines: list[str], new_lines: list[str]) -> list[str]:
    """The lines that differ between two pieces of code, `- old` and `+ new`
    with the lines around them left out; indentation compared as written
    relative to the piece's own first line."""
    import difflib

    out = []
    for group in difflib.SequenceMatcher(None, old_lines, new_lines, autojunk=False).get_opcodes():
        tag, i1, i2, j1, j2 = group
        if tag == "equal":
            continue
        out += ["- " + line for line in old_lines[i1:i2]] + ["+ " + line for line in new_lines[j1:j2]]
    return out


def _cite_numbers(cites) -> list[str]:
    seen: list[str] = []
    for c in cites or []:
        if c.number not in seen:
            seen.append(c.number)
    return seen


def _shown_kind(decl: A.Decl) -> str:
    if isinstance(decl, A.StateDecl):
        return decl.state_kind
    return decl.kind


def _decl_change(namespace: str, key: str, change: str, decl: A.Decl, attributes=None,
                 program: Program | None = None) -> Change:
    span = decl.span or decl.name.span
    cites = _cite_numbers(decl.cites)
    edit = program.edited_at.get((namespace, key)) if program is not None and change == "edited" else None
    if edit is not None:  # changed by an `edit` line: shown where that line is, with its cites first
        span = edit[0]
        cites = _cite_numbers(edit[1]) + [n for n in cites if n not in _cite_numbers(edit[1])]
    if isinstance(decl, A.CardDecl):
        cites += [n for n in _cite_numbers(decl.playable_cites) + _cite_numbers(decl.event_cites) if n not in cites]
    return Change(_shown_kind(decl), key, change, attributes or [], cites, span.file, span.line, namespace,
                  decl.name.text if isinstance(decl, A.CardDecl) else None)


def _kept_original(key: str) -> bool:
    """A declaration kept under a hidden name by a `replace` using `original`
    (variants.py: `NAME__original`, `NAME__original2` ...)."""
    head, sep, tail = key.rpartition("__original")
    return bool(sep) and bool(head) and (tail == "" or tail.isdigit())


def _citations_in(node, out: list) -> list:
    """Every citation inside a declaration's body, in source order."""
    if isinstance(node, A.Citation):
        out.append(node)
    elif isinstance(node, (list, tuple)):
        for item in node:
            _citations_in(item, out)
    elif attrs.has(type(node)) and not isinstance(node, (A.Span, A.Name)):
        for f in attrs.fields(type(node)):
            _citations_in(getattr(node, f.name), out)
    return out


def _credit_insertions(change: Change, old: A.Decl, new: A.Decl) -> None:
    """A declaration changed by statements a variant inserted into it (or a
    rule set's `when option` block) keeps its own place and citations; the
    change is also credited to what the inserted statements cite, and shown
    where the first of them is written, so a reviewer finds the variant's
    text rather than the base's."""
    if (new.span or new.name.span).file != (old.span or old.name.span).file:
        return  # replaced outright: its own citations say what it implements
    before = {(c.number, c.span.file, c.span.line) for c in _citations_in(old, [])}
    inserted = [c for c in _citations_in(new, []) if (c.number, c.span.file, c.span.line) not in before
                and c.span.file != old.span.file]
    if not inserted:
        return
    change.cites = list(dict.fromkeys([c.number for c in inserted] + change.cites))
    change.file, change.line = inserted[0].span.file, inserted[0].span.line


# ------------------------------------------------------------------ programs
def _enum_members(program: Program) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for member, (enum, _name) in program.enum_members.items():
        out.setdefault(enum, []).append(member)
    return out


def diff_declarations(base: Program, variant: Program) -> list[Change]:
    """Declarations and connections: what the variant's rules, map, pieces and
    cards differ by (not the scenario's own settings)."""
    changes: list[Change] = []
    members_old, members_new = _enum_members(base), _enum_members(variant)
    for namespace in DECL_KINDS:
        if namespace == "scenario":
            continue
        old_table, new_table = base.decls.get(namespace, {}), variant.decls.get(namespace, {})
        for key, new in new_table.items():
            old = old_table.get(key)
            if old is None:
                if _kept_original(key):  # the base declaration a replacement calls as `original`: no change
                    continue
                changes.append(_decl_change(namespace, key, "added", new))
                continue
            skip = _CARD_IGNORED if namespace == "card" else set()
            extra: list[AttributeChange] = []
            if namespace == "enum" and members_old.get(key, []) != members_new.get(key, []):
                skip = skip | {"members"}
                extra.append(AttributeChange("members", ", ".join(members_old.get(key, [])) or "none",
                                             ", ".join(members_new.get(key, [])) or "none"))
            if old is new and not extra:
                continue
            if type(old) is not type(new):
                changes.append(_decl_change(namespace, key, "replaced", new))
                continue
            attributes, code = _field_changes(old, new, skip)
            attributes += extra
            if attributes:
                change = _decl_change(namespace, key, "replaced" if code else "edited", new, attributes, variant)
                _credit_insertions(change, old, new)
                changes.append(change)
        for key, old in old_table.items():
            if key not in new_table:
                change = _decl_change(namespace, key, "removed", old)
                removal = variant.removed_at.get((namespace, key))
                if removal is not None:  # `remove … cites N`: credited to N, shown at that line
                    span, cites = removal
                    numbers = _cite_numbers(cites)
                    change.cites = numbers + [n for n in change.cites if n not in numbers]
                    change.file, change.line = span.file, span.line
                changes.append(change)
    changes += _diff_connections(base.connections, variant.connections)
    return changes


def _connection_key(c: A.Connection) -> tuple[str, str]:
    return tuple(sorted((c.a.text, c.b.text)))


def _connection_change(c: A.Connection, change: str, attributes=None) -> Change:
    mark = "~~" if c.dotted else "--"
    return Change("connection", f"{c.a.text} {mark} {c.b.text}", change, attributes or [],
                  _cite_numbers(c.cites), c.span.file, c.span.line, "connection")


def _diff_connections(old: list[A.Connection], new: list[A.Connection]) -> list[Change]:
    by_old: dict[tuple, list[A.Connection]] = {}
    for c in old:
        by_old.setdefault(_connection_key(c), []).append(c)
    out: list[Change] = []
    for c in new:
        bucket = by_old.get(_connection_key(c))
        if not bucket:
            out.append(_connection_change(c, "added"))
            continue
        match = next((o for o in bucket if o is c or same(o, c)), None)
        if match is not None:
            bucket.remove(match)
            continue
        o = bucket.pop(0)
        attributes = [AttributeChange(name, shown(getattr(o, name)), shown(getattr(c, name)))
                      for name in ("dotted", "only") if not same(getattr(o, name), getattr(c, name))]
        out.append(_connection_change(c, "edited", attributes))
    for bucket in by_old.values():
        out += [_connection_change(c, "removed") for c in bucket]
    return out


def _owner(program: Program, block: A.Block) -> A.ScenarioDecl | None:
    for s in program.decls["scenario"].values():
        if any(b is block for b in s.setup):
            return s
    return None


def _setup_name(block: A.Block, index: int) -> str:
    name = getattr(block, "name", None)
    return name.text if isinstance(name, A.Name) else (name or f"#{index + 1}")


def _setup_cites(program: Program, block: A.Block) -> list[str]:
    own = getattr(block, "cites", None)
    if own:
        return _cite_numbers(own)
    owner = _owner(program, block)
    return _cite_numbers(owner.setup_cites) if owner is not None else []


def _chain(program: Program, key: str) -> list[A.ScenarioDecl]:
    """Scenario KEY, then what it extends, and so on up."""
    out: list[A.ScenarioDecl] = []
    s = program.decls["scenario"].get(key)
    while s is not None and s not in out:
        out.append(s)
        s = program.decls["scenario"].get(s.extends.text) if s.extends is not None else None
    return out


def diff_scenarios(base: Program, variant: Program) -> list[Change]:
    """The scenarios' own settings: turns, sequence and any other setting,
    options, limits and set-up blocks."""
    old, new = base.scenario, variant.scenario
    out: list[Change] = []
    if old is None or new is None:
        return out
    where = new.span or new.name.span
    chain = _chain(variant, new.key)
    settings, _code = _field_changes(old, new, _SCENARIO_OWN)
    for setting in settings:
        # Located where the scenario that gives the setting (itself or the
        # nearest ancestor giving it) writes it.
        link = next((s for s in chain if getattr(s, setting.name, None)), None)
        span = (getattr(link, setting.name + "_span", None) or link.span) if link is not None else where
        cites = _cite_numbers(link.cites if link is not None else new.cites)
        out.append(Change("scenario", new.key, "edited", [setting], cites, span.file, span.line, "scenario"))
    old_options = {o.name.text: o for o in old.options}
    new_options = {o.name.text: o for o in new.options}
    for name, o in new_options.items():
        before = old_options.get(name)
        if before is None:
            out.append(Change("option", name, "added", [], _cite_numbers(o.cites), o.span.file, o.span.line))
        elif not same(before, o):
            attributes, _ = _field_changes(before, o)
            out.append(Change("option", name, "edited", attributes, _cite_numbers(o.cites), o.span.file,
                              o.span.line))
    for name, o in old_options.items():
        if name not in new_options:
            out.append(Change("option", name, "removed", [], _cite_numbers(o.cites), o.span.file, o.span.line))
    for name in sorted(set(old.limits) | set(new.limits)):
        a, b = old.limits.get(name), new.limits.get(name)
        if a is not None and b is not None and a[0] == b[0]:
            continue
        span = (b or a)[1] if isinstance((b or a)[1], A.Span) else where
        change = "added" if a is None else "removed" if b is None else "edited"
        attributes = [] if change != "edited" else [AttributeChange("limit", shown(a[0]), shown(b[0]))]
        out.append(Change("limit", name, change, attributes, [], span.file, span.line))
    # Set-up blocks: matched by name when they have one, else by content.
    unmatched = list(enumerate(_blocks_of(old)))
    for i, block in enumerate(_blocks_of(new)):
        name = block.name.text if block.name is not None else None
        hit = next((j for j, (_, b) in enumerate(unmatched) if b.block is block.block or
                    (name is not None and b.name is not None and b.name.text == name) or
                    (name is None and b.name is None and same(b.block, block.block))), None)
        if hit is not None:
            _, before = unmatched.pop(hit)
            if before.block is block.block or same(before.block, block.block):
                continue
            out.append(Change("setup", name or f"#{i + 1}", "replaced", [AttributeChange("body", "…", "…")],
                              _block_cites(variant, block), block.span.file, block.span.line))
            continue
        out.append(Change("setup", name or f"#{i + 1}", "added", [], _block_cites(variant, block),
                          block.span.file, block.span.line))
    for i, block in unmatched:
        out.append(Change("setup", block.name.text if block.name is not None else f"#{i + 1}", "removed", [],
                          _block_cites(base, block), block.span.file, block.span.line))
    return out


def _blocks_of(scenario: A.ScenarioDecl) -> list:
    """A scenario's set-up blocks with their names and cites (a scenario
    built without them: its bare blocks)."""
    named = getattr(scenario, "setup_blocks", None)
    if named:
        return list(named)
    return [A.SetupBlock(b.span, None, b, []) for b in scenario.setup]


def _block_cites(program: Program, block) -> list[str]:
    return _cite_numbers(block.cites) if block.cites else _setup_cites(program, block.block)


def rule_key(number: str):
    return rule_number_key(number)


def first_rule(change: Change) -> str | None:
    """The rule a change is listed under: the lowest it cites, taking the
    numbers of another rulebook first (`soe 12.4.6` before `12.4.3`), since
    a variant written to another rulebook is read against that rulebook and
    cites the main one for what it replaces."""
    if not change.cites:
        return None
    own = [n for n in change.cites if " " in str(n).strip()]
    return min(own or change.cites, key=rule_key)


def _order(change: Change):
    first = first_rule(change)
    return (first is None, rule_key(first) if first else [], _KIND_ORDER.get(change.namespace or change.kind, 99),
            change.kind, change.name, change.change)


def diff_programs(base: Program, variant: Program, settings: bool = True) -> list[Change]:
    """Every difference between what `base` and `variant` play, by rule number.
    `settings=False` leaves out the scenarios' own settings and set-up."""
    changes = diff_declarations(base, variant)
    if settings:
        changes += diff_scenarios(base, variant)
    return sorted(changes, key=_order)
