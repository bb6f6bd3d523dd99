"""Chapter 9: how strategy cards are used, each test written from the
rulebook: the four uses and the card-less actions (9.1), activation costs
(9.2), SR and RP plays (9.3, 9.4), events and combat cards (9.5)."""

import pytest

from .harness import Position, Unanswered
from .test_combat import activate_attack, pile_of


def in_hand(pos: Position, side: str, *numbers: int):
    cards = [pos.card(side, n) for n in numbers]
    pos.s["piles"][f"hand:{side}"] += [c.index for c in cards]
    pos.game.invalidate()
    return cards


def fill_draw_pile(pos: Position, side: str) -> None:
    """Ten non-combat cards of the side in its draw pile (none in hand), so a
    draw needs no reshuffle."""
    taken = set(pos.s["piles"][f"hand:{side}"])
    pos.s["piles"][f"draw:{side}"] = [c.index for c in pos.w.cards if c.data.side.text == side
                                      and not c.data.combat and c.index not in taken][:10]
    pos.game.invalidate()


def first_options(pos: Position, procedure: str, *args, answers=()) -> list[str]:
    """The options of the first decision left unanswered by running `procedure`."""
    try:
        pos.run(procedure, *args, answers=answers)
    except Unanswered:
        pass
    return pos.asked[len(answers)].options if len(pos.asked) > len(answers) else []


def activation_options(units: dict[str, str], points: int, side: str = "ap") -> list[str]:
    pos = Position()
    for unit, space in units.items():
        pos.place(unit.split("#")[0], space)
    return first_options(pos, "operations", side, points, None)


# ------------------------------------------------------------------ 9.1
@pytest.mark.rule("9.1.1")
def test_without_a_card_only_the_automatic_operation_is_left():
    """9.1.1: actions come from cards, except the automatic operation (and
    peace terms, not allowed at VP 10): an empty hand leaves the automatic
    one-point operation, taken at once."""
    pos = Position()
    pos.place("FR 2", "Verdun")
    opts = first_options(pos, "action_round", "ap")
    assert pos.asked[0].choice == "activate"  # take_action had a single option and answered itself
    assert opts == ["activate Verdun move", "activate Verdun attack", "done activating"]


@pytest.mark.rule("9.1.3")
def test_a_card_is_offered_in_each_of_its_four_uses_and_used_in_one():
    """9.1.3: a card may be played for OPS, SR, RP or its event, one use per
    play: Blockade played for OPS goes to the discard pile, its event unused."""
    pos = Position()
    pos.place("FR 2", "Verdun")
    blockade, = in_hand(pos, "ap", 2)
    opts = first_options(pos, "action_round", "ap")
    assert {"play 2 ops (Blockade)", "play 2 sr (Blockade)", "play 2 rp (Blockade)",
            "play 2 event (Blockade)"} <= set(opts)
    pos = Position()
    pos.place("FR 2", "Verdun")
    blockade, = in_hand(pos, "ap", 2)
    pos.run("action_round", "ap", answers=["play 2 ops (Blockade)", "done activating"])
    assert pile_of(pos, blockade) == "discard:ap"
    assert blockade.index not in pos.s["played"]


@pytest.mark.rule("9.1.4")
def test_optional_eight_card_hands():
    """9.1.4 (optional): with eight-card hands the draw fills the hand to
    eight instead of seven."""
    from .test_turn import hand, run_phase

    for eight, size in ((False, 7), (True, 8)):
        pos = Position()
        pos.w.options["eight_card_hands"] = eight
        try:
            for side in ("ap", "cp"):
                mob = [c.index for c in pos.w.cards if c.data.side.text == side
                       and c.data.deck.text == "mobilization" and not c.data.optional and not c.data.combat]
                pos.s["piles"][f"draw:{side}"] = mob
            pos.game.invalidate()
            run_phase(pos, "draw_cards")
        finally:
            pos.w.options["eight_card_hands"] = False
        assert len(hand(pos, "ap")) == size and len(hand(pos, "cp")) == size


# ------------------------------------------------------------------ 9.2 operations
@pytest.mark.rule("9.2.1")
def test_an_ops_card_gives_its_ops_value_in_activation_points():
    """9.2.1: Blockade (OPS 4) activates four one-nation spaces, no fifth."""
    pos = Position()
    for unit, space in (("FR 1", "Paris"), ("FR 2", "Verdun"), ("FR 3", "Nancy"), ("FR 4", "Belfort"),
                        ("FR 5", "Sedan")):
        pos.place(unit, space)
    in_hand(pos, "ap", 2)
    try:
        pos.run("action_round", "ap", answers=["play 2 ops (Blockade)", "activate Paris move", "activate Verdun move",
                                               "activate Nancy move", "activate Belfort move"])
    except Unanswered:
        pass
    assert [d.choice for d in pos.asked].count("activate") == 4
    assert pos.asked[-1].choice != "activate"


@pytest.mark.rule("9.2.2")
def test_a_space_costs_the_same_to_move_or_to_attack():
    """9.2.2: with one point a one-nation space may be activated either way;
    a two-nation space neither way."""
    opts = activation_options({"FR 2": "Verdun", "FR 1": "Paris", "BR 1": "Paris"}, 1)
    assert "activate Verdun move" in opts and "activate Verdun attack" in opts
    assert not any("Paris" in o for o in opts)
    opts = activation_options({"FR 1": "Paris", "BR 1": "Paris"}, 2)
    assert "activate Paris move" in opts and "activate Paris attack" in opts


@pytest.mark.rule("9.2.3")
def test_activation_cost_counts_nationalities_with_the_listed_exceptions():
    """9.2.3: one point per nationality; Belgians in Antwerp count as British,
    Australians are British, French and Americans in France are one."""
    assert not any("Paris" in o for o in activation_options({"FR 1": "Paris", "BR 1": "Paris"}, 1))
    assert "activate Antwerp move" in activation_options({"BEc": "Antwerp", "BRc": "Antwerp"}, 1)
    assert not any("Brussels" in o for o in activation_options({"BEc": "Brussels", "BRc": "Brussels"}, 1))
    assert "activate Amiens move" in activation_options({"AUSc": "Amiens", "BR 1": "Amiens"}, 1)
    assert "activate Nancy move" in activation_options({"US 1": "Nancy", "FR 3": "Nancy"}, 1)


@pytest.mark.rule("9.2.4")
def test_withholding_units_does_not_lower_the_cost():
    """9.2.4: a French-British stack costs two points even if only the French
    would move: with one point it cannot be activated; with two, every unit
    of it may move."""
    assert not any("Paris" in o for o in activation_options({"FR 1": "Paris", "BR 1": "Paris"}, 1))
    pos = Position()
    pos.place("FR 1", "Paris")
    pos.place("BR 1", "Paris")
    opts = first_options(pos, "operations", "ap", 2, None, answers=["activate Paris move"])
    assert {"move FR 1 from Paris", "move BR 1 from Paris"} <= set(opts)


@pytest.mark.rule("9.2.5")
def test_a_space_is_activated_for_movement_or_combat_not_both():
    """9.2.5: once Verdun is activated to move it is not offered again, to move
    or to attack, in the same operation."""
    pos = Position()
    pos.place("FR 2", "Verdun")
    pos.place("FR 3", "Nancy")
    opts = first_options(pos, "operations", "ap", 3, None, answers=["activate Verdun move"])
    assert opts == ["activate Nancy move", "activate Nancy attack", "done activating"]


@pytest.mark.rule("9.2.6")
def test_only_occupied_spaces_may_be_activated():
    """9.2.6: a space with only a friendly fort (Verdun, empty) is not
    occupied and cannot be activated."""
    opts = activation_options({"FR 3": "Nancy"}, 3)
    assert opts == ["activate Nancy move", "activate Nancy attack", "done activating"]


@pytest.mark.rule("9.2.9")
def test_combat_comes_after_all_movement():
    """9.2.9: with one space activated to attack and one to move, every move
    is made before the first attack is declared."""
    def position():
        pos = Position()
        pos.place("GE 9", "Thorn")
        pos.place("GE 10", "Posen")
        pos.place("RUc", "Lodz")
        return pos

    pos = position()
    first_options(pos, "operations", "cp", 2, None, answers=["activate Thorn attack", "activate Posen move",
                                                             "move GE 10 from Posen"])
    assert "declare_attack" not in [d.choice for d in pos.asked]  # still moving: no attack yet
    pos = position()
    first_options(pos, "operations", "cp", 2, None, answers=["activate Thorn attack", "activate Posen move",
                                                             "end movement"])
    assert pos.asked[-1].choice == "declare_attack"


# ------------------------------------------------------------------ 9.3 SR, 9.4 RP
@pytest.mark.rule("9.3.1")
def test_a_card_played_for_sr_redeploys_units():
    """9.3.1: the SR play lets the player redeploy: the card's SR points are
    offered for moving corps or armies by SR (13.1)."""
    pos = Position()
    pos.place("FR 2", "Verdun")
    blockade, = in_hand(pos, "ap", 2)
    opts = first_options(pos, "action_round", "ap", answers=["play 2 sr (Blockade)"])
    assert any("FR 2" in o for o in opts)


@pytest.mark.rule("9.3.3")
def test_no_sr_play_in_two_rounds_in_a_row_of_one_turn():
    """9.3.3: after an SR play the next round may not be another; across the
    end of a turn it may."""
    def position():
        pos = Position()
        pos.place("FR 2", "Verdun")
        in_hand(pos, "ap", 2)
        pos.set("last_action", "sr", key="ap")
        return pos

    opts = first_options(position(), "action_round", "ap")
    assert "play 2 sr (Blockade)" not in opts and "play 2 rp (Blockade)" in opts
    pos = position()
    pos.run("end_turn_cleanup")
    assert "play 2 sr (Blockade)" in first_options(pos, "action_round", "ap")


@pytest.mark.rule("9.4.2")
@pytest.mark.rule("9.4.4")
def test_an_rp_play_only_records_points_spent_later_in_the_replacement_phase():
    """9.4.2: the RP play is the whole action (no other decision); 9.4.4: the
    points wait for the Replacement Phase: the reduced army stays reduced
    until then."""
    from .test_turn import run_phase

    pos = Position()
    fr1 = pos.place("FR 1", "Paris", reduced=True)
    in_hand(pos, "ap", 2)
    pos.run("action_round", "ap", answers=["play 2 rp (Blockade)"])
    assert len(pos.asked) == 1
    assert pos.var("rp_points", "fr") == 2 and pos.reduced(fr1.index)
    run_phase(pos, "replacement", answers=["flip FR 1 in Paris"])
    assert not pos.reduced(fr1.index)


@pytest.mark.rule("9.4.3")
def test_no_rp_play_in_two_rounds_in_a_row_of_one_turn():
    """9.4.3: after an RP play the next round may not be another; across the
    end of a turn it may."""
    def position():
        pos = Position()
        pos.place("FR 2", "Verdun")
        in_hand(pos, "ap", 2)
        pos.set("last_action", "rp", key="ap")
        return pos

    opts = first_options(position(), "action_round", "ap")
    assert "play 2 rp (Blockade)" not in opts and "play 2 sr (Blockade)" in opts
    pos = position()
    pos.run("end_turn_cleanup")
    assert "play 2 rp (Blockade)" in first_options(pos, "action_round", "ap")


@pytest.mark.rule("9.4.5")
def test_no_card_carries_us_replacement_points():
    """9.4.5: United States RPs are not printed on the cards."""
    pos = Position()
    assert all(n.text != "us" for c in pos.w.cards for n, _ in (c.data.rp or []))


# ------------------------------------------------------------------ 9.5 events
@pytest.mark.rule("9.5.1.1")
def test_an_event_play_carries_out_the_card():
    """9.5.1.1: Zimmermann Telegram played as an event brings the US marker to
    its Zimmermann Telegram box (16.3.3)."""
    pos = Position()
    pos.set("war_status", 15, key="ap")
    pos.set("war_status", 15, key="cp")
    zt = pos.entity("card", "Zimmermann Telegram")
    pos.s["piles"]["hand:ap"].append(zt.index)
    pos.play_event("ap", zt)
    assert pos.var("us_entry") != "us_neutral"
    assert zt.index in pos.s["played"]


@pytest.mark.rule("9.5.4.1")
def test_combat_cards_are_played_in_combat_attacker_first():
    """9.5.4.1: a combat card is not an action-round event, and in a combat
    the attacker plays his before the defender."""
    pos = Position()
    pos.place("FR 2", "Verdun")
    in_hand(pos, "ap", 6)  # Withdrawal
    assert "play 6 event (Withdrawal)" not in first_options(pos, "action_round", "ap")

    pos = Position()
    pos.place("GE 9", "Thorn")
    pos.place("RU 1", "Lodz")
    in_hand(pos, "ap", 6)
    in_hand(pos, "cp", 44)  # Von Hutier (played before the flank step, 12.2.4)
    in_hand(pos, "cp", 2)   # Wireless Intercepts
    activate_attack(pos, "Thorn")
    try:
        pos.run("resolve_attacks", "cp", answers=["attack Lodz from Thorn", "no more combat cards"])
    except Unanswered:
        pass
    cards = [d.by for d in pos.asked if d.choice == "use_combat_card"]
    assert cards[:2] == ["cp", "ap"]


@pytest.mark.rule("9.5.4.5")
def test_combat_cards_in_play_are_discarded_at_the_end_of_the_turn():
    """9.5.4.5: cards kept face up after won combats go to the discard pile in
    the Draw Strategy Card Phase."""
    pos = Position()
    fmg = pos.entity("card", "Fortified Machine Guns")
    pos.s["piles"]["in_play:cp"].append(fmg.index)
    fill_draw_pile(pos, "cp")
    pos.run("draw_strategy_cards", "cp")
    assert pile_of(pos, fmg) == "discard:cp"


@pytest.mark.rule("9.5.4.6")
def test_only_combat_cards_may_be_discarded_before_the_draw():
    """9.5.4.6: before drawing, a player may discard combat cards from his
    hand, and no other card."""
    pos = Position()
    wd, blockade = in_hand(pos, "ap", 6, 2)
    opts = first_options(pos, "draw_strategy_cards", "ap")
    assert opts == ["discard Withdrawal", "keep the rest"]
    pos = Position()
    wd, blockade = in_hand(pos, "ap", 6, 2)
    fill_draw_pile(pos, "ap")
    pos.run("draw_strategy_cards", "ap", answers=["discard Withdrawal"])
    assert pile_of(pos, wd) == "discard:ap" and pile_of(pos, blockade) == "hand:ap"


@pytest.mark.rule("9.2.7.1")
def test_mef_beachhead_example_a_stack_of_the_mef_and_two_corps_costs_five():
    """9.2.7.1 example: the MEF Army (3 OPS) and two corps (1 each) tracing
    supply through the Beachhead cost 5 to activate: 4 points are not
    enough."""
    def offered(points: int) -> bool:
        pos = Position()
        pos.s["at_war"]["tu"] = True
        pos.set("mef_beachhead", "MEF1")
        pos.place("BR MEF", "MEF1")
        pos.place("BRc", "MEF1")
        pos.place("BRc", "MEF1")
        return any("MEF1" in o for o in first_options(pos, "operations", "ap", points, None))

    assert offered(5)
    assert not offered(4)


@pytest.mark.rule("9.2.7")
def test_allies_activate_one_near_east_space_for_combat_a_round():
    """9.2.7: the Allied player may activate only one space on the Near East
    map for combat per action round: after Basra, Ahwaz may be activated to
    move but not to attack."""
    pos = Position()
    pos.s["at_war"]["tu"] = True
    pos.place("BRc", "Basra")
    pos.place("BRc", "Ahwaz")
    pos.place("TUc", "Qurna")
    pos.control("Ahwaz", "ap")
    opts = first_options(pos, "operations", "ap", 2, None, answers=["activate Basra attack"])
    assert "activate Ahwaz move" in opts
    assert "activate Ahwaz attack" not in opts


@pytest.mark.rule("9.2.3")
def test_combat_example_2_activation_costs_three():
    """Combat Example 2's note: the British armies in Amiens (1 point) and the
    Canadian corps with the French 6th Army in Chateau Thierry (British and
    French: 2 points) cost 3 together; with 2 points, once Amiens is
    activated Chateau Thierry is out of reach."""
    def position():
        pos = Position()
        pos.place("BR 3", "Amiens")
        pos.place("BR 4", "Amiens")
        pos.place("CNDc", "Chateau Thierry", reduced=True)
        pos.place("FR 6", "Chateau Thierry")
        return pos

    assert "activate Chateau Thierry attack" in first_options(position(), "operations", "ap", 3, None,
                                                              answers=["activate Amiens attack"])
    pos = position()
    first_options(pos, "operations", "ap", 2, None, answers=["activate Amiens attack"])
    assert "activate Chateau Thierry attack" in pos.asked[0].options  # 2 points: it could go first
    later = [o for d in pos.asked[1:] if d.choice == "activate" for o in d.options]
    assert not any("Chateau Thierry" in o for o in later)  # but not with the one point Amiens leaves
