"""Illusions of Glory rules of the illusions variant that limit what a nation
gets from home, and how uprisings are fought (scenarios/illusions/).

The oracle is the Illusions of Glory rulebook (cited `iog N`):
- 3.2.1f.2 and the fire-table step of the combat sequence (12.2, step 2d):
  whoever attacks uprising units fires on the Light Fire Table (PoG's
  Corps/Fort table), armies or not.
- 15.4: Russia gets no reinforcements while an enemy combat unit or a Russian
  uprising stands in Petrograd; Germany none while one stands in Berlin;
  Austria-Hungary none while both Vienna and Budapest are so occupied.
- 16.3: when enemy combat units or uprisings occupy every supply source of a
  nation in the Replacement Phase, no RP rebuilds that nation's units.
- 26.6.2a: Serbia collapses when the Central Powers hold its VP spaces, or
  when no Serbian army is left in Serbia or Montenegro.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from pogdsl.runtime.errors import IllegalOption

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.harness import Position, Unanswered  # noqa: E402
from scenarios.test_illusions_will import illusions  # noqa: E402


def control(pos: Position, space: str):
    return pos.s["control"][pos.entity("space", space).index]


def rising(pos: Position, kind: str, space: str) -> None:
    """An uprising of `kind` ('RU', 'GE', 'AH') from the pool stands in the
    space and holds it, as its placement leaves it."""
    pool = pos._location("uprising_pool")
    u = next(u for u in pos.w.units if u.key == f"{kind} Uprising" and pos.s["loc"][u.index] == pool)
    pos.game.move_unit(u, pos._location(space))
    pos.control(space, "rebels")


# ------------------------------------------------------------ 3.2.1f.2: the light table against uprisings
@pytest.mark.rule("iog 3.2.1")
@pytest.mark.rule("iog 12.2")
def test_an_army_attacking_an_uprising_fires_on_the_light_table():
    """The Russian 3rd Army attacks an Austro-Hungarian uprising in Lemberg:
    an army would fire on the Army (heavy) table, but an attack on an uprising
    fires on the Corps/Fort (light) table; the uprising, a small unit, fires
    on it too."""
    pos = illusions()
    pos.place("RU 3", "Lutsk")
    rising(pos, "AH", "Lemberg")
    pos.activate("Lutsk", "attack")
    with pytest.raises(Unanswered):
        pos.run("resolve_attacks", "ap", answers=["attack Lemberg from Lutsk"], dice=[1, 1])
    log = pos.log()
    assert any(line.startswith("ap fires with strength 3 on the Corps/Fort table") for line in log), log
    assert any(line.startswith("rebels fires with strength 1 on the Corps/Fort table") for line in log), log


@pytest.mark.rule("iog 3.2.1")
def test_the_same_army_against_a_corps_fires_on_the_army_table():
    """The light table is for uprisings only: against a Central Powers corps
    the 3rd Army fires on the Army table as in the Campaign."""
    pos = illusions()
    pos.place("RU 3", "Lutsk")
    pos.place("AHc", "Lemberg")
    pos.activate("Lutsk", "attack")
    with pytest.raises(Unanswered):
        pos.run("resolve_attacks", "ap", answers=["attack Lemberg from Lutsk"], dice=[1, 1])
    assert any(line.startswith("ap fires with strength 3 on the Army table") for line in pos.log())


# ------------------------------------------------------------ 15.4: reinforcements and capitals
RULE_15_4 = "no_reinforcements_while_the_capital_is_occupied"


@pytest.mark.rule("iog 15.4")
def test_no_russian_reinforcements_while_petrograd_is_occupied():
    pos = illusions()
    card = "Russian Reinforcements (RU 11)"
    assert RULE_15_4 not in pos.event_forbidden_by("ap", card)
    rising(pos, "RU", "Petrograd")
    assert RULE_15_4 in pos.event_forbidden_by("ap", card)
    assert RULE_15_4 not in pos.event_forbidden_by("ap", "French Reinforcements (FR 10)")

    pos = Position("illusions")
    pos.place("GEc", "Petrograd")
    assert RULE_15_4 in pos.event_forbidden_by("ap", card)


@pytest.mark.rule("iog 15.4")
def test_no_german_reinforcements_while_berlin_is_occupied():
    pos = Position("illusions")
    card = "German Reinforcements (GE 9)"
    assert RULE_15_4 not in pos.event_forbidden_by("cp", card)
    pos.place("RUc", "Berlin")
    assert RULE_15_4 in pos.event_forbidden_by("cp", card)
    assert RULE_15_4 not in pos.event_forbidden_by("cp", "Austria-Hungary Reinforcements (AH 7)")


@pytest.mark.rule("iog 15.4")
def test_austria_hungary_loses_its_reinforcements_only_when_vienna_and_budapest_are_occupied():
    pos = illusions()
    card = "Austria-Hungary Reinforcements (AH 7)"
    pos.place("RUc", "Vienna")
    assert RULE_15_4 not in pos.event_forbidden_by("cp", card)
    rising(pos, "AH", "Budapest")
    assert RULE_15_4 in pos.event_forbidden_by("cp", card)


@pytest.mark.rule("iog 15.4")
def test_a_capital_held_by_its_own_side_allows_reinforcements():
    """Berlin with German units in it is not occupied by the enemy."""
    pos = Position("illusions")
    pos.place("GEc", "Berlin")
    assert RULE_15_4 not in pos.event_forbidden_by("cp", "German Reinforcements (GE 9)")


# ------------------------------------------------------------ 16.3: RPs and supply sources
def rebuild_a_german_corps(pos: Position) -> None:
    pos.game.ask_forced = True
    pos.place("GEc", "eliminated[cp]")
    pos.set("rp_points", 1, key="ge")
    pos.run("replacement_segment", "cp", answers=["rebuild GEc in eliminated[cp]", "end replacements"])


@pytest.mark.rule("iog 16.3")
def test_no_rps_for_germany_while_enemies_occupy_every_one_of_its_sources():
    """With Bulgaria and Turkey neutral, Sofia and Constantinople supply
    nobody: Essen and Breslau are the German sources.  An Allied corps in
    one and a German uprising in the other: no German unit is rebuilt."""
    pos = illusions()
    pos.place("FRc", "Essen")
    rising(pos, "GE", "Breslau")
    with pytest.raises(IllegalOption) as err:
        rebuild_a_german_corps(pos)
    assert "iog 16.3" in err.value.rules
    assert "no_rps_while_every_source_is_occupied" in err.value.message


@pytest.mark.rule("iog 16.3")
def test_one_source_left_free_is_enough_for_rps():
    pos = illusions()
    pos.place("FRc", "Essen")
    rebuild_a_german_corps(pos)
    assert pos.units_at("reserve[cp]") == ["GEc"]


@pytest.mark.rule("iog 16.3")
def test_a_source_of_a_nation_at_war_counts_as_a_free_source():
    """Once Turkey is at war Constantinople supplies the Central Powers too:
    with Essen and Breslau occupied the Germans may still rebuild."""
    pos = illusions()
    pos.s["at_war"]["tu"] = True
    pos.place("FRc", "Essen")
    pos.place("RUc", "Breslau")
    rebuild_a_german_corps(pos)
    assert pos.units_at("reserve[cp]") == ["GEc"]


# ------------------------------------------------------------ 26.6.2: Serbia's collapse
@pytest.mark.rule("iog 26.6.2")
@pytest.mark.rule("iog 17.3.2")
def test_serbia_collapses_when_no_serbian_army_is_left_in_serbia_or_montenegro():
    pos = Position("illusions")
    pos.place("SB 1", "Valjevo")
    pos.run("check_national_collapse")
    assert pos.var("armistice_marker") == 40
    assert pos.var("collapsed", "sb") is False

    pos = Position("illusions")
    pos.place("SB 1", "Salonika")  # out of Serbia and Montenegro
    pos.place("SBc", "Nis")        # corps do not hold Serbia up
    pos.run("check_national_collapse")
    assert pos.var("collapsed", "sb") is True
    assert pos.var("armistice_marker") == 38
    assert control(pos, "Belgrade") == "ap"


# ------------------------------------------------------------ the docs name the Campaign's VP spaces
def test_the_page_names_the_home_vp_spaces_the_variant_reads():
    """docs/illusions.rst lists each nation's home VP spaces as the variant
    reads them on the Campaign's map (Deluxe 5.5 moves some VP marks)."""
    from pogdsl.runtime import builtins as B
    from rules.harness import ROOT

    text = " ".join((ROOT / "docs" / "illusions.rst").read_text(encoding="utf-8").split())
    pos = Position("illusions")
    spaces = {n: [s.key for s in B.value_of(pos.game, "home_vp_spaces", (pos.w.by_kind["nation"][n],))]
              for n in ("ru", "ge", "ah")}
    ru = spaces["ru"]
    assert f"Russia has {', '.join(ru[:-1])} and {ru[-1]};" in text
    words = {9: "nine", 11: "eleven"}
    ge, ah = spaces["ge"], spaces["ah"]
    assert f"Germany {words[len(ge)]} spaces from {ge[0]} to {ge[-1]}" in text
    assert f"Austria-Hungary {words[len(ah)]}, from {ah[0]} to {ah[-1]}." in text
