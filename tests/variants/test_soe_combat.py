"""Suicide of Europe, combat and losses (SoE 12.1-12.4, 12.5.8, 12.6.11).

Each test sets up the same position in the Campaign (Paths of Glory Deluxe)
and in `suicide_of_europe`, and checks Deluxe's result in the one and SoE's
in the other, as the two rulebooks state them."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.harness import Position  # noqa: E402
from rules.test_combat import activate_attack, control, where  # noqa: E402

SOE = "suicide_of_europe"
BOTH = ["campaign", SOE]


def play(pos: Position, procedure: str, *args, answers=(), dice=()) -> None:
    """Run a procedure as Position.run does, but a decision the next answer
    does not fit takes its last option (the "no more" / "stop" of optional
    choices, or the only one), so a test names only the answers it is about."""
    g = pos.game
    code = pos.w.codes[f"procedure:{procedure}"]
    values = [pos._value(a) if isinstance(a, str) else a for a in args]
    pos.s["stack"] = [{"code": f"procedure:{procedure}", "pc": 0, "l": dict(zip(code.params, values))}]
    pos.s["dice"] = list(dice)
    pos.s["result"] = None
    g.invalidate()
    answers = list(answers)
    d = g.run()
    while d is not None:
        pos.asked.append(d)
        if answers and any(o == answers[0] or o.startswith(answers[0]) for o in d.options):
            d = g.choose(answers.pop(0))
        else:
            d = g.choose(len(d.options))
    assert not answers, f"answers never asked for: {answers}"


def options(pos: Position, choice: str) -> list[list[str]]:
    return [d.options for d in pos.asked if d.choice == choice]


def offered(pos: Position, choice: str) -> bool:
    return any(d.choice == choice for d in pos.asked)


def destroyed(pos: Position, space: str) -> bool:
    return pos.s["fort_destroyed"][pos.entity("space", space).index]


# ------------------------------------------------------------------ 12.3.1 / 12.3.2: flank attacks
def two_corps_on_tannenberg(scenario: str) -> Position:
    """Two German corps, one in Insterberg and one in Konigsberg, attack a
    Russian corps in Tannenberg (forest, no trench): no German army."""
    pos = Position(scenario)
    pos.place("GEc", "Insterberg")
    pos.place("GEc", "Konigsberg")
    pos.ruc = pos.place("RUc", "Tannenberg")
    pos.control("Tannenberg", "ap")
    activate_attack(pos, "Insterberg", "Konigsberg")
    return pos


@pytest.mark.rule("soe 12.3.1")
@pytest.mark.rule("12.3.1")
@pytest.mark.parametrize("scenario", BOTH)
def test_flank_attack_without_an_army(scenario):
    """Deluxe 12.3.1 asks for an attacking army; SoE 12.3.1 only for supplied
    units attacking from two or more spaces.  In SoE the corps pin from
    Insterberg, the roll of 3 gets +1 (Konigsberg touches no other Russian)
    and the flank succeeds: the Germans fire first."""
    pos = two_corps_on_tannenberg(scenario)
    answers = ["attack Tannenberg from Insterberg", "from Konigsberg: GEc"]
    if scenario == SOE:
        answers.append("flank attack, pinning from Insterberg")
    play(pos, "resolve_attacks", "cp", answers=answers, dice=[3, 6, 1])
    log = pos.log()
    if scenario == "campaign":
        assert not offered(pos, "flank_attack")
        assert not any("flank attack" in line for line in log)
    else:
        assert options(pos, "flank_attack") == [["flank attack, pinning from Insterberg",
                                                "flank attack, pinning from Konigsberg",
                                                "no flank attack"]]
        assert "flank attack succeeds: 3 + 1" in log
        # The Germans fired first: their corps table roll of 6 came before the Russians'.
        assert log.index("flank attack succeeds: 3 + 1") < next(i for i, line in enumerate(log) if line.startswith("cp fires"))
        assert next(i for i, line in enumerate(log) if line.startswith("cp fires")) < next(i for i, line in enumerate(log) if line.startswith("ap fires"))


@pytest.mark.rule("soe 12.3.1")
@pytest.mark.rule("soe 12.3.2")
@pytest.mark.rule("12.3.1")
@pytest.mark.rule("12.3.2")
@pytest.mark.parametrize("scenario", BOTH)
def test_flank_counts_only_supplied_attacking_spaces(scenario):
    """SoE 12.3.1 and 12.3.2: an attacking space whose units are out of supply
    when the combat starts neither makes a flank attack possible nor pins
    nor adds +1.  A French army in Verdun and a French corps in Strasbourg
    attack a German corps in Metz; once the Attack markers are down,
    Strasbourg is cut off (Mulhouse and Nancy pass to the Central Powers).
    Deluxe 12.3.1/12.3.2 count Strasbourg anyway: pinning from Verdun, a 3
    rolls 3 + 1 and succeeds; in SoE a single supplied space is left: no
    flank attack."""
    pos = Position(scenario)
    pos.place("FR 3", "Verdun")
    pos.place("FRc", "Strasbourg")
    pos.place("GEc", "Metz")
    pos.control("Strasbourg", "ap")
    pos.control("Mulhouse", "cp")
    activate_attack(pos, "Verdun", "Strasbourg")
    pos.control("Nancy", "cp")
    answers = ["attack Metz from Verdun", "from Strasbourg: FRc"]
    if scenario == "campaign":
        answers.append("flank attack, pinning from Verdun")
    play(pos, "resolve_attacks", "ap", answers=answers, dice=[3, 1, 1])
    if scenario == "campaign":
        assert "flank attack succeeds: 3 + 1" in pos.log()
    else:
        assert not offered(pos, "flank_attack")
        assert not any("flank attack" in line for line in pos.log())


# ------------------------------------------------------------------ 12.2.7: the Army table for LF 4
@pytest.mark.rule("soe 12.2.7")
@pytest.mark.rule("12.2.8")
@pytest.mark.parametrize("scenario", BOTH)
def test_lf_four_may_fire_on_the_army_table(scenario):
    """SoE 12.2.7's example: a German army attacks two entrenched Russian
    corps in Warsaw (fort 2).  The Russians fire at strength 4 on the
    Corps/Fort table shifted one column right by the trench (column 5);
    SoE lets them, with LF 4 in the space (two corps and the fort), fire on
    the Army table at 4 instead, giving up the shift.  A 6 gives 2 on the
    Corps/Fort 5 column, 4 on the Army 4 column."""
    pos = Position(scenario)
    pos.place("GE 9", "Lodz")
    pos.place("RUc", "Warsaw")
    pos.place("RUc", "Warsaw")
    pos.control("Warsaw", "ap")
    pos.set("trench", 1, key="Warsaw")
    pos.set("war_status", 4, key="cp")  # Germans may attack Russian forts (Deluxe 15.1.2)
    activate_attack(pos, "Lodz")
    answers = ["attack Warsaw from Lodz"] + (["ap fires on the Army table"] if scenario == SOE else [])
    play(pos, "resolve_attacks", "cp", answers=answers, dice=[1, 6])
    log = "\n".join(pos.log())
    if scenario == "campaign":
        assert not offered(pos, "soe_army_table")
        assert "ap fires with strength 4 on the Corps/Fort table (shift 1), die 6 modified to 6" in log
    else:
        assert options(pos, "soe_army_table") == [["ap fires on the Army table, giving up favourable shifts",
                                                   "fire on the Corps/Fort table"]]
        assert "ap fires with strength 4 on the Army table (shift 0), die 6 modified to 6: loss number 4" in log


@pytest.mark.rule("soe 12.2.7")
@pytest.mark.rule("12.2.8")
def test_army_table_needs_lf_four_in_one_space():
    """SoE 12.2.7: the choice needs LF 4 in one space; a single Russian corps
    and Warsaw's fort make 3: no choice."""
    pos = Position(SOE)
    pos.place("GE 9", "Lodz")
    pos.place("RUc", "Warsaw")
    pos.control("Warsaw", "ap")
    pos.set("war_status", 4, key="cp")  # Germans may attack Russian forts (Deluxe 15.1.2)
    activate_attack(pos, "Lodz")
    play(pos, "resolve_attacks", "cp", answers=["attack Warsaw from Lodz"], dice=[1, 6])
    assert not offered(pos, "soe_army_table")


# ------------------------------------------------------------------ 12.4.6: forts fall to an advance
def liege_stormed(scenario: str, advance: bool) -> Position:
    """Two German armies in Aachen attack a reduced Belgian corps in Liege
    (fort 3) and roll a 6: the loss number of 5 eliminates the corps (LF 1)
    and reaches the fort's LF 3."""
    pos = Position(scenario)
    pos.place("GE 1", "Aachen")
    pos.place("GE 2", "Aachen")
    pos.bec = pos.place("BEc", "Liege", reduced=True)
    activate_attack(pos, "Aachen")
    answers = ["attack Liege from Aachen", "from Aachen: GE 1, GE 2"]
    if advance:
        answers.append("advance GE 1 into Liege")
    play(pos, "resolve_attacks", "cp", answers=answers, dice=[6, 1])
    return pos


@pytest.mark.rule("soe 12.4.6")
@pytest.mark.rule("12.4.6")
@pytest.mark.parametrize("scenario", BOTH)
def test_fort_loss_counts_only_if_an_attacker_enters(scenario):
    """Deluxe 12.4.6: the loss destroys the fort at once.  SoE 12.4.6: it only
    does if an attacking unit advances into the fort space; without the
    advance the fort stands (and keeps Liege Allied)."""
    pos = liege_stormed(scenario, advance=False)
    assert where(pos, pos.bec) == "eliminated[ap]"
    if scenario == "campaign":
        assert destroyed(pos, "Liege")
    else:
        assert not destroyed(pos, "Liege")
        assert "the fort of Liege stands: no attacker entered its space" in pos.log()
        assert control(pos, "Liege") == "ap"


@pytest.mark.rule("soe 12.4.6")
@pytest.mark.rule("12.4.6")
def test_fort_falls_when_an_attacker_advances_into_it():
    """SoE 12.4.6: with a German army advancing into Liege the fort's loss
    takes effect: the fort is destroyed and the space is German."""
    pos = liege_stormed(SOE, advance=True)
    assert destroyed(pos, "Liege")
    assert control(pos, "Liege") == "cp"
    assert pos.units_at("Liege") == ["GE 1"]


# ------------------------------------------------------------------ 12.4.7: the BEF is not a dotted army
@pytest.mark.rule("soe 12.4.7")
@pytest.mark.rule("12.4.7")
@pytest.mark.parametrize("scenario", BOTH)
def test_bef_army_is_no_longer_lost_for_good(scenario):
    """Deluxe 12.4.7 lists the BEF among the armies lost for good; SoE 12.4.7
    drops it.  A reduced BEF army loses its last step with the BEF corps in
    the Reserve Box: the corps replaces it in both games; the army goes to
    the removed box in the Campaign, to the Eliminated (replaceable) box in
    SoE."""
    pos = Position(scenario)
    bef = pos.place("BR BEF", "Amiens", reduced=True)
    befc = pos.place("BR BEFc", "reserve[ap]")
    pos.run("lose_army", "ap", bef)
    assert where(pos, befc) == "Amiens"
    assert where(pos, bef) == ("removed[ap]" if scenario == "campaign" else "eliminated[ap]")
