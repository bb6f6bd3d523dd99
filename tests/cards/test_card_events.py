"""The events of seventeen strategy cards, played through the engine.

Each test builds a position with the rule-test harness, plays the card the way
an action round does (`play_as_event`: war status, the event, then the card is
removed or discarded) with fixed dice and scripted answers, and checks every
effect of the event and every condition under which the card may or may not
be played.  Combat cards are played inside a combat (9.5.4.1), so their tests
run `resolve_attacks` with the card in hand.

The cards: CP 1 Guns of August, CP 2 Wireless Intercepts, CP 6 and AP 12
Entrench, CP 8 Race to the Sea, CP 28 Tsar Takes Command, CP 31 Kemal,
CP 44 Von Hutier, CP 52 Fall of the Tsar, AP 2 Blockade, AP 3 Russian
Reinforcements (RU 11), AP 4 Pleve, AP 6 Withdrawal, AP 17 Italy, AP 27 Great
Retreat, AP 30 Salonika, AP 31 MEF, AP 54 Zimmermann Telegram.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pogdsl.runtime import builtins as B  # noqa: E402
from pogdsl.runtime.values import copy_data  # noqa: E402
from rules.harness import Position, Unanswered  # noqa: E402


# ------------------------------------------------------------------ helpers
def value(pos: Position, name: str, *args):
    pos.game.invalidate()
    v = B.value_of(pos.game, name, tuple(pos._value(a) if isinstance(a, str) else a for a in args))
    return getattr(v, "key", v)


def at(pos: Position, turn: int, round_: int = 1) -> None:
    pos.s["turn"] = turn
    pos.set("action_round", round_)


def hand(pos: Position, side: str, *cards):
    out = []
    for c in cards:
        card = pos._card(c)
        pos.game.move_card(card, f"hand:{side}")
        out.append(card)
    return out


def pile_of(pos: Position, card) -> str | None:
    for key, cards in pos.s["piles"].items():
        if card.index in cards:
            return key
    return None


def control(pos: Position, space: str):
    return pos.s["control"][pos.entity("space", space).index]


def where(pos: Position, piece) -> str | None:
    place = pos.w.place_entity(pos.s["loc"][piece.index])
    return place.key if place is not None else None


def trench(pos: Position, space: str) -> int:
    return pos.var("trench", space)


def run_phase(pos: Position, phase: str, answers=()) -> None:
    """Run one phase of the sequence as the driver does: its phase_started
    triggers first, then the phase itself."""
    g = pos.game
    pos.s["stack"] = [{"code": f"phase:{phase}", "pc": 0, "l": {}}]
    pos.s["result"] = None
    g.invalidate()
    g.emit("phase_started", (pos.w.names[phase],))
    answers = list(answers)
    d = g.run()
    while d is not None:
        pos.asked.append(d)
        d = g.choose(answers.pop(0))
    assert not answers
    if pos.s["result"] is not None and pos.s["result"]["reason"] == "nothing left to run":
        pos.s["result"] = None


def first_options(pos: Position, procedure: str, *args) -> list[str]:
    """The options of the first decision a procedure offers (one-option ones
    too); the position is left as it was."""
    saved = copy_data(pos.s)
    pos.game.ask_forced = True
    try:
        with pytest.raises(Unanswered):
            pos.run(procedure, *args)
    finally:
        pos.game.ask_forced = False
        pos.game.s = pos.s = saved
        pos.game.invalidate()
    return pos.asked[-1].options


def campaign_start(guns: bool = True, dice=(3, 4)) -> Position:
    """The real Campaign set-up, run by the driver up to the Central Powers'
    first action (the two MO rolls use `dice`)."""
    pos = Position(empty=False)
    pos.s["dice"] = list(dice)
    g = pos.game
    d = g.run()
    assert d.choice == "start_with_guns"
    d = g.choose(f"start with Guns of August in hand: {'yes' if guns else 'no'}")
    assert d.choice == "take_action" and d.by == "cp"
    return pos


GUNS = ("cp", 1)
WIRELESS = ("cp", 2)
CP_ENTRENCH = ("cp", 6)
RACE = ("cp", 8)
TSAR_COMMAND = ("cp", 28)
KEMAL = ("cp", 31)
HUTIER = ("cp", 44)
TSAR_FALLS = ("cp", 52)
BLOCKADE = ("ap", 2)
RU11 = ("ap", 3)
PLEVE = ("ap", 4)
WITHDRAWAL = ("ap", 6)
AP_ENTRENCH = ("ap", 12)
ITALY = ("ap", 17)
GREAT_RETREAT = ("ap", 27)
SALONIKA = ("ap", 30)
MEF = ("ap", 31)
ZIMMERMANN = ("ap", 54)


def card(pos: Position, key):
    return pos.card(*key)


# ============================================================ CP 1 Guns of August
@pytest.mark.card("CP 1")
@pytest.mark.parametrize("turn, round_, allowed", [(1, 1, True), (1, 2, False), (2, 1, False), (5, 1, False)])
def test_guns_of_august_only_in_the_first_action_round_of_august_1914(turn, round_, allowed):
    pos = Position()
    at(pos, turn, round_)
    assert pos.may_play_event("cp", card(pos, GUNS)) is allowed
    if not allowed:
        assert pos.event_forbidden_by("cp", card(pos, GUNS)) == ["playable_events"]


@pytest.mark.card("CP 1")
def test_guns_of_august_opening_the_campaign():
    """From the real set-up: Liege's fort is destroyed, GE 1 (from Aachen) and
    GE 2 (from Koblenz) take Liege, and the spaces of GE 1, 2 and 3 may attack
    (Sedan from Liege or Koblenz, Brussels from Liege).  The card leaves the
    game and the CP war status rises by 2."""
    pos = campaign_start(guns=True)
    guns = card(pos, GUNS)
    assert pile_of(pos, guns) == "hand:cp"
    assert pos.units_at("Liege") == []
    assert control(pos, "Liege") == "ap"
    d = pos.game.choose("play 1 event (Guns of August)")
    assert d.choice == "declare_attack"
    assert sorted(d.options) == ["attack Brussels from Liege", "attack Sedan from Koblenz",
                                 "attack Sedan from Liege", "no more attacks"]
    assert pos.var("activation", "Liege") == "attack"
    assert pos.var("activation", "Koblenz") == "attack"
    d = pos.game.choose("no more attacks")
    assert d.choice == "take_action" and d.by == "ap"
    assert pos.s["fort_destroyed"][pos.entity("space", "Liege").index]
    assert pos.units_at("Liege") == ["GE 1", "GE 2"]
    assert pos.units_at("Aachen") == []
    assert pos.units_at("Koblenz") == ["GE 3"]
    assert control(pos, "Liege") == "cp"
    assert pos.var("activation", "Liege") is None and pos.var("activation", "Koblenz") is None
    assert pile_of(pos, guns) == "removed:cp"
    assert pos.var("war_status", "cp") == 2
    assert pos.var("last_action", "cp") == "event"


@pytest.mark.card("CP 1")
def test_guns_of_august_attack_with_the_three_armies():
    """The armies attack as if activated for combat: GE 1 and GE 2 from Liege
    and GE 3 from Koblenz attack FR 5 in Sedan (no flank attempt).  15 CF on
    the Army table rolling 6: loss number 7, FR 5 is eliminated; FR 5 rolls 1:
    loss number 1, less than any German step.  GE 3 advances into Sedan."""
    pos = Position()
    at(pos, 1, 1)
    ge1 = pos.place("GE 1", "Aachen")
    pos.place("GE 2", "Koblenz")
    ge3 = pos.place("GE 3", "Koblenz")
    fr5 = pos.place("FR 5", "Sedan")
    pos.play_event("cp", card(pos, GUNS), answers=[
        "attack Sedan from Liege",
        "from Liege: GE 1, GE 2",
        "from Koblenz: GE 3",
        "no flank attack",
        "advance GE 3 into Sedan",
        "stop advancing",
    ], dice=[6, 1])
    text = "\n".join(pos.log())
    assert "cp attacks Sedan with strength 15 against 3" in text
    assert "loss number 7" in text
    assert where(pos, fr5) != "Sedan"
    assert not pos.s["reduced"][ge1.index]
    assert where(pos, ge3) == "Sedan" and where(pos, ge1) == "Liege"
    assert control(pos, "Sedan") == "cp"
    assert pos.var("activation", "Liege") is None and pos.var("activation", "Koblenz") is None


# ============================================================ CP 6 / AP 12 Entrench
@pytest.mark.card("AP 12")
@pytest.mark.card("CP 6")
@pytest.mark.parametrize("first, second", [(AP_ENTRENCH, CP_ENTRENCH), (CP_ENTRENCH, AP_ENTRENCH)])
def test_entrench_only_one_side_may_play_the_event(first, second):
    """11.2.1 and 9.5.1.1: only one Entrench event per game; the other card may
    never be played as an event, not even to cull a deck."""
    pos = Position()
    at(pos, 2)
    assert pos.may_play_event(first[0], card(pos, first))
    assert pos.may_play_event(second[0], card(pos, second))
    pos.play_event(first[0], card(pos, first))
    assert pos.event_forbidden_by(second[0], card(pos, second)) == ["playable_events"]
    assert pile_of(pos, card(pos, first)) == f"removed:{first[0]}"


@pytest.mark.card("AP 12")
def test_entrench_places_a_level_1_trench_with_a_supplied_army():
    """The trench goes in a space of the player's choice holding a supplied
    army: not where a corps stands alone, nor where a trench already is, nor
    with an army out of supply.  Both sides may now dig in (11.2.1)."""
    pos = Position()
    at(pos, 2)
    pos.place("FR 1", "Verdun")
    pos.place("FR 2", "Nancy")
    pos.set("trench", 1, key="Nancy")
    pos.place("FRc", "Belfort")
    pos.place("FR 3", "Essen")  # deep in Germany: out of supply
    assert value(pos, "entrench_event_sites", "ap") == [pos.entity("space", "Verdun")]
    assert not value(pos, "entrench_played")
    pos.play_event("ap", card(pos, AP_ENTRENCH))
    assert trench(pos, "Verdun") == 1
    assert pos.var("trench_owner", "Verdun") is None
    assert trench(pos, "Belfort") == 0 and trench(pos, "Essen") == 0
    assert value(pos, "entrench_played")
    assert any("ap entrenches in Verdun: trench level 1" in line for line in pos.log())


@pytest.mark.card("CP 6")
def test_entrench_asks_where_when_there_is_a_choice():
    pos = Position()
    at(pos, 2)
    pos.place("GE 1", "Metz")
    pos.place("GE 2", "Strasbourg")
    assert first_options(pos, "play_as_event", "cp", card(pos, CP_ENTRENCH)) == [
        "place a level 1 trench in Metz", "place a level 1 trench in Strasbourg"]
    pos.play_event("cp", card(pos, CP_ENTRENCH), answers=["place a level 1 trench in Strasbourg"])
    assert trench(pos, "Strasbourg") == 1 and trench(pos, "Metz") == 0


@pytest.mark.card("CP 6")
def test_entrench_with_no_supplied_army_places_nothing():
    pos = Position()
    at(pos, 2)
    pos.place("GEc", "Metz")
    pos.play_event("cp", card(pos, CP_ENTRENCH))
    assert trench(pos, "Metz") == 0
    assert "cp has no supplied army to entrench with" in pos.log()
    assert value(pos, "entrench_played")


# ============================================================ CP 8 Race to the Sea
@pytest.mark.card("CP 8")
@pytest.mark.parametrize("war_status", [0, 6])
def test_race_to_the_sea_opens_the_channel_coast(war_status):
    """11.1.9: until the event (or CP War Status 4) CP units may not end a move
    in Amiens, Calais or Ostend; the card may be played even when CP War Status
    has already lifted the rule (9.5.1.1 note)."""
    pos = Position()
    at(pos, 2)
    pos.set("war_status", war_status, key="cp")
    assert pos.may_play_event("cp", card(pos, RACE))
    closed = war_status < 4
    for s in ("Amiens", "Calais", "Ostend"):
        assert value(pos, "coast_closed", "cp", s) is closed
    pos.play_event("cp", card(pos, RACE))
    for s in ("Amiens", "Calais", "Ostend"):
        assert value(pos, "coast_closed", "cp", s) is False
    assert pile_of(pos, card(pos, RACE)) == "removed:cp"


# ============================================================ CP 28 Tsar Takes Command
RUSSIAN_VP = ["Warsaw", "Riga", "Lodz", "Minsk", "Kiev", "Odessa", "Petrograd", "Moscow", "Kharkov"]


def russian_vp_spaces(pos):
    return [s.key for s in value(pos, "russian_vp_spaces")]


@pytest.mark.card("CP 28")
def test_tsar_takes_command_needs_three_russian_vp_spaces():
    """16.4.3: playable only with the Russian Capitulation marker in the Tsar
    Takes Command Allowed box (three Russian VP spaces in CP hands)."""
    pos = Position()
    at(pos, 6)
    tsar = card(pos, TSAR_COMMAND)
    spaces = russian_vp_spaces(pos)
    for s in spaces[:2]:
        pos.control(s, "cp")
    assert pos.event_forbidden_by("cp", tsar) == ["playable_events"]
    pos.control(spaces[2], "cp")
    assert pos.may_play_event("cp", tsar)
    pos.play_event("cp", tsar)
    assert pos.var("russian_capitulation") == "tsar_took_command"
    assert pos.var("war_status", "cp") == 1
    assert pile_of(pos, tsar) == "removed:cp"


# ============================================================ CP 52 Fall of the Tsar
def fall_of_the_tsar_position(combined: int) -> Position:
    pos = Position()
    at(pos, 12)
    pos.set("russian_capitulation", "tsar_took_command")
    for s in russian_vp_spaces(pos)[:3]:
        pos.control(s, "cp")
    pos.set("war_status", combined - 15, key="cp")
    pos.set("war_status", 15, key="ap")
    return pos


@pytest.mark.card("CP 52")
def test_fall_of_the_tsar_needs_the_allowed_box():
    """16.4.4: combined War Status plus CP-held Russian VP spaces must reach 33,
    after Tsar Takes Command."""
    pos = fall_of_the_tsar_position(29)  # 29 + 3 = 32
    assert pos.event_forbidden_by("cp", card(pos, TSAR_FALLS)) == ["playable_events"]
    pos.set("war_status", 15, key="cp")  # 30 + 3 = 33
    assert pos.may_play_event("cp", card(pos, TSAR_FALLS))
    pos.set("russian_capitulation", "god_save_the_tsar")
    assert not pos.may_play_event("cp", card(pos, TSAR_FALLS))


@pytest.mark.card("CP 52")
@pytest.mark.parametrize("romania_at_war, vp", [(False, 13), (True, 11)])
def test_fall_of_the_tsar_vp_and_russian_activation(romania_at_war, vp):
    """16.4.5: the Tsar Fell marker records the CP-held Russian VP spaces; the
    VP marker moves 1 toward the CP, 3 if Romania never entered; from now on
    the Allies pay one point per Russian unit to attack."""
    pos = fall_of_the_tsar_position(30)
    pos.s["at_war"]["ro"] = romania_at_war
    pos.place("RU 1", "Vilna")
    pos.place("RUc", "Vilna")
    assert value(pos, "activation_cost", "Vilna", "ap", "attack") == 1
    pos.play_event("cp", card(pos, TSAR_FALLS))
    assert pos.var("russian_capitulation") == "tsar_fell"
    assert pos.var("tsar_fell_vp") == 3
    assert pos.var("vp") == vp
    assert value(pos, "activation_cost", "Vilna", "ap", "attack") == 2
    assert value(pos, "activation_cost", "Vilna", "ap", "move") == 1
    assert pile_of(pos, card(pos, TSAR_FALLS)) == "removed:cp"


# ============================================================ AP 2 Blockade
@pytest.mark.card("AP 2")
@pytest.mark.parametrize("turn, played, vp", [(8, True, 9), (9, True, 10), (8, False, 10), (4, True, 9)])
def test_blockade_costs_the_central_powers_a_vp_every_winter(turn, played, vp):
    """War Status Phase, segment E.1: with Blockade played, each Winter turn
    (turns 4, 8, 12, 16, 20) moves the VP marker one toward the Allies."""
    pos = Position()
    at(pos, 3)
    if played:
        pos.play_event("ap", card(pos, BLOCKADE))
        assert pile_of(pos, card(pos, BLOCKADE)) == "removed:ap"
        assert pos.var("war_status", "ap") == 2
    pos.s["turn"] = turn
    run_phase(pos, "war_status_phase")
    assert pos.var("vp") == vp


@pytest.mark.card("AP 2")
def test_blockade_every_winter_not_once():
    pos = Position()
    at(pos, 3)
    pos.play_event("ap", card(pos, BLOCKADE))
    for t in (4, 5, 6, 7, 8):
        pos.s["turn"] = t
        run_phase(pos, "war_status_phase")
    assert pos.var("vp") == 8


# ============================================================ AP 3 Russian Reinforcements
@pytest.mark.card("AP 3")
def test_russian_reinforcements_ru_11():
    """9.5.3.1: not in August 1914, once a turn for Russia; the army enters at a
    Russian capital or supply source, the corps goes to the Reserve Box."""
    pos = Position()
    ru11 = card(pos, RU11)
    at(pos, 1)
    assert pos.event_forbidden_by("ap", ru11) == ["reinforcement_play"]
    at(pos, 2)
    assert pos.may_play_event("ap", ru11)
    options = first_options(pos, "play_as_event", "ap", ru11)
    assert "place RU 11 at Petrograd" in options and "place RU 11 at Moscow" in options
    pos.play_event("ap", ru11, answers=["place RU 11 at Moscow"])
    assert pos.units_at("Moscow") == ["RU 11"]
    assert pos.units_at("reserve[ap]") == ["RUc"]
    assert pile_of(pos, ru11) == "removed:ap"
    assert pos.var("reinforcement_turn", "ru") == 2


@pytest.mark.card("AP 3")
def test_russian_reinforcements_once_a_turn_for_russia():
    pos = Position()
    at(pos, 3)
    pos.set("reinforcement_turn", 3, key="ru")
    assert pos.event_forbidden_by("ap", card(pos, RU11)) == ["reinforcement_play"]


# ============================================================ AP 17 Italy
@pytest.mark.card("AP 17")
def test_italy_enters_the_war():
    """9.5.2.1: Italy joins the Allies with its set-up; 9.5.2.2: no other
    neutral entry this turn, by either side."""
    pos = Position()
    at(pos, 5)
    italy = card(pos, ITALY)
    assert pos.may_play_event("ap", italy)
    pos.play_event("ap", italy)
    assert pos.s["at_war"]["it"] is True
    assert pos.units_at("Verona") == ["IT 1"]
    assert pos.units_at("Udine") == ["IT 2"]
    assert pos.var("war_status", "ap") == 2
    assert pile_of(pos, italy) == "removed:ap"
    assert pos.var("neutral_entry_turn") == 5


@pytest.mark.card("AP 17")
def test_italy_not_after_another_neutral_entry_this_turn():
    pos = Position()
    at(pos, 5)
    pos.set("neutral_entry_turn", 5)
    assert pos.event_forbidden_by("ap", card(pos, ITALY)) == ["playable_events"]
    at(pos, 6)
    assert pos.may_play_event("ap", card(pos, ITALY))


@pytest.mark.parametrize("level, played, vp", [
    ("total_war_level", False, 11), ("limited_war_level", False, 10), ("total_war_level", True, 10)])
@pytest.mark.card("AP 17")
def test_italy_unplayed_at_allied_total_war_gives_the_cp_a_vp(level, played, vp):
    """War Status Phase E.1: while the Allies are at Total War and Italy has not
    been played, every War Status Phase moves the VP marker one toward the CP."""
    pos = Position()
    at(pos, 9)
    pos.set("commitment", level, key="ap")
    if played:
        pos.play_event("ap", card(pos, ITALY))
    run_phase(pos, "war_status_phase")
    assert pos.var("vp") == vp


# ============================================================ AP 30 Salonika
def salonika_position() -> Position:
    pos = Position()
    at(pos, 6, 3)
    pos.s["at_war"]["bu"] = True
    pos.place("BRc", "reserve[ap]")
    pos.place("FRc", "reserve[ap]")
    pos.place("AUSc", "reserve[ap]")
    pos.place("FRc", "Nancy")
    pos.place("FR 1", "Verdun")
    return pos


@pytest.mark.card("AP 30")
def test_salonika_places_the_greek_units_and_redeploys_three_corps():
    """9.5.2.4: the Greek units are set up, Greece stays neutral; up to three
    British or French corps (not the AUS corps, not armies) redeploy to
    Salonika from the Reserve Box or the map."""
    pos = salonika_position()
    salonika = card(pos, SALONIKA)
    assert pos.may_play_event("ap", salonika)
    options = first_options(pos, "play_as_event", "ap", salonika)
    assert sorted(options) == ["no more corps", "redeploy BRc from reserve[ap] to Salonika",
                               "redeploy FRc from Nancy to Salonika", "redeploy FRc from reserve[ap] to Salonika"]
    pos.play_event("ap", salonika, answers=[
        "redeploy BRc from reserve[ap] to Salonika",
        "redeploy FRc from Nancy to Salonika",
        "redeploy FRc from reserve[ap] to Salonika",
    ])
    assert pos.units_at("Salonika") == ["BRc", "FRc", "FRc"]
    assert pos.units_at("Nancy") == []
    assert pos.units_at("reserve[ap]") == ["AUSc"]
    assert pos.units_at("Athens") == ["GRc"]
    assert pos.s["at_war"]["gr"] is False
    assert pos.var("salonika_sr_round") == 63
    assert pos.var("war_status", "ap") == 1
    assert pile_of(pos, salonika) == "removed:ap"
    assert value(pos, "mef_landing_allowed") is False


@pytest.mark.card("AP 30")
def test_salonika_may_send_fewer_corps():
    pos = salonika_position()
    pos.play_event("ap", card(pos, SALONIKA), answers=["redeploy FRc from Nancy to Salonika", "no more corps"])
    assert pos.units_at("Salonika") == ["FRc"]


@pytest.mark.card("AP 30")
def test_salonika_counts_as_an_sr_play():
    """9.3.3: the event counts as an SR card: it may not follow an SR round, and
    an SR card may not follow it in the next round of the same turn."""
    pos = salonika_position()
    salonika = card(pos, SALONIKA)
    pos.set("last_action", "sr", key="ap")
    assert pos.event_forbidden_by("ap", salonika) == ["playable_events"]
    pos.set("last_action", "event", key="ap")
    pos.play_event("ap", salonika, answers=["no more corps"])
    other = card(pos, BLOCKADE)
    sr = (pos.w.by_kind["side"]["ap"], pos._value("sr"), other)
    pos.set("action_round", 4)
    assert [d.key for d in pos.game._forbidden("take_action", sr)] == ["salonika_counts_as_sr"]
    pos.set("action_round", 5)
    assert pos.game._forbidden("take_action", sr) == []


@pytest.mark.card("AP 30")
def test_salonika_redeploys_nothing_into_an_enemy_salonika():
    pos = salonika_position()
    pos.control("Salonika", "cp")
    pos.play_event("ap", card(pos, SALONIKA))
    assert pos.units_at("Salonika") == []
    assert pos.units_at("Athens") == ["GRc"]


# ============================================================ AP 31 MEF
@pytest.mark.card("AP 31")
def test_mef_needs_turkey_at_war():
    pos = Position()
    at(pos, 5)
    mef = card(pos, MEF)
    assert "playable_events" in pos.event_forbidden_by("ap", mef)
    pos.s["at_war"]["tu"] = True
    assert pos.may_play_event("ap", mef)


@pytest.mark.card("AP 31")
def test_mef_lands_on_a_beach_with_the_beachhead():
    """9.5.3.5: the MEF army goes to one of the four MEF spaces and the
    Beachhead marker with it."""
    pos = Position()
    at(pos, 5)
    pos.s["at_war"]["tu"] = True
    options = first_options(pos, "play_as_event", "ap", card(pos, MEF))
    assert {"place BR MEF at MEF1", "place BR MEF at MEF2", "place BR MEF at MEF3",
            "place BR MEF at MEF4"} <= set(options)
    pos.play_event("ap", card(pos, MEF), answers=["place BR MEF at MEF2"])
    assert pos.units_at("MEF2") == ["BR MEF"]
    assert pos.var("mef_beachhead") == "MEF2"
    assert pos.var("war_status", "ap") == 1


@pytest.mark.card("AP 31")
def test_mef_after_salonika_enters_at_home():
    """9.5.2.4.1 and 9.5.3.4: after Salonika the MEF may no longer land on a
    beach, but may still enter at a British capital or supply source."""
    pos = Position()
    at(pos, 5)
    pos.s["at_war"]["tu"] = True
    pos.s["played"].append(card(pos, SALONIKA).index)
    options = first_options(pos, "play_as_event", "ap", card(pos, MEF))
    assert not any("MEF1" in o or "MEF2" in o for o in options)
    assert "place BR MEF at London" in options


# ============================================================ AP 54 Zimmermann Telegram
@pytest.mark.card("AP 54")
def test_zimmermann_telegram_needs_combined_war_status_30():
    pos = Position()
    at(pos, 12)
    zt = card(pos, ZIMMERMANN)
    pos.set("war_status", 15, key="cp")
    pos.set("war_status", 14, key="ap")
    assert pos.event_forbidden_by("ap", zt) == ["playable_events"]
    pos.set("war_status", 15, key="ap")
    assert pos.may_play_event("ap", zt)


@pytest.mark.card("AP 54")
def test_zimmermann_telegram_brings_the_us_in():
    """16.3.3: one VP to the Allies, the US Entry marker to the Zimmermann box,
    the United States at war."""
    pos = Position()
    at(pos, 12)
    pos.set("war_status", 15, key="cp")
    pos.set("war_status", 15, key="ap")
    pos.play_event("ap", card(pos, ZIMMERMANN))
    assert pos.var("vp") == 9
    assert pos.s["at_war"]["us"] is True
    assert pos.var("us_entry") == "telegram_played"
    assert pos.var("zimmermann_turn") == 12
    assert pos.var("war_status", "ap") == 17
    assert pile_of(pos, card(pos, ZIMMERMANN)) == "removed:ap"


# ============================================================ combat cards
def combat_position(turn: int = 6) -> Position:
    pos = Position()
    at(pos, turn, 2)
    return pos


def attack_from(pos: Position, *spaces: str) -> None:
    for s in spaces:
        pos.activate(s, "attack")


def offered(pos: Position, option: str) -> bool:
    return any(option in d.options for d in pos.asked)


def options_at(pos: Position, choice: str, procedure: str, *args, answers=(), dice=()) -> list[str]:
    """Run a procedure, answering from `answers` (one-option decisions answer
    themselves), until the first decision named `choice`: its options, even a
    single one."""
    g = pos.game
    code = pos.w.codes[f"procedure:{procedure}"]
    pos.s["stack"] = [{"code": f"procedure:{procedure}", "pc": 0,
                       "l": dict(zip(code.params, [pos._value(a) if isinstance(a, str) else a for a in args]))}]
    pos.s["dice"] = list(dice)
    g.invalidate()
    g.ask_forced = True
    answers = list(answers)
    try:
        d = g.run()
        while d is not None and d.choice != choice:
            d = g.choose(1 if len(d.options) == 1 else answers.pop(0))
    finally:
        g.ask_forced = False
    assert d is not None, f"no '{choice}' decision came"
    return d.options


# ------------------------------------------------------------ AP 4 Pleve
@pytest.mark.card("AP 4")
def test_pleve_adds_one_to_a_russian_defence():
    """9.5.4 and 12.2.7: GE 8 (5 CF) attacks RU 1 (3 CF) in Lodz; the Allies
    play Pleve; their die 3 becomes 4 (Army table, 3 column: loss number 3
    instead of 2).  The starred card leaves the game after the combat."""
    pos = combat_position()
    pos.place("RU 1", "Lodz")
    pos.place("GE 8", "Posen")
    pleve, = hand(pos, "ap", card(pos, PLEVE))
    attack_from(pos, "Posen")
    pos.run("resolve_attacks", "cp", answers=["attack Lodz from Posen", "ap uses Pleve"], dice=[3, 3])
    assert "ap fires with strength 3 on the Army table (shift 0), die 3 modified to 4: loss number 3" in pos.log()
    assert "cp fires with strength 5 on the Army table (shift 0), die 3 modified to 3: loss number 3" in pos.log()
    assert pile_of(pos, pleve) == "removed:ap"


@pytest.mark.card("AP 4")
def test_pleve_adds_one_to_a_russian_attack():
    pos = combat_position()
    pos.place("RU 1", "Warsaw")
    pos.place("GE 8", "Lodz")
    pos.control("Lodz", "cp")
    hand(pos, "ap", card(pos, PLEVE))
    attack_from(pos, "Warsaw")
    pos.run("resolve_attacks", "ap", answers=["attack Lodz from Warsaw", "ap uses Pleve"], dice=[6, 1])
    assert any("ap fires with strength 3 on the Army table (shift 0), die 6 modified to 6" in line for line in pos.log())
    pos2 = combat_position()
    pos2.place("RU 1", "Warsaw")
    pos2.place("GE 8", "Lodz")
    pos2.control("Lodz", "cp")
    hand(pos2, "ap", card(pos2, PLEVE))
    attack_from(pos2, "Warsaw")
    pos2.run("resolve_attacks", "ap", answers=["attack Lodz from Warsaw", "ap uses Pleve"], dice=[2, 1])
    assert any("die 2 modified to 3" in line for line in pos2.log())


@pytest.mark.card("AP 4")
def test_pleve_only_where_russians_fight():
    """The card's condition: Russian units among the Allied units of the combat."""
    pos = combat_position()
    pos.place("FR 1", "Amiens")
    pos.place("GE 1", "Cambrai")
    pos.control("Cambrai", "cp")
    pos.control("Sedan", "cp")
    pleve, = hand(pos, "ap", card(pos, PLEVE))
    attack_from(pos, "Cambrai")
    pos.run("resolve_attacks", "cp", answers=["attack Amiens from Cambrai"], dice=[1, 6])
    assert not offered(pos, "ap uses Pleve")
    assert pile_of(pos, pleve) == "hand:ap"
    assert "combat_cards_in_combat" in pos.event_forbidden_by("ap", pleve)


# ------------------------------------------------------------ CP 2 Wireless Intercepts
def wireless_position(defender: str = "RU 1", ah: bool = False, trench_level: int = 0) -> Position:
    pos = combat_position(3)
    pos.place(defender, "Lodz")
    pos.place("GE 8", "Posen")
    pos.place("AH 1" if ah else "GE 9", "Thorn")
    pos.set("trench", trench_level, key="Lodz")
    hand(pos, "cp", card(pos, WIRELESS))
    attack_from(pos, "Posen", "Thorn")
    return pos


@pytest.mark.card("CP 2")
def test_wireless_intercepts_makes_the_flank_attempt_succeed():
    """12.3.3: GE 8 and GE 9 attack RU 1 in Lodz from Posen and Thorn; with
    Wireless Intercepts played before the attempt (12.2.4/12.2.5) the flank
    attack succeeds without a die: the Germans fire first (die 1 on the 9-11
    column: 3; RU 1 flips), then the Russians (2 CF, die 6: loss number 3)."""
    pos = wireless_position()
    wi = card(pos, WIRELESS)
    pos.run("resolve_attacks", "cp", answers=[
        "attack Lodz from Posen", "from Thorn: GE 9", "cp uses Wireless Intercepts",
        "flank attack, pinning from Posen", "GE 9 in Thorn: flipped"], dice=[1, 6])
    log = pos.log()
    assert "flank attack succeeds without a roll" in log
    i = log.index("cp fires with strength 10 on the Army table (shift 0), die 1 modified to 1: loss number 3")
    assert log[i + 1] == "RU 1 reduced"
    assert log[i + 3] == "ap fires with strength 2 on the Army table (shift 0), die 6 modified to 6: loss number 3"
    assert pile_of(pos, wi) == "removed:cp"


@pytest.mark.card("CP 2")
@pytest.mark.parametrize("defender, ah, trench_level", [("FR 1", False, 0), ("RU 1", True, 0), ("RU 1", False, 1)])
def test_wireless_intercepts_needs_a_german_flank_attack_on_russians(defender, ah, trench_level):
    """Not offered when the defenders are not all Russian, the attackers not
    all German, or no flank attack is possible (a trench)."""
    pos = wireless_position(defender, ah, trench_level)
    options = options_at(pos, "use_combat_card", "resolve_attacks", "cp",
                         answers=["attack Lodz from Posen", "from Thorn: " + ("AH 1" if ah else "GE 9")])
    assert options == ["no more combat cards"]


@pytest.mark.card("CP 2")
def test_wireless_intercepts_offered_before_the_flank_attempt():
    pos = wireless_position()
    options = options_at(pos, "use_combat_card", "resolve_attacks", "cp",
                         answers=["attack Lodz from Posen", "from Thorn: GE 9"])
    assert options == ["cp uses Wireless Intercepts", "no more combat cards"]
    assert not any(d.choice == "flank_attack" for d in pos.asked)


# ------------------------------------------------------------ CP 44 Von Hutier
@pytest.mark.card("CP 44")
def test_von_hutier_cancels_the_trench_and_fires_first():
    """GE 8 attacks RU 1 behind a level 2 trench in Lodz.  With Von Hutier
    (played in step 3, 12.2.4) the trench gives no shift and the Germans fire
    first: die 2 on the 5 column = 3, RU 1 flips before it fires back."""
    pos = combat_position()
    pos.place("RU 1", "Lodz")
    pos.place("GE 8", "Posen")
    pos.set("trench", 2, key="Lodz")
    vh, = hand(pos, "cp", card(pos, HUTIER))
    attack_from(pos, "Posen")
    pos.run("resolve_attacks", "cp", answers=["attack Lodz from Posen", "cp uses Von Hutier"], dice=[2, 6])
    log = pos.log()
    i = log.index("cp fires with strength 5 on the Army table (shift 0), die 2 modified to 2: loss number 3")
    assert log[i + 1] == "RU 1 reduced"
    assert log[i + 3] == "ap fires with strength 2 on the Army table (shift 0), die 6 modified to 6: loss number 3"
    assert pile_of(pos, vh) == "removed:cp"


@pytest.mark.card("CP 44")
def test_without_von_hutier_the_trench_counts():
    pos = combat_position()
    pos.place("RU 1", "Lodz")
    pos.place("GE 8", "Posen")
    pos.set("trench", 2, key="Lodz")
    hand(pos, "cp", card(pos, HUTIER))
    attack_from(pos, "Posen")
    pos.run("resolve_attacks", "cp", answers=["attack Lodz from Posen", "no more combat cards"], dice=[2, 6])
    assert "cp fires with strength 5 on the Army table (shift -2), die 2 modified to 2: loss number 2" in pos.log()


@pytest.mark.card("CP 44")
def test_von_hutier_allows_a_flank_attempt_through_a_trench():
    """12.3.1 note: with the trench negated a flank attack may be tried."""
    pos = combat_position()
    pos.place("RU 1", "Lodz")
    pos.place("GE 8", "Posen")
    pos.place("GE 9", "Thorn")
    pos.set("trench", 1, key="Lodz")
    hand(pos, "cp", card(pos, HUTIER))
    attack_from(pos, "Posen", "Thorn")
    pos.run("resolve_attacks", "cp", answers=[
        "attack Lodz from Posen", "from Thorn: GE 9", "cp uses Von Hutier", "no flank attack", "stop advancing"],
        dice=[6, 1])
    assert offered(pos, "flank attack, pinning from Posen")


@pytest.mark.card("CP 44")
def test_von_hutier_only_against_russians():
    pos = combat_position()
    pos.place("FR 1", "Amiens")
    pos.place("GE 1", "Cambrai")
    pos.control("Cambrai", "cp")
    pos.control("Sedan", "cp")
    hand(pos, "cp", card(pos, HUTIER))
    attack_from(pos, "Cambrai")
    pos.run("resolve_attacks", "cp", answers=["attack Amiens from Cambrai"], dice=[1, 6])
    assert not offered(pos, "cp uses Von Hutier")


# ------------------------------------------------------------ AP 6 Withdrawal
def withdrawal_position(trench_level: int = 0) -> Position:
    """12.6.9's example: BR 1 and two BR corps defend Amiens; GE 1 and GE 2
    attack from Cambrai."""
    pos = combat_position()
    pos.br1 = pos.place("BR 1", "Amiens")
    pos.brc1 = pos.place("BRc", "Amiens")
    pos.brc2 = pos.place("BRc", "Amiens")
    pos.ge1 = pos.place("GE 1", "Cambrai")
    pos.ge2 = pos.place("GE 2", "Cambrai")
    pos.control("Cambrai", "cp")
    pos.control("Sedan", "cp")
    pos.set("trench", trench_level, key="Amiens")
    pos.withdrawal, = hand(pos, "ap", card(pos, WITHDRAWAL))
    attack_from(pos, "Cambrai")
    return pos


@pytest.mark.card("AP 6")
def test_withdrawal_example_a_corps_step_comes_back_and_one_space_retreat():
    """12.6.3, 12.6.4 and the example of 12.6.9: loss number 3; the Allies
    flip one corps and lose the other (reduced) corps; Withdrawal gives one
    corps step back (here the flipped corps turns face up).  The combat is a
    tie (3 against 3), yet the defenders must retreat one space, and the
    full-strength German army may advance."""
    pos = withdrawal_position()
    pos.run("resolve_attacks", "cp", answers=[
        "attack Amiens from Cambrai", "from Cambrai: GE 1, GE 2", "ap uses Withdrawal",
        "BRc in Amiens: lost", "GE 1 in Cambrai: flipped",
        "BRc (flipped) regains a step",
        "BRc retreats to Paris", "BR 1 retreats to Paris", "advance GE 2 into Amiens"], dice=[1, 1])
    log = pos.log()
    assert "combat won by none" in log
    assert sorted(u for u in pos.units_at("Paris")) == ["BR 1", "BRc"]
    assert pos.units_at("eliminated[ap]") == ["BRc"]
    assert not any(pos.s["reduced"][u.index] for u in (pos.br1, pos.brc1, pos.brc2) if where(pos, u) == "Paris")
    assert pos.units_at("Amiens") == ["GE 2"]
    assert pile_of(pos, pos.withdrawal) == "removed:ap"


@pytest.mark.card("AP 6")
def test_withdrawal_may_bring_back_an_eliminated_corps():
    """12.6.9/12.6.10: the eliminated corps may come back, reduced, instead."""
    pos = withdrawal_position()
    pos.run("resolve_attacks", "cp", answers=[
        "attack Amiens from Cambrai", "from Cambrai: GE 1, GE 2", "ap uses Withdrawal",
        "BRc in Amiens: lost", "GE 1 in Cambrai: flipped",
        "BRc (lost) regains a step",
        "BRc retreats to Paris", "BRc retreats to Paris", "BR 1 retreats to Paris", "stop advancing"], dice=[1, 1])
    assert pos.units_at("eliminated[ap]") == []
    assert pos.units_at("Paris") == ["BR 1", "BRc", "BRc"]
    assert pos.s["reduced"][pos.brc1.index] and pos.s["reduced"][pos.brc2.index]


@pytest.mark.card("AP 6")
def test_withdrawal_an_army_step_when_no_corps_step_was_lost():
    """12.6.6: GE 1 and GE 2 roll 4 (loss number 5) against BR 1 alone:
    BR 1 flips (3) and turns face up again; it still retreats one space even
    though the Germans won by more than one (12.6.4)."""
    pos = combat_position()
    br1 = pos.place("BR 1", "Amiens")
    pos.place("GE 1", "Cambrai")
    pos.place("GE 2", "Cambrai")
    pos.control("Cambrai", "cp")
    pos.control("Sedan", "cp")
    hand(pos, "ap", card(pos, WITHDRAWAL))
    attack_from(pos, "Cambrai")
    pos.run("resolve_attacks", "cp", answers=[
        "attack Amiens from Cambrai", "from Cambrai: GE 1, GE 2", "ap uses Withdrawal",
        "BR 1 retreats to Paris", "stop advancing"], dice=[4, 1])
    log = pos.log()
    assert "cp fires with strength 10 on the Army table (shift 0), die 4 modified to 4: loss number 5" in log
    assert "BR 1 restored to full strength" in log
    assert where(pos, br1) == "Paris" and not pos.s["reduced"][br1.index]
    assert not any("then" in o for d in pos.asked for o in d.options if d.choice == "retreat_path")


@pytest.mark.card("AP 6")
def test_withdrawal_retreat_cannot_be_cancelled_by_a_trench():
    """12.6.5: in a trench the defender may not hold the space instead (no
    stand-fast option), and still retreats after a tie."""
    pos = withdrawal_position(trench_level=1)
    pos.run("resolve_attacks", "cp", answers=[
        "attack Amiens from Cambrai", "from Cambrai: GE 1, GE 2", "ap uses Withdrawal",
        "BRc in Amiens: flipped", "GE 2 in Cambrai: flipped",
        "BRc (flipped) regains a step",
        "BRc retreats to Paris", "BR 1 retreats to Paris", "stop advancing"], dice=[1, 1])
    assert "combat won by none" in pos.log()
    assert not any(d.choice == "stand_fast" for d in pos.asked)
    assert pos.units_at("Amiens") == []
    assert pos.units_at("Paris") == ["BR 1", "BRc"]


@pytest.mark.card("AP 6")
def test_withdrawal_only_for_the_defender():
    pos = combat_position()
    pos.place("BR 1", "Amiens")
    pos.place("GE 1", "Cambrai")
    pos.control("Cambrai", "cp")
    pos.control("Sedan", "cp")
    hand(pos, "ap", card(pos, WITHDRAWAL))
    attack_from(pos, "Amiens")
    pos.run("resolve_attacks", "ap", answers=["attack Cambrai from Amiens"], dice=[1, 1])
    assert not offered(pos, "ap uses Withdrawal")


@pytest.mark.card("AP 6")
def test_withdrawal_after_a_flank_attack_the_step_comes_back_after_the_defender_fires():
    """12.6.3 and 12.3.4.2: the Germans flank RU 1 and a Russian corps in Lodz
    (roll 6 + 1) and fire first (loss number 3: RU 1 and the corps flip).  The
    Russians fire with what is left, 2 CF, and only then does the corps turn
    face up again.  A tie, and still a one-space retreat."""
    pos = combat_position(3)
    pos.place("RU 1", "Lodz")
    ruc = pos.place("RUc", "Lodz")
    pos.place("GE 8", "Posen")
    pos.place("GE 9", "Thorn")
    hand(pos, "ap", card(pos, WITHDRAWAL))
    attack_from(pos, "Posen", "Thorn")
    pos.run("resolve_attacks", "cp", answers=[
        "attack Lodz from Posen", "from Thorn: GE 9", "flank attack, pinning from Posen", "ap uses Withdrawal",
        "GE 8 in Posen: flipped",
        "RUc retreats to Warsaw", "RU 1 retreats to Warsaw", "stop advancing"], dice=[6, 1, 6])
    log = pos.log()
    fired = log.index("ap fires with strength 2 on the Army table (shift 0), die 6 modified to 6: loss number 3")
    assert log.index("RUc restored to full strength") > fired
    assert pos.units_at("Warsaw") == ["RU 1", "RUc"]
    assert not pos.s["reduced"][ruc.index]


# ------------------------------------------------------------ AP 27 Great Retreat
def great_retreat_position(turn: int = 6, played_turn: int | None = 6, defenders=("RU 1",)) -> Position:
    pos = combat_position(turn)
    if played_turn is not None:
        at(pos, played_turn, 1)
        pos.play_event("ap", card(pos, GREAT_RETREAT))
        at(pos, turn, 2)
    for u in defenders:
        pos.place(u, "Lodz")
    pos.ge8 = pos.place("GE 8", "Posen")
    attack_from(pos, "Posen")
    return pos


@pytest.mark.card("AP 27")
def test_great_retreat_the_event():
    pos = combat_position()
    gr = card(pos, GREAT_RETREAT)
    assert pos.may_play_event("ap", gr)
    pos.play_event("ap", gr)
    assert pos.var("great_retreat_turn") == 6
    assert pos.var("war_status", "ap") == 1
    assert pile_of(pos, gr) == "removed:ap"


@pytest.mark.card("AP 27")
def test_great_retreat_russians_fall_back_before_combat():
    """Attacked in the turn of the event, RU 1 retreats one space before any
    die is rolled; no combat is fought (no fire, no dice used); the
    full-strength German army may advance into the space left."""
    pos = great_retreat_position()
    pos.run("resolve_attacks", "cp", answers=[
        "attack Lodz from Posen", "Russians fall back from Lodz before combat (Great Retreat)",
        "RU 1 retreats to Warsaw", "advance GE 8 into Lodz"])
    log = pos.log()
    assert not any("fires" in line or line.startswith("rolled") for line in log)
    assert pos.units_at("Warsaw") == ["RU 1"]
    assert pos.units_at("Lodz") == ["GE 8"]
    assert control(pos, "Lodz") == "cp"
    assert pos.var("great_retreat_now") is False
    assert not any(len(d.options) > 1 and "then" in " ".join(d.options) for d in pos.asked)


@pytest.mark.card("AP 27")
def test_great_retreat_the_russians_may_stand_and_fight():
    pos = great_retreat_position()
    pos.run("resolve_attacks", "cp", answers=["attack Lodz from Posen", "stand and fight"], dice=[1, 6])
    assert "cp attacks Lodz with strength 5 against 3" in pos.log()
    assert pos.units_at("Lodz") == ["RU 1"]


@pytest.mark.parametrize("turn, played_turn, defenders", [
    (7, 6, ("RU 1",)),            # only in the turn it was played
    (6, None, ("RU 1",)),         # not without the event
    (6, 6, ("RU 1", "FR 1")),     # only Russian defenders
])
@pytest.mark.card("AP 27")
def test_great_retreat_not_offered(turn, played_turn, defenders):
    pos = great_retreat_position(turn, played_turn, defenders)
    pos.run("resolve_attacks", "cp", answers=["attack Lodz from Posen"], dice=[1, 6])
    assert not any(d.choice == "great_retreat_from" for d in pos.asked)
    assert any("cp attacks Lodz" in line for line in pos.log())


# ------------------------------------------------------------ CP 31 Kemal
def kemal_position(defenders=("TUc",), reduced=False, kemal=True) -> Position:
    """Turkish corps (1-1-3, 0-1-3 reduced) defend Lodz, held by the Central
    Powers; RU 1 (3 CF) stands in Warsaw and a Russian corps in Plock."""
    pos = combat_position()
    pos.s["at_war"]["tu"] = True  # Turkish units stand on the map only once Turkey is at war
    pos.defenders = [pos.place(u, "Lodz", reduced=reduced) for u in defenders]
    pos.control("Lodz", "cp")
    pos.ru1 = pos.place("RU 1", "Warsaw")
    pos.ruc = pos.place("RUc", "Plock")
    pos.kemal = card(pos, KEMAL)
    if kemal:
        hand(pos, "cp", pos.kemal)
    return pos


@pytest.mark.parametrize("answers, line", [
    (["cp uses Kemal"],
     "cp fires with strength 1 on the Army table (shift 0), die 2 modified to 2: loss number 1"),
    (["no more combat cards", "TUc retreats to Posen", "stop advancing"],
     "cp fires with strength 1 on the Corps/Fort table (shift 0), die 2 modified to 2: loss number 0"),
])
@pytest.mark.card("CP 31")
def test_kemal_turkish_corps_fire_on_the_army_table(answers, line):
    """12.2.8 and the card: RU 1 attacks a lone Turkish corps in Lodz (die 1:
    loss number 1, the corps flips).  With Kemal the corps's 1 CF is read on
    the Army table (die 2: loss number 1, a tie), without it on the Corps/Fort
    table (die 2: 0, and the Turks retreat)."""
    pos = kemal_position()
    attack_from(pos, "Warsaw")
    pos.run("resolve_attacks", "ap", answers=["attack Lodz from Warsaw"] + answers, dice=[1, 2])
    assert line in pos.log()


@pytest.mark.parametrize("use, losses, line", [
    ("cp uses Kemal", ["RU 1 in Warsaw: flipped"],
     "cp fires with strength 2 on the Army table (shift 0), die 3 modified to 3: loss number 2"),
    ("no more combat cards", ["GEc retreats to Posen", "stop advancing"],
     "cp fires with strength 2 on the Corps/Fort table (shift 0), die 3 modified to 3: loss number 1"),
])
@pytest.mark.card("CP 31")
def test_kemal_still_counts_when_the_turkish_units_are_lost_to_a_flank_attack(use, losses, line):
    """12.3.4 and 12.3.4.1: RU 1 and the Russian corps flank a Turkish and a
    German corps in Lodz (roll 3 + 1) and fire first (4 CF, die 1: loss number
    2); the Central Powers lose the Turkish corps.  Kemal, played while the
    Turks still stood, still counts: the German corps's 2 CF fire on the Army
    table (die 3: 2) instead of the Corps/Fort table (die 3: 1)."""
    pos = kemal_position(("TUc", "GEc"))
    attack_from(pos, "Warsaw", "Plock")
    pos.run("resolve_attacks", "ap", answers=[
        "attack Lodz from Warsaw", "from Plock: RUc", "flank attack, pinning from Warsaw", use,
        "TUc in Lodz: flipped", "TUc in Lodz: lost"] + losses, dice=[3, 1, 3])
    log = pos.log()
    assert log.index("TUc eliminated") < log.index(line)
    assert pos.units_at("eliminated[cp]") == ["TUc"]


@pytest.mark.parametrize("use, line", [
    ("cp uses Kemal",
     "cp fires with strength 0 on the Army table (shift 0), die 4 modified to 4: loss number 1"),
    ("no more combat cards",
     "cp fires with strength 0 on the Corps/Fort table (shift 0), die 4 modified to 4: loss number 0"),
])
@pytest.mark.card("CP 31")
def test_kemal_a_turkish_corps_flipped_to_0_cf_fires_on_the_first_army_column(use, line):
    """12.3.4.1: a reduced RU 1 (2 CF) and the Russian corps flank a lone
    Turkish corps (roll 3 + 1) and flip it (3 CF, die 1: loss number 1); its
    0 CF count as the Army table's first column with Kemal (die 4: 1), the
    Corps/Fort table's 0 column without (die 4: 0)."""
    pos = kemal_position()
    pos.s["reduced"][pos.ru1.index] = True
    attack_from(pos, "Warsaw", "Plock")
    answers = ["attack Lodz from Warsaw", "from Plock: RUc", "flank attack, pinning from Warsaw", use]
    if not use.endswith("Kemal"):
        answers += ["TUc retreats to Posen", "stop advancing"]
    pos.run("resolve_attacks", "ap", answers=answers, dice=[3, 1, 4])
    log = pos.log()
    assert log.index("TUc reduced") < log.index(line)


@pytest.mark.card("CP 31")
def test_kemal_is_discarded_after_a_won_combat():
    """9.5.4.2: a card usable in one combat a turn is discarded after its
    combat even when its side wins; here RU 1 loses a step (Kemal's die 6 on
    the Army table's 1 column: 2) against the Turks' one (die 1: 1)."""
    pos = kemal_position()
    attack_from(pos, "Warsaw")
    pos.run("resolve_attacks", "ap", answers=["attack Lodz from Warsaw", "cp uses Kemal"], dice=[1, 6])
    log = pos.log()
    assert "combat won by cp" in log
    assert "cp keeps Kemal face up" not in log
    assert pile_of(pos, pos.kemal) == "discard:cp"
    assert pos.units_at("Lodz") == ["TUc"] and pos.reduced(pos.defenders[0].index)
    assert pos.reduced(pos.ru1.index)


@pytest.mark.parametrize("defenders, reduced, after", [
    (("GEc",), False, ["GEc retreats to Posen", "stop advancing"]),     # no Turkish unit
    (("TUc",), True, ["stop advancing"]),      # a Turkish corps with 0 CF does not qualify
])
@pytest.mark.card("CP 31")
def test_kemal_needs_turkish_defenders_with_a_combat_factor(defenders, reduced, after):
    pos = kemal_position(defenders, reduced)
    attack_from(pos, "Warsaw")
    pos.run("resolve_attacks", "ap", answers=["attack Lodz from Warsaw"] + after, dice=[1, 1])
    assert not offered(pos, "cp uses Kemal")
    assert pile_of(pos, pos.kemal) == "hand:cp"


@pytest.mark.card("CP 31")
def test_kemal_not_for_a_turkish_attack():
    pos = kemal_position()
    pos.control("Warsaw", "ap")
    attack_from(pos, "Lodz")
    pos.run("resolve_attacks", "cp", answers=["attack Warsaw from Lodz"], dice=[1, 1])
    assert not offered(pos, "cp uses Kemal")
    assert pile_of(pos, pos.kemal) == "hand:cp"
