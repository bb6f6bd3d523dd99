"""Chapter 12 rules not covered elsewhere, each test written from the
rulebook's text: who attacks with what (12.1), the order of the combat steps
(12.2), losses (12.4), retreat and advance (12.5, 12.7) and the Withdrawal
combat card's rules (12.6).  Dice are fixed; a full combat is run with
`resolve_attacks` as an operation does after its moves."""

import pytest

from .harness import Position, Unanswered
from .test_combat import activate_attack, control, where


def give(pos: Position, side: str, number: int):
    """Put one card, found by side and number, in its side's hand."""
    c = pos.card(side, number)
    pos.s["piles"][f"hand:{side}"].append(c.index)
    return c


def thorn_lodz(*attackers: str, defenders=("RU 1",)) -> Position:
    """German units in Thorn (Attack-marked) next to Russians in Lodz."""
    pos = Position()
    pos.att = [pos.place(u, "Thorn") for u in attackers]
    pos.dfn = [pos.place(u, "Lodz") for u in defenders]
    activate_attack(pos, "Thorn")
    return pos


def run_or_stop(pos: Position, side: str, answers, dice):
    """Run the attacks; an unanswered decision ends the run (its options stay
    in pos.asked to look at)."""
    try:
        pos.run("resolve_attacks", side, answers=answers, dice=dice)
    except Unanswered:
        pass


# ------------------------------------------------------------------ 12.1 general rules
@pytest.mark.rule("12.1.1")
def test_only_units_in_attack_marked_spaces_attack_and_attacking_is_optional():
    """12.1.1: units in a space without an Attack marker cannot take part, and
    the attacker may decline to attack at all."""
    pos = Position()
    pos.place("GE 9", "Thorn")
    pos.place("GE 10", "Plock")  # next to Lodz too, but not activated
    pos.place("RU 1", "Lodz")
    pos.control("Plock", "cp")
    activate_attack(pos, "Thorn")
    pos.run("resolve_attacks", "cp", answers=["no more attacks"])
    assert pos.asked[0].options == ["attack Lodz from Thorn", "no more attacks"]
    assert "cp attacks" not in "\n".join(pos.log())
    assert pos.units_at("Lodz") == ["RU 1"]


@pytest.mark.rule("12.1.3")
def test_the_active_player_is_the_attacker():
    """12.1.3: the player whose operation it is attacks; the other defends
    (he alone takes the defender's losses and retreats)."""
    pos = thorn_lodz("GE 9")
    pos.run("resolve_attacks", "cp", answers=["attack Lodz from Thorn", "RU 1 retreats to Warsaw then Brest Litovsk",
                                              "stop advancing"], dice=[2, 1])
    assert "cp attacks Lodz with strength 5 against 3" in pos.log()
    assert where(pos, pos.dfn[0]) == "Brest Litovsk"
@pytest.mark.rule("12.1.4")
@pytest.mark.rule("12.1.5")
def test_one_defending_space_per_combat_and_a_space_may_split_its_attacks():
    """12.1.4: each combat has one defending space; 12.1.5: the units of one
    activated space may attack different adjacent spaces: GE 9 attacks Lodz,
    then GE 10 attacks Plock, both from Thorn."""
    pos = Position()
    ge9 = pos.place("GE 9", "Thorn")
    ge10 = pos.place("GE 10", "Thorn")
    pos.place("RUc", "Lodz")
    pos.place("RUc", "Plock")
    activate_attack(pos, "Thorn")
    pos.run("resolve_attacks", "cp", answers=[
        "attack Lodz from Thorn", "from Thorn: GE 9", "stop advancing",
        "attack Plock from Thorn", "stop advancing"], dice=[6, 1, 6, 1])
    log = pos.log()
    assert "cp attacks Lodz with strength 5 against 1" in log
    assert "cp attacks Plock with strength 5 against 1" in log
    # each declaration names a single target space
    first = pos.asked[0]
    assert all(o.count(" from ") == 1 and o.startswith("attack ") for o in first.options if o != "no more attacks")
    assert where(pos, ge9) == "Thorn" and where(pos, ge10) == "Thorn"


@pytest.mark.rule("12.1.7")
def test_a_zero_strength_corps_may_attack_and_absorb_losses():
    """12.1.7: a corps with CF 0 (a reduced corps) may attack alone; with an
    army it adds nothing to the strength but may take the losses."""
    pos = Position()
    pos.place("AHc", "Thorn", reduced=True)  # 0-1-3 when reduced
    pos.place("RU 1", "Lodz")
    activate_attack(pos, "Thorn")
    pos.run("resolve_attacks", "cp", answers=["attack Lodz from Thorn"], dice=[1, 1])
    assert "cp attacks Lodz with strength 0 against 3" in pos.log()
    pos = Position()
    ge9 = pos.place("GE 9", "Thorn")
    ahc = pos.place("AHc", "Thorn", reduced=True)
    pos.place("RU 1", "Lodz")
    activate_attack(pos, "Thorn")
    pos.run("resolve_attacks", "cp", answers=["attack Lodz from Thorn", "from Thorn: GE 9, AHc"], dice=[1, 2])
    log = pos.log()
    assert "cp attacks Lodz with strength 5 against 3" in log
    # the Russians' loss number 2 is less than the army's LF 3: the corps pays 1 of it
    assert where(pos, ahc) == "eliminated[cp]" and not pos.reduced(ge9.index)


@pytest.mark.rule("12.1.8")
def test_units_left_out_of_a_combat_neither_take_losses_nor_advance():
    """12.1.8: GE 9 attacks alone; the corps beside it in Thorn stays out.  The
    Russian loss number of 2 is too small for the army (LF 3) and may not fall
    on the corps, which is also never offered the advance."""
    pos = thorn_lodz("GE 9", "GEc")
    pos.run("resolve_attacks", "cp", answers=[
        "attack Lodz from Thorn", "from Thorn: GE 9", "RU 1 retreats to Warsaw", "advance GE 9 into Lodz"],
        dice=[2, 2])
    assert "ap fires with strength 3 on the Army table (shift 0), die 2 modified to 2: loss number 2" in pos.log()
    assert not pos.reduced(pos.att[1].index) and where(pos, pos.att[1]) == "Thorn"
    advance = [d for d in pos.asked if d.choice == "advance_unit"]
    assert advance and all("GEc" not in o for d in advance for o in d.options)
    assert where(pos, pos.att[0]) == "Lodz"


@pytest.mark.rule("12.1.9")
@pytest.mark.rule("12.1.10")
def test_attacks_across_a_dotted_line_only_by_the_nations_it_names():
    """12.1.9: a dotted line may be attacked across only by the nationalities
    printed beside it; 12.1.10: the Italians attack across Taranto-Valona
    without needing friendly units in Albania or Greece.  A French army in
    Taranto may not."""
    def targets(unit):
        pos = Position()
        pos.s["at_war"]["it"] = True
        pos.place(unit, "Taranto")
        pos.place("AHc", "Valona")
        pos.control("Valona", "cp")
        activate_attack(pos, "Taranto")
        run_or_stop(pos, "ap", [], [])
        return pos.asked[0].options if pos.asked else []

    assert "attack Valona from Taranto" in targets("IT 1")
    assert "attack Valona from Taranto" not in targets("FR 1")


@pytest.mark.rule("12.1.11.2")
def test_dominion_corps_count_as_british_in_a_two_space_attack():
    """12.1.11.2: an Australian corps counts as British: stacked with a French
    army it is the common space that lets British armies from another space
    join the French attack (12.1.11.1)."""
    pos = Position()
    pos.place("BR 3", "Amiens")
    pos.place("AUSc", "Chateau Thierry")
    pos.place("FR 6", "Chateau Thierry")
    pos.place("GEc", "Cambrai")
    pos.control("Cambrai", "cp")
    activate_attack(pos, "Amiens", "Chateau Thierry")
    run_or_stop(pos, "ap", ["attack Cambrai from Chateau Thierry", "from Chateau Thierry: AUSc, FR 6",
                            "from Amiens: BR 3"], [])
    assert "ap attacks Cambrai with strength 9 against 2" in pos.log()


# ------------------------------------------------------------------ 12.2 the combat steps
def full_combat_log() -> list[str]:
    pos = thorn_lodz("GE 9")
    pos.run("resolve_attacks", "cp", answers=[
        "attack Lodz from Thorn", "RU 1 retreats to Warsaw then Brest Litovsk", "advance GE 9 into Lodz"],
        dice=[2, 1])
    return pos.log()


@pytest.mark.rule("12.2.1")
@pytest.mark.rule("12.2.2")
@pytest.mark.rule("12.2.13")
def test_the_combat_steps_run_in_the_rulebook_order():
    """12.2.1: designate, strengths, fire, losses, winner, retreat, advance, in
    that order; 12.2.2 the attacker designates units and target; 12.2.13 the
    attacker may advance with full-strength units after the retreat."""
    log = full_combat_log()
    order = [log.index("cp chose: attack Lodz from Thorn"),
             log.index("cp attacks Lodz with strength 5 against 3"),
             log.index("cp fires with strength 5 on the Army table (shift 0), die 2 modified to 2: loss number 3"),
             log.index("RU 1 reduced"),
             log.index("combat won by cp"),
             log.index("ap chose: RU 1 retreats to Warsaw then Brest Litovsk"),
             log.index("cp chose: advance GE 9 into Lodz")]
    assert order == sorted(order)


@pytest.mark.rule("12.2.3")
@pytest.mark.rule("15.1.4")
def test_combat_strength_totals_the_units_and_the_defending_fort():
    """12.2.3, 15.1.4: each side totals its units' CF; the defender adds the
    fort's CF: a Russian corps (1) in Warsaw (fort 2) defends with 3."""
    pos = Position()
    pos.place("AH 1", "Lodz")  # Austro-Hungarians: Germans may not attack Russian forts yet (15.1.11)
    pos.place("AHc", "Lodz")
    pos.place("RUc", "Warsaw")
    pos.control("Lodz", "cp")
    activate_attack(pos, "Lodz")
    run_or_stop(pos, "cp", ["attack Warsaw from Lodz", "from Lodz: AH 1, AHc"], [1, 1])
    assert "cp attacks Warsaw with strength 4 against 3" in pos.log()


@pytest.mark.rule("12.2.10")
def test_without_a_flank_attack_the_defender_takes_losses_first():
    """12.2.10: both fire, then the defender assigns his losses before the
    attacker; his own loss number stands (he fired at full strength)."""
    pos = Position()
    pos.place("GE 9", "Thorn")
    pos.place("GEc", "Thorn")
    pos.place("RU 1", "Lodz")
    pos.place("RUc", "Lodz")
    activate_attack(pos, "Thorn")
    run_or_stop(pos, "cp", ["attack Lodz from Thorn", "from Thorn: GE 9, GEc", "RU 1 in Lodz: flipped"], [2, 2])
    losses = [d for d in pos.asked if d.choice == "take_loss"]
    assert losses[0].by == "ap"
    log = pos.log()
    fired = log.index("ap fires with strength 4 on the Army table (shift 0), die 2 modified to 2: loss number 2")
    assert fired < log.index("RU 1 reduced") < log.index("RUc reduced") < log.index("GEc reduced")
    assert "GEc eliminated" in log  # the Russian loss number was kept at 2, from their full strength


# ------------------------------------------------------------------ 12.4 losses
@pytest.mark.rule("12.4.1")
@pytest.mark.rule("12.4.2")
def test_a_fire_result_is_the_loss_number_paid_in_steps_worth_their_lf():
    """12.4.1: the German result, 3, is the Russians' loss number; 12.4.2: the
    2nd Army's step is worth its LF (2) and a corps step 1: flipping the army
    and the corps pays 3 exactly."""
    pos = Position()
    pos.place("GE 9", "Thorn")
    ru1 = pos.place("RU 1", "Lodz")
    ruc = pos.place("RUc", "Lodz")
    activate_attack(pos, "Thorn")
    run_or_stop(pos, "cp", ["attack Lodz from Thorn", "RU 1 in Lodz: flipped"], [2, 1])
    assert "cp fires with strength 5 on the Army table (shift 0), die 2 modified to 2: loss number 3" in pos.log()
    assert pos.reduced(ru1.index) and pos.reduced(ruc.index)


# ------------------------------------------------------------------ 12.5 retreat
@pytest.mark.rule("12.5.1")
def test_a_win_with_a_full_strength_attacker_forces_every_survivor_back():
    """12.5.1: the attacker won and GE 9 is still full: the defenders left,
    however few steps they lost, must retreat; attackers never retreat."""
    pos = Position()
    ge9 = pos.place("GE 9", "Thorn")
    ru1 = pos.place("RU 1", "Lodz")
    ruc = pos.place("RUc", "Lodz")
    activate_attack(pos, "Thorn")
    run_or_stop(pos, "cp", ["attack Lodz from Thorn", "RU 1 in Lodz: flipped"], [2, 1])
    retreat = [d for d in pos.asked if d.choice == "retreat_path"]
    assert retreat and retreat[0].by == "ap"
    assert where(pos, ge9) == "Thorn"


@pytest.mark.rule("12.5.7")
def test_retreating_leaves_control_until_the_attacker_advances():
    """12.5.7: the Russians retreat from Lodz; with no advance Lodz stays
    Allied.  After an advance it becomes the Central Powers'."""
    pos = thorn_lodz("GE 9")
    pos.run("resolve_attacks", "cp", answers=["attack Lodz from Thorn", "RU 1 retreats to Warsaw then Brest Litovsk",
                                              "stop advancing"], dice=[2, 1])
    assert pos.units_at("Lodz") == [] and control(pos, "Lodz") == "ap"
    assert len(full_combat_log())  # the same combat with an advance:
    pos = thorn_lodz("GE 9")
    pos.run("resolve_attacks", "cp", answers=["attack Lodz from Thorn", "RU 1 retreats to Warsaw then Brest Litovsk",
                                              "advance GE 9 into Lodz"], dice=[2, 1])
    assert control(pos, "Lodz") == "cp"


# ------------------------------------------------------------------ 12.7 advance
@pytest.mark.rule("12.7.5")
def test_an_advance_never_enters_a_space_holding_enemy_units():
    """12.7.5: the Russians retreat two spaces through Warsaw, where another
    Russian corps stands: the Germans may advance into Lodz but not on into
    Warsaw."""
    pos = Position()
    pos.place("GE 9", "Thorn")
    pos.place("RU 1", "Lodz")
    pos.place("RUc", "Warsaw")
    activate_attack(pos, "Thorn")
    run_or_stop(pos, "cp", ["attack Lodz from Thorn", "RU 1 retreats to Warsaw then Brest Litovsk",
                            "advance GE 9 into Lodz"], [2, 1])
    options = [o for d in pos.asked if d.choice == "advance_unit" for o in d.options]
    assert "advance GE 9 into Lodz" in options
    assert not any("Warsaw" in o for o in options)


@pytest.mark.rule("12.7.8")
def test_the_defender_never_advances():
    """12.7.8: the defender wins (the attacker's loss is higher) yet is never
    offered to move into the attacker's space."""
    pos = thorn_lodz("GEc", defenders=("RU 1",))
    pos.run("resolve_attacks", "cp", answers=["attack Lodz from Thorn"], dice=[1, 6])
    assert "combat won by ap" in pos.log()
    assert not any(d.choice == "advance_unit" for d in pos.asked)
    assert pos.units_at("Lodz") == ["RU 1"]


# ------------------------------------------------------------------ 12.6 the Withdrawal combat card
def withdrawal_at_lodz(attackers=("GE 9",), defenders=("RU 1", "RUc"), reserve=()) -> Position:
    """German attackers in Thorn, Russian defenders in Lodz holding the Allied
    Withdrawal card (AP 6)."""
    pos = thorn_lodz(*attackers, defenders=defenders)
    pos.reserve = [pos.place(u, "reserve[ap]") for u in reserve]
    pos.withdrawal = give(pos, "ap", 6)
    return pos


def retreat_options(pos: Position) -> list[str]:
    return [o for d in pos.asked if d.choice == "retreat_path" for o in d.options]


@pytest.mark.rule("12.6.2")
@pytest.mark.rule("12.3.4.2")
def test_withdrawal_is_played_after_the_flank_roll_and_its_step_comes_back_after_the_combat():
    """12.6.2: the defender plays Withdrawal once the flank roll is known.
    12.3.4.2 and 12.6.3: after a successful flank attack the defender fires
    with his losses on; the corps step comes back only afterwards."""
    pos = Position()
    pos.place("GE 8", "Insterberg")
    pos.place("GEc", "Konigsberg")
    pos.place("RU 2", "Tannenberg")
    ruc = pos.place("RUc", "Tannenberg")
    pos.control("Tannenberg", "ap")
    give(pos, "ap", 6)
    activate_attack(pos, "Insterberg", "Konigsberg")
    run_or_stop(pos, "cp", ["attack Tannenberg from Insterberg", "from Konigsberg: GEc",
                            "flank attack, pinning from Insterberg", "ap uses Withdrawal"],
                [6, 2, 1])
    log = pos.log()
    assert log.index("flank attack succeeds: 6 + 1") < log.index("event: Withdrawal")
    # GE 8 + GEc = 7, die 2: loss number 3, the 2nd Army and the corps flipped; the Russians fire with 2 + 0.
    assert log.index("RUc reduced") < log.index("ap fires with strength 2 on the Army table (shift 0), "
                                                 "die 1 modified to 1: loss number 1")
    assert log.index("ap fires with strength 2 on the Army table (shift 0), die 1 modified to 1: loss number 1") < \
        log.index("Withdrawal: RUc regains a step")
    assert not pos.reduced(ruc.index)


@pytest.mark.rule("12.6.3")
@pytest.mark.rule("12.6.9")
def test_withdrawal_gives_back_one_corps_step():
    """12.6.3: loss number 3 flips the 2nd Army and the corps; the corps step is
    negated after the losses.  12.6.9: the step saved is a corps step."""
    pos = withdrawal_at_lodz()
    run_or_stop(pos, "cp", ["attack Lodz from Thorn", "ap uses Withdrawal"], [2, 1])
    ru1, ruc = pos.dfn
    assert pos.reduced(ru1.index) and not pos.reduced(ruc.index)
    assert "Withdrawal: RUc regains a step" in pos.log()


@pytest.mark.rule("12.6.4")
@pytest.mark.rule("12.6.7")
def test_withdrawal_retreat_happens_even_when_the_attacker_loses_and_nothing_was_lost():
    """12.6.4, 12.6.7: a lone German corps attacks, misses, and loses its
    step: the defender won, lost no step, and still retreats one space."""
    pos = withdrawal_at_lodz(attackers=("GEc",), defenders=("RU 1",))
    run_or_stop(pos, "cp", ["attack Lodz from Thorn", "ap uses Withdrawal", "RU 1 retreats to Warsaw"], [1, 6])
    log = pos.log()
    assert "combat won by ap" in log
    assert where(pos, pos.dfn[0]) == "Warsaw" and not pos.reduced(pos.dfn[0].index)


@pytest.mark.rule("12.6.4")
@pytest.mark.rule("12.6.6")
def test_withdrawal_retreat_is_one_space_and_saves_an_army_step_when_no_corps_lost_one():
    """12.6.4: loss numbers 3 to 1 would mean a two-space retreat; with
    Withdrawal the retreat is one space.  12.6.6: no corps step was lost, so
    the flipped army turns face up."""
    pos = withdrawal_at_lodz(defenders=("RU 1",))
    run_or_stop(pos, "cp", ["attack Lodz from Thorn", "ap uses Withdrawal"], [2, 1])
    assert "cp fires with strength 5 on the Army table (shift 0), die 2 modified to 2: loss number 3" in pos.log()
    options = retreat_options(pos)
    assert options and not any(" then " in o for o in options)
    assert not pos.reduced(pos.dfn[0].index)
    # without the card, the same combat sends the army back two spaces
    pos = thorn_lodz("GE 9")
    run_or_stop(pos, "cp", ["attack Lodz from Thorn"], [2, 1])
    assert all(" then " in o for o in retreat_options(pos))


@pytest.mark.rule("12.6.5")
def test_withdrawal_retreat_may_not_be_cancelled_by_a_trench():
    """12.6.5: behind a trench the defenders could normally hold by losing a
    step (12.5.3); with Withdrawal they must go."""
    pos = withdrawal_at_lodz()
    pos.set("trench", 1, key="Lodz")
    run_or_stop(pos, "cp", ["attack Lodz from Thorn", "ap uses Withdrawal"], [4, 1])
    assert "combat won by cp" in pos.log()
    assert not any(o.startswith("hold the space") for d in pos.asked for o in d.options)
    assert retreat_options(pos)
    pos = thorn_lodz("GE 9", defenders=("RU 1", "RUc"))  # the same combat without the card
    pos.set("trench", 1, key="Lodz")
    run_or_stop(pos, "cp", ["attack Lodz from Thorn", "RU 1 in Lodz: flipped"], [4, 1])
    assert any(o.startswith("hold the space") for d in pos.asked for o in d.options)


@pytest.mark.rule("12.6.8")
def test_withdrawal_and_an_army_with_no_reserve_corps():
    """12.6.8: with no corps in reserve, an army flipped by a loss number equal
    to its LF (2) is flipped back; one eliminated by a larger one stays gone."""
    pos = withdrawal_at_lodz(defenders=("RU 1",))
    run_or_stop(pos, "cp", ["attack Lodz from Thorn", "ap uses Withdrawal"], [1, 1])  # loss number 2
    assert not pos.reduced(pos.dfn[0].index) and where(pos, pos.dfn[0]) in ("Lodz", "Warsaw", "Plock", "Czestochowa")
    pos = withdrawal_at_lodz(defenders=("RU 1",))
    run_or_stop(pos, "cp", ["attack Lodz from Thorn", "ap uses Withdrawal"], [6, 1])  # loss number 5
    assert where(pos, pos.dfn[0]) == "removed[ap]"  # no corps to replace it: gone for good (12.4.4)
    assert pos.units_at("Lodz") == []


@pytest.mark.rule("12.6.10")
def test_withdrawal_saves_one_reduced_corps_when_every_defender_dies():
    """12.6.10: the lone corps is eliminated, yet comes back reduced (and then
    retreats one space)."""
    pos = withdrawal_at_lodz(defenders=("RUc",))
    run_or_stop(pos, "cp", ["attack Lodz from Thorn", "ap uses Withdrawal", "RUc retreats to Warsaw"], [6, 1])
    assert "Withdrawal: RUc regains a step" in pos.log()
    assert where(pos, pos.dfn[0]) == "Warsaw" and pos.reduced(pos.dfn[0].index)


@pytest.mark.rule("12.2.4")
def test_trench_negating_cards_come_before_the_flank_attempt():
    """12.2.4 (step 3) and 12.3.1's note: a card that cancels trenches is played
    before the flank attempt, and the attempt is then allowed against a
    trench.  Without it, no flank attack into the trench."""
    def asked(with_card: bool):
        pos = Position()
        pos.place("GE 8", "Insterberg")
        pos.place("GEc", "Konigsberg")
        pos.place("RU 2", "Tannenberg")
        pos.control("Tannenberg", "ap")
        pos.set("trench", 1, key="Tannenberg")
        if with_card:
            give(pos, "cp", 44)  # Von Hutier
        activate_attack(pos, "Insterberg", "Konigsberg")
        run_or_stop(pos, "cp", ["attack Tannenberg from Insterberg", "from Konigsberg: GEc"]
                    + (["cp uses Von Hutier"] if with_card else []), [6, 1])
        return [d.choice for d in pos.asked]

    choices = asked(True)
    assert choices.index("use_combat_card") < choices.index("flank_attack")
    assert "flank_attack" not in asked(False)


def withdrawal_example_12_6_9() -> Position:
    """The 12.6.9 example: BR 1 and two British corps (Amiens) hold
    Withdrawal; a German army attacks from Cambrai and will roll a loss
    number of 3."""
    pos = Position()
    pos.place("GE 1", "Cambrai")
    pos.control("Cambrai", "cp")
    pos.control("Sedan", "cp")  # the German supply line
    pos.br1 = pos.place("BR 1", "Amiens")
    pos.corps = [pos.place("BRc", "Amiens"), pos.place("BRc", "Amiens")]
    give(pos, "ap", 6)
    activate_attack(pos, "Cambrai")
    return pos


def corps_steps_on_map(pos: Position) -> int:
    return sum(0 if where(pos, c) not in ("Amiens", "Abbeville", "Calais", "Rouen", "Paris", "Chateau Thierry")
               else (1 if pos.reduced(c.index) else 2) for c in pos.corps)


@pytest.mark.rule("12.6.9")
def test_withdrawal_example_the_loss_is_taken_on_the_corps_and_a_corps_step_comes_back():
    """12.6.9 example: loss number 3 against BR 1 and two corps with
    Withdrawal: one corps is eliminated and the other flipped (3 corps
    steps), then one corps step comes back; BR 1 is untouched."""
    pos = withdrawal_example_12_6_9()
    run_or_stop(pos, "cp", ["attack Amiens from Cambrai", "ap uses Withdrawal", "BRc in Amiens: flipped",
                            "BRc (flipped) regains a step"], [2, 1])
    assert "cp fires with strength 5 on the Army table (shift 0), die 2 modified to 2: loss number 3" in pos.log()
    assert not pos.reduced(pos.br1.index)
    assert any(t.startswith("Withdrawal: BRc regains a step") for t in pos.log())
    assert corps_steps_on_map(pos) == 2
    regain = [d for d in pos.asked if d.choice == "withdrawal_step"][0]
    assert sorted(regain.options) == ["BRc (flipped) regains a step", "BRc (lost) regains a step"]


@pytest.mark.rule("12.6.9")
def test_withdrawal_loss_may_not_be_put_on_the_army_when_corps_can_pay_it():
    """12.6.9: when the loss can be met in several ways, the defender who
    played Withdrawal takes it on corps, not armies: flipping BR 1 (LF 3)
    is not among his choices."""
    pos = withdrawal_example_12_6_9()
    run_or_stop(pos, "cp", ["attack Amiens from Cambrai", "ap uses Withdrawal"], [2, 1])
    first = [d for d in pos.asked if d.choice == "take_loss"][0]
    assert "BR 1 in Amiens: flipped" not in first.options


@pytest.mark.rule("12.3.4.1")
def test_kemal_still_fires_on_the_army_table_after_flank_losses():
    """12.3.4.1: Kemal was played for two full Turkish corps; the successful
    flank attack's loss number 3 leaves one of them flipped to 0 CF before the
    Turks fire: what is left (0) fires on the Army table's first column, not
    the Corps table.  Without Kemal the same 0 fires on the Corps table.
    (Had the corps been eliminated outright, nothing would fire at all:
    12.3.3.)"""
    def qurna(kemal: bool) -> list[str]:
        pos = Position()
        pos.s["at_war"]["tu"] = True
        pos.place("BR NE", "Basra")
        pos.place("BRc", "Ahwaz")
        pos.control("Ahwaz", "ap")
        pos.place("TUc", "Qurna")
        pos.place("TUc", "Qurna")
        if kemal:
            give(pos, "cp", 31)
        activate_attack(pos, "Basra", "Ahwaz")
        run_or_stop(pos, "ap", ["attack Qurna from Basra", "from Ahwaz: BRc", "flank attack, pinning from Basra"]
                    + (["cp uses Kemal"] if kemal else []) + ["TUc in Qurna: flipped"], [6, 1, 6])
        return pos.log()

    log = qurna(True)
    assert log.index("TUc eliminated") < log.index(
        "cp fires with strength 0 on the Army table (shift 0), die 6 modified to 6: loss number 2")
    assert "cp fires with strength 0 on the Corps/Fort table (shift 0), die 6 modified to 6: loss number 1" in qurna(False)


@pytest.mark.rule("12.1.9")
@pytest.mark.rule("11.3.2")
def test_from_the_caucasus_only_one_russian_corps_attacks_into_the_near_east():
    """12.1.9: Russian armies never attack from the Caucasus space into the
    Near East; one Russian corps a turn may (it is the turn's one crossing of
    11.3.2): with an army and two corps there, the attack on Poti is made by
    a single corps (strength 1)."""
    for units in (("RU CAU", "RUc"), ("RUc", "RUc")):
        pos = Position()
        pos.s["at_war"]["tu"] = True
        for u in units:
            pos.place(u, "Caucasus")
        pos.place("TUc", "Poti")
        pos.control("Poti", "cp")
        activate_attack(pos, "Caucasus")
        run_or_stop(pos, "ap", ["attack Poti from Caucasus"], [1, 1])
        assert "ap attacks Poti with strength 1 against 1" in pos.log(), units
        assert not any(d.choice == "attack_with" for d in pos.asked)


@pytest.mark.rule("12.5.1")
def test_defenders_retreat_even_when_the_attackers_cannot_besiege_the_fort():
    """12.5.1: two German corps beat the Belgians in Liege (fort 3); the one
    corps still at full strength could never besiege the fort, yet the
    surviving Belgian corps must retreat."""
    pos = Position()
    pos.place("GEc", "Aachen")
    pos.place("GEc", "Aachen")
    be = pos.place("BEc", "Liege")
    pos.place("FRc", "Liege", reduced=True)
    activate_attack(pos, "Aachen")
    run_or_stop(pos, "cp", ["attack Liege from Aachen", "from Aachen: GEc, GEc", "FRc in Liege: lost",
                            "BEc retreats to Brussels"], [6, 1])
    assert "combat won by cp" in pos.log()
    assert where(pos, be) == "Brussels"
    assert control(pos, "Liege") == "ap"  # the fort keeps the space (15.1.10)
