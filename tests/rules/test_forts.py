"""Rule 15: the Besieged marker (15.2.1, 15.2.4), destroyed forts and the
control they kept (15.1.9, 15.1.10), and the Siege Phase with fixed dice
(15.3.1-15.3.3)."""

import pytest

from pogdsl.runtime.errors import IllegalOption

from .harness import Position, Unanswered


def besieged(pos: Position, space: str) -> bool:
    return bool(pos.var("besieged", space))


def destroyed(pos: Position, space: str) -> bool:
    return pos.s["fort_destroyed"][pos.entity("space", space).index]


def control(pos: Position, space: str):
    return pos.s["control"][pos.entity("space", space).index]


def move(pos: Position, unit, space: str) -> None:
    pos.game.move_unit(unit, pos.w.location(pos.entity("space", space)))


# ------------------------------------------------------------------ 15.2.1


@pytest.mark.rule("15.2.1")
def test_15_2_1_an_army_besieges_a_fort():
    pos = Position()
    pos.place("GE 1", "Liege")
    pos.run("check_siege", "Liege")
    assert besieged(pos, "Liege")
    assert control(pos, "Liege") == "ap"  # 15.1.10: the fort keeps the space Allied


@pytest.mark.rule("15.2.1")
def test_15_2_1_corps_must_match_the_forts_loss_factor():
    """Verdun's fort is 3: two German corps are not enough, three are (the
    rule's own example)."""
    pos = Position()
    pos.place("GEc", "Verdun")
    pos.place("GEc", "Verdun")
    pos.run("check_siege", "Verdun")
    assert not besieged(pos, "Verdun")
    pos.place("GEc", "Verdun", reduced=True)  # reduced corps count as well
    pos.run("check_siege", "Verdun")
    assert besieged(pos, "Verdun")


@pytest.mark.rule("15.2.1")
def test_15_2_1_friendly_units_in_their_own_fort_do_not_besiege_it():
    pos = Position()
    pos.place("FR 3", "Verdun")
    pos.run("check_siege", "Verdun")
    assert not besieged(pos, "Verdun")


# ------------------------------------------------------------------ 15.2.4


@pytest.mark.rule("15.2.4")
def test_15_2_4_losses_below_the_minimum_lift_the_siege():
    """Three corps besiege Verdun; one is eliminated: the other two stay but
    the fort is no longer besieged."""
    pos = Position()
    a = pos.place("GEc", "Verdun")
    pos.place("GEc", "Verdun")
    pos.place("GEc", "Verdun")
    pos.run("check_siege", "Verdun")
    assert besieged(pos, "Verdun")
    pos.game.eliminate(a, None, ())
    pos.run("check_siege", "Verdun")
    assert not besieged(pos, "Verdun")
    assert len(pos.units_at("Verdun")) == 2


@pytest.mark.rule("15.2.4")
def test_15_2_4_the_siege_ends_when_the_besiegers_leave():
    pos = Position()
    army = pos.place("GE 1", "Liege")
    pos.run("check_siege", "Liege")
    move(pos, army, "Aachen")
    pos.run("check_siege", "Liege")
    assert not besieged(pos, "Liege")


@pytest.mark.rule("15.2.3")
@pytest.mark.rule("15.2.4")
def test_15_2_3_and_15_2_4_units_may_leave_only_if_the_rest_still_besiege():
    pos = Position()
    from pogdsl.runtime import builtins as B

    army = pos.place("GE 1", "Liege")
    corps = pos.place("GEc", "Liege")
    verdun = pos.entity("space", "Liege")
    assert B.value_of(pos.game, "still_besieging", (verdun, [army]))   # the corps leaves
    assert not B.value_of(pos.game, "still_besieging", (verdun, [corps]))  # the army leaves
    assert B.value_of(pos.game, "still_besieging", (verdun, []))       # everybody leaves


def liege_besieged_by_two_armies() -> Position:
    """GE 1 and GE 2 besiege Liege (fort 3: one army is enough) under an
    Attack marker; a Belgian corps holds Brussels and a French corps Sedan,
    both next to Liege."""
    pos = Position()
    pos.place("GE 1", "Liege")
    pos.place("GE 2", "Liege")
    pos.place("BEc", "Brussels")
    pos.place("FRc", "Sedan")
    pos.run("check_siege", "Liege")
    assert besieged(pos, "Liege")
    pos.activate("Liege", "attack")
    return pos


def next_attacks(pos: Position, answers: list[str], dice: list[int]) -> list[str]:
    """The attacks offered after the given answers have been played out."""
    with pytest.raises(Unanswered):
        pos.run("resolve_attacks", "cp", answers=answers, dice=dice)
    assert pos.asked[-1].choice == "declare_attack"
    return pos.asked[-1].options


@pytest.mark.rule("15.2.3")
def test_15_2_3_one_army_over_the_siege_attacks_out_but_the_besieger_may_not_follow():
    """Only the units beyond what the siege needs may attack adjacent spaces in
    the round: once GE 1 has attacked Brussels, GE 2 is what keeps Liege
    besieged, and may not attack Sedan in turn.  It may still attack the fort."""
    pos = liege_besieged_by_two_armies()
    options = next_attacks(pos, ["attack Brussels from Liege", "from Liege: GE 1", "stop advancing"], [1, 1])
    first = pos.asked[0].options
    assert "attack Brussels from Liege" in first and "attack Sedan from Liege" in first
    assert "attack Sedan from Liege" not in options
    assert "attack Liege from Liege" in options


@pytest.mark.rule("15.2.3")
def test_15_2_3_an_army_that_attacked_the_fort_still_counts_as_its_besieger():
    """Attacking the besieged fort is not attacking out of the space: after GE
    1 has attacked Liege itself it still besieges it, so GE 2, the unit over
    the siege's need, may attack an adjacent space."""
    pos = liege_besieged_by_two_armies()
    options = next_attacks(pos, ["attack Liege from Liege", "from Liege: GE 1"], [1, 1])
    assert "attack Sedan from Liege" in options


# ------------------------------------------------------------------ 15.2.4


@pytest.mark.rule("15.2.4")
def test_15_2_4_a_besieger_may_leave_while_another_unit_will_still_move_in():
    """What counts is that the fort is still besieged at the end of the round:
    GE 1 may march out of besieged Liege, leaving a corps too weak to besiege
    it alone, while GE 2 in Aachen will still come in this round."""
    pos = Position()
    pos.place("GE 1", "Liege")
    pos.place("GEc", "Liege")
    pos.place("GE 2", "Aachen")
    pos.run("check_siege", "Liege")
    pos.activate("Liege", "move")
    pos.activate("Aachen", "move")
    pos.run("move_activated_units", "cp", answers=[
        "move GE 1 from Liege", "move to Koblenz", "stop in Koblenz",
        "move GE 2 from Aachen", "move to Liege", "stop in Liege", "end movement"])
    assert pos.units_at("Liege") == ["GE 2", "GEc"]
    assert pos.units_at("Koblenz") == ["GE 1"]
    assert besieged(pos, "Liege")


@pytest.mark.rule("15.2.4")
def test_15_2_4_no_leaving_a_fort_occupied_and_unbesieged_when_nobody_can_come():
    """With no other unit able to come in this round, the army may not leave
    the corps alone in Liege: the fort would be occupied but not besieged."""
    pos = Position()
    pos.place("GE 1", "Liege")
    pos.place("GEc", "Liege")
    pos.place("GE 2", "Aachen")
    pos.run("check_siege", "Liege")
    pos.activate("Liege", "move")  # Aachen is not activated: GE 2 stays
    with pytest.raises(IllegalOption, match=r"15\.2\.4"):
        pos.run("move_activated_units", "cp", answers=["move GE 1 from Liege"])


@pytest.mark.rule("15.2.4")
def test_15_2_4_a_promised_unit_that_never_comes_leaves_the_fort_unbesieged():
    """If the unit counted on moves elsewhere after all, the fort ends the round
    occupied by too few to besiege it: it is not besieged."""
    pos = Position()
    pos.place("GE 1", "Liege")
    pos.place("GEc", "Liege")
    pos.place("GE 2", "Aachen")
    pos.run("check_siege", "Liege")
    pos.activate("Liege", "move")
    pos.activate("Aachen", "move")
    pos.run("move_activated_units", "cp", answers=[
        "move GE 1 from Liege", "move to Koblenz", "stop in Koblenz",
        "move GE 2 from Aachen", "move to Koblenz", "stop in Koblenz", "end movement"])
    assert pos.units_at("Liege") == ["GEc"]
    assert not besieged(pos, "Liege")

    # The same when movement simply ends before GE 2 has moved.
    pos = Position()
    pos.place("GE 1", "Liege")
    pos.place("GEc", "Liege")
    pos.place("GE 2", "Aachen")
    pos.run("check_siege", "Liege")
    pos.activate("Liege", "move")
    pos.activate("Aachen", "move")
    pos.run("move_activated_units", "cp", answers=[
        "move GE 1 from Liege", "move to Koblenz", "stop in Koblenz", "end movement"])
    assert pos.units_at("Liege") == ["GEc"] and pos.units_at("Aachen") == ["GE 2"]
    assert not besieged(pos, "Liege")


# ------------------------------------------------------------------ 15.3


@pytest.mark.rule("15.3.2")
def test_15_3_2_a_roll_above_the_forts_lf_destroys_it():
    """Turn 3: a 4 against Liege's 3 destroys the fort; the besiegers take the
    space at once (glossary, Control of Space)."""
    pos = Position()
    pos.s["turn"] = 3
    pos.place("GE 1", "Liege")
    pos.run("check_siege", "Liege")
    pos.run("siege_phase", dice=[4])
    assert destroyed(pos, "Liege")
    assert not besieged(pos, "Liege")
    assert control(pos, "Liege") == "cp"


@pytest.mark.rule("15.3.2")
def test_15_3_2_a_roll_equal_to_the_lf_fails():
    pos = Position()
    pos.s["turn"] = 3
    pos.place("GE 1", "Liege")
    pos.run("siege_phase", dice=[3])
    assert not destroyed(pos, "Liege")
    assert besieged(pos, "Liege")
    assert control(pos, "Liege") == "ap"


@pytest.mark.rule("15.3.3")
def test_15_3_3_minus_two_in_august_and_september_1914():
    """Turns 1 and 2: a 5 is only 3 and Liege holds; a 6 (4) takes it."""
    for turn in (1, 2):
        pos = Position()
        pos.s["turn"] = turn
        pos.place("GE 1", "Liege")
        pos.run("siege_phase", dice=[5])
        assert not destroyed(pos, "Liege"), turn
        pos.run("siege_phase", dice=[6])
        assert destroyed(pos, "Liege"), turn
        assert control(pos, "Liege") == "cp"


@pytest.mark.rule("15.3.1")
def test_15_3_1_every_besieged_fort_rolls_and_no_other():
    """Antwerp (1) and Liege (3) besieged, Namur-less Belgium: two dice, one
    per besieged fort, in map order (Antwerp then Liege).  Verdun, with too
    few corps, rolls nothing."""
    pos = Position()
    pos.s["turn"] = 5
    pos.place("GE 1", "Antwerp")
    pos.place("GE 2", "Liege")
    pos.place("GEc", "Verdun")
    pos.run("siege_phase", dice=[2, 2])
    assert destroyed(pos, "Antwerp")
    assert not destroyed(pos, "Liege")
    assert not destroyed(pos, "Verdun")
    assert pos.s["dice"] == []


@pytest.mark.rule("15.1.9")
def test_15_1_9_a_destroyed_fort_is_never_besieged_again():
    pos = Position()
    pos.s["turn"] = 5
    army = pos.place("GE 1", "Liege")
    pos.run("siege_phase", dice=[6])
    assert destroyed(pos, "Liege")
    pos.run("check_siege", "Liege")
    assert not besieged(pos, "Liege")
    pos.run("siege_phase", dice=[])  # no die is rolled
    assert army.key == "GE 1"


@pytest.mark.rule("15.1.7")
def test_15_1_7_a_fort_destroyed_without_enemy_units_keeps_its_control():
    """A fort knocked out by an attack from next door: its space stays the
    owner's until the enemy enters it."""
    pos = Position()
    pos.run("destroy_fort", "Liege")
    assert destroyed(pos, "Liege")
    assert control(pos, "Liege") == "ap"
