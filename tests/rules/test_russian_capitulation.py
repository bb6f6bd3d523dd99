"""Rule 16.4, Russian Capitulation: the CP-held Russian VP count (16.4.2), the
track's Allowed boxes for Tsar Takes Command (16.4.3), Fall of the Tsar
(16.4.4) and Bolshevik Revolution (16.4.6), what each event does (16.4.5,
16.4.7, 16.4.8) and the limits on Russian units after Brest-Litovsk (16.4.9).

The card events call tsar_takes_command(), fall_of_the_tsar(),
bolshevik_revolution() and treaty_of_brest_litovsk(); the cards' `playable
when` read the may_play_... values checked here."""

import pytest

from pogdsl.runtime import builtins as B
from pogdsl.runtime.errors import IllegalOption

from .harness import Position, Unanswered

# The Campaign's Russian VP spaces (5.7.2 adds Minsk; Kovno is not one).
SEVEN = ["Warsaw", "Lodz", "Riga", "Vilna", "Minsk", "Kiev", "Odessa"]


def value(pos, name, *args):
    pos.game.invalidate()
    v = B.value_of(pos.game, name, tuple(pos._value(a) if isinstance(a, str) else a for a in args))
    return getattr(v, "key", v)


def take(pos, *spaces):
    for s in spaces:
        pos.control(s, "cp")


def war_status(pos, cp, ap):
    pos.set("war_status", cp, key="cp")
    pos.set("war_status", ap, key="ap")


def turn(pos, t):
    pos.s["turn"] = t
    pos.game.invalidate()


# ----------------------------------------------------------------- 16.4.2 / 16.4.3
@pytest.mark.rule("16.4.2")
def test_16_4_2_the_cp_count_of_russian_vp_spaces_goes_up_and_down():
    pos = Position()
    assert value(pos, "russian_vp_spaces_held_by_cp") == 0
    take(pos, "Warsaw", "Lodz", "Baku")
    assert value(pos, "russian_vp_spaces_held_by_cp") == 3
    pos.control("Lodz", "ap")
    assert value(pos, "russian_vp_spaces_held_by_cp") == 2


@pytest.mark.rule("16.4.3")
def test_16_4_3_tsar_takes_command_allowed_at_three_and_back_below_three():
    pos = Position()
    take(pos, "Warsaw", "Lodz")
    assert value(pos, "capitulation_marker") == "god_save_the_tsar"
    assert value(pos, "may_play_tsar_takes_command") is False
    take(pos, "Riga")
    assert value(pos, "capitulation_marker") == "tsar_command_allowed"
    assert value(pos, "may_play_tsar_takes_command") is True
    pos.control("Riga", "ap")
    assert value(pos, "capitulation_marker") == "god_save_the_tsar"


# ----------------------------------------------------------------- 16.4.4 / 16.4.5
@pytest.mark.rule("16.4.4")
def test_16_4_4_fall_of_the_tsar_needs_tsar_takes_command_and_33():
    pos = Position()
    take(pos, "Warsaw", "Lodz", "Riga")
    war_status(pos, 16, 14)  # 30 + 3 = 33
    assert value(pos, "may_play_fall_of_the_tsar") is False  # Tsar Takes Command not played yet
    assert value(pos, "tsar_has_taken_command") is False
    pos.run("tsar_takes_command")
    assert value(pos, "tsar_has_taken_command") is True
    assert value(pos, "capitulation_marker") == "tsar_fall_allowed"
    assert value(pos, "may_play_fall_of_the_tsar") is True
    assert value(pos, "may_play_tsar_takes_command") is False
    pos.control("Riga", "ap")  # 30 + 2 = 32: back to the Tsar Takes Command box
    assert value(pos, "capitulation_marker") == "tsar_took_command"
    assert value(pos, "may_play_fall_of_the_tsar") is False


@pytest.mark.rule("16.4.5")
def test_16_4_5_fall_of_the_tsar_records_the_russian_vp_count():
    pos = Position()
    turn(pos, 13)
    take(pos, "Warsaw", "Lodz", "Riga", "Vilna")
    pos.run("tsar_takes_command")
    pos.run("fall_of_the_tsar")
    assert pos.var("tsar_fell_vp") == 4
    assert pos.var("tsar_fell_turn") == 13
    assert value(pos, "capitulation_marker") == "tsar_fell"
    assert value(pos, "tsar_has_fallen") is True
    assert value(pos, "bolsheviks_in_power") is False


@pytest.mark.rule("16.4.5")
def test_16_4_5_after_the_fall_russian_attacks_cost_one_point_a_unit():
    """Two Russian corps and a French one in Warsaw: 2 nationalities, so 2 points; after the
    Fall of the Tsar an attack costs one per Russian unit (2) plus one for the French: 3."""
    pos = Position()
    pos.place("RUc", "Warsaw")
    pos.place("RUc", "Warsaw")
    pos.place("FRc", "Warsaw")
    assert value(pos, "activation_cost", "Warsaw", "ap", "attack") == 2
    pos.run("tsar_takes_command")
    pos.run("fall_of_the_tsar")
    assert value(pos, "activation_cost", "Warsaw", "ap", "attack") == 3
    assert value(pos, "activation_cost", "Warsaw", "ap", "move") == 2


# ----------------------------------------------------------------- 16.4.6 / 16.4.7
def fallen(pos, held):
    take(pos, *held)
    turn(pos, 14)
    pos.run("tsar_takes_command")
    pos.run("fall_of_the_tsar")


@pytest.mark.rule("16.4.6")
def test_16_4_6_bolshevik_revolution_needs_a_later_turn_and_one_more_vp_space():
    pos = Position()
    fallen(pos, ["Warsaw", "Lodz", "Riga"])
    take(pos, "Vilna")
    assert value(pos, "capitulation_marker") == "bolshevik_allowed"
    assert value(pos, "may_play_bolshevik_revolution") is False  # same turn as the fall
    turn(pos, 15)
    assert value(pos, "may_play_bolshevik_revolution") is True
    pos.control("Vilna", "ap")
    assert value(pos, "capitulation_marker") == "tsar_fell"
    assert value(pos, "may_play_bolshevik_revolution") is False


@pytest.mark.rule("16.4.6")
def test_16_4_6_a_captured_baku_counts():
    pos = Position()
    fallen(pos, ["Warsaw", "Lodz", "Riga"])
    turn(pos, 15)
    take(pos, "Baku")
    assert value(pos, "may_play_bolshevik_revolution") is True


@pytest.mark.rule("16.4.6")
def test_16_4_6_all_seven_russian_vp_spaces_besides_baku():
    """All seven were already held when the Tsar fell: the count cannot rise (Baku aside),
    but holding all seven is enough."""
    pos = Position()
    fallen(pos, SEVEN)
    turn(pos, 15)
    assert value(pos, "russian_vp_spaces_held_by_cp") == 7
    assert value(pos, "may_play_bolshevik_revolution") is True
    pos.control("Kiev", "ap")
    assert value(pos, "may_play_bolshevik_revolution") is False


@pytest.mark.rule("16.4.7")
@pytest.mark.rule("7.1.11")
def test_16_4_7_bolshevik_revolution_and_7_1_11_russian_mos():
    pos = Position()
    fallen(pos, ["Warsaw", "Lodz", "Riga", "Vilna"])
    turn(pos, 15)
    pos.run("bolshevik_revolution")
    assert value(pos, "capitulation_marker") == "bolsheviks_rose"
    assert pos.var("bolshevik_revolution_played") is True


@pytest.mark.rule("16.4.7")
def test_16_4_7_at_most_one_russian_rp_a_turn():
    pos = Position()
    pos.set("rp_points", 3, key="ru")
    pos.set("rp_points", 4, key="fr")
    pos.set("russian_capitulation", "bolsheviks_rose")
    pos.s["stack"] = []
    pos.game.emit("phase_started", (pos.w.names["replacement"],))
    assert pos.game.run() is None
    assert pos.var("rp_points", "ru") == 1
    assert pos.var("rp_points", "fr") == 4


@pytest.mark.rule("16.4.7")
def test_16_4_7_no_limit_before_the_revolution():
    pos = Position()
    pos.set("rp_points", 3, key="ru")
    pos.s["stack"] = []
    pos.game.emit("phase_started", (pos.w.names["replacement"],))
    assert pos.game.run() is None
    assert pos.var("rp_points", "ru") == 3


# ----------------------------------------------------------------- 16.4.8 / 16.4.9
@pytest.mark.rule("16.4.8")
def test_16_4_8_brest_litovsk_any_time_after_the_revolution():
    pos = Position()
    assert value(pos, "may_play_brest_litovsk") is False
    fallen(pos, ["Warsaw", "Lodz", "Riga", "Vilna"])
    turn(pos, 15)
    pos.run("bolshevik_revolution")
    assert value(pos, "may_play_brest_litovsk") is True


@pytest.mark.rule("16.4.9")
def test_16_4_9_russians_abroad_or_with_allies_are_eliminated():
    pos = Position()
    pos.place("RU 1", "Kiev")             # Russia: stays
    pos.place("RU 2", "Lemberg")          # Austria-Hungary: stays
    pos.place("RU 3", "Bucharest")        # Romania: stays
    pos.place("RU 4", "Belgrade")         # Serbia: eliminated
    pos.place("RU 5", "Odessa")           # with a French corps: interned
    pos.place("FRc", "Odessa")
    pos.run("treaty_of_brest_litovsk")
    assert value(pos, "capitulation_marker") == "brest_litovsk_signed"
    assert pos.units_at("Kiev") == ["RU 1"]
    assert pos.units_at("Lemberg") == ["RU 2"]
    assert pos.units_at("Bucharest") == ["RU 3"]
    assert pos.units_at("Belgrade") == []
    assert pos.units_at("Odessa") == ["FRc"]
    assert sorted(pos.units_at("eliminated[ap]")) == ["RU 4", "RU 5"]


def brest_position():
    pos = Position()
    pos.set("russian_capitulation", "brest_litovsk_signed")
    return pos


@pytest.mark.rule("16.4.9")
def test_16_4_9_russians_may_not_leave_the_five_nations():
    pos = brest_position()
    pos.control("Timisvar", "ap")
    pos.place("RUc", "Timisvar")
    pos.activate("Timisvar", "move")
    with pytest.raises(IllegalOption, match="russians_stay_home"):
        pos.run("move_activated_units", "ap", answers=["move RUc from Timisvar", "move to Belgrade"])


@pytest.mark.rule("16.4.9")
def test_16_4_9_russians_and_allies_keep_apart():
    pos = brest_position()
    pos.place("BRc", "Kiev")
    pos.place("RUc", "Zhitomir")
    pos.activate("Zhitomir", "move")
    with pytest.raises(IllegalOption, match="russians_stay_home"):
        pos.run("move_activated_units", "ap", answers=["move RUc from Zhitomir", "move to Kiev"])


@pytest.mark.rule("16.4.9")
def test_16_4_9_russians_may_not_attack():
    pos = brest_position()
    pos.place("RUc", "Kiev")
    pos.place("FRc", "Paris")
    pos.game.ask_forced = True
    with pytest.raises(Unanswered):
        pos.run("operations", "ap", 2, None)
    options = pos.asked[-1].options
    assert "activate Kiev move" in options
    assert "activate Kiev attack" not in options
    assert "activate Paris attack" in options


@pytest.mark.rule("16.4.9")
def test_16_4_9_only_turks_on_the_near_east_map_may_attack_russians():
    pos = brest_position()
    pos.place("RUc", "Erzerum")
    pos.place("RUc", "Kiev")
    tu = [pos.entity("unit", "TU YLD")]
    ge = [pos.entity("unit", "GE 1")]
    assert value(pos, "attack_on_russians_barred", tu, "Erzerum") is False
    assert value(pos, "attack_on_russians_barred", ge, "Erzerum") is True
    assert value(pos, "attack_on_russians_barred", tu, "Kiev") is True


@pytest.mark.rule("16.4.9")
def test_16_4_9_no_redeploying_russians_next_to_allies():
    """Strategic redeployment may not put a Russian unit where another Allied unit stands."""
    pos = brest_position()
    pos.place("BRc", "Kiev")
    ru = pos.place("RUc", "Moscow")
    forbidding = pos.game._forbidden("redeploy_to", (pos.entity("side", "ap"), ru,
                                                     pos.entity("sr_mode", "overland"), pos.entity("space", "Kiev")))
    assert "russians_redeploy_apart" in [d.key for d in forbidding]
    forbidding = pos.game._forbidden("redeploy_to", (pos.entity("side", "ap"), ru,
                                                     pos.entity("sr_mode", "overland"), pos.entity("space", "Odessa")))
    assert "russians_redeploy_apart" not in [d.key for d in forbidding]
