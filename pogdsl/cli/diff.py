"""`pogdsl diff`: what one scenario plays differently from another, by rule number."""

from __future__ import annotations

import json

from .common import EXIT_ERRORS, EXIT_OK, add_root_option, print_diagnostics


def scenario_program(comp, name: str):
    """The program scenario NAME plays, from an already loaded project."""
    from ..compiler import compile_scenario_program, scenario_name, unknown_scenario

    name = scenario_name(name, by_name=True)
    scenario = comp.base.get("scenario", name)
    if scenario is None:
        raise unknown_scenario(comp, name)
    return compile_scenario_program(comp, scenario)


def cmd_diff(args) -> int:
    from ..compiler import resolve_scenario
    from ..semantics.diff import diff_programs

    comp, variant = resolve_scenario(args.variant, root=args.root)
    base = scenario_program(comp, args.base)
    if comp.reporter.errors:
        print_diagnostics(comp, False)
        return EXIT_ERRORS
    changes = diff_programs(base, variant)
    quote_code_changes(changes, comp.sources)
    if args.json:
        print(json.dumps([c.as_json() for c in changes], indent=1))
        return EXIT_OK
    print(render(base, variant, changes))
    return EXIT_OK


# At most this many lines of a changed piece of code are quoted.
QUOTED_LINES = 24


def _source_lines(sources, span) -> list[str] | None:
    lines = []
    for n in range(span.line, span.end_line + 1):
        text = sources.line(span.file, n)
        if text is None:
            return None
        if n == span.end_line:
            text = text[:max(0, span.end_col - 1)]
        if n == span.line:
            text = text[span.col - 1:]
        lines.append(text.rstrip())
    # (the first line starts where the piece does; the others keep their
    # indentation, less what they all share)
    indent = min((len(t) - len(t.lstrip()) for t in lines[1:] if t.strip()), default=0)
    return [t if i == 0 else t[indent:] for i, t in enumerate(lines) if t.strip()]


def quote_code_changes(changes, sources) -> None:
    """Each changed piece of code gets the line diff of its source, old
    against new (`event changed` tells nothing of what changed in it)."""
    from ..semantics.diff import line_diff

    for c in changes:
        for a in c.attributes:
            if a.old_span is None or a.new_span is None:
                continue
            old, new = _source_lines(sources, a.old_span), _source_lines(sources, a.new_span)
            if old is None or new is None:
                continue
            lines = line_diff(old, new)
            a.lines = lines[:QUOTED_LINES] + ([f"… ({len(lines) - QUOTED_LINES} more lines)"]
                                              if len(lines) > QUOTED_LINES else [])


def render(base, variant, changes) -> str:
    """The human table: one group per rule number (the lowest each change
    cites, with the rule's title), those citing nothing last."""
    from ..semantics.diff import first_rule

    head = f"{base.scenario.key} -> {variant.scenario.key}: "
    if not changes:
        return head + "no differences"
    counts = {}
    for c in changes:
        counts[c.change] = counts.get(c.change, 0) + 1
    order = ("replaced", "edited", "added", "removed")
    lines = [head + ", ".join(f"{counts[k]} {k}" for k in order if k in counts)]
    width = max(len(f"{c.kind} {c.name}" + (f" '{c.title}'" if c.title else "")) for c in changes)
    group = object()
    for c in changes:
        rule = first_rule(c)
        if rule != group:
            group = rule
            if rule is None:
                lines.append("no rule cited")
            else:
                entry = variant.rule_entry(rule) or base.rule_entry(rule)
                title = entry.title if entry is not None and entry.title else ""
                lines.append(f"{rule}  {title}".rstrip())
        what = f"{c.kind} {c.name}" + (f" '{c.title}'" if c.title else "")
        others = [n for n in c.cites if n != rule]
        also = f"  (also cites {', '.join(others)})" if others else ""
        lines.append(f"  {c.change:<9} {what:<{width}}  {c.location}{also}")
        if c.attributes:
            lines.append(" " * 12 + "; ".join(str(a) for a in c.attributes))
        for a in c.attributes:
            if a.lines:
                lines.append(" " * 12 + f"{a.name}:")
                lines += [" " * 14 + line for line in a.lines]
    return "\n".join(lines)


def register(sub) -> None:
    p = sub.add_parser("diff", help="what a variant changes, item by item, by rule number",
                       description="Compare what scenario VARIANT plays with what BASE plays, each with its "
                                   "`extends` chain applied, and list every difference: a declaration, "
                                   "connection, option or set-up block added or removed, one edited (only "
                                   "plain attributes differ: each is shown old -> new) or replaced (its code "
                                   "differs), and the scenario's own settings (turns, sequence).  Each item "
                                   "shows the rule numbers its declaration cites (the base's for a removal) "
                                   "and where it is written; items are grouped by rule number, those citing "
                                   "none last.  The two need not be related by `extends`.  Exit status 0 "
                                   "whether or not they differ.")
    p.add_argument("base", metavar="BASE", help="the scenario compared against (a name)")
    p.add_argument("variant", metavar="VARIANT",
                   help="the scenario whose differences are listed (a name, or a .pog file declaring one)")
    p.add_argument("--json", action="store_true",
                   help='print a list of {"kind", "name", "change", "attributes": [{"name", "from", "to"}], '
                        '"cites", "file", "line"}, in the same order')
    add_root_option(p)
    p.set_defaults(func=cmd_diff)
