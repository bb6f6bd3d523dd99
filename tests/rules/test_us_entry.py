"""Rule 16.3, US Entry: the US Entry track (16.3.1), Zimmermann Telegram
allowed at combined War Status 30 (16.3.2), its play making the US an active
nation (16.3.3), Over There on a later turn opening US reinforcements
(16.3.4), and 14 Points waiting for Zimmermann (16.3.5).

The card events call zimmermann_telegram() and over_there(); the cards'
`playable when` read the values checked here."""

import pytest

from pogdsl.runtime import builtins as B

from .harness import Position, Unanswered


def value(pos, name, *args):
    pos.game.invalidate()
    return getattr(B.value_of(pos.game, name, args), "key", B.value_of(pos.game, name, args))


def war_status(pos, cp, ap):
    pos.set("war_status", cp, key="cp")
    pos.set("war_status", ap, key="ap")


def turn(pos, t):
    pos.s["turn"] = t
    pos.game.invalidate()


def action_options(pos, side):
    pos.game.ask_forced = True
    with pytest.raises(Unanswered):
        pos.run("action_round", side)
    pos.s["pending"] = None
    pos.game.ask_forced = False
    return pos.asked[-1].options


US1 = "USA Reinforcements (US 1)"


@pytest.mark.rule("16.3.1")
def test_16_3_1_the_marker_starts_in_us_neutral():
    pos = Position()
    assert value(pos, "us_entry_marker") == "us_neutral"
    assert pos.s["at_war"]["us"] is False


@pytest.mark.parametrize("cp, ap, box, allowed", [
    (15, 14, "us_neutral", False),
    (15, 15, "telegram_allowed", True),
    (20, 17, "telegram_allowed", True),
])
@pytest.mark.rule("16.3.2")
def test_16_3_2_zimmermann_allowed_at_combined_war_status_30(cp, ap, box, allowed):
    pos = Position()
    war_status(pos, cp, ap)
    assert value(pos, "us_entry_marker") == box
    assert value(pos, "may_play_zimmermann_telegram") is allowed


@pytest.mark.rule("16.3.3")
def test_16_3_3_zimmermann_makes_the_us_an_allied_nation_at_war():
    pos = Position()
    turn(pos, 12)
    war_status(pos, 16, 14)
    pos.run("zimmermann_telegram")
    assert pos.s["at_war"]["us"] is True
    assert value(pos, "us_entry_marker") == "telegram_played"
    assert value(pos, "may_play_zimmermann_telegram") is False
    assert value(pos, "zimmermann_telegram_played") is True
    assert pos.var("zimmermann_turn") == 12


@pytest.mark.rule("16.3.3")
def test_16_3_3_no_us_reinforcements_before_over_there():
    pos = Position()
    turn(pos, 12)
    pos.run("zimmermann_telegram")
    pos.game.move_card(pos.entity("card", US1), "hand:ap")
    assert "play 43 event (USA Reinforcements (US 1))" not in action_options(pos, "ap")


@pytest.mark.rule("16.3.4")
def test_16_3_4_over_there_only_on_a_turn_after_zimmermann():
    pos = Position()
    assert value(pos, "may_play_over_there") is False
    turn(pos, 12)
    pos.run("zimmermann_telegram")
    assert value(pos, "may_play_over_there") is False
    turn(pos, 13)
    assert value(pos, "may_play_over_there") is True


@pytest.mark.rule("16.3.4")
def test_16_3_4_over_there_opens_us_reinforcements_from_the_next_turn():
    """The Over There card opens US reinforcements on the turns after its own."""
    pos = Position()
    turn(pos, 12)
    pos.run("zimmermann_telegram")
    turn(pos, 13)
    pos.run("over_there")
    assert value(pos, "us_entry_marker") == "over_there_played"
    assert value(pos, "may_play_over_there") is False
    pos.game.move_card(pos.entity("card", US1), "hand:ap")
    assert "play 43 event (USA Reinforcements (US 1))" not in action_options(pos, "ap")
    turn(pos, 14)
    assert value(pos, "us_reinforcements_allowed") is True
    assert "play 43 event (USA Reinforcements (US 1))" in action_options(pos, "ap")


@pytest.mark.rule("16.3.5")
def test_16_3_5_fourteen_points_waits_for_zimmermann():
    pos = Position()
    war_status(pos, 20, 20)
    assert value(pos, "may_play_fourteen_points") is False
    turn(pos, 12)
    pos.run("zimmermann_telegram")
    assert value(pos, "may_play_fourteen_points") is True
    turn(pos, 13)
    pos.run("over_there")
    assert value(pos, "may_play_fourteen_points") is True
