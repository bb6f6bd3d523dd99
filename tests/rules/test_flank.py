"""12.3 Flank attacks, with the rulebook's Combat Example 1 (August 1914)."""

import pytest

from .harness import Position
from .test_combat import activate_attack, control, where


def tannenberg() -> Position:
    """Combat Example 1: the German 8th Army (Insterberg) and a full German
    corps (Konigsberg) attack the Russian 2nd Army in Tannenberg (forest);
    a full Russian corps waits in the Reserve Box."""
    pos = Position()
    pos.ge8 = pos.place("GE 8", "Insterberg")
    pos.gec = pos.place("GEc", "Konigsberg")
    pos.ru2 = pos.place("RU 2", "Tannenberg")
    pos.ruc = pos.place("RUc", "reserve[ap]")
    pos.control("Tannenberg", "ap")
    activate_attack(pos, "Insterberg", "Konigsberg")
    return pos


@pytest.mark.rule("12.2.5")
@pytest.mark.rule("12.3.2")
@pytest.mark.rule("12.3.3")
@pytest.mark.rule("12.4.4")
def test_combat_example_1_flank_attack_at_tannenberg():
    """12.3.2, 12.3.3 and Combat Example 1: pinning from the 8th Army's space,
    the flank roll of 3 gets +1 (the corps' space touches no other enemy unit)
    and succeeds; the Germans fire first at strength 7 on the Army table and
    roll 3: loss number 4; the 2nd Army (LF 2) loses both steps and a full
    corps from the Reserve Box replaces it (12.4.4); the corps fires back on
    the Corps table's 1 column and rolls 4: loss number 1, and the German
    corps is reduced.  The Russians decline the forest's no-retreat option and
    retreat two spaces to Warsaw; the 8th Army advances into Tannenberg and
    stops there (forest); the reduced corps may not advance."""
    pos = tannenberg()
    pos.run("resolve_attacks", "cp", answers=[
        "attack Tannenberg from Insterberg",
        "from Konigsberg: GEc",
        "flank attack, pinning from Insterberg",
        "retreat",
        "RUc retreats to Plock then Warsaw",
        "advance GE 8 into Tannenberg",
    ], dice=[3, 3, 4])
    text = "\n".join(pos.log())
    assert "flank attack succeeds: 3 + 1" in text
    assert "cp fires with strength 7 on the Army table (shift 0), die 3 modified to 3: loss number 4" in text
    assert "ap fires with strength 1 on the Corps/Fort table (shift 0), die 4 modified to 4: loss number 1" in text
    assert where(pos, pos.ru2) == "eliminated[ap]"
    assert where(pos, pos.ruc) == "Warsaw" and not pos.reduced(pos.ruc.index)
    assert where(pos, pos.ge8) == "Tannenberg" and not pos.reduced(pos.ge8.index)
    assert where(pos, pos.gec) == "Konigsberg" and pos.reduced(pos.gec.index)
    assert control(pos, "Tannenberg") == "cp"
    assert control(pos, "Plock") == "ap"
    # The advance stops in the forest: the Plock option was never offered.
    advance = [d for d in pos.asked if d.choice == "advance_unit"]
    assert [d.options for d in advance] == [["advance GE 8 into Tannenberg", "stop advancing"]]


@pytest.mark.rule("12.3.3")
def test_12_3_3_a_failed_flank_attack_lets_the_defender_fire_first():
    """12.3.3: a modified flank roll of 3 or less fails: the defender fires and
    inflicts its losses first, and the attacker fires with what is left.  The
    2nd Army (3 CF, Army table) rolls 6: loss number 4; the Germans flip the
    8th Army and the corps and fire back with 3 + 1 = 4, roll 3: loss number 3,
    and the 2nd Army is flipped.  The defender wins, 4 to 3."""
    pos = tannenberg()
    pos.run("resolve_attacks", "cp", answers=[
        "attack Tannenberg from Insterberg",
        "from Konigsberg: GEc",
        "flank attack, pinning from Insterberg",
        "GE 8 in Insterberg: flipped",
    ], dice=[1, 6, 3])
    log = pos.log()
    assert "flank attack fails: 1 + 1" in log
    assert "ap fires with strength 3 on the Army table (shift 0), die 6 modified to 6: loss number 4" in log
    assert "cp fires with strength 4 on the Army table (shift 0), die 3 modified to 3: loss number 3" in log
    assert log.index("GE 8 reduced") < log.index("cp fires with strength 4 on the Army table (shift 0), die 3 modified to 3: loss number 3")
    assert pos.reduced(pos.ge8.index) and pos.reduced(pos.gec.index) and pos.reduced(pos.ru2.index)
    assert "combat won by ap" in log
    assert where(pos, pos.ru2) == "Tannenberg"


@pytest.mark.rule("12.3.2")
def test_12_3_2_no_bonus_for_a_space_touching_another_enemy_unit():
    """12.3.2: an attacking space other than the pinning one gives +1 only if no
    solid line joins it to another enemy-occupied space: the corps in Thorn
    touches the Russians in Plock, so the roll of 3 stays 3 and fails."""
    pos = Position()
    pos.place("GE 8", "Insterberg")
    pos.place("GEc", "Thorn")
    pos.place("RU 2", "Tannenberg")
    pos.place("RUc", "Plock")
    pos.control("Tannenberg", "ap")
    activate_attack(pos, "Insterberg", "Thorn")
    pos.run("resolve_attacks", "cp", answers=[
        "attack Tannenberg from Insterberg", "from Thorn: GEc", "flank attack, pinning from Insterberg",
        "GE 8 in Insterberg: flipped"], dice=[3, 6, 1])
    assert "flank attack fails: 3 + 0" in pos.log()


@pytest.mark.rule("12.3.1")
def test_12_3_1_flank_attack_prerequisites():
    """12.3.1: no flank attack from a single space, without an attacking army,
    into swamp or mountain, against a trench, or against a fort without units
    (15.1.6)."""
    def flank_offered(main, second, target, trench=0, army=True, defender=True) -> bool:
        pos = Position()
        pos.place("GE 8" if army else "GEc", main)
        pos.place("GEc", second)
        if defender:
            pos.place("RU 2", target)
        pos.control(target, "ap")
        pos.control(main, "cp")
        pos.control(second, "cp")
        pos.set("trench", trench, key=target)
        activate_attack(pos, main, second)
        answers = [f"attack {target} from {main}"]
        if second != main:
            answers.append(f"from {second}: GEc")
        try:
            pos.run("resolve_attacks", "cp", answers=answers + ["no flank attack"], dice=[1, 1, 1, 1])
        except Exception:
            pass
        assert pos.asked[0].choice == "declare_attack"
        return any(d.choice == "flank_attack" for d in pos.asked)

    assert flank_offered("Insterberg", "Konigsberg", "Tannenberg")
    assert not flank_offered("Insterberg", "Konigsberg", "Tannenberg", trench=1)
    assert not flank_offered("Insterberg", "Konigsberg", "Tannenberg", army=False)
    assert not flank_offered("Insterberg", "Insterberg", "Tannenberg")
    assert not flank_offered("Aachen", "Koblenz", "Liege", defender=False)  # a fort alone

    # Mountain: Italians attack Trent from Verona and Asiago.
    pos = Position()
    pos.s["at_war"]["it"] = True
    pos.place("IT 1", "Verona")
    pos.place("ITc", "Asiago")
    pos.place("AHc", "Trent")
    activate_attack(pos, "Verona", "Asiago")
    pos.run("resolve_attacks", "ap", answers=["attack Trent from Verona", "from Asiago: ITc"], dice=[1, 1])
    assert not any(d.choice == "flank_attack" for d in pos.asked)
    assert "ap attacks Trent with strength 3 against 4" in pos.log()


@pytest.mark.rule("12.3.3")
def test_12_3_3_a_defender_wiped_out_by_the_first_fire_does_not_fire_back():
    """12.3.3: after a successful flank attack the defender fires with what
    its losses have left it.  A reduced Russian corps alone in Tannenberg is
    eliminated by the German fire: nothing is left to fire, so the Germans
    lose nothing and win."""
    pos = Position()
    ge8 = pos.place("GE 8", "Insterberg")
    gec = pos.place("GEc", "Konigsberg")
    ruc = pos.place("RUc", "Tannenberg", reduced=True)
    pos.control("Tannenberg", "ap")
    activate_attack(pos, "Insterberg", "Konigsberg")
    pos.run("resolve_attacks", "cp", answers=[
        "attack Tannenberg from Insterberg",
        "from Konigsberg: GEc",
        "flank attack, pinning from Insterberg",
        "stop advancing",
    ], dice=[3, 3])
    log = pos.log()
    assert "flank attack succeeds: 3 + 1" in log
    assert where(pos, ruc) == "eliminated[ap]"
    assert not any(line.startswith("ap fires") for line in log)
    assert not pos.reduced(ge8.index) and not pos.reduced(gec.index)
    assert "combat won by cp" in log


@pytest.mark.rule("12.3.3")
def test_12_3_3_attackers_wiped_out_by_the_defenders_first_fire_do_not_fire_back():
    """12.3.3, the other way round: a failed flank attack lets the 2nd Army
    fire first, and its loss number 4 takes both reduced German units; with
    no attacking unit left nothing fires back and the Russians lose
    nothing."""
    pos = Position()
    pos.place("GE 8", "Insterberg", reduced=True)
    pos.place("GEc", "Konigsberg", reduced=True)
    ru2 = pos.place("RU 2", "Tannenberg")
    pos.control("Tannenberg", "ap")
    activate_attack(pos, "Insterberg", "Konigsberg")
    pos.run("resolve_attacks", "cp", answers=[
        "attack Tannenberg from Insterberg",
        "from Konigsberg: GEc",
        "flank attack, pinning from Insterberg",
        "GE 8 in Insterberg: lost",
    ], dice=[1, 6])
    log = pos.log()
    assert "flank attack fails: 1 + 1" in log
    assert "ap fires with strength 3 on the Army table (shift 0), die 6 modified to 6: loss number 4" in log
    assert pos.units_at("Insterberg") == [] and pos.units_at("Konigsberg") == []
    assert not any(line.startswith("cp fires") for line in log)
    assert where(pos, ru2) == "Tannenberg" and not pos.reduced(ru2.index)
    assert "combat won by ap" in log
