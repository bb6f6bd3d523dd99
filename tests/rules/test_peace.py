"""Rule 16.5, Peace Terms: offered as the round's action (8.1.3, 16.5.1) within
each side's VP range (16.5.1.1, printed twice in the rulebook: CP at 11 or
more, Allies at 9 or fewer); accepted, the game ends in a draw (16.5.2, 5.1.1);
refused, the offering player rolls on the Peace Terms table (16.5.2)."""

import pytest

from .harness import Position, Unanswered


def action_options(pos, side):
    pos.game.ask_forced = True
    with pytest.raises(Unanswered):
        pos.run("action_round", side)
    pos.s["pending"] = None
    pos.game.ask_forced = False
    return pos.asked[-1].options


def war_status(pos, cp, ap):
    pos.set("war_status", cp, key="cp")
    pos.set("war_status", ap, key="ap")


@pytest.mark.parametrize("side, vp, allowed", [
    ("cp", 11, True), ("cp", 14, True), ("cp", 10, False), ("cp", 9, False),
    ("ap", 9, True), ("ap", 3, True), ("ap", 10, False), ("ap", 11, False),
])
@pytest.mark.rule("16.5.1.1")
def test_16_5_1_1_peace_terms_only_within_the_sides_vp_range(side, vp, allowed):
    pos = Position()
    pos.set("vp", vp)
    assert ("peace_offer" in action_options(pos, side)) is allowed


@pytest.mark.rule("8.1.3")
def test_8_1_3_peace_offer_needs_no_card():
    """The offer sits beside the automatic operation among the round's actions."""
    pos = Position()
    pos.set("vp", 12)
    assert action_options(pos, "cp") == ["automatic_op", "peace_offer"]


@pytest.mark.rule("16.5.2")
def test_16_5_2_accepted_peace_terms_end_the_game_in_a_draw():
    pos = Position()
    pos.set("vp", 15)
    pos.run("action_round", "cp", answers=["peace_offer", "accept the peace terms: yes"])
    assert pos.asked[-1].by == "ap"
    assert pos.s["result"]["winner"] is None
    assert pos.s["result"]["reason"] == "peace terms accepted"
    assert "5.1.1" in pos.s["result"]["rules"]
    assert pos.var("vp") == 15


@pytest.mark.parametrize("combined, die, change", [
    (10, 1, 1), (10, 3, 1), (10, 4, 0), (10, 5, 0), (10, 6, -1),
    (19, 3, 1), (20, 3, 0), (20, 2, 1), (35, 6, -1),
])
@pytest.mark.rule("16.5.2")
def test_16_5_2_refused_cp_offer_rolls_on_the_peace_terms_table(combined, die, change):
    """A result in the offering side's favour moves the VP toward the Central Powers (up)."""
    pos = Position()
    pos.set("vp", 12)
    war_status(pos, combined - combined // 2, combined // 2)
    pos.run("offer_peace_terms", "cp", answers=["accept the peace terms: no"], dice=[die])
    assert pos.s["result"] is None
    assert pos.var("vp") == 12 + change


@pytest.mark.rule("16.5.2")
@pytest.mark.parametrize("die, change", [(1, -1), (4, 0), (6, 1)])
def test_16_5_2_refused_allied_offer_moves_vp_the_allied_way(die, change):
    pos = Position()
    pos.set("vp", 8)
    war_status(pos, 6, 6)
    pos.run("offer_peace_terms", "ap", answers=["accept the peace terms: no"], dice=[die])
    assert pos.var("vp") == 8 + change


@pytest.mark.rule("16.5.3")
def test_16_5_3_the_offer_is_the_whole_action_of_the_round():
    pos = Position()
    pos.set("vp", 11)
    pos.run("action_round", "cp", answers=["peace_offer", "accept the peace terms: no"], dice=[1])
    assert pos.var("vp") == 12
    assert pos.var("last_action", "cp") == "peace_offer"


@pytest.mark.rule("16.5.1")
def test_16_5_1_no_central_powers_offer_after_fourteen_points():
    """The 14 Points card leaves only the Allies able to offer peace terms."""
    pos = Position()
    pos.set("vp", 13)
    pos.s["played"].append(pos.entity("card", "14 Points").index)
    assert "peace_offer" not in action_options(pos, "cp")
    pos.set("vp", 8)
    assert "peace_offer" in action_options(pos, "ap")
