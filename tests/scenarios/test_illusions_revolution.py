"""The Russian Revolution (IoG 23.4, 6.0.F.2) and national collapse with the
moving Armistice marker (IoG 23.5, 17.3.2, 6.0.E.4, 26.2.3, 26.5.3, 26.6.2) of
the illusions variant, checked against the IoG rules text; and the scripted
game tests/fixtures/illusions/revolution_game.txt, replayed.

Uprisings (package 2, on the hostile side of package 1) are not in this branch
yet: the tests that need an uprising in Russia use the fixture scenario
revolution_game.pog, whose stand-in uprising is a unit of no side."""

from __future__ import annotations

import sys
from functools import lru_cache
from pathlib import Path

import pytest

from pogdsl.runtime.interpreter import Game

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.harness import ROOT, Position  # noqa: E402
from rules.test_scenarios import run_turn_from  # noqa: E402

FIXTURE = ROOT / "tests" / "fixtures" / "illusions"
AH_VP = ["Trent", "Trieste", "Vienna", "Budapest", "Debrecen", "Cracow", "Lemberg", "Czernowitz", "Cluj"]
RU_ARMIES = [f"RU {i}" for i in range(1, 13)]


@lru_cache(maxsize=None)
def _fixture_world():
    from pogdsl.opening import open_scenario

    return open_scenario(str(FIXTURE / "revolution_game.pog"), ROOT).world


class FixturePosition(Position):
    """A Position on the fixture scenario (the illusions variant plus a
    stand-in uprising unit, 'RU Uprising')."""

    def __init__(self, empty: bool = True):
        self.w = _fixture_world()
        self.game = Game.new(self.w, seed=0)
        self.s = self.game.s
        self.asked = []
        if empty:
            self.clear_board()


def revolution_at(pos: Position, stage: int, began: int, turn: int) -> None:
    pos.set("revolution_stage", stage)
    pos.set("revolution_turn", began)
    pos.s["turn"] = turn
    pos.game.invalidate()


# ------------------------------------------------------------ 23.4.1 timing
@pytest.mark.rule("iog 23.4.1")
@pytest.mark.rule("16.4.5")
def test_fall_of_the_tsar_puts_the_marker_one_turn_ahead():
    pos = Position("illusions")
    pos.s["turn"] = 9
    pos.run("fall_of_the_tsar")
    assert pos.var("revolution_turn") == 10
    assert pos.var("revolution_stage") == -1          # not begun yet: it begins when turn 10 starts
    assert pos.var("russian_capitulation") == "tsar_fell"   # PoG's 16.4 track moves as in the Campaign


@pytest.mark.rule("iog 23.4.1")
def test_the_campaign_has_no_revolution():
    pos = Position("campaign")
    pos.run("fall_of_the_tsar")
    assert "revolution_turn" not in pos.s["vars"]


# ------------------------------------------------------------ 23.4.2 stages
@pytest.mark.rule("iog 23.4.2")
@pytest.mark.rule("iog 6.0.F.2")
def test_a_stage_each_later_phase_while_an_uprising_stands_in_russia():
    pos = FixturePosition()
    pos.place("RU Uprising", "Orsha")
    revolution_at(pos, 0, began=5, turn=6)
    pos.run("revolution_check")
    assert pos.var("revolution_stage") == 1
    pos.s["turn"] = 7
    pos.run("revolution_check")
    assert pos.var("revolution_stage") == 2


@pytest.mark.rule("iog 23.4.2")
@pytest.mark.rule("iog 6.0.F.2")
def test_no_stage_in_the_turn_the_revolution_begins():
    pos = FixturePosition()
    pos.place("RU Uprising", "Orsha")
    revolution_at(pos, 0, began=5, turn=5)
    pos.run("revolution_check")
    assert pos.var("revolution_stage") == 0


@pytest.mark.rule("iog 23.4.2")
def test_no_stage_without_an_uprising_in_russia():
    pos = FixturePosition()
    revolution_at(pos, 1, began=5, turn=7)
    pos.run("revolution_check")
    assert pos.var("revolution_stage") == 1
    pos.place("RU Uprising", "Orsha")
    pos.run("revolution_check")
    assert pos.var("revolution_stage") == 2


@pytest.mark.rule("iog 23.4.2")
def test_no_revolution_no_stage():
    pos = FixturePosition()
    pos.place("RU Uprising", "Orsha")
    pos.s["turn"] = 8
    pos.run("revolution_check")
    assert pos.var("revolution_stage") == -1


@pytest.mark.rule("iog 23.4.2")
def test_stage_4_is_the_last():
    pos = FixturePosition()
    pos.place("RU Uprising", "Orsha")
    revolution_at(pos, 4, began=5, turn=12)
    pos.run("revolution_check")
    assert pos.var("revolution_stage") == 4


@pytest.mark.rule("iog 23.4.2")
def test_stage_1_no_card_for_russian_reinforcements():
    pos = Position("illusions")
    ru_card, fr_card = "Russian Reinforcements (2 corps)", "French Reinforcements (FR 10)"
    rule = "no_russian_reinforcements_in_revolution"
    assert rule not in pos.event_forbidden_by("ap", ru_card)
    revolution_at(pos, 0, began=3, turn=3)
    assert rule not in pos.event_forbidden_by("ap", ru_card)
    revolution_at(pos, 1, began=3, turn=4)
    assert rule in pos.event_forbidden_by("ap", ru_card)
    assert rule in pos.event_forbidden_by("ap", "Russian Reinforcements (RU 11)")
    assert rule not in pos.event_forbidden_by("ap", fr_card)


@pytest.mark.rule("iog 23.4.2")
@pytest.mark.rule("16.4.7")
def test_stage_2_russian_rps_are_not_gathered():
    def replacement_log(stage: int) -> list[str]:
        pos = Position("illusions")
        revolution_at(pos, stage, began=3, turn=6)
        pos.set("rp_points", 3, "ru")
        run_turn_from(pos, "replacement", 6)
        return pos.log()

    assert any("Russian RPs are lost" in line for line in replacement_log(2))
    assert not any("Russian RPs are lost" in line for line in replacement_log(1))


@pytest.mark.rule("iog 23.4.2")
def test_stage_3_full_russian_armies_lose_a_step():
    pos = FixturePosition()
    pos.place("RU Uprising", "Orsha")
    ru1 = pos.place("RU 1", "Warsaw")
    ru2 = pos.place("RU 2", "Kiev", reduced=True)
    ruc = pos.place("RUc", "Riga")
    ge1 = pos.place("GE 1", "Berlin")
    revolution_at(pos, 2, began=3, turn=6)
    pos.run("revolution_check")
    assert pos.var("revolution_stage") == 3
    assert pos.reduced(ru1.index)
    assert pos.reduced(ru2.index) and pos.units_at("Kiev") == ["RU 2"]   # already reduced: not hit again
    assert not pos.reduced(ruc.index)                                    # corps are not LCUs
    assert not pos.reduced(ge1.index)


@pytest.mark.rule("iog 23.4.2")
def test_stage_4_armies_give_way_to_corps():
    """Each Russian army on the map goes to the replaceable units box and a
    full-strength Russian corps from the Reserve Box takes its space; with
    too few corps, the Allied player says which army's space keeps one, and
    the others just go."""
    pos = FixturePosition()
    pos.place("RU Uprising", "Orsha")
    pos.place("RU 1", "Warsaw")
    pos.place("RU 2", "Kiev", reduced=True)
    pos.place("RUc", "Riga")
    corps = pos.place("RUc", "reserve[ap]", reduced=True)
    revolution_at(pos, 3, began=3, turn=7)
    pos.run("revolution_check", answers=["a corps takes the place of RU 2 in Kiev"])
    assert pos.var("revolution_stage") == 4
    assert [set(o) for o in (d.options for d in pos.asked)] == [{"a corps takes the place of RU 1 in Warsaw",
                                                                "a corps takes the place of RU 2 in Kiev"}]
    assert pos.units_at("Kiev") == ["RUc"]
    assert not pos.reduced(corps.index)                    # placed at full strength
    assert pos.units_at("Warsaw") == []                    # no corps left: the army just goes
    assert pos.units_at("Riga") == ["RUc"]                 # corps on the map stay
    assert sorted(pos.units_at("eliminated[ap]")) == ["RU 1", "RU 2"]


@pytest.mark.rule("iog 23.4.2")
def test_stage_4_with_corps_for_every_army_asks_nothing():
    pos = FixturePosition()
    pos.place("RU Uprising", "Orsha")
    pos.place("RU 1", "Warsaw")
    pos.place("RU 2", "Kiev")
    pos.place("RUc", "reserve[ap]")
    pos.place("RUc", "eliminated[ap]", reduced=True)       # the replaceable units box counts too
    revolution_at(pos, 3, began=3, turn=7)
    pos.run("revolution_check")
    assert pos.asked == []
    assert pos.units_at("Warsaw") == ["RUc"] and pos.units_at("Kiev") == ["RUc"]
    assert sorted(pos.units_at("eliminated[ap]")) == ["RU 1", "RU 2"]


def serbia_standing() -> Position:
    """An empty board of the variant but for a Serbian army in Valjevo: with
    no Serbian army in Serbia or Montenegro, Serbia would collapse at the
    first check (IoG 26.6.2a(2))."""
    pos = Position("illusions")
    pos.place("SB 1", "Valjevo")
    return pos


# ------------------------------------------------------------ 17.3.2, 6.0.E.4 armistice
@pytest.mark.rule("iog 17.3.2")
@pytest.mark.rule("16.2.1")
def test_armistice_when_combined_war_status_reaches_the_marker():
    pos = serbia_standing()
    pos.set("war_status", 18, "ap")
    pos.set("war_status", 18, "cp")
    pos.run("check_armistice")
    assert pos.s["result"] is None                         # 36 < 40
    pos.set("armistice_marker", 36)
    pos.run("check_armistice")
    assert pos.s["result"] is not None and "Armistice marker" in pos.s["result"]["reason"]


@pytest.mark.rule("iog 6.0.E.4")
def test_collapse_is_checked_in_the_war_status_phase_after_the_armistice():
    """The step-4 check runs in the war status phase, after step 2's armistice
    check: a collapse found in turn N lowers the marker for turn N+1's check."""
    pos = serbia_standing()
    pos.set("war_status", 18, "ap")
    pos.set("war_status", 18, "cp")
    _ap_in_every_ah_vp_space(pos)
    run_turn_from(pos, "war_status_phase", 6)
    assert pos.var("collapsed", "ah") is True and pos.var("armistice_marker") == 36
    assert not pos.game.over                               # step 2 came before the collapse: no armistice yet
    pos.s["pending"] = None                                # leave the next turn's first decision unanswered
    run_turn_from(pos, "war_status_phase", 7)
    assert pos.game.over and "Armistice marker" in pos.s["result"]["reason"]


@pytest.mark.rule("16.2.1")
def test_the_campaign_keeps_its_armistice_at_40():
    pos = Position("campaign")
    pos.set("war_status", 18, "ap")
    pos.set("war_status", 18, "cp")
    pos.run("check_armistice")
    assert pos.s["result"] is None and "armistice_marker" not in pos.s["vars"]
    assert "national_collapse" not in (ROOT / "rules" / "06-sequence-of-play.pog").read_text()


# ------------------------------------------------------------ 23.5 Austria-Hungary
def _ap_in_every_ah_vp_space(pos: Position, but: str | None = None):
    for army, space in zip(RU_ARMIES, AH_VP):
        if space != but:
            pos.place(army, space)
        pos.control(space, "ap")


@pytest.mark.rule("iog 23.5")
@pytest.mark.rule("iog 17.3.2")
def test_austria_hungary_collapses_when_every_vp_space_is_occupied():
    pos = serbia_standing()
    _ap_in_every_ah_vp_space(pos)
    ah1 = pos.place("AH 1", "Dresden")
    ahc = pos.place("AHc", "Berlin")
    pos.run("check_national_collapse")
    assert pos.var("collapsed", "ah") is True
    assert pos.var("armistice_marker") == 36
    assert pos.units_at("Dresden") == [] and pos.units_at("Berlin") == []
    assert sorted(pos.units_at("removed[cp]")) == ["AH 1", "AHc"]
    assert "no_reinforcements_after_collapse" in pos.event_forbidden_by("cp", "Austria-Hungary Reinforcements (AH 7)")
    pos.run("check_national_collapse")                     # permanent, and counted once
    assert pos.var("armistice_marker") == 36


@pytest.mark.rule("iog 23.5")
def test_a_vp_space_controlled_but_empty_does_not_count():
    pos = serbia_standing()
    _ap_in_every_ah_vp_space(pos, but="Vienna")
    pos.run("check_national_collapse")
    assert pos.var("collapsed", "ah") is False
    assert pos.var("armistice_marker") == 40


@pytest.mark.rule("iog 23.5")
def test_a_central_powers_unit_in_a_vp_space_prevents_the_collapse():
    pos = serbia_standing()
    _ap_in_every_ah_vp_space(pos, but="Vienna")
    pos.place("AH 1", "Vienna")
    pos.run("check_national_collapse")
    assert pos.var("collapsed", "ah") is False


@pytest.mark.rule("iog 23.5")
def test_after_the_collapse_no_austro_hungarian_reinforcements():
    pos = serbia_standing()
    card = "Austria-Hungary Reinforcements (AH 7)"
    assert "no_reinforcements_after_collapse" not in pos.event_forbidden_by("cp", card)
    pos.set("collapsed", True, "ah")
    assert "no_reinforcements_after_collapse" in pos.event_forbidden_by("cp", card)
    assert "no_reinforcements_after_collapse" not in pos.event_forbidden_by("cp", "German Reinforcements (GE 9)")


@pytest.mark.rule("iog 23.5")
@pytest.mark.rule("7.1.1")
def test_after_the_collapse_no_austro_hungarian_mandated_offensive():
    def owed_after_mo_phase(collapsed: bool):
        pos = serbia_standing()
        pos.set("collapsed", collapsed, "ah")
        pos.set("mo_marker", "ah", "cp")
        pos.s["stack"] = []
        pos.game.emit("phase_ended", (pos.w.names["mandated_offensive"],))
        pos.game.run()
        return pos.var("mo_marker", "cp")

    assert owed_after_mo_phase(False) == "ah"
    assert owed_after_mo_phase(True) is None


# ------------------------------------------------------------ 26.x minor nations
@pytest.mark.rule("iog 26.6.2")
@pytest.mark.rule("iog 17.3.2")
def test_serbian_collapse_moves_the_marker_once():
    pos = serbia_standing()
    pos.control("Belgrade", "cp")
    pos.run("check_national_collapse")
    assert pos.var("armistice_marker") == 38
    pos.control("Belgrade", "ap")
    pos.run("check_national_collapse")
    pos.control("Belgrade", "cp")
    pos.run("check_national_collapse")
    assert pos.var("armistice_marker") == 38               # only once a game


@pytest.mark.rule("iog 26.5.3")
def test_romanian_collapse_needs_both_vp_spaces():
    pos = serbia_standing()
    pos.control("Bucharest", "cp")
    pos.run("check_national_collapse")
    assert pos.var("armistice_marker") == 40
    pos.control("Ploesti", "cp")
    pos.run("check_national_collapse")
    assert pos.var("armistice_marker") == 38


@pytest.mark.rule("iog 26.2.3")
def test_bulgarian_collapse_when_the_allies_hold_sofia():
    pos = serbia_standing()
    pos.control("Sofia", "ap")
    pos.run("check_national_collapse")
    assert pos.var("armistice_marker") == 37


@pytest.mark.rule("iog 17.3.2")
def test_collapses_add_up():
    pos = serbia_standing()
    pos.control("Belgrade", "cp")
    pos.control("Sofia", "ap")
    _ap_in_every_ah_vp_space(pos)
    pos.run("check_national_collapse")
    assert pos.var("armistice_marker") == 40 - 2 - 3 - 4


# ------------------------------------------------------------ the scripted game
@pytest.mark.rule("iog 23.4.1")
@pytest.mark.rule("iog 23.4.2")
@pytest.mark.rule("iog 23.5")
@pytest.mark.rule("iog 17.3.2")
def test_the_scripted_game_replays():
    """`pogdsl replay tests/fixtures/illusions/revolution_game.txt`: every
    stage and the collapse happen at the turn the rules say (its `expect`
    lines), to the same final state."""
    import os

    from pogdsl.runtime.record import read_script, replay_script

    here = os.getcwd()
    os.chdir(ROOT)
    try:
        session = replay_script(read_script(FIXTURE / "revolution_game.txt"))
    finally:
        os.chdir(here)
    assert session.game.over
    assert session.game.s["vars"]["revolution_stage"] == 4
    assert session.game.s["vars"]["armistice_marker"] == 36
