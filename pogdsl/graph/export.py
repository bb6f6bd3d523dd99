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


def to_json_data(g: nx.MultiDiGraph) -> dict:
    return {
        "scenario": g.graph.get("scenario"),
        "nodes": [{"id": n, **_clean(d)} for n, d in g.nodes(data=True)],
        "edges": [{"source": a, "target": b, **_clean(d)} for a, b, d in g.edges(data=True)],
    }


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
