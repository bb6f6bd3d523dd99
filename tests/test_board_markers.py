"""Markers the board draws from a value worked out per unit or space, not
kept in the state: the OOS marker (4.1: it marks units out of supply, which
suffer attrition, 14.3.5), declared in rules/display.pog as `marker
out_of_supply "OOS"` over `value out_of_supply(u: unit)`."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from pogdsl.board.svg import board_svg
from pogdsl.opening import open_scenario

REPO = Path(__file__).resolve().parents[1]
NS = "{http://www.w3.org/2000/svg}"


def unit_label(svg: str, unit: str) -> str:
    root = ET.fromstring(svg)
    for g in root.iter(f"{NS}g"):
        if g.get("class") == "unit" and g.get("data-unit") == unit:
            return g.find(f"{NS}text").text
    raise AssertionError(f"{unit} is not drawn")


@pytest.mark.rule("14.3.5")
def test_a_unit_cut_off_from_its_sources_carries_the_oos_marker():
    game = open_scenario("campaign", REPO).new_game(0)
    game.run()
    w = game.w
    svg = board_svg(game, "cp")
    # At set-up every unit traces supply (14.1.2): no OOS anywhere.
    assert " OOS" not in svg
    # A German army dropped into Paris, deep among Allied spaces, traces no path home.
    ge1 = w.by_kind["unit"]["GE 1"]
    game.move_unit(ge1, w.location(w.by_kind["space"]["Paris"]))
    svg = board_svg(game, "cp")
    assert unit_label(svg, "GE 1").endswith(" OOS")
    assert "OOS" not in unit_label(svg, "GE 2")
    assert svg.count(" OOS<") == 1
    # Back in Germany it is supplied again, and the marker goes.
    game.move_unit(ge1, w.location(w.by_kind["space"]["Essen"]))
    assert " OOS" not in board_svg(game, "cp")


def test_a_marker_naming_a_value_of_another_shape_is_a_located_error(tmp_path):
    from pogdsl.compiler import compile_paths

    path = tmp_path / "bad.pog"
    path.write_text('value two_things(u: unit, s: space) cites 4.1 = true "Takes two."\n'
                    'display bad cites 2.1 {\n  marker two_things "X"\n  marker nothing_at_all "Y"\n}\n',
                    encoding="utf-8")
    comp = compile_paths([path], root=REPO)
    found = [(d.code, d.span.line) for d in comp.reporter.sorted() if d.is_error]
    assert found == [("E0225", 3), ("E0225", 4)]
