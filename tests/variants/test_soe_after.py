"""Suicide of Europe rules 12.5 (retreats), 12.7 (advance), 13.1 (strategic
and tactical redeployment) and the optional 11.3.4 / 11.3.5: each test plays
the same position in the Campaign (Paths of Glory Deluxe) and in
`suicide_of_europe`, and asserts Deluxe's behaviour in one and SoE's in the
other, as the two rulebooks state them."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pogdsl.compiler import scenario_graph  # noqa: E402
from pogdsl.runtime.errors import IllegalOption  # noqa: E402
from pogdsl.runtime.interpreter import Game  # noqa: E402
from rules.harness import ROOT, Position, Unanswered  # noqa: E402
from rules.test_combat import activate_attack, control, set_combat, set_losses, where  # noqa: E402

SOE = "suicide_of_europe"
BOTH = ["campaign", SOE]
CP_SR4 = "Guns of August"   # SR 4
CP_SR2 = "Landwehr"         # SR 2


def won_by(pos: Position, attacker: str, attacker_loss: int, defender_loss: int) -> None:
    defender = "ap" if attacker == "cp" else "cp"
    pos.set("combat_winner", attacker)
    set_losses(pos, **{attacker: attacker_loss, defender: defender_loss})


def questions(pos: Position, procedure: str, *args, answers=()):
    """Run a procedure until it asks a question no answer is left for; the
    decisions asked."""
    try:
        pos.run(procedure, *args, answers=answers)
    except Unanswered:
        pass
    return pos.asked


def options(pos: Position, choice: str) -> list[str]:
    return [o for d in pos.asked if d.choice == choice for o in d.options]


_worlds: dict = {}


def position_with(scenario: str, **opts) -> Position:
    """An empty position of a scenario played with some options set."""
    from pogdsl.runtime.world import build_world

    key = (scenario, tuple(sorted(opts.items())))
    if key not in _worlds:
        comp, graph = scenario_graph(scenario, root=ROOT)
        _worlds[key] = build_world(comp.scenarios[scenario][0], graph, options=opts)
    pos = Position(scenario)
    pos.w = _worlds[key]
    pos.game = Game.new(pos.w)
    pos.s = pos.game.s
    pos.clear_board()
    return pos


def sr(pos: Position, side: str, card: str, answers) -> None:
    pos.run("play_for_redeployment", side, pos.entity("card", card), answers=answers)


# =================================================================== 12.5 retreats

@pytest.mark.rule("soe 12.5.3")
@pytest.mark.rule("12.5.3")
@pytest.mark.parametrize("scenario", BOTH)
def test_12_5_3_an_intact_friendly_fort_lets_the_defender_cancel_the_retreat(scenario):
    """SoE 12.5.3 adds intact friendly forts to the places where defenders may
    cancel a retreat with one more step loss; Deluxe 12.5.3 lists only
    trenches and rough terrain.  Two German corps in Strasbourg (clear, German
    fort, no trench) lose to a French attack from Nancy."""
    pos = Position(scenario)
    fr = pos.place("FR 1", "Nancy")
    a = pos.place("GE 1", "Strasbourg")
    b = pos.place("GE 2", "Strasbourg")
    pos.set("trench", 0, key="Strasbourg")
    set_combat(pos, "ap", "Strasbourg", attackers=[fr], defenders=[a, b], sources=["Nancy"])
    won_by(pos, "ap", 0, 2)
    first = questions(pos, "defender_retreat", "cp")[0]
    if scenario == SOE:
        assert first.choice == "stand_fast"
        assert "retreat" in first.options
    else:
        assert first.choice == "retreat_path"


def kiev(pos: Position, defender: str, chernigov: str = "GEc"):
    """SoE 12.5.5's example: Zhitomir and Belaya Tserkov held by the Central
    Powers, Chernigov by the Central Powers too (or by a Russian corps, with
    Gomel behind it held by the Central Powers), a supplied Russian corps in
    the To Kharkov box, the defender in Kiev beaten by two: a two-space
    retreat."""
    ge = pos.place("GE 8", "Zhitomir")
    pos.place("AHc", "Belaya Tserkov")
    for s in ("Zhitomir", "Belaya Tserkov"):
        pos.control(s, "cp")
    pos.place(chernigov, "Chernigov")
    if chernigov == "GEc":
        pos.control("Chernigov", "cp")
    else:
        pos.place("GEc", "Gomel")
        pos.control("Gomel", "cp")
    pos.place("RUc", "Kharkov")
    d = pos.place(defender, "Kiev")
    set_combat(pos, "cp", "Kiev", attackers=[ge], defenders=[d], sources=["Zhitomir"])
    won_by(pos, "cp", 0, 2)
    pos.game.ask_forced = True
    return d


@pytest.mark.rule("soe 12.5.3")
@pytest.mark.rule("12.5.3")
@pytest.mark.parametrize("scenario", BOTH)
def test_12_5_3_a_two_space_retreat_may_end_in_a_first_space_with_friendly_supplied_units(scenario):
    """SoE 12.5.3 (last paragraph): the first space of a two-space retreat that
    holds friendly units in supply may end the retreat there, with no extra
    loss.  A Russian corps in Kiev can go only to Chernigov (a supplied
    Russian corps there, Gomel beyond held by the enemy) or the To Kharkov box
    (nothing beyond): Deluxe eliminates it (12.5.4); SoE lets it stop in
    Chernigov."""
    pos = Position(scenario)
    ru = kiev(pos, "RU 1", chernigov="RUc")
    pos.run("defender_retreat", "ap", answers=["RU 1 retreats to Chernigov"])
    if scenario == SOE:
        assert options(pos, "retreat_path") == ["RU 1 retreats to Chernigov"]
        assert where(pos, ru) == "Chernigov"
        assert any("after one space" in line for line in pos.log())
    else:
        assert where(pos, ru) == "removed[ap]"  # an army that cannot retreat is out for good


@pytest.mark.rule("soe 12.5.5")
@pytest.mark.rule("12.5.4")
@pytest.mark.parametrize("scenario", BOTH)
def test_12_5_5_russians_retreating_into_an_off_map_box_need_the_second_space(scenario):
    """SoE 12.5.5 and its example: Russian units whose two-space retreat goes
    first into an off-map box are eliminated when they cannot go on, even
    though the box holds a supplied Russian corps (the 12.5.3 relief is not
    theirs).  Same outcome as Deluxe."""
    pos = Position(scenario)
    ru = kiev(pos, "RU 1")
    pos.run("defender_retreat", "ap", answers=["RU 1 retreats to Kharkov"])
    assert where(pos, ru) == "removed[ap]"


@pytest.mark.rule("soe 12.5.3")
@pytest.mark.rule("12.5.3")
@pytest.mark.parametrize("scenario", BOTH)
def test_12_5_3_stopping_in_a_forest_is_a_choice_beside_the_second_spaces(scenario):
    """SoE 12.5.3: a forest as the first space of a two-space retreat may end
    it; Deluxe 12.5.3 forbids ignoring the second space.  A French corps in
    Cambrai beaten by two, Sedan (forest) among its first spaces."""
    pos = Position(scenario)
    ge = pos.place("GE 1", "Brussels")
    pos.control("Brussels", "cp")
    fr = pos.place("FRc", "Cambrai")
    set_combat(pos, "cp", "Cambrai", attackers=[ge], defenders=[fr], sources=["Brussels"])
    won_by(pos, "cp", 0, 3)
    if scenario == SOE:
        pos.run("defender_retreat", "ap", answers=["FRc retreats to Sedan"])
        assert "FRc retreats to Sedan" in options(pos, "retreat_path")
        assert where(pos, fr) == "Sedan"
    else:
        asked = questions(pos, "defender_retreat", "ap")
        assert all(" then " in o for o in asked[0].options)
        assert any(o.startswith("FRc retreats to Sedan then") for o in asked[0].options)


# =================================================================== 12.7 advance

@pytest.mark.rule("soe 12.7.1")
@pytest.mark.rule("soe 12.2.12")
@pytest.mark.rule("12.7.1")
@pytest.mark.parametrize("scenario", BOTH)
def test_12_7_1_reduced_attackers_advance_into_a_space_that_held_no_enemy_unit(scenario):
    """SoE 12.7.1 / 12.2.12: reduced attackers may advance too when the
    defending space held no enemy unit at the start of the attack.  Here an
    empty French fort space (Verdun) whose fort fell: Deluxe lets only the
    full-strength army advance."""
    pos = Position(scenario)
    full = pos.place("GE 1", "Metz")
    red = pos.place("GE 2", "Metz", reduced=True)
    pos.control("Verdun", "ap")
    set_combat(pos, "cp", "Verdun", attackers=[full, red], defenders=[], sources=["Metz"])
    pos.s["fort_destroyed"][pos.entity("space", "Verdun").index] = True
    if scenario == SOE:
        pos.set("attack_began_at_fort", True)  # as the attack's start left it (SoE 12.7.3)
    won_by(pos, "cp", 0, 3)
    asked = questions(pos, "attacker_advance", "cp")
    offered = asked[0].options
    assert "advance GE 1 into Verdun" in offered
    assert ("advance GE 2 into Verdun" in offered) is (scenario == SOE)


@pytest.mark.rule("soe 12.7.1")
@pytest.mark.rule("soe 12.7.2")
@pytest.mark.rule("12.7.1")
def test_12_7_1_reduced_attackers_stay_after_beating_defending_units():
    """SoE 12.7.1: after beating enemy units, as in Deluxe, reduced attackers
    do not advance; after a one-space retreat only the defending space is
    entered (SoE 12.7.2)."""
    for scenario in BOTH:
        pos = Position(scenario)
        full = pos.place("GE 9", "Thorn")
        red = pos.place("GE 10", "Thorn", reduced=True)
        ru = pos.place("RUc", "Brest Litovsk")  # retreated out of Lodz
        set_combat(pos, "cp", "Lodz", attackers=[full, red], defenders=[ru], sources=["Thorn"])
        pos.set("retreated_units", [ru])
        won_by(pos, "cp", 0, 1)
        asked = questions(pos, "attacker_advance", "cp")
        assert asked[0].options == ["advance GE 9 into Lodz", "stop advancing"], scenario


@pytest.mark.rule("soe 12.7.3")
@pytest.mark.rule("soe 12.7.4")
@pytest.mark.rule("12.7.3")
@pytest.mark.parametrize("scenario", BOTH)
def test_12_7_4_a_two_space_retreat_out_of_an_enemy_space_gives_a_one_space_advance(scenario):
    """Deluxe 12.7.3: after a two-space retreat the attacker may follow into
    the spaces the retreat went through.  SoE 12.7.4: the advance must stop on
    entering an enemy-controlled space, and the defending space (Lodz, Allied)
    is one: the advance ends there."""
    pos = Position(scenario)
    ge = pos.place("GE 9", "Thorn")
    ru = pos.place("RUc", "Brest Litovsk")  # went through Plock and on
    set_combat(pos, "cp", "Lodz", attackers=[ge], defenders=[ru], sources=["Thorn"])
    pos.set("retreated_units", [ru])
    pos.set("retreat_first_spaces", [pos.entity("space", "Plock")])
    won_by(pos, "cp", 0, 2)
    asked = questions(pos, "attacker_advance", "cp")
    if scenario == SOE:
        assert asked[0].options == ["advance GE 9 into Lodz", "stop advancing"]
    else:
        assert asked[0].options == ["advance GE 9 into Lodz", "advance GE 9 into Plock", "stop advancing"]


def unopposed_at(pos: Position, target: str, source: str, *units: str, oos=()):
    """A Central Powers attack from `source` on `target`, a space they hold with
    no enemy unit in it (SoE 12.2.1), won with no fire."""
    us = [pos.place(u, source) for u in units]
    pos.control(target, "cp")
    pos.control(source, "cp")
    set_combat(pos, "cp", target, attackers=us, defenders=[], sources=[source],
               oos=[u for u in us if u.key in oos])
    pos.set("combat_winner", "cp")
    return us


@pytest.mark.rule("soe 12.7.3")
@pytest.mark.rule("soe 12.7.4")
@pytest.mark.rule("soe 12.7.9")
@pytest.mark.rule("12.7.3")
@pytest.mark.parametrize("scenario", BOTH)
def test_12_7_3_through_an_empty_friendly_defending_space_the_advance_goes_two_spaces(scenario):
    """SoE 12.7.3, 12.7.4: when the defending space held no enemy unit nor
    unbesieged enemy fort, the advance may be of two spaces, first into the
    defending space (already friendly, so the unit goes on) and then into any
    space next to it the unit could move into; control changes where the
    advance ends (12.7.9).  Deluxe has no such combat: no advance is offered."""
    pos = Position(scenario)
    ge, = unopposed_at(pos, "Lodz", "Thorn", "GE 9")
    if scenario == SOE:
        pos.run("attacker_advance", "cp", answers=["advance GE 9 into Plock"])
        offered = pos.asked[0].options
        assert "advance GE 9 into Lodz" in offered and "advance GE 9 into Plock" in offered
        assert where(pos, ge) == "Plock"
        assert control(pos, "Plock") == "cp" and control(pos, "Lodz") == "cp"
    else:
        pos.run("attacker_advance", "cp")
        assert pos.asked == [] and where(pos, ge) == "Thorn"


@pytest.mark.rule("soe 12.7.4")
@pytest.mark.rule("12.7.3")
def test_12_7_4_forest_and_out_of_supply_units_stop_in_the_first_space():
    """SoE 12.7.4: advancing units stop upon entering a forest, and units out
    of supply stop in their first space, even when the defending space was
    friendly."""
    pos = Position(SOE)
    unopposed_at(pos, "Sedan", "Metz", "GE 4")
    assert questions(pos, "attacker_advance", "cp")[0].options == ["advance GE 4 into Sedan", "stop advancing"]

    pos = Position(SOE)
    unopposed_at(pos, "Lodz", "Thorn", "GE 9", oos=["GE 9"])
    assert questions(pos, "attacker_advance", "cp")[0].options == ["advance GE 9 into Lodz", "stop advancing"]


@pytest.mark.rule("soe 12.7.7")
@pytest.mark.rule("12.7.7")
@pytest.mark.parametrize("scenario", BOTH)
def test_12_7_7_antwerp_is_closed_to_a_central_powers_advance(scenario):
    """SoE 12.7.7 adds Antwerp to Amiens, Calais and Ostend: Central Powers
    units advance into it only as the defending space, after Race to the Sea
    or at War Status 4.  Deluxe: a German army following a two-space retreat
    out of Brussels may enter Antwerp.  SoE: after an attack on an empty
    German-held Brussels the army may go on, but not into Antwerp or Ostend
    until War Status 4."""
    pos = Position(scenario)
    if scenario == SOE:
        unopposed_at(pos, "Brussels", "Sedan", "GE 1")
        first = questions(pos, "attacker_advance", "cp")[0].options
        assert "advance GE 1 into Liege" in first
        assert "advance GE 1 into Antwerp" not in first and "advance GE 1 into Ostend" not in first
        pos = Position(scenario)
        unopposed_at(pos, "Brussels", "Sedan", "GE 1")
        pos.set("war_status", 4, key="cp")
        assert "advance GE 1 into Antwerp" in questions(pos, "attacker_advance", "cp")[0].options
    else:
        ge = pos.place("GE 1", "Sedan")
        pos.control("Sedan", "cp")
        be = pos.place("BEc", "Ostend")
        set_combat(pos, "cp", "Brussels", attackers=[ge], defenders=[be], sources=["Sedan"])
        pos.set("retreated_units", [be])
        pos.set("retreat_first_spaces", [pos.entity("space", "Antwerp")])
        won_by(pos, "cp", 0, 2)
        assert "advance GE 1 into Antwerp" in questions(pos, "attacker_advance", "cp")[0].options


@pytest.mark.rule("soe 12.7.6")
@pytest.mark.rule("12.7.6")
@pytest.mark.parametrize("scenario", BOTH)
def test_12_7_6_corps_advance_into_an_enemy_fort_space_they_besiege_together(scenario):
    """SoE 12.7.6 (a clarification): advancing units may enter a space holding
    only an intact enemy fort if they can besiege it together with the other
    units advancing from the same combat.  Two German corps beat the Belgian
    corps out of Liege (fort 3) with a third: the corps go in one after the
    other, and once the first is in, the others must follow (both games)."""
    pos = Position(scenario)
    gs = [pos.place("GEc", "Aachen") for _ in range(3)]
    pos.control("Aachen", "cp")
    be = pos.place("BEc", "Brussels")
    set_combat(pos, "cp", "Liege", attackers=gs, defenders=[be], sources=["Aachen"])
    pos.set("retreated_units", [be])
    won_by(pos, "cp", 0, 1)
    pos.game.ask_forced = True
    pos.run("attacker_advance", "cp", answers=["advance GEc into Liege", "advance GEc into Liege",
                                               "advance GEc into Liege"])
    assert pos.units_at("Liege") == ["GEc", "GEc", "GEc"]
    assert pos.asked[1].options == ["advance GEc into Liege"]  # the siege must be completed


# =================================================================== 13.1 redeployment

@pytest.mark.rule("soe 13.1.2")
@pytest.mark.rule("13.1.2")
@pytest.mark.parametrize("scenario", BOTH)
def test_13_1_2_an_army_costs_three_sr_points(scenario):
    """SoE 13.1.2: an army costs 3 SR points (Deluxe: 4).  A German army's SR
    from Essen to Breslau with a 4-SR card leaves one point in SoE."""
    pos = Position(scenario)
    pos.game.ask_forced = True
    pos.place("GE 1", "Essen")
    pos.place("GEc", "Berlin")
    if scenario == SOE:
        sr(pos, "cp", CP_SR4, ["redeploy GE 1", "overland to Breslau",
                               "redeploy GEc", "overland to Breslau", ])
        assert pos.units_at("Breslau") == ["GE 1", "GEc"]
    else:
        sr(pos, "cp", CP_SR4, ["redeploy GE 1 (full) from Essen for 4 SR", "overland to Breslau"])
        assert pos.units_at("Breslau") == ["GE 1"] and pos.units_at("Berlin") == ["GEc"]
        assert len([d for d in pos.asked if d.choice == "redeploy_unit"]) == 1


@pytest.mark.rule("soe 13.1.1")
@pytest.mark.rule("soe 13.1.2")
@pytest.mark.rule("soe 13.1.6")
@pytest.mark.rule("13.1.1")
def test_13_1_6_tactical_redeployment_costs_one_point_and_reaches_as_far_as_the_mf():
    """SoE 13.1.1, 13.1.2, 13.1.6: a tactical redeployment moves any unit, an
    army too, for one SR point, through friendly-controlled spaces no farther
    than its MF.  Deluxe has no such move."""
    pos = Position(SOE)
    pos.game.ask_forced = True
    army = pos.place("GE 1", "Essen")   # MF 3
    asked = questions(pos, "play_for_redeployment", "cp", pos.entity("card", CP_SR2),
                      answers=["redeploy GE 1"])
    to = asked[-1].options
    assert "tactical to Kassel" in to          # 1 space
    assert "tactical to Hannover" in to        # 2 spaces: Essen - Bremen - Hannover
    assert "tactical to Berlin" in to          # 3 spaces
    assert "tactical to Stettin" not in to     # 4 spaces away
    assert not any(o.startswith("overland") for o in to)  # 3 points: more than the card's 2
    pos = Position(SOE)
    pos.game.ask_forced = True
    army = pos.place("GE 1", "Essen")
    sr(pos, "cp", CP_SR2, ["redeploy GE 1", "tactical to Kassel", "end redeployment", "no operations"])
    assert where(pos, army) == "Kassel"
    # one point left after it: a second redeployment or operations were offered
    assert any(d.choice == "sr_to_operations" for d in pos.asked)


@pytest.mark.rule("13.1.1")
def test_13_1_1_the_campaign_has_no_tactical_mode():
    """Deluxe 13.1.1: SR moves units overland, by sea or to and from the
    Reserve Box only; an army costs 4, more than a 2-SR card."""
    pos = Position("campaign")
    pos.game.ask_forced = True
    pos.place("GE 1", "Essen")
    pos.place("GEc", "Berlin")
    asked = questions(pos, "play_for_redeployment", "cp", pos.entity("card", CP_SR2),
                      answers=["redeploy GEc (full) from Berlin for 1 SR"])
    assert not any(o.startswith("tactical") for o in asked[-1].options)
    assert not any(o.startswith("redeploy GE 1") for o in asked[0].options)


@pytest.mark.rule("soe 13.1.2")
@pytest.mark.rule("13.1.2")
def test_13_1_2_sr_points_left_pay_for_operations_the_redeployed_units_sit_out():
    """SoE 13.1.2: after at least one SR move, up to two points left may
    activate spaces, under the ordinary rules; units that redeployed into an
    activated space neither move nor attack in that action.  A German army
    redeploys to Breslau (3 of 4 points), the last point activates Breslau for
    movement: only the corps already there may move."""
    pos = Position(SOE)
    pos.game.ask_forced = True
    army = pos.place("GE 1", "Essen")
    corps = pos.place("GEc", "Breslau")
    asked = questions(pos, "play_for_redeployment", "cp", pos.entity("card", CP_SR4), answers=[
        "redeploy GE 1", "overland to Breslau", "end redeployment",
        "spend 1 SR points on operations", "activate Breslau move"])
    assert where(pos, army) == "Breslau"
    order = [d for d in asked if d.choice == "order_units"][-1].options
    assert any("GEc" in o for o in order)
    assert not any("GE 1" in o for o in order)
    del corps


@pytest.mark.rule("soe 13.1.9")
@pytest.mark.rule("soe 13.1.8")
@pytest.mark.rule("13.1.9")
@pytest.mark.parametrize("scenario", BOTH)
def test_13_1_9_only_supplied_corps_go_to_the_reserve_box(scenario):
    """SoE 13.1.9 (a clarification): supplied corps may SR from the map to the
    Reserve Box; an out-of-supply corps may not redeploy at all (13.1.5) —
    the same in both games."""
    pos = Position(scenario)
    pos.game.ask_forced = True
    pos.place("GEc", "Berlin")
    asked = questions(pos, "play_for_redeployment", "cp", pos.entity("card", CP_SR2),
                      answers=["redeploy GEc"])
    assert "to_reserve" in asked[-1].options


@pytest.mark.rule("soe 13.1.11")
@pytest.mark.rule("13.1.11")
def test_13_1_11_the_dutch_corps_may_use_the_reserve_box_with_its_capital_lost():
    """SoE 13.1.11: like the Belgian and Serbian units, the Dutch corps is not
    held back by an enemy-held capital.  The Dutch pieces come with the
    movement rule set (Holland); before it is merged there is none to test."""
    pos = Position(SOE)
    if "nl" not in pos.w.by_kind["nation"]:
        pytest.skip("Holland and the Dutch corps are added by the movement rule set (not merged yet)")
    capitals = [s for s in pos.w.spaces if s.data.capital and getattr(s.data.nation, "key", None) == "nl"]
    pos.control(capitals[0].key, "cp")
    dutch = [u for u in pos.w.units if getattr(u.data.nation, "key", None) == "nl"]
    pos.place(dutch[0].key, [s.key for s in pos.w.spaces if getattr(s.data.nation, "key", None) == "nl"
                             and s.key != capitals[0].key][0])
    pos.s["at_war"]["nl"] = True
    pos.game.ask_forced = True
    asked = questions(pos, "play_for_redeployment", "ap", pos.entity("card", "Pleve"),
                      answers=[f"redeploy {dutch[0].key}"])
    assert "to_reserve" in asked[-1].options


@pytest.mark.rule("13.1.11")
@pytest.mark.parametrize("scenario", BOTH)
def test_13_1_11_a_french_corps_is_held_back_while_paris_is_lost(scenario):
    """Deluxe and SoE 13.1.11 alike: with Paris held by the Central Powers no
    French corps redeploys to or from the Reserve Box."""
    pos = Position(scenario)
    pos.game.ask_forced = True
    pos.place("FRc", "Verdun")
    pos.control("Paris", "cp")
    asked = questions(pos, "play_for_redeployment", "ap", pos.entity("card", "Pleve"),
                      answers=["redeploy FRc"])
    assert "to_reserve" not in asked[-1].options


# =================================================================== 11.3.4, 11.3.5 (optional)

def german_corps_to_constantinople(pos: Position) -> None:
    pos.s["at_war"]["tu"] = True
    pos.game.invalidate()
    pos.game.ask_forced = True
    pos.place("GEc", "Adrianople")
    pos.place("TUc", "Constantinople")
    answers = ["redeploy GEc", "overland to Constantinople", "end redeployment"]
    if pos.s["scenario"] == SOE:
        answers.append("no operations")  # SoE 13.1.2: points left may pay for operations
    sr(pos, "cp", CP_SR4, answers)


@pytest.mark.rule("soe 11.3.4")
@pytest.mark.rule("13.2.3")
@pytest.mark.parametrize("scenario,opts,counted", [
    ("campaign", {}, True),
    (SOE, {}, False),
    (SOE, {"bosporus_near_east": True}, True),
])
def test_11_3_4_constantinople_lies_on_both_maps_unless_the_option_is_on(scenario, opts, counted):
    """SoE 11.3.1, 11.3.4: Constantinople and Bursa are on both maps, so an SR
    from Adrianople to Constantinople is not one onto the Near East map and
    does not use the turn's one Central Powers corps (13.2.3); with the
    optional 11.3.4 they are Near East spaces only, as the Campaign's map has
    them."""
    pos = position_with(scenario, **opts)
    german_corps_to_constantinople(pos)
    assert pos.units_at("Constantinople") == ["GEc", "TUc"]
    assert (pos.var("cp_near_east_sr") == pos.s["turn"]) is counted


@pytest.mark.rule("soe 11.3.5")
@pytest.mark.rule("11.3.1")
@pytest.mark.parametrize("scenario,opts,allowed", [
    ("campaign", {}, True),
    (SOE, {}, True),
    (SOE, {"non_turkish_cp_corps": True, "bosporus_near_east": True}, False),
])
def test_11_3_5_german_corps_reach_the_near_east_only_by_sr_for_three_points(scenario, opts, allowed):
    """SoE 11.3.5 (optional): a German corps enters the Near East map only by
    SR, for 3 points; with a 2-SR card it cannot go from Adrianople to
    Constantinople (a Near East space with 11.3.4), which a Campaign corps
    does for 1 point."""
    pos = position_with(scenario, **opts)
    pos.s["at_war"]["tu"] = True
    pos.game.invalidate()
    pos.game.ask_forced = True
    pos.place("GEc", "Adrianople")
    pos.place("TUc", "Constantinople")
    answers = ["redeploy GEc", "overland to Constantinople"]
    if allowed:
        questions(pos, "play_for_redeployment", "cp", pos.entity("card", CP_SR2), answers=answers)
        assert pos.units_at("Constantinople") == ["GEc", "TUc"]
    else:
        with pytest.raises(IllegalOption) as err:
            sr(pos, "cp", CP_SR2, answers)
        assert "sr_mode_affordable" in err.value.message


@pytest.mark.rule("soe 11.3.5")
def test_11_3_5_austro_hungarian_corps_stay_off_the_near_east_map():
    """SoE 11.3.5 (optional): Austro-Hungarian and Bulgarian corps do not
    operate on the Near East map: with the option on an AH corps in
    Adrianople may not move into Constantinople (a Near East space with
    11.3.4); without it, it may."""
    for opts, allowed in (({}, True), ({"non_turkish_cp_corps": True, "bosporus_near_east": True}, False)):
        pos = position_with(SOE, **opts)
        pos.s["at_war"]["tu"] = True
        pos.game.invalidate()
        pos.place("AHc", "Adrianople")
        pos.control("Adrianople", "cp")
        pos.activate("Adrianople", "move")
        asked = questions(pos, "move_activated_units", "cp", answers=["move AHc from Adrianople"])
        steps = options(pos, "move_step")
        assert ("move to Constantinople" in steps) is allowed, steps
        del asked


@pytest.mark.rule("soe 13.1.2")
@pytest.mark.rule("13.1.2")
def test_13_1_2_units_that_redeployed_do_not_attack_in_the_converted_operations():
    """SoE 13.1.2: a unit that redeployed into a space activated with the
    action's leftover SR points does not attack from it; the units already
    there may."""
    pos = Position(SOE)
    pos.game.ask_forced = True
    pos.place("GE 1", "Essen")
    pos.place("GEc", "Breslau")
    pos.place("RUc", "Lodz")
    asked = questions(pos, "play_for_redeployment", "cp", pos.entity("card", CP_SR4), answers=[
        "redeploy GE 1", "overland to Breslau", "end redeployment",
        "spend 1 SR points on operations", "activate Breslau attack", "end movement",
        "attack Lodz from Breslau"])
    groups = [d for d in asked if d.choice == "attack_with"][-1].options
    assert groups and all("GE 1" not in o for o in groups)


@pytest.mark.rule("soe 13.1.8")
@pytest.mark.rule("13.1.8")
@pytest.mark.parametrize("scenario", BOTH)
def test_13_1_8_out_of_the_reserve_box_within_the_stacking_limit(scenario):
    """SoE 13.1.8 (a clarification): a corps leaves the Reserve Box for a space
    holding a supplied unit of its nationality only within the stacking
    limit; a full Breslau is refused, Essen (a German supply source) is not —
    the same in both games."""
    pos = Position(scenario)
    pos.game.ask_forced = True
    for _ in range(3):
        pos.place("GEc", "Breslau")
    pos.place("GEc", "reserve[cp]")
    asked = questions(pos, "play_for_redeployment", "cp", pos.entity("card", CP_SR2),
                      answers=["redeploy GEc (full) from reserve"])
    to = asked[-1].options
    assert "from_reserve to Essen" in to
    assert "from_reserve to Breslau" not in to


@pytest.mark.rule("soe 12.7.4")
@pytest.mark.rule("12.7.3")
def test_12_7_4_desert_no_longer_stops_an_advance():
    """SoE 12.7.4 lists forest, mountain and swamp as stops (Deluxe 12.7.3
    also desert): a Turkish corps advancing through a friendly desert space
    (Beersheba, after an attack on it with no enemy in it) may go on, while a
    forest still stops it (see the Sedan test)."""
    pos = Position(SOE)
    pos.s["at_war"]["tu"] = True
    pos.game.invalidate()
    unopposed_at(pos, "Beersheba", "Gaza", "TUc")
    offered = questions(pos, "attacker_advance", "cp")[0].options
    assert "advance TUc into Beersheba" in offered
    assert "advance TUc into Jerusalem" in offered


@pytest.mark.rule("soe 12.7.4")
def test_12_7_4_an_enemy_trench_in_the_first_space_stops_the_advance():
    """SoE 12.7.4: advancing units stop upon entering a space with an enemy
    trench, friendly though the space is (an Allied trench left in a German-
    held Lodz); entering removes the level 1 trench (the rule's note)."""
    pos = Position(SOE)
    ge, = unopposed_at(pos, "Lodz", "Thorn", "GE 9")
    pos.set("trench", 1, key="Lodz")
    pos.set("trench_owner", "ap", key="Lodz")
    pos.run("attacker_advance", "cp", answers=["advance GE 9 into Lodz"])
    assert pos.asked[0].options == ["advance GE 9 into Lodz", "stop advancing"]
    assert where(pos, ge) == "Lodz" and pos.var("trench", "Lodz") == 0


@pytest.mark.rule("soe 12.7.4")
@pytest.mark.rule("soe 11.1.4")
@pytest.mark.parametrize("seed", [71728931322427, 4779892807554])
def test_random_games_that_once_failed_finish(seed):
    """Two games of the 500-game run that failed: an unopposed attack whose
    advance could go back into the attack's own space (so the unit counted as
    not yet advanced, and advanced again without end), and a stack that spent
    its last movement point taking a space in passing where it could not stop
    (a dead end).  Both now play to their end."""
    from pogdsl.opening import open_scenario
    from pogdsl.sim import play_random

    result = play_random(open_scenario("suicide_of_europe"), seed)
    assert result["error"] is None, result["error"]
