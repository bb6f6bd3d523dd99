"""`pogdsl diff BASE VARIANT`: what a variant plays differently, item by item,
and `pogdsl graph` crediting a scenario with its own changes only.

The fixture project tests/fixtures/diff has a two-level chain (base ← child ←
grandchild) and an unrelated scenario (solo); its rule numbers (2.9, 2.10,
10.1) make reading order differ from text order.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import attrs
import pytest

from pogdsl.cli import main
from pogdsl.compiler import compile_paths, scenario_graph
from pogdsl.semantics.diff import diff_programs
from pogdsl.syntax import ast as A

REPO = Path(__file__).resolve().parents[1]
FIXTURE = "tests/fixtures/diff"
TOY = "docs/examples/toy"


@pytest.fixture(autouse=True)
def _at_repo(monkeypatch):
    monkeypatch.chdir(REPO)  # sources are shown relative to where pogdsl runs
    monkeypatch.delenv("POGDSL_HOME", raising=False)


def pog(capsys, *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out = capsys.readouterr()
    return status, out.out, out.err


def diff_json(capsys, base: str, variant: str, root: str = FIXTURE) -> list[dict]:
    status, out, err = pog(capsys, "diff", base, variant, "--json", "--root", root)
    assert status == 0 and err == ""
    return json.loads(out)


def items(changes: list[dict]) -> set[tuple[str, str, str]]:
    return {(c["kind"], c["name"], c["change"]) for c in changes}


# ------------------------------------------------------------------ the human table
GOLDEN_CHILD = """\
base -> child: 1 replaced, 1 edited, 1 added, 1 removed
1.2  Pieces
  added     flag landed            tests/fixtures/diff/scenarios/child.pog:5
2.9  Attacks
  removed   restriction no_forest  tests/fixtures/diff/rules/world.pog:34
3.1  Cards
  replaced  card cp 1 'Guns'       tests/fixtures/diff/scenarios/child.pog:6
            event changed
            event:
              - { shift vp by 2 }
              + { shift vp by 3 }
no rule cited
  edited    space Sedan            tests/fixtures/diff/scenarios/child.pog:3
            terrain forest -> clear; cites 1.1 -> none
"""


def test_golden_table(capsys):
    status, out, err = pog(capsys, "diff", "base", "child", "--root", FIXTURE)
    assert (status, err) == (0, "")
    assert out == GOLDEN_CHILD


GOLDEN_GRANDCHILD = """\
child -> grandchild: 2 edited, 3 added
2.1  Turns
  added     option long          tests/fixtures/diff/scenarios/grandchild.pog:4
2.10  Trenches
  edited    marker trench        tests/fixtures/diff/scenarios/grandchild.pog:5
            high 2 -> 3
10.1  Victory
  added     trigger landing      tests/fixtures/diff/scenarios/grandchild.pog:6
no rule cited
  edited    scenario grandchild  tests/fixtures/diff/scenarios/grandchild.pog:3
            turns 1..3 -> 1..5
  added     setup #2             tests/fixtures/diff/scenarios/grandchild.pog:7
"""


def test_golden_table_of_settings_options_and_setup(capsys):
    status, out, _ = pog(capsys, "diff", "child", "grandchild", "--root", FIXTURE)
    assert status == 0
    assert out == GOLDEN_GRANDCHILD


def test_no_differences(capsys):
    status, out, err = pog(capsys, "diff", "child", "child", "--root", FIXTURE)
    assert (status, out, err) == (0, "child -> child: no differences\n", "")
    assert diff_json(capsys, "child", "child") == []


# ------------------------------------------------------------------ the toy variant of the docs
def test_toy_trenches(capsys):
    changes = diff_json(capsys, "toy", "toy_trenches", root=TOY)
    by_item = {(c["kind"], c["name"]): c for c in changes}
    card = by_item[("card", "cp 1")]
    assert card["change"] == "replaced"
    assert {a["name"] for a in card["attributes"]} >= {"event", "playable"}
    assert (card["file"], card["line"], card["cites"]) == (f"{TOY}/scenarios/toy-trenches.pog", 6, ["5.1"])
    sedan = by_item[("space", "Sedan")]
    assert sedan["change"] == "edited"
    assert {"name": "terrain", "from": "forest", "to": "clear"} in sedan["attributes"]
    assert sedan["file"].endswith("toy-trenches.pog")
    # `remove cites 4.4` shows as what it removed, with the base's place and rule.
    forest = by_item[("restriction", "no_forest_attack")]
    assert (forest["change"], forest["cites"], forest["file"]) == ("removed", ["4.4"], f"{TOY}/rules/play.pog")
    assert by_item[("flag", "british_landed")]["change"] == "added"
    assert by_item[("trigger", "landing")]["change"] == "added"
    assert by_item[("trigger", "landing")]["cites"] == ["2.2"]
    trench = by_item[("marker", "trench")]
    assert (trench["change"], trench["attributes"]) == ("edited", [{"name": "high", "from": "2", "to": "3"}])
    # The card replaced takes its nested modifier along.
    assert by_item[("modifier", "gas_drm")]["change"] == "removed"
    assert ("setup", "#2", "added") in items(changes)
    # Nothing else: the rest of the toy game is the same.
    assert len(changes) == 8


def test_toy_trenches_table_names_the_edit(capsys):
    status, out, _ = pog(capsys, "diff", "toy", "toy_trenches", "--root", TOY)
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == "toy -> toy_trenches: 1 replaced, 2 edited, 3 added, 2 removed"
    sedan = next(i for i, line in enumerate(lines) if "space Sedan" in line)
    assert "terrain forest -> clear" in lines[sedan + 1]
    assert lines.index("4.4  No forest attacks on the first turn") + 1 == next(
        i for i, line in enumerate(lines) if "restriction no_forest_attack" in line)


# ------------------------------------------------------------------ JSON and order
def test_json_shape(capsys):
    changes = diff_json(capsys, "base", "grandchild")
    assert changes
    for c in changes:
        assert list(c) == ["kind", "name", "change", "attributes", "cites", "file", "line"]
        assert c["change"] in ("added", "removed", "edited", "replaced")
        assert all(list(a) in (["name", "from", "to"], ["name", "from", "to", "diff"]) for a in c["attributes"])
        assert isinstance(c["line"], int) and Path(c["file"]).exists()
        assert all(isinstance(n, str) for n in c["cites"])
    edited = [c for c in changes if c["change"] == "edited"]
    assert edited and all(c["attributes"] for c in edited)


def _rule_key(number: str):
    return [int(p) for p in number.split(".")]


def test_ordered_by_rule_number_uncited_last(capsys):
    changes = diff_json(capsys, "base", "grandchild")
    firsts = [min(c["cites"], key=_rule_key) if c["cites"] else None for c in changes]
    cited = [f for f in firsts if f is not None]
    # 2.9 before 2.10 before 3.1 before 10.1: numbers, not text.
    assert cited == ["1.2", "2.1", "2.9", "2.10", "3.1", "10.1"]
    assert firsts[len(cited):] == [None] * (len(firsts) - len(cited))
    assert firsts[: len(cited)] == cited


# ------------------------------------------------------------------ a two-level chain
def test_grandchild_against_parent_shows_only_its_own(capsys):
    own = items(diff_json(capsys, "child", "grandchild"))
    assert own == {("option", "long", "added"), ("marker", "trench", "edited"), ("trigger", "landing", "added"),
                   ("scenario", "grandchild", "edited"), ("setup", "#2", "added")}


def test_grandchild_against_grandparent_shows_both(capsys):
    parent = items(diff_json(capsys, "base", "child"))
    own = items(diff_json(capsys, "child", "grandchild"))
    both = items(diff_json(capsys, "base", "grandchild"))
    assert both == parent | own
    assert ("space", "Sedan", "edited") in both and ("marker", "trench", "edited") in both


def test_reverse_diff_swaps_added_and_removed(capsys):
    forward = diff_json(capsys, "base", "child")
    backward = diff_json(capsys, "child", "base")
    swap = {"added": "removed", "removed": "added", "edited": "edited", "replaced": "replaced"}
    assert {(k, n, swap[c]) for k, n, c in items(forward)} == items(backward)
    sedan = next(c for c in backward if c["name"] == "Sedan")
    assert {"name": "terrain", "from": "clear", "to": "forest"} in sedan["attributes"]


def test_unrelated_scenarios_compare(capsys):
    changes = diff_json(capsys, "base", "solo")
    assert items(changes) == {("scenario", "solo", "edited"), ("setup", "#1", "added"), ("setup", "#1", "removed")}
    turns = next(c for c in changes if c["kind"] == "scenario")
    assert turns["attributes"] == [{"name": "turns", "from": "1..3", "to": "1..2"}]
    removed = next(c for c in changes if c["change"] == "removed")
    assert (removed["cites"], removed["file"]) == (["1.2"], f"{FIXTURE}/scenarios/base.pog")


def test_restated_word_for_word_is_no_change(capsys, tmp_path):
    root = tmp_path / "project"
    shutil.copytree(REPO / FIXTURE, root)
    (root / "scenarios" / "same.pog").write_text(
        'scenario same "Same" extends base {\n  replace marker trench per space 0..2 cites 2.10\n}\n',
        encoding="utf-8")
    status, out, _ = pog(capsys, "diff", "base", "same", "--root", str(root))
    assert (status, out) == (0, "base -> same: no differences\n")


def test_variant_given_as_a_file(capsys, tmp_path):
    extra = tmp_path / "deeper.pog"
    extra.write_text('scenario deeper "Deeper" extends base {\n  replace marker trench per space 0..4 cites 2.10\n}\n',
                     encoding="utf-8")
    status, out, _ = pog(capsys, "diff", "base", str(extra), "--json", "--root", FIXTURE)
    assert status == 0
    [change] = json.loads(out)
    assert (change["kind"], change["change"], change["attributes"]) == (
        "marker", "edited", [{"name": "high", "from": "2", "to": "4"}])


# ------------------------------------------------------------------ semantic, whatever made the change
def test_diff_sees_changes_made_by_any_means():
    """The diff compares programs, so an edit made without a `replace` line
    (as attribute edits, added connections and extended enums will be) shows."""
    comp = compile_paths(None, root=REPO / FIXTURE)
    base = comp.scenarios["base"][0]
    variant = base.derived()
    paris = variant.decls["space"]["Paris"]
    variant.decls["space"]["Paris"] = attrs.evolve(paris, vp=False, fort=0)
    link = variant.connections[0]
    variant.connections.append(A.Connection(link.span, A.Name("Paris", link.span), A.Name("Metz", link.span),
                                            True, [], []))
    variant.connections.remove(next(c for c in variant.connections if c.a.text == "Sedan"))
    member = A.Name("swamp", link.span)
    variant.enum_members["swamp"] = ("terrain", member)
    got = {(c.kind, c.name, c.change): [str(a) for a in c.attributes] for c in diff_programs(base, variant)}
    assert got == {("space", "Paris", "edited"): ["vp yes -> no", "fort 3 -> 0"],
                   ("connection", "Paris ~~ Metz", "added"): [],
                   ("connection", "Sedan -- Metz", "removed"): [],
                   ("enum", "terrain", "edited"): ["members clear, forest -> clear, forest, swamp"]}


# ------------------------------------------------------------------ the graph's crediting
def _credited(scenario: str) -> tuple[set[tuple[str, str]], list[str]]:
    _comp, graph = scenario_graph(scenario, root=REPO / FIXTURE)
    node = f"scenario:{scenario}"
    edges = {(b, d["action"]) for _a, b, d in graph.out_edges(node, data=True) if d["kind"] == "overrides"}
    return edges, graph.nodes[node]["removed"]


def test_graph_credits_a_variant_with_its_own_changes():
    assert _credited("child") == ({("space:Sedan", "replace"), ("card:cp 1", "replace"), ("state:landed", "add")},
                                  ["restriction no_forest"])


def test_graph_does_not_credit_a_grandchild_with_its_parents_changes():
    # Before: the grandchild was credited with child's Sedan, card, flag and removal too.
    assert _credited("grandchild") == ({("state:trench", "replace"), ("trigger:landing", "add")}, [])


def test_graph_credits_nothing_to_a_scenario_without_changes():
    assert _credited("base") == (set(), [])


# ------------------------------------------------------------------ usage
def test_unknown_variant_is_usage(capsys):
    status, out, err = pog(capsys, "diff", "base", "grandkid", "--root", FIXTURE)
    assert (status, out) == (2, "")
    assert err.count("\n") == 1
    assert "unknown scenario 'grandkid'" in err
    assert "known scenarios: base, child, grandchild, solo" in err


def test_unknown_base_is_usage(capsys):
    status, out, err = pog(capsys, "diff", "bsae", "child", "--json", "--root", FIXTURE)
    assert (status, out) == (2, "")
    assert err.startswith("pogdsl diff: error: unknown scenario 'bsae' (did you mean 'base'?)")


def test_missing_variant_is_usage(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["diff", "base"])
    assert stop.value.code == 2
    assert "VARIANT" in capsys.readouterr().err


# ------------------------------------------------------------ inside replaced code (issue 33)
HARDER_FIRE = """\
scenario harder_fire "One step less a hit" extends toy cites 4.2 {
  "The toy war, where an attack takes one loss fewer."
  replace procedure attack(player: side) cites 4.2 {
    "The player picks an enemy space next to a friendly one, rolls, and the defenders lose steps."
    choose attack_target(s) by player
      for s in spaces
      where s.control != player and any(t.control == player for t in adjacent(s))
    roll die cites 4.2
    let strength = sum(u.cf for u in units where u.side == player and connected(u.space, s))
    let losses = fire[strength, clamp(die + attack_drm(s), 1, 6)] - 1
    for u in units_in(s) {
      if losses > 0 {
        reduce u by 1
        set losses to losses - 1
      }
    }
  }
}
"""


def test_a_replaced_procedure_shows_the_lines_that_changed(capsys, tmp_path):
    variant = tmp_path / "harder.pog"
    variant.write_text(HARDER_FIRE, encoding="utf-8")
    status, out, err = pog(capsys, "diff", "toy", str(variant), "--root", TOY)
    assert status == 0, err
    lines = out.splitlines()
    at = lines.index("            body:")
    assert lines[at + 1:at + 3] == [
        "              -   let losses = fire[strength, clamp(die + attack_drm(s), 1, 6)]",
        "              +   let losses = fire[strength, clamp(die + attack_drm(s), 1, 6)] - 1",
    ]
    assert len(lines) == at + 3  # nothing else of the body is quoted
    (change,) = diff_json(capsys, "toy", str(variant), root=TOY)
    body = next(a for a in change["attributes"] if a["name"] == "body")
    assert body["diff"] == [line.strip()[0] + line.strip()[1:] for line in lines[at + 1:at + 3]]


def test_a_variant_beside_the_library_is_named_by_path(capsys, tmp_path, monkeypatch):
    (tmp_path / "harder.pog").write_text(HARDER_FIRE, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    status, out, err = pog(capsys, "diff", "toy", "harder_fire", "--root", str(REPO / TOY))
    assert status == 2
    assert "harder.pog declares it, outside the library's scenarios/ folder: pass that path" in err
    status, out, err = pog(capsys, "diff", "toy", "harder.pog", "--root", str(REPO / TOY))
    assert status == 0 and "replaced  procedure attack" in out
