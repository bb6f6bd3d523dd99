"""Text → rule graph: the mini project under tests/diagnostics/project compiled
and its graph checked against what the source says, line by line.

The expected structure is written out by hand from the source files (see the
line numbers in the comments), so a change to lowering or to the graph builder
that moves an edge shows up here.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import networkx as nx
import pytest

from pogdsl.compiler import compile_paths
from pogdsl.graph.build import EDGE_KINDS, build_graph
from pogdsl.graph.export import from_json_data, to_dot, to_json, to_json_data

DIAG = Path(__file__).resolve().parent / "diagnostics"
PLAY = "project/rules/play.pog"
SCEN = "project/scenarios/mini.pog"

# Kinds of declaration that become graph nodes named kind:key.
NODE_KINDS = ("side", "nation", "map", "enum", "box", "unit", "table", "choice", "signal", "space", "state",
              "value", "procedure", "phase", "sequence", "restriction", "modifier", "trigger", "card", "scenario")


@pytest.fixture(scope="module")
def compiled():
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(DIAG)
        comp = compile_paths(None, root=Path("project"))
    assert comp.reporter.items == []
    return comp


@pytest.fixture(scope="module")
def mini(compiled):
    return compiled.scenarios["mini"][0], build_graph(compiled.scenarios["mini"][0])


@pytest.fixture(scope="module")
def variant(compiled):
    return compiled.scenarios["mini_variant"][0], build_graph(compiled.scenarios["mini_variant"][0])


def out(g, node, kind):
    """Targets of `node`'s edges of one kind, in insertion order."""
    return [b for _, b, d in g.out_edges(node, data=True) if d["kind"] == kind]


def into(g, node, kind):
    return [a for a, _, d in g.in_edges(node, data=True) if d["kind"] == kind]


def steps(g, owner, label="body"):
    """The step ids of an owner's code, with their ops."""
    ids = g.nodes[owner]["code"][label]
    return ids, [g.nodes[i]["op"] for i in ids]


def nxt(g, sid):
    """(fall-through targets, branch targets) of a step's `next` edges."""
    plain, branch = [], []
    for _, b, d in g.out_edges(sid, data=True):
        if d["kind"] == "next":
            (branch if d.get("branch") else plain).append(b)
    return plain, branch


# ------------------------------------------------------------------ nodes

def test_a_node_for_every_declaration(mini):
    program, g = mini
    count = 0
    for kind in NODE_KINDS:
        for key, decl in program.decls[kind].items():
            nid = f"{kind}:{key}"
            assert nid in g, nid
            data = g.nodes[nid]
            assert data["kind"] == kind
            assert data["name"] == key
            assert data["file"] == decl.span.file
            assert data["line"] == decl.span.line
            assert data["cites"] == [c.number for c in decl.cites]
            assert data["decl"] is decl
            count += 1
    assert count >= 45


@pytest.mark.parametrize("nid, kind, file, line, cites", [
    ("procedure:combat", "procedure", PLAY, 16, ["4.2"]),
    ("procedure:take_losses", "procedure", PLAY, 8, ["4.2.2"]),
    ("phase:action", "phase", PLAY, 40, ["5.1"]),
    ("sequence:turn", "sequence", PLAY, 53, ["5.0"]),
    ("restriction:no_belgium", "restriction", PLAY, 55, ["4.1"]),
    ("modifier:trench_drm", "modifier", PLAY, 60, ["3.2"]),
    ("trigger:on_fortress", "trigger", PLAY, 64, ["3.1"]),
    ("choice:activate", "choice", PLAY, 4, ["4.1"]),
    ("state:liege_fallen", "state", "project/rules/state.pog", 4, ["3.1"]),
    ("table:fire", "table", "project/rules/state.pog", 8, ["4.2.1"]),
    ("space:Liege", "space", "project/rules/board.pog", 22, ["2.1"]),
    ("unit:GE 1", "unit", "project/rules/board.pog", 48, ["2.3"]),
    ("card:cp 1", "card", "project/cards/cp/01-opening-gambit.pog", 2, ["6.1"]),
    ("modifier:gambit_drm", "modifier", "project/cards/cp/01-opening-gambit.pog", 11, ["4.2"]),
    ("scenario:mini", "scenario", SCEN, 3, ["7.0"]),
])
def test_node_attributes(mini, nid, kind, file, line, cites):
    _, g = mini
    d = g.nodes[nid]
    assert (d["kind"], d["file"], d["line"], d["cites"]) == (kind, file, line, cites)


def test_node_extras(mini):
    _, g = mini
    liege = g.nodes["space:Liege"]
    assert (liege["nation"], liege["terrain"], liege["fort"], liege["vp"], liege["control"]) == \
        ("be", "clear", 3, True, "ap")
    card = g.nodes["card:cp 1"]
    assert (card["side"], card["number"], card["ops"], card["sr"], card["title"]) == ("cp", 1, 3, 4, "Opening Gambit")
    state = g.nodes["state:trench"]
    assert (state["state_kind"], state["scope"], state["low"], state["high"]) == ("marker", "space", 0, 2)
    scenario = g.nodes["scenario:mini"]
    assert scenario["active"] is True and g.graph["scenario"] == "mini"
    assert (scenario["turns"], scenario["sequence"], scenario["options"]) == ((1, 2), "turn", {"short_game": False})
    assert g.nodes["trigger:on_fortress"]["event"] == "fortress_fell"


# ------------------------------------------------------------------ edges

def test_edge_kinds_are_known(mini, variant):
    for _, g in (mini, variant):
        kinds = Counter(d["kind"] for _, _, d in g.edges(data=True))
        assert set(kinds) <= set(EDGE_KINDS)
    # The variant adds `overrides`; the rest of the vocabulary is already in mini.
    assert set(EDGE_KINDS) - {"overrides"} <= {d["kind"] for _, _, d in mini[1].edges(data=True)}


def test_cites_edges_go_to_rule_nodes(mini):
    program, g = mini
    for nid, data in g.nodes(data=True):
        if data.get("kind") in ("rule", "step", "engine", "event"):
            continue
        assert set(out(g, nid, "cites")) == {f"rule:{n}" for n in data["cites"]}, nid
    for _, target, d in g.edges(data=True):
        if d["kind"] == "cites":
            assert g.nodes[target]["kind"] == "rule"
            assert target[5:] in program.rule_index
    rule = g.nodes["rule:4.2.1"]
    assert (rule["title"], rule["file"], rule["line"]) == ("Fire table", "project/rules/index.pog", 14)
    assert g.nodes["rule:8.1"]["not_applicable"] == "how to write to the publisher; nothing to play"
    assert into(g, "rule:8.1", "cites") == []
    assert set(into(g, "rule:5.0", "cites")) == {"sequence:turn"}


def test_sequence_next_runs_through_the_phases_in_order(mini):
    _, g = mini
    assert out(g, "sequence:turn", "next") == ["phase:action"]
    assert "phase:attrition" in out(g, "phase:action", "next")
    assert out(g, "phase:attrition", "next") == ["step:phase:attrition#0"]


def test_phase_next_goes_to_its_first_step(mini):
    _, g = mini
    ids, ops = steps(g, "phase:action")
    assert ops == ["repeat_init", "repeat_next", "call", "call", "jump", "return"]
    assert ids[0] == "step:phase:action#0"
    assert ids[0] in out(g, "phase:action", "next")
    assert [g.nodes[i]["line"] for i in ids] == [41, 41, 42, 43, 41, 40]


def test_calls(mini):
    _, g = mini
    ids, _ops = steps(g, "phase:action")
    assert out(g, ids[2], "calls") == ["procedure:action_round"]
    assert out(g, ids[3], "calls") == ["procedure:action_round"]
    assert sorted(into(g, "procedure:combat", "calls")) == ["step:procedure:action_round#7"]
    assert into(g, "procedure:take_losses", "calls") == ["step:procedure:combat#3"]


def test_reads_and_writes_of_a_flag(mini):
    _, g = mini
    # combat line 26: `set liege_fallen to true`
    (writer,) = into(g, "state:liege_fallen", "writes")
    assert writer == "step:procedure:combat#7"
    assert (g.nodes[writer]["op"], g.nodes[writer]["line"]) == ("effect", 26)
    # attrition line 48 tests it in the loop's `where`; the restriction tests it in `unless`.
    assert set(into(g, "state:liege_fallen", "reads")) == {"step:phase:attrition#2", "restriction:no_belgium"}
    assert g.nodes["step:phase:attrition#2"]["line"] == 48
    # The shift of a per-side counter writes it; the table lookup reads the table.
    assert into(g, "state:actions", "writes") == ["step:procedure:action_round#1"]
    assert into(g, "table:fire", "reads") == ["step:procedure:combat#1"]
    # Effects on the board write the engine's board area.
    assert "step:procedure:action_round#5" in into(g, "engine:board", "writes")   # move u to reserve
    assert "step:card:cp 1/event#0" in into(g, "engine:board", "writes")          # place 'GE 2' at Aachen


def test_restricts_modifies_triggers_owns_offers_emits(mini):
    _, g = mini
    assert out(g, "restriction:no_belgium", "restricts") == ["choice:activate"]
    mods = {a: d["op"] for a, b, d in g.in_edges("value:attack_drm", data=True) if d["kind"] == "modifies"}
    assert mods == {"modifier:trench_drm": "-=", "modifier:gambit_drm": "+="}
    assert out(g, "modifier:trench_drm", "reads") == ["state:trench"]
    assert out(g, "modifier:gambit_drm", "after") == ["modifier:trench_drm"]
    assert out(g, "signal:fortress_fell", "triggers") == ["trigger:on_fortress"]
    assert out(g, "card:cp 1", "owns") == ["modifier:gambit_drm"]
    assert out(g, "step:procedure:action_round#0", "offers") == ["choice:activate"]
    assert out(g, "step:procedure:take_losses#2", "offers") == ["choice:loss"]
    assert into(g, "signal:fortress_fell", "emits") == ["step:procedure:combat#8"]
    # The trigger's body writes the VP track.
    ids, _ = steps(g, "trigger:on_fortress")
    assert out(g, ids[0], "writes") == ["state:vp"]


def test_connects(mini):
    _, g = mini
    edges = {(a, b): d for a, b, d in g.edges(data=True) if d["kind"] == "connects"}
    assert len(edges) == 7
    assert edges[("space:Paris", "space:Sedan")] == {"kind": "connects", "dotted": False, "only": []}
    assert edges[("space:Paris", "space:Brussels")] == {"kind": "connects", "dotted": True, "only": ["be", "fr"]}
    assert ("space:Sedan", "space:Liege") in edges


def test_overrides_from_a_variant(variant, mini):
    _program, g = variant
    over = {(b, d["action"]) for a, b, d in g.out_edges("scenario:mini_variant", data=True)
            if d["kind"] == "overrides"}
    assert over == {("table:fire", "replace"), ("phase:attrition", "replace"), ("state:variant_rules", "add")}
    # The replacements are the nodes now, with their own place in the source.
    assert (g.nodes["table:fire"]["file"], g.nodes["table:fire"]["line"]) == (SCEN, 17)
    assert (g.nodes["phase:attrition"]["file"], g.nodes["phase:attrition"]["line"]) == (SCEN, 22)
    assert "state:variant_rules" in g and "state:variant_rules" not in mini[1]
    # The variant inherits the base's settings and set-up.
    node = g.nodes["scenario:mini_variant"]
    assert (node["turns"], node["sequence"], node["active"]) == ((1, 2), "turn", True)
    _ids, ops = steps(g, "scenario:mini_variant", "setup0")
    assert ops == ["effect", "effect", "effect", "return"]
    # Nothing in mini overrides anything.
    assert not any(d["kind"] == "overrides" for _, _, d in mini[1].edges(data=True))
    # The replaced attrition phase no longer reads the flag.
    assert into(g, "state:liege_fallen", "reads") == ["restriction:no_belgium"]


# ------------------------------------------------------------------ lowering: if/else and for

def test_if_else_structure(mini):
    """combat, lines 18-28: roll; let; if/else; if without else."""
    _, g = mini
    ids, ops = steps(g, "procedure:combat")
    assert ops == ["roll", "let", "branch", "call", "jump", "effect", "branch", "effect",
                   "effect", "jump", "return"]
    s = dict(enumerate(ids))
    assert [g.nodes[i]["line"] for i in ids] == [18, 19, 20, 21, 20, 23, 25, 26, 27, 25, 16]
    # `if losses > 0`: true falls through into the call, false jumps to the else body.
    assert nxt(g, s[2]) == ([s[3]], [s[5]])
    # The end of the then-body jumps past the else body.
    assert nxt(g, s[4]) == ([], [s[6]])
    # The else body falls through to the next statement.
    assert nxt(g, s[5]) == ([s[6]], [])
    # `if s == Liege …` with no else: false jumps to the end.
    assert nxt(g, s[6]) == ([s[7]], [s[10]])
    assert nxt(g, s[9]) == ([], [s[10]])
    # The implicit return ends the code.
    assert nxt(g, s[10]) == ([], [])


def test_for_loop_structure(mini):
    """action_round, lines 32-37: choose; shift; for … where …; call."""
    _, g = mini
    ids, ops = steps(g, "procedure:action_round")
    assert ops == ["choose", "effect", "for_init", "for_next", "branch", "effect", "jump", "call", "return"]
    s = dict(enumerate(ids))
    assert nxt(g, s[2]) == ([s[3]], [])
    # for_next: the next item enters the loop, the end of the list leaves it.
    assert nxt(g, s[3]) == ([s[4]], [s[7]])
    # The `where` test: true runs the body, false goes back for the next item.
    assert nxt(g, s[4]) == ([s[5]], [s[3]])
    # The end of the body goes back to for_next.
    assert nxt(g, s[6]) == ([], [s[3]])
    assert nxt(g, s[7]) == ([s[8]], [])


def test_repeat_loop_structure(mini):
    _, g = mini
    ids, ops = steps(g, "procedure:take_losses")
    assert ops == ["repeat_init", "repeat_next", "choose", "effect", "jump", "return"]
    s = dict(enumerate(ids))
    assert nxt(g, s[1]) == ([s[2]], [s[5]])
    assert nxt(g, s[4]) == ([], [s[1]])


def test_step_cites(mini):
    _, g = mini
    roll = g.nodes["step:procedure:combat#0"]
    # A step carries its owner's rule and its own.
    assert roll["cites"] == ["4.2", "4.2.1"]
    # Only its own citation gets an edge; the owner already cites 4.2.
    assert out(g, "step:procedure:combat#0", "cites") == ["rule:4.2.1"]
    assert g.nodes["step:procedure:combat#1"]["cites"] == ["4.2"]
    assert out(g, "step:procedure:combat#1", "cites") == []
    ev = g.nodes["step:card:cp 1/event#0"]
    assert set(ev["cites"]) == {"6.1"} and ev["owner"] == "card:cp 1"


def test_step_cites_have_no_duplicates(mini):
    _, g = mini
    for nid, data in g.nodes(data=True):
        if data.get("kind") == "step":
            assert len(data["cites"]) == len(set(data["cites"])), (nid, data["cites"])


# ------------------------------------------------------------------ export

def test_json_round_trip(mini):
    _, g = mini
    text = to_json(g)
    data = json.loads(text)
    assert data == to_json_data(g)
    # Read back with networkx's own reader, told nothing: the data says it
    # is a directed multigraph, and edge keys survive.
    assert data["directed"] is True and data["multigraph"] is True
    h = nx.node_link_graph(data, edges="edges")
    assert isinstance(h, nx.MultiDiGraph)
    assert set(h.edges(keys=True)) == set(g.edges(keys=True))
    assert nx.utils.graphs_equal(from_json_data(data), h)
    assert set(h.nodes) == set(g.nodes)
    assert Counter((a, b, d["kind"]) for a, b, d in h.edges(data=True)) == \
        Counter((a, b, d["kind"]) for a, b, d in g.edges(data=True))
    for nid in ("procedure:combat", "space:Liege", "rule:4.2"):
        for key in ("kind", "name", "file", "line", "cites"):
            assert h.nodes[nid][key] == g.nodes[nid][key], (nid, key)
    # Python-only attributes stay out of the export.
    assert all("decl" not in n and "step" not in n for n in data["nodes"])
    # The export is deterministic.
    assert to_json(g) == text


def test_json_round_trip_of_the_variant(variant):
    _, g = variant
    data = json.loads(to_json(g))
    assert data["scenario"] == "mini_variant"
    # Read back with networkx's own reader, told nothing: the data says it
    # is a directed multigraph, and edge keys survive.
    assert data["directed"] is True and data["multigraph"] is True
    h = nx.node_link_graph(data, edges="edges")
    assert isinstance(h, nx.MultiDiGraph)
    assert set(h.edges(keys=True)) == set(g.edges(keys=True))
    assert nx.utils.graphs_equal(from_json_data(data), h)
    assert Counter(d["kind"] for _, _, d in h.edges(data=True)) == Counter(d["kind"] for _, _, d in g.edges(data=True))


def test_dot_export(mini):
    _, g = mini
    dot = to_dot(g)
    assert dot.startswith('digraph "mini" {')
    assert '"phase:action" -> "phase:attrition" [label="next"];' in dot
    # Steps, spaces and units are left out of the default picture.
    assert "step:" not in dot and '"space:Paris"' not in dot
    only = to_dot(g, ["space"])
    assert '"space:Paris" -> "space:Sedan" [label="connects"];' in only
    assert "procedure:" not in only


def test_compiling_twice_gives_the_same_graph(compiled):
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(DIAG)
        again = compile_paths(None, root=Path("project"))
    a = to_json(build_graph(compiled.scenarios["mini"][0]))
    b = to_json(build_graph(again.scenarios["mini"][0]))
    assert a == b
