"""The operations group of cards, played through the engine: cards that change
what an activation costs (AP 9 Moltke, CP 13 Falkenhayn, CP 10 SUD Army,
CP 29 11th Army, AP 51 Everyone Into Battle), events that are also an
operation with the same card (9.1.3: AP 23 Cloak and Dagger, CP 17 Mata Hari,
AP 35 Yanks and Tanks, AP 45 Kerensky Offensive, AP 46 Brusilov Offensive),
and events that only open the way for other rules or cards (AP 28 Landships,
AP 49 Sinai Pipeline, CP 11 Oberost).

Activation costs are checked on what an operation actually charges: the
operations chapter logs each activation with the points it cost.  Combat
modifiers are checked in real combats with fixed dice, on the fire lines of
the log ("die 3 modified to 5").
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cards.test_card_events import at, card, hand, offered, pile_of, value  # noqa: E402
from rules.harness import Position  # noqa: E402

MOLTKE = ("ap", 9)
CLOAK = ("ap", 23)
LANDSHIPS = ("ap", 28)
YANKS = ("ap", 35)
KERENSKY = ("ap", 45)
BRUSILOV = ("ap", 46)
SINAI = ("ap", 49)
EVERYONE = ("ap", 51)
PLEVE = ("ap", 4)
SUD = ("cp", 10)
OBEROST = ("cp", 11)
FALKENHAYN = ("cp", 13)
MATA_HARI = ("cp", 17)
ELEVENTH = ("cp", 29)
MICHAEL = ("cp", 49)
BLUCHER = ("cp", 50)
PEACE_OFFENSIVE = ("cp", 51)


def activations(pos: Position) -> list[str]:
    """The activation lines of the log: '<side> activates <space> for <mode>: N OPS, M left'."""
    return [line for line in pos.log() if " activates " in line and " OPS, " in line]


def mark_played(pos: Position, key) -> None:
    """A card whose event was played earlier in the game (it lies in the removed pile)."""
    c = card(pos, key)
    pos.game.move_card(c, f"removed:{key[0]}")
    pos.s["played"].append(c.index)
    pos.game.invalidate()


def fire_line(pos: Position, side: str) -> str:
    lines = [line for line in pos.log() if line.startswith(f"{side} fires ")]
    assert len(lines) == 1, lines
    return lines[0]


# ============================================================ AP 9 Moltke, CP 13 Falkenhayn
def moltke_position(turn: int = 1) -> Position:
    """GE 1 and GE 2 in Sedan (France), GE 3 in Metz (Germany), GE 4 and GE 5 in Aachen
    (Germany): the German armies of August 1914."""
    pos = Position()
    at(pos, turn, 2)
    for unit, space in [("GE 1", "Sedan"), ("GE 2", "Sedan"), ("GE 3", "Metz"), ("GE 4", "Aachen"), ("GE 5", "Aachen")]:
        pos.place(unit, space)
        pos.control(space, "cp")
    return pos


@pytest.mark.card("AP 9")
@pytest.mark.rule("9.5.1.1")
@pytest.mark.parametrize("turn, allowed", [(1, True), (2, True), (3, False), (8, False)])
def test_moltke_only_in_august_or_september_1914(turn, allowed):
    pos = moltke_position(turn)
    assert pos.may_play_event("ap", card(pos, MOLTKE)) is allowed
    if not allowed:
        assert pos.event_forbidden_by("ap", card(pos, MOLTKE)) == ["playable_events"]


@pytest.mark.card("AP 9")
@pytest.mark.rule("9.2.3")
def test_moltke_charges_the_central_powers_per_unit_in_france_and_belgium():
    """Two German armies in Sedan cost one point before Moltke, two after it; the
    same stack in Germany (Aachen) still costs one."""
    pos = moltke_position()
    pos.run("operations", "cp", 3, None, answers=["activate Sedan attack", "activate Aachen move", "done activating",
                                                 "end movement", "no more attacks"])
    assert activations(pos) == ["cp activates Sedan for attack: 1 OPS, 2 left",
                                "cp activates Aachen for move: 1 OPS, 1 left"]

    pos = moltke_position()
    pos.play_event("ap", card(pos, MOLTKE))
    assert pile_of(pos, card(pos, MOLTKE)) == "removed:ap"
    pos.run("operations", "cp", 3, None, answers=["activate Sedan attack", "activate Aachen move",
                                                 "end movement", "no more attacks"])
    assert activations(pos) == ["cp activates Sedan for attack: 2 OPS, 1 left",
                                "cp activates Aachen for move: 1 OPS, 0 left"]
    # Belgium too, and a mixed stack pays for each unit rather than each nation.
    pos.place("GE 6", "Brussels")
    pos.place("GEc", "Brussels")
    pos.place("AHc", "Brussels")
    assert value(pos, "activation_cost", "Brussels", "cp", "move") == 3


@pytest.mark.card("AP 9")
@pytest.mark.rule("9.2.1")
def test_moltke_a_stack_the_points_cannot_pay_for_is_not_offered():
    """With 1 point left, the two-army stack in Sedan is not offered, GE 3 alone in Metz is."""
    pos = moltke_position()
    pos.play_event("ap", card(pos, MOLTKE))
    pos.run("operations", "cp", 1, None, answers=["activate Metz move", "end movement"])
    first = pos.asked[0]
    assert first.choice == "activate"
    assert not any("Sedan" in o for o in first.options)
    assert "activate Metz move" in first.options
    assert "activate Aachen move" in first.options  # two armies, but in Germany


@pytest.mark.card("AP 9")
@pytest.mark.card("CP 13")
@pytest.mark.rule("9.2.3")
def test_falkenhayn_ends_moltke():
    pos = moltke_position()
    pos.play_event("ap", card(pos, MOLTKE))
    assert value(pos, "activation_cost", "Sedan", "cp", "attack") == 2
    pos.play_event("cp", card(pos, FALKENHAYN))
    assert pos.var("war_status", "cp") == 2
    assert pile_of(pos, card(pos, FALKENHAYN)) == "removed:cp"
    pos.run("operations", "cp", 3, None, answers=["activate Sedan attack", "done activating", "no more attacks"])
    assert activations(pos) == ["cp activates Sedan for attack: 1 OPS, 2 left"]


@pytest.mark.card("CP 13")
@pytest.mark.rule("9.5.1.1")
@pytest.mark.parametrize("turn, moltke, allowed", [
    (1, False, False), (2, False, False), (1, True, True), (2, True, True), (3, False, True), (9, False, True)])
def test_falkenhayn_in_1914_only_after_moltke(turn, moltke, allowed):
    pos = moltke_position(turn)
    if moltke:
        mark_played(pos, MOLTKE)
    assert pos.may_play_event("cp", card(pos, FALKENHAYN)) is allowed


# ============================================================ the card played for operations
@pytest.mark.card("AP 4")
@pytest.mark.rule("9.1.3")
def test_a_combat_card_played_for_ops_is_not_offered_in_its_own_combats():
    """Pleve played for its OPS: the Russian attack it pays for does not offer it as
    a combat card (a card is used one way at a time); it ends in the discard pile."""
    pos = Position()
    at(pos, 6, 2)
    pos.place("RU 1", "Warsaw")
    pos.place("GE 8", "Lodz")
    pos.control("Lodz", "cp")
    pleve, = hand(pos, "ap", card(pos, PLEVE))
    pos.run("play_for_operations", "ap", pleve,
            answers=["activate Warsaw attack", "attack Lodz from Warsaw"], dice=[3, 3])
    assert not offered(pos, "ap uses Pleve")
    assert activations(pos)[0].startswith("ap activates Warsaw for attack: 1 OPS")
    assert pile_of(pos, pleve) == "discard:ap"


# ============================================================ AP 23 Cloak and Dagger, CP 17 Mata Hari
@pytest.mark.card("AP 23")
@pytest.mark.rule("9.1.3")
def test_cloak_and_dagger_shows_the_cp_hand_then_an_operation_with_its_ops():
    pos = Position()
    at(pos, 5, 3)
    hand(pos, "cp", card(pos, FALKENHAYN), card(pos, OBEROST))
    pos.place("FR 1", "Nancy")
    pos.place("FR 2", "Verdun")
    pos.place("BR 1", "Verdun")
    cloak = card(pos, CLOAK)
    pos.play_event("ap", cloak, answers=["activate Verdun move", "end movement"])
    assert "Cloak and Dagger: the Central Powers' hand holds Falkenhayn, Oberost" in pos.log()
    # The operation spends the card's 2 OPS: Verdun (French and British) uses both, Nancy is left.
    assert activations(pos) == ["ap activates Verdun for move: 2 OPS, 0 left"]
    first = [d for d in pos.asked if d.choice == "activate"][0]
    assert "activate Nancy attack" in first.options
    assert pile_of(pos, cloak) == "removed:ap"


@pytest.mark.card("CP 17")
@pytest.mark.rule("9.1.3")
def test_mata_hari_shows_the_allied_hand_then_an_operation_with_its_ops():
    pos = Position()
    at(pos, 5, 3)
    hand(pos, "ap", card(pos, CLOAK))
    pos.place("GE 3", "Metz")
    pos.control("Metz", "cp")
    mata = card(pos, MATA_HARI)
    pos.play_event("cp", mata, answers=["activate Metz move", "end movement"])
    assert "Mata Hari: the Allied hand holds Cloak and Dagger" in pos.log()
    assert activations(pos) == ["cp activates Metz for move: 1 OPS, 1 left"]
    assert pile_of(pos, mata) == "removed:cp"


# ============================================================ AP 28 Landships, CP 11 Oberost
@pytest.mark.card("AP 28")
def test_landships_only_opens_the_way_for_royal_tank_corps():
    pos = Position()
    at(pos, 9)
    assert pos.may_play_event("ap", card(pos, LANDSHIPS))
    before = (pos.var("vp"), pos.var("war_status", "ap"))
    pos.play_event("ap", card(pos, LANDSHIPS))
    assert "Landships: Royal Tank Corps may now be played" in pos.log()
    assert (pos.var("vp"), pos.var("war_status", "ap")) == before
    assert pile_of(pos, card(pos, LANDSHIPS)) == "removed:ap"


def oberost_position() -> Position:
    """GE 8 in Lodz next to Warsaw, a Russian fort space held by RU 1; CP War Status 2."""
    pos = Position()
    at(pos, 3, 2)
    pos.place("GE 8", "Lodz")
    pos.control("Lodz", "cp")
    pos.place("RU 1", "Warsaw")
    pos.set("war_status", 2, key="cp")
    return pos


@pytest.mark.card("CP 11")
@pytest.mark.rule("15.1.11")
def test_oberost_lets_germans_attack_russian_forts():
    pos = oberost_position()
    pos.activate("Lodz", "attack")
    pos.run("resolve_attacks", "cp")  # nothing to attack: Warsaw is not offered
    assert not any("Warsaw" in o for d in pos.asked for o in d.options)
    pos.play_event("cp", card(pos, OBEROST))
    assert pos.var("war_status", "cp") == 3
    assert pile_of(pos, card(pos, OBEROST)) == "removed:cp"
    pos.activate("Lodz", "attack")
    pos.run("resolve_attacks", "cp", answers=["attack Warsaw from Lodz"], dice=[3, 3])
    assert any(line.startswith("cp attacks Warsaw") for line in pos.log())


@pytest.mark.card("CP 11")
@pytest.mark.rule("9.5.1.1")
def test_oberost_may_still_be_played_at_war_status_4():
    pos = oberost_position()
    pos.set("war_status", 5, key="cp")
    assert pos.may_play_event("cp", card(pos, OBEROST))


# ============================================================ AP 49 Sinai Pipeline
def sinai_position(attacker: str) -> Position:
    """An attack made only from the Sinai on Gaza, in a winter turn."""
    pos = Position()
    at(pos, 12, 2)
    pos.s["at_war"]["tu"] = True
    if attacker == "ap":
        pos.place("BRc", "Sinai")
        pos.place("TUc", "Gaza")
        pos.control("Sinai", "ap")
        pos.control("Gaza", "cp")
    else:
        pos.s["at_war"]["tu"] = True
        pos.place("TUc", "Sinai")
        pos.place("BRc", "Gaza")
        pos.control("Sinai", "cp")
        pos.control("Gaza", "ap")
    pos.activate("Sinai", "attack")
    return pos


@pytest.mark.card("AP 49")
@pytest.mark.rule("12.2.7")
@pytest.mark.parametrize("pipeline, line", [(False, "die 5 modified to 2"), (True, "die 5 modified to 5")])
def test_sinai_pipeline_cancels_the_sinai_drm_for_the_allies(pipeline, line):
    pos = sinai_position("ap")
    if pipeline:
        pos.play_event("ap", card(pos, SINAI))
        assert pile_of(pos, card(pos, SINAI)) == "removed:ap"
    pos.run("resolve_attacks", "ap", answers=["attack Gaza from Sinai"], dice=[5, 1])
    assert line in fire_line(pos, "ap")


@pytest.mark.card("AP 49")
@pytest.mark.rule("12.2.7")
def test_sinai_pipeline_leaves_the_central_powers_drm():
    pos = sinai_position("cp")
    mark_played(pos, SINAI)
    pos.run("resolve_attacks", "cp", answers=["attack Gaza from Sinai"], dice=[5, 1])
    assert "die 5 modified to 2" in fire_line(pos, "cp")


# ============================================================ AP 35 Yanks and Tanks
def yanks_position(unit: str = "US 1") -> Position:
    pos = Position()
    at(pos, 15, 4)
    pos.set("war_status", 20, key="ap")
    pos.s["at_war"]["us"] = True
    pos.place(unit, "Amiens")
    pos.place("GE 1", "Cambrai")
    pos.control("Cambrai", "cp")
    return pos


@pytest.mark.card("AP 35")
@pytest.mark.rule("12.2.7")
def test_yanks_and_tanks_an_operation_whose_us_attacks_get_two():
    pos = yanks_position()
    yanks = card(pos, YANKS)
    pos.play_event("ap", yanks, answers=["activate Amiens attack", "attack Cambrai from Amiens"], dice=[3, 3])
    assert activations(pos) == ["ap activates Amiens for attack: 1 OPS, 3 left"]
    assert "die 3 modified to 5" in fire_line(pos, "ap")
    assert "die 3 modified to 3" in fire_line(pos, "cp")
    assert pile_of(pos, yanks) == "removed:ap"


@pytest.mark.card("AP 35")
@pytest.mark.rule("12.2.7")
def test_yanks_and_tanks_not_without_us_units():
    pos = yanks_position("FR 1")
    pos.play_event("ap", card(pos, YANKS), answers=["activate Amiens attack", "attack Cambrai from Amiens"],
                   dice=[3, 3])
    assert "die 3 modified to 3" in fire_line(pos, "ap")


@pytest.mark.card("AP 35")
@pytest.mark.rule("12.2.7")
def test_yanks_and_tanks_only_in_its_own_action_round():
    pos = yanks_position()
    pos.set("yanks_and_tanks_round", 15 * 10 + 3)  # played in the round before
    pos.activate("Amiens", "attack")
    pos.run("resolve_attacks", "ap", answers=["attack Cambrai from Amiens"], dice=[3, 3])
    assert "die 3 modified to 3" in fire_line(pos, "ap")


# ============================================================ AP 45 Kerensky Offensive
def russian_front(turn: int = 14, defender: str = "AH 1", trench_level: int = 0) -> Position:
    """RU 1 in Lutsk next to Lemberg, held by the Central Powers."""
    pos = Position()
    at(pos, turn, 3)
    pos.place("RU 1", "Lutsk")
    pos.place(defender, "Lemberg")
    pos.control("Lutsk", "ap")
    pos.control("Lemberg", "cp")
    if trench_level:
        pos.set("trench", trench_level, key="Lemberg")
    return pos


@pytest.mark.card("AP 45")
@pytest.mark.rule("9.5.1.1")
@pytest.mark.parametrize("box, allowed", [
    ("god_save_the_tsar", False), ("tsar_took_command", False), ("tsar_fell", True),
    ("bolsheviks_rose", False), ("brest_litovsk_signed", False)])
def test_kerensky_offensive_between_the_fall_of_the_tsar_and_the_bolsheviks(box, allowed):
    pos = russian_front()
    pos.set("russian_capitulation", box)
    assert pos.may_play_event("ap", card(pos, KERENSKY)) is allowed


@pytest.mark.card("AP 45")
@pytest.mark.rule("12.2.7")
def test_kerensky_offensive_gives_two_to_one_russian_attack_on_austrians():
    pos = russian_front()
    pos.set("russian_capitulation", "tsar_fell")
    kerensky = card(pos, KERENSKY)
    pos.play_event("ap", kerensky, answers=[
        "activate Lutsk attack", "attack Lemberg from Lutsk", "Kerensky Offensive: +2 to the attack on Lemberg"],
        dice=[2, 3])
    assert activations(pos) == ["ap activates Lutsk for attack: 1 OPS, 2 left"]
    assert "die 2 modified to 4" in fire_line(pos, "ap")
    assert "die 3 modified to 3" in fire_line(pos, "cp")
    assert pile_of(pos, kerensky) == "removed:ap"


@pytest.mark.card("AP 45")
@pytest.mark.rule("12.2.7")
def test_kerensky_offensive_the_allies_may_keep_it_and_it_serves_once():
    pos = russian_front()
    pos.set("russian_capitulation", "tsar_fell")
    pos.play_event("ap", card(pos, KERENSKY), answers=[
        "activate Lutsk attack", "attack Lemberg from Lutsk", "keep the +2"], dice=[2, 3])
    assert "die 2 modified to 2" in fire_line(pos, "ap")
    # Once given, no second attack of the round gets it.
    pos = russian_front()
    pos.set("kerensky_round", 143)
    pos.set("kerensky_used_round", 143)
    pos.activate("Lutsk", "attack")
    pos.run("resolve_attacks", "ap", answers=["attack Lemberg from Lutsk"], dice=[2, 3])
    assert not any(d.choice == "kerensky_attack" for d in pos.asked)
    assert "die 2 modified to 2" in fire_line(pos, "ap")


@pytest.mark.card("AP 45")
@pytest.mark.rule("12.2.7")
def test_kerensky_offensive_not_against_germans_only():
    pos = russian_front(defender="GE 8")
    pos.set("kerensky_round", 143)
    pos.activate("Lutsk", "attack")
    pos.run("resolve_attacks", "ap", answers=["attack Lemberg from Lutsk"], dice=[2, 3])
    assert not any(d.choice == "kerensky_attack" for d in pos.asked)
    assert "die 2 modified to 2" in fire_line(pos, "ap")


# ============================================================ AP 46 Brusilov Offensive
@pytest.mark.card("AP 46")
@pytest.mark.rule("12.2.7")
def test_brusilov_offensive_an_operation_whose_russian_attacks_get_one():
    pos = russian_front(defender="GE 8")
    brusilov = card(pos, BRUSILOV)
    pos.play_event("ap", brusilov, answers=["activate Lutsk attack", "attack Lemberg from Lutsk"], dice=[2, 3])
    assert activations(pos) == ["ap activates Lutsk for attack: 1 OPS, 3 left"]
    assert "die 2 modified to 3" in fire_line(pos, "ap")
    assert "die 3 modified to 3" in fire_line(pos, "cp")
    assert pos.var("war_status", "ap") == 2
    assert pile_of(pos, brusilov) == "removed:ap"


@pytest.mark.card("AP 46")
@pytest.mark.rule("12.2.4")
def test_brusilov_offensive_cancels_the_trench_in_one_attack_on_austrians():
    """A level 1 trench shifts the Russian fire one column left; cancelled, it does not."""
    pos = russian_front(defender="AH 1", trench_level=1)
    pos.play_event("ap", card(pos, BRUSILOV), answers=[
        "activate Lutsk attack", "attack Lemberg from Lutsk", "Brusilov Offensive: cancel the trench in Lemberg"],
        dice=[2, 3])
    assert "(shift 0), die 2 modified to 3" in fire_line(pos, "ap")
    assert pos.var("brusilov_now") is False


@pytest.mark.card("AP 46")
@pytest.mark.rule("12.2.4")
def test_brusilov_offensive_trench_stays_when_kept_or_against_germans():
    pos = russian_front(defender="AH 1", trench_level=1)
    pos.play_event("ap", card(pos, BRUSILOV), answers=[
        "activate Lutsk attack", "attack Lemberg from Lutsk", "keep the trench cancellation"], dice=[2, 3])
    assert "(shift -1), die 2 modified to 3" in fire_line(pos, "ap")

    pos = russian_front(defender="AH 1", trench_level=1)
    pos.place("GEc", "Lemberg")
    pos.play_event("ap", card(pos, BRUSILOV), answers=["activate Lutsk attack", "attack Lemberg from Lutsk",
                                                       "GEc in Lemberg: flipped"], dice=[2, 3])
    assert not any(d.choice == "brusilov_breakthrough" for d in pos.asked)
    assert "(shift -1), die 2 modified to 3" in fire_line(pos, "ap")


@pytest.mark.card("AP 46")
@pytest.mark.rule("12.2.7")
def test_brusilov_offensive_not_for_attacks_without_russians():
    pos = yanks_position("FR 1")
    pos.set("brusilov_round", 154)
    pos.activate("Amiens", "attack")
    pos.run("resolve_attacks", "ap", answers=["attack Cambrai from Amiens"], dice=[3, 3])
    assert "die 3 modified to 3" in fire_line(pos, "ap")


# ============================================================ AP 51 Everyone Into Battle
def western_front() -> Position:
    pos = Position()
    at(pos, 17, 2)
    for unit in ("FR 1", "BR 1", "US 1"):
        pos.place(unit, "Amiens")
    pos.place("IT 1", "Venice")
    pos.place("BR 2", "Venice")
    pos.place("RU 1", "Lutsk")
    pos.place("RUc", "Lutsk")
    pos.place("BR 3", "Lutsk")
    return pos


@pytest.mark.card("AP 51")
@pytest.mark.rule("9.5.1.1")
@pytest.mark.parametrize("played, allowed", [
    (None, False), (MICHAEL, True), (BLUCHER, True), (PEACE_OFFENSIVE, True)])
def test_everyone_into_battle_after_a_german_offensive(played, allowed):
    pos = western_front()
    if played:
        mark_played(pos, played)
    assert pos.may_play_event("ap", card(pos, EVERYONE)) is allowed


@pytest.mark.card("AP 51")
@pytest.mark.rule("9.2.3")
def test_everyone_into_battle_one_nationality_in_france_and_italy_this_turn():
    pos = western_front()
    mark_played(pos, MICHAEL)
    pos.play_event("ap", card(pos, EVERYONE))
    assert pos.var("war_status", "ap") == 1
    pos.run("operations", "ap", 4, None, answers=[
        "activate Amiens move", "activate Venice move", "done activating", "end movement"])
    assert activations(pos) == ["ap activates Amiens for move: 1 OPS, 3 left",
                                "ap activates Venice for move: 1 OPS, 2 left"]
    # Outside Italy, France and Belgium nothing changes; next turn neither.
    assert value(pos, "activation_cost", "Lutsk", "ap", "move") == 2
    at(pos, 18, 1)
    assert value(pos, "activation_cost", "Amiens", "ap", "move") == 2
    assert value(pos, "activation_cost", "Venice", "ap", "move") == 2


# ============================================================ CP 10 SUD Army
def sud_position() -> Position:
    """Two Austro-German stacks: AH 1 with two German corps in Lemberg, AH 2 with one in Cracow."""
    pos = Position()
    at(pos, 5, 2)
    for unit, space in [("AH 1", "Lemberg"), ("GEc", "Lemberg"), ("GEc", "Lemberg"),
                        ("AH 2", "Cracow"), ("GEc", "Cracow")]:
        pos.place(unit, space)
    return pos


@pytest.mark.card("CP 10")
@pytest.mark.rule("9.2.3")
def test_sud_army_one_austro_german_stack_a_round_costs_one():
    pos = sud_position()
    assert value(pos, "activation_cost", "Lemberg", "cp", "move") == 2
    pos.play_event("cp", card(pos, SUD))
    assert pile_of(pos, card(pos, SUD)) == "removed:cp"
    pos.run("operations", "cp", 3, None, answers=[
        "activate Lemberg move", "activate Cracow move", "end movement"])
    assert activations(pos) == ["cp activates Lemberg for move: 1 OPS, 2 left",
                                "cp activates Cracow for move: 2 OPS, 0 left"]
    # The next action round another stack may be chosen.
    at(pos, 5, 3)
    pos.run("operations", "cp", 3, None, answers=["activate Cracow move", "activate Lemberg move", "end movement"])
    assert activations(pos)[2:] == ["cp activates Cracow for move: 1 OPS, 2 left",
                                    "cp activates Lemberg for move: 2 OPS, 0 left"]


@pytest.mark.card("CP 10")
@pytest.mark.rule("9.2.3")
def test_sud_army_not_for_german_armies_nor_without_austrians():
    pos = Position()
    at(pos, 5, 2)
    mark_played(pos, SUD)
    pos.place("AH 1", "Lemberg")
    pos.place("GE 8", "Lemberg")
    pos.place("TUc", "Cracow")
    pos.place("GEc", "Cracow")
    assert value(pos, "activation_cost", "Lemberg", "cp", "move") == 2
    assert value(pos, "activation_cost", "Cracow", "cp", "move") == 2


@pytest.mark.card("CP 10")
@pytest.mark.rule("9.2.3")
def test_sud_army_a_stack_that_saves_nothing_does_not_use_the_round():
    """AH 1, a German corps and GE 8 in Lemberg cost 2 with or without SUD Army;
    activating them first leaves the saving for the stack in Cracow."""
    pos = Position()
    at(pos, 5, 2)
    mark_played(pos, SUD)
    for unit, space in [("AH 1", "Lemberg"), ("GEc", "Lemberg"), ("GE 8", "Lemberg"),
                        ("AH 2", "Cracow"), ("GEc", "Cracow")]:
        pos.place(unit, space)
    pos.run("operations", "cp", 3, None, answers=["activate Lemberg move", "activate Cracow move", "end movement"])
    assert activations(pos) == ["cp activates Lemberg for move: 2 OPS, 1 left",
                                "cp activates Cracow for move: 1 OPS, 0 left"]


# ============================================================ CP 29 11th Army
def eleventh_position(space: str = "Tarnow") -> Position:
    pos = Position()
    at(pos, 7, 2)
    pos.place("GE 11", space)
    pos.place("AHc", space)
    pos.place("BUc", space)
    pos.control(space, "cp")
    return pos


@pytest.mark.card("CP 29")
@pytest.mark.rule("9.2.3")
def test_eleventh_army_activates_with_any_cp_corps_as_one():
    pos = eleventh_position()
    pos.run("operations", "cp", 3, None, answers=["activate Tarnow move", "end movement"])
    assert activations(pos) == ["cp activates Tarnow for move: 3 OPS, 0 left"]
    pos = eleventh_position()
    pos.play_event("cp", card(pos, ELEVENTH))
    assert pile_of(pos, card(pos, ELEVENTH)) == "removed:cp"
    pos.run("operations", "cp", 3, None, answers=["activate Tarnow move", "end movement"])
    assert activations(pos) == ["cp activates Tarnow for move: 1 OPS, 2 left"]


@pytest.mark.card("CP 29")
@pytest.mark.rule("9.2.3")
def test_eleventh_army_only_gathers_corps():
    pos = eleventh_position()
    mark_played(pos, ELEVENTH)
    pos.place("AH 1", "Tarnow")
    assert value(pos, "activation_cost", "Tarnow", "cp", "move") == 2  # GE 11 with its corps, and the AH army
    pos = Position()
    at(pos, 7, 2)
    mark_played(pos, ELEVENTH)
    pos.place("GE 8", "Tarnow")
    pos.place("AHc", "Tarnow")
    assert value(pos, "activation_cost", "Tarnow", "cp", "move") == 2  # not GE 11


@pytest.mark.card("CP 29")
@pytest.mark.card("AP 9")
@pytest.mark.rule("9.2.3")
def test_eleventh_army_counts_as_one_unit_under_moltke():
    pos = eleventh_position("Sedan")
    mark_played(pos, MOLTKE)
    assert value(pos, "activation_cost", "Sedan", "cp", "move") == 3
    mark_played(pos, ELEVENTH)
    assert value(pos, "activation_cost", "Sedan", "cp", "move") == 1
