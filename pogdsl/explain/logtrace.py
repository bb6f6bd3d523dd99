"""Which blocks wrote each line of a game's log.

A log entry records its text and rules, not where it was written (the state,
its hash and saves must not depend on the source layout).  To trace it, the
game is played again from its record with the game's `log` watched: at each
line written, the interpreter's stack of frames says which statement ran,
in which block (phase, procedure, card event, trigger, set-up), called from
where.  Play itself is untouched: the watching is on this replay's game only.
"""

from __future__ import annotations

from attrs import define, field

from ..runtime.errors import BadSave, GameError, IllegalOption
from ..syntax import ast as A

DRIVER = "driver"  # the frame of the sequence of play (interpreter.DRIVER): no block of its own


@define
class Frame:
    """One block running when a line was written, and the statement it was at."""

    kind: str            # phase, procedure, card, trigger, scenario
    name: str
    span: A.Span | None  # the statement running
    rules: list[str]     # the statement's citations
    note: str | None     # the block's own-words note
    title: str | None = None  # a card's name

    def to_text(self) -> str:
        at = f" at {self.span.location}" if self.span is not None else ""
        rules = f" (rule {', '.join(self.rules)})" if self.rules else ""
        note = f": {self.note}" if self.note else ""
        title = f" '{self.title}'" if self.title else ""
        return f"{self.kind} {self.name}{title}{at}{rules}{note}"

    def to_json(self) -> dict:
        return {"kind": self.kind, "block": self.name, "title": self.title, "file": self.span.file if self.span else None,
                "line": self.span.line if self.span else None, "rules": list(self.rules), "note": self.note}


@define
class LogLine:
    """A log entry (1-based `number`) with the blocks that wrote it, innermost first."""

    number: int
    entry: dict
    frames: list[Frame] = field(factory=list)

    def to_text(self) -> str:
        rules = f"  [{', '.join(self.entry['rules'])}]" if self.entry.get("rules") else ""
        head = f"#{self.number} T{self.entry['turn']} {self.entry['phase'] or 'set-up'}: {self.entry['text']}{rules}"
        lines = [head]
        for i, frame in enumerate(self.frames):
            lines.append(("  written by " if i == 0 else "  called from ") + frame.to_text())
        return "\n".join(lines)

    def to_json(self) -> dict:
        return {"number": self.number, **self.entry, "blocks": [f.to_json() for f in self.frames]}


def trace_log(session) -> list[LogLine]:
    """Every line of SESSION's log, with the blocks that wrote it: the game
    is played again from its seed and record (decisions, dice, hands)."""
    from ..runtime.record import Session

    opened = session.opened
    game = opened.new_game(session.game.s["seed"])
    written: list[list[Frame]] = []
    plain_log = game.log

    def watched_log(text, cites=(), quiet=False):
        before = len(game.s["log"])
        plain_log(text, cites, quiet)
        if len(game.s["log"]) > before:
            written.append(_frames(game))
    game.log = watched_log  # this replay's game only: play elsewhere is untouched
    replay = Session(opened, game, [], session.path)
    events = list(session.events)
    first = next((i for i, e in enumerate(events) if e.kind != "dice"), len(events))
    try:
        for e in events[:first]:
            replay.apply_input(e, started=False)
        game.run()
        for e in events[first:]:
            if e.kind == "decision":
                replay.choose(e.text, by=e.by)
            else:
                replay.apply_input(e)
    except (IllegalOption, GameError, ValueError) as err:
        raise BadSave(f"{session.path}: the game does not play again the same way to trace its log ({err})") \
            from None
    return [LogLine(i, entry, frames) for i, (entry, frames) in enumerate(zip(game.s["log"], written), 1)]


def _frames(game) -> list[Frame]:
    program = game.w.program
    out = []
    for frame in reversed(game.s["stack"]):
        if frame["code"] == DRIVER:
            continue
        code = game.w.codes.get(frame["code"])
        if code is None:
            continue
        step = code.steps[frame["pc"] - 1] if 0 < frame["pc"] <= len(code.steps) else None
        kind, _, rest = frame["code"].partition(":")
        name = rest.split("/")[0]
        decl = program.decls.get(kind, {}).get(name)
        rules = list(step.cites) if step is not None else list(code.cites)
        if not rules and decl is not None:
            rules = [c.number for c in decl.cites]
        title = decl.name.text if kind == "card" and decl is not None else None
        out.append(Frame(kind, name, step.span if step is not None else None, rules,
                         getattr(decl, "note", None), title))
    return out
