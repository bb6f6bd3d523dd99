"""Rule 10.0 Stacking: three units a space, checked where a move ends."""

import pytest

from pogdsl.runtime.errors import IllegalOption

from .harness import Position

STACKING = r"stacking_at_end_of_move \(rule 10\.1\.1, 10\.1\.2, 10\.1\.4\)"


def full_chateau_thierry(pos):
    for _ in range(3):
        pos.place("FRc", "Chateau Thierry")


@pytest.mark.rule("10.1.1")
def test_10_1_1_a_fourth_unit_may_not_end_its_move_in_a_space():
    pos = Position()
    full_chateau_thierry(pos)
    pos.place("FR 1", "Paris")
    pos.activate("Paris", "move")
    with pytest.raises(IllegalOption, match=STACKING):
        pos.run("move_activated_units", "ap",
                answers=["move FR 1 from Paris", "move to Chateau Thierry", "stop in Chateau Thierry"])


@pytest.mark.rule("10.1.2")
def test_10_1_2_a_moving_unit_may_cross_a_full_space():
    pos = Position()
    full_chateau_thierry(pos)
    pos.place("FR 1", "Paris")
    pos.activate("Paris", "move")
    pos.run("move_activated_units", "ap",
            answers=["move FR 1 from Paris", "move to Chateau Thierry", "move to Sedan", "stop in Sedan"])
    assert pos.units_at("Sedan") == ["FR 1"]
    assert pos.units_at("Chateau Thierry") == ["FRc", "FRc", "FRc"]


@pytest.mark.rule("10.1.4")
def test_10_1_4_the_last_movement_point_may_not_enter_a_full_space():
    """FR 1 (MF 3) goes out and back; its third point may not take it into the full space."""
    pos = Position()
    full_chateau_thierry(pos)
    pos.place("FR 1", "Paris")
    pos.activate("Paris", "move")
    with pytest.raises(IllegalOption, match=STACKING):
        pos.run("move_activated_units", "ap",
                answers=["move FR 1 from Paris", "move to Chateau Thierry", "move to Paris",
                         "move to Chateau Thierry"])


@pytest.mark.rule("10.1.1")
def test_10_1_1_a_stack_counts_all_its_units():
    pos = Position()
    pos.place("FRc", "Sedan")
    pos.place("FRc", "Sedan")
    pos.place("FR 1", "Paris")
    pos.place("FR 2", "Paris")
    pos.activate("Paris", "move")
    with pytest.raises(IllegalOption, match=STACKING):
        pos.run("move_activated_units", "ap",
                answers=["move FR 1, FR 2 from Paris", "move to Chateau Thierry", "move to Sedan", "stop in Sedan"])
    pos = Position()
    pos.place("FRc", "Sedan")
    pos.place("FRc", "Sedan")
    pos.place("FR 1", "Paris")
    pos.place("FR 2", "Paris")
    pos.activate("Paris", "move")
    pos.run("move_activated_units", "ap",
            answers=["move FR 1 from Paris", "move to Chateau Thierry", "move to Sedan", "stop in Sedan",
                     "end movement"])
    assert pos.units_at("Sedan") == ["FR 1", "FRc", "FRc"]


@pytest.mark.rule("10.1.1")
def test_10_1_1_forts_do_not_count():
    """Verdun's fort is not a unit: two French units and a third arriving make three."""
    pos = Position()
    pos.place("FRc", "Verdun")
    pos.place("FRc", "Verdun")
    pos.place("FR 1", "Bar le Duc")
    pos.activate("Bar le Duc", "move")
    pos.run("move_activated_units", "ap", answers=["move FR 1 from Bar le Duc", "move to Verdun", "stop in Verdun"])
    assert pos.units_at("Verdun") == ["FR 1", "FRc", "FRc"]


@pytest.mark.rule("10.1.3")
def test_10_1_3_the_opponent_removes_accidental_overstacking_armies_for_good():
    pos = Position()
    pos.control("Sedan", "cp")
    ge1 = pos.place("GE 1", "Sedan")
    pos.place("GE 2", "Sedan")
    corps = [pos.place("GEc", "Sedan"), pos.place("GEc", "Sedan")]
    pos.run("enforce_stacking", "Sedan", answers=["eliminate GE 1"])
    assert pos.asked[0].by == "ap"
    assert pos.units_at("Sedan") == ["GE 2", "GEc", "GEc"]
    assert pos.units_at("removed[cp]") == ["GE 1"]
    assert ge1.index in pos.s["occ"][pos._location("removed[cp]")]
    pos.place("GEc", "Sedan")
    pos.run("enforce_stacking", "Sedan", answers=["eliminate GEc"])
    assert pos.units_at("eliminated[cp]") == ["GEc"]
    assert len(corps) == 2


@pytest.mark.rule("10.1.3")
def test_10_1_3_a_space_left_overstacked_is_resolved_when_the_action_is_over():
    """Whatever left a space over the limit (here: set up by hand, as an
    event might), once an action round's action is over the opponent of the
    space's owner removes units until three remain."""
    pos = Position()
    pos.control("Sedan", "cp")
    for name in ("GE 1", "GE 2", "GEc", "GEc"):
        pos.place(name, "Sedan")
    pos.run("action_round", "ap", answers=["eliminate GEc"])  # the automatic operation is the only action
    decision = pos.asked[-1]
    assert (decision.choice, decision.by) == ("remove_overstacked", "ap")
    assert pos.units_at("Sedan") == ["GE 1", "GE 2", "GEc"]
    assert pos.units_at("eliminated[cp]") == ["GEc"]
