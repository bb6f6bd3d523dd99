"""The reinforcement cards and the cards that add units (group `reinf`).

Rule 9.5.3 is the oracle: corps go to the Reserve Box (9.5.3.2), armies enter
at a friendly capital or supply source of their nation in supply (9.5.3.3),
the Allied Near East armies go where their card directs or at home (9.5.3.4),
and a card is refused in August 1914, a second time for a nation in a turn,
or when its units cannot all be placed (9.5.3.1).  The ANA and the Senussi are
placed where their cards say and take or hold their space as the movement
chapter says (11.1.15, 11.1.16).  US cards wait for the turn after Over There
(16.3.4) and are shut by U-Boats Unleashed until Convoy."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pogdsl.runtime.errors import IllegalOption  # noqa: E402
from cards.test_card_events import at, control, first_options, pile_of, value  # noqa: E402
from rules.harness import Position  # noqa: E402


# ------------------------------------------------------------------ helpers
def at_war(pos: Position, *nations: str) -> None:
    for n in nations:
        pos.s["at_war"][n] = True
    pos.game.invalidate()


def mark_played(pos: Position, side: str, number: int) -> None:
    pos.s["played"].append(pos.card(side, number).index)
    pos.game.invalidate()


def open_us_reinforcements(pos: Position, over_there_turn: int) -> None:
    """Zimmermann Telegram and Over There played, the latter on `over_there_turn`."""
    at_war(pos, "us")
    pos.set("us_entry", "over_there_played")
    pos.set("over_there_turn", over_there_turn)


def forbidden(pos: Position, side: str, number: int) -> list[str]:
    return pos.event_forbidden_by(side, pos.card(side, number))


def play(pos: Position, side: str, number: int, answers=()) -> None:
    c = pos.card(side, number)
    assert pos.may_play_event(side, c), pos.event_forbidden_by(side, c)
    pos.game.ask_forced = bool(answers)  # a lone option is asked too, so each answer is checked
    try:
        pos.play_event(side, c, answers=answers)
    finally:
        pos.game.ask_forced = False


def fill(pos: Position, space: str, n: int = 3, unit: str = "RUc") -> None:
    for _ in range(n):
        pos.place(unit, space)


def loc_of(pos: Position, piece) -> int | None:
    return pos.s["loc"][piece.index]


# ============================================================ plain reinforcement cards
# (side, number, nations that must be at war, answers, where the units end up)
PLAIN = [
    pytest.param("ap", 1, (), ["place BR 2 at London"],
                 {"London": ["BR 2"], "reserve[ap]": ["BRc"]}, marks=pytest.mark.card("AP 1")),
    pytest.param("ap", 8, (), [], {"reserve[ap]": ["RUc", "RUc"]}, marks=pytest.mark.card("AP 8")),
    pytest.param("ap", 10, (), ["place FR 10 at Paris"], {"Paris": ["FR 10"]}, marks=pytest.mark.card("AP 10")),
    pytest.param("ap", 11, (), ["place RU 9 at Petrograd", "place RU 10 at Moscow"],
                 {"Petrograd": ["RU 9"], "Moscow": ["RU 10"]}, marks=pytest.mark.card("AP 11")),
    pytest.param("ap", 14, (), ["place BR 1 at London"],
                 {"London": ["BR 1"], "reserve[ap]": ["BRc"]}, marks=pytest.mark.card("AP 14")),
    pytest.param("ap", 15, (), ["place BR 4 at London"],
                 {"London": ["BR 4"], "reserve[ap]": ["BRc"]}, marks=pytest.mark.card("AP 15")),
    pytest.param("ap", 20, (), [], {"reserve[ap]": ["AUSc", "CNDc"]}, marks=pytest.mark.card("AP 20")),
    pytest.param("ap", 22, ("it",), ["place IT 5 at Rome"], {"Rome": ["IT 5"]}, marks=pytest.mark.card("AP 22")),
    pytest.param("ap", 24, (), ["place FR 7 at Paris"], {"Paris": ["FR 7"]}, marks=pytest.mark.card("AP 24")),
    pytest.param("ap", 25, (), ["place RU 6 at Moscow", "place RU 7 at Moscow"],
                 {"Moscow": ["RU 6", "RU 7"], "reserve[ap]": ["RUc", "RUc"]}, marks=pytest.mark.card("AP 25")),
    pytest.param("ap", 32, (), ["place RU 12 at Kharkov"], {"Kharkov": ["RU 12"]}, marks=pytest.mark.card("AP 32")),
    pytest.param("ap", 34, (), ["place BR 3 at London"],
                 {"London": ["BR 3"], "reserve[ap]": ["BRc", "BRc"]}, marks=pytest.mark.card("AP 34")),
    pytest.param("ap", 42, (), ["place BR 5 at London"],
                 {"London": ["BR 5"], "reserve[ap]": ["BRc", "PTc"]}, marks=pytest.mark.card("AP 42")),
    pytest.param("cp", 7, (), ["place GE 9 at Berlin"], {"Berlin": ["GE 9"]}, marks=pytest.mark.card("CP 7")),
    pytest.param("cp", 12, (), ["place GE 10 at Essen"],
                 {"Essen": ["GE 10"], "reserve[cp]": ["GEc", "GEc"]}, marks=pytest.mark.card("CP 12")),
    pytest.param("cp", 14, (), ["place AH 7 at Vienna"],
                 {"Vienna": ["AH 7"], "reserve[cp]": ["AHc", "AHc"]}, marks=pytest.mark.card("CP 14")),
    pytest.param("cp", 20, (), ["place AH 10 at Budapest"], {"Budapest": ["AH 10"]}, marks=pytest.mark.card("CP 20")),
    pytest.param("cp", 21, (), ["place GE 11 at Breslau"],
                 {"Breslau": ["GE 11"], "reserve[cp]": ["GEc"]}, marks=pytest.mark.card("CP 21")),
    pytest.param("cp", 22, (), ["place GE 12 at Berlin"],
                 {"Berlin": ["GE 12"], "reserve[cp]": ["GEc"]}, marks=pytest.mark.card("CP 22")),
    pytest.param("cp", 23, (), ["place AH 11 at Vienna"], {"Vienna": ["AH 11"]}, marks=pytest.mark.card("CP 23")),
    pytest.param("cp", 38, (), [], {"reserve[cp]": ["GEc", "GEc"]}, marks=pytest.mark.card("CP 38")),
    pytest.param("cp", 39, (), [], {"reserve[cp]": ["GEc", "GEc"]}, marks=pytest.mark.card("CP 39")),
    pytest.param("cp", 41, (), ["place GE 14 at Berlin"], {"Berlin": ["GE 14"]}, marks=pytest.mark.card("CP 41")),
    pytest.param("cp", 42, ("tu",), ["place TU YLD at Constantinople"],
                 {"Constantinople": ["TU YLD"]}, marks=pytest.mark.card("CP 42")),
    pytest.param("cp", 46, (), ["place GE 17 at Berlin", "place GE 18 at Essen"],
                 {"Berlin": ["GE 17"], "Essen": ["GE 18"]}, marks=pytest.mark.card("CP 46")),
    pytest.param("cp", 48, ("tu",), ["place TU AoI at Constantinople"],
                 {"Constantinople": ["TU AoI"]}, marks=pytest.mark.card("CP 48")),
]

US = [
    pytest.param(38, ["reserve[ap]"], [], {"reserve[ap]": ["USc"]}, marks=pytest.mark.card("AP 38")),
    pytest.param(43, [], ["place US 1 at Cherbourg"],
                 {"Cherbourg": ["US 1"], "reserve[ap]": ["USc", "USc"]}, marks=pytest.mark.card("AP 43")),
    pytest.param(47, [], ["place US 2 at Le Havre"],
                 {"Le Havre": ["US 2"], "reserve[ap]": ["USc"]}, marks=pytest.mark.card("AP 47")),
    pytest.param(64, [], [], {"reserve[ap]": ["USc", "USc"]}, marks=pytest.mark.card("AP 64")),
]


def reinforcement_nation(pos: Position, side: str, number: int) -> str:
    return value(pos, "reinforcement_nation", pos.card(side, number))


@pytest.mark.rule("9.5.3.2")
@pytest.mark.rule("9.5.3.3")
@pytest.mark.parametrize("side, number, nations, answers, expected", PLAIN)
def test_plain_reinforcement_card_places_its_units(side, number, nations, answers, expected):
    """Armies where the player puts them among the entry spaces of 9.5.3.3,
    corps in the Reserve Box; the card leaves the game and uses up its
    nation's reinforcement for the turn."""
    pos = Position()
    at(pos, 5)
    at_war(pos, *nations)
    play(pos, side, number, answers)
    for where_, units in expected.items():
        assert pos.units_at(where_) == sorted(units), where_
    assert pile_of(pos, pos.card(side, number)) == f"removed:{side}"
    assert pos.var("reinforcement_turn", reinforcement_nation(pos, side, number)) == 5


@pytest.mark.rule("9.5.3.1")
@pytest.mark.parametrize("side, number, nations, answers, expected", PLAIN)
def test_plain_reinforcement_card_not_in_august_1914(side, number, nations, answers, expected):
    pos = Position()
    at(pos, 1)
    at_war(pos, *nations)
    assert "reinforcement_play" in forbidden(pos, side, number)
    at(pos, 2)
    assert pos.may_play_event(side, pos.card(side, number))


@pytest.mark.rule("9.5.3.1")
@pytest.mark.parametrize("side, number, nations, answers, expected", PLAIN)
def test_plain_reinforcement_card_once_a_turn_for_its_nation(side, number, nations, answers, expected):
    pos = Position()
    at(pos, 6)
    at_war(pos, *nations)
    pos.set("reinforcement_turn", 6, key=reinforcement_nation(pos, side, number))
    assert "reinforcement_play" in forbidden(pos, side, number)
    pos.set("reinforcement_turn", 5, key=reinforcement_nation(pos, side, number))
    assert pos.may_play_event(side, pos.card(side, number))


@pytest.mark.card("AP 11")
@pytest.mark.rule("9.5.3.1")
def test_two_armies_need_room_for_both():
    """RU 9 and RU 10: with a single Russian entry space left holding two units
    there is room for one army only, so the card is refused (a card with one
    army, RU 12, is still allowed)."""
    pos = Position()
    at(pos, 4)
    for s in ("Petrograd", "Moscow", "Kharkov"):
        fill(pos, s)
    fill(pos, "Caucasus", 2)
    assert "reinforcement_play" in forbidden(pos, "ap", 11)
    assert pos.may_play_event("ap", pos.card("ap", 32))


@pytest.mark.card("CP 46")
@pytest.mark.rule("9.5.3.3")
def test_a_second_army_of_the_card_may_not_overstack_the_first_ones_space():
    pos = Position()
    at(pos, 12)
    fill(pos, "Berlin", 2, "GEc")
    with pytest.raises(IllegalOption, match="reinforcement_placement"):
        pos.play_event("cp", pos.card("cp", 46), answers=["place GE 17 at Berlin", "place GE 18 at Berlin"])


@pytest.mark.card("AP 10")
@pytest.mark.rule("9.5.3.3")
def test_french_army_at_orleans_only_when_paris_is_full():
    pos = Position()
    at(pos, 4)
    pos.game.ask_forced = True
    with pytest.raises(IllegalOption, match="reinforcement_placement"):
        pos.play_event("ap", pos.card("ap", 10), answers=["place FR 10 at Orleans"])
    pos = Position()
    at(pos, 4)
    fill(pos, "Paris", 3, "FRc")
    play(pos, "ap", 10, ["place FR 10 at Orleans"])
    assert pos.units_at("Orleans") == ["FR 10"]


@pytest.mark.card("AP 22")
@pytest.mark.rule("9.5.1.1")
def test_italian_reinforcements_only_once_italy_is_at_war():
    pos = Position()
    at(pos, 6)
    assert "playable_events" in forbidden(pos, "ap", 22)
    at_war(pos, "it")
    assert forbidden(pos, "ap", 22) == []


# ============================================================ US reinforcements
@pytest.mark.rule("16.3.4")
@pytest.mark.parametrize("number, _unused, answers, expected", US)
def test_us_card_places_its_units_the_turn_after_over_there(number, _unused, answers, expected):
    pos = Position()
    at(pos, 15)
    open_us_reinforcements(pos, 14)
    play(pos, "ap", number, answers)
    for where_, units in expected.items():
        assert pos.units_at(where_) == sorted(units)
    assert pos.var("reinforcement_turn", "us") == 15


@pytest.mark.rule("16.3.3")
@pytest.mark.rule("16.3.4")
@pytest.mark.parametrize("number, _unused, answers, expected", US)
def test_us_card_closed_until_the_turn_after_over_there(number, _unused, answers, expected):
    """At war after Zimmermann Telegram but before Over There: refused; Over
    There played this turn (through its procedure): still refused; next turn:
    allowed."""
    pos = Position()
    at(pos, 14)
    at_war(pos, "us")
    pos.set("us_entry", "telegram_played")
    assert "us_reinforcements_need_over_there" in forbidden(pos, "ap", number)
    pos.run("over_there")
    assert "us_reinforcements_need_over_there" in forbidden(pos, "ap", number)
    at(pos, 15)
    assert forbidden(pos, "ap", number) == []


@pytest.mark.rule("9.5.1.1")
@pytest.mark.parametrize("number, _unused, answers, expected", US)
def test_us_card_shut_by_u_boats_unleashed_until_convoy(number, _unused, answers, expected):
    pos = Position()
    at(pos, 16)
    open_us_reinforcements(pos, 14)
    mark_played(pos, "cp", 36)  # U-Boats Unleashed
    assert forbidden(pos, "ap", number) == ["us_reinforcements_under_u_boats"]
    mark_played(pos, "ap", 52)  # Convoy
    assert forbidden(pos, "ap", number) == []


@pytest.mark.card("AP 43")
@pytest.mark.rule("9.5.3.3")
def test_us_army_lands_only_at_an_allied_port_in_france():
    pos = Position()
    at(pos, 15)
    open_us_reinforcements(pos, 14)
    pos.control("Cherbourg", "cp")
    options = first_options(pos, "play_as_event", "ap", pos.card("ap", 43))
    assert "place US 1 at Le Havre" in options
    assert "place US 1 at Cherbourg" not in options
    assert "place US 1 at Paris" not in options


# ============================================================ AP 29 Yudenitch
@pytest.mark.card("AP 29")
@pytest.mark.rule("9.5.3.3")
@pytest.mark.rule("9.5.3.4")
def test_yudenitch_places_the_caucasus_army_in_russia_on_the_near_east_map():
    pos = Position()
    at(pos, 8)
    pos.control("Kars", "cp")
    options = first_options(pos, "play_as_event", "ap", pos.card("ap", 29))
    assert {"place RU CAU at Tbilisi", "place RU CAU at Baku", "place RU CAU at Erivan"} <= set(options)
    assert "place RU CAU at Kars" not in options  # not Allied
    assert "place RU CAU at Petrograd" in options  # at home, 9.5.3.4
    assert not any(o.endswith(" at Warsaw") or o.endswith(" at Erzerum") for o in options)
    play(pos, "ap", 29, ["place RU CAU at Tbilisi"])
    cau = pos.entity("unit", "RU CAU")
    assert pos.units_at("Tbilisi") == ["RU CAU"]
    assert pos.var("entered_at_home", str(cau.index)) is False


@pytest.mark.card("AP 29")
@pytest.mark.rule("9.5.3.4")
def test_yudenitch_at_home_gives_up_the_near_east():
    pos = Position()
    at(pos, 8)
    play(pos, "ap", 29, ["place RU CAU at Moscow"])
    cau = pos.entity("unit", "RU CAU")
    assert pos.units_at("Moscow") == ["RU CAU"]
    assert pos.var("entered_at_home", str(cau.index)) is True


@pytest.mark.card("AP 29")
@pytest.mark.rule("9.5.3.1")
def test_yudenitch_refused_with_no_room_anywhere():
    pos = Position()
    at(pos, 8)
    for s in ("Poti", "Batum", "Kars", "Grozny", "Petrovsk", "Tbilisi", "Elizabethpol", "Baku", "Erivan"):
        pos.control(s, "cp")
    for s in ("Petrograd", "Moscow", "Kharkov"):
        fill(pos, s)
    fill(pos, "Caucasus", 3)
    assert "reinforcement_play" in forbidden(pos, "ap", 29)
    for s in ("Poti", "Batum", "Kars", "Grozny", "Petrovsk", "Tbilisi", "Elizabethpol", "Baku", "Erivan"):
        pos.control(s, "ap")
    assert forbidden(pos, "ap", 29) == []


# ============================================================ AP 41 Arab Northern Army
@pytest.mark.card("AP 41")
@pytest.mark.rule("9.5.3.2")
def test_arab_northern_army_placed_in_arabia_not_the_reserve_box():
    pos = Position()
    at(pos, 12)
    at_war(pos, "tu")
    play(pos, "ap", 41)
    assert pos.units_at("Arabia") == ["BR ANAc"]
    assert pos.units_at("reserve[ap]") == []
    assert control(pos, "Arabia") == "ap"
    assert pos.var("ana_hold") is None
    assert pos.var("reinforcement_turn", "br") == 12


@pytest.mark.card("AP 41")
@pytest.mark.rule("9.5.1.1")
def test_arab_northern_army_needs_turkey_at_war():
    pos = Position()
    at(pos, 12)
    assert "playable_events" in forbidden(pos, "ap", 41)
    at_war(pos, "tu")
    assert forbidden(pos, "ap", 41) == []


@pytest.mark.card("AP 41")
@pytest.mark.rule("9.5.3.1")
def test_arab_northern_army_counts_as_the_british_reinforcement_of_the_turn():
    pos = Position()
    at(pos, 12)
    at_war(pos, "tu")
    pos.set("reinforcement_turn", 12, key="br")
    assert "reinforcement_play" in forbidden(pos, "ap", 41)


@pytest.mark.card("AP 41")
@pytest.mark.rule("11.1.15")
def test_arab_northern_army_placed_in_a_cp_arabia_only_holds_it():
    """Were Arabia in Central Powers hands, the ANA placed there holds it for the
    Allies only while it stays: the space goes back when the ANA is gone."""
    pos = Position()
    at(pos, 12)
    at_war(pos, "tu")
    pos.control("Arabia", "cp")
    play(pos, "ap", 41)
    assert control(pos, "Arabia") == "ap"
    assert pos.var("ana_hold") == "Arabia"
    ana = pos.entity("unit", "BR ANAc")
    pos.run("enter_space", "ap", [ana], "Medina")  # the ANA moves on
    assert control(pos, "Arabia") == "cp"


# ============================================================ AP 50 Allenby
@pytest.mark.card("AP 50")
@pytest.mark.rule("9.5.3.3")
def test_allenby_after_sinai_pipeline_lands_in_alexandria():
    pos = Position()
    at(pos, 14)
    at_war(pos, "tu")
    mark_played(pos, "ap", 49)  # Sinai Pipeline
    options = first_options(pos, "play_as_event", "ap", pos.card("ap", 50))
    assert "place BR NE at Alexandria" in options
    play(pos, "ap", 50, ["place BR NE at Alexandria"])
    ne = pos.entity("unit", "BR NE")
    assert pos.units_at("Alexandria") == ["BR NE"]
    assert pos.var("entered_at_home", str(ne.index)) is False
    assert pos.var("war_status", "ap") == 1


@pytest.mark.card("AP 50")
@pytest.mark.rule("9.5.3.4")
def test_allenby_before_sinai_pipeline_only_at_home():
    """9.5.3.4 sets the card's own entry condition aside for an army entered at
    home, and lets Sinai Pipeline follow such an Allenby: Alexandria is closed
    but London is open."""
    pos = Position()
    at(pos, 14)
    at_war(pos, "tu")
    options = first_options(pos, "play_as_event", "ap", pos.card("ap", 50))
    assert "place BR NE at Alexandria" not in options
    assert "place BR NE at London" in options
    play(pos, "ap", 50, ["place BR NE at London"])
    ne = pos.entity("unit", "BR NE")
    assert pos.var("entered_at_home", str(ne.index)) is True
    assert pos.may_play_event("ap", pos.card("ap", 49))  # Sinai Pipeline may still follow


@pytest.mark.card("AP 50")
@pytest.mark.rule("9.5.3.1")
def test_allenby_refused_when_home_is_full_and_alexandria_still_closed():
    pos = Position()
    at(pos, 14)
    at_war(pos, "tu")
    homes = [o.rsplit(" at ", 1)[1] for o in first_options(pos, "play_as_event", "ap", pos.card("ap", 50))]
    for s in homes:
        fill(pos, s, 3, "BRc")
    assert "reinforcement_play" in forbidden(pos, "ap", 50)
    mark_played(pos, "ap", 49)
    assert forbidden(pos, "ap", 50) == []


# ============================================================ AP 53 Army of the Orient
@pytest.mark.card("AP 53")
@pytest.mark.rule("9.5.3.3")
def test_army_of_the_orient_to_an_allied_salonika():
    pos = Position()
    at(pos, 14)
    pos.control("Salonika", "ap")
    play(pos, "ap", 53, ["place FR Orient at Salonika"])
    orient = pos.entity("unit", "FR Orient")
    assert pos.units_at("Salonika") == ["FR Orient"]
    assert pos.var("entered_at_home", str(orient.index)) is False


@pytest.mark.card("AP 53")
@pytest.mark.rule("9.5.3.3")
def test_army_of_the_orient_not_to_salonika_unless_allied_and_with_room():
    pos = Position()
    at(pos, 14)
    pos.control("Salonika", "cp")
    options = first_options(pos, "play_as_event", "ap", pos.card("ap", 53))
    assert "place FR Orient at Salonika" not in options and "place FR Orient at Paris" in options
    pos = Position()
    at(pos, 14)
    pos.control("Salonika", "ap")
    fill(pos, "Salonika", 3, "FRc")
    pos.game.ask_forced = True
    with pytest.raises(IllegalOption, match="reinforcement_placement"):
        pos.play_event("ap", pos.card("ap", 53), answers=["place FR Orient at Salonika"])


@pytest.mark.card("AP 53")
@pytest.mark.rule("9.5.3.1")
def test_army_of_the_orient_refused_with_salonika_and_home_full():
    pos = Position()
    at(pos, 14)
    pos.control("Salonika", "ap")
    homes = [o.rsplit(" at ", 1)[1] for o in first_options(pos, "play_as_event", "ap", pos.card("ap", 53))]
    assert "Salonika" in homes
    for s in homes + ["Orleans"]:
        fill(pos, s, 3, "FRc")
    assert "reinforcement_play" in forbidden(pos, "ap", 53)


# ============================================================ CP 24 Libyan Revolt
@pytest.mark.card("CP 24")
@pytest.mark.rule("9.5.3.2")
def test_libyan_revolt_places_the_senussi_in_libya():
    pos = Position()
    at(pos, 8)
    at_war(pos, "tu")
    play(pos, "cp", 24)
    assert pos.units_at("Libya") == ["TU SNc"]
    assert pos.units_at("reserve[cp]") == []
    assert control(pos, "Libya") == "cp"
    assert pos.var("reinforcement_turn", "tu") == 8


@pytest.mark.card("CP 24")
@pytest.mark.rule("11.1.16")
@pytest.mark.rule("11.1.14")
def test_libyan_revolt_takes_back_a_libya_the_allies_control():
    """The Allies took Libya by movement and left (11.1.16); the Senussi placed
    there converts it back like a unit entering it."""
    pos = Position()
    at(pos, 8)
    at_war(pos, "tu")
    pos.control("Libya", "ap")
    play(pos, "cp", 24)
    assert pos.units_at("Libya") == ["TU SNc"]
    assert control(pos, "Libya") == "cp"


@pytest.mark.card("CP 24")
@pytest.mark.rule("9.5.1.1")
def test_libyan_revolt_refused_with_allied_units_in_libya():
    pos = Position()
    at(pos, 8)
    at_war(pos, "tu")
    pos.control("Libya", "ap")
    pos.place("BRc", "Libya")
    assert "playable_events" in forbidden(pos, "cp", 24)


@pytest.mark.card("CP 24")
@pytest.mark.rule("9.5.3.1")
def test_libyan_revolt_needs_turkey_at_war_and_not_in_august_1914():
    pos = Position()
    at(pos, 8)
    assert "reinforcement_play" in forbidden(pos, "cp", 24)
    at_war(pos, "tu")
    at(pos, 1)
    assert "reinforcement_play" in forbidden(pos, "cp", 24)


# ============================================================ AP 57 Russian Cavalry
@pytest.mark.card("AP 57")
@pytest.mark.rule("10.1.1")
def test_russian_cavalry_joins_a_supplied_russian_army_in_russia():
    pos = Position()
    at(pos, 2)
    pos.place("RU 1", "Warsaw")
    pos.place("RU 2", "Vilna")
    pos.place("RUc", "Vilna")
    pos.place("RU 3", "Lemberg")  # outside Russia
    pos.control("Lemberg", "ap")
    pos.place("RUc", "Kovno")  # a corps, no army
    options = first_options(pos, "play_as_event", "ap", pos.card("ap", 57))
    assert options == ["place the Russian cavalry at Warsaw"]
    play(pos, "ap", 57, ["place the Russian cavalry at Warsaw"])
    assert pos.units_at("Warsaw") == ["RU 1", "RU CAVc", "RU CAVc"]


@pytest.mark.card("AP 57")
@pytest.mark.rule("9.5.1.1")
def test_russian_cavalry_refused_without_a_fitting_space():
    pos = Position()
    at(pos, 2)
    assert "playable_events" in forbidden(pos, "ap", 57)
    pos.place("RU 1", "Warsaw")
    pos.place("RUc", "Warsaw")  # room for one corps only
    assert "playable_events" in forbidden(pos, "ap", 57)
    pos = Position()
    at(pos, 2)
    pos.place("RU 1", "Warsaw")
    assert forbidden(pos, "ap", 57) == []
    for j, _ in pos.w.adjacency[pos.entity("space", "Warsaw").index]:
        pos.control(pos.w.spaces[j].key, "cp")
    assert "playable_events" in forbidden(pos, "ap", 57)  # RU 1 cut off from supply


@pytest.mark.card("AP 57")
def test_russian_cavalry_is_no_reinforcement_card():
    """It lists no reinforcements: it may be played in August 1914 and in a
    turn Russia already had its reinforcement card."""
    pos = Position()
    at(pos, 1)
    pos.place("RU 1", "Warsaw")
    pos.set("reinforcement_turn", 1, key="ru")
    assert forbidden(pos, "ap", 57) == []


# ============================================================ AP 60 Czech Legion
@pytest.mark.card("AP 60")
def test_czech_legion_removes_an_eliminated_ah_corps_and_adds_the_legion():
    pos = Position()
    at(pos, 8)
    ah = pos.place("AHc", "eliminated[cp]")
    ge = pos.place("GEc", "eliminated[cp]")
    play(pos, "ap", 60)
    assert pos.units_at("reserve[ap]") == ["RU Czlc"]
    assert pos.units_at("eliminated[cp]") == ["GEc"]
    assert loc_of(pos, ah) == -1  # out of the game, not back in the pool
    assert loc_of(pos, ge) is not None


@pytest.mark.card("AP 60")
def test_czech_legion_without_an_eliminated_ah_corps_still_adds_the_legion():
    pos = Position()
    at(pos, 8)
    ah = pos.place("AHc", "Vienna")
    play(pos, "ap", 60)
    assert pos.units_at("reserve[ap]") == ["RU Czlc"]
    assert pos.units_at("Vienna") == ["AHc"] and loc_of(pos, ah) is not None


@pytest.mark.card("AP 60")
@pytest.mark.rule("17.1.4")
def test_czech_legion_ah_corps_may_not_be_rebuilt():
    pos = Position()
    at(pos, 8)
    pos.place("AHc", "eliminated[cp]")
    play(pos, "ap", 60)
    pos.set("rp_points", 3, key="ah")
    pos.game.ask_forced = True
    assert "rebuild AHc in eliminated[cp]" not in first_options(pos, "replacement_segment", "cp")


@pytest.mark.card("AP 60")
def test_czech_legion_refused_once_the_legion_is_in_play():
    pos = Position()
    at(pos, 8)
    pos.place("RU Czlc", "reserve[ap]")
    assert "playable_events" in forbidden(pos, "ap", 60)


# ============================================================ CP 59 Polish Restoration
@pytest.mark.card("CP 59")
@pytest.mark.rule("5.1.2")
def test_polish_restoration_costs_a_vp_and_adds_three_polish_corps():
    pos = Position()
    at(pos, 9)
    pos.control("Warsaw", "cp")
    vp = pos.var("vp")
    play(pos, "cp", 59)
    assert pos.var("vp") == vp - 1  # one toward the Allies
    assert pos.units_at("reserve[cp]") == ["PLc", "PLc", "PLc"]
    assert all(pos.w.units[i].data.nation.key == "ge" for i in pos.s["occ"][pos._location("reserve[cp]")])


@pytest.mark.card("CP 59")
@pytest.mark.rule("9.5.1.1")
def test_polish_restoration_needs_warsaw():
    pos = Position()
    at(pos, 9)
    pos.control("Warsaw", "ap")
    assert "playable_events" in forbidden(pos, "cp", 59)
    pos.control("Warsaw", "cp")
    assert forbidden(pos, "cp", 59) == []


@pytest.mark.card("CP 59")
@pytest.mark.rule("17.1.1")
def test_polish_corps_not_replaced_while_the_allies_hold_warsaw():
    for warsaw, allowed in (("ap", False), ("cp", True)):
        pos = Position()
        at(pos, 10)
        pos.place("PLc", "eliminated[cp]")
        pos.place("PLc", "reserve[cp]", reduced=True)
        pos.control("Warsaw", warsaw)
        pos.set("rp_points", 2, key="ge")
        pos.game.ask_forced = True
        options = first_options(pos, "replacement_segment", "cp")
        assert ("rebuild PLc in eliminated[cp]" in options) is allowed
        assert ("flip PLc in reserve[cp]" in options) is allowed
        if not allowed:
            pos.game.ask_forced = True
            with pytest.raises(IllegalOption, match="rp_polish_corps_need_warsaw"):
                pos.run("replacement_segment", "cp", answers=["rebuild PLc in eliminated[cp]"])
