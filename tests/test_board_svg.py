"""The board drawn as SVG (pogdsl/board/svg.py, `pogdsl show --svg/--png`).

What a picture must hold comes from the map's own declarations (2.1: spaces,
connections solid and dotted) and the position: where the units are, who
controls what.  Every picture is parsed with xml.etree (well-formed), looked
at through its data-* attributes (what a browser will click on), and read as
text for what it must never show: another side's hand (hidden information)."""

from __future__ import annotations

import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from pogdsl.board.svg import board_svg
from pogdsl.opening import open_scenario

REPO = Path(__file__).resolve().parents[1]
NS = "{http://www.w3.org/2000/svg}"


def started(spec: str, seed: int = 0, answers: int = 0):
    """A game of SPEC run to its first decision, then `answers` decisions
    answered with their first option."""
    game = open_scenario(spec, REPO).new_game(seed)
    decision = game.run()
    for _ in range(answers):
        decision = game.choose(decision.options[0])
    return game


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{NS}svg"
    return root


def groups(root: ET.Element, cls: str) -> list[ET.Element]:
    return [g for g in root.iter(f"{NS}g") if g.get("class") == cls]


def space_group(root: ET.Element, name: str) -> ET.Element:
    found = [g for g in groups(root, "space") if g.get("data-space") == name]
    assert len(found) == 1, name
    return found[0]


def declared_colour(game, kind: str, name: str) -> str:
    """The colour the scenario's display blocks give (the last one stands)."""
    colour = None
    for decl in game.w.program.all("display"):
        for item in decl.items:
            if item.item == "colour" and item.kind == kind and item.name.text == name:
                colour = item.text
    assert colour is not None
    return colour


# ------------------------------------------------------------ every scenario
@pytest.mark.parametrize("spec", ["campaign", "historical", "suicide_of_europe", "illusions"])
def test_every_space_and_connection_of_the_scenario_is_drawn(spec):
    game = started(spec)
    svg = board_svg(game)
    root = parse(svg)
    drawn = {g.get("data-space") for g in groups(root, "space")}
    assert drawn == {sp.key for sp in game.w.spaces}
    lines = [el for el in root.iter(f"{NS}line") if el.get("class") == "connection"]
    edges = {frozenset((game.w.spaces[i].key, game.w.spaces[j].key))
             for i, links in enumerate(game.w.adjacency) for j, _ in links}
    assert {frozenset((ln.get("data-from"), ln.get("data-to"))) for ln in lines} == edges
    # 2.1: dotted lines are drawn dashed, solid ones not.
    dotted = [ln for ln in lines if ln.get("data-line") == "dotted"]
    assert dotted and all(ln.get("stroke-dasharray") for ln in dotted)
    assert all(not ln.get("stroke-dasharray") for ln in lines if ln.get("data-line") == "solid")
    # No external resource: no link, image or stylesheet reference.
    assert "href" not in svg and "<image" not in svg and "url(" not in svg


def test_both_maps_are_drawn():
    root = parse(board_svg(started("campaign")))
    assert {g.get("data-map") for g in groups(root, "map")} == {"europe", "neareast"}


def test_holland_is_drawn_in_suicide_of_europe_and_only_there():
    soe = parse(board_svg(started("suicide_of_europe")))
    for name in ("Rotterdam", "Amsterdam", "Arnhem"):
        assert space_group(soe, name).get("data-nation") == "nl"
    lines = {(ln.get("data-from"), ln.get("data-to")) for ln in soe.iter(f"{NS}line")}
    assert any("Rotterdam" in pair and "Antwerp" in pair for pair in lines)
    campaign = parse(board_svg(started("campaign")))
    assert "Rotterdam" not in {g.get("data-space") for g in groups(campaign, "space")}


def test_illusions_shows_national_will_and_troop_quality_and_the_campaign_does_not():
    illusions = parse(board_svg(started("illusions")))
    tracks = {g.get("data-track"): "".join(g.itertext()) for g in groups(illusions, "track")}
    assert "National Will" in tracks["national_will"] and "ru 12" in tracks["national_will"]
    assert "Troop Quality" in tracks["troop_quality"] and "it 16" in tracks["troop_quality"]
    campaign = parse(board_svg(started("campaign")))
    tracks = {g.get("data-track"): "".join(g.itertext()) for g in groups(campaign, "track")}
    assert "national_will" not in tracks and "troop_quality" not in tracks
    assert tracks["vp"] == "Victory Points: 10"  # 5.1.1: the VP marker starts at 10
    assert tracks["turn"].startswith("Turn: 1 of")


# ------------------------------------------------------------ the position
def test_a_moved_unit_is_drawn_at_its_new_space():
    game = started("campaign")
    w = game.w
    unit = next(u for u in w.units if w.place_entity(game.s["loc"][u.index]) is not None
                and w.place_entity(game.s["loc"][u.index]).kind == "space")
    before = w.place_entity(game.s["loc"][unit.index]).key
    target = next(sp for sp in w.spaces if sp.key != before and not game.s["occ"][sp.index])
    game.move_unit(unit, w.location(target))
    root = parse(board_svg(game))
    pieces = lambda space: {int(g.get("data-piece")) for g in groups(space_group(root, space), "unit")}
    assert unit.index in pieces(target.key)
    assert unit.index not in pieces(before)


def test_a_reduced_unit_shows_its_reduced_factors():
    game = started("campaign")
    unit = next(u for u in game.w.units if u.data.reduced and game.s["loc"][u.index] is not None
                and 0 <= game.s["loc"][u.index] < len(game.w.spaces))
    game.s["reduced"][unit.index] = True
    root = parse(board_svg(game))
    drawn = next(g for g in groups(root, "unit") if g.get("data-piece") == str(unit.index))
    assert drawn.get("data-strength") == "reduced"
    assert "-".join(map(str, unit.data.reduced)) in "".join(drawn.itertext())


def test_control_is_drawn_in_the_controlling_sides_colour():
    game = started("campaign")
    paris = game.w.by_kind["space"]["Paris"]
    assert game.s["control"][paris.index] == "ap"
    game.s["control"][paris.index] = "cp"
    root = parse(board_svg(game))
    band = next(r for r in space_group(root, "Paris").iter(f"{NS}rect") if r.get("class") == "control")
    assert band.get("data-control") == "cp"
    assert band.get("fill") == declared_colour(game, "side", "cp")
    assert declared_colour(game, "side", "cp") != declared_colour(game, "side", "ap")


def test_a_destroyed_fort_is_drawn_destroyed():
    game = started("campaign")
    liege = game.w.by_kind["space"]["Liege"]
    assert parse(board_svg(game)).find(".").tag  # well-formed before
    assert space_group(parse(board_svg(game)), "Liege").get("data-fort") == "intact"
    game.s["fort_destroyed"][liege.index] = True
    assert space_group(parse(board_svg(game)), "Liege").get("data-fort") == "destroyed"


def test_trench_markers_are_drawn_where_the_state_has_them():
    game = started("campaign")
    root = parse(board_svg(game))
    marked = {g.get("data-space") for g in groups(root, "marker") if g.get("data-marker") == "trench"}
    assert marked == {name for name, level in game.s["vars"]["trench"].items() if level}


# ------------------------------------------------------------ hidden information
def _card_labels(game, side: str) -> list[str]:
    return [f"{side.upper()} {game.w.cards[i].data.number} {game.w.cards[i].data.name.text}"
            for i in game.s["piles"][f"hand:{side}"]]


def test_a_side_sees_its_own_hand_and_never_the_others():
    game = started("campaign", answers=1)  # the hands are dealt
    assert game.s["piles"]["hand:ap"] and game.s["piles"]["hand:cp"]
    svg = board_svg(game, "ap")
    for label in _card_labels(game, "ap"):
        assert label in svg
    for label in _card_labels(game, "cp"):
        assert label not in svg
    cards = {g.get("data-card") for g in groups(parse(svg), "card")}
    assert cards == {" ".join(label.split()[:2]) for label in _card_labels(game, "ap")}
    # No deck order: no card of any draw pile is named.
    for side in ("ap", "cp"):
        for i in game.s["piles"][f"draw:{side}"]:
            assert f"{side.upper()} {game.w.cards[i].data.number} " not in svg


def test_the_picture_for_no_side_shows_no_hand():
    game = started("campaign", answers=1)
    svg = board_svg(game)
    assert not groups(parse(svg), "card")
    for side in ("ap", "cp"):
        for label in _card_labels(game, side):
            assert label not in svg
        assert f"{side}: hand {len(game.s['piles'][f'hand:{side}'])}" in svg


# ------------------------------------------------------------ variants edit the drawing
VARIANT = """\
scenario recoloured "Campaign, CP drawn in magenta" extends campaign cites 2.1 {
  add display recoloured cites 2.1 {
    "The Central Powers in magenta."
    colour side cp "#ff00ff"
    track cards_used_turn "Combat cards this turn"
  }
}
"""


def test_a_variant_adding_a_display_block_changes_the_picture(tmp_path):
    path = tmp_path / "recoloured.pog"
    path.write_text(VARIANT, encoding="utf-8")
    game = open_scenario(str(path), REPO).new_game(0)
    game.run()
    root = parse(board_svg(game))
    bands = [r for r in root.iter(f"{NS}rect") if r.get("data-control") == "cp"]
    assert bands and all(r.get("fill") == "#ff00ff" for r in bands)
    tracks = {g.get("data-track"): "".join(g.itertext()) for g in groups(root, "track")}
    assert tracks["cards_used_turn"] == "Combat cards this turn: 0"
    assert "Victory Points" in tracks["vp"]  # the base block still stands


def test_a_variant_replacing_the_display_block_draws_only_what_it_declares(tmp_path):
    path = tmp_path / "plain.pog"
    path.write_text('scenario plain "Campaign, turn only" extends campaign cites 2.1 {\n'
                    '  replace display board cites 2.1 {\n    track turn "Turn"\n  }\n}\n', encoding="utf-8")
    game = open_scenario(str(path), REPO).new_game(0)
    game.run()
    root = parse(board_svg(game))
    assert {g.get("data-track") for g in groups(root, "track")} == {"turn"}
    assert not groups(root, "marker")  # no marker line left, so no trench drawn
    assert {g.get("data-space") for g in groups(root, "space")} == {sp.key for sp in game.w.spaces}


def test_a_display_line_naming_nothing_is_a_located_error(tmp_path):
    from pogdsl.compiler import compile_paths

    path = tmp_path / "bad.pog"
    path.write_text('display bad cites 2.1 {\n  colour nation xx "#000000"\n  track trench "T"\n'
                    '  glyph vpp "*"\n  colour side ap "blue"\n}\n', encoding="utf-8")
    comp = compile_paths([path], root=REPO)
    found = [(d.code, d.span.line) for d in comp.reporter.sorted() if d.is_error]
    assert found == [("E0202", 2), ("E0225", 3), ("E0225", 4), ("E0225", 5)]


# ------------------------------------------------------------ the command
def run(*args: str, cwd: Path = REPO):
    env = dict(os.environ)
    env.pop("POGDSL_HOME", None)
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    proc = subprocess.run([sys.executable, "-m", "pogdsl.cli", "show", *args, "--root", str(REPO)],
                          cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
    assert "Traceback" not in proc.stdout + proc.stderr
    return proc


def test_show_writes_svg_and_png(tmp_path):
    svg, png = tmp_path / "board.svg", tmp_path / "board.png"
    proc = run("campaign", "--svg", str(svg), "--png", str(png), "--side", "cp")
    assert proc.returncode == 0, proc.stderr
    root = parse(svg.read_text(encoding="utf-8"))
    assert root.get("data-side") == "cp"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".pogdsl-")]  # no temporary left


def test_show_draws_a_saved_position(tmp_path):
    from pogdsl.runtime.record import Session, write_save

    session = Session.new(open_scenario("campaign", REPO), 3)
    for _ in range(3):
        session.choose(session.decision.options[0])
    save = tmp_path / "game.json"
    write_save(session, save)
    out = tmp_path / "saved.svg"
    proc = run("campaign", "--load", str(save), "--svg", str(out), "--side", "ap")
    assert proc.returncode == 0, proc.stderr
    assert out.read_text(encoding="utf-8") == board_svg(session.game, "ap")


@pytest.mark.parametrize("args, message", [
    (["--svg", "/no/such/folder/b.svg"], "the folder /no/such/folder does not exist"),
    (["--svg", "."], "is a directory"),
    (["--svg", "b.svg", "--side", "xp"], "no side named 'xp'"),
    (["--svg", "b.svg", "--load", "/no/such/save.json"], "/no/such/save.json"),
])
def test_show_refuses_bad_paths_in_one_line(tmp_path, args, message):
    proc = run("campaign", *args, cwd=tmp_path)
    assert proc.returncode != 0
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("pogdsl show: error:") and message in lines[0], proc.stderr
    assert not (tmp_path / "b.svg").exists()


def test_png_without_cairosvg_is_a_one_line_error_and_writes_nothing(tmp_path, monkeypatch, capsys):
    from pogdsl.cli import main

    monkeypatch.setitem(sys.modules, "cairosvg", None)  # `import cairosvg` raises ImportError
    png = tmp_path / "b.png"
    code = main(["show", "campaign", "--png", str(png), "--root", str(REPO)])
    out, err = capsys.readouterr()
    assert code == 1
    assert err.strip().startswith("pogdsl show: error: PNG needs CairoSVG") and len(err.strip().splitlines()) == 1
    assert not png.exists()
