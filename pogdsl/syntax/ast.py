"""The abstract syntax tree of a `.pog` file.

Every node carries the `Span` of the text it came from; every rule-like block
also carries the rulebook numbers it cites (`cites`) and its note, the rule in
our own words.  Nodes are plain attrs classes so later stages can pickle them
(the parse cache) and compare them (tests).
"""

from __future__ import annotations

from typing import Any

import attrs
from attrs import define, field

from ..numbers import parse_whole
from ..numbers import shown as shown_text


def _repr(self) -> str:
    fields = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in attrs.fields(type(self)))
    return f"{type(self).__name__}({fields})"


def node(cls):
    """An AST node class: an attrs class compared by identity.  Its repr is one
    shared function instead of one generated per class, which halves the cost
    of creating the seventy-odd classes on every start."""
    cls = define(cls, slots=False, eq=False, repr=False)
    cls.__repr__ = _repr
    return cls


@define(frozen=True, slots=False)
class Span:
    file: str
    line: int
    col: int
    end_line: int
    end_col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"

    @property
    def location(self) -> str:
        """`file:line`, the form `pogdsl rules` uses for a citation."""
        return f"{self.file}:{self.line}"


NO_SPAN = Span("<builtin>", 0, 0, 0, 0)


@define(frozen=True, slots=False)
class Citation:
    """One rule number a block cites.  `number` is the citation as it is shown
    everywhere (graph nodes, logs, errors, `pogdsl rules`): the bare number for
    the main rulebook (`12.4.3`), the rulebook's name, a space and the number
    for another one (`soe 12.4.6`)."""

    number: str
    span: Span

    @property
    def rulebook(self) -> str | None:
        """The rulebook named before the number, None for a bare number."""
        return split_citation(self.number)[0]

    @property
    def rule(self) -> str:
        """The number without its rulebook name."""
        return split_citation(self.number)[1]


def citation_text(rulebook: str | None, number: str) -> str:
    """A citation as shown: `12.4.3` or `soe 12.4.6`."""
    return f"{rulebook} {number}" if rulebook else number


def split_citation(text: str) -> tuple[str | None, str]:
    """`soe 12.4.6` → ("soe", "12.4.6"); `12.4.3` → (None, "12.4.3").  Also
    reads a test marker's argument, so any run of spaces separates them."""
    parts = str(text).split()
    if len(parts) == 2:
        return parts[0], parts[1]
    return None, str(text).strip()


@define(frozen=True, slots=False)
class Name:
    """A reference to a named thing, kept with where it was written."""

    text: str
    span: Span

    def __str__(self) -> str:
        return self.text


# ----------------------------------------------------------------------------
# Expressions


@node
class Expr:
    span: Span


@node
class IntLit(Expr):
    value: int


@node
class TextLit(Expr):
    value: str
    # The quoted token as written, kept only when it holds a brace: a text
    # that shows values (syntax/template.py reads its parts when asked).
    raw: str | None = field(default=None, kw_only=True)


@node
class BoolLit(Expr):
    value: bool


@node
class NoneLit(Expr):
    pass


@node
class Ref(Expr):
    name: Name


@node
class ListLit(Expr):
    items: list[Expr]


@node
class RangeLit(Expr):
    low: int
    high: int


@node
class ListComp(Expr):
    item: Expr
    var: Name
    source: Expr
    where: Expr | None


@node
class Attr(Expr):
    obj: Expr
    attr: Name


@node
class Index(Expr):
    obj: Expr
    args: list[Expr]


@node
class Call(Expr):
    func: Name
    args: list[Expr]


@node
class Aggregate(Expr):
    """`sum(u.cf for u in units where ...)`, and likewise any/all/count/min/max."""

    func: str
    item: Expr
    var: Name
    source: Expr
    where: Expr | None


@node
class AggregateCall(Expr):
    """`count(xs)`, `max(a, b)`: an aggregator applied to plain arguments."""

    func: str
    args: list[Expr]


@node
class Reach(Expr):
    """`reach(t from sources where cond)`: every space reachable from the
    sources by lines, entering only spaces where cond holds (t bound to the
    space entered).  The sources themselves are included."""

    var: Name
    source: Expr
    where: Expr | None


@node
class CondExpr(Expr):
    """`if c then a else b`."""

    cond: Expr
    then: Expr
    otherwise: Expr


@node
class Not(Expr):
    operand: Expr


@node
class Neg(Expr):
    operand: Expr


@node
class BinOp(Expr):
    op: str
    left: Expr
    right: Expr


@node
class Compare(Expr):
    op: str
    left: Expr
    right: Expr


@node
class Member(Expr):
    item: Expr
    container: Expr
    negated: bool


@node
class BoolOp(Expr):
    op: str  # "and" | "or"
    operands: list[Expr]


# ----------------------------------------------------------------------------
# Statements


@node
class Stmt:
    span: Span


@node
class Block:
    span: Span
    note: str | None
    body: list[Stmt]


@node
class Let(Stmt):
    var: Name
    value: Expr
    cites: list[Citation] = field(factory=list, kw_only=True)


@node
class If(Stmt):
    branches: list[tuple[Expr, Block]]
    otherwise: Block | None
    cites: list[Citation] = field(factory=list, kw_only=True)


@node
class For(Stmt):
    var: Name
    source: Expr
    where: Expr | None
    body: Block
    cites: list[Citation] = field(factory=list, kw_only=True)


@node
class Repeat(Stmt):
    count: Expr
    var: Name | None
    body: Block
    cites: list[Citation] = field(factory=list, kw_only=True)


@node
class While(Stmt):
    cond: Expr
    body: Block
    cites: list[Citation] = field(factory=list, kw_only=True)


@node
class Binding:
    var: Name
    source: Expr


@node
class Choose(Stmt):
    choice: Name
    vars: list[Name]
    by: Expr
    bindings: list[Binding]
    where: Expr | None
    optional: bool
    optional_label: str | None
    cites: list[Citation] = field(factory=list, kw_only=True)


@node
class Roll(Stmt):
    var: Name
    cites: list[Citation]


@node
class CallStmt(Stmt):
    proc: Name
    args: list[Expr]
    cites: list[Citation] = field(factory=list, kw_only=True)


@node
class Effect(Stmt):
    verb: str
    obj: Expr | None
    args: list[tuple[str, Expr]]
    cites: list[Citation]

    def arg(self, prep: str) -> Expr | None:
        for p, e in self.args:
            if p == prep:
                return e
        return None


@node
class Segment(Stmt):
    name: Name
    cites: list[Citation]
    body: Block


@node
class Return(Stmt):
    cites: list[Citation] = field(factory=list, kw_only=True)


# ----------------------------------------------------------------------------
# Declarations


@node
class Decl:
    """A named top-level definition.  `kind` is its namespace ("space", "card" …)."""

    span: Span
    name: Name
    cites: list[Citation] = field(factory=list, kw_only=True)
    note: str | None = field(default=None, kw_only=True)

    kind: str = "decl"
    # Items written twice in one block (`ops 3 ... ops 4`): (item, span) pairs,
    # kept so the checker can say so instead of the last one silently winning.
    repeated: list = field(factory=list, kw_only=True)

    @property
    def key(self) -> str:
        return self.name.text


@node
class SideDecl(Decl):
    title: str | None = None
    # A side no player plays, enemy of every other side (`side rebels "Rebels" hostile`).
    hostile: bool = False
    kind: str = "side"


@node
class NationDecl(Decl):
    title: str | None = None
    side: Name | None = None
    neutral: bool = False
    minor: bool = False
    kind: str = "nation"


@node
class MapDecl(Decl):
    title: str | None = None
    kind: str = "map"


@node
class EnumDecl(Decl):
    members: list[Name] = field(factory=list)
    kind: str = "enum"


@node
class SpaceDecl(Decl):
    terrain: Name | None = None
    nation: Name | None = None
    map: Name | None = None
    vp: bool = False
    fort: int = 0
    capital: bool = False
    supply: bool = False
    supply_for: Name | None = None
    ports: list[Name] = field(factory=list)
    control: Name | None = None
    at: tuple[int, int] | None = None
    kind: str = "space"


@node
class Connection:
    span: Span
    a: Name
    b: Name
    dotted: bool
    only: list[Name]
    cites: list[Citation]


@node
class BoxDecl(Decl):
    title: str | None = None
    per: Name | None = None
    # What the box takes in without being named: `receives eliminated` makes it
    # where `eliminate` puts units when no destination is given.
    receives: Name | None = None
    kind: str = "box"


@node
class UnitDecl(Decl):
    unit_type: Name | None = None
    nation: Name | None = None
    full: tuple[int, int, int] = (0, 0, 0)
    reduced: tuple[int, int, int] | None = None
    count: int = 1
    rp: Name | None = None
    never_replaced: bool = False
    near_east: bool = False
    kind: str = "unit"


@node
class TableKey:
    span: Span
    kind: str  # "int" | "range" | "at_least" | "name"
    low: int = 0
    high: int = 0
    name: Name | None = None

    def label(self) -> str:
        if self.kind == "int":
            return str(self.low)
        if self.kind == "range":
            return f"{self.low}..{self.high}"
        if self.kind == "at_least":
            return f"{self.low}+"
        return self.name.text if self.name else "?"


@node
class TableRow:
    span: Span
    key: TableKey
    cells: list[Any]  # int | Name


@node
class TableDecl(Decl):
    columns: list[TableKey] = field(factory=list)
    rows: list[TableRow] = field(factory=list)
    kind: str = "table"


@node
class Param:
    name: Name
    type: Name | None
    is_list: bool = False


@node
class StateDecl(Decl):
    state_kind: str = "flag"  # track | counter | flag | marker | var
    scope: Name | None = None
    low: int | None = None
    high: int | None = None
    type: Param | None = None
    start: Expr | None = None
    kind: str = "state"


@node
class ValueDecl(Decl):
    params: list[Param] = field(factory=list)
    expr: Expr | None = None
    kind: str = "value"


@node
class TermDecl(Decl):
    """A term of the evaluation: `weight` times `expr`, for the side given as
    its one parameter, counts towards how good a position is for that side."""

    params: list[Param] = field(factory=list)
    expr: Expr | None = None
    weight: int = 0
    kind: str = "term"


@node
class ChoiceDecl(Decl):
    params: list[Param] = field(factory=list)
    template: str = ""
    # How likely a random player is to pick an option, relative to the others
    # (its parameters bound); players deciding for themselves ignore it.
    weight: Expr | None = None
    # When a hostile side (no player) must decide: the option scoring highest
    # is taken (ties and no `default`: the first legal option listed).
    default: Expr | None = None
    kind: str = "choice"


@node
class SignalDecl(Decl):
    params: list[Param] = field(factory=list)
    kind: str = "signal"


@node
class ProcedureDecl(Decl):
    params: list[Param] = field(factory=list)
    body: Block | None = None
    kind: str = "procedure"


@node
class PhaseDecl(Decl):
    body: Block | None = None
    kind: str = "phase"


@node
class SequenceDecl(Decl):
    phases: list[Name] = field(factory=list)
    kind: str = "sequence"


@node
class Forbid:
    span: Span
    choice: Name
    vars: list[Name]
    when: Expr | None
    unless: Expr | None


@node
class RestrictionDecl(Decl):
    forbids: list[Forbid] = field(factory=list)
    owner: str | None = None  # the card that carries it, if any
    kind: str = "restriction"


@node
class Contribution:
    span: Span
    value: Name
    vars: list[Name]
    op: str  # "+=" | "-=" | ":="
    expr: Expr
    when: Expr | None


@node
class ModifierDecl(Decl):
    contributions: list[Contribution] = field(factory=list)
    owner: str | None = None
    # `after a, b`: the modifiers this one is applied after, so that where
    # both replace (`:=`) one value, this one's result stands.
    after: list[Name] = field(factory=list)
    kind: str = "modifier"


@node
class TriggerDecl(Decl):
    event: Name | None = None
    vars: list[Name] = field(factory=list)
    when: Expr | None = None
    body: Block | None = None
    owner: str | None = None
    kind: str = "trigger"


@node
class CardDecl(Decl):
    side: Name | None = None
    number: int = 0
    deck: Name | None = None
    ops: int = 0
    sr: int = 0
    rp: list[tuple[Name, int]] = field(factory=list)
    war_status: int = 0
    removed: bool = False
    combat: bool = False
    optional: bool = False
    reinforcements: list[Name] = field(factory=list)
    playable: Expr | None = None
    playable_cites: list[Citation] = field(factory=list)
    event: Block | None = None
    event_cites: list[Citation] = field(factory=list)
    nested: list[Decl] = field(factory=list)
    kind: str = "card"

    @property
    def key(self) -> str:
        side = self.side.text if self.side else "?"
        return f"{side} {self.number}"


@node
class ScenarioOption:
    """`option NAME "text"? default V (range LO..HI | one of A, B)? cites?`.

    Its kind: "bool" (default on|off, no domain), "int" (a whole number within
    `low..high`), or "names" (one of `names`; the default may also be none)."""

    span: Span
    name: Name
    title: str | None
    default: bool | int | str | None
    cites: list[Citation]
    kind: str = "bool"
    low: int | None = None
    high: int | None = None
    names: list[Name] = field(factory=list)
    default_span: Span | None = None

    def values_text(self) -> str:
        """The values it takes, as a user writes them."""
        if self.kind == "bool":
            return "on or off"
        if self.kind == "int":
            return f"a whole number in {self.low}..{self.high}"
        shown = [n.text for n in self.names] + (["none"] if self.default is None else [])
        return "one of " + ", ".join(shown)

    def parse_value(self, text: str):
        """The value a user typed (`on`, `3`, `ap`), or ValueError saying
        which values it takes."""
        t = text.strip()
        if self.kind == "bool":
            if t in ("on", "off"):
                return t == "on"
        elif self.kind == "int":
            try:
                n = parse_whole(t)
            except ValueError:
                n = None
            if n is not None and self.low <= n <= self.high:
                return n
        else:
            if t == "none" and self.default is None:
                return None
            if t in [n.text for n in self.names]:
                return t
        raise ValueError(f"option '{self.name.text}' takes {self.values_text()}, not '{shown_text(t)}'")


def option_text(value) -> str:
    """An option's value as a user writes it: on/off, a number, a name, none."""
    if value is True or value is False:
        return "on" if value else "off"
    return "none" if value is None else str(value)


@node
class ScenarioResult:
    """`result NAME "title"? cites?`: a kind of game result the scenario's
    rules may end a game with (`end_game none as NAME`), beyond a side's win
    and a draw: both players lose, a decisive or a marginal victory ..."""

    span: Span
    name: Name
    title: str | None
    cites: list[Citation]


@node
class Override:
    """`replace DECL`, `add DECL`, `remove KIND NAME`, `remove cites N`,
    `edit KIND TARGET [no] ATTRIBUTE VALUE*` and `replace setup NAME { ... }`
    in a scenario (or a rule set)."""

    span: Span
    # "replace" | "add" | "remove" | "remove_cites" | "edit" | "replace_setup" | "when" | "extend_enum"
    # | "add_connection" | "remove_connection"
    action: str
    decl: Decl | None = None
    target_kind: Name | None = None
    target: str | None = None
    target_span: Span | None = None
    rule: Citation | None = None
    # `insert phase NAME before|after PHASE in SEQUENCE` (action "insert_phase",
    # target: the phase inserted, into: the sequence) and `insert into KIND NAME
    # before|after SEGMENT { ... }` (action "insert_steps", target_kind KIND,
    # target NAME, body the statements); `at start` / `at end` too.
    position: str | None = None  # "before" | "after" | "at"
    anchor: Name | None = None
    into: Name | None = None
    body: Block | None = None
    # `edit`: the attribute, whether it is turned off (`no`), its values (Name,
    # int or factors, each with its span) and the rules the change implements.
    attribute: Name | None = None
    negated: bool = False
    values: list = field(factory=list)
    cites: list[Citation] = field(factory=list)
    # `replace setup NAME cites? { ... }`: the new block.
    block: Block | None = None
    # `when option NAME { ... }`: the option (target, target_span) and the
    # items that apply only when it is on: overrides and set-up blocks.
    items: list = field(factory=list)
    # `add connections { ... }` (one override per line) and `remove connection A -- B`.
    connection: Connection | None = None


@node
class SetupBlock:
    """One `setup NAME? cites? { ... }` block of a scenario: a named one can be
    replaced or removed by a scenario that extends it."""

    span: Span
    name: Name | None
    block: Block
    cites: list[Citation] = field(factory=list)


@node
class ScenarioDecl(Decl):
    title: str | None = None
    extends: Name | None = None
    turns: tuple[int, int] | None = None
    turns_span: Span | None = None
    turns_cites: list[Citation] = field(factory=list)
    sequence: Name | None = None
    options: list[ScenarioOption] = field(factory=list)
    limits: dict = field(factory=dict)  # `limit NAME N`: name → (N, span of the name)
    results: list[ScenarioResult] = field(factory=list)
    setup: list[Block] = field(factory=list)
    setup_cites: list[Citation] = field(factory=list)
    overrides: list[Override] = field(factory=list)
    # The set-up blocks with their names and citations (`setup` and
    # `setup_cites` are what they add up to).
    setup_blocks: list[SetupBlock] = field(factory=list)
    uses: list[Name] = field(factory=list)  # `uses RULESET, ...`: applied before the scenario's own items
    kind: str = "scenario"


@node
class RulesetDecl(ScenarioDecl):
    """`ruleset NAME "title" cites N { ... }`: scenario items that any scenario
    applies with `uses NAME`, without copying them."""

    kind: str = "ruleset"


@node
class RuleEntry:
    span: Span
    number: str
    title: str | None
    not_applicable: str | None
    # `same_as N`: this rulebook's rule is the main rulebook's rule N (renumbered
    # or restated), so covering N covers it.
    same_as: Citation | None = None
    # `approximated "why"`: implemented, but not in every detail (what is left out).
    approximated: str | None = None


@node
class RulebookDecl(Decl):
    title: str | None = None
    entries: list[RuleEntry] = field(factory=list)
    kind: str = "rulebook"


@node
class DisplayItem:
    """One line of a `display` block: `colour side ap "#2f5fa8"` (what is
    `kind` side, whose `name` ap, drawn in `text`), `glyph fort "F"`,
    `marker trench "T"`, `track vp "Victory Points"` (`item` is the line's
    keyword, `name` what it is about, `text` its colour, glyph or label)."""

    span: Span
    item: str
    kind: str | None
    name: Name
    text: str
    # `track rp_points "RP" for fr, ge`: the sides or nations whose values a
    # track kept per side or nation shows (all of them when empty).
    only: list[Name] = field(factory=list)
    # `track left "OPS Left" in operations`: a local of that procedure, read
    # from its innermost running frame (no value while none runs).
    within: Name | None = None


@node
class DisplayDecl(Decl):
    """How the board is drawn (pogdsl/board/svg.py reads it); no rule reads it."""

    items: list[DisplayItem] = field(factory=list)
    kind: str = "display"


@node
class SpacesBlock:
    """Kept only so the formatter can print spaces grouped as written."""

    span: Span
    spaces: list[SpaceDecl]


@node
class Module:
    """One parsed file: its declarations and connections in source order."""

    path: str
    decls: list[Decl] = field(factory=list)
    connections: list[Connection] = field(factory=list)


def walk_exprs(node: Any):
    """Yield every Expr inside a node (statement, block, expression, decl)."""
    stack = [node]
    while stack:
        n = stack.pop()
        if n is None:
            continue
        if isinstance(n, Expr):
            yield n
            if n.__class__ is TextLit and n.raw is not None:  # the expressions a text shows
                from .template import template_parts

                stack.extend(p for p in template_parts(n)[0] if not isinstance(p, str))
                continue
        if isinstance(n, (list, tuple)):
            stack.extend(n)
            continue
        if attrs.has(type(n)):
            for f in attrs.fields(type(n)):
                v = getattr(n, f.name)
                if isinstance(v, (Expr, Stmt, Block, list, tuple, Binding, Forbid, Contribution)) or (
                    attrs.has(type(v)) and not isinstance(v, (Span, Name, Citation))
                ):
                    stack.append(v)
