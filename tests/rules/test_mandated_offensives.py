"""Rule 7.0, Mandated Offensives: the MO roll (7.1.1, 7.1.2, 7.1.6, 7.1.9-7.1.11),
what meets an MO (7.1.3-7.1.7), the French Mutiny (7.1.8) and the VP cost of a
missed MO in the War Status Phase (7.1.3, 6.0.E.1).

Every roll is a fixed die; attacks are raised as the combat chapter raises them,
with the `attack_made(attacker, target, attackers)` signal."""

import pytest

from .harness import Position


# ----------------------------------------------------------------- helpers
def roll(pos, side, die):
    pos.run("roll_mandated_offensive", side, dice=[die])
    return pos.var("mo_marker", side)


def attack(pos, side, target, attackers):
    """Declare an attack as combat does: emit attack_made and run its triggers."""
    g = pos.game
    pos.s["stack"] = []
    pos.s["result"] = None
    g.emit("attack_made", (pos.entity("side", side), pos.entity("space", target), list(attackers)))
    assert g.run() is None
    assert pos.s["result"]["reason"] == "nothing left to run"
    pos.s["result"] = None


def at_war(pos, *nations):
    for n in nations:
        pos.s["at_war"][n] = True


def marker(pos, side, nation):
    pos.set("mo_marker", nation, key=side)


def penalties(pos):
    """War Status Phase segment E.1, which charges the missed MOs."""
    before = pos.var("vp")
    pos.run("war_status_vp_changes")
    return pos.var("vp") - before


# ----------------------------------------------------------------- 7.1.1 / 7.1.2 the roll
@pytest.mark.rule("7.1.1")
@pytest.mark.parametrize("die, result", [(1, "fr"), (2, "fr"), (3, "br"), (4, None), (5, None), (6, "ru")])
def test_7_1_1_allied_table_at_the_start_italy_neutral_is_none(die, result):
    """7.1.1, 7.1.2: Italy's results (4, 5) mean no MO while Italy is neutral."""
    assert roll(Position(), "ap", die) == result


@pytest.mark.rule("7.1.1")
@pytest.mark.parametrize("die, result", [(1, "ah"), (2, "ah"), (3, None), (4, "ge"), (5, None), (6, None)])
def test_7_1_1_cp_table_at_the_start_turkey_neutral_is_none(die, result):
    """7.1.1, 7.1.2: Turkey's result means no MO while Turkey is neutral; AH (It) is a
    plain AH MO while Italy is neutral (7.1.6)."""
    pos = Position()
    assert roll(pos, "cp", die) == result
    assert pos.var("mo_against_italy") is False


@pytest.mark.rule("7.1.1")
def test_7_1_1_italy_and_turkey_at_war_have_mos():
    pos = Position()
    at_war(pos, "it", "tu")
    assert roll(pos, "ap", 4) == "it"
    assert roll(pos, "ap", 5) == "it"
    assert roll(pos, "cp", 3) == "tu"


@pytest.mark.rule("7.1.1")
def test_7_1_1_a_new_roll_replaces_last_turns_marker():
    pos = Position()
    assert roll(pos, "ap", 1) == "fr"
    assert roll(pos, "ap", 5) is None


@pytest.mark.rule("7.1.1")
def test_7_1_1_the_mo_phase_rolls_cp_then_allies():
    pos = Position()
    pos.s["stack"] = [{"code": "phase:mandated_offensive", "pc": 0, "l": {}}]
    pos.s["dice"] = [4, 3]
    assert pos.game.run() is None
    assert pos.var("mo_marker", "cp") == "ge"
    assert pos.var("mo_marker", "ap") == "br"


@pytest.mark.rule("7.1.2")
def test_7_1_2_lost_paris_moves_the_french_mo_to_britain():
    pos = Position()
    pos.control("Paris", "cp")
    assert roll(pos, "ap", 1) == "br"
    assert roll(pos, "ap", 2) == "br"


@pytest.mark.rule("7.1.2")
def test_7_1_2_the_shift_goes_on_while_capitals_are_lost():
    """Paris and London lost: FR -> BR -> IT, and a neutral Italy is no MO."""
    pos = Position()
    pos.control("Paris", "cp")
    pos.control("London", "cp")
    assert roll(pos, "ap", 1) is None
    at_war(pos, "it")
    assert roll(pos, "ap", 1) == "it"


@pytest.mark.rule("7.1.2")
def test_7_1_2_lost_rome_moves_the_italian_mo_to_russia():
    pos = Position()
    at_war(pos, "it")
    pos.control("Rome", "cp")
    assert roll(pos, "ap", 4) == "ru"


@pytest.mark.rule("7.1.2")
def test_7_1_2_russia_has_no_capital_so_its_mo_never_shifts():
    pos = Position()
    pos.control("Petrograd", "cp")
    assert roll(pos, "ap", 6) == "ru"


@pytest.mark.rule("7.1.2")
def test_7_1_2_lost_berlin_means_no_german_mo():
    """GE is the last box before None."""
    pos = Position()
    pos.control("Berlin", "cp")  # still German: no shift
    assert roll(pos, "cp", 4) == "ge"
    pos.control("Berlin", "ap")
    assert roll(pos, "cp", 4) is None


@pytest.mark.rule("7.1.2")
def test_7_1_2_austria_hungary_needs_both_capitals_lost():
    pos = Position()
    pos.control("Vienna", "ap")
    assert roll(pos, "cp", 1) == "ah"
    pos.control("Budapest", "ap")
    assert roll(pos, "cp", 1) is None  # AH -> AH (It) -> TU, neutral
    at_war(pos, "tu")
    assert roll(pos, "cp", 1) == "tu"
    assert roll(pos, "cp", 2) == "tu"


@pytest.mark.rule("7.1.2")
def test_7_1_2_a_neutral_nation_is_not_shifted():
    """Italy neutral: no MO, even though nothing about its capital matters."""
    pos = Position()
    pos.control("Rome", "cp")
    assert roll(pos, "ap", 4) is None


# ----------------------------------------------------------------- 7.1.6 AH (It)
@pytest.mark.rule("7.1.6")
def test_7_1_6_ah_it_with_italy_at_war_aims_at_italy():
    pos = Position()
    at_war(pos, "it")
    assert roll(pos, "cp", 2) == "ah"
    assert pos.var("mo_against_italy") is True
    assert roll(pos, "cp", 1) == "ah"
    assert pos.var("mo_against_italy") is False


@pytest.mark.rule("7.1.6")
def test_7_1_6_ah_it_with_rome_in_cp_hands_is_a_plain_ah_mo():
    pos = Position()
    at_war(pos, "it")
    pos.control("Rome", "cp")
    assert roll(pos, "cp", 2) == "ah"
    assert pos.var("mo_against_italy") is False


# ----------------------------------------------------------------- 7.1.9 - 7.1.11 events
@pytest.mark.parametrize("die, result, italy", [(1, "ah", True), (2, None, False), (3, "ge", False),
                                                 (5, None, False), (6, None, False)])
@pytest.mark.rule("7.1.9")
def test_7_1_9_hoffmann_adds_one_to_the_cp_roll(die, result, italy):
    pos = Position()
    at_war(pos, "it")
    pos.set("hoffmann_played", True)
    assert roll(pos, "cp", die) == result
    assert pos.var("mo_against_italy") is italy


@pytest.mark.rule("7.1.9")
def test_7_1_9_hoffmann_does_not_touch_the_allied_roll():
    pos = Position()
    pos.set("hoffmann_played", True)
    assert roll(pos, "ap", 2) == "fr"


@pytest.mark.rule("7.1.9")
def test_7_1_9_hoffmann_leaves_an_mo_in_effect_alone():
    pos = Position()
    marker(pos, "cp", "ge")
    pos.set("hoffmann_played", True)
    assert penalties(pos) == -1


@pytest.mark.rule("7.1.10")
def test_7_1_10_after_h_l_take_command_a_german_result_is_none():
    pos = Position()
    pos.set("hl_take_command_played", True)
    assert roll(pos, "cp", 4) is None
    assert roll(pos, "cp", 1) == "ah"


@pytest.mark.rule("7.1.10")
def test_7_1_10_h_l_take_command_cancels_a_german_mo_in_effect():
    pos = Position()
    assert roll(pos, "cp", 4) == "ge"
    pos.set("hl_take_command_played", True)
    assert penalties(pos) == 0


@pytest.mark.rule("7.1.11")
def test_7_1_11_after_the_bolshevik_revolution_a_russian_result_is_none():
    pos = Position()
    pos.set("bolshevik_revolution_played", True)
    assert roll(pos, "ap", 6) is None
    assert roll(pos, "ap", 3) == "br"


@pytest.mark.rule("7.1.11")
def test_7_1_11_bolshevik_revolution_cancels_a_russian_mo_in_effect():
    pos = Position()
    assert roll(pos, "ap", 6) == "ru"
    pos.set("bolshevik_revolution_played", True)
    assert penalties(pos) == 0


# ----------------------------------------------------------------- 7.1.3 penalty
@pytest.mark.rule("7.1.3")
def test_7_1_3_a_missed_allied_mo_costs_one_vp_in_the_war_status_phase():
    pos = Position()
    assert roll(pos, "ap", 1) == "fr"
    assert penalties(pos) == +1
    assert any("missed" in line for line in pos.log())


@pytest.mark.rule("7.1.3")
def test_7_1_3_a_missed_cp_mo_costs_one_vp_the_other_way():
    pos = Position()
    assert roll(pos, "cp", 1) == "ah"
    assert penalties(pos) == -1


@pytest.mark.rule("7.1.3")
def test_7_1_3_both_sides_missing_cancel_out():
    pos = Position()
    marker(pos, "ap", "ru")
    marker(pos, "cp", "ge")
    assert penalties(pos) == 0


@pytest.mark.rule("7.1.3")
def test_7_1_3_no_mo_no_penalty():
    pos = Position()
    assert roll(pos, "ap", 5) is None
    assert roll(pos, "cp", 6) is None
    assert penalties(pos) == 0


@pytest.mark.rule("7.1.3")
def test_7_1_3_the_penalty_applies_even_with_no_unit_able_to_attack():
    """An empty board: Russia cannot attack at all, and still pays."""
    pos = Position()
    assert roll(pos, "ap", 6) == "ru"
    assert pos.units_at("Warsaw") == []
    assert penalties(pos) == +1


@pytest.mark.rule("7.1.3")
def test_7_1_3_a_made_mo_is_not_charged():
    pos = Position()
    marker(pos, "ap", "fr")
    fr = pos.place("FR 1", "Verdun")
    pos.place("GE 1", "Metz")
    attack(pos, "ap", "Metz", [fr])
    assert pos.var("mo_marker", "ap") is None
    assert penalties(pos) == 0


# ----------------------------------------------------------------- 7.1.3 - 7.1.7 fulfilment
@pytest.mark.rule("7.1.4")
def test_7_1_4_french_attack_on_germans_in_germany_makes_the_french_mo():
    pos = Position()
    marker(pos, "ap", "fr")
    fr = pos.place("FR 1", "Verdun")
    pos.place("GE 1", "Metz")
    attack(pos, "ap", "Metz", [fr])
    assert pos.var("mo_marker", "ap") is None
    assert any("Mandated Offensive made by fr against Metz" in line for line in pos.log())


@pytest.mark.rule("7.1.4")
def test_7_1_4_a_british_attack_does_not_make_a_french_mo():
    pos = Position()
    marker(pos, "ap", "fr")
    br = pos.place("BRc", "Verdun")
    pos.place("GE 1", "Metz")
    attack(pos, "ap", "Metz", [br])
    assert pos.var("mo_marker", "ap") == "fr"


@pytest.mark.rule("7.1.4")
def test_7_1_4_french_mo_needs_a_german_defender():
    pos = Position()
    marker(pos, "ap", "fr")
    fr = pos.place("FR 1", "Verdun")
    pos.place("AH 1", "Metz")
    attack(pos, "ap", "Metz", [fr])
    assert pos.var("mo_marker", "ap") == "fr"


@pytest.mark.rule("7.1.4")
def test_7_1_4_french_mo_must_be_in_france_belgium_or_germany():
    """Germans in Trent (Austria-Hungary) do not count."""
    pos = Position()
    marker(pos, "ap", "fr")
    fr = pos.place("FR 1", "Verona")
    pos.place("GE 1", "Trent")
    attack(pos, "ap", "Trent", [fr])
    assert pos.var("mo_marker", "ap") == "fr"


@pytest.mark.rule("7.1.4")
def test_7_1_4_british_mo_by_british_units_in_france():
    pos = Position()
    marker(pos, "ap", "br")
    br = pos.place("BR 1", "Cambrai")
    pos.control("Sedan", "cp")
    pos.place("GE 1", "Sedan")
    attack(pos, "ap", "Sedan", [br])
    assert pos.var("mo_marker", "ap") is None


@pytest.mark.rule("7.1.4")
def test_7_1_4_dominion_and_portuguese_corps_are_not_british_for_the_mo():
    pos = Position()
    marker(pos, "ap", "br")
    aus = pos.place("AUSc", "Cambrai")
    cnd = pos.place("CNDc", "Cambrai")
    pt = pos.place("PTc", "Cambrai")
    pos.place("GE 1", "Sedan")
    attack(pos, "ap", "Sedan", [aus, cnd, pt])
    assert pos.var("mo_marker", "ap") == "br"
    br = pos.place("BRc", "Cambrai")
    attack(pos, "ap", "Sedan", [aus, br])
    assert pos.var("mo_marker", "ap") is None


@pytest.mark.rule("7.1.5")
def test_7_1_5_german_mo_against_the_french_in_france():
    pos = Position()
    marker(pos, "cp", "ge")
    ge = pos.place("GE 1", "Metz")
    pos.place("FR 1", "Verdun")
    attack(pos, "cp", "Verdun", [ge])
    assert pos.var("mo_marker", "cp") is None


@pytest.mark.rule("7.1.5")
@pytest.mark.parametrize("defender", ["US 1", "BR 1", "BEc", "FR 1"])
def test_7_1_5_german_mo_counts_against_americans_british_belgians_french(defender):
    pos = Position()
    marker(pos, "cp", "ge")
    ge = pos.place("GE 1", "Metz")
    pos.place(defender, "Verdun")
    attack(pos, "cp", "Verdun", [ge])
    assert pos.var("mo_marker", "cp") is None


@pytest.mark.rule("7.1.5")
def test_7_1_5_german_mo_not_against_russians_nor_outside_the_west():
    pos = Position()
    marker(pos, "cp", "ge")
    ge = pos.place("GE 1", "Metz")
    pos.place("RU 1", "Verdun")
    attack(pos, "cp", "Verdun", [ge])
    assert pos.var("mo_marker", "cp") == "ge"
    ge2 = pos.place("GE 2", "Trent")
    pos.place("FR 1", "Verona")
    attack(pos, "cp", "Verona", [ge2])
    assert pos.var("mo_marker", "cp") == "ge"


@pytest.mark.rule("7.1.5")
def test_7_1_5_an_austrian_attack_does_not_make_a_german_mo():
    pos = Position()
    marker(pos, "cp", "ge")
    ah = pos.place("AH 1", "Metz")
    pos.place("FR 1", "Verdun")
    attack(pos, "cp", "Verdun", [ah])
    assert pos.var("mo_marker", "cp") == "ge"


@pytest.mark.rule("7.1.5")
def test_7_1_5_turkish_mo_against_any_allied_unit_anywhere():
    pos = Position()
    at_war(pos, "tu")
    marker(pos, "cp", "tu")
    tu = pos.place("TUc", "Gallipoli")
    pos.place("BRc", "MEF1")
    attack(pos, "cp", "MEF1", [tu])
    assert pos.var("mo_marker", "cp") is None


@pytest.mark.rule("7.1.5")
def test_7_1_5_the_senussi_cannot_make_the_turkish_mo():
    pos = Position()
    at_war(pos, "tu")
    marker(pos, "cp", "tu")
    sn = pos.place("TU SNc", "Verdun")
    pos.place("BRc", "Sedan")
    attack(pos, "cp", "Sedan", [sn])
    assert pos.var("mo_marker", "cp") == "tu"


@pytest.mark.rule("7.1.7")
def test_7_1_7_plain_ah_mo_against_any_unit():
    pos = Position()
    marker(pos, "cp", "ah")
    ah = pos.place("AH 1", "Cracow")
    pos.place("RU 1", "Warsaw")
    attack(pos, "cp", "Warsaw", [ah])
    assert pos.var("mo_marker", "cp") is None


@pytest.mark.rule("7.1.3")
def test_7_1_3_an_attack_on_a_space_with_no_enemy_unit_does_not_count():
    """An attack on an empty fort is not an attack on an enemy combat unit."""
    pos = Position()
    marker(pos, "cp", "ah")
    ah = pos.place("AH 1", "Cracow")
    attack(pos, "cp", "Warsaw", [ah])
    assert pos.var("mo_marker", "cp") == "ah"


@pytest.mark.rule("7.1.3")
def test_7_1_3_italian_and_russian_mos_against_any_enemy_unit():
    pos = Position()
    at_war(pos, "it")
    marker(pos, "ap", "it")
    it = pos.place("IT 1", "Verona")
    pos.place("AH 1", "Trent")
    attack(pos, "ap", "Trent", [it])
    assert pos.var("mo_marker", "ap") is None
    marker(pos, "ap", "ru")
    ru = pos.place("RU 1", "Warsaw")
    pos.place("GE 1", "Cracow")
    attack(pos, "ap", "Cracow", [pos.place("FR 1", "Warsaw")])
    assert pos.var("mo_marker", "ap") == "ru"  # French units do not speak for Russia
    attack(pos, "ap", "Cracow", [ru])
    assert pos.var("mo_marker", "ap") is None


@pytest.mark.rule("7.1.3")
def test_7_1_3_the_other_sides_attack_does_not_touch_an_mo():
    pos = Position()
    marker(pos, "ap", "fr")
    ge = pos.place("GE 1", "Metz")
    pos.place("FR 1", "Verdun")
    attack(pos, "cp", "Verdun", [ge])
    assert pos.var("mo_marker", "ap") == "fr"


def _ah_it_turn():
    pos = Position()
    at_war(pos, "it")
    marker(pos, "cp", "ah")
    pos.set("mo_against_italy", True)
    return pos


@pytest.mark.rule("7.1.6")
def test_7_1_6_ah_it_mo_against_italians():
    pos = _ah_it_turn()
    ah = pos.place("AH 1", "Trent")
    pos.place("IT 1", "Verona")
    attack(pos, "cp", "Verona", [ah])
    assert pos.var("mo_marker", "cp") is None
    assert pos.var("mo_against_italy") is False


@pytest.mark.rule("7.1.6")
def test_7_1_6_ah_it_mo_against_a_space_in_italy():
    pos = _ah_it_turn()
    ah = pos.place("AH 1", "Trent")
    pos.place("FR 1", "Verona")
    attack(pos, "cp", "Verona", [ah])
    assert pos.var("mo_marker", "cp") is None


@pytest.mark.rule("7.1.6")
def test_7_1_6_ah_it_mo_against_allies_supplied_through_italy():
    """British units in Trent can only trace supply back through Verona or Asiago."""
    pos = _ah_it_turn()
    ah = pos.place("AH 1", "Innsbruck")
    pos.place("BRc", "Trent")
    attack(pos, "cp", "Trent", [ah])
    assert pos.var("mo_marker", "cp") is None


@pytest.mark.rule("7.1.6")
def test_7_1_6_allies_with_no_supply_path_through_italy_do_not_count():
    """Verona and Asiago in CP hands: the British in Trent trace no supply through Italy."""
    pos = _ah_it_turn()
    pos.control("Verona", "cp")
    pos.control("Asiago", "cp")
    ah = pos.place("AH 1", "Innsbruck")
    pos.place("BRc", "Trent")
    attack(pos, "cp", "Trent", [ah])
    assert pos.var("mo_marker", "cp") == "ah"


@pytest.mark.rule("7.1.6")
def test_7_1_6_ah_it_mo_not_against_russians():
    pos = _ah_it_turn()
    ah = pos.place("AH 1", "Cracow")
    pos.place("RU 1", "Warsaw")
    attack(pos, "cp", "Warsaw", [ah])
    assert pos.var("mo_marker", "cp") == "ah"
    assert penalties(pos) == -1


@pytest.mark.rule("7.1.6")
def test_7_1_6_ah_it_mo_not_against_the_french_in_france():
    pos = _ah_it_turn()
    ah = pos.place("AH 1", "Metz")
    pos.place("FR 1", "Verdun")
    attack(pos, "cp", "Verdun", [ah])
    assert pos.var("mo_marker", "cp") == "ah"


# ----------------------------------------------------------------- 7.1.8 French Mutiny
def _mutiny_turn():
    pos = Position()
    marker(pos, "ap", "fr")
    pos.set("french_mutiny_played", True)
    return pos


@pytest.mark.rule("7.1.8")
def test_7_1_8_a_mutiny_turn_needs_no_french_attack():
    pos = _mutiny_turn()
    assert penalties(pos) == 0


@pytest.mark.rule("7.1.8")
def test_7_1_8_future_french_mos_are_mutiny_turns():
    pos = Position()
    pos.set("french_mutiny_played", True)
    assert roll(pos, "ap", 1) == "fr"
    assert penalties(pos) == 0


@pytest.mark.rule("7.1.8")
def test_7_1_8_a_french_attack_on_a_mutiny_turn_adds_one_vp_once():
    pos = _mutiny_turn()
    fr = pos.place("FR 1", "Verdun")
    pos.place("GE 1", "Metz")
    attack(pos, "ap", "Metz", [fr])
    assert pos.var("vp") == 11
    assert pos.var("mo_marker", "ap") is None  # marker to None or Made
    attack(pos, "ap", "Metz", [fr])
    assert pos.var("vp") == 11  # once a turn, not per attack
    assert penalties(pos) == 0


@pytest.mark.rule("7.1.8")
def test_7_1_8_french_stacked_with_americans_attack_freely():
    pos = _mutiny_turn()
    fr = pos.place("FR 1", "Verdun")
    pos.place("US 1", "Verdun")
    pos.place("GE 1", "Metz")
    attack(pos, "ap", "Metz", [fr])
    assert pos.var("vp") == 10
    assert pos.var("mo_marker", "ap") == "fr"


@pytest.mark.rule("7.1.8")
def test_7_1_8_one_unstacked_french_unit_is_enough_for_the_penalty():
    pos = _mutiny_turn()
    fr1 = pos.place("FR 1", "Verdun")
    pos.place("US 1", "Verdun")
    fr2 = pos.place("FR 2", "Nancy")
    pos.place("GE 1", "Metz")
    attack(pos, "ap", "Metz", [fr1, fr2])
    assert pos.var("vp") == 11


@pytest.mark.rule("7.1.8")
def test_7_1_8_mutiny_does_not_apply_outside_france_belgium_germany():
    pos = _mutiny_turn()
    fr = pos.place("FR 1", "Verona")
    pos.place("AH 1", "Trent")
    attack(pos, "ap", "Trent", [fr])
    assert pos.var("vp") == 10


@pytest.mark.rule("7.1.8")
def test_7_1_8_british_attacks_are_not_penalised():
    pos = _mutiny_turn()
    br = pos.place("BR 1", "Verdun")
    pos.place("GE 1", "Metz")
    attack(pos, "ap", "Metz", [br])
    assert pos.var("vp") == 10


@pytest.mark.rule("7.1.8")
def test_7_1_8_mutiny_played_after_the_french_mo_was_made_has_no_effect_this_turn():
    pos = Position()
    marker(pos, "ap", "fr")
    fr = pos.place("FR 1", "Verdun")
    pos.place("GE 1", "Metz")
    attack(pos, "ap", "Metz", [fr])
    assert pos.var("mo_marker", "ap") is None
    pos.set("french_mutiny_played", True)
    attack(pos, "ap", "Metz", [fr])
    assert pos.var("vp") == 10
    assert penalties(pos) == 0


@pytest.mark.rule("7.1.8")
def test_7_1_8_mutiny_played_before_the_french_attack_reverses_the_mo_at_once():
    pos = Position()
    marker(pos, "ap", "fr")
    pos.set("french_mutiny_played", True)  # mid-turn, before any French attack
    fr = pos.place("FR 1", "Verdun")
    pos.place("GE 1", "Metz")
    attack(pos, "ap", "Metz", [fr])
    assert pos.var("vp") == 11


@pytest.mark.rule("7.1.8")
def test_7_1_8_mutiny_leaves_a_british_mo_alone():
    pos = Position()
    marker(pos, "ap", "br")
    pos.set("french_mutiny_played", True)
    assert penalties(pos) == +1
