"""Suicide of Europe (SoE) stacking, movement and trenches (rule set
soe_movement, scenarios/suicide-of-europe/10-11-movement.pog).

Each test sets up one position and plays it in the Campaign (Deluxe rules)
and in `suicide_of_europe`, asserting what each rulebook says:
Deluxe 10.1, 11.1, 11.2 against SoE 10.1.3, 11.1, 11.2 (our own reading of
both texts, cited in each test).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pogdsl.runtime import builtins as B  # noqa: E402
from pogdsl.runtime.errors import IllegalOption  # noqa: E402
from rules.harness import Position, Unanswered  # noqa: E402

SOE = "suicide_of_europe"
CAMPAIGN = "campaign"


def move_marker(pos, *spaces):
    for s in spaces:
        pos.activate(s, "move")


def refused(pos, player, answers, match, procedure="move_activated_units"):
    with pytest.raises(IllegalOption, match=match):
        pos.run(procedure, player, answers=answers)
    pos.s["pending"] = None


def control(pos, space):
    return pos.s["control"][pos.entity("space", space).index]


def value(pos, name, *args):
    pos.game.invalidate()
    return B.value_of(pos.game, name, tuple(pos._value(a) if isinstance(a, str) else a for a in args))


def played(pos, side, number):
    pos.s["played"].append(pos.card(side, number).index)


def trench_side(pos, space):
    return value(pos, "trench_side", space).key


# ---------------------------------------------------------------- 10.1.3


@pytest.mark.rule("soe 10.1.3")
@pytest.mark.rule("10.1.3")
@pytest.mark.rule("10.1.4")
def test_soe_10_1_3_a_move_may_overstack_and_the_mover_removes_the_excess():
    """Deluxe 10.1.4: no deliberate overstacking. SoE 10.1.3: allowed; the
    player over the limit then picks what he eliminates (an ordinary
    elimination: SoE does not keep Deluxe's permanent loss of armies)."""
    def setup(scenario):
        pos = Position(scenario)
        for u in ("GE 1", "GE 2", "GE 3"):
            pos.place(u, "Koblenz")
        pos.place("GE 4", "Aachen")
        move_marker(pos, "Aachen")
        return pos

    pos = setup(CAMPAIGN)
    refused(pos, "cp", ["move GE 4 from Aachen", "move to Koblenz", "stop in Koblenz"],
            r"stacking_at_end_of_move \(rule 10\.1\.1")

    pos = setup(SOE)
    pos.run("move_activated_units", "cp",
            answers=["move GE 4 from Aachen", "move to Koblenz", "stop in Koblenz", "eliminate GE 1"])
    ask = [d for d in pos.asked if d.choice == "remove_overstacked"]
    assert [getattr(d.by, "key", d.by) for d in ask] == ["cp"]
    assert pos.units_at("Koblenz") == ["GE 2", "GE 3", "GE 4"]
    assert pos.units_at("eliminated[cp]") == ["GE 1"]
    assert pos.units_at("removed[cp]") == []


@pytest.mark.rule("soe 10.1.3")
@pytest.mark.rule("10.1.3")
def test_soe_10_1_3_the_owner_not_the_opponent_picks_the_units_lost():
    def by(scenario):
        pos = Position(scenario)
        for u in ("FR 1", "FR 2", "FR 3", "FR 4"):
            pos.place(u, "Paris")
        pos.run("enforce_stacking", "Paris", answers=["eliminate FR 4"])
        assert pos.units_at("Paris") == ["FR 1", "FR 2", "FR 3"]
        d = pos.asked[0]
        return getattr(d.by, "key", d.by), pos.units_at("removed[ap]"), pos.units_at("eliminated[ap]")

    # Deluxe 10.1.3: the opponent chooses, and an army so lost is gone for good
    assert by(CAMPAIGN) == ("cp", ["FR 4"], [])
    # SoE 10.1.3: the overstacked player chooses; an ordinary elimination
    assert by(SOE) == ("ap", [], ["FR 4"])


# ---------------------------------------------------------------- 11.1.4


def koblenz_to_cambrai(scenario, answers):
    pos = Position(scenario)
    pos.place("GE 1", "Koblenz")  # MF 3
    move_marker(pos, "Koblenz")
    pos.run("move_activated_units", "cp", answers=answers)
    return pos


@pytest.mark.rule("soe 11.1.4")
@pytest.mark.rule("11.1.14")
def test_soe_11_1_4_passing_through_takes_nothing_the_end_of_the_move_does():
    """Deluxe 11.1.14: every space entered changes hands. SoE 11.1.4: only the
    space where the move ends (Cambrai is a VP space, Sedan is not)."""
    pos = koblenz_to_cambrai(CAMPAIGN, ["move GE 1 from Koblenz", "move to Sedan", "move to Cambrai",
                                        "stop in Cambrai"])
    assert pos.units_at("Cambrai") == ["GE 1"]
    assert control(pos, "Sedan") == "cp" and control(pos, "Cambrai") == "cp"
    assert pos.var("vp") == 11

    pos = koblenz_to_cambrai(SOE, ["move GE 1 from Koblenz", "move to Sedan", "pass through Sedan",
                                   "move to Cambrai"])
    assert pos.units_at("Cambrai") == ["GE 1"]
    assert control(pos, "Sedan") == "ap"
    assert control(pos, "Cambrai") == "cp"
    assert pos.var("vp") == 11


@pytest.mark.rule("soe 11.1.4")
@pytest.mark.rule("11.1.14")
def test_soe_11_1_4_one_more_movement_point_takes_a_space_in_passing():
    pos = koblenz_to_cambrai(SOE, ["move GE 1 from Koblenz", "move to Sedan", "take Sedan for one more MP",
                                   "move to Cambrai"])
    # 1 MP into Sedan, 1 to take it, 1 into Cambrai: the move is over
    assert pos.units_at("Cambrai") == ["GE 1"]
    assert control(pos, "Sedan") == "cp" and control(pos, "Cambrai") == "cp"


@pytest.mark.rule("soe 11.1.4")
@pytest.mark.rule("11.1.14")
def test_soe_11_1_4_no_taking_an_intact_enemy_fort_in_passing():
    """Verdun's fort stands (Deluxe 15.1 keeps its control): neither passing
    nor the extra point takes it. Liege (fort 3) entered by an army."""
    pos = Position(SOE)
    pos.place("GE 1", "Koblenz")
    move_marker(pos, "Koblenz")
    pos.run("move_activated_units", "cp", answers=["move GE 1 from Koblenz", "move to Liege"])
    # the fort stops the move (15.1.1), no claim offered, control stays
    assert not any(d.choice == "claim_space" for d in pos.asked)
    assert control(pos, "Liege") == "ap"


@pytest.mark.rule("soe 11.1.4")
@pytest.mark.rule("14.1.1.1")
def test_soe_11_1_4_a_unit_cut_off_at_activation_moves_once_an_earlier_move_reopens_its_line():
    """GEc in Chateau Thierry is out of supply when the Move markers go down;
    GE 1 then ends its move in Sedan, which opens a line to it.  Deluxe
    14.1.1.1: supply is the one at activation, so it may not move. SoE 11.1.4
    (clarification): it may."""
    def setup(scenario):
        pos = Position(scenario)
        pos.place("GE 1", "Koblenz")
        pos.place("GEc", "Chateau Thierry")
        move_marker(pos, "Koblenz", "Chateau Thierry")
        return pos

    pos = setup(CAMPAIGN)
    pos.run("move_activated_units", "cp", answers=["move GE 1 from Koblenz", "move to Sedan", "stop in Sedan"])
    # GEc was never offered a move (move_only_supplied): movement ended by itself
    assert pos.units_at("Chateau Thierry") == ["GEc"]
    assert not any("GEc" in o for d in pos.asked for o in d.options)
    pos = setup(SOE)
    pos.run("move_activated_units", "cp",
            answers=["move GE 1 from Koblenz", "move to Sedan", "pass through Sedan", "stop in Sedan",
                     "move GEc from Chateau Thierry", "move to Melun"])
    assert pos.units_at("Melun") == ["GEc"]


# ---------------------------------------------------------------- 11.1.5


@pytest.mark.rule("soe 11.1.5")
@pytest.mark.rule("11.1.5")
def test_soe_11_1_5_entering_a_space_where_it_would_be_cut_off_ends_the_move():
    """GEc (MF 4) from Koblenz.  Deluxe: Sedan turns CP as it passes, so the
    corps stays supplied and goes on to Melun.  SoE: Sedan stays Allied, the
    corps is cut off in Chateau Thierry and stops there."""
    pos = Position(CAMPAIGN)
    pos.place("GEc", "Koblenz")
    move_marker(pos, "Koblenz")
    pos.run("move_activated_units", "cp",
            answers=["move GEc from Koblenz", "move to Sedan", "move to Chateau Thierry", "move to Melun",
                     "stop in Melun"])
    assert pos.units_at("Melun") == ["GEc"]

    pos = Position(SOE)
    pos.place("GEc", "Koblenz")
    move_marker(pos, "Koblenz")
    pos.run("move_activated_units", "cp",
            answers=["move GEc from Koblenz", "move to Sedan", "pass through Sedan", "move to Chateau Thierry"])
    assert pos.units_at("Chateau Thierry") == ["GEc"]  # "stop" was the only option left
    assert control(pos, "Chateau Thierry") == "cp"  # the move ended there

    # taking Sedan on the way keeps the line open: the corps goes on
    pos = Position(SOE)
    pos.place("GEc", "Koblenz")
    move_marker(pos, "Koblenz")
    pos.run("move_activated_units", "cp",
            answers=["move GEc from Koblenz", "move to Sedan", "take Sedan", "move to Chateau Thierry",
                     "pass through Chateau Thierry", "move to Melun"])
    assert pos.units_at("Melun") == ["GEc"]


# ---------------------------------------------------------------- 11.1.6


@pytest.mark.rule("soe 11.1.6")
@pytest.mark.rule("11.1.6")
def test_soe_11_1_6_units_may_stop_on_an_attack_marker_but_not_attack_from_it():
    def setup(scenario):
        pos = Position(scenario)
        pos.place("GE 1", "Metz")
        pos.place("GEc", "Koblenz")
        pos.place("FR 1", "Verdun")
        pos.activate("Metz", "attack")
        move_marker(pos, "Koblenz")
        return pos

    pos = setup(CAMPAIGN)
    refused(pos, "cp", ["move GEc from Koblenz", "move to Metz", "stop in Metz"], r"no_stop_on_attack_marker")

    pos = setup(SOE)
    pos.run("move_activated_units", "cp", answers=["move GEc from Koblenz", "move to Metz", "stop in Metz"])
    assert pos.units_at("Metz") == ["GE 1", "GEc"]
    units = {pos.w.units[i].key: pos.w.units[i] for i in pos.s["occ"][pos._location("Metz")]}
    # both are in supply for the attack step (14.1.1.2); only GE 1 may attack
    pos.s["vars"]["attack_supplied"] = list(units.values())
    assert value(pos, "unit_may_attack", units["GE 1"], "Metz", "Verdun") is True
    assert value(pos, "unit_may_attack", units["GEc"], "Metz", "Verdun") is False
    assert value(pos, "eligible_attackers", "cp", "Metz", "Verdun") == [units["GE 1"]]


# ---------------------------------------------------------------- 11.1.9


@pytest.mark.rule("soe 11.1.9")
@pytest.mark.rule("11.1.9")
def test_soe_11_1_9_antwerp_joins_the_channel_coast():
    def setup(scenario):
        pos = Position(scenario)
        pos.place("GEc", "Brussels")
        pos.control("Brussels", "cp")
        pos.control("Liege", "cp")  # the line home
        move_marker(pos, "Brussels")
        return pos

    pos = setup(CAMPAIGN)
    assert value(pos, "coast_closed", "cp", "Antwerp") is False  # moves and SR (13.1.x reads it too)
    pos.run("move_activated_units", "cp", answers=["move GEc from Brussels", "move to Antwerp"])
    assert pos.units_at("Antwerp") == ["GEc"]  # the fort stops it there, a legal end

    pos = setup(SOE)
    assert value(pos, "coast_closed", "cp", "Antwerp") is True
    refused(pos, "cp", ["move GEc from Brussels", "move to Antwerp"], r"cp_channel_coast")
    # after Race to the Sea the coast is open in SoE too
    pos = setup(SOE)
    pos.s["played"].append(pos.entity("card", "Race to the Sea").index)
    pos.run("move_activated_units", "cp", answers=["move GEc from Brussels", "move to Antwerp"])
    assert pos.units_at("Antwerp") == ["GEc"]


# ---------------------------------------------------------------- 11.1.13 (clarification)


@pytest.mark.rule("soe 11.1.13")
@pytest.mark.rule("11.1.13")
@pytest.mark.parametrize("scenario", [CAMPAIGN, SOE])
def test_soe_11_1_13_persia_opens_with_turkey_and_ahwaz_is_an_allied_vp_space(scenario):
    """SoE restates Deluxe 11.1.13: the Campaign already plays it so."""
    pos = Position(scenario)
    assert value(pos, "nation_open", "Hamadan") is False
    pos.s["at_war"]["tu"] = True
    assert value(pos, "nation_open", "Hamadan") is True
    assert control(pos, "Ahwaz") == "ap"
    assert pos.entity("space", "Ahwaz").data.vp


# ---------------------------------------------------------------- 11.1.16 and Holland


@pytest.mark.rule("soe 11.1.16")
@pytest.mark.rule("11.1.17")
def test_soe_11_1_16_the_bef_may_go_into_holland():
    campaign = Position(CAMPAIGN)
    assert "Rotterdam" not in campaign.w.by_kind["space"]  # no Holland on the Deluxe map

    pos = Position(SOE)
    pos.s["at_war"]["nl"] = True  # Holland's entry is SoE material not in the files
    pos.place("BR BEF", "Antwerp")
    move_marker(pos, "Antwerp")
    pos.run("move_activated_units", "ap", answers=["move BR BEF from Antwerp", "move to Rotterdam", "stop in Rotterdam"])
    assert pos.units_at("Rotterdam") == ["BR BEF"]


@pytest.mark.rule("soe 11.1.16")
@pytest.mark.rule("11.1.17")
@pytest.mark.parametrize("scenario", [CAMPAIGN, SOE])
def test_soe_11_1_16_the_bef_still_stays_out_of_italy(scenario):
    pos = Position(scenario)
    pos.s["at_war"]["it"] = True
    pos.place("BR BEF", "Grenoble")
    move_marker(pos, "Grenoble")
    refused(pos, "ap", ["move BR BEF from Grenoble", "move to Turin"], r"bef_stays_west")


@pytest.mark.rule("soe 11.1.11")
def test_soe_holland_is_neutral_and_closed_until_it_enters_the_war():
    pos = Position(SOE)
    pos.place("BR BEF", "Antwerp")
    move_marker(pos, "Antwerp")
    refused(pos, "ap", ["move BR BEF from Antwerp", "move to Rotterdam"], r"no_entering_neutrals")


# ---------------------------------------------------------------- 11.2.1


@pytest.mark.rule("soe 11.2.1")
@pytest.mark.rule("11.2.1")
def test_soe_11_2_1_from_fall_1914_any_unit_may_dig_in_without_an_event():
    pos = Position(CAMPAIGN)
    pos.s["turn"] = 3
    pos.place("GE 1", "Koblenz")
    move_marker(pos, "Koblenz")
    refused(pos, "cp", ["entrench GE 1 in Koblenz"], r"entrench_needs_event")

    pos = Position(SOE)
    pos.s["turn"] = 3
    pos.place("GEc", "Koblenz")  # a corps (LF 1)
    move_marker(pos, "Koblenz")
    pos.run("move_activated_units", "cp", answers=["entrench GEc in Koblenz"], dice=[1])
    assert pos.var("trench", "Koblenz") == 1
    assert trench_side(pos, "Koblenz") == "cp"


@pytest.mark.rule("soe 11.2.1")
def test_soe_11_2_1_no_digging_before_fall_1914():
    pos = Position(SOE)
    pos.s["turn"] = 2
    played(pos, "cp", 6)
    pos.place("GE 1", "Koblenz")
    move_marker(pos, "Koblenz")
    refused(pos, "cp", ["entrench GE 1 in Koblenz"], r"entrench_needs_event \(rule soe 11\.2\.1")


@pytest.mark.rule("soe 11.2.1")
@pytest.mark.rule("11.2.1")
def test_soe_11_2_1_both_players_may_play_their_entrench_event():
    for scenario, playable in ((CAMPAIGN, False), (SOE, True)):
        pos = Position(scenario)
        played(pos, "ap", 12)
        assert pos.may_play_event("cp", pos.card("cp", 6)) is playable


# ---------------------------------------------------------------- 11.2.2


@pytest.mark.rule("soe 11.2.2")
@pytest.mark.rule("11.2.2")
def test_soe_11_2_2_no_level_2_before_ones_own_entrench_event():
    """Only the Allied Entrench is played.  Deluxe: any side may now dig, and
    a success turns a level 1 into level 2.  SoE: the Central Powers, without
    their own event, cannot reach level 2, so the attempt is refused."""
    def setup(scenario):
        pos = Position(scenario)
        pos.s["turn"] = 3
        played(pos, "ap", 12)
        pos.place("GE 1", "Koblenz")  # LF 3
        pos.set("trench", 1, key="Koblenz")
        move_marker(pos, "Koblenz")
        return pos

    pos = setup(CAMPAIGN)
    pos.run("move_activated_units", "cp", answers=["entrench GE 1 in Koblenz"], dice=[2])
    assert pos.var("trench", "Koblenz") == 2

    pos = setup(SOE)
    refused(pos, "cp", ["entrench GE 1 in Koblenz"], r"soe_dig_to_gain")
    assert pos.var("trench", "Koblenz") == 1


@pytest.mark.rule("soe 11.2.2")
@pytest.mark.rule("11.2.2")
def test_soe_11_2_2_after_ones_own_entrench_a_new_trench_needs_no_roll():
    def setup(scenario):
        pos = Position(scenario)
        pos.s["turn"] = 3
        played(pos, "cp", 6)
        pos.place("GE 1", "Koblenz")
        move_marker(pos, "Koblenz")
        pos.run("move_activated_units", "cp", answers=["entrench GE 1 in Koblenz"], dice=[6])
        return pos

    assert setup(CAMPAIGN).var("trench", "Koblenz") == 0  # a 6 fails (LF 3)
    pos = setup(SOE)
    assert pos.var("trench", "Koblenz") == 1  # no roll at all
    assert pos.s["dice"] == [6]


@pytest.mark.rule("soe 11.2.2")
def test_soe_11_2_2_after_ones_own_entrench_level_1_rolls_for_level_2():
    for die, level in ((3, 2), (4, 1)):
        pos = Position(SOE)
        pos.s["turn"] = 3
        played(pos, "cp", 6)
        pos.place("GE 1", "Koblenz")
        pos.set("trench", 1, key="Koblenz")
        move_marker(pos, "Koblenz")
        pos.run("move_activated_units", "cp", answers=["entrench GE 1 in Koblenz"], dice=[die])
        assert pos.var("trench", "Koblenz") == level


@pytest.mark.rule("soe 11.2.2")
def test_soe_11_2_2_before_ones_own_entrench_a_roll_gives_level_1():
    for die, level in ((2, 1), (3, 0)):
        pos = Position(SOE)
        pos.s["turn"] = 3
        pos.place("AH 1", "Cracow")  # an Austro-Hungarian army: LF 2
        move_marker(pos, "Cracow")
        pos.run("move_activated_units", "cp", answers=["entrench AH 1 in Cracow"], dice=[die])
        assert pos.var("trench", "Cracow") == level


# ---------------------------------------------------------------- 11.2.7


@pytest.mark.rule("soe 11.2.7")
@pytest.mark.rule("11.2.7")
def test_soe_11_2_7_attrition_reduces_a_level_2_trench_which_stays_its_owners():
    """Sedan, Allied with an Allied level 2 trench, is cut off.  Deluxe 11.2.7:
    it becomes a Central Powers level 1 trench.  SoE 11.2.7: it is reduced to
    level 1 and the marker stays Allied."""
    def run(scenario):
        pos = Position(scenario)
        for s in ("Cambrai", "Brussels", "Liege", "Verdun", "Chateau Thierry"):
            pos.control(s, "cp")
        pos.set("trench", 2, key="Sedan")
        pos.run("attrition_phase")
        assert control(pos, "Sedan") == "cp"
        assert pos.var("trench", "Sedan") == 1
        return trench_side(pos, "Sedan")

    assert run(CAMPAIGN) == "cp"
    assert run(SOE) == "ap"


@pytest.mark.rule("soe 11.2.7")
@pytest.mark.parametrize("scenario", [CAMPAIGN, SOE])
def test_soe_11_2_7_attrition_removes_a_level_1_trench(scenario):
    pos = Position(scenario)
    for s in ("Cambrai", "Brussels", "Liege", "Verdun", "Chateau Thierry"):
        pos.control(s, "cp")
    pos.set("trench", 1, key="Sedan")
    pos.run("attrition_phase")
    assert control(pos, "Sedan") == "cp"
    assert pos.var("trench", "Sedan") == 0


# ---------------------------------------------------------------- 11.2.10-11.2.12


def combat(pos, attacker, target, attackers, defenders, sources, cards=()):
    """The combat state of a designated attack (12.2.2), set directly."""
    pos.set("combat_attacker", attacker)
    pos.set("combat_defender", "cp" if attacker == "ap" else "ap")
    pos.set("combat_target", target)
    pos.s["vars"]["combat_attackers"] = [pos.place(u, s) for u, s in attackers]
    pos.s["vars"]["combat_defenders"] = [pos.place(u, target) for u in defenders]
    pos.s["vars"]["combat_sources"] = [pos.entity("space", s) for s in sources]
    pos.s["vars"]["combat_cards"] = list(cards)
    for c in cards:  # a used combat card lies face up in play (9.5.4.1)
        pos.game.move_card(c, f"in_play:{attacker}")
    pos.game.invalidate()


def effects(pos):
    att = pos.s["vars"]["combat_attacker"]
    dfd = pos.s["vars"]["combat_defender"]
    return {
        "attacker_shift": value(pos, "fire_shift", att),
        "defender_shift": value(pos, "fire_shift", dfd),
        "flank": value(pos, "flank_possible"),
        "cancel_retreat": value(pos, "retreat_may_be_cancelled"),
    }


NO_TRENCH = {"attacker_shift": 0, "defender_shift": 0, "flank": True, "cancel_retreat": False}
LEVEL_0 = {"attacker_shift": -1, "defender_shift": 0, "flank": False, "cancel_retreat": True}


def allied_attack_on_koblenz(scenario, defenders=("GE 1",), cp_entrench=True):
    pos = Position(scenario)
    if cp_entrench:
        played(pos, "cp", 6)
    combat(pos, "ap", "Koblenz", [("FR 1", "Sedan"), ("FR 2", "Liege")], defenders, ["Sedan", "Liege"])
    return pos


@pytest.mark.rule("soe 11.2.10")
@pytest.mark.rule("soe 11.2.12")
def test_soe_11_2_10_a_german_army_space_is_a_level_0_trench_after_the_cp_entrench():
    """Koblenz is clear and has no trench marker."""
    assert effects(allied_attack_on_koblenz(CAMPAIGN)) == NO_TRENCH
    assert effects(allied_attack_on_koblenz(SOE)) == LEVEL_0


@pytest.mark.rule("soe 11.2.10")
def test_soe_11_2_10_no_level_0_before_the_cp_entrench_nor_for_corps_alone():
    assert effects(allied_attack_on_koblenz(SOE, cp_entrench=False)) == NO_TRENCH
    assert effects(allied_attack_on_koblenz(SOE, defenders=("GEc",))) == NO_TRENCH
    # the Allied Entrench gives the Central Powers nothing
    pos = Position(SOE)
    played(pos, "ap", 12)
    combat(pos, "ap", "Koblenz", [("FR 1", "Sedan"), ("FR 2", "Liege")], ["GE 1"], ["Sedan", "Liege"])
    assert effects(pos) == NO_TRENCH


@pytest.mark.rule("soe 11.2.10")
@pytest.mark.rule("soe 11.2.12")
def test_soe_11_2_10_every_austro_hungarian_space_even_with_corps_only():
    def shift(scenario):
        pos = Position(scenario)
        played(pos, "cp", 6)
        combat(pos, "ap", "Lemberg", [("RU 1", "Tarnopol")], ["AHc"], ["Tarnopol"])
        return value(pos, "fire_shift", "ap"), value(pos, "retreat_may_be_cancelled")

    campaign, soe = shift(CAMPAIGN), shift(SOE)
    assert soe[0] == campaign[0] - 1
    assert soe[1] is True


@pytest.mark.rule("soe 11.2.11")
@pytest.mark.rule("soe 11.2.12")
def test_soe_11_2_11_allied_level_0_and_trench_negating_cards_cancel_it():
    """A French army in Chateau Thierry after the Allied Entrench; Von Below
    (a trench-negating card, Deluxe 12.2.4) cancels the level 0 trench for its
    combat as it would a marker."""
    def run(scenario, cards=()):
        pos = Position(scenario)
        played(pos, "ap", 12)
        cs = [pos.card("cp", 43)] if cards else []
        combat(pos, "cp", "Chateau Thierry", [("GE 1", "Sedan"), ("GE 2", "Verdun")], ["FR 1"], ["Sedan", "Verdun"], cs)
        return effects(pos)

    assert run(CAMPAIGN) == NO_TRENCH
    assert run(SOE) == LEVEL_0
    assert run(SOE, cards=True) == NO_TRENCH


@pytest.mark.rule("soe 11.2.12")
def test_soe_11_2_12_a_trench_marker_takes_precedence_over_level_0():
    for scenario in (CAMPAIGN, SOE):
        pos = allied_attack_on_koblenz(scenario)
        pos.set("trench", 1, key="Koblenz")
        assert value(pos, "combat_trench") == 1
        assert value(pos, "fire_shift", "ap") == -1
        assert value(pos, "fire_shift", "cp") == 1


@pytest.mark.rule("soe 11.2.12")
def test_soe_11_2_12_level_0_serves_only_its_own_side():
    """An Allied army defending in an Austro-Hungarian space gains nothing from
    the Central Powers' level 0 trench there."""
    pos = Position(SOE)
    played(pos, "cp", 6)
    pos.control("Lemberg", "ap")
    combat(pos, "cp", "Lemberg", [("AH 1", "Cracow")], ["RU 1"], ["Cracow"])
    assert value(pos, "combat_trench") == 0
    assert value(pos, "level_zero", "Lemberg", "cp") is True
    assert value(pos, "entrenched", "Lemberg", "ap") is False


# ---------------------------------------------------------------- 11.3.3 (optional)


class OptionPosition(Position):
    """A Position of a scenario played with options (`when option` blocks applied)."""

    def __init__(self, scenario: str, **options):
        from pogdsl.opening import open_scenario
        from pogdsl.runtime.interpreter import Game
        from rules.harness import ROOT

        self.w = open_scenario(scenario, ROOT, options={k: str(v) for k, v in options.items()}).world
        self.game = Game.new(self.w, seed=0)
        self.s = self.game.s
        self.asked = []
        self.clear_board()


def kut_cut_off(pos):
    """A Turkish corps in Kut; Baghdad (a VP space) next door is the only
    Central Powers space left on the Near East map."""
    pos.s["at_war"]["tu"] = True
    for name, s in pos.w.by_kind["space"].items():
        if str(getattr(s.data.map, "key", s.data.map)) == "neareast":
            pos.control(name, "cp" if name in ("Baghdad", "Kut") else "ap")
    return pos.place("TUc", "Kut")


@pytest.mark.rule("soe 11.3.3")
def test_soe_11_3_3_turkish_vp_spaces_give_limited_supply_when_the_option_is_on():
    for pos, supplied in ((Position(CAMPAIGN), False), (Position(SOE), False),
                          (OptionPosition(SOE, turkish_internal_supply="on"), True)):
        u = kut_cut_off(pos)
        assert value(pos, "in_supply", u) is supplied
    # limited supply: no SR, no replacements, but the unit survives attrition
    assert value(pos, "limited_supplied", u) is True
    cost = value(pos, "sr_cost_of", u)
    forbidden = [d.key for d in pos.game._forbidden(
        "redeploy_unit", (pos.w.by_kind["side"]["cp"], u, pos._value("full"), cost, 4, []))]
    assert "limited_supply_no_sr" in forbidden
    pos.run("attrition_phase")
    assert pos.units_at("Kut") == ["TUc"]


@pytest.mark.rule("soe 11.3.3")
def test_soe_11_3_3_without_the_option_the_cut_off_corps_dies_in_attrition():
    pos = Position(SOE)
    kut_cut_off(pos)
    pos.run("attrition_phase")
    assert pos.units_at("Kut") == []


@pytest.mark.rule("soe 11.2.10")
@pytest.mark.rule("11.2.10")
def test_soe_has_no_deluxe_optional_entrench_drm():
    """Deluxe optional 11.2.10: an army that failed to dig in the round before
    gets -1.  SoE's 11.2.10 is the level 0 trench; with the Deluxe option on,
    the SoE roll is still unmodified."""
    def second_try(pos):
        pos.s["turn"] = 3
        played(pos, "ap", 12)
        pos.place("GE 1", "Koblenz")  # LF 3
        for rnd in (2, 3):  # a 4 fails in round 2; round 3 tries again with a 4
            pos.set("action_round", rnd)
            pos.activate("Koblenz", "move")
            pos.run("move_activated_units", "cp", answers=["entrench GE 1 in Koblenz"], dice=[4])
        return pos.var("trench", "Koblenz")

    assert second_try(OptionPosition(CAMPAIGN, entrench_drm="on")) == 1
    assert second_try(OptionPosition(SOE, entrench_drm="on")) == 0


# ---------------------------------------------------------------- 11.1.14 under 11.1.4


@pytest.mark.rule("soe 11.1.14")
@pytest.mark.rule("11.1.15")
def test_soe_11_1_14_the_ana_holds_where_its_move_ends_and_passing_takes_nothing():
    """SoE 11.1.14 (Deluxe 11.1.15 restated for SoE 11.1.4): a Central Powers
    space the Arab Northern Army takes (by ending there or paying the extra
    MP) is Allied only while the ANA stays; a space it merely passes stays
    Central Powers."""
    pos = Position(SOE)
    pos.s["at_war"]["tu"] = True
    pos.place("BR ANAc", "Arabia")
    move_marker(pos, "Arabia")
    pos.run("move_activated_units", "ap", answers=["move BR ANAc from Arabia", "move to Medina", "pass through Medina",
                                              "stop in Medina"])
    assert control(pos, "Medina") == "ap"
    assert pos.var("ana_hold") == "Medina"
    # the next action: it leaves, passes Arabia (Allied) and ends in Amman
    move_marker(pos, "Medina")
    pos.run("move_activated_units", "ap",
            answers=["move BR ANAc from Medina", "move to Arabia", "move to Amman", "pass through Amman",
                     "stop in Amman"])
    assert control(pos, "Medina") == "cp"
    assert control(pos, "Amman") == "ap" and pos.var("ana_hold") == "Amman"

    # claimed in passing, a space reverts as soon as the ANA moves on
    pos = Position(SOE)
    pos.s["at_war"]["tu"] = True
    pos.place("BR ANAc", "Arabia")
    move_marker(pos, "Arabia")
    pos.run("move_activated_units", "ap",
            answers=["move BR ANAc from Arabia", "move to Medina", "take Medina", "move to Arabia"])
    assert pos.units_at("Arabia") == ["BR ANAc"]
    assert any("take Medina in passing" in line for line in pos.log())
    assert control(pos, "Medina") == "cp"
    assert pos.var("ana_hold") is None


@pytest.mark.rule("soe 11.1.6")
def test_soe_11_1_6_the_bar_on_attacking_lasts_one_action_only():
    """Along a random game, whenever a player picks his next action no unit is
    still barred from attacking for having moved into an Attack space."""
    from rules.harness import play_randomly, world

    seen = []

    def each(game, decision):
        if decision.choice == "take_action":
            seen.append(list(game.s["vars"]["moved_into_attack"]))

    play_randomly(world(SOE), seed=3, decisions=400, each=each)
    assert seen and all(barred == [] for barred in seen)
