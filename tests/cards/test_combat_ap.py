"""Allied combat cards (9.5.4, 12.2) and Great Retreat's evaded attack.

Each card is played inside a real combat (`resolve_attacks` with fixed dice
and scripted answers), showing its effect on the fire die, the fire table, the
column shifts or the retreat; and each is tried in combats it does not fit,
where it must not be offered.  The order construct of modifiers (`after`) is
shown by Backs To The Wall against Withdrawal, both replacing the retreat.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cards.test_card_events import (  # noqa: E402
    at, attack_from, card, combat_position, control, hand, offered, pile_of,
)

PUTNIK = ("ap", 5)
WITHDRAWAL = ("ap", 6)
AP_WEATHER = ("ap", 7)
CP_WEATHER = ("cp", 4)
HURRICANE = ("ap", 18)
AIR = ("ap", 19)
PHOSGENE = ("ap", 21)
GREAT_RETREAT = ("ap", 27)
LANDSHIPS = ("ap", 28)
MINE = ("ap", 36)
TSNP = ("ap", 39)
TANKS = ("ap", 48)
GUARDS = ("ap", 58)
ALPINE = ("ap", 59)
MAUDE = ("ap", 61)
BACKS = ("ap", 63)


def fired(pos, side: str) -> str:
    """The log line of one side's fire in the (last) combat."""
    lines = [line for line in pos.log() if line.startswith(f"{side} fires with strength")]
    assert lines, pos.log()
    return lines[-1]


def uses(side: str, c) -> str:
    return f"{side} uses {c.data.name.text}"


FALLBACKS = ("no more combat cards", "no more attacks", "stop advancing", "retreat")


def fight(pos, side: str, *answers, dice=(3, 3)) -> None:
    """`resolve_attacks` for `side`: each decision takes the next scripted
    answer when it is one of its options (or their unique beginning);
    otherwise the attacker stops (no more cards, attacks or advance), a
    defender retreats rather than take a step, and anything else takes the
    first option.  Every decision offered is kept in `pos.asked`."""
    g = pos.game
    code = pos.w.codes["procedure:resolve_attacks"]
    pos.s["stack"] = [{"code": "procedure:resolve_attacks", "pc": 0, "l": {code.params[0]: pos._value(side)}}]
    pos.s["dice"] = list(dice)
    pos.s["result"] = None
    g.invalidate()
    answers = list(answers)
    d = g.run()
    while d is not None:
        pos.asked.append(d)
        pick = None
        if answers:
            want = answers[0]
            hits = [o for o in d.options if o == want] or [o for o in d.options if o.startswith(want)]
            if len(hits) == 1:
                pick = hits[0]
                answers.pop(0)
        if pick is None:
            pick = next((o for o in d.options if o in FALLBACKS), d.options[0])
        d = g.choose(pick)
    assert not answers, f"never offered: {answers}"


def at_war(pos, nation: str) -> None:
    pos.s["at_war"][nation] = True
    pos.game.invalidate()


def mark_played(pos, key) -> None:
    c = card(pos, key)
    pos.s["played"].append(c.index)
    pos.game.invalidate()


# ============================================================ AP 5 Putnik
def serbian_defence(turn: int = 6) -> tuple:
    """AH 1 (3 CF) in Novi Sad attacks SB 1 (2 CF) in Belgrade (clear, fort 1)."""
    pos = combat_position(turn)
    pos.place("SB 1", "Belgrade")
    pos.place("AH 1", "Novi Sad")
    putnik, = hand(pos, "ap", card(pos, PUTNIK))
    attack_from(pos, "Novi Sad")
    return pos, putnik


@pytest.mark.card("AP 5")
@pytest.mark.rule("12.2.7")
def test_putnik_adds_one_to_a_serbian_defence():
    """Serbian strength 2 + fort 1 = 3 on the Army table; die 3 + 1 = 4: loss
    number 3 instead of 2.  The Allies win (3 against 2), and the card, not
    starred, stays face up (9.5.4.2)."""
    pos, putnik = serbian_defence()
    fight(pos, "cp", "attack Belgrade from Novi Sad", uses("ap", putnik), dice=[2, 3])
    assert fired(pos, "ap") == (
        "ap fires with strength 3 on the Army table (shift 0), die 3 modified to 4: loss number 3")
    assert pile_of(pos, putnik) == "in_play:ap"


@pytest.mark.card("AP 5")
@pytest.mark.rule("12.2.7")
def test_putnik_adds_one_to_a_serbian_attack():
    """SB 1 (2 CF) attacks an Austrian corps in Novi Sad: die 5 + 1 = 6 on the
    Army table's 2 column: loss number 3."""
    pos = combat_position(5)
    pos.place("SB 1", "Belgrade")
    pos.place("AHc", "Novi Sad")
    putnik, = hand(pos, "ap", card(pos, PUTNIK))
    attack_from(pos, "Belgrade")
    fight(pos, "ap", "attack Novi Sad from Belgrade", uses("ap", putnik), dice=[5, 1])
    assert fired(pos, "ap") == (
        "ap fires with strength 2 on the Army table (shift 0), die 5 modified to 6: loss number 3")


@pytest.mark.card("AP 5")
@pytest.mark.rule("9.5.4.1")
@pytest.mark.parametrize("turn, defender, where, attacker, source", [
    (8, "SB 1", "Belgrade", "AH 1", "Novi Sad"),     # 1916: too late
    (6, "RU 1", "Lodz", "GE 8", "Posen"),            # no Serbian units
])
def test_putnik_only_for_serbians_in_1914_and_1915(turn, defender, where, attacker, source):
    pos = combat_position(turn)
    pos.place(defender, where)
    pos.place(attacker, source)
    putnik, = hand(pos, "ap", card(pos, PUTNIK))
    attack_from(pos, source)
    fight(pos, "cp", f"attack {where} from {source}", dice=[3, 3])
    assert any("ap fires" in line for line in pos.log())
    assert not offered(pos, uses("ap", putnik))
    assert pile_of(pos, putnik) == "hand:ap"


@pytest.mark.card("AP 5")
@pytest.mark.rule("9.5.4.4")
def test_putnik_once_an_action_round_for_attack_or_defence():
    """9.5.4.4's note: won in one Serbian attack, Putnik stays face up but is
    not offered for a second Serbian attack in the same action round; in a
    later round it may serve again, here for a defence."""
    pos = combat_position(5)
    pos.place("SB 1", "Belgrade")
    pos.place("SBc", "Valjevo")
    pos.place("AHc", "Novi Sad")
    pos.place("AHc", "Sarajevo")
    putnik, = hand(pos, "ap", card(pos, PUTNIK))
    attack_from(pos, "Belgrade", "Valjevo")
    fight(pos, "ap", "attack Novi Sad from Belgrade", uses("ap", putnik), dice=[6, 1])
    assert pile_of(pos, putnik) == "in_play:ap"
    pos.asked.clear()
    fight(pos, "ap", "attack Sarajevo from Valjevo", dice=[1, 1])
    assert any("ap attacks Sarajevo" in line for line in pos.log())
    assert not offered(pos, uses("ap", putnik))
    # the next action round: a Serbian defence may select the card again
    at(pos, 5, 3)
    pos.place("AH 1", "Timisvar")
    pos.control("Timisvar", "cp")
    attack_from(pos, "Timisvar")
    pos.asked.clear()
    fight(pos, "cp", "attack Belgrade from Timisvar", uses("ap", putnik), dice=[1, 3])
    assert "die 3 modified to 4" in fired(pos, "ap")


# ============================================================ AP 7 / CP 4 Severe Weather
def weather_defence(turn: int, where: str = "Kovel", source: str = "Lublin") -> tuple:
    """GE 8 (5 CF) attacks RU 1 (3 CF) in Kovel (swamp) from Lublin."""
    pos = combat_position(turn)
    pos.place("RU 1", where)
    pos.place("GE 8", source)
    pos.control(source, "cp")
    weather, = hand(pos, "ap", card(pos, AP_WEATHER))
    attack_from(pos, source)
    return pos, weather


@pytest.mark.card("AP 7")
@pytest.mark.rule("12.2.7")
def test_allied_severe_weather_gives_the_defender_two_in_a_spring_swamp():
    """Spring 1916, Kovel is a swamp: the Russian die 2 becomes 4 (Army table
    3 column: loss number 3 instead of 2); the German die is not changed
    (swamp: the attacker shifts one column left, 5 → the 4 column)."""
    pos, weather = weather_defence(9)
    fight(pos, "cp", "attack Kovel from Lublin", uses("ap", weather), dice=[3, 2])
    assert fired(pos, "ap") == (
        "ap fires with strength 3 on the Army table (shift 0), die 2 modified to 4: loss number 3")
    assert fired(pos, "cp") == (
        "cp fires with strength 5 on the Army table (shift -1), die 3 modified to 3: loss number 3")


@pytest.mark.card("AP 7")
@pytest.mark.rule("9.5.4.1")
@pytest.mark.parametrize("turn, where, source", [
    (6, "Kovel", "Lublin"),      # a swamp in summer
    (8, "Kovel", "Lublin"),      # a swamp in winter
    (9, "Lodz", "Posen"),        # spring, but clear terrain
])
def test_allied_severe_weather_only_on_its_ground_and_season(turn, where, source):
    pos, weather = weather_defence(turn, where, source)
    fight(pos, "cp", f"attack {where} from {source}", dice=[3, 2])
    assert not offered(pos, uses("ap", weather))


@pytest.mark.card("AP 7")
@pytest.mark.rule("9.5.4.1")
def test_allied_severe_weather_not_for_an_allied_attack():
    pos = combat_position(9)
    pos.place("RU 1", "Lublin")
    pos.place("GE 8", "Kovel")
    pos.control("Kovel", "cp")
    weather, = hand(pos, "ap", card(pos, AP_WEATHER))
    attack_from(pos, "Lublin")
    fight(pos, "ap", "attack Kovel from Lublin", dice=[3, 2])
    assert any("ap fires" in line for line in pos.log())
    assert not offered(pos, uses("ap", weather))


@pytest.mark.card("CP 4")
@pytest.mark.rule("12.2.7")
def test_central_powers_severe_weather_same_effect_for_their_defenders():
    """Winter 1916: IT 1 (2 CF) attacks AH 1 in Trent (mountain, fort 3) from
    Asiago; the Central Powers' Severe Weather adds two to their die only
    (strength 3 + fort 3, die 1 → 3: loss number 4 instead of 3); the
    Allied Severe Weather, also in hand, is not offered to the attacker."""
    pos = combat_position(8)
    at_war(pos, "it")
    pos.place("AH 1", "Trent")
    pos.place("IT 1", "Asiago")
    cp_weather, = hand(pos, "cp", card(pos, CP_WEATHER))
    ap_weather, = hand(pos, "ap", card(pos, AP_WEATHER))
    attack_from(pos, "Asiago")
    fight(pos, "ap", "attack Trent from Asiago", uses("cp", cp_weather), dice=[4, 1])
    assert fired(pos, "cp") == (
        "cp fires with strength 6 on the Army table (shift 0), die 1 modified to 3: loss number 4")
    assert "die 4 modified to 4" in fired(pos, "ap")
    assert not offered(pos, uses("ap", ap_weather))


@pytest.mark.card("CP 4")
@pytest.mark.rule("9.5.4.1")
def test_central_powers_severe_weather_not_in_a_summer_mountain():
    pos = combat_position(10)
    at_war(pos, "it")
    pos.place("AH 1", "Trent")
    pos.place("IT 1", "Asiago")
    cp_weather, = hand(pos, "cp", card(pos, CP_WEATHER))
    attack_from(pos, "Asiago")
    fight(pos, "ap", "attack Trent from Asiago", dice=[4, 1])
    assert not offered(pos, uses("cp", cp_weather))


# ============================================================ British and French attacks: +1 cards
def western_attack(attackers=("BR 1",), turn: int = 10, trench_level: int = 0, keys=()) -> tuple:
    """Allied units in Amiens attack GE 1 (5 CF) in Cambrai, held by the
    Central Powers; the given cards are in the Allied hand."""
    pos = combat_position(turn)
    for u in attackers:
        pos.place(u, "Amiens")
    pos.place("GE 1", "Cambrai")
    pos.control("Cambrai", "cp")
    pos.set("trench", trench_level, key="Cambrai")
    cards = hand(pos, "ap", *[card(pos, k) for k in keys])
    attack_from(pos, "Amiens")
    return pos, cards


def attack_cambrai(pos, *answers, dice=(3, 3), attackers="") -> None:
    first = ["attack Cambrai from Amiens"] + ([f"from Amiens: {attackers}"] if attackers else [])
    fight(pos, "ap", *(first + list(answers)), dice=list(dice))


@pytest.mark.card("AP 18")
@pytest.mark.rule("12.2.7")
def test_hurricane_barrage_adds_one_to_a_british_attack():
    """BR 1 (4 CF): die 3 + 1 = 4 on the Army table's 4 column: loss number 3
    (2 without).  The Germans' die 6 gives 5, so the Allies lose and discard
    the card (9.5.4.3)."""
    pos, (hb,) = western_attack(keys=[HURRICANE])
    attack_cambrai(pos, uses("ap", hb), dice=[3, 6])
    assert fired(pos, "ap") == (
        "ap fires with strength 4 on the Army table (shift 0), die 3 modified to 4: loss number 3")
    assert pile_of(pos, hb) == "discard:ap"


@pytest.mark.card("AP 18")
@pytest.mark.rule("12.1.11.2")
def test_hurricane_barrage_with_french_units_alongside():
    pos, (hb,) = western_attack(attackers=("BR 1", "FR 1"), keys=[HURRICANE])
    attack_cambrai(pos, uses("ap", hb), attackers="BR 1, FR 1")
    assert "modified to 4" in fired(pos, "ap")


@pytest.mark.card("AP 18")
@pytest.mark.rule("9.5.4.1")
def test_hurricane_barrage_not_for_a_french_attack_nor_a_british_defence():
    pos, (hb,) = western_attack(attackers=("FR 1",), keys=[HURRICANE])
    attack_cambrai(pos)
    assert not offered(pos, uses("ap", hb))
    pos = combat_position(10)
    pos.place("BR 1", "Verdun")
    pos.place("GE 1", "Metz")
    hb, = hand(pos, "ap", card(pos, HURRICANE))
    attack_from(pos, "Metz")
    fight(pos, "cp", "attack Verdun from Metz", dice=[3, 3])
    assert any("ap fires" in line for line in pos.log())
    assert not offered(pos, uses("ap", hb))


@pytest.mark.card("AP 19")
@pytest.mark.rule("12.2.7")
@pytest.mark.parametrize("attacker", ["BR 1", "FR 1"])
def test_air_superiority_adds_one_to_a_british_or_french_attack(attacker):
    pos, (air,) = western_attack(attackers=(attacker,), keys=[AIR])
    attack_cambrai(pos, uses("ap", air), dice=[2, 3])
    assert "die 2 modified to 3" in fired(pos, "ap")


@pytest.mark.card("AP 19")
@pytest.mark.rule("9.5.4.1")
def test_air_superiority_not_for_a_russian_attack():
    pos = combat_position(10)
    pos.place("RU 1", "Warsaw")
    pos.place("GE 8", "Lodz")
    pos.control("Lodz", "cp")
    air, = hand(pos, "ap", card(pos, AIR))
    attack_from(pos, "Warsaw")
    fight(pos, "ap", "attack Lodz from Warsaw", dice=[2, 3])
    assert not offered(pos, uses("ap", air))


@pytest.mark.card("AP 21")
@pytest.mark.rule("12.2.7")
def test_phosgene_gas_adds_one_to_a_french_attack_and_leaves_the_game():
    pos, (gas,) = western_attack(attackers=("FR 1",), keys=[PHOSGENE])
    attack_cambrai(pos, uses("ap", gas), dice=[4, 1])
    assert fired(pos, "ap") == (
        "ap fires with strength 3 on the Army table (shift 0), die 4 modified to 5: loss number 3")
    assert pile_of(pos, gas) == "removed:ap"


@pytest.mark.card("AP 21")
@pytest.mark.rule("9.5.4.1")
def test_phosgene_gas_not_for_a_british_attack():
    pos, (gas,) = western_attack(attackers=("BR 1",), keys=[PHOSGENE])
    attack_cambrai(pos)
    assert not offered(pos, uses("ap", gas))


@pytest.mark.card("AP 58")
@pytest.mark.rule("12.2.7")
def test_russian_guards_add_one_to_a_russian_attack():
    pos = combat_position(10)
    pos.place("RU 1", "Warsaw")
    pos.place("GE 8", "Lodz")
    pos.control("Lodz", "cp")
    guards, = hand(pos, "ap", card(pos, GUARDS))
    attack_from(pos, "Warsaw")
    fight(pos, "ap", "attack Lodz from Warsaw", uses("ap", guards), dice=[2, 6])
    assert fired(pos, "ap") == (
        "ap fires with strength 3 on the Army table (shift 0), die 2 modified to 3: loss number 2")
    assert pile_of(pos, guards) == "removed:ap"


@pytest.mark.card("AP 58")
@pytest.mark.rule("9.5.4.1")
def test_russian_guards_not_for_a_russian_defence():
    pos = combat_position(10)
    pos.place("RU 1", "Lodz")
    pos.place("GE 8", "Posen")
    guards, = hand(pos, "ap", card(pos, GUARDS))
    attack_from(pos, "Posen")
    fight(pos, "cp", "attack Lodz from Posen", dice=[2, 6])
    assert not offered(pos, uses("ap", guards))


def italian_attack(attackers=("IT 1",)) -> tuple:
    """Italian units in Asiago attack an Austrian corps in Trent (mountain,
    fort 3): the attacker shifts one column left."""
    pos = combat_position(10)
    at_war(pos, "it")
    for u in attackers:
        pos.place(u, "Asiago")
    pos.place("AHc", "Trent")
    alpine, = hand(pos, "ap", card(pos, ALPINE))
    attack_from(pos, "Asiago")
    return pos, alpine


@pytest.mark.card("AP 59")
@pytest.mark.rule("12.2.7")
def test_alpine_troops_add_one_to_an_italian_attack():
    pos, alpine = italian_attack()
    fight(pos, "ap", "attack Trent from Asiago", uses("ap", alpine), dice=[5, 1])
    assert "die 5 modified to 6" in fired(pos, "ap")


@pytest.mark.card("AP 59")
@pytest.mark.rule("12.1.11")
def test_alpine_troops_not_when_other_nations_attack_with_the_italians():
    pos, alpine = italian_attack(attackers=("IT 1", "BRc"))
    fight(pos, "ap", "attack Trent from Asiago", "from Asiago: IT 1, BRc", dice=[5, 1])
    assert any("ap fires" in line for line in pos.log())
    assert not offered(pos, uses("ap", alpine))


# ============================================================ AP 36 Mine Attack
@pytest.mark.card("AP 36")
@pytest.mark.rule("12.2.7")
def test_mine_attack_adds_one_against_entrenched_defenders():
    """BR 1 attacks GE 1 behind a level 1 trench in Cambrai: one column left
    (4 → 3 column), die 4 + 1 = 5: loss number 3 (2 without)."""
    pos, (mine,) = western_attack(trench_level=1, keys=[MINE])
    attack_cambrai(pos, uses("ap", mine), dice=[4, 1])
    assert fired(pos, "ap") == (
        "ap fires with strength 4 on the Army table (shift -1), die 4 modified to 5: loss number 3")


@pytest.mark.card("AP 36")
@pytest.mark.rule("9.5.4.1")
@pytest.mark.parametrize("attacker, trench_level", [("BR 1", 0), ("FR 1", 1)])
def test_mine_attack_needs_a_british_attack_on_a_trench(attacker, trench_level):
    pos, (mine,) = western_attack(attackers=(attacker,), trench_level=trench_level, keys=[MINE])
    attack_cambrai(pos, dice=[4, 1])
    assert any("ap fires" in line for line in pos.log())
    assert not offered(pos, uses("ap", mine))


@pytest.mark.card("AP 36")
@pytest.mark.rule("9.5.4.2")
def test_mine_attack_one_combat_a_turn():
    """Won, the card is still discarded (never kept face up); back in hand by
    any means, it is not offered again that turn, and is the next turn."""
    pos, (mine,) = western_attack(trench_level=1, keys=[MINE])
    attack_cambrai(pos, uses("ap", mine), dice=[6, 1])
    assert pile_of(pos, mine) == "discard:ap"
    assert "ap keeps Mine Attack face up" not in pos.log()
    hand(pos, "ap", mine)
    at(pos, 10, 4)
    pos.place("GE 2", "Cambrai")
    pos.set("trench", 1, key="Cambrai")
    pos.place("BR 2", "Amiens")
    attack_from(pos, "Amiens")
    pos.asked.clear()
    attack_cambrai(pos, dice=[6, 1], attackers="BR 2")
    assert any("ap attacks Cambrai" in line for line in pos.log()[-12:])
    assert not offered(pos, uses("ap", mine))
    at(pos, 11, 1)
    pos.asked.clear()
    attack_cambrai(pos, uses("ap", mine), dice=[6, 1], attackers="BR 2")


# ============================================================ AP 48 Royal Tank Corps
@pytest.mark.card("AP 48")
@pytest.mark.rule("12.2.8")
def test_royal_tank_corps_cancels_the_trench_column_shifts():
    """After Landships: BR 1 attacks GE 1 in Cambrai (clear, trench 1).  With
    the tanks neither side's fire column moves for the trench (no -1 for the
    British, no +1 for the Germans); the trench still bars a flank attack and
    the card is discarded after its combat, even won (one combat a turn)."""
    pos, (tanks,) = western_attack(trench_level=1, keys=[TANKS])
    mark_played(pos, LANDSHIPS)
    attack_cambrai(pos, uses("ap", tanks), dice=[6, 1])
    assert fired(pos, "ap") == (
        "ap fires with strength 4 on the Army table (shift 0), die 6 modified to 6: loss number 4")
    assert fired(pos, "cp") == (
        "cp fires with strength 5 on the Army table (shift 0), die 1 modified to 1: loss number 2")
    assert pile_of(pos, tanks) == "discard:ap"
    # without the card the trench shifts both columns
    pos2, _ = western_attack(trench_level=1)
    attack_cambrai(pos2, dice=[6, 1])
    assert "(shift -1)" in fired(pos2, "ap") and "(shift 1)" in fired(pos2, "cp")


@pytest.mark.card("AP 48")
@pytest.mark.rule("9.5.4.1")
def test_royal_tank_corps_only_after_landships():
    pos, (tanks,) = western_attack(trench_level=1, keys=[TANKS])
    attack_cambrai(pos, dice=[6, 1])
    assert not offered(pos, uses("ap", tanks))


@pytest.mark.card("AP 48")
@pytest.mark.rule("9.5.4.1")
def test_royal_tank_corps_only_for_the_british_on_clear_ground_in_france_or_belgium():
    pos, (tanks,) = western_attack(attackers=("FR 1",), trench_level=1, keys=[TANKS])
    mark_played(pos, LANDSHIPS)
    attack_cambrai(pos, dice=[6, 1])
    assert not offered(pos, uses("ap", tanks))
    # a forest space in Germany: Metz, attacked from Verdun
    pos = combat_position(10)
    pos.place("BR 1", "Verdun")
    pos.place("GE 1", "Metz")
    tanks, = hand(pos, "ap", card(pos, TANKS))
    mark_played(pos, LANDSHIPS)
    attack_from(pos, "Verdun")
    fight(pos, "ap", "attack Metz from Verdun", dice=[6, 1])
    assert any("ap fires" in line for line in pos.log())
    assert not offered(pos, uses("ap", tanks))


# ============================================================ AP 39 They Shall Not Pass
def verdun_defence(keys=(TSNP,), defender: str = "FR 1", where: str = "Verdun") -> tuple:
    """GE 1 and GE 2 (10 CF) in Metz attack Allied units in Verdun (fort 3)."""
    pos = combat_position(10)
    pos.place(defender, where)
    pos.place("GE 1", "Metz")
    pos.place("GE 2", "Metz")
    cards = hand(pos, "ap", *[card(pos, k) for k in keys])
    attack_from(pos, "Metz")
    return pos, cards


def attack_verdun(pos, *answers, dice=(3, 3), where: str = "Verdun") -> None:
    fight(pos, "cp", f"attack {where} from Metz", "from Metz: GE 1, GE 2", *answers, dice=list(dice))


@pytest.mark.card("AP 39")
@pytest.mark.rule("12.2.11")
def test_they_shall_not_pass_the_losing_defenders_stay_and_the_card_goes():
    """FR 1 and a French corps hold Verdun (3 + 1 + fort 3 = 7).  The Germans
    win (die 2 on the 9-11 column: 4, against the French 3): the survivors do
    not retreat, and only now is the card discarded (9.5.4.2)."""
    pos, (tsnp,) = verdun_defence()
    pos.place("FRc", "Verdun")
    attack_verdun(pos, uses("ap", tsnp), dice=[2, 1])
    assert any(line.startswith("combat won by cp") for line in pos.log())
    assert pos.units_at("Verdun") != [] and all(u.startswith("FR") for u in pos.units_at("Verdun"))
    assert not any("retreats to" in o for d in pos.asked for o in d.options)
    assert pile_of(pos, tsnp) == "discard:ap"


@pytest.mark.card("AP 39")
@pytest.mark.rule("12.2.11")
def test_they_shall_not_pass_stays_face_up_after_a_tie_and_serves_again():
    """A tie discards any other card, not this one (12.2.11); in a later
    action round it may be selected again for a French fort's defence."""
    pos, (tsnp,) = verdun_defence()
    attack_verdun(pos, uses("ap", tsnp), dice=[1, 1])
    assert any(line.startswith("combat won by none") for line in pos.log())
    assert pile_of(pos, tsnp) == "in_play:ap"
    at(pos, 10, 3)
    pos.asked.clear()
    attack_verdun(pos, uses("ap", tsnp), dice=[6, 1])
    assert pile_of(pos, tsnp) == "discard:ap"


@pytest.mark.card("AP 39")
@pytest.mark.rule("9.5.4.1")
def test_they_shall_not_pass_only_in_a_french_fort_space():
    # Amiens: French, but no fort
    pos = combat_position(10)
    pos.place("FR 1", "Amiens")
    pos.place("GE 1", "Cambrai")
    for s in ("Cambrai", "Sedan", "Brussels", "Liege"):
        pos.control(s, "cp")
    tsnp, = hand(pos, "ap", card(pos, TSNP))
    attack_from(pos, "Cambrai")
    fight(pos, "cp", "attack Amiens from Cambrai", dice=[2, 1])
    assert any("ap fires" in line for line in pos.log())
    assert not offered(pos, uses("ap", tsnp))
    # Liege: a fort, but Belgian
    pos = combat_position(10)
    pos.place("FR 1", "Liege")
    pos.place("GE 1", "Aachen")
    tsnp, = hand(pos, "ap", card(pos, TSNP))
    attack_from(pos, "Aachen")
    fight(pos, "cp", "attack Liege from Aachen", dice=[2, 1])
    assert any("ap fires" in line for line in pos.log())
    assert not offered(pos, uses("ap", tsnp))


@pytest.mark.card("AP 39")
@pytest.mark.rule("9.5.4.1")
def test_they_shall_not_pass_not_for_an_allied_attack():
    pos = combat_position(10)
    pos.place("FR 1", "Verdun")
    pos.place("GE 1", "Metz")
    tsnp, = hand(pos, "ap", card(pos, TSNP))
    attack_from(pos, "Verdun")
    fight(pos, "ap", "attack Metz from Verdun", dice=[2, 1])
    assert any("ap fires" in line for line in pos.log())
    assert not offered(pos, uses("ap", tsnp))


@pytest.mark.card("AP 39")
@pytest.mark.card("AP 6")
@pytest.mark.rule("12.6.4")
def test_they_shall_not_pass_does_not_cancel_the_withdrawal_retreat():
    """With Withdrawal played too, the defenders retreat one space as
    Withdrawal orders (12.6.4): They Shall Not Pass cancels only a retreat
    for losing."""
    pos, (tsnp, wd) = verdun_defence(keys=(TSNP, WITHDRAWAL))
    pos.place("FRc", "Verdun")
    attack_verdun(pos, uses("ap", tsnp), uses("ap", wd), dice=[2, 1])
    assert pos.units_at("Verdun") == []


# ============================================================ AP 63 Backs To The Wall
@pytest.mark.card("AP 63")
@pytest.mark.rule("12.5.1")
def test_backs_to_the_wall_cancels_the_retreat_of_a_british_army():
    """BR 1 (4-3-3) in Verdun with its fort (4 + 3 = 7) loses to GE 1 and
    GE 2 (die 2: loss number 4 against 3) and stays; the starred card leaves
    the game."""
    pos, (backs,) = verdun_defence(keys=(BACKS,), defender="BR 1")
    attack_verdun(pos, uses("ap", backs), dice=[2, 1])
    assert any(line.startswith("combat won by cp") for line in pos.log())
    assert pos.units_at("Verdun") == ["BR 1"]
    assert pile_of(pos, backs) == "removed:ap"
    # the same combat without the card: BR 1 retreats
    pos2, _ = verdun_defence(keys=(), defender="BR 1")
    attack_verdun(pos2, dice=[2, 1])
    assert pos2.units_at("Verdun") == []


@pytest.mark.card("AP 63")
@pytest.mark.card("AP 6")
@pytest.mark.rule("12.6.4")
def test_backs_to_the_wall_prevails_over_withdrawal():
    """Both Allied cards replace the retreat: Withdrawal orders one, Backs To
    The Wall cancels it.  The card's modifier is declared `after` Withdrawal's,
    so the British army holds even after a won combat."""
    pos, (backs, wd) = verdun_defence(keys=(BACKS, WITHDRAWAL), defender="BR 1")
    attack_verdun(pos, uses("ap", wd), uses("ap", backs), dice=[1, 6])
    assert any(line.startswith("combat won by ap") for line in pos.log())
    assert pos.units_at("Verdun") == ["BR 1"]
    # Withdrawal alone: a one-space retreat, though the Allies won
    pos2, (wd2,) = verdun_defence(keys=(WITHDRAWAL,), defender="BR 1")
    attack_verdun(pos2, uses("ap", wd2), dice=[1, 6])
    assert pos2.units_at("Verdun") == []


@pytest.mark.card("AP 63")
@pytest.mark.rule("9.5.4.1")
@pytest.mark.parametrize("defender, where", [
    ("BRc", "Verdun"),     # no British army
    ("FR 1", "Verdun"),    # no British army
])
def test_backs_to_the_wall_needs_a_british_army(defender, where):
    pos, (backs,) = verdun_defence(keys=(BACKS,), defender=defender, where=where)
    attack_verdun(pos, dice=[2, 1])
    assert not offered(pos, uses("ap", backs))


@pytest.mark.card("AP 63")
@pytest.mark.rule("9.5.4.1")
def test_backs_to_the_wall_only_in_france_or_belgium_and_in_defence():
    pos = combat_position(10)
    at_war(pos, "it")
    pos.place("BR 1", "Asiago")
    pos.place("AH 1", "Trent")
    backs, = hand(pos, "ap", card(pos, BACKS))
    attack_from(pos, "Trent")
    fight(pos, "cp", "attack Asiago from Trent", dice=[6, 1])
    assert any("ap fires" in line for line in pos.log())
    assert not offered(pos, uses("ap", backs))
    pos, (backs,) = western_attack(keys=[BACKS])
    attack_cambrai(pos, dice=[6, 1])
    assert not offered(pos, uses("ap", backs))


# ============================================================ AP 61 Maude
def mesopotamia(attackers=("BRc",), where: str = "Basra") -> tuple:
    """British units in Basra (an Allied port) attack a Turkish corps in Qurna."""
    pos = combat_position(10)
    at_war(pos, "tu")
    for u in attackers:
        pos.place(u, where)
    pos.place("TUc", "Qurna")
    maude, = hand(pos, "ap", card(pos, MAUDE))
    attack_from(pos, where)
    return pos, maude


@pytest.mark.card("AP 61")
@pytest.mark.rule("12.2.8")
def test_maude_british_corps_fire_on_the_army_table():
    """A British corps (2 CF) fires on the Army table's 2 column: die 3 gives
    loss number 2 (1 on the Corps/Fort table).  Starred: it leaves the game."""
    pos, maude = mesopotamia()
    fight(pos, "ap", "attack Qurna from Basra", uses("ap", maude), dice=[3, 1])
    assert fired(pos, "ap") == (
        "ap fires with strength 2 on the Army table (shift 0), die 3 modified to 3: loss number 2")
    assert pile_of(pos, maude) == "removed:ap"
    pos2, _ = mesopotamia()
    fight(pos2, "ap", "attack Qurna from Basra", dice=[3, 1])
    assert fired(pos2, "ap") == (
        "ap fires with strength 2 on the Corps/Fort table (shift 0), die 3 modified to 3: loss number 1")


@pytest.mark.card("AP 61")
@pytest.mark.rule("9.5.4.1")
def test_maude_not_without_supply_through_basra():
    """Basra in Turkish hands: no British supply runs through it."""
    pos, maude = mesopotamia(where="Ahwaz")
    pos.control("Basra", "cp")
    fight(pos, "ap", "attack Qurna from Ahwaz", dice=[3, 1])
    assert any("ap fires" in line for line in pos.log())
    assert not offered(pos, uses("ap", maude))


@pytest.mark.card("AP 61")
@pytest.mark.rule("9.5.4.1")
def test_maude_not_for_a_british_attack_in_france():
    pos, (maude,) = western_attack(attackers=("BRc",), keys=[MAUDE])
    attack_cambrai(pos, dice=[3, 1])
    assert any("ap fires" in line for line in pos.log())
    assert not offered(pos, uses("ap", maude))


# ============================================================ AP 27 Great Retreat: the evaded attack
FALL_BACK = "Russians fall back from"


def great_retreat_turn(turn: int = 6):
    pos = combat_position(turn)
    at(pos, turn, 1)
    pos.play_event("ap", card(pos, GREAT_RETREAT))
    at(pos, turn, 2)
    return pos


def declared(pos) -> list[list[str]]:
    return [d.options for d in pos.asked if d.choice == "declare_attack"]


@pytest.mark.card("AP 27")
@pytest.mark.rule("12.1.6")
@pytest.mark.rule("12.1.2")
def test_great_retreat_the_evaded_attack_was_made():
    """GE 8 attacks Lodz from Thorn; the Russians fall back to Plock.  The
    attack counts as made (12.1.6): GE 8 may not attack again in the action
    and Lodz may not be attacked again; Plock, held only by the Russians who
    just retreated, may not be attacked (12.1.2); GE 9, which did not take
    part, may still attack Tannenberg, without GE 8."""
    pos = great_retreat_turn()
    pos.place("RU 1", "Lodz")
    pos.place("RUc", "Tannenberg")
    pos.control("Tannenberg", "ap")
    pos.place("GE 8", "Thorn")
    pos.place("GE 9", "Thorn")
    attack_from(pos, "Thorn")
    fight(pos, "cp", "attack Lodz from Thorn", "from Thorn: GE 8", FALL_BACK, "RU 1 retreats to Plock",
          "stop advancing", "attack Tannenberg from Thorn", "stand and fight", dice=[1, 1])
    assert pos.units_at("Plock") == ["RU 1"]
    after = declared(pos)[1]
    assert "attack Tannenberg from Thorn" in after
    assert not any("Lodz" in o or "Plock" in o for o in after)
    assert len([d for d in pos.asked if d.choice == "attack_with"]) == 1  # then GE 9 alone: no choice
    assert "cp attacks Tannenberg with strength 5 against 1" in pos.log()
    assert not any(line.startswith("cp attacks Lodz") for line in pos.log())


@pytest.mark.card("AP 27")
@pytest.mark.rule("12.5.6")
def test_great_retreat_all_the_russians_of_an_attacked_space_fall_back():
    """RU 1 falls back from Lodz into Plock, where a Russian corps stands;
    attacked there in the same action, the Russians may fall back again, and
    RU 1, which had already retreated, goes with the corps: the space is left
    empty and GE 9 advances into it."""
    pos = great_retreat_turn()
    pos.place("RU 1", "Lodz")
    pos.place("RUc", "Plock")
    pos.place("GE 8", "Posen")
    pos.place("GE 9", "Thorn")
    attack_from(pos, "Posen", "Thorn")
    fight(pos, "cp", "attack Lodz from Posen", "no units from there", FALL_BACK, "RU 1 retreats to Plock",
          "advance GE 8 into Lodz", "attack Plock from Thorn", FALL_BACK, "advance GE 9 into Plock")
    assert pos.units_at("Plock") == ["GE 9"]
    assert sorted(pos.units_at("Warsaw") + pos.units_at("Lomza") + pos.units_at("Tannenberg")) == ["RU 1", "RUc"]
    assert not any(line.startswith("ap fires") or line.startswith("cp fires") for line in pos.log())


@pytest.mark.card("AP 27")
@pytest.mark.rule("12.7.1")
def test_great_retreat_only_full_strength_attackers_advance():
    pos = great_retreat_turn()
    pos.place("RU 1", "Lodz")
    pos.place("GE 8", "Posen", reduced=True)
    pos.place("GE 9", "Posen")
    attack_from(pos, "Posen")
    fight(pos, "cp", "attack Lodz from Posen", "from Posen: GE 8, GE 9", FALL_BACK, "RU 1 retreats to Warsaw",
          "advance GE 9 into Lodz")
    advances = [d.options for d in pos.asked if d.choice == "advance_unit"]
    assert advances and all("GE 8" not in o for opts in advances for o in opts)
    assert pos.units_at("Lodz") == ["GE 9"]
    assert pos.units_at("Posen") == ["GE 8"]
