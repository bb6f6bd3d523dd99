"""12.5 Retreats (and 12.6's general points), with the rulebook's examples."""

import pytest

from .harness import Position
from .test_combat import activate_attack, control, set_combat, set_losses, where


def won_by(pos: Position, attacker: str, attacker_loss: int, defender_loss: int) -> None:
    defender = "ap" if attacker == "cp" else "cp"
    pos.set("combat_winner", attacker)
    set_losses(pos, **{attacker: attacker_loss, defender: defender_loss})


@pytest.mark.rule("12.5.2")
def test_12_5_2_one_space_retreat_into_a_friendly_space():
    """12.5.2, 12.5.5: a loss-number difference of one means a one-space
    retreat; friendly spaces come first, the enemy-held one is not offered;
    the defending space keeps its control (12.5.7)."""
    pos = Position()
    ge = pos.place("GE 9", "Thorn")
    ru = pos.place("RU 1", "Lodz")
    pos.control("Czestochowa", "cp")
    set_combat(pos, "cp", "Lodz", attackers=[ge], defenders=[ru], sources=["Thorn"])
    won_by(pos, "cp", 1, 2)
    pos.run("defender_retreat", "ap", answers=["RU 1 retreats to Warsaw"])
    options = pos.asked[0].options
    assert "RU 1 retreats to Warsaw" in options and "RU 1 retreats to Plock" in options
    assert not any("Czestochowa" in o or "Breslau" in o or "Posen" in o or "then" in o for o in options)
    assert where(pos, ru) == "Warsaw"
    assert control(pos, "Lodz") == "ap"


@pytest.mark.rule("12.5.5")
def test_12_5_5_enemy_space_only_when_no_friendly_one_and_control_changes():
    """12.5.5: units retreat into an empty enemy-controlled space only if no
    friendly space is open (an enemy fort space never is), and they take
    control of the space they retreat into."""
    pos = Position()
    ge = pos.place("GE 9", "Thorn")
    ru = pos.place("RUc", "Lodz")
    for _ in range(3):
        pos.place("RUc", "Warsaw")
    pos.control("Czestochowa", "cp")
    set_combat(pos, "cp", "Lodz", attackers=[ge], defenders=[ru], sources=["Thorn"])
    won_by(pos, "cp", 0, 1)
    pos.run("defender_retreat", "ap")
    assert where(pos, ru) == "Plock"  # the only friendly space with room: no question asked
    assert control(pos, "Czestochowa") == "cp"

    pos = Position()
    ge = pos.place("GE 9", "Thorn")
    ru = pos.place("RUc", "Lodz")
    for s in ("Warsaw", "Plock"):
        for _ in range(3):
            pos.place("RUc", s)
    pos.control("Czestochowa", "cp")
    set_combat(pos, "cp", "Lodz", attackers=[ge], defenders=[ru], sources=["Thorn"])
    won_by(pos, "cp", 0, 1)
    pos.run("defender_retreat", "ap")
    assert where(pos, ru) == "Czestochowa"  # Breslau and Posen hold German forts
    assert control(pos, "Czestochowa") == "ap"


@pytest.mark.rule("12.5.5")
def test_12_5_5_example_two_space_retreat_may_end_next_to_the_defending_space():
    """12.5.5 example: a unit retreating two spaces from Sedan may go to Cambrai
    and end in Chateau Thierry, next to Sedan; it may not come back into Sedan."""
    pos = Position()
    ge = pos.place("GE 4", "Metz")
    fr = pos.place("FR 3", "Sedan")
    set_combat(pos, "cp", "Sedan", attackers=[ge], defenders=[fr], sources=["Metz"])
    won_by(pos, "cp", 0, 3)
    pos.run("defender_retreat", "ap", answers=["retreat", "FR 3 retreats to Cambrai then Chateau Thierry"])
    assert pos.asked[0].options == ["hold the space: FR 3 flipped", "retreat"]
    assert "FR 3 retreats to Cambrai then Chateau Thierry" in pos.asked[1].options
    assert not any(o.endswith("then Sedan") for o in pos.asked[1].options)
    assert where(pos, fr) == "Chateau Thierry"


@pytest.mark.rule("12.5.3")
def test_12_5_3_forest_extra_step_cancels_the_retreat():
    """12.5.3: in a forest the defender may take one more step loss from any
    defending unit instead of retreating, whatever the retreat length."""
    pos = Position()
    ge = pos.place("GE 4", "Metz")
    fr = pos.place("FR 3", "Sedan")
    frc = pos.place("FRc", "Sedan")
    set_combat(pos, "cp", "Sedan", attackers=[ge], defenders=[fr, frc], sources=["Metz"])
    won_by(pos, "cp", 0, 4)
    pos.run("defender_retreat", "ap", answers=["hold the space: FRc flipped"])
    assert where(pos, fr) == "Sedan" and where(pos, frc) == "Sedan"
    assert pos.reduced(frc.index) and not pos.reduced(fr.index)


@pytest.mark.rule("12.5.3")
def test_12_5_3_the_last_step_cannot_be_spent_to_hold():
    """12.5.3: the last defending step may not be lost to cancel a retreat."""
    pos = Position()
    ge = pos.place("GE 4", "Metz")
    fr = pos.place("FR 3", "Sedan", reduced=True)
    set_combat(pos, "cp", "Sedan", attackers=[ge], defenders=[fr], sources=["Metz"])
    won_by(pos, "cp", 0, 1)
    pos.run("defender_retreat", "ap", answers=["FR 3 retreats to Cambrai"])
    assert all(d.choice == "retreat_path" for d in pos.asked)


@pytest.mark.rule("12.5.3")
def test_12_5_3_a_trench_lets_defenders_in_clear_terrain_hold():
    """12.5.3: a trench gives the same option in clear terrain."""
    pos = Position()
    ge = pos.place("GE 9", "Thorn")
    ru = pos.place("RU 1", "Lodz")
    pos.set("trench", 1, key="Lodz")
    set_combat(pos, "cp", "Lodz", attackers=[ge], defenders=[ru], sources=["Thorn"])
    won_by(pos, "cp", 0, 2)
    pos.run("defender_retreat", "ap", answers=["hold the space: RU 1 flipped"])
    assert where(pos, ru) == "Lodz" and pos.reduced(ru.index)


@pytest.mark.rule("12.2.12")
def test_12_2_12_no_retreat_without_a_full_strength_attacker_or_on_a_tie():
    """12.2.12, 12.5.1, 12.5.2: the defenders retreat only if the attacker won
    and still has a full-strength attacking unit; never on a tie."""
    pos = Position()
    ge = pos.place("GE 9", "Thorn", reduced=True)
    ru = pos.place("RU 1", "Lodz")
    set_combat(pos, "cp", "Lodz", attackers=[ge], defenders=[ru], sources=["Thorn"])
    won_by(pos, "cp", 0, 2)
    pos.run("defender_retreat", "ap")
    assert where(pos, ru) == "Lodz"
    pos = Position()
    ge = pos.place("GE 9", "Thorn")
    ru = pos.place("RU 1", "Lodz")
    set_combat(pos, "cp", "Lodz", attackers=[ge], defenders=[ru], sources=["Thorn"])
    pos.set("combat_winner", None)
    set_losses(pos, cp=2, ap=2)
    pos.run("defender_retreat", "ap")
    assert where(pos, ru) == "Lodz"


@pytest.mark.rule("12.5.4")
def test_12_5_4_units_that_cannot_retreat_are_eliminated_armies_for_good():
    """12.5.4, 12.4.7 (1): surrounded units are eliminated; an army so lost is
    permanently eliminated and no reserve corps replaces it."""
    pos = Position()
    ge = pos.place("GE 9", "Thorn")
    ru = pos.place("RU 1", "Lodz")
    ruc = pos.place("RUc", "Lodz")
    spare = pos.place("RUc", "reserve[ap]")
    for s in ("Warsaw", "Plock", "Czestochowa", "Breslau", "Posen"):
        pos.place("GEc", s)
        pos.control(s, "cp")
    set_combat(pos, "cp", "Lodz", attackers=[ge], defenders=[ru, ruc], sources=["Thorn"])
    won_by(pos, "cp", 0, 1)
    pos.run("defender_retreat", "ap")
    assert where(pos, ru) == "removed[ap]"
    assert where(pos, ruc) == "eliminated[ap]"
    assert where(pos, spare) == "reserve[ap]"


@pytest.mark.rule("12.5.4")
def test_12_5_4_a_replacement_corps_that_cannot_retreat_takes_its_army_out_for_good():
    """12.5.4: a corps that has just replaced an eliminated army and cannot
    retreat is eliminated, and the army is then permanently eliminated."""
    pos = Position()
    ge = pos.place("GE 9", "Thorn")
    ru = pos.place("RU 1", "Lodz", reduced=True)
    ruc = pos.place("RUc", "reserve[ap]")
    for s in ("Warsaw", "Plock", "Czestochowa", "Breslau", "Posen"):
        pos.place("GEc", s)
        pos.control(s, "cp")
    set_combat(pos, "cp", "Lodz", attackers=[ge], defenders=[ru], sources=["Thorn"])
    set_losses(pos, ap=2)
    pos.run("take_losses", "ap")
    assert where(pos, ru) == "eliminated[ap]" and where(pos, ruc) == "Lodz"
    won_by(pos, "cp", 0, 2)
    pos.run("defender_retreat", "ap")
    assert where(pos, ruc) == "eliminated[ap]"
    assert where(pos, ru) == "removed[ap]"


@pytest.mark.rule("12.5.4")
def test_12_5_4_the_montenegrin_corps_is_eliminated_if_forced_to_retreat():
    """12.5.4: the MN corps is eliminated when it must retreat."""
    pos = Position()
    ah = pos.place("AH 5", "Mostar")
    mn = pos.place("MNc", "Cetinje")
    set_combat(pos, "cp", "Cetinje", attackers=[ah], defenders=[mn], sources=["Mostar"])
    won_by(pos, "cp", 0, 1)
    pos.run("defender_retreat", "ap", answers=["retreat"])
    assert where(pos, mn) == "eliminated[ap]"


@pytest.mark.rule("12.5.5")
def test_12_5_5_a_retreat_may_pass_a_full_space_but_not_end_in_one():
    """12.5.5: a two-space retreat may cross a full friendly space; a retreat
    may never end overstacked."""
    pos = Position()
    ge = pos.place("GE 9", "Thorn")
    ru = pos.place("RU 1", "Lodz")
    for _ in range(3):
        pos.place("RUc", "Warsaw")
    set_combat(pos, "cp", "Lodz", attackers=[ge], defenders=[ru], sources=["Thorn"])
    won_by(pos, "cp", 0, 1)
    pos.run("defender_retreat", "ap", answers=["RU 1 retreats to Plock"])
    assert not any("Warsaw" in o for o in pos.asked[0].options)
    pos = Position()
    ge = pos.place("GE 9", "Thorn")
    ru = pos.place("RU 1", "Lodz")
    for _ in range(3):
        pos.place("RUc", "Warsaw")
    set_combat(pos, "cp", "Lodz", attackers=[ge], defenders=[ru], sources=["Thorn"])
    won_by(pos, "cp", 0, 2)
    pos.run("defender_retreat", "ap", answers=["RU 1 retreats to Warsaw then Brest Litovsk"])
    assert where(pos, ru) == "Brest Litovsk"


@pytest.mark.rule("12.7.4")
def test_12_7_4_example_kishinev_retreat_ends_in_elimination_at_ismail():
    """12.7.4 example (retreat part): Russians in Kishinev attacked from
    Zhmerinka must retreat two spaces; Romania is neutral and Odessa held by
    the Central Powers, so they reach Ismail and are eliminated there."""
    pos = Position()
    ah = pos.place("AH 1", "Zhmerinka")
    pos.control("Zhmerinka", "cp")
    ru = pos.place("RUc", "Kishinev")
    pos.place("AHc", "Odessa")
    pos.control("Odessa", "cp")
    set_combat(pos, "cp", "Kishinev", attackers=[ah], defenders=[ru], sources=["Zhmerinka"])
    won_by(pos, "cp", 0, 2)
    pos.run("defender_retreat", "ap")
    assert where(pos, ru) == "eliminated[ap]"
    assert pos.var("retreat_first_spaces") == [pos.entity("space", "Ismail")]
    assert control(pos, "Ismail") == "ap"
