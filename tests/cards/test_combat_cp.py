"""The Central Powers' combat cards of the combat-cp group, played in real
combats with fixed dice (9.5.4, 12.2).

Each card gets a combat where its effect shows in the log (a die modified, a
column shift gone, a combat called off) and combats where it must not be
offered: the wrong side, nation or terrain, a prerequisite card missing.  The
cards: CP 3 Von Francois, CP 15 Chlorine Gas, CP 16 Liman Von Sanders, CP 18
Fortified Machine Guns, CP 19 Flamethrowers, CP 26 Place of Execution, CP 30
Alpenkorps, CP 35 Mustard Gas, CP 40 Air Superiority, CP 43 Von Below, CP 49
Michael, CP 50 Blucher, CP 51 Peace Offensive, CP 56 Withdrawal, CP 57
Kaisertreu, CP 60 Turk Determination, CP 62 Achtung: Panzer, CP 64 Alberich.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cards.test_card_events import (  # noqa: E402
    attack_from, combat_position, hand, offered, pile_of, value,
)

VON_FRANCOIS = 3
CHLORINE_GAS = 15
LIMAN = 16
MACHINE_GUNS = 18
FLAMETHROWERS = 19
PLACE_OF_EXECUTION = 26
ALPENKORPS = 30
MUSTARD_GAS = 35
AIR_SUPERIORITY = 40
VON_BELOW = 43
MICHAEL = 49
BLUCHER = 50
PEACE_OFFENSIVE = 51
WITHDRAWAL = 56
KAISERTREU = 57
TURK_DETERMINATION = 60
ACHTUNG_PANZER = 62
ALBERICH = 64


# ------------------------------------------------------------------ helpers
def cp_card(pos, number):
    c = pos.card("cp", number)
    hand(pos, "cp", c)
    return c


def mark_played(pos, name: str) -> None:
    """A prerequisite card's event has been played earlier in the game."""
    c = pos.entity("card", name)
    pos.s["played"].append(c.index)
    pos.game.invalidate()


def fired(pos, side: str) -> str:
    lines = [x for x in pos.log() if x.startswith(f"{side} fires with")]
    assert len(lines) == 1, lines
    return lines[0]


FALLBACKS = ("no more combat cards", "stop advancing", "no more attacks", "no flank attack", "no units from there")


def fight(pos, side: str, answers=(), dice=()):
    """Resolve `side`'s attacks: decisions are answered from `answers` in
    order, then (once they run out) by declining what may be declined —
    no more cards, no advance, no more attacks — or by the first option of
    what may not (retreat paths, losses).  Every decision is kept in
    pos.asked."""
    g = pos.game
    code = pos.w.codes["procedure:resolve_attacks"]
    pos.s["stack"] = [{"code": "procedure:resolve_attacks", "pc": 0, "l": dict(zip(code.params, [pos._value(side)]))}]
    pos.s["dice"] = list(dice)
    pos.s["result"] = None
    g.invalidate()
    answers = list(answers)
    d = g.run()
    while d is not None:
        pos.asked.append(d)
        if answers:
            d = g.choose(answers.pop(0))
            continue
        pick = next((o for o in FALLBACKS if o in d.options), d.options[0])
        d = g.choose(pick)
    assert not answers, f"answers left over: {answers}"


def german_attack_on_lodz(attacker: str = "GE 8", defender: str = "RU 1", trench_level: int = 0):
    """`attacker` in Posen attacks `defender` in Lodz (clear)."""
    pos = combat_position()
    pos.place(defender, "Lodz")
    pos.place(attacker, "Posen")
    pos.set("trench", trench_level, key="Lodz")
    attack_from(pos, "Posen")
    return pos


def run_cp_attack(pos, target: str, source: str, card_name: str | None, dice, more=()):
    answers = [f"attack {target} from {source}"]
    if card_name:
        answers.append(f"cp uses {card_name}")
    fight(pos, "cp", answers + list(more), dice)


def russian_attack_on_lodz(defender: str = "GE 8", trench_level: int = 0):
    """RU 1 in Warsaw attacks `defender` in Lodz, held by the Central Powers."""
    pos = combat_position()
    pos.place("RU 1", "Warsaw")
    pos.place(defender, "Lodz")
    pos.control("Lodz", "cp")
    pos.set("trench", trench_level, key="Lodz")
    attack_from(pos, "Warsaw")
    return pos


# ============================================================ +1 for a German attack
GERMAN_ATTACK_PLUS_ONE = [
    pytest.param(CHLORINE_GAS, "Chlorine Gas", marks=pytest.mark.card("CP 15")),
    pytest.param(FLAMETHROWERS, "Flamethrowers", marks=pytest.mark.card("CP 19")),
    pytest.param(MUSTARD_GAS, "Mustard Gas", marks=pytest.mark.card("CP 35")),
    pytest.param(AIR_SUPERIORITY, "Air Superiority", marks=pytest.mark.card("CP 40")),
    pytest.param(VON_FRANCOIS, "Von Francois", marks=pytest.mark.card("CP 3")),
    pytest.param(ACHTUNG_PANZER, "Achtung: Panzer", marks=pytest.mark.card("CP 62")),
]


@pytest.mark.rule("12.2.7")
@pytest.mark.parametrize("number, name", GERMAN_ATTACK_PLUS_ONE)
def test_german_attack_cards_add_one_to_the_central_powers_die(number, name):
    """GE 8 (5 CF) attacks RU 1 in Lodz, a clear space: each of these cards
    fits and turns the Central Powers' die 3 into 4; the Allied die is left
    alone."""
    pos = german_attack_on_lodz()
    c = cp_card(pos, number)
    run_cp_attack(pos, "Lodz", "Posen", name, dice=[3, 3])
    assert "die 3 modified to 4" in fired(pos, "cp")
    assert "die 3 modified to 3" in fired(pos, "ap")
    if c.data.removed:
        assert pile_of(pos, c) == "removed:cp"


@pytest.mark.parametrize("number, name", GERMAN_ATTACK_PLUS_ONE)
def test_german_attack_cards_not_for_an_austrian_attack_nor_a_german_defence(number, name):
    """An attack by Austro-Hungarians alone, or Germans defending, is not a
    German attack: the card is not offered and stays in hand."""
    pos = german_attack_on_lodz(attacker="AH 1")
    c = cp_card(pos, number)
    run_cp_attack(pos, "Lodz", "Posen", None, dice=[3, 3])
    assert not offered(pos, f"cp uses {name}")
    assert pile_of(pos, c) == "hand:cp"

    pos = russian_attack_on_lodz()
    cp_card(pos, number)
    fight(pos, "ap", ["attack Lodz from Warsaw"], dice=[3, 3])
    assert not offered(pos, f"cp uses {name}")


@pytest.mark.card("CP 3")
def test_von_francois_only_against_russians():
    pos = combat_position()
    pos.place("FR 1", "Amiens")
    pos.place("GE 1", "Cambrai")
    pos.control("Cambrai", "cp")
    pos.control("Sedan", "cp")
    attack_from(pos, "Cambrai")
    cp_card(pos, VON_FRANCOIS)
    run_cp_attack(pos, "Amiens", "Cambrai", None, dice=[3, 3])
    assert not offered(pos, "cp uses Von Francois")


@pytest.mark.card("CP 3")
@pytest.mark.rule("9.5.4.2")
def test_von_francois_is_kept_face_up_after_a_win_and_serves_again_next_round():
    """Not starred: after a won combat it lies face up (9.5.4.2) and may be
    used in a combat of a later action round (9.5.4.4) without leaving the
    table."""
    pos = german_attack_on_lodz()
    c = cp_card(pos, VON_FRANCOIS)
    run_cp_attack(pos, "Lodz", "Posen", "Von Francois", dice=[6, 1], more=["stop advancing"])
    assert "combat won by cp" in pos.log()
    assert pile_of(pos, c) == "in_play:cp"


@pytest.mark.card("CP 62")
def test_achtung_panzer_only_on_a_clear_space():
    """Sedan is forest: no Achtung: Panzer for a German attack on it."""
    pos = combat_position()
    pos.place("FR 1", "Sedan")
    pos.place("GE 1", "Metz")
    attack_from(pos, "Metz")
    c = cp_card(pos, ACHTUNG_PANZER)
    run_cp_attack(pos, "Sedan", "Metz", None, dice=[3, 3])
    assert not offered(pos, "cp uses Achtung: Panzer")
    assert pile_of(pos, c) == "hand:cp"


@pytest.mark.card("CP 40")
def test_air_superiority_is_the_central_powers_card_not_the_allied_one():
    """Both sides have an Air Superiority: the Central Powers' one is offered
    to the Central Powers in a German attack, and the Allied one (AP 19) in
    their hand is not the card that adds to the German die."""
    pos = german_attack_on_lodz()
    ap19 = pos.card("ap", 19)
    hand(pos, "ap", ap19)
    cp40 = cp_card(pos, AIR_SUPERIORITY)
    run_cp_attack(pos, "Lodz", "Posen", "Air Superiority", dice=[3, 3])
    assert "die 3 modified to 4" in fired(pos, "cp")
    assert pile_of(pos, cp40) != "hand:cp"


# ============================================================ AH or TU, attack or defence
@pytest.mark.card("CP 57")
@pytest.mark.rule("12.2.7")
def test_kaisertreu_for_an_austro_hungarian_attack_and_defence():
    pos = german_attack_on_lodz(attacker="AH 1")
    kt = cp_card(pos, KAISERTREU)
    run_cp_attack(pos, "Lodz", "Posen", "Kaisertreu", dice=[3, 3])
    assert "die 3 modified to 4" in fired(pos, "cp")
    assert pile_of(pos, kt) == "removed:cp"

    pos = russian_attack_on_lodz(defender="AH 1")
    cp_card(pos, KAISERTREU)
    fight(pos, "ap", ["attack Lodz from Warsaw", "cp uses Kaisertreu"], dice=[3, 3])
    assert "die 3 modified to 4" in fired(pos, "cp")


@pytest.mark.card("CP 57")
def test_kaisertreu_not_without_austro_hungarians():
    pos = german_attack_on_lodz()
    cp_card(pos, KAISERTREU)
    run_cp_attack(pos, "Lodz", "Posen", None, dice=[3, 3])
    assert not offered(pos, "cp uses Kaisertreu")


def qurna_position(attacker_side: str):
    """Basra (British corps) and Qurna (a Turkish corps), next to each other
    on the Near East map; the given side attacks."""
    pos = combat_position()
    pos.s["at_war"]["tu"] = True
    pos.place("BRc", "Basra")
    pos.place("TUc", "Qurna")
    attack_from(pos, "Qurna" if attacker_side == "cp" else "Basra")
    return pos


@pytest.mark.card("CP 16")
@pytest.mark.rule("12.2.7")
def test_liman_von_sanders_for_a_turkish_attack_and_defence():
    pos = qurna_position("cp")
    lvs = cp_card(pos, LIMAN)
    run_cp_attack(pos, "Basra", "Qurna", "Liman Von Sanders", dice=[3, 3])
    assert "die 3 modified to 4" in fired(pos, "cp")
    assert pile_of(pos, lvs) == "removed:cp"

    pos = qurna_position("ap")
    cp_card(pos, LIMAN)
    fight(pos, "ap", ["attack Qurna from Basra", "cp uses Liman Von Sanders"], dice=[3, 3])
    assert "die 3 modified to 4" in fired(pos, "cp")


@pytest.mark.card("CP 16")
def test_liman_von_sanders_not_without_turks():
    pos = german_attack_on_lodz()
    cp_card(pos, LIMAN)
    run_cp_attack(pos, "Lodz", "Posen", None, dice=[3, 3])
    assert not offered(pos, "cp uses Liman Von Sanders")


# ============================================================ CP 18 Fortified Machine Guns
@pytest.mark.card("CP 18")
@pytest.mark.rule("12.2.7")
def test_fortified_machine_guns_for_entrenched_german_defenders():
    """RU 1 attacks GE 8 in a Lodz trench (level 1): the card adds one to the
    German die."""
    pos = russian_attack_on_lodz(trench_level=1)
    fmg = cp_card(pos, MACHINE_GUNS)
    fight(pos, "ap", ["attack Lodz from Warsaw", "cp uses Fortified Machine Guns"], dice=[3, 3])
    assert "die 3 modified to 4" in fired(pos, "cp")
    assert "combat won by cp" in pos.log()
    assert pile_of(pos, fmg) == "in_play:cp"


@pytest.mark.card("CP 18")
@pytest.mark.parametrize("defender, trench_level", [("GE 8", 0), ("AH 1", 1)])
def test_fortified_machine_guns_needs_germans_in_a_trench(defender, trench_level):
    pos = russian_attack_on_lodz(defender=defender, trench_level=trench_level)
    cp_card(pos, MACHINE_GUNS)
    fight(pos, "ap", ["attack Lodz from Warsaw"], dice=[3, 3])
    assert not offered(pos, "cp uses Fortified Machine Guns")


@pytest.mark.card("CP 18")
def test_fortified_machine_guns_not_when_attacking():
    pos = german_attack_on_lodz(trench_level=1)
    cp_card(pos, MACHINE_GUNS)
    run_cp_attack(pos, "Lodz", "Posen", None, dice=[3, 3])
    assert not offered(pos, "cp uses Fortified Machine Guns")


# ============================================================ CP 26 Place of Execution
def verdun_position():
    pos = combat_position(8)
    pos.place("FR 1", "Verdun")
    pos.place("GE 5", "Metz")
    attack_from(pos, "Metz")
    return pos


@pytest.mark.card("CP 26")
@pytest.mark.rule("12.2.7")
def test_place_of_execution_adds_two_against_a_french_fort_space():
    """Falkenhayn played, H-L Take Command not yet: a German attack on Verdun
    (a French fort) gets +2 on the die; the card's war status counts."""
    pos = verdun_position()
    mark_played(pos, "Falkenhayn")
    poe = cp_card(pos, PLACE_OF_EXECUTION)
    ws = pos.var("war_status", "cp")
    run_cp_attack(pos, "Verdun", "Metz", "Place of Execution", dice=[2, 3])
    assert "die 2 modified to 4" in fired(pos, "cp")
    assert pos.var("war_status", "cp") == ws + 1
    assert pile_of(pos, poe) == "removed:cp"


@pytest.mark.card("CP 26")
@pytest.mark.parametrize("falkenhayn, hl, target", [
    (False, False, "Verdun"), (True, True, "Verdun"), (True, False, "Sedan")])
def test_place_of_execution_needs_falkenhayn_no_h_l_and_a_french_fort(falkenhayn, hl, target):
    pos = verdun_position()
    if target == "Sedan":
        pos.place("FR 2", "Sedan")
    if falkenhayn:
        mark_played(pos, "Falkenhayn")
    if hl:
        mark_played(pos, "H-L Take Command")
    cp_card(pos, PLACE_OF_EXECUTION)
    run_cp_attack(pos, target, "Metz", None, dice=[2, 3])
    assert not offered(pos, "cp uses Place of Execution")


# ============================================================ CP 30 Alpenkorps
@pytest.mark.card("CP 30")
@pytest.mark.rule("12.2.7")
@pytest.mark.parametrize("source, target, attacker_space_control", [
    ("Nancy", "Belfort", "cp"),       # from a clear space into the mountains
    ("Trieste", "Udine", None),        # out of the mountains onto a clear space
])
def test_alpenkorps_into_or_out_of_the_mountains(source, target, attacker_space_control):
    pos = combat_position()
    pos.place("FR 1", target)
    pos.control(target, "ap")
    pos.place("GE 7", source)
    if attacker_space_control:
        pos.control(source, attacker_space_control)
    attack_from(pos, source)
    cp_card(pos, ALPENKORPS)
    run_cp_attack(pos, target, source, "Alpenkorps", dice=[3, 3])
    assert "die 3 modified to 4" in fired(pos, "cp")


@pytest.mark.card("CP 30")
def test_alpenkorps_not_on_flat_ground():
    pos = combat_position()
    pos.place("FR 1", "Nancy")
    pos.place("GE 7", "Strasbourg")
    attack_from(pos, "Strasbourg")
    cp_card(pos, ALPENKORPS)
    run_cp_attack(pos, "Nancy", "Strasbourg", None, dice=[3, 3])
    assert not offered(pos, "cp uses Alpenkorps")


# ============================================================ trenches cancelled
def amiens_position(trench_level: int = 1, hl: bool = True, defender: str = "FR 1"):
    """GE 1 in Cambrai attacks `defender` in an Amiens trench."""
    pos = combat_position(14)
    pos.place(defender, "Amiens")
    pos.place("GE 1", "Cambrai")
    pos.control("Cambrai", "cp")
    pos.control("Sedan", "cp")
    pos.set("trench", trench_level, key="Amiens")
    attack_from(pos, "Cambrai")
    if hl:
        mark_played(pos, "H-L Take Command")
    return pos


@pytest.mark.card("CP 49")
@pytest.mark.rule("12.2.4")
def test_michael_cancels_the_trench_and_adds_one():
    """Without the card the Amiens trench shifts the German fire one column
    left and the French fire one right; with Michael neither, and the German
    die gains one.  Played in step 3, before the flank attempt."""
    pos = amiens_position()
    m = cp_card(pos, MICHAEL)
    run_cp_attack(pos, "Amiens", "Cambrai", "Michael", dice=[3, 3], more=[])
    assert "(shift 0), die 3 modified to 4" in fired(pos, "cp")
    assert "(shift 0)" in fired(pos, "ap")
    assert pile_of(pos, m) == "removed:cp"
    assert value(pos, "combat_card_timing_of", m) == "before_flank_attempt"

    base = amiens_position()
    run_cp_attack(base, "Amiens", "Cambrai", None, dice=[3, 3])
    assert "(shift -1), die 3 modified to 3" in fired(base, "cp")


@pytest.mark.card("CP 50")
@pytest.mark.rule("12.2.4")
def test_blucher_cancels_the_trench():
    pos = amiens_position()
    cp_card(pos, BLUCHER)
    run_cp_attack(pos, "Amiens", "Cambrai", "Blucher", dice=[3, 3], more=[])
    assert "(shift 0), die 3 modified to 3" in fired(pos, "cp")
    assert "(shift 0)" in fired(pos, "ap")


@pytest.mark.parametrize("number, name", [
    pytest.param(MICHAEL, "Michael", marks=pytest.mark.card("CP 49")),
    pytest.param(BLUCHER, "Blucher", marks=pytest.mark.card("CP 50")),
    pytest.param(PEACE_OFFENSIVE, "Peace Offensive", marks=pytest.mark.card("CP 51")),
])
def test_1918_offensives_only_after_h_l_take_command_and_for_germans(number, name):
    pos = amiens_position(hl=False)
    cp_card(pos, number)
    run_cp_attack(pos, "Amiens", "Cambrai", None, dice=[3, 3])
    assert not offered(pos, f"cp uses {name}")

    pos = german_attack_on_lodz(attacker="AH 1")
    mark_played(pos, "H-L Take Command")
    cp_card(pos, number)
    run_cp_attack(pos, "Lodz", "Posen", None, dice=[3, 3])
    assert not offered(pos, f"cp uses {name}")


@pytest.mark.card("CP 51")
@pytest.mark.rule("12.2.4")
def test_peace_offensive_a_vp_to_the_allies_when_the_germans_do_not_get_in():
    """The trench is cancelled; the French hold Amiens (Allied die 6), so no
    German unit enters the space: the VP marker moves one toward the Allies."""
    pos = amiens_position()
    vp = pos.var("vp")
    po = cp_card(pos, PEACE_OFFENSIVE)
    run_cp_attack(pos, "Amiens", "Cambrai", "Peace Offensive", dice=[1, 6])
    assert "(shift 0)" in fired(pos, "cp")
    assert pos.units_at("Amiens") == ["FR 1"]
    assert pos.var("vp") == vp - 1
    assert pile_of(pos, po) == "removed:cp"


@pytest.mark.card("CP 51")
def test_peace_offensive_no_vp_when_the_germans_advance():
    pos = amiens_position(defender="FRc")
    vp = pos.var("vp")
    cp_card(pos, PEACE_OFFENSIVE)
    run_cp_attack(pos, "Amiens", "Cambrai", "Peace Offensive", dice=[6, 1],
                  more=["advance GE 1 into Amiens"])
    assert pos.units_at("Amiens") == ["GE 1"]
    assert pos.var("vp") == vp


def udine_position(defenders=("IT 1",)):
    """AH 1 in Trieste (mountain) attacks Udine (clear), entrenched."""
    pos = combat_position(14)
    pos.s["at_war"]["it"] = True  # Italian units stand on the map only once Italy is at war
    for d in defenders:
        pos.place(d, "Udine")
    pos.set("trench", 1, key="Udine")
    pos.place("AH 1", "Trieste")
    attack_from(pos, "Trieste")
    return pos


@pytest.mark.card("CP 43")
@pytest.mark.rule("12.2.4")
def test_von_below_cancels_an_italian_trench():
    pos = udine_position()
    vb = cp_card(pos, VON_BELOW)
    run_cp_attack(pos, "Udine", "Trieste", "Von Below", dice=[3, 3], more=[])
    assert "(shift 0)" in fired(pos, "cp")
    assert "(shift 0)" in fired(pos, "ap")
    assert pile_of(pos, vb) == "removed:cp"


@pytest.mark.card("CP 43")
def test_von_below_only_against_italians_alone():
    pos = udine_position(defenders=("IT 1", "FRc"))
    cp_card(pos, VON_BELOW)
    run_cp_attack(pos, "Udine", "Trieste", None, dice=[3, 3])
    assert not offered(pos, "cp uses Von Below")


# ============================================================ CP 60 Turk Determination
@pytest.mark.card("CP 60")
@pytest.mark.rule("11.2.8")
@pytest.mark.rule("12.5.3")
@pytest.mark.parametrize("with_card", [True, False])
def test_turk_determination_counts_as_a_level_1_trench(with_card):
    """Two British corps attack two Turkish corps in Qurna, a clear space with no
    trench.  With the card, the British fire is shifted one column left and
    the Turks' one right, and the Turks, beaten, may hold the space by taking
    one more step (12.5.3) as a trench allows; without it, none of that."""
    pos = qurna_position("ap")
    pos.place("TUc", "Qurna")
    pos.place("BRc", "Basra")
    attack_from(pos, "Basra")
    td = cp_card(pos, TURK_DETERMINATION)
    card_answer = ["cp uses Turk Determination"] if with_card else []
    fight(pos, "ap", ["attack Qurna from Basra", "from Basra: BRc, BRc"] + card_answer, dice=[6, 1])
    stand_fast = any(d.choice == "stand_fast" for d in pos.asked)
    assert "combat won by ap" in pos.log()
    if with_card:
        assert "(shift -1)" in fired(pos, "ap")
        assert "(shift 1)" in fired(pos, "cp")
        assert stand_fast
        assert pile_of(pos, td) == "removed:cp"
    else:
        assert "(shift 0)" in fired(pos, "ap")
        assert not stand_fast


@pytest.mark.card("CP 60")
def test_turk_determination_not_in_a_trench_nor_without_turks():
    pos = qurna_position("ap")
    pos.set("trench", 1, key="Qurna")
    cp_card(pos, TURK_DETERMINATION)
    fight(pos, "ap", ["attack Qurna from Basra"], dice=[1, 1])
    assert not offered(pos, "cp uses Turk Determination")

    pos = russian_attack_on_lodz()
    cp_card(pos, TURK_DETERMINATION)
    fight(pos, "ap", ["attack Lodz from Warsaw"], dice=[1, 1])
    assert not offered(pos, "cp uses Turk Determination")


# ============================================================ CP 56 Withdrawal
def cp_withdrawal_position():
    """GE 8 and two German corps defend Lodz; RU 1 attacks from Warsaw."""
    pos = combat_position()
    pos.ge8 = pos.place("GE 8", "Lodz")
    pos.gec1 = pos.place("GEc", "Lodz")
    pos.gec2 = pos.place("GEc", "Lodz")
    pos.control("Lodz", "cp")
    pos.place("RU 1", "Warsaw")
    pos.withdrawal = cp_card(pos, WITHDRAWAL)
    attack_from(pos, "Warsaw")
    return pos


@pytest.mark.card("CP 56")
@pytest.mark.rule("12.6.9")
@pytest.mark.rule("12.6.3")
@pytest.mark.rule("12.6.4")
def test_cp_withdrawal_losses_from_corps_first_a_step_back_and_one_space_retreat():
    """Loss number 4 for the Germans (Russian die 6 on the 3 column).  It
    could be paid by flipping GE 8 (3) and a corps (1), but with Withdrawal
    the corps must pay it (12.6.9): both corps flip and are lost; one comes
    back, reduced (12.6.3, 12.6.10).  The Russians win, and the Germans
    retreat one space only (12.6.4)."""
    pos = cp_withdrawal_position()
    fight(pos, "ap", ["attack Lodz from Warsaw", "cp uses Withdrawal", "GEc in Lodz: flipped",
                      "GE 8 retreats to Posen", "GEc retreats to Posen"], dice=[6, 1])
    log = pos.log()
    assert "ap fires with strength 3 on the Army table (shift 0), die 6 modified to 6: loss number 4" in log
    take_loss = [d for d in pos.asked if d.choice == "take_loss" and d.by == "cp"]
    assert all(not o.startswith("GE 8") for d in take_loss for o in d.options)
    assert "GE 8 reduced" not in log
    assert "Withdrawal: GEc regains a step" in log
    assert "combat won by ap" in log
    assert pos.units_at("Posen") == ["GE 8", "GEc"]
    assert not pos.reduced(pos.ge8.index)
    assert pos.units_at("Lodz") == []
    assert not any("then" in o for d in pos.asked if d.choice == "retreat_path" for o in d.options)
    assert pile_of(pos, pos.withdrawal) == "removed:cp"


@pytest.mark.card("CP 56")
def test_cp_withdrawal_only_for_the_central_powers_defending():
    pos = german_attack_on_lodz()
    cp_card(pos, WITHDRAWAL)
    run_cp_attack(pos, "Lodz", "Posen", None, dice=[1, 1])
    assert not offered(pos, "cp uses Withdrawal")
    assert not offered(pos, "ap uses Withdrawal")


@pytest.mark.card("CP 56")
def test_cp_withdrawal_is_not_offered_to_the_allies():
    """The Allied Withdrawal (AP 6) in the Allied hand is not the card the
    Central Powers may play, and the Allies cannot play theirs when they
    attack."""
    pos = russian_attack_on_lodz()
    ap6 = pos.card("ap", 6)
    hand(pos, "ap", ap6)
    cp_card(pos, WITHDRAWAL)
    fight(pos, "ap", ["attack Lodz from Warsaw"], dice=[1, 1])
    assert not offered(pos, "ap uses Withdrawal")
    assert offered(pos, "cp uses Withdrawal")


# ============================================================ CP 64 Alberich
def alberich_position(attacker: str = "FR 1"):
    """`attacker` in Amiens attacks GE 1 in Cambrai (France), held by the
    Central Powers; the Allies hold AP 19 Air Superiority."""
    pos = combat_position(14)
    pos.place(attacker, "Amiens")
    pos.ge1 = pos.place("GE 1", "Cambrai")
    pos.control("Cambrai", "cp")
    pos.control("Sedan", "cp")
    pos.air = pos.card("ap", 19)
    hand(pos, "ap", pos.air)
    pos.alberich = cp_card(pos, ALBERICH)
    attack_from(pos, "Amiens")
    return pos


@pytest.mark.card("CP 64")
@pytest.mark.rule("12.2.6")
@pytest.mark.rule("9.5.4.4")
def test_alberich_calls_off_the_attack_and_the_allied_cards_go_back():
    """The French attack Cambrai with Air Superiority; the Central Powers
    answer with Alberich: nobody fires, nobody retreats, the Allied card is
    back in the Allied hand and not counted as used this round; the attack
    counts as made (Cambrai may not be attacked again in this action)."""
    pos = alberich_position()
    fight(pos, "ap", [
        "attack Cambrai from Amiens", "ap uses Air Superiority", "cp uses Alberich"], dice=[])
    log = pos.log()
    assert not any(" fires with " in x for x in log)
    assert pos.units_at("Cambrai") == ["GE 1"] and pos.units_at("Amiens") == ["FR 1"]
    assert not pos.reduced(pos.ge1.index)
    assert pile_of(pos, pos.air) == "hand:ap"
    assert pile_of(pos, pos.alberich) == "removed:cp"
    assert pos.air.index not in [c.index for c in pos.s["vars"]["cards_used_this_round"]]
    assert "Cambrai" in [s.key for s in pos.s["vars"]["attacked_spaces"]]


@pytest.mark.card("CP 64")
def test_alberich_refused_after_royal_tank_corps():
    pos = alberich_position(attacker="BR 1")
    mark_played(pos, "Landships")
    hand(pos, "ap", pos.card("ap", 48))
    fight(pos, "ap", ["attack Cambrai from Amiens", "ap uses Royal Tank Corps"], dice=[3, 3, 3])
    assert offered(pos, "ap uses Royal Tank Corps")
    assert not offered(pos, "cp uses Alberich")
    assert pile_of(pos, pos.alberich) == "hand:cp"


@pytest.mark.card("CP 64")
def test_alberich_refused_in_a_yanks_and_tanks_round():
    pos = alberich_position()
    pos.set("yanks_and_tanks_round", value(pos, "combat_round_key"))
    fight(pos, "ap", ["attack Cambrai from Amiens", "no more combat cards"], dice=[3, 3])
    assert not offered(pos, "cp uses Alberich")
    assert any(" fires with " in x for x in pos.log())


@pytest.mark.card("CP 64")
def test_alberich_only_against_an_allied_attack_in_france_or_belgium():
    pos = russian_attack_on_lodz()
    cp_card(pos, ALBERICH)
    fight(pos, "ap", ["attack Lodz from Warsaw"], dice=[3, 3])
    assert not offered(pos, "cp uses Alberich")


@pytest.mark.card("CP 64")
@pytest.mark.rule("9.5.4.2")
def test_alberich_leaves_a_card_kept_face_up_where_it_was_and_free_this_round():
    """An Allied card kept face up from an earlier win and selected for the
    cancelled attack was not used: it stays face up and may be selected again
    in the same action round (9.5.4.4)."""
    pos = alberich_position()
    pos.game.move_card(pos.air, "in_play:ap")
    pos.place("FR 2", "Amiens")
    pos.place("GE 2", "Calais")
    pos.control("Calais", "cp")
    attack_from(pos, "Amiens")
    fight(pos, "ap", ["attack Cambrai from Amiens", "from Amiens: FR 1", "ap uses Air Superiority", "cp uses Alberich",
                      "attack Calais from Amiens"], dice=[3, 3])
    assert "Air Superiority counts as not used: still face up" in pos.log()
    assert sum(1 for d in pos.asked if "ap uses Air Superiority" in d.options) == 2
    assert pile_of(pos, pos.alberich) == "removed:cp"


@pytest.mark.card("CP 49")
@pytest.mark.rule("12.3.1")
@pytest.mark.parametrize("with_card", [True, False])
def test_michael_lets_a_flank_attack_be_tried_against_a_trench(with_card):
    """12.3.1's note: with the trench cancelled, GE 8 and GE 9 attacking an
    entrenched Lodz from Posen and Thorn may try a flank attack; without the
    card the trench bars it."""
    pos = combat_position(14)
    pos.place("RU 1", "Lodz")
    pos.set("trench", 1, key="Lodz")
    pos.place("GE 8", "Posen")
    pos.place("GE 9", "Thorn")
    attack_from(pos, "Posen", "Thorn")
    mark_played(pos, "H-L Take Command")
    cp_card(pos, MICHAEL)
    fight(pos, "cp", ["attack Lodz from Posen", "from Thorn: GE 9"] + (["cp uses Michael"] if with_card else []),
          dice=[3, 3, 3])
    assert any(d.choice == "flank_attack" for d in pos.asked) is with_card


@pytest.mark.card("CP 64")
@pytest.mark.rule("9.5.1.3")
def test_a_card_that_counts_as_not_played_takes_its_war_status_back():
    """The combat chapter's unplay_combat_card, which Alberich's cancelled
    combat uses for every Allied card: a card played from hand goes back to
    that hand, the war status its play added is taken back, and it no longer
    counts as used this round.  (No Allied combat card carries a war status,
    so the procedure is run here on Michael, which does.)"""
    pos = combat_position(14)
    michael = pos.card("cp", MICHAEL)
    pos.game.move_card(michael, "in_play:cp")
    pos.set("war_status", 5, key="cp")
    pos.set("combat_cards", [michael])
    pos.set("combat_cards_from_hand", [michael])
    pos.set("cards_used_this_round", [michael])
    pos.run("unplay_combat_card", michael)
    assert pile_of(pos, michael) == "hand:cp"
    assert pos.var("war_status", "cp") == 4
    assert pos.s["vars"]["cards_used_this_round"] == []
