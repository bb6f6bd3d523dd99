"""The Campaign's rules with a hostile side (`side x hostile`, a side no player
plays): the chapters read "enemy" generically (`enemy_units_at`,
`defender_side`, `combat_opponent`, `by in sides`), so a piece of such a side
is an enemy of both players in movement (11.1.7), supply (14.1.2), combat
(12.1-12.2) and VP counting (5.1.2), and its decisions in a combat are taken
by the rules, never asked.  The hostile side is added by a test-only
scenario in a copy of the project, as a variant (Illusions of Glory) adds it.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pogdsl.compiler import scenario_graph
from pogdsl.runtime import builtins as B
from pogdsl.runtime.interpreter import Game
from pogdsl.runtime.world import build_world

from .harness import ROOT, Position

SCENARIO = '''scenario campaign_rising "The Campaign with a rising (a test)" extends campaign cites 5.5 {
  "A hostile side with one corps, placed by the tests."
  add side rebels "Rebels" hostile cites 3.0
  add nation rb "A rising" side rebels cites 3.0
  add units nation rb cites 3.0 {
    corps Rising 1-1-0
  }
}
'''


@pytest.fixture(scope="module")
def rising_world(tmp_path_factory):
    root = tmp_path_factory.mktemp("rising")
    for d in ("rules", "cards", "scenarios"):
        shutil.copytree(ROOT / d, root / d)
    (root / "scenarios" / "campaign-rising.pog").write_text(SCENARIO, encoding="utf-8")
    comp, graph = scenario_graph("campaign_rising", root=root)
    assert graph is not None, [d.message for d in comp.reporter.errors]
    return build_world(comp.scenarios["campaign_rising"][0], graph)


def position(w) -> Position:
    pos = Position.__new__(Position)
    pos.w = w
    pos.game = Game.new(w, seed=0)
    pos.s = pos.game.s
    pos.asked = []
    pos.clear_board()
    return pos


def value(pos: Position, name: str, *args):
    return B.value_of(pos.game, name, tuple(pos._value(a) for a in args))


def where(pos: Position, piece) -> str | None:
    place = pos.w.place_entity(pos.s["loc"][piece.index])
    return place.key if place is not None else None


@pytest.mark.rule("11.1.7")
@pytest.mark.rule("14.1.2")
def test_a_rising_is_an_enemy_of_both_sides_for_movement_and_supply(rising_world):
    """11.1.7: no unit enters a space with enemy units; 14.1.2: supply is
    traced only through friendly spaces free of enemy units.  The rising's
    space is both players' enemy space."""
    pos = position(rising_world)
    pos.place("Rising", "Cambrai")
    pos.control("Cambrai", "rebels")
    for p in ("ap", "cp"):
        assert value(pos, "enemy_units_in", p, "Cambrai")
        assert not value(pos, "supply_path_open", "Cambrai", p)
        assert "Cambrai" not in [s.key for s in value(pos, "supply_open_spaces", p)]


@pytest.mark.rule("12.1.2")
@pytest.mark.rule("12.2.3")
def test_either_player_attacks_a_rising_which_is_never_asked(rising_world):
    """12.1.2: an adjacent space holding enemy units may be attacked; the
    rising is enemy to the Allies.  It defends with its 1 CF (12.2.3); the
    British fire 4 CF on the Army table, die 6: loss number 4, and the rising is eliminated.
    Every decision of the defender is the rules' default: nobody is asked
    for the rebels."""
    pos = position(rising_world)
    br3 = pos.place("BR 3", "Amiens")
    rising = pos.place("Rising", "Cambrai")
    pos.control("Cambrai", "rebels")
    pos.activate("Amiens", "attack")
    pos.run("resolve_attacks", "ap", answers=["attack Cambrai from Amiens", "stop advancing"], dice=[6, 1])
    text = "\n".join(pos.log())
    assert "ap attacks Cambrai with strength 4 against 1" in text
    assert all(d.by == "ap" for d in pos.asked), [(d.by, d.choice) for d in pos.asked]
    assert where(pos, rising) == "eliminated[rebels]"
    assert where(pos, br3) == "Amiens"


@pytest.mark.rule("12.1.2")
def test_the_central_powers_attack_it_too(rising_world):
    pos = position(rising_world)
    pos.place("GE 2", "Cambrai")
    pos.control("Cambrai", "cp")
    pos.control("Sedan", "cp")  # the Germans' supply line runs back through Sedan to Metz
    pos.place("Rising", "Amiens")
    pos.control("Amiens", "rebels")
    pos.activate("Cambrai", "attack")
    pos.run("resolve_attacks", "cp", answers=["attack Amiens from Cambrai", "stop advancing"], dice=[6, 1])
    assert "cp attacks Amiens with strength 5 against 1" in "\n".join(pos.log())
    assert all(d.by == "cp" for d in pos.asked)


@pytest.mark.rule("5.1.2")
def test_a_vp_space_taken_by_a_hostile_side_moves_no_vp(rising_world):
    """5.1.2: the VP marker follows VP spaces changing hands between the
    players; a side no player plays scores nothing."""
    pos = position(rising_world)
    g = pos.game
    depth = len(g.s["stack"])
    g.set_control(pos.entity("space", "Cambrai"), pos._value("rebels"), ())
    assert len(g.s["stack"]) == depth
    # Taken back from the rising: the Campaign's VP rule moves nothing either
    # (what a space held by a hostile side is worth is the variant's rule).
    g.set_control(pos.entity("space", "Cambrai"), pos._value("ap"), ())
    assert len(g.s["stack"]) == depth
    # Between the players, as ever.
    g.set_control(pos.entity("space", "Cambrai"), pos._value("cp"), ())
    assert g.s["stack"][-1]["code"] == "trigger:vp_space_changes_hands"


@pytest.mark.rule("14.3.5")
def test_a_rising_never_suffers_attrition(rising_world):
    """14.3.5 eliminates the players' units that cannot trace supply; a side
    no player plays has no sources and traces nothing: its units stay (IoG
    23.3.3 a: only combat removes an uprising)."""
    pos = position(rising_world)
    rising = pos.place("Rising", "Cambrai")
    pos.control("Cambrai", "rebels")
    for s in B.FUNCTIONS["adjacent"](pos.game, None, pos.entity("space", "Cambrai")):
        pos.control(s.key, "cp")  # no Allied line either: whoever's supply it borrowed, it has none
    lonely = pos.place("GE 2", "Calais")  # cut off, in an enemy space: attrition takes it
    pos.run("attrition_phase")
    assert where(pos, rising) == "Cambrai"
    assert where(pos, lonely) != "Calais"
