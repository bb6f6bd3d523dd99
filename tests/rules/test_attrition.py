"""Rule 14.3.5 and 14.3.6: the Attrition Phase eliminates out-of-supply units
(corps to the Eliminated box, armies out of the game) and hands isolated
spaces to the enemy, both sides at once."""

import pytest

from pogdsl.runtime import builtins as B

from .harness import Position


def value_of(pos: Position, name: str, *args):
    v = B.value_of(pos.game, name, tuple(pos._value(a) for a in args))
    return getattr(v, "key", v)


def control(pos: Position, space: str):
    return pos.s["control"][pos.entity("space", space).index]


def where(pos: Position, unit) -> str:
    loc = pos.s["loc"][unit.index]
    e = pos.w.place_entity(loc)
    return e.key if e is not None else None


def cut_off_brussels(pos: Position) -> None:
    pos.control("Brussels", "cp")


# ------------------------------------------------------------------ 14.3.5


@pytest.mark.rule("14.3.5")
def test_14_3_5_out_of_supply_corps_go_to_the_eliminated_box():
    pos = Position()
    corps = pos.place("GEc", "Brussels")
    cut_off_brussels(pos)
    pos.run("attrition_phase")
    assert where(pos, corps) == "eliminated[cp]"
    assert pos.units_at("Brussels") == []


@pytest.mark.rule("14.3.5")
def test_14_3_5_out_of_supply_armies_are_removed_for_good():
    pos = Position()
    army = pos.place("GE 1", "Brussels", reduced=True)
    cut_off_brussels(pos)
    pos.run("attrition_phase")
    assert where(pos, army) == "removed[cp]"


@pytest.mark.rule("14.3.5")
def test_14_3_5_supplied_units_stay():
    pos = Position()
    army = pos.place("GE 1", "Metz")
    fr = pos.place("FR 3", "Verdun")
    pos.run("attrition_phase")
    assert where(pos, army) == "Metz"
    assert where(pos, fr) == "Verdun"


@pytest.mark.rule("14.3.5")
def test_14_3_5_both_sides_at_once():
    """A French corps in Antwerp whose only neighbours, Ostend and Brussels,
    are held by the Germans; a German corps in Ostend, cut off as well.  Both
    corps are eliminated and both German spaces pass to the Allies -- but the
    French corps is judged before Ostend and Brussels change hands, so their
    loss does not save it."""
    pos = Position()
    fr = pos.place("FRc", "Antwerp")
    ge = pos.place("GEc", "Ostend")
    pos.control("Ostend", "cp")
    pos.control("Brussels", "cp")
    pos.run("attrition_phase")
    assert where(pos, ge) == "eliminated[cp]"
    assert where(pos, fr) == "eliminated[ap]"
    assert control(pos, "Ostend") == "ap"
    assert control(pos, "Brussels") == "ap"


@pytest.mark.rule("14.1.5")
@pytest.mark.rule("14.3.5")
def test_14_1_5_and_14_3_5_turks_in_medina_survive_attrition():
    pos = Position()
    pos.s["at_war"]["tu"] = True
    tu = pos.place("TUc", "Medina")
    pos.control("Aqaba", "ap")
    pos.run("attrition_phase")
    assert where(pos, tu) == "Medina"
    assert control(pos, "Medina") == "cp"  # occupied, it does not convert


@pytest.mark.rule("14.3.5")
def test_14_3_5_a_russian_in_an_allied_port_dies_while_the_space_holds():
    """14.3.6 note: the units are out of supply, the space is not (it traces by
    sea to London), so the unit goes and the space stays Allied."""
    pos = Position()
    ru = pos.place("RUc", "Ostend")
    pos.run("attrition_phase")
    assert where(pos, ru) == "eliminated[ap]"
    assert control(pos, "Ostend") == "ap"


# ------------------------------------------------------------------ 14.3.6


@pytest.mark.rule("14.3.6")
def test_14_3_6_an_isolated_space_changes_hands():
    """Cambrai made German, alone in France, cannot be supplied: it becomes
    Allied again."""
    pos = Position()
    pos.control("Cambrai", "cp")
    pos.run("attrition_phase")
    assert control(pos, "Cambrai") == "ap"


@pytest.mark.rule("11.2.7")
def test_11_2_7_a_level_1_trench_is_lost_with_its_space_in_attrition():
    """A German-held Cambrai with a level 1 German trench, alone in France,
    falls to attrition: the trench goes with it."""
    pos = Position()
    pos.control("Cambrai", "cp")
    pos.set("trench", 1, key="Cambrai")
    pos.run("attrition_phase")
    assert control(pos, "Cambrai") == "ap"
    assert pos.var("trench", "Cambrai") == 0


@pytest.mark.rule("11.2.7")
def test_11_2_7_a_level_2_trench_becomes_the_enemys_level_1_in_attrition():
    """The same with a level 2 trench: the Allies, who gain the space, now
    hold a level 1 trench there."""
    pos = Position()
    pos.control("Cambrai", "cp")
    pos.set("trench", 2, key="Cambrai")
    pos.run("attrition_phase")
    assert control(pos, "Cambrai") == "ap"
    assert pos.var("trench", "Cambrai") == 1
    pos.game.invalidate()
    assert value_of(pos, "trench_side", "Cambrai") == "ap"


@pytest.mark.rule("14.3.6")
def test_14_3_6_an_undestroyed_friendly_fort_keeps_its_space():
    """Liege (Belgian fort) surrounded by German-held spaces stays Allied while
    its fort stands; once destroyed it falls to attrition."""
    pos = Position()
    for s in ["Brussels", "Sedan", "Koblenz", "Aachen"]:
        pos.control(s, "cp")
    pos.run("attrition_phase")
    assert control(pos, "Liege") == "ap"
    pos.s["fort_destroyed"][pos.entity("space", "Liege").index] = True
    pos.run("attrition_phase")
    assert control(pos, "Liege") == "cp"


@pytest.mark.rule("14.3.6")
def test_14_3_6_serbian_spaces_do_not_convert():
    pos = Position()
    for s in ["Belgrade", "Valjevo", "Skopje", "Sofia"]:
        pos.control(s, "cp")
    pos.run("attrition_phase")
    assert control(pos, "Nis") == "ap"


@pytest.mark.rule("14.2.5")
def test_14_2_5_spaces_trace_across_friendly_dotted_lines():
    """Reval's lines are all Russian dotted lines; with Riga German it still
    traces to Petrograd and stays Russian."""
    pos = Position()
    pos.control("Riga", "cp")
    pos.s["fort_destroyed"][pos.entity("space", "Riga").index] = True
    pos.run("attrition_phase")
    assert control(pos, "Reval") == "ap"


@pytest.mark.rule("14.3.6")
def test_14_3_6_neutral_nations_are_not_checked():
    """August 1914: Turkey, Bulgaria, Italy, Romania and Greece are neutral;
    none of their spaces changes hands in attrition, whoever holds them."""
    pos = Position()
    pos.run("attrition_phase")
    for s in ["Ankara", "Sofia", "Rome", "Bucharest", "Athens", "MEF1"]:
        assert control(pos, s) == pos.entity("space", s).data.control.key, s


@pytest.mark.rule("14.3.6")
def test_14_3_6_the_opening_position():
    """On the empty Campaign map only Libya (Allied Egypt's Turkish-held
    space, 11.1.16) cannot be supplied and changes hands in August 1914;
    Arabia, reached only by the always-supplied ANA, does not (14.1.5)."""
    pos = Position()
    before = list(pos.s["control"])
    pos.run("attrition_phase")
    changed = {pos.w.spaces[i].key for i, (a, b) in enumerate(zip(before, pos.s["control"])) if a != b}
    assert changed == {"Libya"}


@pytest.mark.rule("11.1.12")
def test_11_1_12_albania_traces_to_taranto_while_italy_is_neutral():
    """Valona, cut off by land (Tirana taken, Greece closed), still traces its
    attrition supply across the dotted line to Taranto although Italy is
    neutral; the isolated German-held Tirana reverts to the Allies."""
    pos = Position()
    pos.control("Tirana", "cp")
    pos.run("attrition_phase")
    assert control(pos, "Valona") == "ap"
    assert control(pos, "Tirana") == "ap"


@pytest.mark.rule("14.3.6")
@pytest.mark.rule("14.1.5")
def test_14_3_6_arabia_is_not_lost_to_attrition():
    """Arabia can only be reached along the Arab Northern Army's dotted
    lines, and the ANA never needs supply on the Near East map (14.1.5): a
    friendly unit there could not starve, so the space stays Allied through
    Attrition Phases (it used to change hands in every one)."""
    pos = Position(empty=False)
    pos.s["at_war"]["tu"] = True
    pos.game.invalidate()
    for _ in range(2):
        pos.run("attrition_phase")
        assert control(pos, "Arabia") == "ap"


@pytest.mark.rule("11.1.16")
@pytest.mark.rule("14.3.6")
def test_11_1_16_libya_suffers_normal_attrition():
    """11.1.16: Libya suffers attrition like any space: held by the Central
    Powers, who cannot trace supply to it past the Allies' Alexandria, it
    passes to the Allies."""
    pos = Position(empty=False)
    pos.s["at_war"]["tu"] = True
    pos.game.invalidate()
    assert control(pos, "Libya") == "cp"
    pos.run("attrition_phase")
    assert control(pos, "Libya") == "ap"


@pytest.mark.rule("14.3.6")
@pytest.mark.rule("11.1.16")
def test_14_3_6_and_11_1_16_august_1914_only_libya_changes_hands():
    """The ruling on 14.3.6 with 11.1.16 (docs/rule-index.rst, "Readings of
    the rulebook"): in the first Attrition Phase of the Campaign every unit of
    the set-up traces supply and every space but one can be supplied; Libya,
    held by the Central Powers, whose only line runs to the Allies'
    Alexandria and who have no port there, cannot, and 11.1.16 gives it
    normal attrition: it passes to the Allies."""
    pos = Position(empty=False)
    first = pos.game.run()  # the set-up is laid out; the game waits at its first decision
    assert first is not None and pos.s["turn"] == 1
    pos.s["pending"] = None
    on_map = [i for i, loc in enumerate(pos.s["loc"]) if loc is not None and 0 <= loc < len(pos.w.spaces)]
    assert len(on_map) > 50
    before = list(pos.s["control"])
    pos.run("attrition_phase")
    assert [i for i in on_map if not (0 <= pos.s["loc"][i] < len(pos.w.spaces))] == []
    changed = {pos.w.spaces[i].key for i, (a, b) in enumerate(zip(before, pos.s["control"])) if a != b}
    assert changed == {"Libya"}
    assert control(pos, "Libya") == "ap"
