"""Scenarios and variants: `extends`, then `replace`, `add` and `remove`.

A scenario's effective program is its base library with the overrides of every
scenario in its `extends` chain applied, root first.  Each override must name
something that exists (`replace`, `remove`) or must not exist yet (`add`), and
removing a thing that other definitions still use is reported at the `remove`.
"""

from __future__ import annotations

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


def effective_program(base: Program, scenario: A.ScenarioDecl, reporter: Reporter) -> tuple[Program, list]:
    """The program a scenario plays, with the list of what its variants changed."""
    program = base.derived()
    program.scenario = scenario
    changes: list[tuple[str, str, str, A.Span]] = []
    chain = extends_chain(base, scenario, reporter)
    if chain is None:
        return program, changes
    for link in chain:
        for o in link.overrides:
            apply_override(program, link, o, reporter, changes)
    # The scenario's own settings fall back on its ancestors'.
    merged = A.ScenarioDecl(scenario.span, scenario.name, cites=scenario.cites, note=scenario.note,
                            title=scenario.title, extends=scenario.extends)
    for link in chain:
        if link.turns:
            merged.turns, merged.turns_span, merged.turns_cites = link.turns, link.turns_span, link.turns_cites
        merged.sequence = link.sequence or merged.sequence
        merged.limits = {**merged.limits, **link.limits}
        merged.options = [o for o in merged.options if o.name.text not in {x.name.text for x in link.options}]
        merged.options.extend(link.options)
        merged.setup.extend(link.setup)
        merged.setup_cites.extend(link.setup_cites)
        merged.overrides.extend(link.overrides)
    program.scenario = merged
    return program, changes
