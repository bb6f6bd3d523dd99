"""Rule 11.0 Movement (and the movement sides of 9.5.2.4, 9.5.3.5, 15.1 and 15.2).

Each test builds a fixed position, marks the moving space with a Move marker
(`activation[s] == move`, as 9.2.5 does), runs `move_activated_units` with
scripted answers and checks where units end, who controls what and the VP.
A refused answer raises IllegalOption naming the rule that forbids it.
"""

import pytest

from pogdsl.runtime.errors import IllegalOption

from .harness import Position


def move_marker(pos, *spaces):
    for s in spaces:
        pos.activate(s, "move")


def play_card(pos, name):
    pos.s["played"].append(pos.entity("card", name).index)


def refused(pos, player, answers, match):
    """Run movement expecting the last answer to be refused for the rule(s) in `match`;
    the refused decision is then dropped so the position can be used again."""
    with pytest.raises(IllegalOption, match=match):
        pos.run("move_activated_units", player, answers=answers)
    pos.s["pending"] = None


def options(pos):
    """The options of the last decision offered."""
    return pos.asked[-1].options


# ---------------------------------------------------------------- 11.1.1-11.1.5


@pytest.mark.rule("11.1.3")
def test_11_1_3_a_unit_moves_along_solid_lines_and_stops_when_told():
    pos = Position()
    pos.place("GE 1", "Koblenz")
    move_marker(pos, "Koblenz")
    pos.run("move_activated_units", "cp", answers=["move GE 1 from Koblenz", "move to Sedan", "stop in Sedan"])
    assert pos.units_at("Sedan") == ["GE 1"]
    assert pos.units_at("Koblenz") == []


@pytest.mark.rule("11.1.3")
def test_11_1_3_only_connected_spaces_are_offered():
    pos = Position()
    pos.place("GE 1", "Koblenz")
    move_marker(pos, "Koblenz")
    with pytest.raises(IllegalOption):
        pos.run("move_activated_units", "cp", answers=["move GE 1 from Koblenz", "move to Cambrai"])
    steps = set(options(pos))
    assert steps == {"move to Sedan", "move to Liege", "move to Aachen", "move to Frankfurt", "move to Metz",
                     "stop in Koblenz"}


@pytest.mark.rule("11.1.4")
def test_11_1_4_a_dotted_line_is_only_for_its_nationalities():
    """London-Calais is for British units only (the rule's own example)."""
    pos = Position()
    pos.place("BR 1", "London")
    move_marker(pos, "London")
    pos.run("move_activated_units", "ap", answers=["move BR 1 from London", "move to Calais", "stop in Calais"])
    assert pos.units_at("Calais") == ["BR 1"]
    pos = Position()
    pos.place("FR 1", "Calais")
    move_marker(pos, "Calais")
    with pytest.raises(IllegalOption, match=r"dotted_lines \(rule 11\.1\.4\)"):
        pos.run("move_activated_units", "ap", answers=["move FR 1 from Calais", "move to London"])


@pytest.mark.rule("11.1.5")
def test_11_1_5_a_unit_spends_no_more_than_its_movement_factor():
    """FR 1 (MF 3) from Paris: after three spaces only stopping is left."""
    pos = Position()
    pos.place("FR 1", "Paris")
    move_marker(pos, "Paris")
    pos.run("move_activated_units", "ap",
            answers=["move FR 1 from Paris", "move to Chateau Thierry", "move to Sedan", "move to Koblenz"])
    # the fourth step answered itself: "stop in Koblenz" was the only option
    assert pos.units_at("Koblenz") == ["FR 1"]
    assert len(pos.asked) == 4


@pytest.mark.rule("11.1.1")
def test_11_1_1_a_stack_moves_at_its_slowest_units_pace():
    """GE 1 (MF 3) and a German corps (MF 4) moving together have 3 MPs."""
    pos = Position()
    pos.place("GE 1", "Koblenz")
    pos.place("GEc", "Koblenz")
    move_marker(pos, "Koblenz")
    pos.run("move_activated_units", "cp",
            answers=["move GE 1, GEc from Koblenz", "move to Sedan", "move to Chateau Thierry", "move to Melun"])
    assert pos.units_at("Melun") == ["GE 1", "GEc"]


@pytest.mark.rule("11.1.1")
def test_11_1_1_each_unit_moves_once_and_the_rest_may_stay():
    pos = Position()
    pos.place("GE 1", "Koblenz")
    pos.place("GE 2", "Koblenz")
    move_marker(pos, "Koblenz")
    pos.run("move_activated_units", "cp",
            answers=["move GE 1 from Koblenz", "move to Sedan", "stop in Sedan", "end movement"])
    assert pos.units_at("Sedan") == ["GE 1"]
    assert pos.units_at("Koblenz") == ["GE 2"]
    first = pos.asked[-1].options  # after GE 1 moved only GE 2 may still go
    assert "move GE 2 from Koblenz" in first
    assert not any("GE 1" in o for o in first)


@pytest.mark.rule("9.2.8")
def test_9_2_8_only_units_in_move_marked_spaces_move():
    pos = Position()
    pos.place("GE 1", "Koblenz")
    pos.place("GE 2", "Aachen")
    move_marker(pos, "Koblenz")
    with pytest.raises(IllegalOption):
        pos.run("move_activated_units", "cp", answers=["move GE 2 from Aachen"])
    assert "move GE 1 from Koblenz" in options(pos)


# ---------------------------------------------------------------- 11.1.6-11.1.8


@pytest.mark.rule("11.1.6")
def test_11_1_6_pass_through_but_never_stop_on_an_attack_marker():
    pos = Position()
    pos.place("GE 1", "Koblenz")
    pos.place("GE 2", "Sedan")
    pos.control("Sedan", "cp")
    move_marker(pos, "Koblenz")
    pos.activate("Sedan", "attack")
    with pytest.raises(IllegalOption, match=r"11\.1\.6"):
        pos.run("move_activated_units", "cp", answers=["move GE 1 from Koblenz", "move to Sedan", "stop in Sedan"])
    pos = Position()
    pos.place("GE 1", "Koblenz")
    pos.place("GE 2", "Sedan")
    pos.control("Sedan", "cp")
    move_marker(pos, "Koblenz")
    pos.activate("Sedan", "attack")
    pos.run("move_activated_units", "cp",
            answers=["move GE 1 from Koblenz", "move to Sedan", "move to Cambrai", "stop in Cambrai"])
    assert pos.units_at("Cambrai") == ["GE 1"]


@pytest.mark.rule("11.1.6")
def test_11_1_6_an_attack_marked_space_is_closed_with_the_last_movement_point():
    pos = Position()
    pos.place("GE 1", "Koblenz")
    pos.place("GE 2", "Cambrai")
    pos.control("Sedan", "cp")
    pos.control("Cambrai", "cp")
    move_marker(pos, "Koblenz")
    pos.activate("Cambrai", "attack")
    with pytest.raises(IllegalOption, match=r"11\.1\.6"):
        pos.run("move_activated_units", "cp",
                answers=["move GE 1 from Koblenz", "move to Sedan", "move to Chateau Thierry", "move to Cambrai"])


@pytest.mark.rule("11.1.7")
def test_11_1_7_no_entering_a_space_with_enemy_units():
    pos = Position()
    pos.place("GE 1", "Koblenz")
    pos.place("FRc", "Sedan")
    move_marker(pos, "Koblenz")
    with pytest.raises(IllegalOption, match=r"no_entering_enemy_units \(rule 11\.1\.7, 10\.1\.5\)"):
        pos.run("move_activated_units", "cp", answers=["move GE 1 from Koblenz", "move to Sedan"])


@pytest.mark.rule("11.1.8")
def test_11_1_8_an_unbesieged_enemy_fort_needs_a_besieging_force():
    """Verdun (fort 3): one corps may not go in; an army may, and stops there (15.1.1)."""
    pos = Position()
    pos.place("GEc", "Metz")
    move_marker(pos, "Metz")
    with pytest.raises(IllegalOption, match=r"11\.1\.8"):
        pos.run("move_activated_units", "cp", answers=["move GEc from Metz", "move to Verdun"])


@pytest.mark.rule("15.1.1")
@pytest.mark.rule("15.2.1")
def test_15_1_1_entering_an_unbesieged_fort_ends_the_move_and_15_2_1_besieges_it():
    pos = Position()
    pos.place("GE 1", "Metz")
    move_marker(pos, "Metz")
    pos.run("move_activated_units", "cp", answers=["move GE 1 from Metz", "move to Verdun"])
    # no step was offered after Verdun: "stop in Verdun" answered itself
    assert pos.units_at("Verdun") == ["GE 1"]
    assert pos.var("besieged", "Verdun") is True
    # 11.1.14 / 15.1.10: a besieging unit does not take the space
    assert pos.var("vp") == 10
    assert pos.s["control"][pos.entity("space", "Verdun").index] == "ap"


@pytest.mark.rule("15.2.1")
def test_15_2_1_three_corps_moving_together_may_besiege_verdun():
    pos = Position()
    for _ in range(3):
        pos.place("GEc", "Metz")
    move_marker(pos, "Metz")
    pos.run("move_activated_units", "cp", answers=["move GEc, GEc, GEc from Metz", "move to Verdun"])
    assert pos.units_at("Verdun") == ["GEc", "GEc", "GEc"]
    assert pos.var("besieged", "Verdun") is True


@pytest.mark.rule("15.2.2")
def test_15_2_2_a_besieged_fort_may_be_crossed():
    pos = Position()
    pos.place("GE 2", "Verdun")
    pos.set("besieged", True, key="Verdun")
    pos.place("GEc", "Metz")
    move_marker(pos, "Metz")
    pos.run("move_activated_units", "cp",
            answers=["move GEc from Metz", "move to Verdun", "move to Bar le Duc", "stop in Bar le Duc"])
    assert pos.units_at("Bar le Duc") == ["GEc"]


@pytest.mark.rule("11.1.1")
@pytest.mark.rule("15.2.2")
def test_11_1_1_a_fort_besieged_by_an_earlier_stack_may_be_crossed_by_a_later_one():
    """The note of 11.1.1: stacks move one after another, so a fort besieged
    by the first stack of an operation is already besieged when the next one
    moves, and that one may pass it by (15.2.2)."""
    pos = Position()
    pos.place("GE 1", "Metz")
    pos.place("GEc", "Metz")
    move_marker(pos, "Metz")
    pos.run("move_activated_units", "cp",
            answers=["move GE 1 from Metz", "move to Verdun",
                     "move GEc from Metz", "move to Verdun", "move to Bar le Duc", "stop in Bar le Duc"])
    assert pos.units_at("Verdun") == ["GE 1"]
    assert pos.units_at("Bar le Duc") == ["GEc"]
    assert pos.var("besieged", "Verdun") is True


@pytest.mark.rule("15.2.4")
def test_15_2_4_leaving_a_siege_too_weak_is_refused_but_leaving_it_wholly_is_not():
    pos = Position()
    for _ in range(3):
        pos.place("GEc", "Verdun")
    pos.set("besieged", True, key="Verdun")
    move_marker(pos, "Verdun")
    refused(pos, "cp", ["move GEc from Verdun"], r"keep_sieges \(rule 15\.2\.4\)")
    pos.run("move_activated_units", "cp",
            answers=["move GEc, GEc, GEc from Verdun", "move to Metz", "stop in Metz"])
    assert pos.units_at("Metz") == ["GEc", "GEc", "GEc"]
    assert pos.var("besieged", "Verdun") is False


# ---------------------------------------------------------------- 11.1.9


@pytest.mark.rule("11.1.9")
def test_11_1_9_cp_units_may_not_stop_in_calais_before_race_to_the_sea():
    pos = Position()
    pos.place("GE 1", "Cambrai")
    pos.control("Cambrai", "cp")
    pos.control("Sedan", "cp")  # the supply line home (14.3.1)
    move_marker(pos, "Cambrai")
    with pytest.raises(IllegalOption, match=r"cp_channel_coast \(rule 11\.1\.9\)"):
        pos.run("move_activated_units", "cp", answers=["move GE 1 from Cambrai", "move to Calais", "stop in Calais"])


@pytest.mark.rule("11.1.9")
def test_11_1_9_cp_units_may_cross_calais_and_take_it():
    pos = Position()
    pos.place("GE 1", "Cambrai")
    pos.control("Cambrai", "cp")
    pos.control("Sedan", "cp")  # the supply line home (14.3.1)
    move_marker(pos, "Cambrai")
    pos.run("move_activated_units", "cp",
            answers=["move GE 1 from Cambrai", "move to Calais", "move to Cambrai", "stop in Cambrai"])
    assert pos.units_at("Cambrai") == ["GE 1"]
    assert pos.s["control"][pos.entity("space", "Calais").index] == "cp"
    assert pos.var("vp") == 11  # Calais is a VP space


@pytest.mark.rule("11.1.9")
def test_11_1_9_the_last_movement_point_may_not_be_spent_entering_calais():
    pos = Position()
    pos.place("GE 1", "Koblenz")
    move_marker(pos, "Koblenz")
    with pytest.raises(IllegalOption, match=r"11\.1\.9"):
        pos.run("move_activated_units", "cp",
                answers=["move GE 1 from Koblenz", "move to Sedan", "move to Cambrai", "move to Calais"])


@pytest.mark.rule("11.1.9")
@pytest.mark.parametrize("opening", ["race_to_the_sea", "war_status_4"])
def test_11_1_9_the_coast_opens_with_race_to_the_sea_or_cp_war_status_4(opening):
    pos = Position()
    pos.place("GE 1", "Cambrai")
    pos.control("Cambrai", "cp")
    pos.control("Sedan", "cp")  # the supply line home (14.3.1)
    move_marker(pos, "Cambrai")
    if opening == "race_to_the_sea":
        play_card(pos, "Race to the Sea")
    else:
        pos.set("war_status", 4, key="cp")
    pos.run("move_activated_units", "cp", answers=["move GE 1 from Cambrai", "move to Calais", "stop in Calais"])
    assert pos.units_at("Calais") == ["GE 1"]


@pytest.mark.rule("11.1.9")
def test_11_1_9_allied_units_are_not_restricted():
    pos = Position()
    pos.place("FR 1", "Cambrai")
    move_marker(pos, "Cambrai")
    pos.run("move_activated_units", "ap", answers=["move FR 1 from Cambrai", "move to Calais", "stop in Calais"])
    assert pos.units_at("Calais") == ["FR 1"]


# ---------------------------------------------------------------- 11.1.14 control and VP


@pytest.mark.rule("11.1.14")
def test_11_1_14_units_take_every_space_they_enter_and_do_not_stop_there():
    """Entering enemy-controlled empty spaces neither costs extra nor ends the move."""
    pos = Position()
    pos.place("GE 1", "Koblenz")
    move_marker(pos, "Koblenz")
    pos.run("move_activated_units", "cp",
            answers=["move GE 1 from Koblenz", "move to Sedan", "move to Cambrai", "move to Brussels"])
    control = pos.s["control"]
    for name in ("Sedan", "Cambrai", "Brussels"):
        assert control[pos.entity("space", name).index] == "cp"
    # Cambrai and Brussels are Campaign VP spaces, Sedan is not (5.7.2)
    assert pos.var("vp") == 12


@pytest.mark.rule("5.1.2")
def test_5_1_2_retaking_a_vp_space_moves_vp_back():
    pos = Position()
    pos.place("FR 1", "Sedan")
    pos.control("Cambrai", "cp")
    pos.set("vp", 11)
    move_marker(pos, "Sedan")
    pos.run("move_activated_units", "ap", answers=["move FR 1 from Sedan", "move to Cambrai", "stop in Cambrai"])
    assert pos.var("vp") == 10
    assert pos.s["control"][pos.entity("space", "Cambrai").index] == "ap"


@pytest.mark.rule("11.1.15")
def test_11_1_15_the_ana_holds_cp_spaces_only_while_it_stays():
    pos = Position()
    pos.place("BR ANAc", "Arabia")
    pos.s["at_war"]["tu"] = True
    move_marker(pos, "Arabia")
    medina = pos.entity("space", "Medina").index
    pos.run("move_activated_units", "ap", answers=["move BR ANAc from Arabia", "move to Medina", "stop in Medina"])
    assert pos.s["control"][medina] == "ap"
    assert pos.var("vp") == 9
    move_marker(pos, "Medina")
    pos.run("move_activated_units", "ap", answers=["move BR ANAc from Medina", "move to Arabia", "stop in Arabia"])
    assert pos.s["control"][medina] == "cp"  # back to the Central Powers
    assert pos.var("vp") == 10


# ---------------------------------------------------------------- 11.1.10-11.1.13, 9.5.2.4


@pytest.mark.rule("11.1.10")
def test_11_1_10_an_mef_space_needs_the_beachhead_marker():
    pos = Position()
    pos.s["at_war"]["tu"] = True
    pos.place("TUc", "Gallipoli")
    move_marker(pos, "Gallipoli")
    with pytest.raises(IllegalOption, match=r"mef_landing_spaces \(rule 11\.1\.10\)"):
        pos.run("move_activated_units", "cp", answers=["move TUc from Gallipoli", "move to MEF1"])


@pytest.mark.rule("9.5.3.5")
def test_9_5_3_5_a_cp_unit_entering_the_beachhead_removes_it():
    pos = Position()
    pos.s["at_war"]["tu"] = True
    pos.place("TUc", "Gallipoli")
    pos.set("mef_beachhead", "MEF1")
    move_marker(pos, "Gallipoli")
    pos.run("move_activated_units", "cp", answers=["move TUc from Gallipoli", "move to MEF1", "stop in MEF1"])
    assert pos.units_at("MEF1") == ["TUc"]
    assert pos.var("mef_beachhead") is None
    assert pos.s["control"][pos.entity("space", "MEF1").index] == "cp"


@pytest.mark.rule("11.1.11")
def test_11_1_11_no_entering_a_neutral_nation():
    pos = Position()
    pos.place("AH 10", "Trent")  # Italy is neutral at the start
    move_marker(pos, "Trent")
    with pytest.raises(IllegalOption, match=r"no_entering_neutrals \(rule 11\.1\.11"):
        pos.run("move_activated_units", "cp", answers=["move AH 10 from Trent", "move to Verona"])


@pytest.mark.rule("11.1.11")
def test_11_1_11_a_nation_opens_once_it_is_at_war():
    pos = Position()
    pos.place("AH 10", "Trent")
    pos.s["at_war"]["it"] = True
    move_marker(pos, "Trent")
    pos.run("move_activated_units", "cp", answers=["move AH 10 from Trent", "move to Verona", "stop in Verona"])
    assert pos.units_at("Verona") == ["AH 10"]


@pytest.mark.rule("11.1.12")
def test_11_1_12_albania_is_always_open():
    pos = Position()
    pos.place("SBc", "Cetinje")
    move_marker(pos, "Cetinje")
    pos.run("move_activated_units", "ap", answers=["move SBc from Cetinje", "move to Tirana", "stop in Tirana"])
    assert pos.units_at("Tirana") == ["SBc"]


@pytest.mark.rule("11.1.13")
def test_11_1_13_persia_opens_when_turkey_is_at_war():
    pos = Position()
    pos.place("RUc", "Erivan")
    move_marker(pos, "Erivan")
    refused(pos, "ap", ["move RUc from Erivan", "move to Dilman"], r"no_entering_neutrals \(rule 11\.1\.11")
    pos.s["at_war"]["tu"] = True
    pos.run("move_activated_units", "ap", answers=["move RUc from Erivan", "move to Dilman", "stop in Dilman"])
    assert pos.units_at("Dilman") == ["RUc"]


@pytest.mark.rule("9.5.2.4")
def test_9_5_2_4_after_salonika_greece_is_open_except_where_greek_units_stand():
    pos = Position()
    play_card(pos, "Salonika")
    pos.place("GRc", "Larisa")
    pos.place("BRc", "Valona")
    move_marker(pos, "Valona")
    pos.run("move_activated_units", "ap", answers=["move BRc from Valona", "move to Florina", "stop in Florina"])
    assert pos.units_at("Florina") == ["BRc"]
    move_marker(pos, "Florina")
    with pytest.raises(IllegalOption, match=r"9\.5\.2\.4"):
        pos.run("move_activated_units", "ap", answers=["move BRc from Florina", "move to Larisa"])


@pytest.mark.rule("9.5.2.4")
def test_9_5_2_4_greek_units_do_not_move_while_greece_is_neutral():
    pos = Position()
    play_card(pos, "Salonika")
    pos.place("GRc", "Larisa")
    pos.place("BRc", "Valona")
    move_marker(pos, "Larisa", "Valona")
    refused(pos, "ap", ["move GRc from Larisa"], r"neutral_units_stay \(rule 9\.5\.2\.4\)")


@pytest.mark.rule("11.1.17")
def test_11_1_17_the_bef_stays_in_britain_france_belgium_and_germany():
    pos = Position()
    pos.s["at_war"]["it"] = True
    pos.place("BR BEF", "Grenoble")
    move_marker(pos, "Grenoble")
    refused(pos, "ap", ["move BR BEF from Grenoble", "move to Turin"], r"bef_stays_west \(rule 11\.1\.17\)")
    pos = Position()
    pos.place("BR BEF", "Cambrai")
    move_marker(pos, "Cambrai")
    pos.run("move_activated_units", "ap",
            answers=["move BR BEF from Cambrai", "move to Sedan", "move to Koblenz", "move to Aachen"])
    assert pos.units_at("Aachen") == ["BR BEF"]


@pytest.mark.rule("15.1.12")
def test_15_1_12_no_russian_unit_enters_a_german_fort_space_in_august_1914():
    pos = Position()
    pos.place("RU 1", "Insterberg")
    pos.control("Insterberg", "ap")
    move_marker(pos, "Insterberg")
    pos.s["turn"] = 1
    refused(pos, "ap", ["move RU 1 from Insterberg", "move to Konigsberg"], r"15\.1\.12")
    pos.s["turn"] = 2
    pos.run("move_activated_units", "ap", answers=["move RU 1 from Insterberg", "move to Konigsberg"])
    assert pos.units_at("Konigsberg") == ["RU 1"]
    assert pos.var("besieged", "Konigsberg") is True


# ---------------------------------------------------------------- 11.3 Near East


@pytest.mark.rule("11.3.1")
def test_11_3_1_only_the_listed_armies_enter_the_near_east_map():
    pos = Position()
    pos.s["at_war"]["tu"] = True
    pos.place("GE 1", "Adrianople")
    pos.place("GEc", "Adrianople")
    pos.place("TU YLD", "Adrianople")
    move_marker(pos, "Adrianople")
    refused(pos, "cp", ["move GE 1 from Adrianople", "move to Constantinople"], r"near_east_armies \(rule 11\.3\.1\)")
    pos.run("move_activated_units", "cp",
            answers=["move GEc from Adrianople", "move to Constantinople", "stop in Constantinople",
                     "move TU YLD from Adrianople", "move to Constantinople", "stop in Constantinople",
                     "end movement"])
    assert pos.units_at("Constantinople") == ["GEc", "TU YLD"]


@pytest.mark.rule("11.3.2")
def test_11_3_2_one_russian_corps_a_turn_crosses_between_caucasus_and_the_near_east():
    pos = Position()
    pos.place("RUc", "Caucasus")
    pos.place("RUc", "Caucasus")
    pos.place("RU CAU", "Caucasus")
    move_marker(pos, "Caucasus")
    refused(pos, "ap", ["move RU CAU from Caucasus", "move to Poti"], r"caucasus_crossing \(rule 11\.3\.2\)")
    pos.run("move_activated_units", "ap", answers=["move RUc from Caucasus", "move to Poti", "stop in Poti",
                                                   "end movement"])
    assert pos.units_at("Poti") == ["RUc"]
    refused(pos, "ap", ["move RUc from Caucasus", "move to Grozny"], r"11\.3\.2")
    pos.s["turn"] += 1
    pos.run("move_activated_units", "ap", answers=["move RUc from Caucasus", "move to Grozny", "stop in Grozny",
                                                   "end movement"])
    assert pos.units_at("Grozny") == ["RUc"]


@pytest.mark.rule("11.3.2")
def test_11_3_2_no_russian_crossing_after_the_fall_of_the_tsar():
    pos = Position()
    pos.place("RUc", "Caucasus")
    move_marker(pos, "Caucasus")
    play_card(pos, "Fall of the Tsar")
    with pytest.raises(IllegalOption, match=r"11\.3\.2"):
        pos.run("move_activated_units", "ap", answers=["move RUc from Caucasus", "move to Poti"])


# ---------------------------------------------------------------- 14.3.1 / 14.3.3


@pytest.mark.rule("14.3.1")
@pytest.mark.rule("14.3.3")
def test_14_3_1_out_of_supply_units_may_not_move_and_14_3_3_may_not_entrench():
    """GE 1 in Cambrai, cut off from Germany by Allied Sedan and Brussels, is out of
    supply, and 14.1.1.1: what counts is its supply when Cambrai took its marker."""
    pos = Position()
    play_card(pos, "Entrench")
    pos.place("GE 1", "Cambrai")
    pos.control("Cambrai", "cp")
    pos.place("GE 2", "Koblenz")
    pos.place("GE 3", "Koblenz")
    move_marker(pos, "Cambrai", "Koblenz")
    refused(pos, "cp", ["move GE 1 from Cambrai"], r"move_only_supplied \(rule 14\.3\.1, 14\.1\.1\.1\)")
    refused(pos, "cp", ["entrench GE 1 in Cambrai"], r"entrench_only_supplied \(rule 14\.3\.3, 14\.1\.1\.1\)")
    pos.run("move_activated_units", "cp",
            answers=["move GE 2 from Koblenz", "move to Sedan", "stop in Sedan", "end movement"])
    assert pos.units_at("Sedan") == ["GE 2"]
    # GE 2 in Sedan reopened the line, yet GE 1 stays out of this operation (14.1.1.1).
    offered = pos.asked[-1].options
    assert "move GE 3 from Koblenz" in offered
    assert not any("GE 1" in o for o in offered)
    # Activated again later, with the line open, GE 1 moves.
    pos.activate("Cambrai", "move")
    pos.run("move_activated_units", "cp",
            answers=["move GE 1 from Cambrai", "move to Brussels", "stop in Brussels", "end movement"])
    assert pos.units_at("Brussels") == ["GE 1"]


@pytest.mark.rule("11.1.1")
def test_11_1_1_a_unit_without_movement_factor_does_not_move():
    pos = Position()
    pos.place("MNc", "Cetinje")  # MF 0
    pos.place("SBc", "Cetinje")
    move_marker(pos, "Cetinje")
    refused(pos, "ap", ["move MNc from Cetinje"], r"move_needs_movement_factor \(rule 11\.1\.1\)")
    pos.run("move_activated_units", "ap", answers=["move SBc from Cetinje", "move to Tirana", "stop in Tirana"])
    assert pos.units_at("Cetinje") == ["MNc"]
