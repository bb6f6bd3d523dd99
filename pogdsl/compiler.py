"""The pipeline, end to end: files → ASTs → checked program → rule graph.

Each stage lives in its own package (`syntax`, `semantics`, `graph`); this
module only runs them in order and gathers their diagnostics.
"""

from __future__ import annotations

import os

from pathlib import Path

from attrs import define, field

from .diagnostics import Reporter, Sources
from .errors import SourceErrors, UsageError
from .project import card_folders, expand, find_root, library_files, no_library_hint
from .semantics.checker import check, check_card_events
from .semantics.loader import Loaded, load
from .semantics.model import Program, build_program
from .semantics.variants import conditional_options, effective_program
from .syntax import ast as A


@define
class Compilation:
    root: Path
    loaded: Loaded
    base: Program
    scenarios: dict[str, tuple[Program, list]] = field(factory=dict)
    # `NAME+RULESET` scenarios made up on the command line, by their spec.
    composed: dict[str, A.ScenarioDecl] = field(factory=dict)

    def scenario_decl(self, key: str) -> A.ScenarioDecl | None:
        return self.composed.get(key) or self.base.get("scenario", key)

    @property
    def reporter(self) -> Reporter:
        return self.loaded.reporter

    @property
    def sources(self) -> Sources:
        return self.loaded.sources

    @property
    def ok(self) -> bool:
        return not self.reporter.errors


# The most scenarios one check compiles (the project has 13): each is merged
# and checked as a whole game, a few milliseconds to a tenth of a second,
# so five thousand took a quarter of a minute and half a gigabyte.
MAX_SCENARIOS = 200


def compile_paths(paths: list[Path] | None = None, root: Path | None = None, library: bool = True,
                  check_scenarios: bool = True, unsaved: dict[Path, str] | None = None) -> Compilation:
    """Load the library (unless `library=False`) plus `paths`, check them, and
    check each scenario's variant changes.  `unsaved`: an editor's text for
    some of those files (by resolved path), read in place of what is saved."""
    root = (root or find_root()).resolve()
    files: list[Path] = library_files(root) if library else []
    if paths:
        found, missing = expand(paths)
        if unsaved:  # (a buffer never saved yet is read from the editor, not the disk)
            found += [m for m in missing if m.resolve() in unsaved]
            missing = [m for m in missing if m.resolve() not in unsaved]
        if missing:
            raise UsageError("no such file or directory: " + ", ".join(str(m) for m in missing))
        files.extend(found)
    loaded = load(files, unsaved=unsaved)
    base = build_program(loaded.modules, loaded.reporter)
    check(base, loaded.reporter)
    # (the deck's folders with their settings; on its own, ROOT's deck only)
    check_card_events(base, loaded.reporter, card_folders(root)[: None if library else 1], required=False)
    comp = Compilation(root, loaded, base)
    if check_scenarios:
        scenarios = base.all("scenario")
        for scenario in scenarios[:MAX_SCENARIOS]:
            compile_scenario_program(comp, scenario)
        if len(scenarios) > MAX_SCENARIOS:
            extra = scenarios[MAX_SCENARIOS]
            comp.reporter.error("E0526", f"more than {MAX_SCENARIOS} scenarios to check: "
                                f"'{extra.key}' and the {len(scenarios) - MAX_SCENARIOS - 1} after it are not checked",
                                extra.name.span, "each scenario is checked as a whole game: split the project")
        _unused_rulesets(comp)
    return comp


def _unused_rulesets(comp: Compilation) -> None:
    """A rule set is checked within the scenarios that use it: one no
    scenario uses is not checked at all, which is worth saying."""
    used = {name.text for d in comp.base.all("scenario") + comp.base.all("ruleset") for name in d.uses}
    for ruleset in comp.base.all("ruleset"):
        if ruleset.key not in used:
            comp.reporter.warning("W0515", f"rule set '{ruleset.key}' is used by no scenario, so it is not checked",
                                  ruleset.name.span,
                                  f"apply it in a scenario with `uses {ruleset.key}` (one that extends the scenario "
                                  "it is meant for)")


def compile_scenario_program(comp: Compilation, scenario: A.ScenarioDecl) -> Program:
    if scenario.key in comp.scenarios:
        return comp.scenarios[scenario.key][0]
    program, changes = effective_program(comp.base, scenario, comp.reporter)
    if changes or any(link.overrides or link.uses for link in _chain(comp.base, scenario)):
        _check_variant(comp, scenario, program, changes, f"while checking scenario '{scenario.key}'")
        # A `when option NAME { ... }` block: the game with the option the
        # other way is checked too (diagnostics of the default game are not
        # said again).
        for name, value in _flipped(program, conditional_options(comp.base, scenario)):
            local = Reporter()  # (what only this game gets wrong, an edit of a misspelt space say)
            other, other_changes = effective_program(comp.base, scenario, local, {name: value})
            _check_variant(comp, scenario, other, other_changes,
                           f"while checking scenario '{scenario.key}' with option {name} {'on' if value else 'off'}",
                           local)
    comp.scenarios[scenario.key] = (program, changes)
    return program


def _flipped(program: Program, names: list[str]) -> list[tuple[str, bool]]:
    """Each on/off option a `when option` block depends on, the other way from its default."""
    declared = {o.name.text: o for o in program.scenario.options} if program.scenario else {}
    return [(n, not declared[n].default) for n in names if n in declared and declared[n].kind == "bool"]


def _check_variant(comp: Compilation, scenario: A.ScenarioDecl, program: Program, changes: list, where: str,
                   local: Reporter | None = None) -> None:
    # The variant's program is checked as a whole: what it replaced or
    # added must fit what remains, cite rules that exist and be reached;
    # after a removal anything may have used what went.  What the base's
    # own check already reported is not said again.
    # The variant's own declarations are checked once more on their own,
    # where only the options of this scenario (and what it extends) exist.
    local = local or Reporter()
    checker = check(program, local)
    # Its set-up blocks (its parent's, as it replaced or removed them, and
    # its own) are checked against what it plays.
    checker.check_setup(program.scenario)
    changed = [program.decls[kind][key] for action, kind, key, _ in changes
               if action != "remove" and kind in program.decls and key in program.decls[kind]]
    if changed:
        check(program, local, only=changed)
    known = {(d.code, d.message, d.span) for d in comp.reporter.items}
    note = (where, scenario.name.span)
    for d in local.items:
        if (d.code, d.message, d.span) in known:
            continue
        known.add((d.code, d.message, d.span))
        if d.is_error:
            comp.reporter.error(d.code, d.message, d.span, d.hint, d.notes + [note])
        else:
            comp.reporter.warning(d.code, d.message, d.span, d.hint, d.notes + [note])


def program_with_options(comp: Compilation, scenario: A.ScenarioDecl, values: dict) -> Program:
    """The program a game of `scenario` plays with these option values: the
    checked default one unless a `when option` block depends on an option set
    the other way."""
    program = compile_scenario_program(comp, scenario)
    names = conditional_options(comp.base, scenario)
    defaults = {o.name.text: o.default for o in program.scenario.options}
    if not any(n in values and bool(values[n]) != bool(defaults.get(n)) for n in names):
        return program
    return effective_program(comp.base, scenario, Reporter(), {n: values[n] for n in names if n in values})[0]


def _chain(base: Program, scenario: A.ScenarioDecl) -> list[A.ScenarioDecl]:
    chain, seen = [], set()
    while scenario is not None and scenario.key not in seen:
        chain.append(scenario)
        seen.add(scenario.key)
        scenario = base.get("scenario", scenario.extends.text) if scenario.extends else None
    return chain


def scenario_name(spec: str, by_name: bool = False) -> str:
    """A scenario as a user names it, written the one way: a name cannot hold
    `-`, so `suicide-of-europe` is `suicide_of_europe` (each part of a
    composition `NAME+RULESET` too).  A path to a .pog file (or to anything
    that exists, unless `by_name`) is left as it is.  Every place that takes a
    scenario from a user goes through here (resolve_scenario, open_scenario,
    `pogdsl diff`'s base)."""
    spec = str(spec)
    if not by_name and (spec.endswith(".pog") or os.path.exists(spec)):  # (os.path's: no OSError for a long name)
        return spec
    base, cards = split_without(spec)
    return base.replace("-", "_") + (WITHOUT + ", ".join(cards) if cards else "")


# `SCENARIO without CARD[, CARD…]`: the scenario with those cards taken out
# of the game (`simulate --without`, `pogdsl card-value`).
WITHOUT = " without "


def split_without(spec: str) -> tuple[str, list[str]]:
    """`NAME[+RULESET…] without AP 14, CP 3` → (`NAME[+RULESET…]`, ["AP 14",
    "CP 3"]); a spec without ` without ` → (spec, [])."""
    base, found, rest = str(spec).partition(WITHOUT)
    if not found:
        return base, []
    return base, [c.strip() for c in rest.split(",") if c.strip()]


def with_cards_out(spec: str, cards: list[str]) -> str:
    """SPEC with CARDS (labels, `AP 14`) taken out of the game as well."""
    base, out = split_without(spec)
    out += [c for c in cards if c not in out]
    return base + (WITHOUT + ", ".join(out) if out else "")


def resolve_scenario(spec: str, root: Path | None = None, by_name: bool = False) -> tuple[Compilation, Program]:
    """SCENARIO as a user gives it: a scenario name (`-` read as `_`: see
    `scenario_name`), or a path to a .pog file declaring one (checked together
    with the library).  `by_name`: SPEC is a name only (as a save gives it),
    never looked for as a file."""
    spec = scenario_name(spec, by_name)
    path = Path(spec)
    extra = [path] if not by_name and (spec.endswith(".pog") or os.path.exists(path)) else None
    if extra and not os.path.exists(path):
        raise UsageError(f"no such file: {spec}")
    comp = compile_paths(extra, root=root, check_scenarios=False)
    if extra:
        shown = [m for m in comp.loaded.modules if Path(m.path).resolve() == path.resolve()]
        declared = [d for m in shown for d in m.decls if isinstance(d, A.ScenarioDecl)]
        if not declared:
            if comp.reporter.errors:  # it may declare one in a block that did not parse
                raise SourceErrors(comp)
            raise UsageError(f"{spec} declares no scenario")
        scenario = declared[0]
    elif WITHOUT in spec or "+" in spec:
        scenario = _composed(comp, spec)
    else:
        scenario = comp.base.get("scenario", spec)
        if scenario is None:
            if not comp.loaded.files:  # not one .pog file: nothing declares a scenario
                raise UsageError(f"unknown scenario '{spec}': no .pog file found in the rules/, cards/ or "
                                 f"scenarios/ of {comp.root}; {no_library_hint(comp.root)}")
            raise unknown_scenario(comp, spec)
    program = compile_scenario_program(comp, scenario)
    return comp, program


def unknown_scenario(comp, name: str) -> "UsageError":
    """The one-line error for a scenario name the project does not declare,
    with the nearest name and the known ones."""
    from .diagnostics import did_you_mean

    names = sorted(comp.base.decls["scenario"])
    hint = did_you_mean(name, names)
    found = _declared_nearby(name)
    where = (f"; {found} declares it, outside the library's scenarios/ folder: pass that path instead of the name"
             if found else "")
    return UsageError(f"unknown scenario '{name}'" + (f" ({hint})" if hint else "") + where
                      + (f"; known scenarios: {', '.join(names)}" if names else ""))


def _declared_nearby(name: str) -> str | None:
    """A `.pog` file of the current folder that declares scenario NAME, if
    one does: a variant kept beside the library rather than in it."""
    import re

    from .safe_io import SOURCE_LIMIT, read_bytes

    if not re.fullmatch(r"[A-Za-z_]\w{0,99}", name):
        return None
    declares = re.compile(rb"^[ \t]*(?:scenario|ruleset)[ \t]+" + re.escape(name.encode()) + rb"\b", re.MULTILINE)
    try:
        candidates = sorted(Path.cwd().glob("*.pog"))[:200]
    except OSError:
        return None
    for path in candidates:
        try:  # (a FIFO or a device is skipped, never waited on)
            if path.is_file() and declares.search(read_bytes(path, SOURCE_LIMIT, "source")):
                return path.name
        except OSError:
            continue
    return None


def _composed(comp: Compilation, spec: str) -> A.ScenarioDecl:
    """`NAME+RULESET[+RULESET…][ without CARD, …]`: scenario NAME with the rule
    sets applied and the cards (`AP 14`, or a card's name) removed, as a
    scenario that extends NAME, `uses` them and says `remove card ap 14`
    would be (a save records the spec, so a replay composes the same game).
    A card the rules name elsewhere cannot be removed: the check says which
    rule still names it."""
    from .diagnostics import did_you_mean

    base, cards = split_without(spec)
    name, *rulesets = [part.strip() for part in base.split("+")]
    parent = comp.base.get("scenario", name)
    if parent is None:
        raise unknown_scenario(comp, name)
    known = sorted(comp.base.decls["ruleset"])
    for r in rulesets:
        if r not in comp.base.decls["ruleset"]:
            hint = did_you_mean(r, known)
            raise UsageError(f"unknown rule set '{r}'" + (f" ({hint})" if hint else "")
                             + (f"; known rule sets: {', '.join(known)}" if known else "; no rule set is declared"))
    span = parent.name.span
    removed = [_card_key(comp, card) for card in cards]
    title = " + ".join([parent.title or name, *rulesets]) + (f" without {', '.join(cards)}" if cards else "")
    scenario = A.ScenarioDecl(parent.span, A.Name(spec, span), cites=[], title=title, extends=A.Name(name, span),
                              uses=[A.Name(r, span) for r in rulesets],
                              overrides=[A.Override(span, "remove", target_kind=A.Name("card", span), target=key,
                                                    target_span=span) for key in removed])
    comp.composed[spec] = scenario
    return scenario


def _card_key(comp: Compilation, card: str) -> str:
    """The key (`ap 14`) of a card a user names by its label (`AP 14`) or
    its name; UsageError for a card the sources do not declare."""
    from .diagnostics import did_you_mean

    cards = comp.base.decls["card"]
    key = " ".join(card.lower().split())
    if key in cards:
        return key
    named = comp.base.card_by_name(card.strip("'\""))
    if named is not None:
        return named.key
    labels = [k.upper() for k in cards]
    hint = did_you_mean(card.upper(), labels) or did_you_mean(card, [c.name.text for c in cards.values()])
    raise UsageError(f"no card '{card}' to take out" + (f" ({hint})" if hint else "")
                     + ": name it by side and number, e.g. 'AP 14', or by its name")


def scenario_graph(spec: str, root: Path | None = None, by_name: bool = False):
    """The compilation and the scenario's rule graph (None if it has errors)."""
    from .graph.build import build_graph  # networkx is only needed from here on

    comp, program = resolve_scenario(spec, root, by_name)
    if comp.reporter.errors:
        return comp, None
    return comp, build_graph(program)
