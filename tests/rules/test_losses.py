"""12.4 Taking losses, with the rulebook's example under 12.4.3."""

import pytest

from .harness import Position
from .test_combat import set_combat, set_losses, where


@pytest.mark.rule("12.4.3")
def test_12_4_3_example_exact_loss_number_through_a_replacement_corps():
    """12.4.3 example: a full French army (LF 3) and a reduced one (LF 3) suffer
    a loss number of 5.  The reduced army must be eliminated and replaced by a
    corps (LF 1), which then loses both its steps; the full army is untouched.
    Flipping the full army and eliminating the reduced one would exceed 5."""
    pos = Position()
    fr1 = pos.place("FR 1", "Cambrai")
    fr2 = pos.place("FR 2", "Cambrai", reduced=True)
    frc = pos.place("FRc", "reserve[ap]")
    set_combat(pos, "cp", "Cambrai", defenders=[fr1, fr2])
    set_losses(pos, ap=5)
    pos.run("take_losses", "ap")
    assert pos.asked == []  # every step was forced
    assert where(pos, fr1) == "Cambrai" and not pos.reduced(fr1.index)
    assert where(pos, fr2) == "eliminated[ap]"
    assert where(pos, frc) == "eliminated[ap]"
    assert "FRc replaces FR 2 in Cambrai" in pos.log()


@pytest.mark.rule("12.4.3")
def test_loss_number_never_exceeded_and_met_as_closely_as_possible():
    """12.4.3: with a loss number of 2 against a full army (LF 3) and a full
    corps (LF 1), only the corps' two steps fit: the army is not touched."""
    pos = Position()
    ge1 = pos.place("GE 1", "Brussels")
    gec = pos.place("GEc", "Brussels")
    set_combat(pos, "ap", "Brussels", defenders=[ge1, gec])
    set_losses(pos, cp=2)
    pos.run("take_losses", "cp")
    assert where(pos, gec) == "eliminated[cp]"
    assert not pos.reduced(ge1.index)
    # A loss number of 4: army and corps one step each, in either order.
    pos = Position()
    ge1 = pos.place("GE 1", "Brussels")
    gec = pos.place("GEc", "Brussels")
    set_combat(pos, "ap", "Brussels", defenders=[ge1, gec])
    set_losses(pos, cp=4)
    pos.run("take_losses", "cp", answers=["GEc in Brussels: flipped"])
    assert pos.asked[0].options == ["GE 1 in Brussels: flipped", "GEc in Brussels: flipped"]
    assert pos.reduced(ge1.index) and pos.reduced(gec.index)


@pytest.mark.rule("12.4.4")
def test_12_4_4_replacement_corps_full_first_then_reduced_else_army_lost_for_good():
    """12.4.4: an eliminated reduced army is replaced by a full corps of its
    nation from the Reserve Box if there is one, else by a reduced one; with
    none the army is permanently eliminated."""
    pos = Position()
    ru1 = pos.place("RU 1", "Lodz", reduced=True)
    weak = pos.place("RUc", "reserve[ap]", reduced=True)
    strong = pos.place("RUc", "reserve[ap]")
    set_combat(pos, "cp", "Lodz", defenders=[ru1])
    set_losses(pos, ap=2)
    pos.run("take_losses", "ap")
    assert where(pos, ru1) == "eliminated[ap]"
    assert where(pos, strong) == "Lodz" and not pos.reduced(strong.index)
    assert where(pos, weak) == "reserve[ap]"

    pos = Position()
    ru1 = pos.place("RU 1", "Lodz", reduced=True)
    weak = pos.place("RUc", "reserve[ap]", reduced=True)
    set_combat(pos, "cp", "Lodz", defenders=[ru1])
    set_losses(pos, ap=2)
    pos.run("take_losses", "ap")
    assert where(pos, weak) == "Lodz" and pos.reduced(weak.index)

    pos = Position()
    ru1 = pos.place("RU 1", "Lodz", reduced=True)
    set_combat(pos, "cp", "Lodz", defenders=[ru1])
    set_losses(pos, ap=2)
    pos.run("take_losses", "ap")
    assert where(pos, ru1) == "removed[ap]"
    assert pos.units_at("Lodz") == []


@pytest.mark.rule("12.4.4.1")
@pytest.mark.rule("12.4.7")
def test_12_4_4_1_and_12_4_7_out_of_supply_or_dotted_armies_are_lost_for_good_but_still_replaced():
    """12.4.4.1: an out-of-supply army is still replaced by a reserve corps but
    is permanently eliminated.  12.4.7 (5): so is a dotted army such as the
    Russian CAU."""
    pos = Position()
    ru1 = pos.place("RU 1", "Lodz", reduced=True)
    ruc = pos.place("RUc", "reserve[ap]")
    set_combat(pos, "cp", "Lodz", defenders=[ru1], oos=[ru1])
    set_losses(pos, ap=2)
    pos.run("take_losses", "ap")
    assert where(pos, ru1) == "removed[ap]"
    assert where(pos, ruc) == "Lodz"

    pos = Position()
    cau = pos.place("RU CAU", "Erzerum", reduced=True)
    ruc = pos.place("RUc", "reserve[ap]")
    set_combat(pos, "cp", "Erzerum", defenders=[cau])
    set_losses(pos, ap=2)
    pos.run("take_losses", "ap")
    assert where(pos, cau) == "removed[ap]"
    assert where(pos, ruc) == "Erzerum"


@pytest.mark.rule("12.4.4.2")
def test_12_4_4_2_two_full_armies_with_no_reserve_corps():
    """12.4.4.2: two full 3-LF armies alone suffering 7 with no corps in
    reserve are not both flipped: one is eliminated for good, the other kept
    intact.  The same for two full 2-LF armies suffering 5."""
    pos = Position()
    fr1 = pos.place("FR 1", "Cambrai")
    fr3 = pos.place("FR 3", "Cambrai")
    set_combat(pos, "cp", "Cambrai", defenders=[fr1, fr3])
    set_losses(pos, ap=7)
    pos.run("take_losses", "ap", answers=["FR 3 in Cambrai: lost"])
    assert where(pos, fr3) == "removed[ap]"
    assert where(pos, fr1) == "Cambrai" and not pos.reduced(fr1.index)

    pos = Position()
    ru1 = pos.place("RU 1", "Lodz")
    ru3 = pos.place("RU 3", "Lodz")
    set_combat(pos, "cp", "Lodz", defenders=[ru1, ru3])
    set_losses(pos, ap=5)
    pos.run("take_losses", "ap", answers=["RU 1 in Lodz: lost"])
    assert where(pos, ru1) == "removed[ap]"
    assert not pos.reduced(ru3.index)


@pytest.mark.rule("12.4.4.3")
def test_12_4_4_3_which_british_corps_replace_armies():
    """12.4.4.3: the BEF army only by the BEF corps; the BR NE army by a
    British corps but never by the AUS, CND or PT corps."""
    pos = Position()
    bef = pos.place("BR BEF", "Cambrai", reduced=True)
    brc = pos.place("BRc", "reserve[ap]")
    befc = pos.place("BR BEFc", "reserve[ap]")
    set_combat(pos, "cp", "Cambrai", defenders=[bef])
    set_losses(pos, ap=3)
    pos.run("take_losses", "ap")
    assert where(pos, befc) == "Cambrai"
    assert where(pos, brc) == "reserve[ap]"
    assert where(pos, bef) == "removed[ap]"  # a dotted army (12.4.7)

    pos = Position()
    ne = pos.place("BR NE", "Gaza", reduced=True)
    aus = pos.place("AUSc", "reserve[ap]")
    befc = pos.place("BR BEFc", "reserve[ap]")
    set_combat(pos, "cp", "Gaza", defenders=[ne])
    set_losses(pos, ap=3)
    pos.run("take_losses", "ap")
    assert where(pos, ne) == "removed[ap]"
    assert where(pos, aus) == "reserve[ap]" and where(pos, befc) == "reserve[ap]"
    assert pos.units_at("Gaza") == []


@pytest.mark.rule("12.4.5")
def test_12_4_5_british_attackers_loss_priority_overrides_exactness():
    """12.4.5: attacking with the Australian corps, its step must be the first
    loss if it fits, even when that keeps the loss number from being met: with
    a loss number of 3 against AUS (LF 1) and BR 1 (LF 3), AUS gives both its
    steps and BR 1 is untouched (12.4.5 takes precedence over 12.4.3)."""
    pos = Position()
    aus = pos.place("AUSc", "Amiens")
    br1 = pos.place("BR 1", "Amiens")
    set_combat(pos, "ap", "Cambrai", attackers=[br1, aus], sources=["Amiens"])
    set_losses(pos, ap=3)
    pos.run("take_losses", "ap")
    assert where(pos, aus) == "eliminated[ap]"
    assert not pos.reduced(br1.index)


@pytest.mark.rule("12.4.5")
def test_12_4_5_mef_and_cau_the_attacker_chooses():
    """12.4.5: with both the MEF and the Russian CAU attacking, the attacker
    chooses which takes the first loss."""
    pos = Position()
    mef = pos.place("BR MEF", "Erzerum")
    cau = pos.place("RU CAU", "Erzerum")
    set_combat(pos, "ap", "Erzingan", attackers=[mef, cau], sources=["Erzerum"])
    set_losses(pos, ap=2)
    pos.run("take_losses", "ap", answers=["RU CAU in Erzerum: flipped"])
    assert pos.asked[0].options == ["BR MEF in Erzerum: flipped", "RU CAU in Erzerum: flipped"]
    assert pos.reduced(cau.index) and not pos.reduced(mef.index)


@pytest.mark.rule("12.4.6")
def test_12_4_6_a_fort_alone_falls_to_a_loss_number_of_its_lf():
    """12.4.6, 15.1.7: a fort defending alone is destroyed by a loss number at
    least its LF; a smaller one leaves it intact."""
    pos = Position()
    set_combat(pos, "cp", "Liege")
    set_losses(pos, ap=2)
    pos.run("take_losses", "ap")
    assert not pos.s["fort_destroyed"][pos.entity("space", "Liege").index]
    set_losses(pos, ap=3)
    pos.run("take_losses", "ap")
    assert pos.s["fort_destroyed"][pos.entity("space", "Liege").index]


@pytest.mark.rule("12.4.6")
def test_12_4_6_a_fort_takes_losses_only_after_every_unit_and_with_enough_left():
    """12.4.6, 15.1.7, 15.1.8: the Belgian corps (two steps of LF 1) in Liege
    (fort 3): a loss number of 5 eliminates the corps and then the fort; 4
    eliminates the corps and leaves the fort (1 left is less than its LF)."""
    pos = Position()
    bec = pos.place("BEc", "Liege")
    set_combat(pos, "cp", "Liege", defenders=[bec])
    set_losses(pos, ap=5)
    pos.run("take_losses", "ap")
    assert where(pos, bec) == "eliminated[ap]"
    assert pos.s["fort_destroyed"][pos.entity("space", "Liege").index]

    pos = Position()
    bec = pos.place("BEc", "Liege")
    set_combat(pos, "cp", "Liege", defenders=[bec])
    set_losses(pos, ap=4)
    pos.run("take_losses", "ap")
    assert where(pos, bec) == "eliminated[ap]"
    assert not pos.s["fort_destroyed"][pos.entity("space", "Liege").index]


@pytest.mark.rule("12.5.6")
def test_12_5_6_units_that_already_retreated_are_eliminated_and_do_not_count():
    """12.5.6: a unit that retreated into the space earlier in the action adds
    no CF, and with a loss number of 1 or more it is eliminated (to the
    Eliminated box) without counting toward the loss number."""
    pos = Position()
    old = pos.place("RU 1", "Lodz", reduced=True)
    ruc = pos.place("RUc", "Lodz")
    spare = pos.place("RUc", "reserve[ap]")
    set_combat(pos, "cp", "Lodz", defenders=[ruc], retreated=[old])
    set_losses(pos, ap=1)
    pos.run("take_losses", "ap")
    assert where(pos, old) == "eliminated[ap]"
    assert where(pos, spare) == "reserve[ap]"
    assert where(pos, ruc) == "Lodz" and pos.reduced(ruc.index)
