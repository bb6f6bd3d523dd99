"""Rules 9.4 and 17.0, Replacements: recording RPs when a card is played for RP
(9.4.1, 17.1.8), spending them in the Replacement Phase (17.1.1), the Allied
minor-nation pool (17.1.1.1), unspent RPs lost (17.1.2), capitals (17.1.3),
costs (17.1.4: one RP an army step, one RP two corps steps), foreign supply
(17.1.4.1), recreated armies (17.1.5), the ANA (17.1.6) and units that are
never replaced (17.1.7).

Each test sets the RPs recorded this turn and runs one side's replacement
segment (`replacement_segment`, phase F.1/F.2) with every decision asked."""

import pytest

from pogdsl.runtime.errors import IllegalOption

from .harness import Position


def position() -> Position:
    pos = Position()
    pos.game.ask_forced = True
    return pos


def rps(pos, **points):
    for nation, n in points.items():
        if nation == "allied":
            pos.set("allied_rp_points", n)
        else:
            pos.set("rp_points", n, key=nation)


def spend(pos, side, answers):
    pos.run("replacement_segment", side, answers=answers)


def refused(pos, side, answers, rule):
    with pytest.raises(IllegalOption) as err:
        spend(pos, side, answers)
    assert rule in err.value.rules, err.value.message
    return err.value.message


def at_war(pos, *nations):
    for n in nations:
        pos.s["at_war"][n] = True
    pos.game.invalidate()


# ----------------------------------------------------------------- 9.4.1 / 17.1.8 recording

@pytest.mark.rule("9.4.1")
def test_9_4_1_a_card_played_for_rp_records_each_nations_points_not_neutral_turkeys():
    """'Guns of August' gives GE 2, AH 1 and TU 1; Turkey, neutral, records nothing (9.4.1), and
    nothing else happens in the round (9.4.2)."""
    pos = position()
    pos.run("play_for_replacements", "cp", pos.entity("card", "Guns of August"))
    card = pos.entity("card", "Guns of August")
    assert pos.var("rp_points", "ge") == 2
    assert pos.var("rp_points", "ah") == 1
    assert pos.var("rp_points", "tu") == 0
    assert card.index in pos.s["piles"]["discard:cp"]


@pytest.mark.rule("9.4.1")
def test_9_4_1_turkey_records_its_points_once_at_war():
    pos = position()
    at_war(pos, "tu")
    pos.run("play_for_replacements", "cp", pos.entity("card", "Guns of August"))
    assert pos.var("rp_points", "tu") == 1


@pytest.mark.rule("9.4.1")
def test_9_4_1_italy_records_nothing_while_neutral_and_the_a_points_go_to_the_allied_pool():
    """'British Reinforcements (BR 2)': FR 2, BR 2, RU 3, IT 1, A 1."""
    pos = position()
    card = pos.entity("card", "British Reinforcements (BR 2)")
    pos.run("play_for_replacements", "ap", card)
    assert [pos.var("rp_points", n) for n in ("fr", "br", "ru", "it")] == [2, 2, 3, 0]
    assert pos.var("allied_rp_points") == 1
    at_war(pos, "it")
    pos.run("play_for_replacements", "ap", card)
    assert pos.var("rp_points", "it") == 1


@pytest.mark.rule("17.1.8")
def test_17_1_8_after_over_there_each_allied_rp_play_adds_one_us_rp():
    pos = position()
    card = pos.entity("card", "British Reinforcements (BR 2)")
    pos.run("play_for_replacements", "ap", card)
    assert pos.var("rp_points", "us") == 0
    pos.s["played"].append(pos.entity("card", "Over There").index)
    pos.game.invalidate()
    pos.run("play_for_replacements", "ap", card)
    assert pos.var("rp_points", "us") == 1


# ----------------------------------------------------------------- 17.1.4 costs

@pytest.mark.rule("17.1.4")
def test_17_1_4_flipping_a_reduced_army_costs_one_rp():
    pos = position()
    army = pos.place("GE 1", "Berlin", reduced=True)
    rps(pos, ge=2)
    spend(pos, "cp", ["flip GE 1 in Berlin", "end replacements"])
    assert not pos.reduced(army.index)
    assert pos.var("rp_points", "ge") == 0  # the one left over is lost at the end (17.1.2)
    assert any("rp_points[ge] -1 → 1" in line for line in pos.log())


@pytest.mark.rule("17.1.4")
def test_17_1_4_one_rp_flips_two_reduced_corps():
    """One RP buys two corps steps: with 1 RP, two of three reduced corps come back."""
    pos = position()
    a = pos.place("GEc", "Berlin", reduced=True)
    b = pos.place("GEc", "Breslau", reduced=True)
    c = pos.place("GEc", "Essen", reduced=True)
    rps(pos, ge=1)
    spend(pos, "cp", ["flip GEc in Berlin", "flip GEc in Breslau"])
    assert not pos.reduced(a.index) and not pos.reduced(b.index)
    assert pos.reduced(c.index)
    assert pos.var("rp_points", "ge") == 0
    assert pos.var("spare_corps_steps", "ge") == 0


@pytest.mark.rule("17.1.4")
def test_17_1_4_an_army_step_cannot_use_a_spare_corps_step():
    pos = position()
    pos.place("GEc", "Berlin", reduced=True)
    pos.place("GE 1", "Essen", reduced=True)
    rps(pos, ge=1)
    refused(pos, "cp", ["flip GEc in Berlin", "flip GE 1 in Essen"], "17.1.4")


@pytest.mark.rule("17.1.4")
def test_17_1_4_rebuilding_an_eliminated_corps_puts_it_reduced_in_the_reserve_box():
    pos = position()
    piece = pos.place("GEc", "eliminated[cp]")
    rps(pos, ge=1)
    spend(pos, "cp", ["rebuild GEc in eliminated[cp]", "end replacements"])
    assert pos.units_at("reserve[cp]") == ["GEc"]
    assert pos.units_at("eliminated[cp]") == []
    assert pos.reduced(piece.index)
    assert pos.var("spare_corps_steps", "ge") == 0  # the spare step is lost with the phase


@pytest.mark.rule("17.1.4")
def test_17_1_4_a_rebuilt_corps_may_be_flipped_with_the_second_step_of_the_rp():
    pos = position()
    piece = pos.place("GEc", "eliminated[cp]")
    rps(pos, ge=1)
    spend(pos, "cp", ["rebuild GEc in eliminated[cp]", "flip GEc in reserve[cp]"])
    assert not pos.reduced(piece.index)
    assert pos.units_at("reserve[cp]") == ["GEc"]


# ----------------------------------------------------------------- 17.1.5 / 17.1.6 where rebuilt units go

@pytest.mark.rule("17.1.5")
def test_17_1_5_a_recreated_army_is_placed_reduced_as_a_reinforcement():
    pos = position()
    army = pos.place("GE 1", "eliminated[cp]")
    rps(pos, ge=1)
    spend(pos, "cp", ["rebuild GE 1 in eliminated[cp]", "recreate GE 1 at Breslau"])
    assert pos.units_at("Breslau") == ["GE 1"]
    assert pos.reduced(army.index)
    assert {d.choice for d in pos.asked} == {"replace_unit", "place_rebuilt_army"}
    placements = [d.options for d in pos.asked if d.choice == "place_rebuilt_army"][0]
    assert sorted(placements) == ["recreate GE 1 at Berlin", "recreate GE 1 at Breslau", "recreate GE 1 at Essen"]


@pytest.mark.rule("17.1.5")
def test_17_1_5_an_army_with_no_place_to_go_is_not_recreated():
    pos = position()
    pos.place("GE 1", "eliminated[cp]")
    pos.place("GEc", "eliminated[cp]")
    for s in ["Berlin", "Breslau", "Essen"]:
        pos.control(s, "ap")
    rps(pos, ge=1)
    refused(pos, "cp", ["rebuild GE 1 in eliminated[cp]"], "17.1.5")


@pytest.mark.rule("17.1.5")
def test_17_1_5_the_belgian_army_goes_to_calais_when_belgium_is_lost():
    pos = position()
    for s in ["Brussels", "Antwerp", "Ostend"]:
        pos.control(s, "cp")
    pos.place("BE 1", "eliminated[ap]")
    rps(pos, allied=1)
    spend(pos, "ap", ["rebuild BE 1 in eliminated[ap]", "recreate BE 1 at Calais"])
    assert pos.units_at("Calais") == ["BE 1"]


@pytest.mark.rule("17.1.5")
def test_17_1_5_serbian_armies_not_at_belgrade_while_nis_is_cp():
    pos = position()
    pos.place("SB 1", "eliminated[ap]")
    pos.place("SBc", "eliminated[ap]")
    pos.control("Nis", "cp")
    rps(pos, allied=1)
    refused(pos, "ap", ["rebuild SB 1 in eliminated[ap]"], "17.1.5")


@pytest.mark.rule("17.1.6")
def test_17_1_6_the_ana_is_rebuilt_in_arabia():
    pos = position()
    pos.place("BR ANAc", "eliminated[ap]")
    rps(pos, allied=1)
    spend(pos, "ap", ["rebuild BR ANAc in eliminated[ap]", "end replacements"])
    assert pos.units_at("Arabia") == ["BR ANAc"]


# ----------------------------------------------------------------- 17.1.7 never replaced

@pytest.mark.rule("17.1.7")
def test_17_1_7_units_with_a_dot_are_never_replaced():
    pos = position()
    pos.place("BR BEF", "Amiens", reduced=True)
    pos.place("BRc", "Amiens", reduced=True)
    rps(pos, br=2)
    refused(pos, "ap", ["flip BR BEF in Amiens"], "17.1.7")


# ----------------------------------------------------------------- 17.1.1.1 the Allied pool

@pytest.mark.rule("17.1.1.1")
def test_17_1_1_1_minor_nation_units_use_only_allied_rps():
    pos = position()
    pos.place("BE 1", "Antwerp", reduced=True)
    pos.place("BRc", "Amiens", reduced=True)
    rps(pos, br=2)
    refused(pos, "ap", ["flip BE 1 in Antwerp"], "17.1.1.1")


@pytest.mark.rule("17.1.1.1")
def test_17_1_1_1_allied_rps_rebuild_the_dominion_corps_not_british_ones():
    pos = position()
    aus = pos.place("AUSc", "Amiens", reduced=True)
    pos.place("BRc", "Amiens", reduced=True)
    rps(pos, allied=1)
    refused(pos, "ap", ["flip AUSc in Amiens", "flip BRc in Amiens"], "17.1.1.1")
    assert not pos.reduced(aus.index)
    assert pos.var("allied_rp_points") == 0


# ----------------------------------------------------------------- 17.1.3 capitals

@pytest.mark.rule("17.1.3")
def test_17_1_3_no_french_rps_while_paris_is_enemy_controlled_or_besieged():
    pos = position()
    pos.place("FR 1", "Nancy", reduced=True)
    pos.place("BRc", "Amiens", reduced=True)
    rps(pos, fr=2, br=1)
    pos.set("besieged", True, key="Paris")
    refused(pos, "ap", ["flip FR 1 in Nancy"], "17.1.3")
    pos = position()
    pos.place("FR 1", "Nancy", reduced=True)
    pos.place("BRc", "Amiens", reduced=True)
    rps(pos, fr=2, br=1)
    pos.control("Paris", "cp")
    refused(pos, "ap", ["flip FR 1 in Nancy"], "17.1.3")


@pytest.mark.rule("17.1.3")
def test_17_1_3_serbian_units_are_replaced_even_with_belgrade_lost():
    pos = position()
    unit = pos.place("SBc", "Nis", reduced=True)
    pos.control("Belgrade", "cp")
    rps(pos, allied=1)
    spend(pos, "ap", ["flip SBc in Nis", "end replacements"])
    assert not pos.reduced(unit.index)


# ----------------------------------------------------------------- 17.1.4.1 foreign supply

@pytest.mark.rule("17.1.4.1")
def test_17_1_4_1_germans_on_turkish_supply_take_no_replacements():
    pos = position()
    pos.s["at_war"]["tu"] = True
    pos.place("GEc", "Constantinople", reduced=True)
    pos.place("GEc", "Berlin", reduced=True)
    rps(pos, ge=1)
    refused(pos, "cp", ["flip GEc in Constantinople"], "17.1.4.1")


# ----------------------------------------------------------------- 17.1.2 unspent RPs

@pytest.mark.rule("17.1.2")
def test_17_1_2_unspent_rps_are_lost_at_the_end_of_the_segment():
    pos = position()
    pos.place("GEc", "Berlin", reduced=True)
    rps(pos, ge=3, ah=2)
    spend(pos, "cp", ["flip GEc in Berlin", "end replacements"])
    assert pos.var("rp_points", "ge") == 0
    assert pos.var("rp_points", "ah") == 0
    assert pos.var("spare_corps_steps", "ge") == 0


@pytest.mark.rule("17.1.2")
def test_17_1_2_each_side_loses_only_its_own_points():
    pos = position()
    rps(pos, ge=2, fr=2, allied=1)
    spend(pos, "cp", ["end replacements"])
    assert pos.var("rp_points", "ge") == 0
    assert pos.var("rp_points", "fr") == 2
    assert pos.var("allied_rp_points") == 1
    spend(pos, "ap", ["end replacements"])
    assert pos.var("rp_points", "fr") == 0
    assert pos.var("allied_rp_points") == 0
