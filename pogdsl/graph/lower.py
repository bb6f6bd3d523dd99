"""Blocks of statements → flat lists of steps with jumps.

The interpreter runs steps, not trees: a frame is then just (owner, step
index, locals), which serialises to JSON and can stop at any `choose` and
resume in another process.  Every step keeps the span of its statement and the
rule numbers in force where it stands (its own, its segment's, its owner's),
so a log line can cite them.
"""

from __future__ import annotations

from attrs import define, field

from ..syntax import ast as A


@define(slots=True)
class Step:
    op: str
    span: A.Span
    cites: tuple[str, ...]
    node: object = None          # the AST statement or expression it runs
    args: dict = field(factory=dict)
    jump: int | None = None      # branch / loop exit target


def _numbers(cites) -> tuple[str, ...]:
    return tuple(c.number for c in cites)


_BLOCK_STMTS = (A.If, A.For, A.Repeat, A.While)


class _Lowering:
    def __init__(self, owner_cites: tuple[str, ...]):
        self.steps: list[Step] = []
        self.cite_stack: list[tuple[str, ...]] = [owner_cites]
        self.slots = 0

    @property
    def cites(self) -> tuple[str, ...]:
        return self.cite_stack[-1]

    def emit(self, op: str, span: A.Span, node=None, own_cites=(), **args) -> int:
        cites = self.cites + tuple(c for c in own_cites if c not in self.cites)
        self.steps.append(Step(op, span, cites, node, args))
        return len(self.steps) - 1

    def new_slot(self) -> str:
        self.slots += 1
        return f"%loop{self.slots}"

    def block(self, block: A.Block | None) -> None:
        if block is None:
            return
        for stmt in block.body:
            own = getattr(stmt, "cites", None) if isinstance(stmt, _BLOCK_STMTS) else None
            if own:  # `for ... cites N { }`: its steps, the body's included, cite N
                self.cite_stack.append(self.cites + tuple(c for c in _numbers(own) if c not in self.cites))
                getattr(self, "s_" + type(stmt).__name__)(stmt)
                self.cite_stack.pop()
            else:
                getattr(self, "s_" + type(stmt).__name__)(stmt)

    def s_Let(self, s: A.Let):
        self.emit("let", s.span, s.value, own_cites=_numbers(s.cites), var=s.var.text)

    def s_Effect(self, s: A.Effect):
        self.emit("effect", s.span, s, own_cites=tuple(c.number for c in s.cites), verb=s.verb)

    def s_Roll(self, s: A.Roll):
        self.emit("roll", s.span, s, own_cites=tuple(c.number for c in s.cites), var=s.var.text)

    def s_Choose(self, s: A.Choose):
        self.emit("choose", s.span, s, own_cites=_numbers(s.cites), choice=s.choice.text)

    def s_CallStmt(self, s: A.CallStmt):
        self.emit("call", s.span, s, own_cites=_numbers(s.cites), proc=s.proc.text)

    def s_Return(self, s: A.Return):
        self.emit("return", s.span, s, own_cites=_numbers(s.cites))

    def s_Segment(self, s: A.Segment):
        cites = self.cites + tuple(c.number for c in s.cites if c.number not in self.cites)
        self.cite_stack.append(cites)
        self.emit("segment", s.span, s, name=s.name.text)
        self.block(s.body)
        self.emit("end_segment", s.span, s, name=s.name.text)
        self.cite_stack.pop()

    def s_If(self, s: A.If):
        exits = []
        for cond, body in s.branches:
            test = self.emit("branch", cond.span, cond)
            self.block(body)
            exits.append(self.emit("jump", body.span))
            self.steps[test].jump = len(self.steps)
        if s.otherwise is not None:
            self.block(s.otherwise)
        end = len(self.steps)
        for j in exits:
            self.steps[j].jump = end

    def s_For(self, s: A.For):
        slot = self.new_slot()
        self.emit("for_init", s.span, s, slot=slot)
        head = self.emit("for_next", s.span, s, slot=slot, var=s.var.text)
        if s.where is not None:
            test = self.emit("branch", s.where.span, s.where)
            self.block(s.body)
            self.emit("jump", s.span)
            self.steps[-1].jump = head
            self.steps[test].jump = head
        else:
            self.block(s.body)
            self.emit("jump", s.span)
            self.steps[-1].jump = head
        self.steps[head].jump = len(self.steps)

    def s_Repeat(self, s: A.Repeat):
        slot = self.new_slot()
        self.emit("repeat_init", s.span, s.count, slot=slot)
        head = self.emit("repeat_next", s.span, s, slot=slot, var=s.var.text if s.var else None)
        self.block(s.body)
        self.emit("jump", s.span)
        self.steps[-1].jump = head
        self.steps[head].jump = len(self.steps)

    def s_While(self, s: A.While):
        head = self.emit("branch", s.cond.span, s.cond, loop=True)
        self.block(s.body)
        self.emit("jump", s.span)
        self.steps[-1].jump = head
        self.steps[head].jump = len(self.steps)


def lower(block: A.Block | None, owner_cites: tuple[str, ...] = ()) -> list[Step]:
    """The steps of a block, ending with an implicit return."""
    lowering = _Lowering(tuple(dict.fromkeys(owner_cites)))
    lowering.block(block)
    end_span = block.span if block is not None else A.NO_SPAN
    lowering.emit("return", end_span)
    return lowering.steps
