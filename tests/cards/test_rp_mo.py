"""Cards of the rp-mo group, played through the engine with fixed dice and
scripted answers: RPs spent at once by an event (AP 56 Paris Taxis, CP 5
Landwehr, and the replacement chapter's `spend_event_rps` they call), the
Mandated Offensive events (CP 37 Hoffmann, CP 47 French Mutiny, CP 54 H-L
Take Command), the lasting effects on attacks and retreats (CP 55 Lloyd
George, CP 58 Stavka Timidity, CP 61 Haig) and CP 63 Russian Desertions.

Each card has a test of every effect of its event (state changed, a real MO
roll, a real combat) and of every condition under which it is refused."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pogdsl.runtime.errors import IllegalOption  # noqa: E402
from cards.test_card_events import at, attack_from, hand, offered, pile_of, run_phase, value  # noqa: E402
from rules.harness import Position  # noqa: E402

PARIS_TAXIS = ("ap", 56)
LANDWEHR = ("cp", 5)
HOFFMANN = ("cp", 37)
FRENCH_MUTINY = ("cp", 47)
HL_TAKE_COMMAND = ("cp", 54)
LLOYD_GEORGE = ("cp", 55)
STAVKA = ("cp", 58)
HAIG = ("cp", 61)
RUSSIAN_DESERTIONS = ("cp", 63)
PLACE_OF_EXECUTION = ("cp", 26)
TSAR_TAKES_COMMAND = ("cp", 28)
FALL_OF_THE_TSAR = ("cp", 52)
MICHAEL = ("cp", 49)
BLUCHER = ("cp", 50)
PEACE_OFFENSIVE = ("cp", 51)


def card(pos: Position, key):
    return pos.card(*key)


def position(turn: int = 10) -> Position:
    pos = Position()
    at(pos, turn, 2)
    pos.game.ask_forced = True  # one-option decisions are asked too
    return pos


def mark_played(pos: Position, key) -> None:
    """A card whose event was played earlier (it sits in the removed pile)."""
    c = card(pos, key)
    pos.game.move_card(c, f"removed:{c.data.side.text}")
    pos.s["played"].append(c.index)
    pos.game.invalidate()


def refused(fn, rule: str) -> str:
    with pytest.raises(IllegalOption) as err:
        fn()
    assert rule in err.value.rules, err.value.message
    return err.value.message


def forbidden_by(pos: Position, choice: str, *values) -> list[str]:
    """The restrictions that forbid an option of a choice now."""
    pos.game.invalidate()
    return [d.key for d in pos.game._forbidden(choice, tuple(pos._value(v) if isinstance(v, str) else v for v in values))]


def options_of(pos: Position, choice: str) -> list[str]:
    return [o for d in pos.asked if d.choice == choice for o in d.options]


# ============================================================ RPs spent at once (17.1)
# ------------------------------------------------------------ AP 56 Paris Taxis
@pytest.mark.card("AP 56")
@pytest.mark.rule("17.1.4")
def test_paris_taxis_flips_a_reduced_french_army_next_to_paris():
    """One extra French RP flips FR 5 in Amiens (next to Paris); the French RPs
    recorded for the Replacement Phase are not touched, and the card leaves
    the game."""
    pos = position()
    army = pos.place("FR 5", "Amiens", reduced=True)
    pos.set("rp_points", 2, key="fr")
    taxis = card(pos, PARIS_TAXIS)
    pos.play_event("ap", taxis, answers=["flip FR 5 in Amiens"])
    assert not pos.reduced(army.index)
    assert pos.var("rp_points", "fr") == 2
    assert pos.var("event_rp_points") == 0
    assert pile_of(pos, taxis) == "removed:ap"


@pytest.mark.card("AP 56")
def test_paris_taxis_flips_an_army_in_paris_and_only_one():
    """One RP buys one army step: with two reduced armies at hand only one is
    flipped, and the choice ends there."""
    pos = position()
    a = pos.place("FR 1", "Paris", reduced=True)
    b = pos.place("FR 2", "Melun", reduced=True)
    pos.play_event("ap", card(pos, PARIS_TAXIS), answers=["flip FR 1 in Paris"])
    options = options_of(pos, "replace_unit")
    assert "flip FR 1 in Paris" in options and "flip FR 2 in Melun" in options
    assert not pos.reduced(a.index) and pos.reduced(b.index)
    assert len([d for d in pos.asked if d.choice == "replace_unit"]) == 1


@pytest.mark.card("AP 56")
@pytest.mark.rule("17.1.4")
def test_paris_taxis_offers_nothing_else():
    """Not a French army far from Paris, not a French corps next to it, not a
    British army next to it, not an eliminated French army: the only option
    is to end, and the RP is lost."""
    pos = position()
    far = pos.place("FR 3", "Nancy", reduced=True)
    corps = pos.place("FRc", "Amiens", reduced=True)
    br = pos.place("BR 1", "Melun", reduced=True)
    pos.place("FR 4", "eliminated[ap]")
    pos.play_event("ap", card(pos, PARIS_TAXIS), answers=["end replacements"])
    assert options_of(pos, "replace_unit") == ["end replacements"]
    assert all(pos.reduced(u.index) for u in (far, corps, br))
    assert pos.units_at("eliminated[ap]") == ["FR 4"]
    assert pos.var("event_rp_points") == 0


@pytest.mark.card("AP 56")
@pytest.mark.rule("17.1.3")
def test_paris_taxis_no_french_rp_while_paris_is_besieged():
    """17.1.3 still holds: with Paris besieged no French RP may be spent."""
    pos = position()
    army = pos.place("FR 5", "Amiens", reduced=True)
    pos.set("besieged", True, key="Paris")
    refused(lambda: pos.play_event("ap", card(pos, PARIS_TAXIS), answers=["flip FR 5 in Amiens"]), "17.1.3")
    assert pos.reduced(army.index)


# ------------------------------------------------------------ CP 5 Landwehr
@pytest.mark.card("CP 5")
@pytest.mark.rule("17.1.4")
def test_landwehr_flips_two_reduced_german_armies():
    pos = position(3)
    a = pos.place("GE 1", "Metz", reduced=True)
    b = pos.place("GE 8", "Posen", reduced=True)
    c = pos.place("GE 9", "Breslau", reduced=True)
    pos.set("rp_points", 1, key="ge")
    lw = card(pos, LANDWEHR)
    pos.play_event("cp", lw, answers=["flip GE 1 in Metz", "flip GE 8 in Posen"])
    assert not pos.reduced(a.index) and not pos.reduced(b.index) and pos.reduced(c.index)
    assert pos.var("rp_points", "ge") == 1  # the recorded RP waits for the Replacement Phase
    assert pile_of(pos, lw) == "removed:cp"


@pytest.mark.card("CP 5")
@pytest.mark.rule("17.1.4")
def test_landwehr_two_rps_flip_four_corps():
    """17.1.4: an RP buys two corps steps, so two RPs flip four reduced corps."""
    pos = position(3)
    corps = [pos.place("GEc", s, reduced=True) for s in ("Berlin", "Breslau", "Essen", "Metz", "Posen")]
    pos.play_event("cp", card(pos, LANDWEHR), answers=[
        "flip GEc in Berlin", "flip GEc in Breslau", "flip GEc in Essen", "flip GEc in Metz"])
    assert [pos.reduced(u.index) for u in corps] == [False, False, False, False, True]
    assert pos.var("event_spare_corps_steps") == 0


@pytest.mark.card("CP 5")
@pytest.mark.rule("17.1.2")
def test_landwehr_what_is_not_spent_at_once_is_lost():
    """An army and a corps: the second RP buys the corps step, its other corps
    step is left over and lost with the event; nothing carries to the
    Replacement Phase."""
    pos = position(3)
    pos.place("GE 1", "Metz", reduced=True)
    pos.place("GEc", "Berlin", reduced=True)
    pos.play_event("cp", card(pos, LANDWEHR), answers=["flip GE 1 in Metz", "flip GEc in Berlin", "end replacements"])
    assert pos.var("event_rp_points") == 0
    assert pos.var("event_spare_corps_steps") == 0
    assert pos.var("rp_points", "ge") == 0
    assert pos.var("spare_corps_steps", "ge") == 0


@pytest.mark.card("CP 5")
@pytest.mark.rule("17.1.1")
def test_landwehr_not_for_other_nations_nor_eliminated_units():
    """German RPs for German units only (17.1.1): not an Austrian army; and no
    rebuilding of an eliminated German unit."""
    pos = position(3)
    ah = pos.place("AH 1", "Cracow", reduced=True)
    pos.place("GE 2", "eliminated[cp]")
    pos.play_event("cp", card(pos, LANDWEHR), answers=["end replacements"])
    assert options_of(pos, "replace_unit") == ["end replacements"]
    assert pos.reduced(ah.index)
    assert pos.units_at("eliminated[cp]") == ["GE 2"]


@pytest.mark.card("CP 5")
@pytest.mark.rule("17.1.4.1")
def test_landwehr_not_for_germans_on_turkish_supply():
    """17.1.4.1 holds for the event's RPs as in the Replacement Phase."""
    pos = position(3)
    pos.s["at_war"]["tu"] = True
    unit = pos.place("GEc", "Constantinople", reduced=True)
    refused(lambda: pos.play_event("cp", card(pos, LANDWEHR), answers=["flip GEc in Constantinople"]), "17.1.4.1")
    assert pos.reduced(unit.index)


@pytest.mark.rule("17.1.1")
def test_event_rps_leave_the_replacement_phase_as_it_was():
    """The Replacement Phase after an event still spends the recorded RPs from
    their own pools: a reduced army flipped with the one recorded GE RP."""
    pos = position(3)
    a = pos.place("GE 1", "Metz", reduced=True)
    b = pos.place("GE 8", "Posen", reduced=True)
    pos.set("rp_points", 1, key="ge")
    pos.play_event("cp", card(pos, LANDWEHR), answers=["flip GE 1 in Metz", "end replacements"])
    assert pos.var("event_rps_in_use") is False
    pos.run("replacement_segment", "cp", answers=["flip GE 8 in Posen"])
    assert not pos.reduced(a.index) and not pos.reduced(b.index)
    assert pos.var("rp_points", "ge") == 0


# ============================================================ Mandated Offensives (7.1)
def mo_phase(pos: Position, cp_die: int, ap_die: int) -> None:
    """The Mandated Offensive Phase of a turn, both rolls fixed (CP first)."""
    pos.s["dice"] = [cp_die, ap_die]
    run_phase(pos, "mandated_offensive")


def vp_changes(pos: Position) -> int:
    """War Status Phase segment E.1 (missed MOs are charged there)."""
    before = pos.var("vp")
    pos.run("war_status_vp_changes")
    return pos.var("vp") - before


def western_attack(pos: Position, attacker: str, dice=(1, 1), answers=()) -> None:
    """`attacker` in Amiens attacks GE 1 in Cambrai."""
    pos.place("GE 1", "Cambrai")
    pos.control("Cambrai", "cp")
    pos.control("Sedan", "cp")
    attack_from(pos, "Amiens")
    pos.game.ask_forced = False
    pos.run("resolve_attacks", "ap", answers=["attack Cambrai from Amiens", *answers], dice=list(dice))
    assert any(line.startswith("ap attacks Cambrai") for line in pos.log())


# ------------------------------------------------------------ CP 37 Hoffmann
@pytest.mark.card("CP 37")
@pytest.mark.rule("7.1.9")
def test_hoffmann_needs_h_l_take_command():
    pos = position()
    hoffmann = card(pos, HOFFMANN)
    assert pos.event_forbidden_by("cp", hoffmann) == ["playable_events"]
    pos.play_event("cp", card(pos, HL_TAKE_COMMAND))
    assert pos.may_play_event("cp", hoffmann)


@pytest.mark.card("CP 37")
@pytest.mark.rule("7.1.9")
@pytest.mark.parametrize("die, without, with_hoffmann", [(2, "ah", "tu"), (1, "ah", "ah"), (6, None, None), (5, None, None)])
def test_hoffmann_adds_one_to_every_later_cp_mo_roll(die, without, with_hoffmann):
    """Italy and Turkey at war.  The CP table by row: 1 AH, 2 AH (It), 3 TU,
    4 GE (None after H-L Take Command), 5-6 None; with Hoffmann the die is read
    one row lower (a 2 is Turkey's, a 1 the Italian front)."""
    plain = position()
    hoff = position()
    for pos in (plain, hoff):
        pos.s["at_war"]["it"] = pos.s["at_war"]["tu"] = True
        pos.play_event("cp", card(pos, HL_TAKE_COMMAND))
    hoff.play_event("cp", card(hoff, HOFFMANN))
    for pos in (plain, hoff):
        for turn in (11, 12):  # every later roll, not just the next one
            at(pos, turn)
            mo_phase(pos, die, 3)
    assert plain.var("mo_marker", "cp") == without
    assert hoff.var("mo_marker", "cp") == with_hoffmann
    if die == 1:
        assert plain.var("mo_against_italy") is False
        assert hoff.var("mo_against_italy") is True
    assert hoff.var("mo_marker", "ap") == plain.var("mo_marker", "ap") == "br"  # the Allied roll is untouched


@pytest.mark.card("CP 37")
@pytest.mark.rule("7.1.9")
def test_hoffmann_leaves_the_mo_in_effect_alone():
    pos = position()
    pos.s["at_war"]["tu"] = True
    mark_played(pos, HL_TAKE_COMMAND)
    mo_phase(pos, 3, 4)
    assert pos.var("mo_marker", "cp") == "tu"
    pos.play_event("cp", card(pos, HOFFMANN))
    assert pos.var("mo_marker", "cp") == "tu"
    assert vp_changes(pos) == -1


# ------------------------------------------------------------ CP 47 French Mutiny
@pytest.mark.card("CP 47")
@pytest.mark.rule("7.1.8")
def test_french_mutiny_a_french_mo_is_owed_no_more():
    """A French MO rolled this turn (die 1): before the event a missed MO costs
    a VP; after it, none."""
    pos = position()
    mo_phase(pos, 5, 1)
    assert pos.var("mo_marker", "ap") == "fr"
    before = position()
    mo_phase(before, 5, 1)
    assert vp_changes(before) == 1
    pos.play_event("cp", card(pos, FRENCH_MUTINY))
    assert vp_changes(pos) == 0


@pytest.mark.card("CP 47")
@pytest.mark.rule("7.1.8")
def test_french_mutiny_a_french_attack_costs_a_vp_once():
    """Played during a French MO turn before any French attack: FR 5 attacking
    the Germans in Cambrai adds a VP instead of making the MO, and a second
    attack adds nothing more."""
    pos = position()
    mo_phase(pos, 5, 1)
    pos.play_event("cp", card(pos, FRENCH_MUTINY))
    vp = pos.var("vp")
    pos.place("FR 5", "Amiens")
    western_attack(pos, "FR 5")
    assert pos.var("vp") == vp + 1
    assert pos.var("mo_marker", "ap") is None


@pytest.mark.card("CP 47")
@pytest.mark.rule("7.1.8")
def test_without_french_mutiny_the_french_attack_makes_the_mo():
    pos = position()
    mo_phase(pos, 5, 1)
    vp = pos.var("vp")
    pos.place("FR 5", "Amiens")
    western_attack(pos, "FR 5")
    assert pos.var("vp") == vp
    assert pos.var("mo_marker", "ap") is None
    assert vp_changes(pos) == 0


@pytest.mark.card("CP 47")
@pytest.mark.rule("7.1.8")
def test_french_mutiny_every_later_french_mo_is_a_mutiny_turn():
    pos = position()
    pos.play_event("cp", card(pos, FRENCH_MUTINY))
    at(pos, 11)
    mo_phase(pos, 5, 2)
    assert pos.var("mo_marker", "ap") == "fr"
    assert vp_changes(pos) == 0
    pos.place("FR 5", "Amiens")
    vp = pos.var("vp")
    western_attack(pos, "FR 5")
    assert pos.var("vp") == vp + 1


@pytest.mark.card("CP 47")
@pytest.mark.rule("7.1.8")
def test_french_mutiny_not_for_french_stacked_with_americans():
    pos = position()
    mo_phase(pos, 5, 1)
    pos.play_event("cp", card(pos, FRENCH_MUTINY))
    vp = pos.var("vp")
    pos.place("FR 5", "Amiens")
    pos.s["at_war"]["us"] = True
    pos.place("US 1", "Amiens")
    western_attack(pos, "FR 5", answers=["from Amiens: FR 5"])
    assert pos.var("vp") == vp


@pytest.mark.card("CP 47")
@pytest.mark.rule("7.1.8")
def test_french_mutiny_after_the_french_mo_was_made():
    """The MO already made this turn: the event changes nothing this turn."""
    pos = position()
    mo_phase(pos, 5, 1)
    pos.place("FR 5", "Amiens")
    western_attack(pos, "FR 5")
    pos.play_event("cp", card(pos, FRENCH_MUTINY))
    vp = pos.var("vp")
    pos.place("FR 6", "Amiens")
    pos.set("activation", None, key="Amiens")
    attack_from(pos, "Amiens")
    pos.game.ask_forced = False
    pos.run("resolve_attacks", "ap", answers=["attack Cambrai from Amiens", "from Amiens: FR 6"], dice=[1, 1])
    assert pos.var("vp") == vp
    assert vp_changes(pos) == 0


# ------------------------------------------------------------ CP 54 H-L Take Command
@pytest.mark.card("CP 54")
@pytest.mark.rule("7.1.10")
def test_h_l_take_command_cancels_the_german_mo_in_effect():
    pos = position()
    mo_phase(pos, 4, 3)
    assert pos.var("mo_marker", "cp") == "ge"
    hl = card(pos, HL_TAKE_COMMAND)
    pos.play_event("cp", hl)
    assert pos.var("mo_marker", "cp") is None
    assert vp_changes(pos) == 1  # only the missed British MO is charged
    before = position()
    mo_phase(before, 4, 3)
    assert vp_changes(before) == 0  # both MOs missed: -1 and +1
    assert pile_of(pos, hl) == "removed:cp"
    assert pos.var("war_status", "cp") == 2


@pytest.mark.card("CP 54")
@pytest.mark.rule("7.1.10")
def test_h_l_take_command_later_german_results_are_none():
    pos = position()
    pos.play_event("cp", card(pos, HL_TAKE_COMMAND))
    mo_phase(pos, 4, 3)
    assert pos.var("mo_marker", "cp") is None
    other = position()
    mo_phase(other, 4, 3)
    assert other.var("mo_marker", "cp") == "ge"


@pytest.mark.card("CP 54")
@pytest.mark.rule("7.1.10")
def test_h_l_take_command_leaves_an_austrian_mo_alone():
    pos = position()
    mo_phase(pos, 1, 3)
    pos.play_event("cp", card(pos, HL_TAKE_COMMAND))
    assert pos.var("mo_marker", "cp") == "ah"


@pytest.mark.card("CP 54")
@pytest.mark.rule("9.5.4.1")
def test_h_l_take_command_ends_place_of_execution():
    pos = position()
    poe = card(pos, PLACE_OF_EXECUTION)
    restriction = "hl_take_command_ends_place_of_execution"
    assert restriction not in forbidden_by(pos, "use_combat_card", "cp", poe)
    pos.play_event("cp", card(pos, HL_TAKE_COMMAND))
    assert restriction in forbidden_by(pos, "use_combat_card", "cp", poe)
    assert restriction not in forbidden_by(pos, "use_combat_card", "cp", card(pos, MICHAEL))


# ============================================================ lasting effects on attacks
def western_front(pos: Position, attackers=("BR 1",), defenders=("GE 1",), trench_level: int = 2,
                  target: str = "Cambrai") -> None:
    """Allied `attackers` in Amiens, Central Powers `defenders` entrenched in
    `target` (Cambrai or Amiens' other CP neighbour), Amiens marked to attack."""
    for u in attackers:
        pos.place(u, "Amiens")
    for u in defenders:
        pos.place(u, target)
    pos.control(target, "cp")
    pos.control("Sedan", "cp")
    pos.set("trench", trench_level, key=target)
    attack_from(pos, "Amiens")


def attack_choice(pos: Position, answers) -> None:
    """Run the Allied attacks with every decision asked, answering `answers`;
    stops (Unanswered) at the first decision past them."""
    pos.game.ask_forced = True
    try:
        pos.run("resolve_attacks", "ap", answers=list(answers))
    except Exception as e:  # noqa: BLE001 - the decision past the answers
        if type(e).__name__ != "Unanswered":
            raise


# ------------------------------------------------------------ CP 55 Lloyd George
@pytest.mark.card("CP 55")
@pytest.mark.rule("12.2.2")
def test_lloyd_george_no_british_attack_on_germans_in_a_level_2_trench():
    pos = position()
    lg = card(pos, LLOYD_GEORGE)
    pos.play_event("cp", lg)
    assert pile_of(pos, lg) == "removed:cp"
    western_front(pos, ("BR 1",))
    message = refused(lambda: attack_choice(pos, ["attack Cambrai from Amiens"]), "12.2.2")
    assert "lloyd_george_no_british_attacks" in message


@pytest.mark.card("CP 55")
@pytest.mark.rule("7.1.4")
def test_lloyd_george_the_french_of_a_mixed_stack_may_attack():
    """From a space holding British and French units the attack may be made,
    by the French alone; a group with the British unit is refused."""
    pos = position()
    pos.play_event("cp", card(pos, LLOYD_GEORGE))
    western_front(pos, ("BR 1", "FR 5"))
    refused(lambda: attack_choice(pos, ["attack Cambrai from Amiens", "from Amiens: BR 1, FR 5"]), "12.2.2")
    assert options_of(pos, "attack_with") == ["from Amiens: FR 5"]


@pytest.mark.card("CP 55")
@pytest.mark.rule("7.1.4")
def test_lloyd_george_does_not_hold_back_dominion_corps():
    pos = position()
    pos.play_event("cp", card(pos, LLOYD_GEORGE))
    western_front(pos, ("AUSc",))
    attack_choice(pos, ["attack Cambrai from Amiens"])
    assert options_of(pos, "attack_with") == ["from Amiens: AUSc"]


@pytest.mark.card("CP 55")
@pytest.mark.parametrize("case", ["level 1", "austrians", "next turn", "michael", "blucher", "peace offensive", "not played"])
def test_lloyd_george_british_attacks_allowed(case):
    """The British may attack: a level-1 trench; Austrians, not Germans, in
    the trench; the turn after the event; once Michael, Blucher or Peace
    Offensive has been played; without the event."""
    pos = position()
    if case != "not played":
        pos.play_event("cp", card(pos, LLOYD_GEORGE))
    if case == "next turn":
        at(pos, 11)
    played = {"michael": MICHAEL, "blucher": BLUCHER, "peace offensive": PEACE_OFFENSIVE}.get(case)
    if played:
        mark_played(pos, played)
    western_front(pos, ("BR 1",), ("AH 1",) if case == "austrians" else ("GE 1",), 1 if case == "level 1" else 2)
    attack_choice(pos, ["attack Cambrai from Amiens"])
    assert options_of(pos, "attack_with") == ["from Amiens: BR 1"]


# ------------------------------------------------------------ CP 58 Stavka Timidity
def eastern_front(pos: Position, attackers=("RU 1",), defenders=("GE 8",), trench_level: int = 1) -> None:
    for u in attackers:
        pos.place(u, "Warsaw")
    for u in defenders:
        pos.place(u, "Lodz")
    pos.control("Lodz", "cp")
    pos.set("trench", trench_level, key="Lodz")
    attack_from(pos, "Warsaw")


@pytest.mark.card("CP 58")
@pytest.mark.rule("9.5.1.1")
def test_stavka_timidity_needs_tsar_takes_command():
    pos = position()
    stavka = card(pos, STAVKA)
    assert pos.event_forbidden_by("cp", stavka) == ["playable_events"]
    mark_played(pos, TSAR_TAKES_COMMAND)
    assert pos.may_play_event("cp", stavka)
    pos.play_event("cp", stavka)
    assert pile_of(pos, stavka) == "discard:cp"  # not starred: it may come back


@pytest.mark.card("CP 58")
@pytest.mark.rule("12.2.2")
def test_stavka_timidity_no_russian_attack_on_entrenched_germans_alone():
    pos = position()
    mark_played(pos, TSAR_TAKES_COMMAND)
    pos.play_event("cp", card(pos, STAVKA))
    eastern_front(pos)
    message = refused(lambda: attack_choice(pos, ["attack Lodz from Warsaw"]), "12.2.2")
    assert "stavka_timidity_no_russian_attacks" in message


@pytest.mark.card("CP 58")
@pytest.mark.rule("12.2.2")
def test_stavka_timidity_russians_held_back_in_a_mixed_allied_attack():
    """A Romanian corps beside the Russians may still attack; the Russians may not join it."""
    pos = position()
    pos.s["at_war"]["ro"] = True
    mark_played(pos, TSAR_TAKES_COMMAND)
    pos.play_event("cp", card(pos, STAVKA))
    eastern_front(pos, ("RU 1", "ROc"))
    refused(lambda: attack_choice(pos, ["attack Lodz from Warsaw", "from Warsaw: RU 1, ROc"]), "12.2.2")
    assert options_of(pos, "attack_with") == ["from Warsaw: ROc"]


@pytest.mark.card("CP 58")
@pytest.mark.parametrize("case", ["mixed stack", "no trench", "next turn", "not played"])
def test_stavka_timidity_russian_attacks_allowed(case):
    """Russians may attack: Germans stacked with Austrians; Germans with no
    trench; the turn after the event; without the event."""
    pos = position()
    mark_played(pos, TSAR_TAKES_COMMAND)
    if case != "not played":
        pos.play_event("cp", card(pos, STAVKA))
    if case == "next turn":
        at(pos, 11)
    eastern_front(pos, ("RU 1",), ("GE 8", "AH 1") if case == "mixed stack" else ("GE 8",),
                  0 if case == "no trench" else 1)
    attack_choice(pos, ["attack Lodz from Warsaw"])
    assert options_of(pos, "attack_with") == ["from Warsaw: RU 1"]


# ------------------------------------------------------------ CP 61 Haig
def haig_combat(pos: Position, attackers=("BR 1", "BR 2"), trench_level: int = 1, answers=()) -> None:
    """BR 1 and BR 2 (8 CF) attack GE 1 (5 CF) in Cambrai: die 6 against die 1,
    loss numbers 5 and 3, the British win with a full-strength army left."""
    western_front(pos, attackers, ("GE 1",), trench_level)
    pos.game.ask_forced = False
    pos.run("resolve_attacks", "ap", answers=[
        "attack Cambrai from Amiens", f"from Amiens: {', '.join(attackers)}",
        f"{attackers[0]} in Amiens: flipped", *answers], dice=[6, 1])
    assert "combat won by ap" in pos.log()


@pytest.mark.card("CP 61")
@pytest.mark.rule("12.5.1")
def test_haig_entrenched_germans_stay_put():
    pos = position()
    haig = card(pos, HAIG)
    pos.play_event("cp", haig)
    assert pile_of(pos, haig) == "removed:cp"
    haig_combat(pos)
    assert pos.units_at("Cambrai") == ["GE 1"]
    assert not any(d.choice == "retreat_path" for d in pos.asked)


@pytest.mark.card("CP 61")
@pytest.mark.rule("12.5.1")
def test_without_haig_the_germans_retreat():
    pos = position()
    haig_combat(pos, answers=["GE 1 retreats to Sedan then Metz", "stop advancing"])
    assert pos.units_at("Cambrai") == []
    assert pos.units_at("Metz") == ["GE 1"]


@pytest.mark.card("CP 61")
@pytest.mark.rule("12.1.11.2")
def test_haig_counts_an_attack_with_british_units_among_others():
    """British and French together: an attack with British units."""
    pos = position()
    pos.play_event("cp", card(pos, HAIG))
    haig_combat(pos, ("BR 1", "FR 5"))
    assert pos.units_at("Cambrai") == ["GE 1"]


@pytest.mark.card("CP 61")
@pytest.mark.parametrize("case", ["french", "next turn", "michael", "blucher", "peace offensive"])
def test_haig_no_effect(case):
    """The Germans retreat: a French attack with no British unit; the turn
    after the event; once Michael, Blucher or Peace Offensive has been
    played."""
    pos = position()
    pos.play_event("cp", card(pos, HAIG))
    if case == "next turn":
        at(pos, 11)
    played = {"michael": MICHAEL, "blucher": BLUCHER, "peace offensive": PEACE_OFFENSIVE}.get(case)
    if played:
        mark_played(pos, played)
    attackers = ("FR 5", "FR 6") if case == "french" else ("BR 1", "BR 2")
    haig_combat(pos, attackers, answers=["GE 1 retreats to Sedan then Metz", "stop advancing"])
    assert pos.units_at("Metz") == ["GE 1"]


@pytest.mark.card("CP 61")
def test_haig_not_for_germans_out_of_a_trench():
    """No trench in Cambrai (die 4 against 1: loss numbers 4 and 2): GE 1 retreats."""
    pos = position()
    pos.play_event("cp", card(pos, HAIG))
    western_front(pos, ("BR 1", "BR 2"), ("GE 1",), 0)
    pos.game.ask_forced = False
    pos.run("resolve_attacks", "ap", answers=[
        "attack Cambrai from Amiens", "from Amiens: BR 1, BR 2", "GE 1 retreats to Sedan then Metz", "stop advancing"],
        dice=[4, 1])
    assert pos.units_at("Metz") == ["GE 1"]


# ============================================================ CP 63 Russian Desertions
@pytest.mark.card("CP 63")
@pytest.mark.rule("9.5.1.1")
def test_russian_desertions_needs_the_fall_of_the_tsar():
    pos = position()
    rd = card(pos, RUSSIAN_DESERTIONS)
    assert pos.event_forbidden_by("cp", rd) == ["playable_events"]
    mark_played(pos, FALL_OF_THE_TSAR)
    assert pos.may_play_event("cp", rd)


@pytest.mark.card("CP 63")
@pytest.mark.rule("12.4.2")
def test_russian_desertions_reduces_four_full_strength_russian_units():
    """Five full-strength Russian units on the map: the Central Powers pick
    four; a reduced unit and a unit in the Reserve Box are never offered."""
    pos = position()
    mark_played(pos, FALL_OF_THE_TSAR)
    full = [pos.place(u, s) for u, s in (("RU 1", "Warsaw"), ("RU 2", "Lodz"), ("RU 3", "Riga"),
                                         ("RU 4", "Minsk"), ("RUc", "Kiev"))]
    weak = pos.place("RU 5", "Vilna", reduced=True)
    reserve = pos.place("RUc", "reserve[ap]")
    rd = card(pos, RUSSIAN_DESERTIONS)
    pos.play_event("cp", rd, answers=["reduce RU 1", "reduce RU 2", "reduce RUc", "reduce RU 4"])
    assert [pos.reduced(u.index) for u in full] == [True, True, False, True, True]
    assert pos.reduced(weak.index) and not pos.reduced(reserve.index)
    offered_units = {o for o in options_of(pos, "russian_desertion")}
    assert "reduce RU 5" not in offered_units
    assert pile_of(pos, rd) == "removed:cp"
    assert len([d for d in pos.asked if d.choice == "russian_desertion"]) == 4


@pytest.mark.card("CP 63")
@pytest.mark.rule("12.4.2")
def test_russian_desertions_with_fewer_than_four_units():
    pos = position()
    mark_played(pos, FALL_OF_THE_TSAR)
    a = pos.place("RU 1", "Warsaw")
    b = pos.place("RU 2", "Lodz", reduced=True)
    pos.play_event("cp", card(pos, RUSSIAN_DESERTIONS), answers=["reduce RU 1"])
    assert pos.reduced(a.index) and pos.reduced(b.index)
    assert pos.units_at("Lodz") == ["RU 2"]  # a reduced unit is not eliminated


# ============================================================ spend_event_rps, the generic procedure
def spend_now(pos: Position, side: str, points: int, pool: str, acts, eligible, answers) -> None:
    pos.run("spend_event_rps", side, points, pos._value(pool), [pos._value(a) for a in acts], list(eligible),
            answers=answers)


@pytest.mark.rule("17.1.1.1")
def test_event_rps_of_the_allied_pool_may_rebuild_when_the_event_allows():
    """An event giving one Allied minor-nation RP, for flips and rebuilds:
    an eliminated Serbian corps comes back reduced in the Reserve Box, and
    the RP's second corps step flips it (17.1.4)."""
    pos = position()
    sb = pos.place("SBc", "eliminated[ap]")
    spend_now(pos, "ap", 1, "allied", ["flip", "rebuild"], [sb],
              ["rebuild SBc in eliminated[ap]", "flip SBc in reserve[ap]"])
    assert pos.units_at("reserve[ap]") == ["SBc"] and not pos.reduced(sb.index)
    assert pos.var("allied_rp_points") == 0 and pos.var("event_rp_points") == 0


@pytest.mark.rule("17.1.1.1")
def test_event_rps_of_a_nation_never_pay_for_another_pool():
    """British event RPs cannot flip the Australian corps (Allied pool only),
    and the refusal names 17.1.1.1."""
    pos = position()
    aus = pos.place("AUSc", "Amiens", reduced=True)
    br = pos.place("BRc", "Calais", reduced=True)
    refused(lambda: spend_now(pos, "ap", 1, "br", ["flip"], [aus, br], ["flip AUSc in Amiens"]), "17.1.1.1")
    pos = position()
    aus = pos.place("AUSc", "Amiens", reduced=True)
    br = pos.place("BRc", "Calais", reduced=True)
    spend_now(pos, "ap", 1, "br", ["flip"], [aus, br], ["flip BRc in Calais", "end replacements"])
    assert pos.reduced(aus.index) and not pos.reduced(br.index)
