"""Rule 9.5.2, Neutral Entry events: Italy, Bulgaria, Romania and Greece enter
with their set-up (9.5.2.1), one entry a turn for both sides together
(9.5.2.2), Turkey's entry is not one of them (9.5.2.3), the Salonika landing's
limited Greek entry (9.5.2.4, 9.5.2.4.1) and the Italian and Romanian late
entry (9.5.2.5).

Each test builds a position, runs one procedure (as a card event would call
it) and checks the nations at war, the units placed and what may be played."""

import pytest

from pogdsl.runtime import builtins as B

from .harness import Position, Unanswered


# ----------------------------------------------------------------- helpers
def value(pos, name, *args):
    pos.game.invalidate()
    return B.value_of(pos.game, name, tuple(pos._value(a) if isinstance(a, str) else a for a in args))


def at_war(pos, nation):
    return pos.s["at_war"][nation]


def hand(pos, side, *cards):
    for name in cards:
        pos.game.move_card(pos.entity("card", name), f"hand:{side}")


def first_options(pos, procedure, *args):
    """The options of the first decision `procedure` offers (single options too)."""
    pos.game.ask_forced = True
    with pytest.raises(Unanswered):
        pos.run(procedure, *args)
    pos.s["pending"] = None
    pos.game.ask_forced = False
    return pos.asked[-1].options


def emit_phase_start(pos, phase, answers=()):
    """Start a phase as the driver does: its phase_started triggers run, not the phase itself."""
    g = pos.game
    pos.s["stack"] = []
    pos.s["result"] = None
    g.emit("phase_started", (pos.w.names[phase],))
    answers = list(answers)
    d = g.run()
    while d is not None:
        pos.asked.append(d)
        d = g.choose(answers.pop(0))
    assert not answers
    pos.s["result"] = None


# ----------------------------------------------------------------- 9.5.2.1
@pytest.mark.rule("9.5.2.1")
def test_9_5_2_1_italy_enters_with_its_neutral_set_up():
    pos = Position()
    assert not at_war(pos, "it")
    pos.run("neutral_entry", "it")
    assert at_war(pos, "it")
    assert pos.units_at("Verona") == ["IT 1"]
    assert pos.units_at("Udine") == ["IT 2"]
    assert pos.units_at("Maggiore") == ["IT 3"]
    assert pos.units_at("Asiago") == ["IT 4"]
    assert pos.reduced(pos.entity("unit", "IT 1").index)
    assert pos.units_at("Turin") == pos.units_at("Rome") == pos.units_at("Taranto") == ["ITc"]
    assert pos.units_at("reserve[ap]") == ["ITc"] * 4


@pytest.mark.rule("9.5.2.1")
def test_9_5_2_1_bulgaria_enters_and_the_cp_player_spreads_four_corps():
    pos = Position()
    pos.run("neutral_entry", "bu", answers=[
        "set up a corps in Varna", "set up a corps in Kazanlik", "set up a corps in Strumitsa",
        "set up a corps in Philippoli"])
    assert at_war(pos, "bu")
    assert pos.units_at("Sofia") == ["BUc", "BUc"]
    for s in ("Varna", "Kazanlik", "Strumitsa", "Philippoli"):
        assert pos.units_at(s) == ["BUc"]


@pytest.mark.rule("9.5.2.1")
def test_9_5_2_1_romania_enters_and_the_allied_player_spreads_four_corps():
    pos = Position()
    options = first_options(pos, "neutral_entry", "ro")
    assert "set up a corps in Bucharest" not in options  # Bucharest already holds its two
    pos = Position()
    spaces = [o for o in options][:4]
    pos.run("neutral_entry", "ro", answers=spaces)
    assert at_war(pos, "ro")
    assert pos.units_at("Bucharest") == ["ROc", "ROc"]
    assert sum(len(pos.units_at(o[len("set up a corps in "):])) for o in spaces) == 4


# ----------------------------------------------------------------- 9.5.2.2
@pytest.mark.rule("9.5.2.2")
def test_9_5_2_2_one_neutral_entry_a_turn_for_both_sides():
    """Italy enters in turn 5: Bulgaria may not enter that turn, but may the next."""
    pos = Position()
    pos.s["turn"] = 5
    assert value(pos, "neutral_entry_allowed") is True
    pos.run("neutral_entry", "it")
    assert pos.var("neutral_entry_turn") == 5
    assert value(pos, "neutral_entry_allowed") is False
    pos.s["turn"] = 6
    assert value(pos, "neutral_entry_allowed") is True


@pytest.mark.rule("9.5.2.3")
def test_9_5_2_3_turkish_entry_is_not_a_neutral_entry():
    """16.1.3.1: Turkey entering with the CP's Limited War leaves the turn's neutral entry unused."""
    pos = Position()
    pos.s["turn"] = 4
    pos.run("turkey_enters")
    assert at_war(pos, "tu")
    assert value(pos, "neutral_entry_allowed") is True


@pytest.mark.rule("9.5.2.1")
def test_9_5_2_1_only_the_four_nations_enter_by_event():
    """Albania and Persia never enter the war; the US and Turkey have their own ways (9.5.2.3)."""
    pos = Position()
    names = [n.key for n in value(pos, "neutral_entry_nations")]
    assert names == ["it", "bu", "ro", "gr"]
    assert not at_war(pos, "al") and not at_war(pos, "pe")


# ----------------------------------------------------------------- 9.5.2.4
@pytest.mark.rule("9.5.2.4")
def test_9_5_2_4_salonika_places_the_greeks_but_greece_stays_neutral():
    pos = Position()
    pos.run("limited_greek_entry")
    assert pos.units_at("Florina") == pos.units_at("Larisa") == pos.units_at("Athens") == ["GRc"]
    assert not at_war(pos, "gr")
    # Greece's own event later brings it in without a second set of units.
    pos.run("neutral_entry", "gr")
    assert at_war(pos, "gr")
    assert pos.units_at("Florina") == pos.units_at("Larisa") == pos.units_at("Athens") == ["GRc"]


def greeks_placed_by_salonika() -> Position:
    """After the Salonika landing: the three Greek corps (Florina, Larisa,
    Athens), Greece still neutral; a British corps in Valona and Bulgaria in
    the war with a corps in Monastir, next to Florina."""
    pos = Position()
    pos.run("limited_greek_entry")
    pos.place("BRc", "Valona")
    pos.s["at_war"]["bu"] = True
    pos.place("BUc", "Monastir")
    pos.control("Monastir", "cp")
    return pos


@pytest.mark.rule("9.5.2.4")
@pytest.mark.rule("9.2.6")
def test_9_5_2_4_no_side_may_activate_the_neutral_greek_units():
    """The Greek units are still neutral: an Allied operation may activate the
    British corps but none of the Greek spaces."""
    pos = greeks_placed_by_salonika()
    options = first_options(pos, "operations", "ap", 4, pos.card("ap", 30))
    assert any(o.startswith("activate Valona") for o in options)
    for space in ("Florina", "Larisa", "Athens"):
        assert not any(o.startswith(f"activate {space} ") for o in options), space


@pytest.mark.rule("9.5.2.4")
@pytest.mark.rule("12.1.4")
def test_9_5_2_4_no_one_may_attack_a_space_holding_neutral_greek_units():
    """The Bulgarian corps next to Florina may not attack the Greek corps
    there; once Greece has entered the war it may."""
    pos = greeks_placed_by_salonika()
    pos.activate("Monastir", "attack")
    pos.run("resolve_attacks", "cp")  # nothing to attack: no decision at all
    assert pos.asked == []

    pos = greeks_placed_by_salonika()
    pos.s["at_war"]["gr"] = True
    pos.activate("Monastir", "attack")
    assert "attack Florina from Monastir" in first_options(pos, "resolve_attacks", "cp")


@pytest.mark.rule("9.5.2.4")
def test_9_5_2_4_neutral_greek_units_never_attack():
    """Even under an Attack marker, and counted in supply, a neutral Greek
    corps does not attack."""
    pos = greeks_placed_by_salonika()
    pos.activate("Florina", "attack")
    for i in pos.s["occ"][pos._location("Florina")]:
        pos.s["vars"]["supplied_at_activation"][str(i)] = True
    pos.game.invalidate()
    pos.run("resolve_attacks", "ap")
    assert pos.asked == []
    assert pos.units_at("Monastir") == ["BUc"] and pos.units_at("Florina") == ["GRc"]


@pytest.mark.rule("9.5.2.4.1")
def test_9_5_2_4_1_greece_may_enter_before_salonika():
    pos = Position()
    pos.run("neutral_entry", "gr")
    assert at_war(pos, "gr")
    pos.run("limited_greek_entry")
    assert pos.units_at("Athens") == ["GRc"]


@pytest.mark.rule("9.5.2.4.1")
def test_9_5_2_4_1_no_mef_landing_after_salonika():
    pos = Position()
    assert value(pos, "mef_landing_allowed") is True
    pos.s["played"].append(pos.entity("card", "Salonika").index)
    assert value(pos, "mef_landing_allowed") is False


# ----------------------------------------------------------------- 9.5.2.5
def late_entry_position(ap_level):
    pos = Position()
    pos.s["turn"] = 12
    pos.set("commitment", "total_war_level", key="cp")
    pos.set("commitment", ap_level, key="ap")
    hand(pos, "ap", "Italy", "Romania", "Salonika")
    return pos


@pytest.mark.rule("9.5.2.5")
def test_9_5_2_5_italy_and_romania_only_as_events_while_the_allies_lag_behind():
    pos = late_entry_position("limited_war_level")
    options = first_options(pos, "action_round", "ap")
    for use in ("ops", "sr", "rp"):
        assert f"play 17 {use} (Italy)" not in options
        assert f"play 16 {use} (Romania)" not in options
        assert f"play 30 {use} (Salonika)" in options
    assert "play 17 event (Italy)" in options
    assert "play 16 event (Romania)" in options


@pytest.mark.rule("9.5.2.5")
def test_9_5_2_5_the_lock_lifts_once_the_allies_reach_total_war():
    pos = late_entry_position("total_war_level")
    options = first_options(pos, "action_round", "ap")
    assert "play 17 ops (Italy)" in options
    assert "play 16 rp (Romania)" in options


@pytest.mark.rule("9.5.2.5")
def test_9_5_2_5_locked_entry_cards_may_be_discarded_before_the_draw():
    pos = late_entry_position("limited_war_level")
    emit_phase_start(pos, "draw_cards", answers=["discard Italy", "keep them"])
    assert pos.asked[0].options == ["discard Italy", "discard Romania", "keep them"]
    assert [c.data.name.text for c in B.iterate(pos.game, pos.game.pile_entity("discard:ap"))] == ["Italy"]
    assert sorted(c.data.name.text for c in B.iterate(pos.game, pos.game.pile_entity("hand:ap"))) == [
        "Romania", "Salonika"]


@pytest.mark.rule("9.5.2.5")
def test_9_5_2_5_no_discard_offer_without_the_lock():
    pos = late_entry_position("total_war_level")
    emit_phase_start(pos, "draw_cards")
    assert pos.asked == []
