"""The political and strategic events: VP and war status, neutral entry, the US
Entry and Russian Capitulation tracks, peace terms, the naval cards and the
events that change RPs.

Each test builds a position with the rule-test harness, plays the card the way
an action round does (`play_as_event`) or runs whole action rounds and phases,
and checks what the rulebook says must change, and each condition under which
the card must be refused.

The cards: AP 13 Rape of Belgium, AP 16 Romania, AP 26 Lusitania, AP 33 Grand
Fleet, AP 37 Independent Air Force, AP 40 14 Points, AP 44 Greece, AP 52
Convoy, AP 55 Over There, AP 62 The Sixtus Affair, AP 65 Influenza; CP 9
Reichstag Truce, CP 25 High Seas Fleet, CP 27 Zeppelin Raids, CP 32 War in
Africa, CP 33 Walter Rathenau, CP 34 Bulgaria, CP 36 U-Boats Unleashed, CP 45
Treaty of Brest Litovsk, CP 53 Bolshevik Revolution, CP 65 Prince Max.  Also
the generic constructs they need: the action phase's signal `action_taken`
(and the engine event `card_played`, removed), `roll_peace_terms` and the
Brest-Litovsk attack ban.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cards.test_card_events import at, hand, pile_of, run_phase, value  # noqa: E402
from rules.harness import Position, Unanswered  # noqa: E402

RAPE = ("ap", 13)
ROMANIA = ("ap", 16)
LUSITANIA = ("ap", 26)
GRAND_FLEET = ("ap", 33)
IAF = ("ap", 37)
FOURTEEN = ("ap", 40)
GREECE = ("ap", 44)
CONVOY = ("ap", 52)
OVER_THERE = ("ap", 55)
SIXTUS = ("ap", 62)
INFLUENZA = ("ap", 65)
BLOCKADE = ("ap", 2)
SALONIKA = ("ap", 30)
ZIMMERMANN = ("ap", 54)
GUNS = ("cp", 1)
REICHSTAG = ("cp", 9)
HIGH_SEAS = ("cp", 25)
ZEPPELIN = ("cp", 27)
AFRICA = ("cp", 32)
RATHENAU = ("cp", 33)
BULGARIA = ("cp", 34)
UBOATS = ("cp", 36)
BREST = ("cp", 45)
TSAR_FALLS = ("cp", 52)
BOLSHEVIK = ("cp", 53)
HL = ("cp", 54)
PRINCE_MAX = ("cp", 65)


def card(pos: Position, key):
    return pos.card(*key)


def mark_played(pos: Position, *keys) -> None:
    """As if each card's event had been played earlier in the game."""
    for key in keys:
        c = card(pos, key)
        if c.index not in pos.s["played"]:
            pos.s["played"].append(c.index)
            pos.game.touch_entity("played", c)
    pos.game.invalidate()


def war_status(pos: Position, cp: int, ap: int) -> None:
    pos.set("war_status", cp, key="cp")
    pos.set("war_status", ap, key="ap")


def option_of(pos: Position, key, use: str) -> str:
    c = card(pos, key)
    return f"play {c.data.number} {use} ({c.data.name.text})"


def act(pos: Position, side: str, answers, dice=()) -> None:
    """One action round of one side, answered from `answers` (the first is the action)."""
    pos.run("action_round", side, answers=list(answers), dice=dice)


def action_options(pos: Position, side: str) -> list[str]:
    pos.game.ask_forced = True
    try:
        with pytest.raises(Unanswered):
            pos.run("action_round", side)
    finally:
        pos.game.ask_forced = False
        pos.s["pending"] = None
    return pos.asked[-1].options


def start_replacement_phase(pos: Position) -> None:
    """Only what happens as the Replacement Phase starts: its phase_started
    triggers, before either side spends."""
    g = pos.game
    pos.s["stack"] = []
    pos.s["result"] = None
    g.invalidate()
    g.emit("phase_started", (pos.w.names["replacement"],))
    d = g.run()
    assert d is None
    pos.s["result"] = None


def rp(pos: Position, nation: str) -> int:
    return pos.var("rp_points", nation)


# ============================================================ AP 13 Rape of Belgium
@pytest.mark.card("AP 13")
def test_rape_of_belgium_needs_guns_of_august_played_as_an_event():
    pos = Position()
    at(pos, 2)
    assert pos.event_forbidden_by("ap", card(pos, RAPE)) == ["playable_events"]
    mark_played(pos, GUNS)
    assert pos.may_play_event("ap", card(pos, RAPE))


@pytest.mark.card("AP 13")
def test_rape_of_belgium_guns_of_august_used_for_rp_does_not_count():
    """Guns of August played for its RPs is not the event: Rape of Belgium stays closed."""
    pos = Position()
    at(pos, 1)
    hand(pos, "cp", "Guns of August")
    act(pos, "cp", [option_of(pos, GUNS, "rp")])
    assert pos.event_forbidden_by("ap", card(pos, RAPE)) == ["playable_events"]


@pytest.mark.card("AP 13")
@pytest.mark.rule("5.1.2")
def test_rape_of_belgium_one_vp_to_the_allies():
    pos = Position()
    at(pos, 1, 2)
    mark_played(pos, GUNS)
    pos.play_event("ap", card(pos, RAPE))
    assert pos.var("vp") == 9
    assert pos.var("war_status", "ap") == 2
    assert pile_of(pos, card(pos, RAPE)) == "removed:ap"


# ============================================================ AP 16 Romania
@pytest.mark.card("AP 16")
@pytest.mark.rule("9.5.2.1")
def test_romania_enters_the_war_with_its_set_up():
    pos = Position()
    at(pos, 7)
    assert not pos.s["at_war"]["ro"]
    pos.play_event("ap", card(pos, ROMANIA), answers=[
        "set up a corps in Ploesti", "set up a corps in Constanta", "set up a corps in Jassy",
        "set up a corps in Caracal"])
    assert pos.s["at_war"]["ro"] is True
    assert pos.var("neutral_entry_turn") == 7
    assert pos.units_at("Bucharest") == ["ROc", "ROc"]
    for s in ("Ploesti", "Constanta", "Jassy", "Caracal"):
        assert pos.units_at(s) == ["ROc"]
    assert pos.var("war_status", "ap") == 1
    assert pile_of(pos, card(pos, ROMANIA)) == "removed:ap"


@pytest.mark.card("AP 16")
@pytest.mark.rule("9.5.2.2")
def test_romania_not_in_a_turn_of_another_neutral_entry():
    pos = Position()
    at(pos, 7)
    pos.set("neutral_entry_turn", 7)
    assert pos.event_forbidden_by("ap", card(pos, ROMANIA)) == ["playable_events"]


@pytest.mark.card("AP 16")
@pytest.mark.rule("16.4.5")
@pytest.mark.parametrize("box, allowed", [
    ("tsar_took_command", True), ("tsar_fell", False), ("bolsheviks_rose", False), ("brest_litovsk_signed", False)])
def test_romania_not_after_the_fall_of_the_tsar(box, allowed):
    pos = Position()
    at(pos, 12)
    pos.set("russian_capitulation", box)
    assert pos.may_play_event("ap", card(pos, ROMANIA)) is allowed


# ============================================================ AP 26 Lusitania
@pytest.mark.card("AP 26")
def test_lusitania_after_blockade_and_before_zimmermann():
    pos = Position()
    at(pos, 6)
    lus = card(pos, LUSITANIA)
    assert pos.event_forbidden_by("ap", lus) == ["playable_events"]
    mark_played(pos, BLOCKADE)
    assert pos.may_play_event("ap", lus)
    war_status(pos, 15, 15)
    pos.play_event("ap", card(pos, ZIMMERMANN))
    assert pos.event_forbidden_by("ap", lus) == ["playable_events"]


@pytest.mark.card("AP 26")
@pytest.mark.rule("5.1.2")
def test_lusitania_one_vp_to_the_allies():
    pos = Position()
    at(pos, 6)
    mark_played(pos, BLOCKADE)
    pos.play_event("ap", card(pos, LUSITANIA))
    assert pos.var("vp") == 9
    assert pos.var("war_status", "ap") == 2
    assert pile_of(pos, card(pos, LUSITANIA)) == "removed:ap"


# ============================================================ CP 25 High Seas Fleet / AP 33 Grand Fleet
def naval_position() -> Position:
    pos = Position()
    at(pos, 6, 2)
    hand(pos, "cp", "High Seas Fleet")
    hand(pos, "ap", "Grand Fleet", "Blockade")
    return pos


@pytest.mark.card("CP 25")
@pytest.mark.rule("8.1.3")
def test_high_seas_fleet_vp_once_the_allies_act_otherwise():
    """The VP comes after the Allies' next action if it was not the Grand Fleet: here an RP play."""
    pos = naval_position()
    act(pos, "cp", [option_of(pos, HIGH_SEAS, "event")])
    assert pos.var("vp") == 10, "not before the Allies have answered"
    assert pile_of(pos, card(pos, HIGH_SEAS)) == "removed:cp"
    act(pos, "ap", [option_of(pos, BLOCKADE, "rp")])
    assert pos.var("vp") == 11
    # Only once: later Allied actions do not give it again.
    pos.set("last_action", None, key="ap")
    act(pos, "ap", [option_of(pos, GRAND_FLEET, "rp")])
    assert pos.var("vp") == 11


@pytest.mark.card("CP 25")
@pytest.mark.parametrize("use", ["automatic_op", "peace_offer"])
def test_high_seas_fleet_vp_after_an_action_without_a_card(use):
    """An automatic operation or a refused peace offer (die 4: no change on the
    table) is the Allies' next action as much as a card play."""
    pos = naval_position()
    pos.set("vp", 8)
    act(pos, "cp", [option_of(pos, HIGH_SEAS, "event")])
    answers = [use] + (["accept the peace terms: no"] if use == "peace_offer" else [])
    act(pos, "ap", answers, dice=[4])
    assert pos.var("vp") == 9


@pytest.mark.card("AP 33")
@pytest.mark.card("CP 25")
def test_grand_fleet_right_after_high_seas_fleet_cancels_it():
    pos = naval_position()
    act(pos, "cp", [option_of(pos, HIGH_SEAS, "event")])
    act(pos, "ap", [option_of(pos, GRAND_FLEET, "event")])
    assert pos.var("vp") == 10
    assert pile_of(pos, card(pos, GRAND_FLEET)) == "removed:ap"
    assert any("cancelled" in line for line in pos.log())


@pytest.mark.card("AP 33")
@pytest.mark.card("CP 25")
def test_grand_fleet_a_round_late_does_not_cancel():
    pos = naval_position()
    act(pos, "cp", [option_of(pos, HIGH_SEAS, "event")])
    act(pos, "ap", [option_of(pos, BLOCKADE, "rp")])
    assert pos.var("vp") == 11
    pos.set("action_round", 3)
    act(pos, "ap", [option_of(pos, GRAND_FLEET, "event")])
    assert pos.var("vp") == 11


@pytest.mark.card("AP 33")
def test_grand_fleet_without_a_sortie_is_played_for_nothing():
    pos = naval_position()
    assert pos.may_play_event("ap", card(pos, GRAND_FLEET))
    act(pos, "ap", [option_of(pos, GRAND_FLEET, "event")])
    assert pos.var("vp") == 10
    assert pile_of(pos, card(pos, GRAND_FLEET)) == "removed:ap"


# ============================================================ the action_taken signal / card_played
@pytest.mark.rule("8.1.3")
def test_action_taken_carries_the_side_the_use_and_the_card():
    """The signal carries the side, the use and the card of each action (the High Seas Fleet tests show a trigger on it firing after card plays, automatic operations and peace offers)."""
    pos = naval_position()
    seen = []
    g = pos.game
    emit = g.emit

    def spy(event, args):
        if event == "action_taken":
            seen.append((args[0].key, args[1].key, None if args[2] is None else args[2].data.name.text))
        return emit(event, args)

    g.emit = spy
    act(pos, "ap", [option_of(pos, BLOCKADE, "rp")])
    act(pos, "cp", [option_of(pos, HIGH_SEAS, "event")])
    assert seen == [("ap", "rp", "Blockade"), ("cp", "event", "High Seas Fleet")]


def test_card_played_is_no_engine_event(tmp_path):
    """Nothing raised card_played, so a trigger on it would never fire: the
    checker now refuses it and points at the action phase's signal instead."""
    from pogdsl.compiler import compile_paths
    from pogdsl.semantics.vocabulary import EVENTS

    assert "card_played" not in EVENTS
    project = Path(__file__).resolve().parents[1] / "diagnostics" / "project"
    case = tmp_path / "case.pog"
    case.write_text('trigger on_play on card_played(c, how) cites 3.1 {\n  shift vp by 1\n}\n')
    comp = compile_paths([case], root=project)
    codes = [d.code for d in comp.reporter.errors]
    assert "E0215" in codes


# ============================================================ AP 37 / CP 33 Walter Rathenau and the IAF
@pytest.mark.card("CP 33")
@pytest.mark.rule("17.1.1")
def test_walter_rathenau_one_more_german_rp_every_replacement_phase():
    pos = Position()
    at(pos, 6)
    pos.play_event("cp", card(pos, RATHENAU))
    assert pos.var("war_status", "cp") == 2
    assert pile_of(pos, card(pos, RATHENAU)) == "removed:cp"
    pos.set("rp_points", 2, key="ge")
    start_replacement_phase(pos)
    assert rp(pos, "ge") == 3
    assert rp(pos, "ah") == 0
    # the next turn again, even with no German RP recorded
    pos.set("rp_points", 0, key="ge")
    pos.s["turn"] = 7
    start_replacement_phase(pos)
    assert rp(pos, "ge") == 1


@pytest.mark.card("CP 33")
def test_without_rathenau_no_extra_rp():
    pos = Position()
    pos.set("rp_points", 2, key="ge")
    start_replacement_phase(pos)
    assert rp(pos, "ge") == 2


@pytest.mark.card("CP 33")
@pytest.mark.rule("17.1.1")
def test_rathenau_rp_can_be_spent_on_a_german_step():
    """The extra RP is really spent in the phase: a reduced German army is flipped."""
    pos = Position()
    at(pos, 6)
    pos.play_event("cp", card(pos, RATHENAU))
    ge8 = pos.place("GE 8", "Berlin", reduced=True)
    run_phase(pos, "replacement", answers=["flip GE 8"])
    assert pos.s["reduced"][ge8.index] is False
    assert rp(pos, "ge") == 0


@pytest.mark.card("AP 37")
@pytest.mark.card("CP 33")
@pytest.mark.parametrize("order", ["rathenau_first", "iaf_first"])
def test_independent_air_force_cancels_or_prevents_the_rathenau_bonus(order):
    pos = Position()
    at(pos, 12)
    first, second = (("cp", RATHENAU), ("ap", IAF)) if order == "rathenau_first" else (("ap", IAF), ("cp", RATHENAU))
    pos.play_event(first[0], card(pos, first[1]))
    pos.play_event(second[0], card(pos, second[1]))
    assert pos.var("war_status", "ap") == 1
    assert pile_of(pos, card(pos, IAF)) == "removed:ap"
    pos.set("rp_points", 2, key="ge")
    start_replacement_phase(pos)
    assert rp(pos, "ge") == 2


@pytest.mark.card("CP 33")
@pytest.mark.rule("9.5.1.1")
def test_rathenau_may_still_be_played_after_the_iaf():
    pos = Position()
    at(pos, 12)
    mark_played(pos, IAF)
    assert pos.may_play_event("cp", card(pos, RATHENAU))


# ============================================================ CP 27 Zeppelin Raids
@pytest.mark.card("CP 27")
@pytest.mark.rule("17.1.1")
@pytest.mark.parametrize("recorded, left", [(6, 2), (4, 0), (3, 0), (0, 0)])
def test_zeppelin_raids_four_british_rp_fewer_this_turn(recorded, left):
    pos = Position()
    at(pos, 6, 3)
    pos.play_event("cp", card(pos, ZEPPELIN))
    assert pos.var("war_status", "cp") == 1
    assert pile_of(pos, card(pos, ZEPPELIN)) == "removed:cp"
    pos.set("rp_points", recorded, key="br")
    pos.set("rp_points", 3, key="fr")
    start_replacement_phase(pos)
    assert rp(pos, "br") == left
    assert rp(pos, "fr") == 3


@pytest.mark.card("CP 27")
def test_zeppelin_raids_only_this_turn():
    pos = Position()
    at(pos, 6, 3)
    pos.play_event("cp", card(pos, ZEPPELIN))
    pos.s["turn"] = 7
    pos.set("rp_points", 5, key="br")
    start_replacement_phase(pos)
    assert rp(pos, "br") == 5


@pytest.mark.card("CP 27")
def test_zeppelin_raids_leave_nothing_to_flip_a_british_army():
    """With 3 BR RPs recorded and the raids, the Allies have no British step to buy."""
    pos = Position()
    at(pos, 6, 3)
    pos.place("BR 1", "London", reduced=True)
    pos.set("rp_points", 3, key="br")
    pos.play_event("cp", card(pos, ZEPPELIN))
    run_phase(pos, "replacement")
    assert not any("flip BR 1" in o for d in pos.asked for o in d.options)
    i = [k for k, u in enumerate(pos.w.units) if u.key == "BR 1"][0]
    assert pos.s["reduced"][i] is True


# ============================================================ CP 36 U-Boats Unleashed / AP 52 Convoy
@pytest.mark.card("CP 36")
def test_u_boats_unleashed_needs_h_l_take_command():
    pos = Position()
    at(pos, 12)
    assert pos.event_forbidden_by("cp", card(pos, UBOATS)) == ["playable_events"]
    mark_played(pos, HL)
    assert pos.may_play_event("cp", card(pos, UBOATS))


@pytest.mark.card("CP 36")
@pytest.mark.card("AP 52")
@pytest.mark.rule("17.1.1")
def test_u_boats_one_british_rp_fewer_every_turn_until_convoy():
    pos = Position()
    at(pos, 12)
    mark_played(pos, HL)
    pos.play_event("cp", card(pos, UBOATS))
    assert pos.var("war_status", "cp") == 2
    assert pile_of(pos, card(pos, UBOATS)) == "removed:cp"
    for t in (12, 13):
        pos.s["turn"] = t
        pos.set("rp_points", 3, key="br")
        start_replacement_phase(pos)
        assert rp(pos, "br") == 2
    pos.set("rp_points", 0, key="br")
    start_replacement_phase(pos)
    assert rp(pos, "br") == 0
    pos.play_event("ap", card(pos, CONVOY))
    pos.set("rp_points", 3, key="br")
    start_replacement_phase(pos)
    assert rp(pos, "br") == 3


@pytest.mark.card("AP 52")
def test_convoy_only_after_u_boats_unleashed():
    pos = Position()
    at(pos, 12)
    assert pos.event_forbidden_by("ap", card(pos, CONVOY)) == ["playable_events"]
    mark_played(pos, UBOATS)
    assert pos.may_play_event("ap", card(pos, CONVOY))


@pytest.mark.card("AP 52")
@pytest.mark.rule("5.1.2")
def test_convoy_one_vp_to_the_allies():
    pos = Position()
    at(pos, 12)
    mark_played(pos, UBOATS)
    pos.play_event("ap", card(pos, CONVOY))
    assert pos.var("vp") == 9
    assert pile_of(pos, card(pos, CONVOY)) == "removed:ap"


@pytest.mark.card("CP 27")
@pytest.mark.card("CP 36")
def test_zeppelins_and_u_boats_together_stop_at_zero():
    pos = Position()
    at(pos, 12)
    mark_played(pos, HL)
    pos.play_event("cp", card(pos, UBOATS))
    pos.play_event("cp", card(pos, ZEPPELIN))
    pos.set("rp_points", 6, key="br")
    start_replacement_phase(pos)
    assert rp(pos, "br") == 1
    pos.set("rp_points", 4, key="br")
    start_replacement_phase(pos)
    assert rp(pos, "br") == 0


# ============================================================ AP 65 Influenza
@pytest.mark.card("AP 65")
@pytest.mark.rule("16.2")
def test_influenza_needs_combined_war_status_30():
    pos = Position()
    at(pos, 14)
    war_status(pos, 15, 14)
    assert pos.event_forbidden_by("ap", card(pos, INFLUENZA)) == ["playable_events"]
    war_status(pos, 15, 15)
    assert pos.may_play_event("ap", card(pos, INFLUENZA))


@pytest.mark.card("AP 65")
@pytest.mark.rule("9.4.1")
def test_influenza_no_rp_plays_for_the_rest_of_the_turn_recorded_rps_kept():
    pos = Position()
    at(pos, 14, 2)
    war_status(pos, 15, 15)
    hand(pos, "cp", "Reichstag Truce")
    hand(pos, "ap", "Blockade", "Influenza")
    act(pos, "ap", [option_of(pos, BLOCKADE, "rp")])
    fr_recorded = rp(pos, "fr")
    assert fr_recorded == 2
    pos.set("action_round", 3)
    act(pos, "ap", [option_of(pos, INFLUENZA, "event")])
    assert pile_of(pos, card(pos, INFLUENZA)) == "removed:ap"
    assert rp(pos, "fr") == fr_recorded
    pos.set("action_round", 4)
    assert option_of(pos, REICHSTAG, "rp") not in action_options(pos, "cp")
    assert option_of(pos, REICHSTAG, "ops") in action_options(pos, "cp")
    # next turn, RP plays are open again
    at(pos, 15, 1)
    assert option_of(pos, REICHSTAG, "rp") in action_options(pos, "cp")


# ============================================================ AP 40 14 Points
@pytest.mark.card("AP 40")
@pytest.mark.rule("16.3.5")
def test_fourteen_points_only_after_the_zimmermann_telegram():
    pos = Position()
    at(pos, 13)
    war_status(pos, 15, 15)
    assert pos.event_forbidden_by("ap", card(pos, FOURTEEN)) == ["playable_events"]
    pos.play_event("ap", card(pos, ZIMMERMANN))
    assert pos.may_play_event("ap", card(pos, FOURTEEN))


@pytest.mark.card("AP 40")
@pytest.mark.rule("16.5.1")
def test_fourteen_points_vp_and_only_the_allies_offer_peace_from_then_on():
    pos = Position()
    at(pos, 14)
    war_status(pos, 15, 15)
    pos.play_event("ap", card(pos, ZIMMERMANN))
    pos.set("vp", 12)
    assert "peace_offer" in action_options(pos, "cp")
    pos.play_event("ap", card(pos, FOURTEEN))
    assert pos.var("vp") == 11
    assert pile_of(pos, card(pos, FOURTEEN)) == "removed:ap"
    assert "peace_offer" not in action_options(pos, "cp")
    pos.set("vp", 8)
    assert "peace_offer" in action_options(pos, "ap")


# ============================================================ AP 62 The Sixtus Affair
@pytest.mark.card("AP 62")
@pytest.mark.rule("16.5.2")
@pytest.mark.parametrize("die, vp", [(1, 11), (3, 11), (4, 12), (5, 12), (6, 13)])
def test_sixtus_affair_rolls_on_the_0_19_row_for_the_allies(die, vp):
    """The 0-19 row even at a combined War Status of 35 (where a 3 would do nothing):
    1-3 one VP toward the Allies, 4-5 nothing, 6 one VP toward the Central Powers."""
    pos = Position()
    at(pos, 15)
    war_status(pos, 20, 15)
    pos.set("vp", 12)
    pos.play_event("ap", card(pos, SIXTUS), dice=[die])
    assert pos.var("vp") == vp
    assert pos.var("war_status", "ap") == 16
    assert pile_of(pos, card(pos, SIXTUS)) == "removed:ap"


@pytest.mark.card("AP 62")
@pytest.mark.rule("16.5.2")
def test_sixtus_affair_is_not_an_offer_nothing_to_accept():
    """No answer is asked of the Central Powers and the game goes on; nor does the
    Allied VP range of 16.5.1.1 apply (VP 15 here)."""
    pos = Position()
    at(pos, 15)
    pos.set("vp", 15)
    assert pos.may_play_event("ap", card(pos, SIXTUS))
    pos.play_event("ap", card(pos, SIXTUS), dice=[2])
    assert not any(d.choice == "answer_peace_terms" for d in pos.asked)
    assert pos.s["result"] is None
    assert pos.var("vp") == 14


# ============================================================ AP 44 Greece
@pytest.mark.card("AP 44")
@pytest.mark.rule("9.5.2.1")
def test_greece_enters_the_war_with_its_set_up():
    pos = Position()
    at(pos, 12)
    pos.play_event("ap", card(pos, GREECE))
    assert pos.s["at_war"]["gr"] is True
    assert pos.var("greek_units_placed") is True
    greek = [pos.w.units[i].key for i, loc in enumerate(pos.s["loc"]) if loc is not None]
    assert greek and all(k.startswith("GR") for k in greek)
    assert pos.var("war_status", "ap") == 1
    assert pile_of(pos, card(pos, GREECE)) == "removed:ap"
    assert pos.var("neutral_entry_turn") == 12


@pytest.mark.card("AP 44")
@pytest.mark.rule("9.5.2.4")
def test_greece_after_salonika_does_not_set_up_the_greeks_twice():
    pos = Position()
    at(pos, 10)
    pos.run("limited_greek_entry")
    before = sorted(pos.w.units[i].key for i, loc in enumerate(pos.s["loc"]) if loc is not None)
    assert before and not pos.s["at_war"]["gr"]
    at(pos, 12)
    pos.play_event("ap", card(pos, GREECE))
    after = sorted(pos.w.units[i].key for i, loc in enumerate(pos.s["loc"]) if loc is not None)
    assert after == before
    assert pos.s["at_war"]["gr"] is True


@pytest.mark.card("AP 44")
@pytest.mark.rule("9.5.2.2")
def test_greece_not_in_a_turn_of_another_neutral_entry():
    pos = Position()
    at(pos, 12)
    pos.set("neutral_entry_turn", 12)
    assert pos.event_forbidden_by("ap", card(pos, GREECE)) == ["playable_events"]


# ============================================================ CP 34 Bulgaria
BULGARIAN_SETUP = ["set up a corps in Plevna", "set up a corps in Varna", "set up a corps in Burgas",
                   "set up a corps in Strumitsa"]

@pytest.mark.card("CP 34")
@pytest.mark.rule("9.5.2.1")
def test_bulgaria_enters_the_war_with_its_set_up():
    pos = Position()
    at(pos, 7)
    pos.play_event("cp", card(pos, BULGARIA), answers=BULGARIAN_SETUP)
    assert pos.s["at_war"]["bu"] is True
    assert pos.units_at("Sofia") == ["BUc", "BUc"]
    for s in ("Plevna", "Varna", "Burgas", "Strumitsa"):
        assert pos.units_at(s) == ["BUc"]
    assert pos.var("war_status", "cp") == 2
    assert pile_of(pos, card(pos, BULGARIA)) == "removed:cp"


@pytest.mark.card("CP 34")
@pytest.mark.card("AP 16")
@pytest.mark.rule("9.5.2.2")
def test_bulgaria_then_romania_not_in_the_same_turn():
    pos = Position()
    at(pos, 7)
    assert pos.may_play_event("cp", card(pos, BULGARIA))
    pos.play_event("cp", card(pos, BULGARIA), answers=BULGARIAN_SETUP)
    assert pos.event_forbidden_by("ap", card(pos, ROMANIA)) == ["playable_events"]
    at(pos, 8)
    assert pos.may_play_event("ap", card(pos, ROMANIA))


@pytest.mark.card("CP 34")
def test_bulgaria_not_in_a_turn_of_another_neutral_entry():
    pos = Position()
    at(pos, 7)
    pos.set("neutral_entry_turn", 7)
    assert pos.event_forbidden_by("cp", card(pos, BULGARIA)) == ["playable_events"]


# ============================================================ AP 55 Over There
@pytest.mark.card("AP 55")
@pytest.mark.rule("16.3.4")
def test_over_there_on_a_turn_after_the_telegram():
    pos = Position()
    at(pos, 12)
    war_status(pos, 15, 15)
    ot = card(pos, OVER_THERE)
    assert pos.event_forbidden_by("ap", ot) == ["playable_events"]
    pos.play_event("ap", card(pos, ZIMMERMANN))
    assert pos.event_forbidden_by("ap", ot) == ["playable_events"], "not the same turn"
    at(pos, 13)
    assert pos.may_play_event("ap", ot)


@pytest.mark.card("AP 55")
@pytest.mark.rule("17.1.8")
def test_over_there_moves_the_marker_and_brings_us_rps():
    pos = Position()
    at(pos, 12)
    war_status(pos, 15, 15)
    pos.play_event("ap", card(pos, ZIMMERMANN))
    at(pos, 13)
    pos.play_event("ap", card(pos, OVER_THERE))
    assert pos.var("us_entry") == "over_there_played"
    assert pos.var("over_there_turn") == 13
    assert pile_of(pos, card(pos, OVER_THERE)) == "removed:ap"
    pos.run("play_for_replacements", "ap", card(pos, BLOCKADE))
    assert rp(pos, "us") == 1
    assert value(pos, "us_reinforcements_allowed") is False
    at(pos, 14)
    assert value(pos, "us_reinforcements_allowed") is True


# ============================================================ CP 9 Reichstag Truce
@pytest.mark.card("CP 9")
@pytest.mark.rule("16.1.4")
@pytest.mark.parametrize("level, allowed", [
    ("mobilization_level", True), ("limited_war_level", True), ("total_war_level", False)])
def test_reichstag_truce_not_once_the_cp_are_at_total_war(level, allowed):
    pos = Position()
    at(pos, 8)
    pos.set("commitment", level, key="cp")
    assert pos.may_play_event("cp", card(pos, REICHSTAG)) is allowed


@pytest.mark.card("CP 9")
@pytest.mark.rule("5.1.2")
def test_reichstag_truce_one_vp_to_the_central_powers():
    pos = Position()
    at(pos, 2)
    pos.play_event("cp", card(pos, REICHSTAG))
    assert pos.var("vp") == 11
    assert pos.var("war_status", "cp") == 1
    assert pile_of(pos, card(pos, REICHSTAG)) == "removed:cp"


# ============================================================ CP 32 War in Africa
@pytest.mark.card("CP 32")
def test_war_in_africa_allies_give_a_vp():
    pos = Position()
    at(pos, 8)
    pos.place("BRc", "reserve[ap]")
    pos.play_event("cp", card(pos, AFRICA), answers=["give the Central Powers one VP"])
    assert pos.var("vp") == 11
    assert pos.units_at("reserve[ap]") == ["BRc"]
    assert pos.var("war_status", "cp") == 1
    assert pile_of(pos, card(pos, AFRICA)) == "removed:cp"


@pytest.mark.card("CP 32")
@pytest.mark.parametrize("where", ["reserve[ap]", "Amiens"])
def test_war_in_africa_allies_give_a_british_corps_for_good(where):
    pos = Position()
    at(pos, 8)
    pos.place("BRc", where)
    pos.place("AUSc", "Amiens")
    pos.play_event("cp", card(pos, AFRICA), answers=["send BRc"])
    assert pos.var("vp") == 10
    assert "BRc" not in pos.units_at(where)
    assert pos.units_at("removed[ap]") == ["BRc"]
    options = [d.options for d in pos.asked if d.choice == "war_in_africa_corps"][0]
    assert not any("AUSc" in o for o in options), "a dominion corps is not a British corps here"


@pytest.mark.card("CP 32")
def test_war_in_africa_without_a_british_corps_the_vp_is_given():
    pos = Position()
    at(pos, 8)
    pos.place("BR 1", "Amiens")
    pos.place("CNDc", "Amiens")
    pos.play_event("cp", card(pos, AFRICA))
    assert pos.var("vp") == 11


# ============================================================ CP 53 Bolshevik Revolution
RUSSIAN_VP = ["Warsaw", "Riga", "Lodz", "Minsk", "Kiev", "Odessa", "Petrograd", "Moscow"]


def tsar_fell_position(fell_turn: int = 14, fell_vp: int = 3) -> Position:
    pos = Position()
    pos.set("russian_capitulation", "tsar_fell")
    pos.set("tsar_fell_turn", fell_turn)
    pos.set("tsar_fell_vp", fell_vp)
    for s in RUSSIAN_VP[:fell_vp]:
        pos.control(s, "cp")
    return pos


@pytest.mark.card("CP 53")
@pytest.mark.rule("16.4.6")
def test_bolshevik_revolution_needs_more_russian_vp_than_at_the_fall_and_a_later_turn():
    pos = tsar_fell_position()
    at(pos, 15)
    bolshevik = card(pos, BOLSHEVIK)
    assert pos.event_forbidden_by("cp", bolshevik) == ["playable_events"]
    pos.control(RUSSIAN_VP[3], "cp")
    assert pos.may_play_event("cp", bolshevik)
    at(pos, 14)
    assert pos.event_forbidden_by("cp", bolshevik) == ["playable_events"], "not the turn the Tsar fell"


@pytest.mark.card("CP 53")
@pytest.mark.rule("16.4.7")
def test_bolshevik_revolution_moves_the_marker_and_limits_russian_rps():
    pos = tsar_fell_position()
    at(pos, 15)
    pos.control(RUSSIAN_VP[3], "cp")
    pos.play_event("cp", card(pos, BOLSHEVIK))
    assert pos.var("russian_capitulation") == "bolsheviks_rose"
    assert pos.var("bolshevik_revolution_played") is True
    assert pile_of(pos, card(pos, BOLSHEVIK)) == "removed:cp"
    pos.set("rp_points", 4, key="ru")
    start_replacement_phase(pos)
    assert rp(pos, "ru") == 1
    assert pos.may_play_event("cp", card(pos, BREST))


# ============================================================ CP 45 Treaty of Brest Litovsk
@pytest.mark.card("CP 45")
@pytest.mark.rule("16.4.8")
def test_brest_litovsk_only_after_the_bolshevik_revolution():
    pos = tsar_fell_position()
    at(pos, 16)
    assert pos.event_forbidden_by("cp", card(pos, BREST)) == ["playable_events"]
    pos.set("russian_capitulation", "bolsheviks_rose")
    assert pos.may_play_event("cp", card(pos, BREST))


@pytest.mark.card("CP 45")
@pytest.mark.rule("16.4.9")
def test_brest_litovsk_eliminates_stray_and_interned_russians():
    pos = Position()
    at(pos, 16)
    pos.set("russian_capitulation", "bolsheviks_rose")
    pos.place("RU 1", "Kiev")
    pos.place("RUc", "Belgrade")            # outside the five nations
    pos.place("RUc", "Riga")
    pos.place("BRc", "Riga")                # stacked with an ally: interned
    pos.play_event("cp", card(pos, BREST))
    assert pos.var("russian_capitulation") == "brest_litovsk_signed"
    assert pos.units_at("Kiev") == ["RU 1"]
    assert pos.units_at("Belgrade") == []
    assert pos.units_at("Riga") == ["BRc"]
    assert pos.var("war_status", "cp") == 1
    assert pile_of(pos, card(pos, BREST)) == "removed:cp"


@pytest.mark.card("CP 45")
@pytest.mark.rule("5.5.2.1")
def test_brest_litovsk_lowers_the_cp_victory_level():
    pos = Position()
    at(pos, 16)
    pos.set("russian_capitulation", "bolsheviks_rose")
    pos.set("vp", 11)
    pos.play_event("cp", card(pos, BREST))
    pos.run("decide_by_vp", "test")
    assert pos.s["result"]["winner"] == "cp"


def attack_options(pos: Position, side: str, *spaces: str) -> list[str]:
    for s in spaces:
        pos.activate(s, "attack")
    pos.game.ask_forced = True
    try:
        with pytest.raises(Unanswered):
            pos.run("resolve_attacks", side)
    finally:
        pos.game.ask_forced = False
    return [o for d in pos.asked if d.choice == "declare_attack" for o in d.options]


@pytest.mark.card("CP 45")
@pytest.mark.rule("16.4.9")
@pytest.mark.parametrize("signed", [False, True])
def test_after_brest_litovsk_germans_may_not_attack_russians(signed):
    pos = Position()
    at(pos, 16, 2)
    pos.set("russian_capitulation", "brest_litovsk_signed" if signed else "bolsheviks_rose")
    pos.place("GE 8", "Posen")
    pos.place("RU 1", "Lodz")
    options = attack_options(pos, "cp", "Posen")
    assert ("attack Lodz from Posen" in options) is (not signed)


@pytest.mark.card("CP 45")
@pytest.mark.rule("16.4.9")
def test_after_brest_litovsk_turks_may_attack_russians_on_the_near_east_map():
    pos = Position()
    at(pos, 16, 2)
    pos.set("russian_capitulation", "brest_litovsk_signed")
    pos.s["at_war"]["tu"] = True
    pos.place("TU YLD", "Erzerum")
    pos.place("RUc", "Kars")
    pos.control("Kars", "ap")
    options = attack_options(pos, "cp", "Erzerum")
    assert "attack Kars from Erzerum" in options


@pytest.mark.card("CP 45")
@pytest.mark.rule("16.4.9")
def test_after_brest_litovsk_germans_may_still_attack_other_allies():
    pos = Position()
    at(pos, 16, 2)
    pos.set("russian_capitulation", "brest_litovsk_signed")
    pos.place("GE 1", "Metz")
    pos.place("FR 1", "Nancy")
    options = attack_options(pos, "cp", "Metz")
    assert "attack Nancy from Metz" in options


# ============================================================ CP 65 Prince Max
@pytest.mark.card("CP 65")
@pytest.mark.parametrize("turn, allowed", [(15, True), (16, True), (17, False), (20, False)])
def test_prince_max_not_after_turn_16(turn, allowed):
    pos = Position()
    at(pos, turn)
    assert pos.may_play_event("cp", card(pos, PRINCE_MAX)) is allowed


@pytest.mark.card("CP 65")
@pytest.mark.rule("9.5.1.3")
def test_prince_max_raises_war_status_by_three_once():
    pos = Position()
    at(pos, 15)
    war_status(pos, 20, 18)
    pos.play_event("cp", card(pos, PRINCE_MAX))
    assert pos.var("war_status", "cp") == 23
    assert value(pos, "combined_war_status") == 41
    assert pos.var("vp") == 10
    assert pile_of(pos, card(pos, PRINCE_MAX)) == "removed:cp"


@pytest.mark.card("CP 45")
@pytest.mark.rule("16.4.9")
def test_after_brest_litovsk_russians_attack_no_one_even_from_an_attack_space():
    """Even with an Attack marker already on their space (a marker the activation
    restriction would have refused), Russian units are not eligible attackers."""
    pos = Position()
    at(pos, 16, 2)
    pos.set("russian_capitulation", "brest_litovsk_signed")
    pos.place("RU 1", "Warsaw")
    pos.place("GE 8", "Lodz")
    pos.control("Lodz", "cp")
    options = attack_options(pos, "ap", "Warsaw")
    assert "attack Lodz from Warsaw" not in options
