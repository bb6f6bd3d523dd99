"""Rule graph → JSON (node-link) and Graphviz DOT, for tools and people."""

from __future__ import annotations

import json

import networkx as nx

# Attributes that hold Python objects for the interpreter, not data for export.
_INTERNAL = {"decl", "step"}


def _clean(attrs: dict) -> dict:
    out = {}
    for key, value in attrs.items():
        if key in _INTERNAL or value is None:
            continue
        if isinstance(value, tuple):
            value = list(value)
        out[key] = value
    return out


def _exportable(g: nx.MultiDiGraph) -> nx.MultiDiGraph:
    """A copy holding only data: the interpreter's Python objects left out,
    tuples as lists (JSON has no tuples)."""
    h = nx.MultiDiGraph(scenario=g.graph.get("scenario"))
    h.add_nodes_from((n, _clean(d)) for n, d in g.nodes(data=True))
    h.add_edges_from((a, b, k, _clean(d)) for a, b, k, d in g.edges(keys=True, data=True))
    return h


def to_json_data(g: nx.MultiDiGraph) -> dict:
    """networkx's own node-link form, so that `nx.node_link_graph(data,
    edges="edges")` reads it back as the directed multigraph it is: the data
    says `directed` and `multigraph` and keeps every edge's key."""
    data = nx.node_link_data(_exportable(g), edges="edges")
    # Also at the top, where readers of earlier exports found it; the reader
    # ignores keys it does not know.
    data["scenario"] = g.graph.get("scenario")
    return data


def from_json_data(data: dict) -> nx.MultiDiGraph:
    """The graph a `to_json_data` export describes."""
    return nx.node_link_graph(data, edges="edges")


def to_json(g: nx.MultiDiGraph) -> str:
    return json.dumps(to_json_data(g), indent=1, sort_keys=False)


_SHAPES = {
    "phase": "box", "sequence": "box", "procedure": "component", "step": "point", "rule": "note",
    "restriction": "octagon", "modifier": "diamond", "trigger": "hexagon", "card": "tab", "state": "cylinder",
    "scenario": "folder", "choice": "invhouse",
}


def _quote(text: str) -> str:
    """A DOT string: backslashes and quotes escaped, line breaks as DOT's \\n."""
    escaped = str(text).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


def to_dot(g: nx.MultiDiGraph, include=None) -> str:
    """DOT text; `include` limits it to nodes of those kinds (default: all but
    spaces, units and steps, which make the picture unreadable)."""
    kinds = set(include) if include else None
    hidden = {"space", "unit", "step", "engine", "event"} if kinds is None else set()

    def shown(n):
        kind = g.nodes[n].get("kind")
        return kind in kinds if kinds is not None else kind not in hidden

    lines = [f"digraph {_quote(g.graph.get('scenario') or 'pogdsl')} {{", "  rankdir=LR;",
             "  node [fontname=Helvetica fontsize=10];"]
    for n, d in g.nodes(data=True):
        if not shown(n):
            continue
        label = d.get("name", n)
        if d.get("cites"):
            label = f"{label}\n[{', '.join(d['cites'])}]"
        lines.append(f"  {_quote(n)} [label={_quote(label)} shape={_SHAPES.get(d.get('kind'), 'ellipse')}];")
    for a, b, d in g.edges(data=True):
        if shown(a) and shown(b):
            lines.append(f"  {_quote(a)} -> {_quote(b)} [label={_quote(d.get('kind', ''))}];")
    lines.append("}")
    return "\n".join(lines) + "\n"
