"""The checked model: every declaration in its namespace, and the global names
an expression can refer to.

`Program` is built from parsed modules (`build_program`) and, for a scenario,
derived from its base by applying the scenario's `replace`/`add`/`remove`
(`pogdsl.semantics.variants`).  It is what the rule-graph builder reads.
"""

from __future__ import annotations

from pathlib import Path

import copy

from attrs import define, field

from ..diagnostics import Reporter
from ..syntax import ast as A
from .vocabulary import ANY, CONSTANTS, list_of

# The namespaces a `remove KIND NAME` can name, and what each holds.
DECL_KINDS = (
    "side", "nation", "map", "enum", "space", "box", "unit", "table", "state", "value", "term", "choice",
    "signal", "procedure", "phase", "sequence", "restriction", "modifier", "trigger", "card", "scenario",
    "ruleset", "rulebook", "display",
)
# The value that turns a lead in weighted terms of the evaluation (`term`)
# into a win expectation (agents/evaluation.py).
EVALUATION_SCALE = "evaluation_scale"
# Values a game may declare as ranges (`value printed_ops cites 9.1 = 2..5`):
# the card fields they bound, for the check of a card's values.
PRINTED_RANGES = {"ops": "printed_ops", "sr": "printed_sr", "war_status": "printed_war_status",
                  "rp": "printed_rp"}
# Aliases users naturally write after `remove`.
KIND_ALIASES = {"track": "state", "counter": "state", "flag": "state", "marker": "state", "var": "state"}

# Kinds whose names an expression can use directly.
_VALUE_KINDS = ("side", "nation", "map", "space", "box", "unit", "table", "state", "value", "phase")


def state_value_kind(decl: A.StateDecl) -> str:
    if decl.state_kind in ("track", "counter"):
        return "int"
    if decl.state_kind == "flag":
        return "bool"
    if decl.state_kind == "marker":
        return "int" if decl.low is not None else "bool"
    if decl.type is not None:
        base = decl.type.type.text if decl.type.type else ANY
        return list_of(base) if decl.type.is_list else base
    return ANY


@define
class Global:
    """A name visible everywhere: what kind of value it is and what declared it."""

    kind: str
    decl: object
    span: A.Span | None


@define
class Program:
    decls: dict[str, dict[str, A.Decl]] = field(factory=lambda: {k: {} for k in DECL_KINDS})
    connections: list[A.Connection] = field(factory=list)
    enum_members: dict[str, tuple[str, A.Name]] = field(factory=dict)
    # The main rulebook's index (the one declared in rules/, which bare
    # citations name): rule number → entry.
    rule_index: dict[str, A.RuleEntry] = field(factory=dict)
    # Every rulebook's index, the main one included: rulebook name → rule
    # number → entry.  A variant's own rulebook (`rulebook soe …` beside its
    # scenario) is cited as `cites soe 12.4.6`.
    rulebooks: dict[str, dict[str, A.RuleEntry]] = field(factory=dict)
    main_rulebook: str | None = None
    scenario: A.ScenarioDecl | None = None
    # The library a scenario's program was derived from (None for a library).
    library: "Program | None" = None
    # Where a scenario's `edit` lines last changed a declaration, by (kind,
    # key): the edit's span and cites, which `pogdsl diff` shows rather than
    # the declaration's own place.
    edited_at: dict = field(factory=dict)
    # Where a scenario's `remove KIND NAME cites N` lines removed a
    # declaration, by (kind, key): the line's span and cites (`pogdsl diff`
    # credits the removal to them).
    removed_at: dict = field(factory=dict)

    # ------------------------------------------------------------ lookups
    def get(self, kind: str, key: str):
        return self.decls[kind].get(key)

    def all(self, kind: str) -> list:
        return list(self.decls[kind].values())

    def rule_entry(self, citation: str) -> A.RuleEntry | None:
        """The index entry a citation names (`12.4.3`, `soe 12.4.6`), None if
        its rulebook or number is unknown."""
        book, number = A.split_citation(citation)
        return self.rulebook_index(book).get(number)

    def rulebook_index(self, book: str | None) -> dict[str, A.RuleEntry]:
        """The index of rulebook BOOK (the main one for None); empty if unknown."""
        if book is None or book == self.main_rulebook:
            return self.rule_index
        return self.rulebooks.get(book, {})

    def card_by_name(self, name: str) -> A.CardDecl | None:
        for card in self.decls["card"].values():
            if card.name.text == name:
                return card
        return None

    def globals(self) -> dict[str, Global]:
        """Every name an expression may use, with its kind."""
        table: dict[str, Global] = {}
        for name, const in CONSTANTS.items():
            table[name] = Global(const.kind, const, None)
        for member, (enum, name) in self.enum_members.items():
            table[member] = Global(enum, self.decls["enum"].get(enum), name.span)
        for kind in _VALUE_KINDS:
            for key, decl in self.decls[kind].items():
                if kind == "state":
                    value_kind = state_value_kind(decl) if decl.scope is None else f"scoped:{decl.key}"
                elif kind == "value":
                    value_kind = "function" if decl.params else ANY
                else:
                    value_kind = kind
                table[key] = Global(value_kind, decl, decl.name.span)
        for card in self.decls["card"].values():
            table.setdefault(card.name.text, Global("card", card, card.name.span))
        return table

    def derived(self) -> "Program":
        """A copy whose namespaces can be changed without touching this one."""
        other = Program()
        other.decls = {k: dict(v) for k, v in self.decls.items()}
        other.connections = list(self.connections)
        other.enum_members = dict(self.enum_members)
        other.rule_index = dict(self.rule_index)
        other.rulebooks = {k: dict(v) for k, v in self.rulebooks.items()}
        other.main_rulebook = self.main_rulebook
        other.scenario = self.scenario
        other.library = self.library or self
        other.edited_at = dict(self.edited_at)
        other.removed_at = dict(self.removed_at)
        return other


def _add(program: Program, decl: A.Decl, reporter: Reporter) -> None:
    kind = decl.kind
    key = decl.key
    existing = program.decls[kind].get(key)
    if existing is not None:
        what = "card" if kind == "card" else kind
        reporter.error("E0401", f"{what} '{key}' is defined twice", decl.name.span,
                       notes=[("first defined here", existing.name.span)],
                       hint="rename one of them, or use `replace` in a scenario to change it")
        return
    program.decls[kind][key] = decl


def _check_global_clashes(program: Program, reporter: Reporter) -> None:
    """Names an expression can use must mean one thing only."""
    seen: dict[str, tuple[str, A.Span]] = {}
    for member, (enum, name) in program.enum_members.items():
        seen[member] = (f"a member of enum '{enum}'", name.span)
    for kind in _VALUE_KINDS:
        for key, decl in program.decls[kind].items():
            if key in seen:
                what, where = seen[key]
                reporter.error("E0401", f"'{key}' is already defined as {what}", decl.name.span,
                               notes=[("defined here", where)],
                               hint="names of sides, nations, spaces, units, tables, state and enum members "
                                    "share one namespace")
            else:
                article = "an" if kind[0] in "aeiou" else "a"
                seen[key] = (f"{article} {kind}", decl.name.span)


def build_program(modules: list[A.Module], reporter: Reporter) -> Program:
    """Collect declarations from every module, reporting duplicates."""
    program = Program()
    rulebooks: list[tuple[A.Module, A.RulebookDecl]] = []
    for module in modules:
        for decl in module.decls:
            if isinstance(decl, A.EnumDecl):
                for member in decl.members:
                    if member.text in program.enum_members:
                        enum, first = program.enum_members[member.text]
                        reporter.error("E0401", f"enum member '{member.text}' is defined twice", member.span,
                                       notes=[(f"first defined in enum '{enum}'", first.span)])
                    else:
                        program.enum_members[member.text] = (decl.key, member)
            if isinstance(decl, A.RulebookDecl):
                rulebooks.append((module, decl))
            _add(program, decl, reporter)
            if isinstance(decl, A.CardDecl):
                for nested in decl.nested:
                    _add(program, nested, reporter)
        program.connections.extend(module.connections)
    _index_rulebooks(program, rulebooks, reporter)
    _check_global_clashes(program, reporter)
    return program


def _index_rulebooks(program: Program, rulebooks: list, reporter: Reporter) -> None:
    """One index per rulebook; the main one (bare citations) is the first
    declared under a rules/ folder, else the first declared."""
    main = next((d for m, d in rulebooks if "rules" in Path(m.path).parts), None)
    if main is None and rulebooks:
        main = rulebooks[0][1]
    for _, decl in rulebooks:
        index = program.rulebooks.setdefault(decl.key, {})
        for entry in decl.entries:
            if entry.number in index:
                first = index[entry.number]
                where = "the rule index" if decl is main else f"rulebook {decl.key}"
                reporter.error("E0603", f"rule {entry.number} is listed twice in {where}",
                               entry.span, notes=[("first listed here", first.span)])
            else:
                index[entry.number] = entry
    if main is not None:
        program.main_rulebook = main.key
        program.rule_index = program.rulebooks[main.key]


def clone_decl(decl: A.Decl) -> A.Decl:
    return copy.copy(decl)
