"""The frame of the game, each test written from the rulebook: the opening
set-up (4.1.1, 4.3), victory (5.1, 5.2, 5.5), the sequence of play (6.0 A-H),
action rounds (8.1) and War Commitment and Combined War Status (16.1,
16.2).  Card uses (9.x) are in test_strategy_cards.py."""

import pytest

from pogdsl.runtime.interpreter import Game

from .harness import Position, world


def new_game(seed: int = 0, guns: bool = True, w=None):
    """A Campaign game past the Guns of August choice, at the first action."""
    g = Game.new(w or world(), seed=seed, log=True)
    g.run()
    d = g.choose("start with Guns of August in hand: " + ("yes" if guns else "no"))
    return g, d


def phases_of_a_turn(seed: int = 1, decisions: int = 300):
    """(turn, phase) in the order the phases start, over a seeded random game."""
    from .harness import play_randomly

    seen = []
    original = Game.emit

    def emit(self, name, args):
        if name == "phase_started":
            seen.append((self.s["turn"], str(args[0])))
        return original(self, name, args)

    Game.emit = emit
    try:
        play_randomly(world(), seed, decisions)
    finally:
        Game.emit = original
    return seen


def run_phase(pos: Position, phase: str, answers=(), dice=()):
    """Run one phase of the turn sequence (its segments in order)."""
    g = pos.game
    pos.s["stack"] = [{"code": f"phase:{phase}", "pc": 0, "l": {}}]
    pos.s["dice"] = list(dice)
    pos.s["result"] = None
    g.invalidate()
    answers = list(answers)
    d = g.run()
    while d is not None:
        pos.asked.append(d)
        d = g.choose(answers.pop(0))
    assert not answers


def outcome(pos: Position):
    r = pos.s["result"]
    return None if r is None or r["reason"] == "nothing left to run" else r["winner"]


def hand(pos_or_game, side):
    g = getattr(pos_or_game, "game", pos_or_game)
    return [g.w.cards[i] for i in g.s["piles"][f"hand:{side}"]]


# ------------------------------------------------------------------ 4 set-up
@pytest.mark.rule("4.1.1")
def test_markers_start_where_the_set_up_puts_them():
    """4.1.1: turn 1 (August 1914), VP 10, every War Status 0, every
    replacement record 0, US Entry in US Neutral, Russian Capitulation in God
    Save the Tsar."""
    g, _ = new_game()
    v = g.s["vars"]
    assert g.s["turn"] == 1
    assert v["vp"] == 10
    from pogdsl.runtime import builtins as B

    assert all(x == 0 for x in v["war_status"].values())
    assert B.value_of(g, "combined_war_status", ()) == 0
    assert all(x == 0 for x in v["rp_points"].values()) and v["allied_rp_points"] == 0
    assert getattr(v["us_entry"], "key", v["us_entry"]) == "us_neutral"
    assert getattr(v["russian_capitulation"], "key", v["russian_capitulation"]) == "god_save_the_tsar"


@pytest.mark.rule("4.3.3")
@pytest.mark.rule("6.0.A")
def test_turn_one_opens_with_both_mandated_offensive_rolls():
    """4.3.3 and 6.0 A: once the hands are dealt, the first turn starts with a
    Mandated Offensive roll for each side, before any action."""
    g, d = new_game()
    log = [e for e in g.s["log"]]
    mo = [e for e in log if "Mandated Offensive:" in e["text"]]
    assert [e["text"].split()[0] for e in mo] == ["cp", "ap"]
    assert all(e["phase"] == "mandated_offensive" and e["turn"] == 1 for e in mo)
    assert d.choice == "take_action"


@pytest.mark.rule("4.3.1")
@pytest.mark.rule("4.3.2")
def test_opening_hands_of_seven_with_or_without_guns_of_august():
    """4.3.1: the CP player chooses whether Guns of August starts in his hand;
    4.3.2: each side holds seven Mobilization cards."""
    for guns in (True, False):
        g, _ = new_game(seed=5, guns=guns)
        for side in ("ap", "cp"):
            cards = hand(g, side)
            assert len(cards) == 7
            assert {c.data.deck.text for c in cards} == {"mobilization"}
        assert ("Guns of August" in [c.data.name.text for c in hand(g, "cp")]) is guns


# ------------------------------------------------------------------ 5 victory
@pytest.mark.rule("5.2.1")
def test_central_powers_win_automatically_at_20():
    """5.2.1: VP 20 or more in segment E.2 is an automatic CP win."""
    for vp, winner in ((20, "cp"), (23, "cp"), (19, None)):
        pos = Position()
        pos.set("vp", vp)
        pos.run("check_automatic_victory")
        assert outcome(pos) == winner, vp


@pytest.mark.rule("5.2.2")
def test_allies_win_automatically_at_0():
    """5.2.2: VP 0 or less in segment E.2 is an automatic Allied win."""
    for vp, winner in ((0, "ap"), (-2, "ap"), (1, None)):
        pos = Position()
        pos.set("vp", vp)
        pos.run("check_automatic_victory")
        assert outcome(pos) == winner, vp


@pytest.mark.rule("5.1.1")
@pytest.mark.rule("5.5.2.2")
def test_campaign_levels_without_brest_litovsk():
    """5.1.1: the final VP level decides; 5.5.2.2: without Brest-Litovsk, 13+
    is a CP win, 10-12 a draw, 9 or less an Allied win."""
    for vp, winner in ((13, "cp"), (12, None), (10, None), (9, "ap")):
        pos = Position()
        pos.set("vp", vp)
        pos.run("decide_by_vp", "the end")
        assert pos.s["result"] is not None and pos.s["result"]["winner"] == winner, vp


@pytest.mark.rule("5.5.2.1")
def test_campaign_levels_after_brest_litovsk():
    """5.5.2.1: once Brest-Litovsk was played, 11+ is a CP win, 10 a draw, 9
    or less an Allied win."""
    card = Position().entity("card", "Treaty of Brest Litovsk")
    for vp, winner in ((11, "cp"), (10, None), (9, "ap")):
        pos = Position()
        pos.s["played"].append(card.index)
        pos.set("vp", vp)
        pos.run("decide_by_vp", "the end")
        assert pos.s["result"]["winner"] == winner, vp


@pytest.mark.rule("5.5.1")
def test_the_campaign_runs_twenty_turns_then_the_vp_level_decides():
    """5.5.1: the Campaign ends after turn 20 (Winter 1919) at the latest, and
    an Armistice (16.2.1) also ends it."""
    w = world()
    assert (w.first_turn, w.last_turn) == (1, 20)
    pos = Position()
    pos.set("war_status", 20, key="ap")
    pos.set("war_status", 20, key="cp")
    pos.set("vp", 14)
    pos.run("check_armistice")
    assert pos.s["result"]["winner"] == "cp"


# ------------------------------------------------------------------ 6 sequence of play
EXPECTED_PHASES = ["mandated_offensive", "action", "attrition", "siege", "war_status_phase", "replacement",
                   "draw_cards", "end_of_turn"]


@pytest.mark.rule("6.0.H")
def test_every_turn_runs_the_phases_in_order_then_the_next_turn_begins():
    """6.0: phases A to H strictly in order; H: the turn marker then advances
    and the sequence starts again with the Mandated Offensive Phase."""
    seen = phases_of_a_turn()
    turns = sorted({t for t, _ in seen})
    assert len(turns) >= 2
    for t in turns[:-1]:
        assert [p for tt, p in seen if tt == t] == EXPECTED_PHASES
    assert [p for tt, p in seen if tt == turns[-1]][0] == "mandated_offensive"


@pytest.mark.rule("6.0.B")
@pytest.mark.rule("8.1.1")
@pytest.mark.rule("8.1.2")
@pytest.mark.rule("8.1.5")
def test_six_action_rounds_central_powers_first():
    """6.0 B, 8.1.1, 8.1.2, 8.1.5: six rounds; in each, the CP player acts,
    then the Allied player; twelve actions in all, then the phase ends."""
    g, d = new_game()
    takers = []
    while d is not None and g.s["phase"] == "action":
        if d.choice == "take_action":
            takers.append((g.s["vars"]["action_round"], d.by))
            d = g.choose("automatic_op")
        else:
            d = g.choose(len(d.options))  # "done activating" / the last option, ending the step
    assert takers == [(r, side) for r in range(1, 7) for side in ("cp", "ap")]


@pytest.mark.rule("6.0.C")
def test_attrition_phase_eliminates_units_out_of_supply():
    """6.0 C: in the Attrition Phase an unsupplied corps goes to the eliminated
    box and an unsupplied army leaves the game."""
    pos = Position()
    corps = pos.place("GEc", "Moscow")
    army = pos.place("GE 9", "Kiev")
    pos.place("GE 1", "Aachen")
    run_phase(pos, "attrition")
    assert pos.w.place_entity(pos.s["loc"][corps.index]).key == "eliminated[cp]"
    assert pos.w.place_entity(pos.s["loc"][army.index]).key == "removed[cp]"
    assert pos.units_at("Aachen") == ["GE 1"]


@pytest.mark.rule("6.0.D")
def test_siege_phase_rolls_for_each_besieged_fort():
    """6.0 D: a die for each besieged fort; a roll above its loss factor
    destroys it (15.3.2); unbesieged forts are not rolled for."""
    pos = Position()
    pos.s["turn"] = 5
    pos.place("GE 1", "Liege")
    pos.control("Liege", "ap")
    pos.run("update_sieges", "cp")
    run_phase(pos, "siege", dice=[6])
    assert pos.s["fort_destroyed"][pos.entity("space", "Liege").index]
    assert pos.s["dice"] == []


@pytest.mark.rule("6.0.E.1")
@pytest.mark.rule("6.0.E.2")
def test_war_status_phase_applies_vp_changes_before_the_victory_check():
    """6.0 E.1 then E.2: VP 19 and a missed Allied Mandated Offensive: the
    penalty brings VP to 20 first, so the Central Powers win automatically."""
    pos = Position()
    pos.s["turn"] = 3
    pos.set("vp", 19)
    pos.set("mo_marker", "fr", key="ap")
    run_phase(pos, "war_status_phase")
    assert pos.var("vp") == 20
    assert outcome(pos) == "cp"


@pytest.mark.rule("6.0.E.3")
@pytest.mark.rule("16.2.1")
def test_armistice_at_combined_war_status_40():
    """6.0 E.3, 16.2.1: with the Combined War Status at 40 or more the war
    ends in the War Status Phase and the VP level decides; at 39 it goes on."""
    for ap, cp, ends in ((20, 20, True), (25, 18, True), (20, 19, False)):
        pos = Position()
        pos.s["turn"] = 12
        pos.set("war_status", ap, key="ap")
        pos.set("war_status", cp, key="cp")
        pos.set("commitment", "total_war_level", key="ap")
        pos.set("commitment", "total_war_level", key="cp")
        pos.set("vp", 9)
        run_phase(pos, "war_status_phase")
        assert (outcome(pos) == "ap") is ends, (ap, cp)


@pytest.mark.rule("6.0.E.4")
@pytest.mark.rule("16.1.2")
@pytest.mark.rule("16.1.3")
def test_war_commitment_is_checked_from_turn_two():
    """6.0 E.4, 16.1.2: War Commitment is not checked on turn 1; from turn 2 a
    War Status of 4 brings Limited War (16.1.3)."""
    for turn, level in ((1, "mobilization_level"), (2, "limited_war_level")):
        pos = Position()
        pos.s["turn"] = turn
        pos.set("war_status", 4, key="ap")
        run_phase(pos, "war_status_phase")
        assert pos.var("commitment", "ap") == level, turn


@pytest.mark.rule("6.0.F.1")
@pytest.mark.rule("6.0.F.2")
def test_replacement_phase_allies_spend_first_then_central_powers():
    """6.0 F.1 then F.2: the Allied player spends his RPs, then the CP player;
    what is not spent is lost."""
    pos = Position()
    fr = pos.place("FR 1", "Paris", reduced=True)
    ge = pos.place("GE 1", "Aachen", reduced=True)
    pos.set("rp_points", 2, key="fr")
    pos.set("rp_points", 1, key="ge")
    run_phase(pos, "replacement", answers=["flip FR 1 in Paris", "flip GE 1 in Aachen"])
    assert [d.by for d in pos.asked if d.choice == "replace_unit"] == ["ap", "cp"]
    assert pos.asked[-1].by == "cp"
    assert not pos.reduced(fr.index) and not pos.reduced(ge.index)
    assert pos.var("rp_points", "fr") == 0


@pytest.mark.rule("6.0.G")
def test_draw_phase_refills_each_hand_to_seven():
    """6.0 G: each player draws up to seven cards (a player may first discard
    combat cards, 9.5.4.6: here he keeps them)."""
    pos = Position()
    for side in ("ap", "cp"):
        mob = [c.index for c in pos.w.cards if c.data.side.text == side and c.data.deck.text == "mobilization"
               and not c.data.optional and not c.data.combat]
        pos.s["piles"][f"hand:{side}"] = mob[:3]
        pos.s["piles"][f"draw:{side}"] = mob[3:]
    pos.game.invalidate()
    run_phase(pos, "draw_cards")
    assert len(hand(pos, "ap")) == 7 and len(hand(pos, "cp")) == 7


# ------------------------------------------------------------------ 8 action rounds
@pytest.mark.rule("8.1.4")
def test_the_action_taken_each_round_is_recorded():
    """8.1.4: the action of the round is recorded (the SR/RP rules of 9.3.3 and
    9.4.3 read it)."""
    g, d = new_game()
    d = g.choose("automatic_op")
    while g.s["vars"]["action_round"] == 1 and d.by == "cp":
        d = g.choose(len(d.options))
    assert getattr(g.s["vars"]["last_action"]["cp"], "key", None) == "automatic_op"


# ------------------------------------------------------------------ 16.1 commitment
@pytest.mark.rule("16.1.1")
def test_both_sides_start_at_mobilization():
    """16.1.1: both players begin at the Mobilization level."""
    g, _ = new_game()
    assert {getattr(v, "key", v) for v in g.s["vars"]["commitment"].values()} <= {"mobilization_level"}
    pos = Position()
    assert pos.var("commitment", "ap") == pos.var("commitment", "cp") == "mobilization_level"


@pytest.mark.rule("16.1.4")
def test_war_status_11_brings_total_war():
    """16.1.4: a War Status of 11 or more in the War Status Phase raises the
    level to Total War."""
    pos = Position()
    pos.s["turn"] = 6
    pos.set("war_status", 11, key="ap")
    pos.set("commitment", "limited_war_level", key="ap")
    pos.run("raise_war_commitment", "ap")
    assert pos.var("commitment", "ap") == "total_war_level"


@pytest.mark.rule("16.1.3.1")
def test_turkey_enters_when_the_central_powers_reach_limited_war():
    """16.1.3.1: the CP rising to Limited War brings Turkey into the war, its
    units placed; it is no neutral entry (9.5.2.2)."""
    pos = Position()
    pos.s["turn"] = 3
    pos.set("war_status", 4, key="cp")
    pos.run("raise_war_commitment", "cp")
    assert pos.s["at_war"]["tu"]
    assert pos.units_at("Constantinople")
