"""Checked program → rule graph (a networkx MultiDiGraph).

Nodes are keyed ``kind:name`` (``procedure:take_losses``, ``card:cp 1``,
``rule:12.4.3``, ``step:procedure:take_losses#4``) and carry ``kind``, ``name``,
``file``, ``line``, ``span`` and ``cites`` (the rule numbers), plus the
declaration itself under ``decl`` for the interpreter.

Edges carry ``kind``, one of:

=========== ==================================================================
next        sequence order: sequence → phase → phase, owner → first step,
            step → following step (``branch`` marks a jump target)
calls       a step that runs a procedure
reads       a step, value, modifier, restriction or card condition → state,
            table or value it reads
writes      a step → state it changes (engine areas: ``engine:board`` …)
restricts   restriction → the choice it forbids options of
modifies    modifier → the value it contributes to
after       modifier → a modifier it is applied after (its ``:=`` stands)
triggers    event or signal → the trigger it runs
overrides   scenario → a definition it replaced, edited or added: its own
            changes, not its parent's (``action`` add or replace, and
            ``change`` as ``pogdsl diff`` says it)
cites       any node → the rule it implements
offers      a `choose` step → its choice (what restrictions act on)
emits       a step → the signal it raises
owns        card → a modifier, restriction or trigger written inside it
connects    space → space (``dotted`` and ``only`` on dotted lines)
=========== ==================================================================
"""

from __future__ import annotations

import networkx as nx

from ..syntax import ast as A
from ..semantics.model import Program
from ..semantics.vocabulary import EVENTS, VERBS
from .lower import Step, lower

EDGE_KINDS = ("next", "calls", "reads", "writes", "restricts", "modifies", "after", "triggers",
              "overrides", "cites", "offers", "emits", "owns", "connects")

# The engine's own areas of state, written by effects rather than declared.
ENGINE_AREAS = ("board", "cards", "events", "log", "game")


def node_id(kind: str, key: str) -> str:
    return f"{kind}:{key}"


class GraphBuilder:
    def __init__(self, program: Program):
        self.p = program
        self.g = nx.MultiDiGraph(name=program.scenario.key if program.scenario else "library")
        self.state_names = set(program.decls["state"])
        self.table_names = set(program.decls["table"])
        self.value_names = set(program.decls["value"])

    # ------------------------------------------------------------ basics
    def add_decl(self, decl: A.Decl, kind: str | None = None, **attrs) -> str:
        kind = kind or decl.kind
        nid = node_id(kind, decl.key)
        span = decl.span
        cites = [c.number for c in decl.cites]
        self.g.add_node(nid, kind=kind, name=decl.key, file=span.file, line=span.line, span=str(span),
                        cites=cites, note=decl.note, decl=decl, **attrs)
        for number in cites:
            self.cite(nid, number)
        return nid

    def cite(self, nid: str, number: str) -> None:
        rid = node_id("rule", number)
        if rid not in self.g:
            entry = self.p.rule_entry(number)
            self.g.add_node(rid, kind="rule", name=number, title=entry.title if entry else None,
                            not_applicable=entry.not_applicable if entry else None,
                            file=entry.span.file if entry else None, line=entry.span.line if entry else None,
                            span=str(entry.span) if entry else None, cites=[])
        self.g.add_edge(nid, rid, kind="cites")

    def edge(self, a: str, b: str, kind: str, **attrs) -> None:
        self.g.add_edge(a, b, kind=kind, **attrs)

    # ------------------------------------------------------------ build
    def build(self) -> nx.MultiDiGraph:
        p = self.p
        # The main rulebook's rules are all nodes; another rulebook's appear
        # where something cites them (`cite`: node `rule:soe 12.4.6`).
        for entry in p.rule_index.values():
            self.g.add_node(node_id("rule", entry.number), kind="rule", name=entry.number, title=entry.title,
                            not_applicable=entry.not_applicable, file=entry.span.file, line=entry.span.line,
                            span=str(entry.span), cites=[])
        for area in ENGINE_AREAS:
            self.g.add_node(node_id("engine", area), kind="engine", name=area, cites=[])
        for name, event in EVENTS.items():
            self.g.add_node(node_id("event", name), kind="event", name=name, note=event.doc, cites=[])
        for kind in ("side", "nation", "map", "enum", "box", "unit", "table", "choice", "signal"):
            for decl in p.all(kind):
                self.add_decl(decl)
        for space in p.all("space"):
            self.add_decl(space, terrain=space.terrain.text if space.terrain else None,
                          nation=space.nation.text if space.nation else None,
                          map=space.map.text if space.map else None, vp=space.vp, fort=space.fort,
                          capital=space.capital, supply=space.supply,
                          ports=[n.text for n in space.ports],
                          control=space.control.text if space.control else None, at=space.at)
        for c in p.connections:
            self.edge(node_id("space", c.a.text), node_id("space", c.b.text), "connects",
                      dotted=c.dotted, only=[n.text for n in c.only])
        # Nodes first, so that edges between them never depend on order.
        for kind in ("state", "value", "term", "procedure", "phase", "sequence", "restriction", "modifier"):
            for decl in p.all(kind):
                extra = {}
                if kind == "term":
                    extra = dict(weight=decl.weight)
                if kind == "state":
                    extra = dict(state_kind=decl.state_kind, scope=decl.scope.text if decl.scope else None,
                                 low=decl.low, high=decl.high)
                self.add_decl(decl, **extra)
        for t in p.all("trigger"):
            self.add_decl(t, event=t.event.text)
        for card in p.all("card"):
            nid = self.add_decl(card, side=card.side.text if card.side else None, number=card.number,
                                ops=card.ops, sr=card.sr, title=card.name.text)
            for c in card.playable_cites + card.event_cites:
                self.cite(nid, c.number)

        # The board's drawing reads the state its markers and tracks show, so
        # "what reads trench?" names the picture too.
        for display in p.all("display"):
            nid = self.add_decl(display)
            for item in display.items:
                if item.item in ("marker", "track") and item.within is None and item.name.text in p.decls["state"]:
                    self.edge(nid, node_id("state", item.name.text), "reads")
                elif item.item == "marker" and item.name.text in p.decls["value"]:
                    self.edge(nid, node_id("value", item.name.text), "reads")

        for state in p.all("state"):
            if state.start is not None:
                self.reads_of(node_id("state", state.key), [state.start])
        for value in p.all("value"):
            self.reads_of(node_id("value", value.key), [value.expr])
        for term in p.all("term"):
            self.reads_of(node_id("term", term.key), [term.expr])
        for proc in p.all("procedure"):
            self.add_code(node_id("procedure", proc.key), proc.body, proc.cites)
        for phase in p.all("phase"):
            self.add_code(node_id("phase", phase.key), phase.body, phase.cites)
        for seq in p.all("sequence"):
            previous = node_id("sequence", seq.key)
            for name in seq.phases:
                pid = node_id("phase", name.text)
                self.edge(previous, pid, "next")
                previous = pid
        for r in p.all("restriction"):
            nid = node_id("restriction", r.key)
            for f in r.forbids:
                self.edge(nid, node_id("choice", f.choice.text), "restricts")
                self.reads_of(nid, [f.when, f.unless])
        for m in p.all("modifier"):
            nid = node_id("modifier", m.key)
            for c in m.contributions:
                self.edge(nid, node_id("value", c.value.text), "modifies", op=c.op)
                self.reads_of(nid, [c.expr, c.when])
            for n in m.after:
                if n.text in p.decls["modifier"]:
                    self.edge(nid, node_id("modifier", n.text), "after")
        for t in p.all("trigger"):
            nid = node_id("trigger", t.key)
            source = node_id("event" if t.event.text in EVENTS else "signal", t.event.text)
            self.edge(source, nid, "triggers")
            self.reads_of(nid, [t.when])
            self.add_code(nid, t.body, t.cites)
        for card in p.all("card"):
            nid = node_id("card", card.key)
            if card.playable is not None:
                self.reads_of(nid, [card.playable])
            if card.event is not None:
                self.add_code(nid, card.event, card.cites + card.event_cites, label="event")
            for nested in card.nested:
                self.edge(nid, node_id(nested.kind, nested.key), "owns")
        for scenario in p.all("scenario"):
            self.add_decl(scenario, title=scenario.title)
        if p.scenario is not None:
            self.add_scenario(p.scenario)
        return self.g

    def add_scenario(self, s: A.ScenarioDecl) -> None:
        nid = node_id("scenario", s.key)
        self.g.nodes[nid].update(active=True, turns=s.turns, turns_rules=[c.number for c in s.turns_cites],
                                 sequence=s.sequence.text if s.sequence else None,
                                 options={o.name.text: o.default for o in s.options})
        self.g.graph["scenario"] = s.key
        for i, block in enumerate(s.setup):
            self.add_code(nid, block, s.cites + s.setup_cites, label=f"setup{i}")
        # Credited with its own changes only: what it plays differently from
        # what its parent plays (from the library, for a scenario extending
        # none), worked out from the two programs, not from its lines.
        removed = []
        for change in self.own_changes(s):
            if change.change == "removed":
                removed.append(f"{change.kind} {change.name}")
                continue
            target = node_id(change.namespace, change.name)
            if target in self.g:
                self.edge(nid, target, "overrides", action="add" if change.change == "added" else "replace",
                          change=change.change)
        self.g.nodes[nid]["removed"] = removed

    def own_changes(self, s: A.ScenarioDecl) -> list:
        from ..semantics.diff import diff_declarations
        from ..semantics.variants import effective_program
        from ..diagnostics import Reporter

        library = self.p.library
        if library is None:  # a program built directly, not derived for a scenario
            return []
        own = library.get("scenario", s.key)
        parent_decl = library.get("scenario", own.extends.text) if own is not None and own.extends else None
        parent = effective_program(library, parent_decl, Reporter())[0] if parent_decl is not None else library
        return [c for c in diff_declarations(parent, self.p) if c.namespace in self.p.decls]

    # ------------------------------------------------------------ code
    def add_code(self, owner: str, block: A.Block | None, cites, label: str = "body") -> list[str]:
        owner_cites = tuple(c.number for c in cites)
        steps = lower(block, owner_cites)
        prefix = f"step:{owner}" + ("" if label == "body" else f"/{label}")
        ids = [f"{prefix}#{i}" for i in range(len(steps))]
        self.g.nodes[owner].setdefault("code", {})[label] = ids
        for i, (sid, step) in enumerate(zip(ids, steps)):
            self.g.add_node(sid, kind="step", name=f"{step.op}", op=step.op, owner=owner, index=i,
                            file=step.span.file, line=step.span.line, span=str(step.span),
                            cites=list(step.cites), step=step)
            for number in step.cites:
                if number not in owner_cites:
                    self.cite(sid, number)
            self.step_edges(sid, step)
        if ids:
            self.edge(owner, ids[0], "next")
        for i, step in enumerate(steps):
            if step.op not in ("jump", "return") and i + 1 < len(ids):
                self.edge(ids[i], ids[i + 1], "next")
            if step.jump is not None and step.jump < len(ids):
                self.edge(ids[i], ids[step.jump], "next", branch=True)
        return ids

    def step_edges(self, sid: str, step: Step) -> None:
        node = step.node
        exprs: list = []
        if step.op == "call":
            self.edge(sid, node_id("procedure", step.args["proc"]), "calls")
            exprs = list(node.args)
        elif step.op == "choose":
            self.edge(sid, node_id("choice", step.args["choice"]), "offers")
            exprs = [node.by, node.where] + [b.source for b in node.bindings]
        elif step.op == "effect":
            self.effect_edges(sid, node)
            exprs = [e for _, e in node.args]
            if node.verb not in ("set", "shift"):
                exprs.append(node.obj)
        elif step.op in ("let", "branch", "repeat_init"):
            exprs = [node]
        elif step.op == "for_init":
            exprs = [node.source]
        self.reads_of(sid, exprs)

    def effect_edges(self, sid: str, e: A.Effect) -> None:
        verb = VERBS[e.verb]
        if e.verb in ("set", "shift"):
            target = e.obj
            name = None
            if isinstance(target, A.Ref):
                name = target.name.text
            elif isinstance(target, A.Index) and isinstance(target.obj, A.Ref):
                name = target.obj.name.text
                self.reads_of(sid, target.args)
            elif isinstance(target, A.Attr):
                name = target.attr.text
                self.reads_of(sid, [target.obj])
            if name in self.state_names:
                self.edge(sid, node_id("state", name), "writes")
            return
        if e.verb == "emit" and isinstance(e.obj, A.Call):
            self.edge(sid, node_id("signal", e.obj.func.text), "emits")
            self.reads_of(sid, e.obj.args)
            return
        if verb.writes in ENGINE_AREAS:
            self.edge(sid, node_id("engine", verb.writes), "writes")

    def reads_of(self, nid: str, exprs) -> None:
        seen: set[str] = set()
        for root in exprs:
            if root is None:
                continue
            for e in A.walk_exprs(root):
                target = None
                if isinstance(e, A.Ref):
                    name = e.name.text
                    if name in self.state_names:
                        target = node_id("state", name)
                    elif name in self.table_names:
                        target = node_id("table", name)
                    elif name in self.value_names:
                        target = node_id("value", name)
                elif isinstance(e, A.Attr) and e.attr.text in self.state_names:
                    target = node_id("state", e.attr.text)
                elif isinstance(e, A.Call) and e.func.text in self.value_names:
                    target = node_id("value", e.func.text)
                if target and target not in seen and target in self.g:
                    seen.add(target)
                    self.edge(nid, target, "reads")


def build_graph(program: Program) -> nx.MultiDiGraph:
    return GraphBuilder(program).build()
