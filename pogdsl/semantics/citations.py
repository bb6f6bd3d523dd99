"""Where each rule number is cited: the basis of `pogdsl rules` and of the
citation checks."""

from __future__ import annotations

from collections import defaultdict

from ..syntax import ast as A
from .model import Program


def collect_citations(program: Program) -> dict[str, list[A.Span]]:
    """Rule number → the spans of every `cites` naming it, in source order.
    A number of another rulebook than the main one is keyed as it is shown,
    `soe 12.4.6`; one naming the main rulebook (`pog_deluxe 12.4.3`) is keyed
    by its bare number."""
    cited: dict[str, list[A.Span]] = defaultdict(list)
    main = program.main_rulebook

    def note(cites):
        for c in cites:
            cited[c.rule if main is not None and c.rulebook == main else c.number].append(c.span)

    def block(b: A.Block | None):
        if b is None:
            return
        for s in b.body:
            note(getattr(s, "cites", ()))
            if isinstance(s, A.Segment):
                block(s.body)
            elif isinstance(s, A.If):
                for _, branch in s.branches:
                    block(branch)
                block(s.otherwise)
            elif isinstance(s, (A.For, A.Repeat, A.While)):
                block(s.body)

    # A scenario's program counts its own scenario block only; the library counts all.
    scenarios = [program.scenario] if program.scenario is not None else \
        program.all("scenario") + program.all("ruleset")
    decls = [d for kind, table in program.decls.items() if kind not in ("scenario", "ruleset")
             for d in table.values()]
    for decl in decls + scenarios:
        note(decl.cites)
        if isinstance(decl, A.CardDecl):
            note(decl.playable_cites)
            note(decl.event_cites)
            block(decl.event)
        elif isinstance(decl, A.ScenarioDecl):
            note(decl.setup_cites)
            note(decl.turns_cites)
            for option in decl.options:
                note(option.cites)
            for result in decl.results:
                note(result.cites)
            for setup in decl.setup:
                block(setup)
            for o in decl.overrides:  # an `edit` or a replaced set-up block says which rule it implements
                note(o.cites)
                block(o.block)
        else:
            block(getattr(decl, "body", None))
    for connection in program.connections:
        note(connection.cites)
    # One `cites` shared by a block of spaces is one citation, not one per space.
    return {number: sorted(set(spans), key=lambda s: (s.file, s.line, s.col)) for number, spans in cited.items()}
