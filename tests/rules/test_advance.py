"""12.7 Advance after combat, with the rulebook's 12.7.4 example."""

import pytest

from .harness import Position
from .test_combat import activate_attack, control, set_combat, set_losses, where


@pytest.mark.rule("12.7.4")
def test_12_7_4_example_kishinev_advance_up_to_ismail():
    """12.7.4 example: AH 1 attacks RU 1 in Kishinev from Zhmerinka and wins by
    two (loss numbers 3 and 1): a two-space retreat.  Romania is neutral and
    Odessa is held by the Central Powers, so RU 1 reaches Ismail and is
    eliminated there for good (12.5.4).  The attacker may advance as far as
    Ismail, taking control of Kishinev and Ismail (12.7.9)."""
    pos = Position()
    ah = pos.place("AH 1", "Zhmerinka")
    pos.control("Zhmerinka", "cp")
    pos.control("Kamenets-Podolski", "cp")  # AH 1's supply line to Czernowitz
    ru = pos.place("RU 1", "Kishinev")
    pos.place("AHc", "Odessa")
    pos.control("Odessa", "cp")
    activate_attack(pos, "Zhmerinka")
    pos.run("resolve_attacks", "cp", answers=[
        "attack Kishinev from Zhmerinka",
        "advance AH 1 into Ismail",
    ], dice=[5, 1])
    assert where(pos, ru) == "removed[ap]"
    assert [d.options for d in pos.asked if d.choice == "advance_unit"] == [
        ["advance AH 1 into Kishinev", "advance AH 1 into Ismail", "stop advancing"]]
    assert where(pos, ah) == "Ismail"
    assert control(pos, "Kishinev") == "cp" and control(pos, "Ismail") == "cp"


@pytest.mark.rule("12.7.2")
def test_12_7_2_after_elimination_only_into_the_defending_space():
    """12.7.1, 12.7.2: when every defender is eliminated, full-strength
    attackers may advance, but only into the defending space, within stacking
    limits; the rest may stay."""
    pos = Position()
    ge9 = pos.place("GE 9", "Thorn")
    ge10 = pos.place("GE 10", "Thorn")
    ru = pos.place("RUc", "Lodz")
    activate_attack(pos, "Thorn")
    pos.run("resolve_attacks", "cp", answers=[
        "attack Lodz from Thorn", "from Thorn: GE 9, GE 10", "advance GE 10 into Lodz", "stop advancing",
    ], dice=[6, 1])
    assert where(pos, ru) == "eliminated[ap]"
    assert [d.options for d in pos.asked if d.choice == "advance_unit"] == [
        ["advance GE 9 into Lodz", "advance GE 10 into Lodz", "stop advancing"],
        ["advance GE 9 into Lodz", "stop advancing"]]
    assert where(pos, ge10) == "Lodz" and where(pos, ge9) == "Thorn"
    assert control(pos, "Lodz") == "cp"


@pytest.mark.rule("12.7.3")
def test_12_7_3_after_a_two_space_retreat_into_the_spaces_vacated():
    """12.7.3: after a two-space retreat advancing units may enter the spaces
    the retreating units went through, but must stop upon entering a forest
    (Sedan) and may not enter a space still holding enemy units (12.7.5)."""
    pos = Position()
    ge = pos.place("GE 9", "Thorn")
    pos.place("RUc", "Warsaw")  # another Russian unit still in Warsaw
    set_combat(pos, "cp", "Lodz", attackers=[ge], defenders=[], sources=["Thorn"])
    pos.set("combat_defenders", [pos.place("RUc", "Brest Litovsk")])  # retreated out of Lodz
    pos.set("retreat_first_spaces", [pos.entity("space", "Plock"), pos.entity("space", "Warsaw")])
    pos.run("attacker_advance", "cp", answers=["advance GE 9 into Plock"])
    assert pos.asked[0].options == ["advance GE 9 into Lodz", "advance GE 9 into Plock", "stop advancing"]
    assert where(pos, ge) == "Plock"
    assert control(pos, "Lodz") == "cp" and control(pos, "Plock") == "cp"

    pos = Position()
    ge = pos.place("GE 4", "Metz")
    set_combat(pos, "cp", "Sedan", attackers=[ge], defenders=[], sources=["Metz"])
    pos.set("combat_defenders", [pos.place("FR 3", "Chateau Thierry")])
    pos.set("retreat_first_spaces", [pos.entity("space", "Cambrai")])
    pos.run("attacker_advance", "cp", answers=["advance GE 4 into Sedan"])
    assert pos.asked[0].options == ["advance GE 4 into Sedan", "stop advancing"]


@pytest.mark.rule("12.7.7")
def test_12_7_7_central_powers_reach_amiens_calais_ostend_only_under_conditions():
    """12.7.7: a CP advance may enter Amiens, Calais or Ostend beyond the
    defending space only after Race to the Sea or at CP War Status 4."""
    def advance_options(ws: int) -> list[str]:
        pos = Position()
        ge = pos.place("GE 2", "Brussels")
        pos.control("Brussels", "cp")
        set_combat(pos, "cp", "Cambrai", attackers=[ge], defenders=[], sources=["Brussels"])
        pos.set("combat_defenders", [pos.place("FR 3", "Rouen")])
        pos.set("retreat_first_spaces", [pos.entity("space", "Amiens")])
        pos.set("war_status", ws, key="cp")
        pos.run("attacker_advance", "cp", answers=["stop advancing"])
        return pos.asked[0].options
    assert advance_options(3) == ["advance GE 2 into Cambrai", "stop advancing"]
    assert advance_options(4) == ["advance GE 2 into Cambrai", "advance GE 2 into Amiens", "stop advancing"]


@pytest.mark.rule("12.7.1")
def test_12_7_1_a_fort_attacked_alone_must_fall_before_any_advance():
    """12.7.1: attacking an enemy fort without units, the attacker may not
    advance unless the fort is destroyed; then it takes the space (12.7.9)."""
    pos = Position()
    ge = pos.place("GE 1", "Aachen")
    activate_attack(pos, "Aachen")
    pos.run("resolve_attacks", "cp", answers=["attack Liege from Aachen"], dice=[1, 6])
    assert "cp fires with strength 5 on the Army table (shift 0), die 1 modified to 1: loss number 2" in pos.log()
    assert where(pos, ge) == "Aachen" and control(pos, "Liege") == "ap"
    assert not any(d.choice == "advance_unit" for d in pos.asked)

    pos = Position()
    ge = pos.place("GE 1", "Aachen")
    activate_attack(pos, "Aachen")
    pos.run("resolve_attacks", "cp", answers=["attack Liege from Aachen", "advance GE 1 into Liege"], dice=[4, 6])
    assert pos.s["fort_destroyed"][pos.entity("space", "Liege").index]
    assert where(pos, ge) == "Liege" and control(pos, "Liege") == "cp"


@pytest.mark.rule("12.7.6")
def test_12_7_6_advancing_into_an_intact_fort_needs_enough_to_besiege_it():
    """12.7.6, 15.2.1: defenders eliminated but the fort (Liege, 3) stands:
    a corps may advance in only if enough corps can follow to besiege it (3);
    an army may alone.  The fort is then besieged and the space not taken."""
    pos = Position()
    gec1 = pos.place("GEc", "Aachen")
    gec2 = pos.place("GEc", "Aachen")
    bec = pos.place("BEc", "Liege", reduced=True)
    set_combat(pos, "cp", "Liege", attackers=[gec1, gec2], defenders=[bec], sources=["Aachen"])
    set_losses(pos, ap=1)
    pos.run("take_losses", "ap")
    assert where(pos, bec) == "eliminated[ap]"
    pos.run("attacker_advance", "cp")
    assert pos.asked == []  # two corps cannot besiege a fort of 3: no advance offered

    pos = Position()
    ge = pos.place("GE 1", "Aachen")
    gec = pos.place("GEc", "Aachen")
    bec = pos.place("BEc", "Liege", reduced=True)
    set_combat(pos, "cp", "Liege", attackers=[ge, gec], defenders=[bec], sources=["Aachen"])
    set_losses(pos, ap=1)
    pos.run("take_losses", "ap")
    pos.run("attacker_advance", "cp", answers=["advance GEc into Liege"])
    # Once the corps is in, the army must follow to complete the siege: with
    # no option to stop, that move was made without asking.
    assert pos.asked[0].options == ["advance GE 1 into Liege", "advance GEc into Liege", "stop advancing"]
    assert len(pos.asked) == 1
    assert where(pos, ge) == "Liege" and where(pos, gec) == "Liege"
    assert pos.var("besieged", "Liege") is True
    assert control(pos, "Liege") == "ap"


@pytest.mark.rule("12.7.9")
def test_12_7_9_advancing_takes_control_and_the_enemy_trench():
    """12.7.9, 11.2.6: advancing units take control of the space; an enemy
    level 2 trench there becomes the attacker's level 1."""
    pos = Position()
    ge = pos.place("GE 9", "Thorn")
    ru = pos.place("RUc", "Lodz")
    pos.set("trench", 2, key="Lodz")
    activate_attack(pos, "Thorn")
    pos.run("resolve_attacks", "cp", answers=["attack Lodz from Thorn", "advance GE 9 into Lodz"], dice=[6, 1])
    assert where(pos, ru) == "eliminated[ap]"
    assert where(pos, ge) == "Lodz" and control(pos, "Lodz") == "cp"
    assert pos.var("trench", "Lodz") == 1
