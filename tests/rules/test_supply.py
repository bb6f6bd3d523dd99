"""Rule 14.1-14.2: tracing supply, sea supply, each side's sources, units
always in supply.  Positions are built on an empty Campaign board (August
1914: Turkey, Bulgaria, Italy, Romania and Greece neutral)."""

import pytest

from pogdsl.runtime import builtins as B

from .harness import Position


def value(pos: Position, name: str, *args):
    """A declared value of the rules, read in the current position."""
    return B.value_of(pos.game, name, tuple(_arg(pos, a) for a in args))


def _arg(pos, a):
    if isinstance(a, str):
        return pos._value(a)
    return a


def supplied(pos: Position, unit) -> bool:
    return value(pos, "in_supply", unit)


def at_war(pos: Position, nation: str, yes: bool = True) -> None:
    pos.s["at_war"][nation] = yes
    pos.game.invalidate()


def names(spaces) -> set[str]:
    return {s.key for s in spaces}


# ------------------------------------------------------------------ 14.1.2


@pytest.mark.rule("14.1.2")
def test_14_1_2_a_unit_behind_its_own_lines_is_in_supply():
    """A German corps in Metz traces through German spaces to Essen."""
    pos = Position()
    ge = pos.place("GEc", "Metz")
    assert supplied(pos, ge)


@pytest.mark.rule("14.1.2")
def test_14_1_2_a_unit_surrounded_by_enemy_control_is_out_of_supply():
    """A German corps in Brussels (taken by the Germans) with every
    neighbouring space Allied has no friendly path: out of supply."""
    pos = Position()
    ge = pos.place("GEc", "Brussels")
    pos.control("Brussels", "cp")
    assert not supplied(pos, ge)
    # Taking Liege (its fort destroyed) opens Brussels - Liege - Aachen - Essen.
    pos.control("Liege", "cp")
    pos.s["fort_destroyed"][pos.entity("space", "Liege").index] = True
    pos.game.invalidate()
    assert supplied(pos, ge)


@pytest.mark.rule("14.1.3")
def test_14_1_3_a_path_may_not_cross_a_space_holding_an_enemy_unit():
    """The same corps with Liege German-held: a French corps standing in
    Aachen (rule 14.1.3, first bullet) and one in Koblenz cut both roads to
    Essen."""
    pos = Position()
    ge = pos.place("GEc", "Brussels")
    pos.control("Brussels", "cp")
    pos.control("Liege", "cp")
    pos.s["fort_destroyed"][pos.entity("space", "Liege").index] = True
    pos.place("FRc", "Aachen")
    pos.place("FRc", "Koblenz")
    assert not supplied(pos, ge)


@pytest.mark.rule("14.1.3")
def test_14_1_3_a_path_may_cross_a_besieged_enemy_fort():
    """14.1.3 exception and 15.2.2: the Germans besiege Liege (Belgian fort,
    still Allied-controlled) with an army; the corps in Brussels traces
    through Liege to Aachen.  Once the siege is lifted the path is closed."""
    pos = Position()
    ge = pos.place("GEc", "Brussels")
    pos.control("Brussels", "cp")
    army = pos.place("GE 1", "Liege")
    pos.run("check_siege", "Liege")
    assert pos.var("besieged", "Liege") is True
    assert supplied(pos, ge)
    pos.game.move_unit(army, pos.w.location(pos.entity("space", "Aachen")))
    pos.run("check_siege", "Liege")
    assert pos.var("besieged", "Liege") is False
    assert not supplied(pos, ge)


@pytest.mark.rule("14.1.3")
def test_14_1_3_the_units_own_space_is_not_a_restriction():
    """German units besieging Liege stand in an Allied-controlled space; they
    trace from next door (Aachen) all the same."""
    pos = Position()
    army = pos.place("GE 1", "Liege")
    pos.run("check_siege", "Liege")
    assert supplied(pos, army)


@pytest.mark.rule("14.1.3")
def test_14_1_3_dotted_lines_only_for_their_nationalities_at_the_first_step():
    """A German corps in Medina (its only lines are dotted: Arab Northern Army,
    and Turks to Aqaba) cannot trace out of it; a Turkish corps can, to Aqaba
    and on through Turkey to Constantinople."""
    pos = Position()
    at_war(pos, "tu")
    ge = pos.place("GEc", "Medina")
    tu = pos.place("TUc", "Medina")
    assert not supplied(pos, ge)
    assert supplied(pos, tu)


@pytest.mark.rule("14.1.3")
def test_14_1_3_romanians_and_serbians_trace_over_the_russian_dotted_lines():
    """The exception of 14.1.3: Romanian and Serbian units may trace supply
    over the dotted lines joined to the Russian sources.  With every solid
    neighbour of Uman in German hands, a Russian, a Romanian and a Serbian
    corps there reach the Caucasus box across its dotted line; a French
    corps, which may not cross a Russian dotted line, cannot."""
    pos = Position()
    at_war(pos, "ro")
    for s in ["Vinnitsa", "Belaya Tserkov", "Odessa"]:
        pos.control(s, "cp")
    ru = pos.place("RUc", "Uman")
    ro = pos.place("ROc", "Uman")
    sb = pos.place("SBc", "Uman")
    fr = pos.place("FRc", "Uman")
    assert supplied(pos, ru)
    assert supplied(pos, ro)
    assert supplied(pos, sb)
    assert not supplied(pos, fr)


@pytest.mark.rule("14.1.3")
def test_14_1_3_no_dotted_line_of_another_nation_in_the_middle_of_a_path():
    """A supply path may not use a dotted line the tracing unit could not
    move across, wherever it lies on the path.  With Italy at war and the
    rest of the Balkans closed, Tirana's only way home runs through Valona
    and across the Italian dotted line to Taranto: an Italian corps in Tirana
    is supplied, a French corps is not."""
    pos = Position()
    at_war(pos, "it")
    for s in ["Cetinje", "Skopje", "Florina"]:
        pos.control(s, "cp")
    it = pos.place("ITc", "Tirana")
    fr = pos.place("FRc", "Tirana")
    assert supplied(pos, it)
    assert not supplied(pos, fr)


# ------------------------------------------------------------------ 14.1.4


@pytest.mark.rule("14.1.4")
def test_14_1_4_allied_units_trace_to_a_port_and_by_sea_to_london():
    """A French corps in Antwerp, with Brussels German: overland to the port of
    Ostend, then by sea to London.  With Ostend German too it is cut off."""
    pos = Position()
    fr = pos.place("FRc", "Antwerp")
    pos.control("Brussels", "cp")
    assert supplied(pos, fr)
    pos.control("Ostend", "cp")
    assert not supplied(pos, fr)


@pytest.mark.rule("14.1.4")
def test_14_1_4_a_unit_in_a_port_is_supplied_by_sea():
    """A British corps alone in Basra (an Allied port) is supplied by sea."""
    pos = Position()
    br = pos.place("BRc", "Basra")
    assert supplied(pos, br)


@pytest.mark.rule("14.1.4")
def test_14_1_4_central_powers_sea_supply_through_baltic_ports():
    """A German corps in Szawli whose land routes are cut (Memel taken by the
    Russians) traces to the German-held port of Libau, then by sea to a German
    port and overland to Essen."""
    pos = Position()
    ge = pos.place("GEc", "Szawli")
    pos.control("Szawli", "cp")
    pos.control("Memel", "ap")
    pos.control("Libau", "cp")
    assert supplied(pos, ge)
    pos.control("Libau", "ap")
    assert not supplied(pos, ge)


@pytest.mark.rule("14.1.4")
def test_14_1_4_a_besieged_riga_is_no_central_powers_port():
    """German units besieging Riga cannot draw sea supply through it (the
    space and its port stay Russian while the fort stands)."""
    pos = Position()
    army = pos.place("GE 8", "Riga")
    pos.run("check_siege", "Riga")
    assert pos.var("besieged", "Riga") is True
    assert not supplied(pos, army)


@pytest.mark.rule("14.1.4")
def test_14_1_4_constantinople_serves_the_allies_only_with_gallipoli():
    """With Turkey at war and Constantinople in Allied hands, a British corps
    there draws sea supply only once the Allies also hold Gallipoli."""
    pos = Position()
    at_war(pos, "tu")
    br = pos.place("BRc", "Constantinople")
    pos.control("Constantinople", "ap")
    assert not supplied(pos, br)
    pos.control("Gallipoli", "ap")
    assert supplied(pos, br)


@pytest.mark.rule("14.2.2")
def test_14_2_2_russian_units_never_use_sea_supply():
    """In Ostend, an Allied port, a French corps is supplied from London but a
    Russian corps is not: Russians may not trace by sea."""
    pos = Position()
    fr = pos.place("FRc", "Ostend")
    ru = pos.place("RUc", "Ostend")
    assert supplied(pos, fr)
    assert not supplied(pos, ru)


# ------------------------------------------------------------------ 14.2


@pytest.mark.rule("14.2")
def test_14_2_the_map_marks_each_networks_sources():
    pos = Position()
    assert names(value(pos, "marked_sources", "cp")) == {"Essen", "Breslau", "Sofia", "Constantinople"}
    assert names(value(pos, "marked_sources", "ap")) == {"London"}
    assert names(value(pos, "marked_sources", "ru")) == {"Petrograd", "Moscow", "Kharkov", "Caucasus",
                                                         "Belgrade"}
    assert "Paris" not in names(value(pos, "marked_sources", "ap"))  # 14.2.4


@pytest.mark.rule("14.2.1")
def test_14_2_1_sofia_feeds_the_central_powers_once_bulgaria_is_at_war():
    """A German corps in a German-held Nis: cut off while Bulgaria is neutral
    (neutral ground carries no supply), supplied by Sofia once it joins."""
    pos = Position()
    ge = pos.place("GEc", "Nis")
    pos.control("Nis", "cp")
    assert not supplied(pos, ge)
    at_war(pos, "bu")
    assert supplied(pos, ge)


@pytest.mark.rule("14.2.2")
def test_14_2_2_russian_units_trace_to_the_russian_sources():
    """A Russian corps in Kiev traces to Kharkov (across the dotted line the
    Russians may use), even with every other neighbour German."""
    pos = Position()
    ru = pos.place("RUc", "Kiev")
    for s in B.adjacent(pos.game, None, pos.entity("space", "Kiev")):
        if s.key != "Kharkov":
            pos.control(s.key, "cp")
    assert supplied(pos, ru)
    pos.control("Kharkov", "cp")
    assert not supplied(pos, ru)


@pytest.mark.rule("14.2.2")
def test_14_2_2_romanian_units_use_the_russian_network():
    """A Romanian corps in Ostend (an Allied port) is not supplied: Romanians
    draw on the Russian sources and never by sea."""
    pos = Position()
    at_war(pos, "ro")
    ro = pos.place("ROc", "Ostend")
    assert not supplied(pos, ro)


@pytest.mark.rule("14.2.3")
def test_14_2_3_serbians_use_salonika_only_when_allowed():
    """A Serbian corps in Florina (Greece), its roads back to Serbia cut: not
    supplied while Greece is closed; supplied from Salonika once the Salonika
    landing opens Greece and while the Allies hold Salonika."""
    pos = Position()
    sb = pos.place("SBc", "Florina")
    pos.control("Monastir", "cp")
    pos.control("Valona", "cp")
    assert not supplied(pos, sb)
    pos.s["played"].append(pos.entity("card", "Salonika").index)
    pos.game.invalidate()
    assert supplied(pos, sb)
    pos.control("Salonika", "cp")
    assert not supplied(pos, sb)


# ------------------------------------------------------------------ 14.1.5


@pytest.mark.rule("14.1.5")
def test_14_1_5_serbians_are_always_supplied_in_serbia():
    pos = Position()
    sb = pos.place("SBc", "Nis")
    for s in ["Belgrade", "Valjevo", "Skopje"]:
        pos.control(s, "cp")
    assert supplied(pos, sb)
    # Out of Serbia the same corps must trace.
    pos.game.move_unit(sb, pos.w.location(pos.entity("space", "Sofia")))
    assert not supplied(pos, sb)


@pytest.mark.rule("14.1.5")
def test_14_1_5_montenegro_ana_and_senussi():
    """The Montenegrin corps is always supplied; the ANA and the Senussi on
    the Near East map."""
    pos = Position()
    mn = pos.place("MNc", "Cetinje")
    pos.control("Mostar", "cp")
    pos.control("Tirana", "cp")
    ana = pos.place("BR ANAc", "Arabia")
    sn = pos.place("TU SNc", "Libya")
    assert supplied(pos, mn)
    assert supplied(pos, ana)
    assert supplied(pos, sn)


@pytest.mark.rule("14.1.5")
def test_14_1_5_turks_in_medina_are_supplied_for_attrition_only():
    """With Aqaba Allied, a Turkish corps in Medina cannot trace supply (it may
    not act) but does not suffer attrition."""
    pos = Position()
    at_war(pos, "tu")
    tu = pos.place("TUc", "Medina")
    pos.control("Aqaba", "ap")
    assert not supplied(pos, tu)
    assert value(pos, "attrition_supplied", tu)


@pytest.mark.rule("14.1.1.1")
def test_14_1_1_1_activation_records_supply_when_the_marker_is_placed():
    """The supply of a space's units is noted when it is activated; moving
    another unit later does not change it."""
    pos = Position()
    ge = pos.place("GEc", "Brussels")
    pos.control("Brussels", "cp")
    pos.run("note_activation_supply", "Brussels")
    assert pos.var("supplied_at_activation", str(ge.index)) is False
    pos.control("Liege", "cp")
    pos.s["fort_destroyed"][pos.entity("space", "Liege").index] = True
    pos.game.invalidate()
    assert supplied(pos, ge)
    assert pos.var("supplied_at_activation", str(ge.index)) is False


# ------------------------------------------------------------------ 14.2.5


@pytest.mark.rule("14.2.5")
def test_14_2_5_spaces_use_any_source_of_their_side():
    """Reval's only lines are the Russians' dotted lines; as a space it traces
    across them to Petrograd.  A Russian corps in Ostend is out of supply
    while the space itself is supplied (by sea from London)."""
    pos = Position()
    assert value(pos, "space_supplied", "Reval", "ap")
    assert value(pos, "space_supplied", "Ostend", "ap")
    assert value(pos, "space_supplied", "Belgrade", "ap")
    pos.control("Cambrai", "cp")
    assert not value(pos, "space_supplied", "Cambrai", "cp")


# ------------------------------------------------------------------ 9.2.7.1, 9.5.3.5


@pytest.mark.rule("9.2.7.1")
def test_9_2_7_1_only_british_and_australian_corps_and_the_mef_use_the_beachhead():
    """With the MEF Beachhead on MEF1 (an Allied port while it stands), a
    British corps there is supplied -- only through the Beachhead -- and a
    French corps is not."""
    pos = Position()
    at_war(pos, "tu")
    pos.set("mef_beachhead", "MEF1")
    br = pos.place("BRc", "MEF1")
    fr = pos.place("FRc", "MEF1")
    assert supplied(pos, br)
    assert value(pos, "supplied_only_by_beach", br)
    assert not supplied(pos, fr)


@pytest.mark.rule("9.5.2.4")
def test_9_5_2_4_neutral_greek_units_block_supply_paths():
    """After the Salonika landing Greece is open, but a space holding a Greek
    unit (Greece still neutral) carries no supply for either side."""
    pos = Position()
    pos.s["played"].append(pos.entity("card", "Salonika").index)
    pos.game.invalidate()
    assert value(pos, "supply_path_open", "Larisa", "ap")
    pos.place("GRc", "Larisa")
    assert not value(pos, "supply_path_open", "Larisa", "ap")


def test_14_1_2_the_open_spaces_of_a_side_are_the_spaces_a_path_may_cross():
    """`supply_open_spaces(p)` writes out the test of `supply_path_open(s, p)`
    for the whole map, and the sources are read from it: along a game, a
    space is in the list exactly when a path of the side may cross it."""
    from .harness import check_along_a_game, world

    w = world()

    def compare(game, p):
        listed = set(B.value_of(game, "supply_open_spaces", (p,)))
        for s in w.spaces:
            assert (s in listed) == bool(B.value_of(game, "supply_path_open", (s, p))), (s.key, p.key)

    assert check_along_a_game(w, 11, compare) >= 8
