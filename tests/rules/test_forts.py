"""Rule 15: the Besieged marker (15.2.1, 15.2.4), destroyed forts and the
control they kept (15.1.9, 15.1.10), and the Siege Phase with fixed dice
(15.3.1-15.3.3)."""

import pytest

from .harness import Position


def besieged(pos: Position, space: str) -> bool:
    return bool(pos.var("besieged", space))


def destroyed(pos: Position, space: str) -> bool:
    return pos.s["fort_destroyed"][pos.entity("space", space).index]


def control(pos: Position, space: str):
    return pos.s["control"][pos.entity("space", space).index]


def move(pos: Position, unit, space: str) -> None:
    pos.game.move_unit(unit, pos.w.location(pos.entity("space", space)))


# ------------------------------------------------------------------ 15.2.1


@pytest.mark.rule("15.2.1")
def test_15_2_1_an_army_besieges_a_fort():
    pos = Position()
    pos.place("GE 1", "Liege")
    pos.run("check_siege", "Liege")
    assert besieged(pos, "Liege")
    assert control(pos, "Liege") == "ap"  # 15.1.10: the fort keeps the space Allied


@pytest.mark.rule("15.2.1")
def test_15_2_1_corps_must_match_the_forts_loss_factor():
    """Verdun's fort is 3: two German corps are not enough, three are (the
    rule's own example)."""
    pos = Position()
    pos.place("GEc", "Verdun")
    pos.place("GEc", "Verdun")
    pos.run("check_siege", "Verdun")
    assert not besieged(pos, "Verdun")
    pos.place("GEc", "Verdun", reduced=True)  # reduced corps count as well
    pos.run("check_siege", "Verdun")
    assert besieged(pos, "Verdun")


@pytest.mark.rule("15.2.1")
def test_15_2_1_friendly_units_in_their_own_fort_do_not_besiege_it():
    pos = Position()
    pos.place("FR 3", "Verdun")
    pos.run("check_siege", "Verdun")
    assert not besieged(pos, "Verdun")


# ------------------------------------------------------------------ 15.2.4


@pytest.mark.rule("15.2.4")
def test_15_2_4_losses_below_the_minimum_lift_the_siege():
    """Three corps besiege Verdun; one is eliminated: the other two stay but
    the fort is no longer besieged."""
    pos = Position()
    a = pos.place("GEc", "Verdun")
    pos.place("GEc", "Verdun")
    pos.place("GEc", "Verdun")
    pos.run("check_siege", "Verdun")
    assert besieged(pos, "Verdun")
    pos.game.eliminate(a, None, ())
    pos.run("check_siege", "Verdun")
    assert not besieged(pos, "Verdun")
    assert len(pos.units_at("Verdun")) == 2


@pytest.mark.rule("15.2.4")
def test_15_2_4_the_siege_ends_when_the_besiegers_leave():
    pos = Position()
    army = pos.place("GE 1", "Liege")
    pos.run("check_siege", "Liege")
    move(pos, army, "Aachen")
    pos.run("check_siege", "Liege")
    assert not besieged(pos, "Liege")


@pytest.mark.rule("15.2.3")
@pytest.mark.rule("15.2.4")
def test_15_2_3_and_15_2_4_units_may_leave_only_if_the_rest_still_besiege():
    pos = Position()
    from pogdsl.runtime import builtins as B

    army = pos.place("GE 1", "Liege")
    corps = pos.place("GEc", "Liege")
    verdun = pos.entity("space", "Liege")
    assert B.value_of(pos.game, "still_besieging", (verdun, [army]))   # the corps leaves
    assert not B.value_of(pos.game, "still_besieging", (verdun, [corps]))  # the army leaves
    assert B.value_of(pos.game, "still_besieging", (verdun, []))       # everybody leaves


# ------------------------------------------------------------------ 15.3


@pytest.mark.rule("15.3.2")
def test_15_3_2_a_roll_above_the_forts_lf_destroys_it():
    """Turn 3: a 4 against Liege's 3 destroys the fort; the besiegers take the
    space at once (glossary, Control of Space)."""
    pos = Position()
    pos.s["turn"] = 3
    pos.place("GE 1", "Liege")
    pos.run("check_siege", "Liege")
    pos.run("siege_phase", dice=[4])
    assert destroyed(pos, "Liege")
    assert not besieged(pos, "Liege")
    assert control(pos, "Liege") == "cp"


@pytest.mark.rule("15.3.2")
def test_15_3_2_a_roll_equal_to_the_lf_fails():
    pos = Position()
    pos.s["turn"] = 3
    pos.place("GE 1", "Liege")
    pos.run("siege_phase", dice=[3])
    assert not destroyed(pos, "Liege")
    assert besieged(pos, "Liege")
    assert control(pos, "Liege") == "ap"


@pytest.mark.rule("15.3.3")
def test_15_3_3_minus_two_in_august_and_september_1914():
    """Turns 1 and 2: a 5 is only 3 and Liege holds; a 6 (4) takes it."""
    for turn in (1, 2):
        pos = Position()
        pos.s["turn"] = turn
        pos.place("GE 1", "Liege")
        pos.run("siege_phase", dice=[5])
        assert not destroyed(pos, "Liege"), turn
        pos.run("siege_phase", dice=[6])
        assert destroyed(pos, "Liege"), turn
        assert control(pos, "Liege") == "cp"


@pytest.mark.rule("15.3.1")
def test_15_3_1_every_besieged_fort_rolls_and_no_other():
    """Antwerp (1) and Liege (3) besieged, Namur-less Belgium: two dice, one
    per besieged fort, in map order (Antwerp then Liege).  Verdun, with too
    few corps, rolls nothing."""
    pos = Position()
    pos.s["turn"] = 5
    pos.place("GE 1", "Antwerp")
    pos.place("GE 2", "Liege")
    pos.place("GEc", "Verdun")
    pos.run("siege_phase", dice=[2, 2])
    assert destroyed(pos, "Antwerp")
    assert not destroyed(pos, "Liege")
    assert not destroyed(pos, "Verdun")
    assert pos.s["dice"] == []


@pytest.mark.rule("15.1.9")
def test_15_1_9_a_destroyed_fort_is_never_besieged_again():
    pos = Position()
    pos.s["turn"] = 5
    army = pos.place("GE 1", "Liege")
    pos.run("siege_phase", dice=[6])
    assert destroyed(pos, "Liege")
    pos.run("check_siege", "Liege")
    assert not besieged(pos, "Liege")
    pos.run("siege_phase", dice=[])  # no die is rolled
    assert army.key == "GE 1"


@pytest.mark.rule("15.1.7")
def test_15_1_7_a_fort_destroyed_without_enemy_units_keeps_its_control():
    """A fort knocked out by an attack from next door: its space stays the
    owner's until the enemy enters it."""
    pos = Position()
    pos.run("destroy_fort", "Liege")
    assert destroyed(pos, "Liege")
    assert control(pos, "Liege") == "ap"
