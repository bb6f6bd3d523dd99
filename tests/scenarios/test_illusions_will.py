"""Illusions of Glory's National Will and Rebellion on the Campaign
(scenarios/illusions/national-will.pog, rebellion.pog).

The oracle is the Illusions of Glory rulebook (cited `iog N`):
- 3.2.3, 23.1: Russia, Germany and Austria-Hungary each have a National Will
  marker that starts at 12.
- 23.2a-b, 3.2.3b-c, 11.2h: it drops 2 when the nation loses control of one of
  its home VP spaces, and climbs 2 when the nation or an ally takes one back
  from the enemy.  23.2c: events move it.  23.2d: at 2 or below the nation is
  demoralized and rebellion may break out.  23.2e: never below 0.
- 6.0.F: a Rebellion/Revolution phase comes after the War Status phase and
  before the Replacement phase; its step 1 is the National Will check (the
  Allies look at Austria-Hungary and Germany, then the Central Powers at
  Russia), its step 2 the Russian Revolution check.
- 23.3.1: for a demoralized nation the enemy may place one of its uprisings,
  free, in an unoccupied space of the nation; none once the marker is back
  above 2.  23.3.2: only in the nation's own spaces; in a fort space the
  uprising does not get the fort's strength; a trench there is removed; in a
  VP space the player who lost control to it loses 1 VP.  23.3.3: it stays
  until destroyed in combat, then may be used again; anyone may attack it.
- 11.2.1: an uprising takes control of the space it is placed in and belongs
  to no player.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cards.test_card_events import control, hand, trench, value, where  # noqa: E402
from rules.harness import Position, world  # noqa: E402

SCENARIO = "illusions"


def illusions() -> Position:
    """An empty Campaign board with the variant's rules; the uprisings wait in
    their pool, as the scenario's set-up leaves them."""
    pos = Position(SCENARIO)
    pool = pos._location("uprising_pool")
    for u in pos.w.units:
        if u.key.endswith(" Uprising"):
            pos.game.move_unit(u, pool)
    pos.game.invalidate()
    return pos


def will(pos: Position, nation: str) -> int:
    return pos.var("national_will", nation)


def set_will(pos: Position, nation: str, amount: int) -> None:
    pos.set("national_will", amount, nation)


def enter(pos: Position, side: str, unit: str, space: str, start: str | None = None) -> None:
    """A unit of `side` moves into `space` the way movement and advances do
    (rules/11-movement.pog enter_space: the space changes hands)."""
    u = pos.place(unit, start or space)
    pos.run("enter_space", side, [u], pos.entity("space", space))


def change_control(pos: Position, space: str, side: str | None) -> None:
    """Any rule that hands a space to a side (attrition, an event, a siege):
    the engine's control change, with the triggers it sets off run to the end."""
    g = pos.game
    pos.s["stack"] = []
    pos.s["result"] = None
    g.invalidate()
    g.set_control(pos.entity("space", space), pos._value(side) if side else None, ())
    assert g.run() is None
    if pos.s["result"] is not None and pos.s["result"]["reason"] == "nothing left to run":
        pos.s["result"] = None


def uprisings_on_map(pos: Position, nation: str) -> list[str]:
    out = []
    for u in pos.w.units:
        if u.key == f"{nation.upper()} Uprising":
            loc = pos.s["loc"][u.index]
            if loc is not None and 0 <= loc < len(pos.w.spaces):
                out.append(pos.w.spaces[loc].key)
    return sorted(out)


def check(pos: Position, answers=()) -> None:
    """Step 1 of the Rebellion/Revolution phase (6.0.F.1)."""
    pos.run("national_will_check", answers=answers)


def asked(pos: Position) -> list[tuple[str, list[str]]]:
    return [(d.by, list(d.options)) for d in pos.asked]


# ================================================================ the track
@pytest.mark.rule("iog 23.1")
@pytest.mark.rule("iog 3.2.3")
def test_national_will_starts_at_12_for_russia_germany_and_austria_hungary():
    pos = illusions()
    assert [will(pos, n) for n in ("ru", "ge", "ah")] == [12, 12, 12]


@pytest.mark.rule("iog 23.1")
def test_the_campaign_has_no_national_will():
    """The variant's declarations live in its rule sets: the Campaign is unchanged."""
    assert "national_will" not in world("campaign").state_decls
    assert "national_will" in world(SCENARIO).state_decls


# ================================================================ home VP spaces
@pytest.mark.rule("iog 23.2")
@pytest.mark.rule("iog 3.2.3")
def test_losing_a_home_vp_space_costs_2_and_retaking_it_gives_2_back():
    """Lodz is a Russian VP space held by the Allies: a German army taking it
    drops Russia's will by 2; a Russian army retaking it raises it by 2.
    The Campaign's VP marker moves as ever (5.1.2)."""
    pos = illusions()
    enter(pos, "cp", "GE 8", "Lodz")
    assert control(pos, "Lodz") == "cp"
    assert will(pos, "ru") == 10
    assert pos.var("vp") == 11
    pos.clear_board()
    enter(pos, "ap", "RU 2", "Lodz")
    assert will(pos, "ru") == 12
    assert pos.var("vp") == 10
    assert [will(pos, n) for n in ("ge", "ah")] == [12, 12]


@pytest.mark.rule("iog 23.2")
def test_an_ally_retaking_the_space_counts():
    """23.2b (and 11.2h): the nation's ally retaking its home VP space moves
    the nation's marker up.  Lemberg (AH) falls to the Russians, then a
    German army takes it back for Austria-Hungary."""
    pos = illusions()
    enter(pos, "ap", "RU 3", "Lemberg")
    assert will(pos, "ah") == 10
    pos.clear_board()
    enter(pos, "cp", "GE 9", "Lemberg")
    assert will(pos, "ah") == 12
    assert will(pos, "ge") == 12


@pytest.mark.rule("iog 23.2")
def test_a_french_army_in_a_german_vp_space_costs_germany():
    pos = illusions()
    enter(pos, "ap", "FR 1", "Frankfurt")
    assert will(pos, "ge") == 10
    assert [will(pos, n) for n in ("ru", "ah")] == [12, 12]


@pytest.mark.rule("iog 23.2")
def test_only_a_change_of_hands_counts():
    """Moving into a space one already holds changes nothing; a space with no
    VP mark, or a VP space of a nation with no marker, moves no marker."""
    pos = illusions()
    enter(pos, "cp", "GE 8", "Lodz")
    assert will(pos, "ru") == 10
    pos.clear_board()
    enter(pos, "cp", "GE 9", "Lodz")          # already German-held
    assert will(pos, "ru") == 10
    enter(pos, "cp", "GE 10", "Rovno")        # Russian, no VP mark
    assert control(pos, "Rovno") == "cp"
    assert will(pos, "ru") == 10
    enter(pos, "cp", "GE 11", "Belgrade")     # a Serbian VP space
    assert [will(pos, n) for n in ("ru", "ge", "ah")] == [10, 12, 12]


@pytest.mark.rule("iog 23.2")
def test_every_cause_of_a_change_counts():
    """A space can change hands other than by movement (attrition, sieges,
    events): the marker follows the change of control, whatever made it."""
    pos = illusions()
    change_control(pos, "Kiev", "cp")
    assert will(pos, "ru") == 10
    change_control(pos, "Kiev", "ap")
    assert will(pos, "ru") == 12


@pytest.mark.rule("iog 23.2")
@pytest.mark.rule("iog 3.2.3")
def test_the_marker_stops_at_0():
    pos = illusions()
    set_will(pos, "ru", 1)
    enter(pos, "cp", "GE 8", "Lodz")
    assert will(pos, "ru") == 0
    change_control(pos, "Kiev", "cp")
    assert will(pos, "ru") == 0
    change_control(pos, "Kiev", "ap")
    assert will(pos, "ru") == 2


@pytest.mark.rule("iog 23.2")
def test_demoralized_at_2_or_below():
    pos = illusions()
    for amount, expected in ((3, False), (2, True), (0, True)):
        set_will(pos, "ge", amount)
        assert value(pos, "demoralized", "ge") is expected
    assert value(pos, "demoralized", "fr") is False  # no marker, never demoralized


@pytest.mark.rule("iog 23.2")
@pytest.mark.rule("iog 3.2.3")
def test_home_vp_spaces_are_the_nations_own_vp_spaces():
    pos = illusions()
    ru = sorted(s.key for s in value(pos, "home_vp_spaces", "ru"))
    assert ru == ["Baku", "Kiev", "Lodz", "Minsk", "Odessa", "Riga", "Vilna", "Warsaw"]
    assert "Berlin" in [s.key for s in value(pos, "home_vp_spaces", "ge")]
    assert "Vienna" in [s.key for s in value(pos, "home_vp_spaces", "ah")]


# ================================================================ events (23.2c)
BLOCKADE = ("ap", 2)
REICHSTAG_TRUCE = ("cp", 9)


@pytest.mark.rule("iog 23.2")
@pytest.mark.card("AP 2")
def test_blockade_played_as_an_event_lowers_german_will():
    pos = illusions()
    pos.s["turn"] = 3
    c = pos.card(*BLOCKADE)
    hand(pos, "ap", c)
    assert pos.may_play_event("ap", c)
    pos.run("action_round", "ap", answers=["play 2 event (Blockade)"])
    assert will(pos, "ge") == 10
    assert [will(pos, n) for n in ("ru", "ah")] == [12, 12]


@pytest.mark.rule("iog 23.2")
@pytest.mark.card("AP 2")
def test_blockade_played_for_replacements_moves_nothing():
    pos = illusions()
    pos.s["turn"] = 3
    c = pos.card(*BLOCKADE)
    hand(pos, "ap", c)
    pos.run("action_round", "ap", answers=["play 2 rp (Blockade)"])
    assert will(pos, "ge") == 12


@pytest.mark.rule("iog 23.2")
@pytest.mark.card("CP 9")
def test_reichstag_truce_raises_german_will():
    pos = illusions()
    pos.s["turn"] = 3
    set_will(pos, "ge", 4)
    c = pos.card(*REICHSTAG_TRUCE)
    hand(pos, "cp", c)
    assert pos.may_play_event("cp", c)
    pos.run("action_round", "cp", answers=["play 9 event (Reichstag Truce)"])
    assert will(pos, "ge") == 6


STAND_INS = [  # (card, nation, change): the stand-ins national-will.pog documents
    (("ap", 2), "ge", -2), (("ap", 62), "ah", -2), (("ap", 60), "ah", -1),
    (("cp", 59), "ru", -1), (("cp", 52), "ru", -2), (("cp", 53), "ru", -2), (("cp", 63), "ru", -1),
    (("cp", 9), "ge", 2), (("cp", 57), "ah", 2),
]


@pytest.mark.rule("iog 23.2")
@pytest.mark.parametrize("key, nation, change", STAND_INS)
@pytest.mark.parametrize("use, moves", [("event", True), ("ops", False)])
def test_each_stand_in_event_moves_its_nation(key, nation, change, use, moves):
    """23.2c: events move the markers.  Each PoG card standing in for an IoG
    National Will event moves its nation once its event has been played (the
    signal an action raises when it is over); the same card played otherwise
    moves nothing, and no other nation moves."""
    pos = illusions()
    g = pos.game
    pos.s["stack"] = []
    pos.s["result"] = None
    g.invalidate()
    g.emit("action_taken", (pos._value(key[0]), pos._value(use), pos.card(*key)))
    assert g.run() is None
    for n in ("ru", "ge", "ah"):
        assert will(pos, n) == 12 + (change if moves and n == nation else 0)


# ================================================================ the phase (6.0.F)
@pytest.mark.rule("iog 6.0.F")
def test_the_rebellion_revolution_phase_comes_between_war_status_and_replacement():
    phases = [p.text for p in world(SCENARIO).program.decls["sequence"]["turn"].phases]
    i = phases.index("rebellion_revolution")
    assert phases[i - 1] == "war_status_phase" and phases[i + 1] == "replacement"
    assert "rebellion_revolution" not in [p.text for p in world("campaign").program.decls["sequence"]["turn"].phases]


@pytest.mark.rule("iog 6.0.F")
@pytest.mark.rule("iog 6.0.F.1")
def test_the_phase_runs_the_national_will_check():
    pos = illusions()
    set_will(pos, "ru", 2)
    pos.s["stack"] = [{"code": "phase:rebellion_revolution", "pc": 0, "l": {}}]
    pos.s["result"] = None
    pos.game.invalidate()
    d = pos.game.run()
    assert d is not None and d.by == "cp" and "no uprising" in d.options


# ================================================================ rebellion (23.3)
@pytest.mark.rule("iog 23.3.1")
@pytest.mark.rule("iog 6.0.F.1")
def test_no_uprising_offered_above_2():
    pos = illusions()
    set_will(pos, "ru", 3)
    set_will(pos, "ge", 3)
    set_will(pos, "ah", 3)
    check(pos)
    assert pos.asked == []


@pytest.mark.rule("iog 23.3.1")
@pytest.mark.rule("iog 23.3.2")
def test_the_central_powers_may_raise_russia_in_its_empty_spaces_only():
    pos = illusions()
    set_will(pos, "ru", 2)
    pos.place("RU 1", "Vilna")
    check(pos, answers=["no uprising"])
    [(by, options)] = asked(pos)
    assert by == "cp"
    assert "an uprising in Kiev" in options and "an uprising in Lutsk" in options
    assert "an uprising in Vilna" not in options          # occupied
    assert not any(o.endswith(("Lemberg", "Berlin", "Paris")) for o in options)  # not Russian
    assert options[-1] == "no uprising"
    assert uprisings_on_map(pos, "ru") == []                # declined


@pytest.mark.rule("iog 6.0.F.1")
@pytest.mark.rule("iog 23.3.1")
def test_the_allies_check_austria_hungary_then_germany_then_the_central_powers_russia():
    pos = illusions()
    for n in ("ru", "ge", "ah"):
        set_will(pos, n, 2)
    check(pos, answers=["no uprising"] * 3)
    by = [(d.by, d.options[0].removeprefix("an uprising in ")) for d in pos.asked]
    assert [b for b, _ in by] == ["ap", "ap", "cp"]
    spaces = {s.key: getattr(s.data.nation, "key", None) for s in pos.w.spaces}
    assert [spaces[s] for _, s in by] == ["ah", "ge", "ru"]


@pytest.mark.rule("iog 23.3.2")
@pytest.mark.rule("iog 11.2")
@pytest.mark.rule("iog 23.2")
def test_an_uprising_in_kiev_takes_it_costs_the_allies_a_vp_and_russia_will():
    """Kiev (RU VP space, Allied) with an uprising: the rebels control it
    (11.2.1a), the Allies lose 1 VP (23.3.2e), Russia lost a home VP space
    (23.2a)."""
    pos = illusions()
    set_will(pos, "ru", 2)
    check(pos, answers=["an uprising in Kiev"])
    assert uprisings_on_map(pos, "ru") == ["Kiev"]
    assert control(pos, "Kiev") == "rebels"
    assert pos.var("vp") == 11
    assert will(pos, "ru") == 0


@pytest.mark.rule("iog 23.3.2")
def test_an_uprising_in_a_central_powers_vp_space_costs_them_a_vp():
    pos = illusions()
    set_will(pos, "ah", 2)
    check(pos, answers=["an uprising in Lemberg"])
    assert control(pos, "Lemberg") == "rebels"
    assert pos.var("vp") == 9
    assert will(pos, "ah") == 0


@pytest.mark.rule("iog 23.3.2")
def test_a_space_with_no_vp_moves_neither_vp_nor_will():
    pos = illusions()
    set_will(pos, "ru", 2)
    check(pos, answers=["an uprising in Rovno"])
    assert control(pos, "Rovno") == "rebels"
    assert pos.var("vp") == 10 and will(pos, "ru") == 2


@pytest.mark.rule("iog 23.3.2")
@pytest.mark.rule("iog 11.2")
def test_vp_after_the_uprising_as_if_the_space_changed_hands_between_the_players():
    """The Central Powers lose Lemberg to an uprising (-1 VP); the Allies then
    take it from the uprising: the VP total ends where a straight Allied
    capture would have put it (10 - 1), not lower.  Had the Central Powers
    retaken it, they would have had their VP back."""
    pos = illusions()
    change_control(pos, "Lemberg", "rebels")
    assert pos.var("vp") == 9
    change_control(pos, "Lemberg", "ap")
    assert pos.var("vp") == 9
    change_control(pos, "Lemberg", "cp")                 # the Campaign's own rule: +1
    assert pos.var("vp") == 10

    pos = illusions()
    change_control(pos, "Lemberg", "rebels")
    change_control(pos, "Lemberg", "cp")
    assert pos.var("vp") == 10


@pytest.mark.rule("iog 23.2")
@pytest.mark.rule("iog 3.2.3")
def test_will_between_the_enemy_and_the_rebels():
    """Russia regains will when its side takes a home VP space back from an
    uprising (enemy control removed, 3.2.3c); a space passing between its two
    enemies (the Central Powers and an uprising) moves nothing."""
    pos = illusions()
    change_control(pos, "Kiev", "rebels")
    assert will(pos, "ru") == 10
    change_control(pos, "Kiev", "ap")
    assert will(pos, "ru") == 12
    change_control(pos, "Kiev", "cp")
    assert will(pos, "ru") == 10
    change_control(pos, "Kiev", "rebels")
    assert will(pos, "ru") == 10
    change_control(pos, "Kiev", "cp")
    assert will(pos, "ru") == 10


@pytest.mark.rule("iog 23.3.2")
def test_a_trench_is_removed():
    pos = illusions()
    set_will(pos, "ge", 2)
    pos.set("trench", 1, "Strasbourg")
    check(pos, answers=["an uprising in Strasbourg"])
    assert trench(pos, "Strasbourg") == 0
    assert uprisings_on_map(pos, "ge") == ["Strasbourg"]


@pytest.mark.rule("iog 23.3.1")
@pytest.mark.rule("iog 23.3.3")
def test_three_uprisings_a_nation_one_a_phase():
    """One uprising per nation in each check while demoralized; the counter
    mix (three a nation) ends it."""
    pos = illusions()
    set_will(pos, "ru", 0)
    for space in ("Lutsk", "Kiev", "Odessa"):
        check(pos, answers=[f"an uprising in {space}"])
    assert uprisings_on_map(pos, "ru") == ["Kiev", "Lutsk", "Odessa"]
    n = len(pos.asked)
    check(pos)
    assert len(pos.asked) == n


@pytest.mark.rule("iog 23.3.3")
@pytest.mark.rule("iog 23.3.1")
def test_a_destroyed_uprising_goes_back_to_the_pool_and_may_rise_again():
    """23.3.3: either player attacks an uprising; destroyed, it leaves the
    map and may be used again.  A Russian army attacks the one in Lutsk."""
    pos = illusions()
    set_will(pos, "ru", 2)
    check(pos, answers=["an uprising in Lutsk"])
    rising = next(u for u in pos.w.units if u.key == "RU Uprising" and where(pos, u) == "Lutsk")
    pos.place("RU 3", "Rovno")
    pos.control("Rovno", "ap")
    pos.activate("Rovno", "attack")
    pos.run("resolve_attacks", "ap", answers=["attack Lutsk from Rovno", "stop advancing"], dice=[6, 1])
    assert where(pos, rising) == "uprising_pool"
    assert all(d.by == "ap" for d in pos.asked[1:]), [(d.by, d.choice) for d in pos.asked]
    assert control(pos, "Lutsk") == "ap"       # nobody advanced: Russia's own again (11.2.1b)
    check(pos, answers=["an uprising in Kiev"])
    assert uprisings_on_map(pos, "ru") == ["Kiev"]


@pytest.mark.rule("iog 23.3.2")
def test_a_fort_does_not_defend_an_uprising():
    """23.3.2c: an uprising in Cracow (fort 2) fights with its own 1 CF only."""
    pos = illusions()
    set_will(pos, "ah", 2)
    check(pos, answers=["an uprising in Cracow"])
    assert control(pos, "Cracow") == "rebels"
    pos.place("RU 3", "Czestochowa")
    pos.control("Czestochowa", "ap")
    pos.activate("Czestochowa", "attack")
    pos.run("resolve_attacks", "ap", answers=["attack Cracow from Czestochowa", "stop advancing"], dice=[6, 1])
    assert "against 1" in "\n".join(pos.log())


@pytest.mark.rule("iog 23.3.1")
def test_will_back_above_2_stops_uprisings():
    """23.3.1d: once Germany's will climbs above 2, no more uprisings there."""
    pos = illusions()
    set_will(pos, "ge", 2)
    check(pos, answers=["an uprising in Essen"])
    set_will(pos, "ge", 2)
    change_control(pos, "Frankfurt", "ap")     # -2: 0
    change_control(pos, "Frankfurt", "cp")     # +2: 2, still demoralized
    assert will(pos, "ge") == 2
    n = len(pos.asked)
    set_will(pos, "ge", 4)
    check(pos)
    assert len(pos.asked) == n


@pytest.mark.rule("iog 23.3.1")
def test_no_uprising_in_a_collapsed_nation():
    pos = illusions()
    set_will(pos, "ah", 0)
    pos.set("collapsed", True, "ah")
    check(pos)
    assert pos.asked == []


@pytest.mark.rule("iog 23.3.3")
@pytest.mark.rule("iog 3.2.2")
def test_the_game_starts_with_every_uprising_in_its_pool():
    from pogdsl.runtime.interpreter import Game

    g = Game.new(world(SCENARIO), seed=1)
    d = g.run()
    while d.choice != "take_action":       # the set-up's decisions (4.3), then the first action
        d = g.choose(1)
    pool = g.w.location(g.w.by_kind["box"]["uprising_pool"])
    pieces = [u for u in g.w.units if u.key.endswith(" Uprising")]
    assert sorted(u.key for u in pieces) == ["AH Uprising"] * 3 + ["GE Uprising"] * 3 + ["RU Uprising"] * 3
    assert all(g.s["loc"][u.index] == pool for u in pieces)
    assert all(g.s["control"][s.index] != "rebels" for s in g.w.spaces)


@pytest.mark.rule("iog 23.3.2")
@pytest.mark.rule("iog 23.3.3")
@pytest.mark.rule("iog 23.2")
def test_a_random_game_with_every_nation_demoralized():
    """Random players, every marker put at 2 after the set-up: uprisings break
    out, are attacked and destroyed, and the game goes on.  Wherever the game
    stands, each uprising on the map is in its own nation's space, alone, and
    holds it; every marker is within 0..40."""
    import random

    from pogdsl.runtime.interpreter import Game

    w = world(SCENARIO)
    g = Game.new(w, seed=2, log=True)
    rng = random.Random(2)
    d = g.run()
    while d.choice != "take_action":
        d = g.choose(1)
    for n in ("ru", "ge", "ah"):
        g.s["vars"]["national_will"][n] = 2
    g.invalidate()
    home = {"RU Uprising": "ru", "GE Uprising": "ge", "AH Uprising": "ah"}
    seen = 0
    for _ in range(2500):
        if d is None:
            break
        pick = rng.choices(range(len(d.options)), weights=d.weights)[0] if d.weights else rng.randrange(len(d.options))
        d = g.choose(pick + 1)
        for u in w.units:
            loc = g.s["loc"][u.index]
            if u.key in home and loc is not None and 0 <= loc < len(w.spaces):
                s = w.spaces[loc]
                seen += 1
                assert s.data.nation.key == home[u.key]
                assert g.s["control"][s.index] == "rebels"
                assert [w.units[i].key for i in g.s["occ"][loc]] == [u.key]
        assert all(0 <= v <= 40 for v in g.s["vars"]["national_will"].values())
    text = [e["text"] for e in g.s["log"]]
    assert seen > 0 and any("an uprising breaks out" in t for t in text)
    assert any(t.endswith("Uprising eliminated") for t in text)


@pytest.mark.rule("iog 11.2")
@pytest.mark.rule("iog 23.3.2")
@pytest.mark.rule("iog 23.2")
def test_the_central_powers_destroy_the_kiev_uprising_and_advance():
    """Kiev rises (Allies -1 VP, Russia -2 will); a German army destroys the
    uprising (23.3.3b) and advances (PoG 12.7).  The uprising controlled only
    the space it stood in (11.2.1b): at the end the VP total and Russia's will
    are where a straight German capture of Kiev would have put them."""
    pos = illusions()
    set_will(pos, "ru", 2)
    check(pos, answers=["an uprising in Kiev"])
    assert (pos.var("vp"), will(pos, "ru")) == (11, 0)
    pos.place("GE 8", "Zhitomir")
    pos.control("Zhitomir", "cp")
    pos.control("Rovno", "cp")
    pos.control("Lutsk", "cp")
    pos.control("Kovel", "cp")
    pos.control("Brest Litovsk", "cp")
    pos.activate("Zhitomir", "attack")
    pos.run("resolve_attacks", "cp", answers=["attack Kiev from Zhitomir", "advance GE 8 into Kiev"], dice=[6, 1])
    assert "cp attacks Kiev with strength" in "\n".join(pos.log())
    assert uprisings_on_map(pos, "ru") == []
    assert control(pos, "Kiev") == "cp"
    assert pos.var("vp") == 11
    assert will(pos, "ru") == 0


@pytest.mark.rule("iog 6.0.F.1")
@pytest.mark.rule("iog 23.2")
@pytest.mark.rule("iog 23.3.2")
@pytest.mark.rule("iog 23.3.3")
def test_the_scripted_game_replays():
    """`pogdsl replay tests/fixtures/illusions/will_game.txt`: three turns of a
    game with every home front demoralized; its `expect` lines check the
    uprisings, the VP they cost, the will lost and regained, the stand-in
    event and the Warsaw uprising destroyed."""
    import os

    from pogdsl.runtime.record import read_script, replay_script

    root = Path(__file__).resolve().parents[2]
    here = os.getcwd()
    os.chdir(root)
    try:
        session = replay_script(read_script(root / "tests" / "fixtures" / "illusions" / "will_game.txt"))
    finally:
        os.chdir(here)
    g = session.game
    assert g.s["turn"] == 3
    assert g.s["control"][g.w.by_kind["space"]["Warsaw"].index] == "ap"
