"""Rule 11.2 Trenches: digging in from a Move-marked space, and what enemy entry does to a trench."""

import pytest

from pogdsl.runtime.errors import IllegalOption

from pogdsl.runtime import builtins as B

from .harness import Position


def trench_side(pos, space):
    return B.value_of(pos.game, "trench_side", (pos.entity("space", space),)).key


def entrench_played(pos):
    pos.s["played"].append(pos.entity("card", "Entrench").index)


def dig(pos, army, space, die, player="cp", **kw):
    pos.activate(space, "move")
    pos.run("move_activated_units", player, answers=[f"entrench {army} in {space}"], dice=[die], **kw)


@pytest.mark.rule("11.2.1")
def test_11_2_1_no_entrenching_before_an_entrench_event():
    pos = Position()
    pos.place("GE 1", "Koblenz")
    pos.activate("Koblenz", "move")
    with pytest.raises(IllegalOption, match=r"entrench_needs_event \(rule 11\.2\.1\)"):
        pos.run("move_activated_units", "cp", answers=["entrench GE 1 in Koblenz"])


@pytest.mark.rule("11.2.2")
def test_11_2_2_a_roll_at_or_under_the_armys_loss_factor_digs_a_level_1_trench():
    pos = Position()
    entrench_played(pos)
    pos.place("GE 1", "Koblenz")  # LF 3
    dig(pos, "GE 1", "Koblenz", 3)
    assert pos.var("trench", "Koblenz") == 1
    assert trench_side(pos, "Koblenz") == "cp"


@pytest.mark.rule("11.2.2")
def test_11_2_2_a_roll_over_the_loss_factor_fails():
    pos = Position()
    entrench_played(pos)
    pos.place("GE 1", "Koblenz")
    dig(pos, "GE 1", "Koblenz", 4)
    assert pos.var("trench", "Koblenz") == 0


@pytest.mark.rule("11.2.2")
def test_11_2_2_the_loss_factor_is_the_armys_own():
    """Austro-Hungarian armies have LF 2: a 3 fails, a 2 succeeds."""
    pos = Position()
    entrench_played(pos)
    pos.place("AH 1", "Cracow")
    dig(pos, "AH 1", "Cracow", 3)
    assert pos.var("trench", "Cracow") == 0
    dig(pos, "AH 1", "Cracow", 2)
    assert pos.var("trench", "Cracow") == 1


@pytest.mark.rule("11.2.2")
@pytest.mark.rule("11.2.3")
def test_11_2_2_a_second_success_flips_to_level_2_and_11_2_3_never_beyond():
    pos = Position()
    entrench_played(pos)
    pos.place("GE 4", "Metz")
    pos.set("trench", 1, key="Metz")  # the set-up trench, held by whoever holds Metz
    dig(pos, "GE 4", "Metz", 1)
    assert pos.var("trench", "Metz") == 2
    dig(pos, "GE 4", "Metz", 1)
    assert pos.var("trench", "Metz") == 2


@pytest.mark.rule("11.2.1")
def test_11_2_1_one_army_a_space_digs_and_the_others_move_freely():
    pos = Position()
    entrench_played(pos)
    pos.place("GE 1", "Koblenz")
    pos.place("GE 2", "Koblenz")
    pos.activate("Koblenz", "move")
    pos.run("move_activated_units", "cp",
            answers=["entrench GE 1 in Koblenz", "move GE 2 from Koblenz", "move to Aachen", "stop in Aachen"],
            dice=[2])
    assert "entrench GE 2 in Koblenz" not in pos.asked[1].options
    assert pos.units_at("Aachen") == ["GE 2"]
    assert pos.units_at("Koblenz") == ["GE 1"]
    assert pos.var("trench", "Koblenz") == 1  # rolled after all movement (11.2.2)


@pytest.mark.rule("11.2.1")
def test_11_2_1_corps_do_not_dig():
    pos = Position()
    entrench_played(pos)
    pos.place("GEc", "Koblenz")
    pos.place("GEc", "Koblenz")
    pos.activate("Koblenz", "move")
    with pytest.raises(IllegalOption):
        pos.run("move_activated_units", "cp", answers=["entrench GEc in Koblenz"])
    assert not any(o.startswith("entrench") for o in pos.asked[-1].options)


@pytest.mark.rule("11.2.1")
def test_11_2_1_an_army_may_dig_in_while_besieging():
    pos = Position()
    entrench_played(pos)
    pos.place("GE 1", "Verdun")
    pos.set("besieged", True, key="Verdun")
    dig(pos, "GE 1", "Verdun", 1)
    assert pos.var("trench", "Verdun") == 1
    assert trench_side(pos, "Verdun") == "cp"  # the besieger's trench in an Allied-held space
    assert pos.s["control"][pos.entity("space", "Verdun").index] == "ap"


@pytest.mark.rule("11.2.4")
def test_11_2_4_a_trench_stays_when_its_units_leave():
    pos = Position()
    pos.control("Sedan", "cp")
    pos.set("trench", 1, key="Sedan")
    pos.place("GE 1", "Sedan")
    pos.activate("Sedan", "move")
    pos.run("move_activated_units", "cp", answers=["move GE 1 from Sedan", "move to Koblenz", "stop in Koblenz"])
    assert pos.var("trench", "Sedan") == 1


@pytest.mark.rule("11.2.5")
def test_11_2_5_an_enemy_unit_entering_removes_a_level_1_trench():
    pos = Position()
    pos.control("Sedan", "cp")
    pos.set("trench", 1, key="Sedan")
    pos.place("FR 1", "Chateau Thierry")
    pos.activate("Chateau Thierry", "move")
    pos.run("move_activated_units", "ap",
            answers=["move FR 1 from Chateau Thierry", "move to Sedan", "stop in Sedan"])
    assert pos.var("trench", "Sedan") == 0


@pytest.mark.rule("11.2.6")
def test_11_2_6_an_enemy_unit_entering_a_level_2_trench_makes_it_its_own_level_1():
    pos = Position()
    pos.control("Sedan", "cp")
    pos.set("trench", 2, key="Sedan")
    pos.place("FR 1", "Chateau Thierry")
    pos.activate("Chateau Thierry", "move")
    pos.run("move_activated_units", "ap",
            answers=["move FR 1 from Chateau Thierry", "move to Sedan", "stop in Sedan"])
    assert pos.var("trench", "Sedan") == 1
    assert trench_side(pos, "Sedan") == "ap"


@pytest.mark.rule("11.2.5")
def test_11_2_5_a_friendly_unit_entering_leaves_the_trench_alone():
    pos = Position()
    pos.set("trench", 1, key="Sedan")  # an Allied trench: Sedan is Allied
    pos.place("FR 1", "Chateau Thierry")
    pos.activate("Chateau Thierry", "move")
    pos.run("move_activated_units", "ap",
            answers=["move FR 1 from Chateau Thierry", "move to Sedan", "stop in Sedan"])
    assert pos.var("trench", "Sedan") == 1


@pytest.mark.rule("11.2.10")
@pytest.mark.parametrize("optional_rule, second_level", [(True, 1), (False, 0)])
def test_11_2_10_optional_a_failed_roll_helps_the_next_round(optional_rule, second_level):
    pos = Position()
    options = pos.w.options
    saved = options.get("entrench_drm")
    options["entrench_drm"] = optional_rule
    try:
        entrench_played(pos)
        pos.place("GE 1", "Koblenz")
        pos.s["turn"] = 3
        pos.set("action_round", 2)
        dig(pos, "GE 1", "Koblenz", 4)
        assert pos.var("trench", "Koblenz") == 0
        pos.set("action_round", 3)
        dig(pos, "GE 1", "Koblenz", 4)
        assert pos.var("trench", "Koblenz") == second_level
    finally:
        if saved is None:
            options.pop("entrench_drm", None)
        else:
            options["entrench_drm"] = saved


@pytest.mark.rule("11.2.6")
def test_11_2_6_besiegers_taking_a_level_2_trench_own_it_though_the_fort_keeps_the_space():
    pos = Position()
    pos.set("trench", 2, key="Verdun")  # Allied trench in Allied Verdun
    pos.place("GE 1", "Metz")
    pos.activate("Metz", "move")
    pos.run("move_activated_units", "cp", answers=["move GE 1 from Metz", "move to Verdun"])
    assert pos.var("trench", "Verdun") == 1
    assert trench_side(pos, "Verdun") == "cp"
    assert pos.s["control"][pos.entity("space", "Verdun").index] == "ap"
