"""The illusions variant: Troop Quality (IoG 3.2.4, 24.1, 24.2) and the two
optional rules, Severe Weather checks (IoG 12.3) and RP conversion (IoG
16.7).  Each test is written from the Illusions of Glory rulebook's text
(the oracle), on the Paths of Glory pieces the variant maps it onto
(docs/illusions.rst): an IoG LCU is a PoG army, "permanently eliminated" is
PoG's Permanently eliminated box, a reinforcement card is a PoG card with
units played as an event."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.harness import ROOT, Position, Unanswered, world  # noqa: E402

ILLUSIONS = "illusions"
GE10 = "German Reinforcements (GE 10)"
AH7 = "Austria-Hungary Reinforcements (AH 7)"
YUDENITCH = "Yudenitch (RU Reinforcements)"


# ------------------------------------------------------------------ helpers
def position(**options) -> Position:
    """An empty board of the illusions scenario, with these option values."""
    if not options:
        return Position(ILLUSIONS)
    from pogdsl.compiler import scenario_graph
    from pogdsl.runtime.interpreter import Game
    from pogdsl.runtime.world import build_world, option_values

    comp, graph = scenario_graph(ILLUSIONS, root=ROOT)
    program = comp.scenarios[ILLUSIONS][0]
    w = build_world(program, graph, option_values(program, {k: str(v) for k, v in options.items()}))
    pos = Position.__new__(Position)
    pos.w, pos.game, pos.asked = w, Game.new(w, seed=0), []
    pos.s = pos.game.s
    pos.clear_board()
    return pos


def tq(pos: Position, nation: str) -> int:
    return pos.var("troop_quality", nation)


def set_tq(pos: Position, nation: str, value: int) -> None:
    pos.set("troop_quality", value, key=nation)


def where(pos: Position, piece) -> str | None:
    place = pos.w.place_entity(pos.s["loc"][piece.index])
    return place.key if place is not None else None


def run_code(pos: Position, key: str, args=(), answers=(), dice=()) -> None:
    """Run one compiled body (a phase: `phase:NAME`) to its end, decisions
    answered in order, as Position.run does for procedures."""
    code = pos.w.codes[key]
    pos.s["stack"] = [{"code": key, "pc": 0, "l": dict(zip(code.params, args))}]
    pos.s["dice"] = list(dice)
    pos.s["result"] = None
    pos.game.invalidate()
    answers = list(answers)
    d = pos.game.run()
    while d is not None:
        pos.asked.append(d)
        if not answers:
            raise Unanswered(f"no answer left for {d.by}'s '{d.choice}': options {d.options}")
        d = pos.game.choose(answers.pop(0))
    assert not answers, f"answers left over: {answers}"


def reinforce(pos: Position, side: str, card: str, answers=()) -> None:
    """Play a reinforcement card as an event, as an action round does."""
    pos.s["turn"] = 5
    pos.s["at_war"]["it"] = True
    pos.game.invalidate()
    pos.play_event(side, card, answers=answers)


# ================================================================== Troop Quality
@pytest.mark.rule("iog 3.2.4")
@pytest.mark.rule("iog 24.1")
def test_troop_quality_starts_at_16_for_the_four_nations():
    """3.2.4a / 24.1a: Russia, Italy, Germany and Austria-Hungary each start
    with Troop Quality 16."""
    pos = Position(ILLUSIONS)
    assert [tq(pos, n) for n in ("ru", "it", "ge", "ah")] == [16, 16, 16, 16]


@pytest.mark.rule("iog 24.1")
def test_the_campaign_has_no_troop_quality():
    """Troop Quality is the variant's: the Campaign keeps no such marker."""
    assert "troop_quality" not in world("campaign").state_start
    assert "troop_quality" in world(ILLUSIONS).state_start


@pytest.mark.rule("iog 24.1")
def test_an_army_destroyed_costs_one():
    """24.1b: a Russian LCU destroyed (a reduced army losing its last step,
    replaced by a corps from the Reserve Box, so it may be rebuilt) moves the
    Russian marker down one."""
    pos = Position(ILLUSIONS)
    army = pos.place("RU 1", "Warsaw", reduced=True)
    pos.place("RUc", "reserve[ap]")
    pos.run("lose_army", "ap", army)
    assert where(pos, army) == "eliminated[ap]"
    assert tq(pos, "ru") == 15
    assert [tq(pos, n) for n in ("it", "ge", "ah")] == [16, 16, 16]


@pytest.mark.rule("iog 24.1")
def test_an_army_lost_for_good_costs_two():
    """24.1c: an LCU permanently eliminated (no corps to replace it: it goes
    to the Permanently eliminated box) moves the marker down two."""
    pos = Position(ILLUSIONS)
    army = pos.place("AH 1", "Lemberg", reduced=True)
    pos.run("lose_army", "cp", army)
    assert where(pos, army) == "removed[cp]"
    assert tq(pos, "ah") == 14


@pytest.mark.rule("iog 24.1")
def test_an_army_lost_in_combat_wears_troop_quality_down():
    """24.1c in play: a reduced Italian army attacking Trent takes a loss it
    cannot pay with no corps to replace it, so it is eliminated for good
    (Deluxe 12.4.4.1): Italy's marker falls two."""
    pos = Position(ILLUSIONS)
    it1 = pos.place("IT 1", "Asiago", reduced=True)
    pos.place("AHc", "Trent")
    pos.control("Trent", "cp")
    pos.s["at_war"]["it"] = True
    pos.s["turn"] = 9
    pos.activate("Asiago", "attack")
    pos.run("resolve_attacks", "ap", answers=["attack Trent from Asiago"], dice=[1, 6])
    assert where(pos, it1) == "removed[ap]"
    assert tq(pos, "it") == 14


@pytest.mark.rule("iog 24.1")
def test_corps_and_other_nations_armies_leave_troop_quality_alone():
    """24.1b-c count LCUs of the four nations only: a corps lost, or a French
    army lost, changes no marker."""
    pos = Position(ILLUSIONS)
    corps = pos.place("GEc", "Metz", reduced=True)
    pos.run("lose_step", "cp", corps)
    assert where(pos, corps) == "eliminated[cp]"
    french = pos.place("FR 1", "Paris", reduced=True)
    pos.run("lose_army", "ap", french)
    assert where(pos, french) == "removed[ap]"
    assert [tq(pos, n) for n in ("ru", "it", "ge", "ah")] == [16, 16, 16, 16]


@pytest.mark.rule("iog 24.1")
def test_armies_taken_off_by_home_front_rules_do_not_count():
    """24.1 counts battle losses: an army removed while a home-front rule
    dissolves armies (`dissolving`, set by the revolution and collapse rule
    sets) costs nothing."""
    pos = Position(ILLUSIONS)
    army = pos.place("RU 2", "Warsaw", reduced=True)
    pos.set("dissolving", True)
    pos.run("lose_army", "ap", army)
    assert tq(pos, "ru") == 16


@pytest.mark.rule("iog 24.1")
def test_troop_quality_never_goes_below_zero():
    """24.1e / 3.2.4c: the marker stops at 0."""
    pos = Position(ILLUSIONS)
    set_tq(pos, "ge", 1)
    army = pos.place("GE 1", "Metz", reduced=True)
    pos.run("lose_army", "cp", army)  # lost for good: -2
    assert tq(pos, "ge") == 0


@pytest.mark.rule("iog 24.1")
def test_a_reinforcement_card_costs_three():
    """24.1d: each strategy card played to bring a nation's reinforcements in
    moves its marker down three."""
    pos = Position(ILLUSIONS)
    reinforce(pos, "cp", GE10, answers=["place GE 10 at Berlin"])
    assert tq(pos, "ge") == 13
    assert tq(pos, "ah") == 16
    pos = Position(ILLUSIONS)
    reinforce(pos, "cp", AH7, answers=[1])
    assert tq(pos, "ah") == 13
    assert tq(pos, "ge") == 16


@pytest.mark.rule("iog 24.1")
def test_a_reinforcement_card_played_for_rps_costs_nothing():
    """24.1d counts the card only when it brings reinforcements in: played for
    its RPs it changes no marker."""
    pos = Position(ILLUSIONS)
    pos.s["turn"] = 5
    pos.game.invalidate()
    pos.run("play_for_replacements", "cp", pos.entity("card", GE10))
    assert tq(pos, "ge") == 16
    assert pos.var("rp_points", "ge") == 3


@pytest.mark.rule("iog 24.2")
def test_above_poor_the_reinforcements_arrive_at_full_strength():
    """24.2: only Poor Troop Quality (1 or below) weakens reinforcements: at 5
    the card's -3 leaves 2, and the army arrives full."""
    pos = Position(ILLUSIONS)
    set_tq(pos, "ge", 5)
    reinforce(pos, "cp", GE10, answers=["place GE 10 at Berlin"])
    assert tq(pos, "ge") == 2
    ge10 = pos.entity("unit", "GE 10")
    assert where(pos, ge10) == "Berlin"
    assert not pos.reduced(ge10.index)


@pytest.mark.rule("iog 24.2")
def test_the_card_that_reaches_poor_brings_its_army_in_reduced():
    """24.2b: when the card's own -3 takes the marker to Poor, that card's
    reinforcements already arrive reduced: the army on its reduced side; its
    corps go to the Reserve Box as PoG places them, at full strength."""
    pos = Position(ILLUSIONS)
    set_tq(pos, "ge", 4)
    reinforce(pos, "cp", GE10, answers=["place GE 10 at Berlin"])
    assert tq(pos, "ge") == 1
    ge10 = pos.entity("unit", "GE 10")
    assert where(pos, ge10) == "Berlin"
    assert pos.reduced(ge10.index)
    corps = [pos.w.units[i] for i in pos.s["occ"][pos._location("reserve[cp]")]]
    assert [u.key for u in corps] == ["GEc", "GEc"]
    assert not any(pos.reduced(u.index) for u in corps)


@pytest.mark.rule("iog 24.2")
def test_at_poor_regional_infantry_arrives_full():
    """24.2a2: Russian regional infantry (the Caucasus army, PoG's RU CAU) is
    not weakened by Poor Troop Quality, though its card still costs three
    (the marker stops at 0)."""
    pos = Position(ILLUSIONS)
    set_tq(pos, "ru", 1)
    pos.s["at_war"]["tu"] = True
    reinforce(pos, "ap", YUDENITCH, answers=[1])
    assert tq(pos, "ru") == 0
    cau = pos.entity("unit", "RU CAU")
    assert where(pos, cau) is not None and not where(pos, cau).startswith(("reserve", "eliminated", "removed"))
    assert not pos.reduced(cau.index)


@pytest.mark.rule("iog 24.2")
def test_the_campaign_brings_reinforcements_in_at_full_strength():
    """Without the variant nothing weakens a reinforcement (Deluxe 9.5.3.3)."""
    pos = Position("campaign")
    pos.s["turn"] = 5
    pos.game.invalidate()
    pos.play_event("cp", GE10, answers=["place GE 10 at Berlin"])
    assert not pos.reduced(pos.entity("unit", "GE 10").index)


# ================================================================== Severe Weather (option)
def mountain_attack(turn: int, action_round: int, dice, **options) -> str:
    """An Italian army in Asiago attacks the Austro-Hungarian corps in Trent
    (a mountain with a fort); the fire lines of the log."""
    pos = position(**options)
    pos.place("IT 1", "Asiago")
    pos.place("AHc", "Trent")
    pos.control("Trent", "cp")
    pos.s["at_war"]["it"] = True
    pos.s["turn"] = turn
    pos.set("action_round", action_round)
    pos.activate("Asiago", "attack")
    pos.run("resolve_attacks", "ap", answers=["attack Trent from Asiago"], dice=dice)
    return "\n".join(t for t in pos.log() if "fires with" in t or "severe weather" in t)


def attacker_shift(text: str) -> int:
    """The column shift of the attacker's fire, from its log line."""
    import re

    m = re.search(r"ap fires with strength \d+ on the \S+ table \(shift (-?\d+)\)", text)
    assert m, text
    return int(m.group(1))


WINTER, SUMMER, SPRING = 8, 10, 9  # winter 1916, summer 1916, spring 1916


@pytest.mark.rule("iog 12.3")
def test_severe_weather_roll_above_the_round_shifts_the_attacker_left():
    """12.3a-b: attacking into a mountain in a winter turn, the attacker rolls
    one die; above the action round number (3 in round 2), his fire shifts
    one column left (the mountain's own -1 makes -2)."""
    text = mountain_attack(WINTER, 2, [3, 1, 1], iog_severe_weather="on")
    assert "severe weather in Trent: 3 is above action round 2" in text
    assert attacker_shift(text) == -2


@pytest.mark.rule("iog 12.3")
def test_severe_weather_roll_not_above_the_round_has_no_effect():
    """12.3b: a roll equal to the action round number (2 in round 2) leaves
    the fire as it is."""
    text = mountain_attack(WINTER, 2, [2, 1, 1], iog_severe_weather="on")
    assert "severe weather check in Trent: 2, no effect" in text
    assert attacker_shift(text) == -1


@pytest.mark.rule("iog 12.3")
def test_no_severe_weather_check_out_of_its_season():
    """12.3a: mountains call for a check in winter only; in a spring turn no
    die is rolled for the weather."""
    text = mountain_attack(SPRING, 1, [1, 1], iog_severe_weather="on")
    assert "severe weather" not in text
    assert attacker_shift(text) == -1


@pytest.mark.rule("iog 12.3")
def test_severe_weather_option_off_is_the_campaign():
    """The option is off by default: no die is rolled for the weather, the
    dice fall as in the Campaign."""
    text = mountain_attack(WINTER, 1, [1, 1])
    assert "severe weather" not in text
    assert attacker_shift(text) == -1


@pytest.mark.rule("iog 12.3")
def test_severe_weather_in_a_swamp_in_summer():
    """12.3a: a swamp space in a summer turn calls for the check too; a 6 in
    round 5 fails it (the swamp's own -1 and the weather's make -2)."""
    pos = position(iog_severe_weather="on")
    pos.place("RU 1", "Brest Litovsk")
    pos.place("GEc", "Pinsk")
    pos.control("Pinsk", "cp")
    pos.s["turn"] = SUMMER
    pos.set("action_round", 5)
    pos.activate("Brest Litovsk", "attack")
    pos.run("resolve_attacks", "ap", answers=["attack Pinsk from Brest Litovsk"], dice=[6, 1, 1])
    text = "\n".join(pos.log())
    assert "severe weather in Pinsk: 6 is above action round 5" in text
    assert attacker_shift(text) == -2


# ================================================================== RP conversion (option)
def rp_position(**options) -> Position:
    """Turn 6: Turkey at war, the Central Powers recorded 2 German RPs and no
    Turkish one; a reduced Turkish corps waits in the Reserve Box."""
    pos = position(**options)
    pos.s["turn"] = 6
    pos.s["at_war"]["tu"] = True
    pos.set("rp_points", 2, key="ge")
    pos.tuc = pos.place("TUc", "reserve[cp]", reduced=True)
    pos.game.invalidate()
    return pos


def replacement_phase(pos: Position, answers=()) -> list[tuple[str, list[str]]]:
    """Run the Replacement Phase; every decision (lone options too) is asked
    and answered in order; the decisions asked, as (choice, options)."""
    pos.game.ask_forced = True
    try:
        run_code(pos, "phase:replacement", answers=answers)
    finally:
        pos.game.ask_forced = False
    return [(d.choice, list(d.options)) for d in pos.asked]


def value(pos: Position, name: str):
    from pogdsl.runtime import builtins as B

    pos.game.invalidate()
    return B.value_of(pos.game, name, ())


@pytest.mark.rule("iog 16.7.1")
def test_a_german_rp_converted_pays_for_a_turkish_step():
    """16.7.1a: the Central Powers may turn one German RP into a Turkish RP:
    with none of its own recorded, the Turkish corps is then flipped."""
    pos = rp_position(iog_rp_conversion="on")
    asked = replacement_phase(pos, answers=["convert one RP into a tu RP", "flip TUc in reserve[cp]",
                                            "end replacements"])
    assert asked[0] == ("convert_rp", ["convert one RP into a tu RP", "no conversion"])
    assert not pos.reduced(pos.tuc.index)
    assert "rp_points[ge] -1 → 1" in pos.log()


@pytest.mark.rule("iog 16.7.1")
def test_one_conversion_a_turn_and_it_may_be_declined():
    """16.7.1a: one RP per turn: the offer is made once though two German RPs
    were recorded; declining keeps the Turkish corps reduced (no Turkish RP)."""
    pos = rp_position(iog_rp_conversion="on")
    asked = replacement_phase(pos, answers=["no conversion", "end replacements"])
    assert [c for c, _ in asked].count("convert_rp") == 1
    assert pos.reduced(pos.tuc.index)


@pytest.mark.rule("iog 16.7.1")
def test_after_the_blockade_the_line_to_constantinople_decides():
    """16.7.1b: once the Blockade (IoG's Royal Navy Blockade) is played, no
    conversion unless a line of Central Powers spaces joins Berlin to
    Constantinople: open through Bulgaria at war, shut when the Allies hold
    the way through Thrace."""
    pos = rp_position(iog_rp_conversion="on")
    start = Position(ILLUSIONS, empty=False)
    pos.s["control"] = list(start.s["control"])
    for s in ("Belgrade", "Nis", "Valjevo", "Skopje", "Sofia", "Kustendil", "Adrianople", "Gallipoli"):
        if s in pos.w.by_kind["space"]:
            pos.control(s, "cp")
    pos.s["at_war"]["bu"] = True
    assert value(pos, "german_rp_conversion_open") is True
    pos.s["played"].append(pos.entity("card", "Blockade").index)
    assert value(pos, "berlin_constantinople_line") is True
    assert value(pos, "german_rp_conversion_open") is True
    for s in ("Sofia", "Adrianople", "Gallipoli", "Kustendil"):
        if s in pos.w.by_kind["space"]:
            pos.control(s, "ap")
    assert value(pos, "berlin_constantinople_line") is False
    assert value(pos, "german_rp_conversion_open") is False
    asked = replacement_phase(pos, answers=["end replacements"])
    assert "convert_rp" not in [c for c, _ in asked]


@pytest.mark.rule("iog 16.7.2")
def test_the_allies_convert_a_minor_rp_into_a_russian_one_from_limited_war():
    """16.7.2: after Kitchener (the variant's stand-in: the Allies at Limited
    War) one Allied minor RP a turn may become a Russian RP; before it, never."""
    pos = rp_position(iog_rp_conversion="on")
    pos.set("allied_rp_points", 1)
    ruc = pos.place("RUc", "reserve[ap]", reduced=True)
    assert value(pos, "allied_rp_conversion_open") is False
    pos.set("commitment", "limited_war_level", key="ap")
    assert value(pos, "allied_rp_conversion_open") is True
    replacement_phase(pos, answers=["convert one RP into a ru RP", "flip RUc in reserve[ap]", "end replacements",
                                    "no conversion", "end replacements"])
    assert not pos.reduced(ruc.index)


@pytest.mark.rule("iog 16.7")
def test_rp_conversion_option_off_is_the_campaign():
    """The option is off by default: nothing is offered, and with no Turkish
    RP the Turkish corps stays reduced, as in the Campaign."""
    pos = rp_position()
    pos.set("allied_rp_points", 1)
    pos.set("commitment", "limited_war_level", key="ap")
    assert value(pos, "german_rp_conversion_open") is False
    assert value(pos, "allied_rp_conversion_open") is False
    asked = replacement_phase(pos, answers=["end replacements", "end replacements"])
    assert "convert_rp" not in [c for c, _ in asked]
    assert pos.reduced(pos.tuc.index)
