"""Rule 9.5.3, Reinforcement events: when a reinforcement card may be played
(9.5.3.1), corps to the Reserve Box (9.5.3.2), where armies enter (9.5.3.3),
Allied Near East armies entered at home (9.5.3.4) and the MEF landing
(9.5.3.5).

`bring_reinforcements(side, card)` is what every reinforcement card's event
calls; whether the card may be played as an event at all is read from the
options of `action_round` (restriction reinforcement_play)."""

import pytest

from pogdsl.runtime.errors import IllegalOption

from .harness import Position, Unanswered


# ----------------------------------------------------------------- helpers
def hand(pos, side, *cards):
    for name in cards:
        pos.game.move_card(pos.entity("card", name), f"hand:{side}")


def action_options(pos, side):
    """The options of the side's action round (single options too)."""
    pos.game.ask_forced = True
    with pytest.raises(Unanswered):
        pos.run("action_round", side)
    pos.s["pending"] = None
    pos.game.ask_forced = False
    return pos.asked[-1].options


def reinforce(pos, side, card, answers=(), ask_forced=False):
    """Run the card's reinforcement event; with ask_forced a lone legal option is asked too,
    so that refusing another answer can be checked."""
    pos.game.ask_forced = ask_forced
    try:
        pos.run("bring_reinforcements", side, pos.entity("card", card), answers=answers)
    finally:
        pos.game.ask_forced = False


def placement_options(pos, side, card):
    """The spaces offered for the card's first placed unit."""
    pos.game.ask_forced = True
    with pytest.raises(Unanswered):
        pos.run("bring_reinforcements", side, pos.entity("card", card))
    pos.s["pending"] = None
    pos.game.ask_forced = False
    return pos.asked[-1].options


def turn(pos, t):
    pos.s["turn"] = t
    pos.game.invalidate()


def at_war(pos, *nations):
    for n in nations:
        pos.s["at_war"][n] = True
    pos.game.invalidate()


GE10 = "German Reinforcements (GE 10)"
GE9 = "German Reinforcements (GE 9)"
AH7 = "Austria-Hungary Reinforcements (AH 7)"
FR10 = "French Reinforcements (FR 10)"


# ----------------------------------------------------------------- 9.5.3.2 / 9.5.3.3
@pytest.mark.rule("9.5.3.2")
@pytest.mark.rule("9.5.3.3")
def test_9_5_3_2_corps_go_to_the_reserve_box_and_9_5_3_3_the_army_to_a_capital_or_source():
    pos = Position()
    turn(pos, 3)
    assert placement_options(pos, "cp", GE10) == [
        "place GE 10 at Essen", "place GE 10 at Berlin", "place GE 10 at Breslau"]
    pos = Position()
    turn(pos, 3)
    reinforce(pos, "cp", GE10, answers=["place GE 10 at Berlin"])
    assert pos.units_at("Berlin") == ["GE 10"]
    assert pos.units_at("reserve[cp]") == ["GEc", "GEc"]
    assert pos.var("reinforcement_turn", "ge") == 3


@pytest.mark.rule("9.5.3.3")
def test_9_5_3_3_austria_hungary_has_two_capitals():
    pos = Position()
    turn(pos, 3)
    assert placement_options(pos, "cp", AH7) == ["place AH 7 at Vienna", "place AH 7 at Budapest"]


@pytest.mark.rule("9.5.3.3")
def test_9_5_3_3_no_entry_at_a_besieged_fort_or_an_enemy_held_space():
    """Breslau's fort is besieged and Berlin is in Allied hands: only Essen is left (9.5.3.1 lets the
    card be played while the capital is lost if another entry space is open)."""
    pos = Position()
    turn(pos, 3)
    pos.set("besieged", True, key="Breslau")
    pos.control("Berlin", "ap")
    assert placement_options(pos, "cp", GE9) == ["place GE 9 at Essen"]


@pytest.mark.rule("9.5.3.3")
def test_9_5_3_3_a_full_space_is_refused():
    pos = Position()
    turn(pos, 3)
    for _ in range(3):
        pos.place("GEc", "Berlin")
    with pytest.raises(IllegalOption, match="reinforcement_placement"):
        reinforce(pos, "cp", GE9, answers=["place GE 9 at Berlin"])


@pytest.mark.rule("9.5.3.3")
def test_9_5_3_3_an_army_must_enter_in_supply():
    """Every space around Berlin is in Allied hands: Berlin is cut off from Essen and Breslau, so
    GE 9 may not enter there, though it is still a German-held capital."""
    pos = Position()
    turn(pos, 3)
    for s in ("Hannover", "Leipzig", "Rostock", "Stettin", "Cottbus"):
        pos.control(s, "ap")
    assert placement_options(pos, "cp", GE9) == ["place GE 9 at Essen", "place GE 9 at Breslau"]
    with pytest.raises(IllegalOption, match=r"reinforcement_placement \(rule 9.5.3.1, 9.5.3.3"):
        reinforce(pos, "cp", GE9, answers=["place GE 9 at Berlin"])


@pytest.mark.rule("9.5.3.1")
def test_9_5_3_1_no_legal_entry_space_no_reinforcement_card():
    """Paris cut off from London (every neighbour German, Orleans included): FR 10 has nowhere to
    enter, so its card may not be played as an event."""
    pos = Position()
    turn(pos, 3)
    paris = pos.entity("space", "Paris")
    for j, _ in pos.w.adjacency[paris.index]:
        pos.control(pos.w.spaces[j].key, "cp")
    hand(pos, "ap", FR10)
    options = action_options(pos, "ap")
    assert "play 10 ops (French Reinforcements (FR 10))" in options
    assert "play 10 event (French Reinforcements (FR 10))" not in options


@pytest.mark.rule("9.5.3.3")
def test_9_5_3_3_orleans_only_while_paris_is_full():
    pos = Position()
    turn(pos, 3)
    with pytest.raises(IllegalOption, match="reinforcement_placement"):
        reinforce(pos, "ap", FR10, answers=["place FR 10 at Orleans"], ask_forced=True)
    pos = Position()
    turn(pos, 3)
    for _ in range(3):
        pos.place("FRc", "Paris")
    reinforce(pos, "ap", FR10)  # Orleans is then the only entry space
    assert pos.units_at("Orleans") == ["FR 10"]


@pytest.mark.rule("9.5.3.3")
def test_9_5_3_3_no_orleans_when_paris_is_enemy_held():
    pos = Position()
    turn(pos, 3)
    pos.control("Paris", "cp")
    hand(pos, "ap", FR10)
    assert "play 10 event (French Reinforcements (FR 10))" not in action_options(pos, "ap")


@pytest.mark.rule("9.5.3.3")
def test_9_5_3_3_us_armies_enter_at_french_ports():
    pos = Position()
    turn(pos, 15)
    at_war(pos, "us")
    pos.control("Calais", "cp")
    assert placement_options(pos, "ap", "USA Reinforcements (US 1)") == [
        "place US 1 at Cherbourg", "place US 1 at Le Havre", "place US 1 at Nantes",
        "place US 1 at La Rochelle", "place US 1 at Bordeaux", "place US 1 at Marseilles"]


# ----------------------------------------------------------------- 9.5.3.1
@pytest.mark.rule("9.5.3.1")
def test_9_5_3_1_no_reinforcements_in_august_1914():
    pos = Position()
    hand(pos, "cp", GE9)
    assert "play 7 event (German Reinforcements (GE 9))" not in action_options(pos, "cp")
    pos = Position()
    turn(pos, 2)
    hand(pos, "cp", GE9)
    assert "play 7 event (German Reinforcements (GE 9))" in action_options(pos, "cp")


@pytest.mark.rule("9.5.3.1")
def test_9_5_3_1_one_reinforcement_card_a_nation_a_turn():
    pos = Position()
    turn(pos, 4)
    reinforce(pos, "cp", GE10, answers=["place GE 10 at Berlin"])
    hand(pos, "cp", GE9, AH7)
    options = action_options(pos, "cp")
    assert "play 7 event (German Reinforcements (GE 9))" not in options
    assert "play 14 event (Austria-Hungary Reinforcements (AH 7))" in options
    turn(pos, 5)
    assert "play 7 event (German Reinforcements (GE 9))" in action_options(pos, "cp")


@pytest.mark.rule("9.5.3.1")
def test_9_5_3_1_not_for_a_nation_still_neutral():
    pos = Position()
    turn(pos, 6)
    hand(pos, "ap", "Italian Reinforcements")
    assert "play 22 event (Italian Reinforcements)" not in action_options(pos, "ap")
    at_war(pos, "it")
    assert "play 22 event (Italian Reinforcements)" in action_options(pos, "ap")


@pytest.mark.rule("9.5.3.1")
def test_9_5_3_1_not_if_the_armies_cannot_all_be_placed():
    """RU 6 and RU 7 need two places: with every Russian source but one full, and that one
    holding two units, only one army fits, so the card may not be played."""
    pos = Position()
    turn(pos, 6)
    card = "Russian Reinforcements (RU 6, RU 7)"
    hand(pos, "ap", card)
    for s in ("Petrograd", "Moscow", "Kharkov"):
        for _ in range(3):
            pos.place("RUc", s)
    pos.place("RUc", "Caucasus")
    assert f"play 25 event ({card})" in action_options(pos, "ap")
    pos.place("RUc", "Caucasus")
    assert f"play 25 event ({card})" not in action_options(pos, "ap")


@pytest.mark.rule("9.5.3.1")
def test_9_5_3_1_not_if_no_corps_piece_is_left():
    pos = Position()
    turn(pos, 10)
    card = "German Reinforcements (2 corps)"
    hand(pos, "cp", card)
    free = sum(1 for u in pos.w.units if u.key == "GEc")
    for _ in range(free - 2):
        pos.place("GEc", "reserve[cp]")
    assert any(o.endswith(f"event ({card})") for o in action_options(pos, "cp"))
    pos.place("GEc", "reserve[cp]")
    assert not any(o.endswith(f"event ({card})") for o in action_options(pos, "cp"))


# ----------------------------------------------------------------- directed units
@pytest.mark.rule("9.5.3.2")
def test_9_5_3_2_the_ana_corps_goes_where_its_card_says():
    pos = Position()
    turn(pos, 12)
    reinforce(pos, "ap", "Arab Northern Army (BR Reinforcements)")
    assert pos.units_at("Arabia") == ["BR ANAc"]
    assert pos.units_at("reserve[ap]") == []
    assert pos.var("reinforcement_turn", "br") == 12


@pytest.mark.rule("9.5.3.2")
def test_9_5_3_2_the_senussi_go_to_libya_and_count_as_turkish():
    pos = Position()
    turn(pos, 8)
    at_war(pos, "tu")
    reinforce(pos, "cp", "Libyan Revolt (TU Reinforcements)")
    assert pos.units_at("Libya") == ["TU SNc"]
    assert pos.var("reinforcement_turn", "tu") == 8


@pytest.mark.rule("9.5.3.3")
@pytest.mark.rule("9.5.3.4")
def test_9_5_3_3_the_orient_army_enters_at_salonika_or_9_5_3_4_at_home():
    pos = Position()
    turn(pos, 12)
    assert placement_options(pos, "ap", "Army of the Orient (FR Reinforcements)") == [
        "place FR Orient at Salonika", "place FR Orient at Paris"]


# ----------------------------------------------------------------- 9.5.3.4
@pytest.mark.rule("9.5.3.4")
def test_9_5_3_4_a_near_east_army_entered_at_home_loses_its_near_east_role():
    pos = Position()
    turn(pos, 14)
    pos.s["played"].append(pos.entity("card", "Sinai Pipeline").index)  # Alexandria open: entering at home is a choice
    reinforce(pos, "ap", "Allenby (BR Reinforcements)", answers=["place BR NE at London"])
    ne = pos.entity("unit", "BR NE")
    assert pos.units_at("London") == ["BR NE"]
    assert pos.var("entered_at_home", str(ne.index)) is True


@pytest.mark.rule("9.5.3.4")
def test_9_5_3_4_a_home_entered_near_east_army_may_not_enter_the_near_east_map():
    """BR NE at Adrianople may step onto Constantinople (Near East map) unless it entered at home.
    (The Allies hold Gallipoli and Constantinople, so the army is supplied through the port.)"""
    for home, refused in ((False, False), (True, True)):
        pos = Position()
        turn(pos, 14)
        at_war(pos, "tu")
        for s in ("Adrianople", "Constantinople", "Gallipoli"):
            pos.control(s, "ap")
        ne = pos.place("BR NE", "Adrianople")
        pos.set("entered_at_home", home, key=str(ne.index))
        pos.activate("Adrianople", "move")
        answers = ["move BR NE from Adrianople", "move to Constantinople", "stop in Constantinople"]
        if refused:
            with pytest.raises(IllegalOption, match="home_entered_armies_stay_off_the_near_east"):
                pos.run("move_activated_units", "ap", answers=answers)
        else:
            pos.run("move_activated_units", "ap", answers=answers)
            assert pos.units_at("Constantinople") == ["BR NE"]


# ----------------------------------------------------------------- 9.5.3.5
@pytest.mark.rule("9.5.3.5")
def test_9_5_3_5_the_mef_lands_with_its_beachhead():
    pos = Position()
    turn(pos, 6)
    at_war(pos, "tu")
    assert placement_options(pos, "ap", "MEF (BR Reinforcements)") == [
        "place BR MEF at MEF1", "place BR MEF at MEF2", "place BR MEF at MEF3", "place BR MEF at MEF4",
        "place BR MEF at London"]
    pos = Position()
    turn(pos, 6)
    at_war(pos, "tu")
    reinforce(pos, "ap", "MEF (BR Reinforcements)", answers=["place BR MEF at MEF2"])
    assert pos.units_at("MEF2") == ["BR MEF"]
    assert pos.var("mef_beachhead") == "MEF2"


@pytest.mark.rule("9.5.2.4.1")
def test_9_5_2_4_1_after_salonika_the_mef_may_only_enter_at_home():
    pos = Position()
    turn(pos, 8)
    at_war(pos, "tu")
    pos.s["played"].append(pos.entity("card", "Salonika").index)
    with pytest.raises(IllegalOption, match="reinforcement_placement"):
        reinforce(pos, "ap", "MEF (BR Reinforcements)", answers=["place BR MEF at MEF1"], ask_forced=True)
    pos = Position()
    turn(pos, 8)
    at_war(pos, "tu")
    pos.s["played"].append(pos.entity("card", "Salonika").index)
    reinforce(pos, "ap", "MEF (BR Reinforcements)")  # London is then the only entry space
    assert pos.units_at("London") == ["BR MEF"]
    assert pos.var("mef_beachhead") is None
