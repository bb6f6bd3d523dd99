"""Rules 11.1.8 and 15.2.1: a siege laid by units arriving from different
spaces in the same action round.

11.1.8 lets units go into a space holding an enemy fort that is not besieged
when they can besiege it by themselves or together with other units that move
in the same action round.  15.2.1 asks, to besiege, for an army or as many
corps as the fort's loss factor entering its space in a single action round
and stopping there.  So two German corps coming from two different spaces may
end their moves in Nancy (fort 2) and besiege it, while one corps with nobody
able to follow may not go in at all.

Nancy (French fort, loss factor 2) touches Metz, Strasbourg, Verdun, Belfort
and Bar le Duc.  Metz and Strasbourg are German.
"""

import pytest

from pogdsl.runtime import builtins as B
from pogdsl.runtime.errors import IllegalOption

from .harness import Position, Unanswered


def move_marker(pos, *spaces):
    for s in spaces:
        pos.activate(s, "move")


def besieged(pos, space):
    return bool(pos.var("besieged", space))


def control(pos, space):
    return pos.s["control"][pos.entity("space", space).index]


def supplied(pos, unit):
    return B.value_of(pos.game, "in_supply", (unit,))


@pytest.mark.rule("11.1.8")
@pytest.mark.rule("15.2.1")
def test_two_corps_from_two_spaces_besiege_a_fort_2_together():
    pos = Position()
    pos.place("GEc", "Metz")
    pos.place("GEc", "Strasbourg")
    move_marker(pos, "Metz", "Strasbourg")
    pos.run("move_activated_units", "cp",
            answers=["move GEc from Metz", "move to Nancy",
                     "move GEc from Strasbourg", "move to Nancy"])
    assert pos.units_at("Nancy") == ["GEc", "GEc"]
    assert besieged(pos, "Nancy")
    # 11.1.14 / 15.1.10: besiegers do not take the fort's space
    assert control(pos, "Nancy") == "ap"


@pytest.mark.rule("11.1.8")
@pytest.mark.rule("15.2.1")
def test_the_first_corps_may_go_in_before_the_second_has_moved():
    """The first corps alone is not enough: it may enter only because the
    other one can still come this round; until then Nancy is not besieged."""
    pos = Position()
    pos.place("GEc", "Metz")
    pos.place("GEc", "Strasbourg")
    move_marker(pos, "Metz", "Strasbourg")
    with pytest.raises(Unanswered):  # stop once the second corps is to be ordered
        pos.run("move_activated_units", "cp", answers=["move GEc from Metz", "move to Nancy"])
    assert pos.units_at("Nancy") == ["GEc"]
    assert not besieged(pos, "Nancy")


@pytest.mark.rule("11.1.8")
@pytest.mark.rule("15.2.1")
def test_one_corps_that_nobody_can_join_may_not_enter_a_fort_2():
    """The second corps stands in a space without a Move marker: it does not
    move this round, so the first may not go into Nancy."""
    pos = Position()
    pos.place("GEc", "Metz")
    pos.place("GEc", "Strasbourg")
    move_marker(pos, "Metz")
    with pytest.raises(IllegalOption, match=r"11\.1\.8"):
        pos.run("move_activated_units", "cp", answers=["move GEc from Metz", "move to Nancy"])


@pytest.mark.rule("11.1.8")
@pytest.mark.rule("15.2.1")
def test_a_unit_that_has_already_moved_cannot_be_counted_on():
    """The Strasbourg corps moves first, elsewhere: it has finished its move
    (11.1.1), so the Metz corps may not then enter Nancy counting on it."""
    pos = Position()
    pos.place("GEc", "Metz")
    pos.place("GEc", "Strasbourg")
    move_marker(pos, "Metz", "Strasbourg")
    with pytest.raises(IllegalOption, match=r"11\.1\.8"):
        pos.run("move_activated_units", "cp",
                answers=["move GEc from Strasbourg", "move to Mulhouse", "stop in Mulhouse",
                         "move GEc from Metz", "move to Nancy"])


@pytest.mark.rule("11.1.8")
@pytest.mark.rule("15.2.1")
@pytest.mark.rule("11.1.5")
def test_a_unit_counts_only_if_its_movement_factor_gets_it_there():
    """A German corps has 4 movement points.  From Essen, Nancy is four spaces
    away (Aachen, Koblenz, Metz, Nancy): that corps can join, so the Metz corps
    may go in first.  From Bremen it is five: that one cannot."""
    pos = Position()
    pos.place("GEc", "Metz")
    pos.place("GEc", "Bremen")
    move_marker(pos, "Metz", "Bremen")
    with pytest.raises(IllegalOption, match=r"11\.1\.8"):
        pos.run("move_activated_units", "cp", answers=["move GEc from Metz", "move to Nancy"])

    pos = Position()
    pos.place("GEc", "Metz")
    pos.place("GEc", "Essen")
    move_marker(pos, "Metz", "Essen")
    pos.run("move_activated_units", "cp",
            answers=["move GEc from Metz", "move to Nancy",
                     "move GEc from Essen", "move to Aachen", "move to Koblenz", "move to Metz", "move to Nancy"])
    assert pos.units_at("Nancy") == ["GEc", "GEc"]
    assert besieged(pos, "Nancy")


@pytest.mark.rule("11.1.8")
@pytest.mark.rule("15.2.1")
@pytest.mark.rule("11.1.7")
def test_a_unit_whose_way_is_barred_by_the_enemy_cannot_be_counted_on():
    """Mulhouse touches only Strasbourg and Belfort; with French corps in both
    (11.1.7), the corps activated in Mulhouse cannot reach Nancy this round, so
    the Metz corps may not count on it."""
    pos = Position()
    pos.place("GEc", "Metz")
    pos.place("GEc", "Mulhouse")
    pos.place("FRc", "Strasbourg")
    pos.place("FRc", "Belfort")
    move_marker(pos, "Metz", "Mulhouse")
    with pytest.raises(IllegalOption, match=r"11\.1\.8"):
        pos.run("move_activated_units", "cp", answers=["move GEc from Metz", "move to Nancy"])


@pytest.mark.rule("11.1.8")
@pytest.mark.rule("15.2.1")
def test_a_corps_of_the_same_space_moving_after_may_be_counted_on():
    """Two corps in Metz move one at a time: the first may go into Nancy
    because the second can follow."""
    pos = Position()
    pos.place("GEc", "Metz")
    pos.place("GEc", "Metz")
    move_marker(pos, "Metz")
    pos.run("move_activated_units", "cp",
            answers=["move GEc from Metz", "move to Nancy", "move GEc from Metz", "move to Nancy"])
    assert pos.units_at("Nancy") == ["GEc", "GEc"]
    assert besieged(pos, "Nancy")


@pytest.mark.rule("11.1.8")
@pytest.mark.rule("15.2.1")
@pytest.mark.rule("15.1.1")
def test_the_corps_completing_the_siege_stops_in_the_fort_space():
    """15.2.1 (enter, then stop) and 15.1.1: the second corps enters a fort
    that is not yet besieged, so it may not go on to Bar le Duc."""
    pos = Position()
    pos.place("GEc", "Metz")
    pos.place("GEc", "Strasbourg")
    move_marker(pos, "Metz", "Strasbourg")
    pos.run("move_activated_units", "cp",
            answers=["move GEc from Metz", "move to Nancy", "move GEc from Strasbourg", "move to Nancy"])
    steps = [d for d in pos.asked if d.choice == "move_step"]
    # after each corps entered Nancy no further step was offered
    assert all("move to Bar le Duc" not in d.options for d in steps)
    assert pos.units_at("Bar le Duc") == []


@pytest.mark.rule("11.1.8")
@pytest.mark.rule("15.2.1")
@pytest.mark.rule("15.2.2")
@pytest.mark.rule("11.1.1")
def test_a_later_unit_passes_the_fort_the_two_corps_besieged():
    """The note of 11.1.1 with 15.2.2: once the two corps have laid the siege,
    a third unit moving later in the same round goes through Nancy."""
    pos = Position()
    pos.place("GEc", "Metz")
    pos.place("GEc", "Metz")
    pos.place("GEc", "Strasbourg")
    move_marker(pos, "Metz", "Strasbourg")
    pos.run("move_activated_units", "cp",
            answers=["move GEc from Metz", "move to Nancy",
                     "move GEc from Strasbourg", "move to Nancy",
                     "move GEc from Metz", "move to Nancy", "move to Bar le Duc", "stop in Bar le Duc"])
    assert pos.units_at("Nancy") == ["GEc", "GEc"]
    assert pos.units_at("Bar le Duc") == ["GEc"]
    assert besieged(pos, "Nancy")


@pytest.mark.rule("11.1.8")
@pytest.mark.rule("15.2.1")
@pytest.mark.rule("15.2.4")
@pytest.mark.rule("15.1.10")
def test_corps_that_go_in_and_are_not_joined_stay_without_a_siege():
    """The first corps goes into Nancy counting on the Strasbourg corps, which
    then goes elsewhere.  The engine does not take the first move back: the
    corps stays, Nancy is not besieged (no siege die, 15.3.1; no supply through
    it, 15.2.4) and stays French with its VP (15.1.10, 11.1.14)."""
    pos = Position()
    vp = pos.var("vp")
    pos.place("GEc", "Metz")
    pos.place("GEc", "Strasbourg")
    move_marker(pos, "Metz", "Strasbourg")
    pos.run("move_activated_units", "cp",
            answers=["move GEc from Metz", "move to Nancy",
                     "move GEc from Strasbourg", "move to Mulhouse", "stop in Mulhouse"])
    assert pos.units_at("Nancy") == ["GEc"]
    assert not besieged(pos, "Nancy")
    assert control(pos, "Nancy") == "ap"
    assert pos.var("vp") == vp
    pos.run("siege_phase", dice=[])
    assert not any("siege of Nancy" in line for line in pos.log())  # no die for Nancy (15.3.1)
    assert not besieged(pos, "Nancy")


@pytest.mark.rule("11.1.8")
@pytest.mark.rule("15.2.1")
def test_an_army_alone_still_besieges_and_a_fort_already_besieged_is_open():
    """What held before stays: an army may go in alone; one corps may go into
    a fort already besieged."""
    pos = Position()
    pos.place("GE 1", "Metz")
    move_marker(pos, "Metz")
    pos.run("move_activated_units", "cp", answers=["move GE 1 from Metz", "move to Nancy"])
    assert besieged(pos, "Nancy")
    pos.place("GEc", "Strasbourg")
    move_marker(pos, "Strasbourg")
    pos.run("move_activated_units", "cp",
            answers=["move GEc from Strasbourg", "move to Nancy", "move to Bar le Duc", "stop in Bar le Duc"])
    assert pos.units_at("Bar le Duc") == ["GEc"]


@pytest.mark.rule("15.2.4")
@pytest.mark.rule("15.2.2")
@pytest.mark.rule("14.1.3")
@pytest.mark.rule("11.1.8")
def test_a_lone_corps_left_in_a_fort_blocks_supply_until_a_later_operation_completes_the_siege():
    """The corps left alone in Nancy does not besiege it, so a German corps in
    Bar le Duc, whose only friendly way home runs through Nancy to Metz, is out
    of supply (15.2.4, 14.1.3).  In a later operation one more corps enters
    Nancy: with the one already there they are enough (15.2.4's last
    sentence), the fort is besieged and the path through it opens (15.2.2)."""
    pos = Position()
    pos.place("GEc", "Metz")
    pos.place("GEc", "Strasbourg")
    move_marker(pos, "Metz", "Strasbourg")
    pos.run("move_activated_units", "cp",
            answers=["move GEc from Metz", "move to Nancy",
                     "move GEc from Strasbourg", "move to Mulhouse", "stop in Mulhouse"])
    assert not besieged(pos, "Nancy")
    cut_off = pos.place("GEc", "Bar le Duc")
    pos.control("Bar le Duc", "cp")
    assert not supplied(pos, cut_off)

    move_marker(pos, "Mulhouse")
    pos.run("move_activated_units", "cp",
            answers=["move GEc from Mulhouse", "move to Strasbourg", "move to Nancy"])
    assert pos.units_at("Nancy") == ["GEc", "GEc"]
    assert besieged(pos, "Nancy")
    assert control(pos, "Nancy") == "ap"
    assert supplied(pos, cut_off)
