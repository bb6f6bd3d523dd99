"""Suicide of Europe, combat and losses (SoE 12.1-12.4, 12.5.8, 12.6.11).

Each test sets up the same position in the Campaign (Paths of Glory Deluxe)
and in `suicide_of_europe`, and checks Deluxe's result in the one and SoE's
in the other, as the two rulebooks state them."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.harness import Position  # noqa: E402
from rules.test_combat import activate_attack, control, where  # noqa: E402

SOE = "suicide_of_europe"
BOTH = ["campaign", SOE]


def play(pos: Position, procedure: str, *args, answers=(), dice=()) -> None:
    """Run a procedure as Position.run does, but a decision the next answer
    does not fit takes its last option (the "no more" / "stop" of optional
    choices, or the only one), so a test names only the answers it is about."""
    g = pos.game
    code = pos.w.codes[f"procedure:{procedure}"]
    values = [pos._value(a) if isinstance(a, str) else a for a in args]
    pos.s["stack"] = [{"code": f"procedure:{procedure}", "pc": 0, "l": dict(zip(code.params, values))}]
    pos.s["dice"] = list(dice)
    pos.s["result"] = None
    g.invalidate()
    answers = list(answers)
    d = g.run()
    while d is not None:
        pos.asked.append(d)
        if answers and any(o == answers[0] or o.startswith(answers[0]) for o in d.options):
            d = g.choose(answers.pop(0))
        else:
            d = g.choose(len(d.options))
    assert not answers, f"answers never asked for: {answers}"


def options(pos: Position, choice: str) -> list[list[str]]:
    return [d.options for d in pos.asked if d.choice == choice]


def offered(pos: Position, choice: str) -> bool:
    return any(d.choice == choice for d in pos.asked)


def destroyed(pos: Position, space: str) -> bool:
    return pos.s["fort_destroyed"][pos.entity("space", space).index]


# ------------------------------------------------------------------ 12.3.1 / 12.3.2: flank attacks
def two_corps_on_tannenberg(scenario: str) -> Position:
    """Two German corps, one in Insterberg and one in Konigsberg, attack a
    Russian corps in Tannenberg (forest, no trench): no German army."""
    pos = Position(scenario)
    pos.place("GEc", "Insterberg")
    pos.place("GEc", "Konigsberg")
    pos.ruc = pos.place("RUc", "Tannenberg")
    pos.control("Tannenberg", "ap")
    activate_attack(pos, "Insterberg", "Konigsberg")
    return pos


@pytest.mark.rule("soe 12.3.1")
@pytest.mark.rule("12.3.1")
@pytest.mark.parametrize("scenario", BOTH)
def test_flank_attack_without_an_army(scenario):
    """Deluxe 12.3.1 asks for an attacking army; SoE 12.3.1 only for supplied
    units attacking from two or more spaces.  In SoE the corps pin from
    Insterberg, the roll of 3 gets +1 (Konigsberg touches no other Russian)
    and the flank succeeds: the Germans fire first."""
    pos = two_corps_on_tannenberg(scenario)
    answers = ["attack Tannenberg from Insterberg", "from Konigsberg: GEc"]
    if scenario == SOE:
        answers.append("flank attack, pinning from Insterberg")
    play(pos, "resolve_attacks", "cp", answers=answers, dice=[3, 6, 1])
    log = pos.log()
    if scenario == "campaign":
        assert not offered(pos, "flank_attack")
        assert not any("flank attack" in line for line in log)
    else:
        assert options(pos, "flank_attack") == [["flank attack, pinning from Insterberg",
                                                "flank attack, pinning from Konigsberg",
                                                "no flank attack"]]
        assert "flank attack succeeds: 3 + 1" in log
        # The Germans fired first: their corps table roll of 6 came before the Russians'.
        assert log.index("flank attack succeeds: 3 + 1") < next(i for i, line in enumerate(log) if line.startswith("cp fires"))
        assert next(i for i, line in enumerate(log) if line.startswith("cp fires")) < next(i for i, line in enumerate(log) if line.startswith("ap fires"))


@pytest.mark.rule("soe 12.3.1")
@pytest.mark.rule("soe 12.3.2")
@pytest.mark.rule("12.3.1")
@pytest.mark.rule("12.3.2")
@pytest.mark.parametrize("scenario", BOTH)
def test_flank_counts_only_supplied_attacking_spaces(scenario):
    """SoE 12.3.1 and 12.3.2: an attacking space whose units are out of supply
    when the combat starts neither makes a flank attack possible nor pins
    nor adds +1.  A French army in Verdun and a French corps in Strasbourg
    attack a German corps in Metz; once the Attack markers are down,
    Strasbourg is cut off (Mulhouse and Nancy pass to the Central Powers).
    Deluxe 12.3.1/12.3.2 count Strasbourg anyway: pinning from Verdun, a 3
    rolls 3 + 1 and succeeds; in SoE a single supplied space is left: no
    flank attack."""
    pos = Position(scenario)
    pos.place("FR 3", "Verdun")
    pos.place("FRc", "Strasbourg")
    pos.place("GEc", "Metz")
    pos.control("Strasbourg", "ap")
    pos.control("Mulhouse", "cp")
    activate_attack(pos, "Verdun", "Strasbourg")
    pos.control("Nancy", "cp")
    answers = ["attack Metz from Verdun", "from Strasbourg: FRc"]
    if scenario == "campaign":
        answers.append("flank attack, pinning from Verdun")
    play(pos, "resolve_attacks", "ap", answers=answers, dice=[3, 1, 1])
    if scenario == "campaign":
        assert "flank attack succeeds: 3 + 1" in pos.log()
    else:
        assert not offered(pos, "flank_attack")
        assert not any("flank attack" in line for line in pos.log())


# ------------------------------------------------------------------ 12.2.7: the Army table for LF 4
@pytest.mark.rule("soe 12.2.7")
@pytest.mark.rule("12.2.8")
@pytest.mark.parametrize("scenario", BOTH)
def test_lf_four_may_fire_on_the_army_table(scenario):
    """SoE 12.2.7's example: a German army attacks two entrenched Russian
    corps in Warsaw (fort 2).  The Russians fire at strength 4 on the
    Corps/Fort table shifted one column right by the trench (column 5);
    SoE lets them, with LF 4 in the space (two corps and the fort), fire on
    the Army table at 4 instead, giving up the shift.  A 6 gives 2 on the
    Corps/Fort 5 column, 4 on the Army 4 column."""
    pos = Position(scenario)
    pos.place("GE 9", "Lodz")
    pos.place("RUc", "Warsaw")
    pos.place("RUc", "Warsaw")
    pos.control("Warsaw", "ap")
    pos.set("trench", 1, key="Warsaw")
    pos.set("war_status", 4, key="cp")  # Germans may attack Russian forts (Deluxe 15.1.2)
    activate_attack(pos, "Lodz")
    answers = ["attack Warsaw from Lodz"] + (["ap fires on the Army table"] if scenario == SOE else [])
    play(pos, "resolve_attacks", "cp", answers=answers, dice=[1, 6])
    log = "\n".join(pos.log())
    if scenario == "campaign":
        assert not offered(pos, "soe_army_table")
        assert "ap fires with strength 4 on the Corps/Fort table (shift 1), die 6 modified to 6" in log
    else:
        assert options(pos, "soe_army_table") == [["ap fires on the Army table, giving up favourable shifts",
                                                   "fire on the Corps/Fort table"]]
        assert "ap fires with strength 4 on the Army table (shift 0), die 6 modified to 6: loss number 4" in log


@pytest.mark.rule("soe 12.2.7")
@pytest.mark.rule("12.2.8")
def test_army_table_needs_lf_four_in_one_space():
    """SoE 12.2.7: the choice needs LF 4 in one space; a single Russian corps
    and Warsaw's fort make 3: no choice."""
    pos = Position(SOE)
    pos.place("GE 9", "Lodz")
    pos.place("RUc", "Warsaw")
    pos.control("Warsaw", "ap")
    pos.set("war_status", 4, key="cp")  # Germans may attack Russian forts (Deluxe 15.1.2)
    activate_attack(pos, "Lodz")
    play(pos, "resolve_attacks", "cp", answers=["attack Warsaw from Lodz"], dice=[1, 6])
    assert not offered(pos, "soe_army_table")


# ------------------------------------------------------------------ 12.4.6: forts fall to an advance
def liege_stormed(scenario: str, advance: bool) -> Position:
    """Two German armies in Aachen attack a reduced Belgian corps in Liege
    (fort 3) and roll a 6: the loss number of 5 eliminates the corps (LF 1)
    and reaches the fort's LF 3."""
    pos = Position(scenario)
    pos.place("GE 1", "Aachen")
    pos.place("GE 2", "Aachen")
    pos.bec = pos.place("BEc", "Liege", reduced=True)
    activate_attack(pos, "Aachen")
    answers = ["attack Liege from Aachen", "from Aachen: GE 1, GE 2"]
    if advance:
        answers.append("advance GE 1 into Liege")
    play(pos, "resolve_attacks", "cp", answers=answers, dice=[6, 1])
    return pos


@pytest.mark.rule("soe 12.4.6")
@pytest.mark.rule("12.4.6")
@pytest.mark.parametrize("scenario", BOTH)
def test_fort_loss_counts_only_if_an_attacker_enters(scenario):
    """Deluxe 12.4.6: the loss destroys the fort at once.  SoE 12.4.6: it only
    does if an attacking unit advances into the fort space; without the
    advance the fort stands (and keeps Liege Allied)."""
    pos = liege_stormed(scenario, advance=False)
    assert where(pos, pos.bec) == "eliminated[ap]"
    if scenario == "campaign":
        assert destroyed(pos, "Liege")
    else:
        assert not destroyed(pos, "Liege")
        assert "the fort of Liege stands: no attacker entered its space" in pos.log()
        assert control(pos, "Liege") == "ap"


@pytest.mark.rule("soe 12.4.6")
@pytest.mark.rule("12.4.6")
def test_fort_falls_when_an_attacker_advances_into_it():
    """SoE 12.4.6: with a German army advancing into Liege the fort's loss
    takes effect: the fort is destroyed and the space is German."""
    pos = liege_stormed(SOE, advance=True)
    assert destroyed(pos, "Liege")
    assert control(pos, "Liege") == "cp"
    assert pos.units_at("Liege") == ["GE 1"]


# ------------------------------------------------------------------ 12.4.7: the BEF is not a dotted army
@pytest.mark.rule("soe 12.4.7")
@pytest.mark.rule("12.4.7")
@pytest.mark.parametrize("scenario", BOTH)
def test_bef_army_is_no_longer_lost_for_good(scenario):
    """Deluxe 12.4.7 lists the BEF among the armies lost for good; SoE 12.4.7
    drops it.  A reduced BEF army loses its last step with the BEF corps in
    the Reserve Box: the corps replaces it in both games; the army goes to
    the removed box in the Campaign, to the Eliminated (replaceable) box in
    SoE."""
    pos = Position(scenario)
    bef = pos.place("BR BEF", "Amiens", reduced=True)
    befc = pos.place("BR BEFc", "reserve[ap]")
    pos.run("lose_army", "ap", bef)
    assert where(pos, befc) == "Amiens"
    assert where(pos, bef) == ("removed[ap]" if scenario == "campaign" else "eliminated[ap]")


# ------------------------------------------------------------------ 12.2.1: attacks on spaces without enemies
def sedan_front(scenario: str) -> Position:
    """Three German armies in Sedan under an Attack marker; next door the
    empty Allied Cambrai, a French corps in Chateau Thierry and the French
    fort of Verdun (no units)."""
    pos = Position(scenario)
    for army in ("GE 1", "GE 2", "GE 3"):
        pos.place(army, "Sedan")
    pos.frc = pos.place("FRc", "Chateau Thierry")
    pos.control("Sedan", "cp")
    activate_attack(pos, "Sedan")
    return pos


@pytest.mark.rule("soe 12.2.1")
@pytest.mark.rule("12.2.2")
@pytest.mark.parametrize("scenario", BOTH)
def test_an_empty_space_may_be_attacked_without_fire(scenario):
    """Deluxe: only spaces with enemy units or an enemy fort are attacked.
    SoE 12.2.1: an empty space (whoever holds it) may be attacked; with no
    enemy unit and no intact enemy fort there is no fire at all: the
    attacker wins and the combat goes on to the advance."""
    pos = sedan_front(scenario)
    answers = ["attack Cambrai from Sedan", "from Sedan: GE 1"] if scenario == SOE else []
    play(pos, "resolve_attacks", "cp", answers=answers, dice=[])
    first = options(pos, "declare_attack")[0]
    assert "attack Chateau Thierry from Sedan" in first
    assert "attack Verdun from Sedan" in first  # an enemy fort, in both
    if scenario == "campaign":
        assert "attack Cambrai from Sedan" not in first
        assert not any("Cambrai" in line for line in pos.log())
    else:
        assert "attack Cambrai from Sedan" in first
        log = pos.log()
        assert "cp attacks Cambrai, where no enemy stands: no fire, on to the advance" in log
        assert not any(" fires " in line or line.startswith("rolled") for line in log)


@pytest.mark.rule("soe 12.2.1")
@pytest.mark.rule("12.2.2")
def test_attacks_on_empty_spaces_come_first():
    """SoE 12.2.1: every attack on a space without enemy units or intact enemy
    fort must come before the other attacks of the action: once Chateau
    Thierry's corps has been attacked, Cambrai is no longer a target (Verdun,
    an enemy fort, still is)."""
    pos = sedan_front(SOE)
    play(pos, "resolve_attacks", "cp",
         answers=["attack Chateau Thierry from Sedan", "from Sedan: GE 1"], dice=[1, 1])
    first, second = options(pos, "declare_attack")[:2]
    assert "attack Cambrai from Sedan" in first
    assert "attack Cambrai from Sedan" not in second
    assert "attack Verdun from Sedan" in second


@pytest.mark.rule("soe 12.2.1")
@pytest.mark.rule("12.2.2")
def test_an_empty_space_attack_is_no_attack_on_the_enemy():
    """SoE 12.2.1 (the ruling): an attack that meets no enemy is not reported
    as an attack (it pays no Mandated Offensive and cannot start the French
    Mutiny); the attack on the French corps is."""
    pos = sedan_front(SOE)
    made = []
    emit = pos.game.emit

    def spy(event, args):
        if event == "attack_made":
            made.append(args[1].key)
        return emit(event, args)

    pos.game.emit = spy
    try:
        play(pos, "resolve_attacks", "cp", answers=[
            "attack Cambrai from Sedan", "from Sedan: GE 1",
            "attack Chateau Thierry from Sedan", "from Sedan: GE 2"], dice=[1, 1])
    finally:
        pos.game.emit = emit
    assert made == ["Chateau Thierry"]


# ------------------------------------------------------------------ 12.1.6: a space attacked twice
@pytest.mark.rule("soe 12.1.6")
@pytest.mark.rule("12.1.6")
@pytest.mark.parametrize("scenario", BOTH)
def test_a_space_may_be_attacked_again(scenario):
    """Deluxe 12.1.6 allows one attack on a space per action; SoE 12.1.6 only
    one combat per unit.  GE 1 attacks the French 3rd Army in Cambrai and
    loses (the French hold); GE 2 may attack Cambrai again in SoE only."""
    pos = Position(scenario)
    pos.place("GE 1", "Sedan")
    pos.place("GE 2", "Sedan")
    pos.place("FR 3", "Cambrai")
    activate_attack(pos, "Sedan")
    play(pos, "resolve_attacks", "cp", answers=["attack Cambrai from Sedan", "from Sedan: GE 1"], dice=[1, 6])
    assert "combat won by ap" in pos.log()
    again = options(pos, "declare_attack")[1]
    assert ("attack Cambrai from Sedan" in again) == (scenario == SOE)


# ------------------------------------------------------------------ 12.1.11: the shared space
@pytest.mark.rule("soe 12.1.11")
@pytest.mark.rule("12.1.11.1")
@pytest.mark.parametrize("scenario", BOTH)
def test_shared_space_need_only_contain_every_nation(scenario):
    """A French army and a British corps in Chateau Thierry, a British army in
    Cambrai, a German corps in Sedan.  Only the French army attacks from
    Chateau Thierry.  Deluxe 12.1.11.1: the British army may not join, since
    no British unit of the shared space takes part; SoE 12.1.11: the space
    holds units of both nations, which is enough."""
    pos = Position(scenario)
    pos.place("FR 3", "Chateau Thierry")
    pos.place("BRc", "Chateau Thierry")
    pos.place("BR 1", "Cambrai")
    pos.place("GEc", "Sedan")
    activate_attack(pos, "Chateau Thierry", "Cambrai")
    play(pos, "resolve_attacks", "ap", answers=["attack Sedan from Chateau Thierry", "from Chateau Thierry: FR 3"],
         dice=[1, 1])
    joined = [o for opts in options(pos, "attack_with") for o in opts if o.startswith("from Cambrai")]
    assert ("from Cambrai: BR 1" in joined) == (scenario == SOE)


# ------------------------------------------------------------------ 12.1.2 and 12.5.8: retreated defenders
def retreat_into_cambrai(scenario: str, *, corps_in_cambrai=False, reserve_corps=False, card=False) -> Position:
    """GE 1 and GE 2 in Sedan under an Attack marker; the French 3rd Army in
    Chateau Thierry.  GE 1 attacks it first: loss numbers 2 to 1, and the
    army retreats one space into Cambrai.  The next attack of the action may
    then go for Cambrai."""
    pos = Position(scenario)
    pos.place("GE 1", "Sedan")
    pos.place("GE 2", "Sedan")
    pos.fr3 = pos.place("FR 3", "Chateau Thierry")
    if corps_in_cambrai:
        pos.frc = pos.place("FRc", "Cambrai")
    if reserve_corps:
        pos.reserve = pos.place("FRc", "reserve[ap]")
    if card:
        pos.s["piles"]["hand:ap"].append(pos.card("ap", 6).index)
    activate_attack(pos, "Sedan")
    return pos


FIRST_ATTACK = ["attack Chateau Thierry from Sedan", "from Sedan: GE 1", "FR 3 retreats to Cambrai"]


@pytest.mark.rule("soe 12.1.2")
@pytest.mark.rule("12.1.2")
@pytest.mark.parametrize("scenario", BOTH)
def test_a_space_of_retreated_units_may_be_attacked(scenario):
    """Deluxe 12.1.2: a space holding only units that retreated this action
    may not be attacked.  SoE 12.1.2 allows it: the French army fires on the
    Army table's leftmost column (a 6 there gives 2), and the German loss
    number of at least 1 eliminates it (for good: no French corps is in
    the Reserve Box, 12.5.8 and 12.4.7)."""
    pos = retreat_into_cambrai(scenario)
    answers = FIRST_ATTACK + (["attack Cambrai from Sedan"] if scenario == SOE else [])
    play(pos, "resolve_attacks", "cp", answers=answers, dice=[1, 1, 3, 6])
    assert "FR 3 retreats to Cambrai" in " ".join(pos.log()) or where(pos, pos.fr3) != "Chateau Thierry"
    second = options(pos, "declare_attack")[1]
    if scenario == "campaign":
        assert "attack Cambrai from Sedan" not in second
        assert where(pos, pos.fr3) == "Cambrai"
    else:
        assert "attack Cambrai from Sedan" in second
        assert "ap fires with strength 0 on the Army table (shift 0), die 6 modified to 6: loss number 2" in pos.log()
        assert where(pos, pos.fr3) == "removed[ap]"


@pytest.mark.rule("soe 12.1.2")
@pytest.mark.rule("12.1.2")
def test_retreated_defenders_get_no_combat_cards():
    """SoE 12.1.2: defenders that all retreated this action cannot use combat
    cards: the Allies' Withdrawal in hand, offered in the first combat, is
    not offered in the second."""
    pos = retreat_into_cambrai(SOE, card=True)
    play(pos, "resolve_attacks", "cp", answers=FIRST_ATTACK + ["attack Cambrai from Sedan"], dice=[1, 1, 3, 6])
    offers = [any("Withdrawal" in o for o in d.options) for d in pos.asked if d.choice == "use_combat_card" and d.by == "ap"]
    assert offers[0] and not any(offers[1:])


@pytest.mark.rule("soe 12.5.8")
@pytest.mark.rule("12.5.6")
@pytest.mark.parametrize("scenario", BOTH)
def test_retreated_army_with_no_reserve_corps_is_lost_for_good(scenario):
    """Deluxe 12.5.6: units that had retreated are eliminated (to the
    Eliminated box) on a loss number of 1 or more.  SoE 12.5.8 adds that an
    army among them is still lost for good when 12.4.7 says so: here no
    French corps is in the Reserve Box to stand in for it (12.4.7 item 4).
    Cambrai also holds a French corps that did not retreat, so Deluxe lets
    the space be attacked too."""
    pos = retreat_into_cambrai(scenario, corps_in_cambrai=True)
    play(pos, "resolve_attacks", "cp", answers=FIRST_ATTACK + ["attack Cambrai from Sedan"], dice=[1, 1, 3, 1])
    assert where(pos, pos.fr3) == ("eliminated[ap]" if scenario == "campaign" else "removed[ap]")


@pytest.mark.rule("soe 12.5.8")
@pytest.mark.rule("12.5.6")
def test_retreated_army_with_a_reserve_corps_can_be_rebuilt():
    """SoE 12.5.8: with a French corps in the Reserve Box the retreated army
    goes to the Eliminated box as in Deluxe (and the corps does not replace
    it)."""
    pos = retreat_into_cambrai(SOE, corps_in_cambrai=True, reserve_corps=True)
    play(pos, "resolve_attacks", "cp", answers=FIRST_ATTACK + ["attack Cambrai from Sedan"], dice=[1, 1, 3, 1])
    assert where(pos, pos.fr3) == "eliminated[ap]"
    assert where(pos, pos.reserve) == "reserve[ap]"


# ------------------------------------------------------------------ 12.4.5: Polish and Czech corps
@pytest.mark.rule("soe 12.4.5")
@pytest.mark.rule("12.4.5")
@pytest.mark.parametrize("scenario", BOTH)
@pytest.mark.parametrize("army, corps, side", [("GE 1", "PLc", "cp"), ("RU 1", "RU Czlc", "ap")])
def test_polish_and_czech_corps_replace_no_army(scenario, army, corps, side):
    """Deluxe 12.4.4: a corps of the army's nation in the Reserve Box replaces
    an eliminated reduced army, the Polish corps (German) and the Czech
    Legion (Russian) included.  SoE 12.4.5: neither replaces an army, which
    is then lost for good (no corps to replace it, 12.4.7 item 4)."""
    pos = Position(scenario)
    a = pos.place(army, "Lodz", reduced=True)
    c = pos.place(corps, f"reserve[{side}]")
    pos.run("lose_army", side, a)
    if scenario == "campaign":
        assert where(pos, c) == "Lodz"
        assert where(pos, a) == f"eliminated[{side}]"
    else:
        assert where(pos, c) == f"reserve[{side}]"
        assert where(pos, a) == f"removed[{side}]"


# ------------------------------------------------------------------ 12.3.4: a side wiped out before it fires
@pytest.mark.rule("soe 12.3.4")
@pytest.mark.rule("12.3.4.2")
@pytest.mark.parametrize("scenario", BOTH)
def test_a_side_wiped_out_before_firing_ignores_shifts(scenario):
    """The French 3rd Army (Chateau Thierry) and a French corps (Amiens)
    attack a lone Turkish corps in Cambrai; the flank attack succeeds and the
    Central Powers play Turk Determination (the space counts as a level 1
    trench: +1 column for the defender).  The French fire first and
    eliminate the corps.  In Deluxe 12.3.3 the emptied defence has nothing
    left to fire with, and does not fire; SoE 12.3.4 fires it on the
    Corps/Fort table's leftmost column with no shift (a 4 gives 0)."""
    pos = Position(scenario)
    pos.place("FR 3", "Chateau Thierry")
    pos.place("FRc", "Amiens")
    tuc = pos.place("TUc", "Cambrai")
    pos.control("Cambrai", "cp")
    pos.control("Sedan", "cp")  # the corps' line of supply, back to Germany
    pos.s["at_war"]["tu"] = True
    pos.s["piles"]["hand:cp"].append(pos.card("cp", 60).index)
    activate_attack(pos, "Chateau Thierry", "Amiens")
    play(pos, "resolve_attacks", "ap", answers=[
        "attack Cambrai from Chateau Thierry", "from Amiens: FRc", "flank attack, pinning from Chateau Thierry",
        "cp uses Turk Determination"], dice=[3, 6, 4])
    log = pos.log()
    assert "flank attack succeeds: 3 + 1" in log
    assert where(pos, tuc) == "eliminated[cp]"
    if scenario == "campaign":
        assert not any(line.startswith("cp fires") for line in log)
        assert "cp has nothing left to fire with" in log
    else:
        assert "cp fires with strength 0 on the Corps/Fort table (shift 0), die 4 modified to 4: loss number 0" in log


# ------------------------------------------------------------------ 12.3.3: clarification, already so
@pytest.mark.rule("soe 12.3.3")
@pytest.mark.rule("12.3.3")
@pytest.mark.parametrize("scenario", BOTH)
def test_failed_flank_lets_the_defender_fire_and_take_losses_first(scenario):
    """SoE 12.3.3 spells out what the project already does for Deluxe 12.3.3:
    after a failed flank roll the defender goes through steps 6 to 9 (fire
    and losses) before the attacker fires.  The same in both games."""
    pos = Position(scenario)
    pos.place("GE 8", "Insterberg")
    pos.place("GEc", "Konigsberg")
    pos.place("RU 2", "Tannenberg")
    pos.control("Tannenberg", "ap")
    activate_attack(pos, "Insterberg", "Konigsberg")
    play(pos, "resolve_attacks", "cp", answers=[
        "attack Tannenberg from Insterberg", "from Konigsberg: GEc", "flank attack, pinning from Insterberg",
        "GE 8 in Insterberg: flipped"], dice=[1, 6, 3])
    log = pos.log()
    assert "flank attack fails: 1 + 1" in log
    ap_fire = next(i for i, line in enumerate(log) if line.startswith("ap fires"))
    cp_fire = next(i for i, line in enumerate(log) if line.startswith("cp fires"))
    assert ap_fire < log.index("GE 8 reduced") < cp_fire


# ------------------------------------------------------------------ 12.2.10: They Shall Not Pass kept a turn longer
@pytest.mark.rule("soe 12.2.10")
@pytest.mark.rule("12.2.11")
@pytest.mark.parametrize("scenario", BOTH)
def test_they_shall_not_pass_stays_until_the_end_of_the_next_turn(scenario):
    """Two French corps hold Verdun (fort 3) with They Shall Not Pass against
    a German army from Metz and win.  Deluxe 9.5.4.5: the card kept face up
    is discarded when the turn ends (the draw phase).  SoE 12.2.10: it stays
    until the end of the turn after, and goes at the next draw phase."""
    pos = Position(scenario)
    pos.place("GE 1", "Metz")
    pos.place("FRc", "Verdun")
    pos.place("FRc", "Verdun")
    tsnp = pos.card("ap", 39)
    pos.s["piles"]["hand:ap"].append(tsnp.index)
    activate_attack(pos, "Metz")
    play(pos, "resolve_attacks", "cp", answers=["attack Verdun from Metz", "ap uses They Shall Not Pass"], dice=[1, 6])
    assert "combat won by ap" in pos.log()
    assert pos.pile("in_play", "ap") == ["They Shall Not Pass"]
    # The draw phase may shuffle the discard pile back into the draw pile and
    # deal from it: what counts is that the card has left the table.
    play(pos, "draw_strategy_cards", "ap")
    if scenario == "campaign":
        assert pos.pile("in_play", "ap") == []
    else:
        assert pos.pile("in_play", "ap") == ["They Shall Not Pass"]
        assert "ap keeps They Shall Not Pass face up into the next turn" in pos.log()
        play(pos, "draw_strategy_cards", "ap")
        assert pos.pile("in_play", "ap") == []


# ------------------------------------------------------------------ 12.6.11: Withdrawal as a standing order
def withdrawal_then_second_attack(scenario: str) -> Position:
    """Round 1: GE 1 (Sedan) attacks two British corps in Cambrai and the
    Allies play Withdrawal from the hand.  Round 2: GE 2 (Sedan) attacks two
    other British corps in Chateau Thierry and rolls a 3 (loss number 3)."""
    pos = Position(scenario)
    pos.place("GE 1", "Sedan")
    pos.place("GE 2", "Sedan")
    for space in ("Cambrai", "Cambrai", "Chateau Thierry", "Chateau Thierry"):
        pos.place("BRc", space)
    pos.withdrawal = pos.card("ap", 6)
    pos.s["piles"]["hand:ap"].append(pos.withdrawal.index)
    pos.set("action_round", 1)
    activate_attack(pos, "Sedan")
    play(pos, "resolve_attacks", "cp", answers=[
        "attack Cambrai from Sedan", "from Sedan: GE 1", "ap uses Withdrawal"], dice=[1, 1])
    pos.after_first = {k: pos.pile(k, "ap") for k in ("in_play", "removed", "discard")}
    pos.first_asked = len(pos.asked)
    pos.set("action_round", 2)
    activate_attack(pos, "Sedan")
    answers = ["attack Chateau Thierry from Sedan", "from Sedan: GE 2"]
    if scenario == SOE:
        answers.append("ap uses Withdrawal")
    play(pos, "resolve_attacks", "cp", answers=answers, dice=[3, 1])
    return pos


@pytest.mark.rule("soe 12.6.11")
@pytest.mark.rule("12.6")
@pytest.mark.parametrize("scenario", BOTH)
def test_withdrawal_stays_face_up_after_a_hand_play(scenario):
    """Deluxe: Withdrawal is a starred card, gone after its combat.  SoE
    12.6.11: played from the hand it stays face up in front of its owner."""
    pos = withdrawal_then_second_attack(scenario)
    if scenario == "campaign":
        assert pos.after_first["removed"] == ["Withdrawal"] and pos.after_first["in_play"] == []
    else:
        assert pos.after_first["in_play"] == ["Withdrawal"] and pos.after_first["removed"] == []


@pytest.mark.rule("soe 12.6.11")
@pytest.mark.rule("12.6")
@pytest.mark.parametrize("scenario", BOTH)
def test_face_up_withdrawal_cuts_the_loss_and_loses_the_combat(scenario):
    """SoE 12.6.11: in a later round the face-up Withdrawal may be selected by
    a defence of corps only: the attacker's loss number of 3 becomes 1, the
    defence loses (even though the British rolled as well) and retreats two
    spaces, and the card stays face up.  In the Campaign the card is gone:
    the British take all 3 steps."""
    pos = withdrawal_then_second_attack(scenario)
    log = pos.log()
    second = [d for d in pos.asked[pos.first_asked:] if d.choice == "use_combat_card" and d.by == "ap"]
    if scenario == "campaign":
        assert not any("Withdrawal" in o for d in second for o in d.options)
        assert "cp fires with strength 5 on the Army table (shift 0), die 3 modified to 3: loss number 3" in log
    else:
        assert "ap uses Withdrawal" in second[0].options
        assert "the face-up Withdrawal cuts the loss number from 3 to 1" in log
        assert "the defence used the face-up Withdrawal: combat won by cp" in log
        assert pos.pile("in_play", "ap") == ["Withdrawal"]
        assert pos.units_at("Chateau Thierry") == []
        # each corps must retreat (two spaces); SoE 12.5.3 lets a unit whose
        # first space holds friendly units in supply (Paris) stop there
        assert sum(1 for line in log if "BRc ends its retreat in Paris after one space" in line) == 2


# ------------------------------------------------------------------ 12.1.10: London's partners
@pytest.mark.rule("soe 12.1.10")
@pytest.mark.rule("12.1.10")
@pytest.mark.parametrize("scenario", BOTH)
def test_london_attacks_only_beside_units_in_france_or_belgium(scenario):
    """Deluxe and SoE 12.1.10 alike: London's units join an attack only when
    units in France (or Belgium; SoE adds Holland, which the Campaign map
    does not have) take part.  A British corps in Amiens attacks Calais: the
    London corps may join; London never leads an attack."""
    pos = Position(scenario)
    pos.place("BRc", "Amiens")
    pos.place("BRc", "London")
    pos.place("GEc", "Calais")
    pos.control("Calais", "cp")
    activate_attack(pos, "Amiens", "London")
    play(pos, "resolve_attacks", "ap", answers=["attack Calais from Amiens", "from London: BRc"],
         dice=[1, 1])
    first = options(pos, "declare_attack")[0]
    assert "attack Calais from London" not in first
    assert ["from London: BRc", "no units from there"] in options(pos, "attack_with")


@pytest.mark.rule("soe 12.6.11")
@pytest.mark.rule("12.6")
def test_face_up_withdrawal_not_for_a_defence_with_an_army():
    """SoE 12.6.11: the face-up Withdrawal serves only a defence without
    armies or forts: a British army among the defenders of Chateau Thierry
    keeps it out of the second combat."""
    pos = Position(SOE)
    pos.place("GE 1", "Sedan")
    pos.place("GE 2", "Sedan")
    for space in ("Cambrai", "Cambrai", "Chateau Thierry"):
        pos.place("BRc", space)
    pos.place("BR 1", "Chateau Thierry")
    pos.s["piles"]["hand:ap"].append(pos.card("ap", 6).index)
    pos.set("action_round", 1)
    activate_attack(pos, "Sedan")
    play(pos, "resolve_attacks", "cp", answers=[
        "attack Cambrai from Sedan", "from Sedan: GE 1", "ap uses Withdrawal"], dice=[1, 1])
    assert pos.pile("in_play", "ap") == ["Withdrawal"]
    first = len(pos.asked)
    pos.set("action_round", 2)
    activate_attack(pos, "Sedan")
    play(pos, "resolve_attacks", "cp", answers=["attack Chateau Thierry from Sedan", "from Sedan: GE 2"], dice=[3, 1])
    assert not any("Withdrawal" in o for d in pos.asked[first:] if d.choice == "use_combat_card" for o in d.options)
    assert not any("face-up Withdrawal" in line for line in pos.log())


@pytest.mark.rule("soe 12.2.1")
@pytest.mark.rule("12.2.2")
@pytest.mark.rule("15.1.3")
@pytest.mark.parametrize("scenario", BOTH)
def test_friendly_spaces_and_besieged_forts_may_be_targets(scenario):
    """SoE 12.2.1 names as targets a space holding the attacker's own units
    and one where they besiege a fort; Deluxe attacks only enemy units or an
    enemy fort not under siege (15.1.3: a besieged fort only from its own
    space).  GE 1 besieges Liege, GE 2 stands in Koblenz; from Aachen, GE 3
    may attack Koblenz and Liege in SoE only.  (Liege's intact fort makes
    that attack a real combat against the fort.)"""
    pos = Position(scenario)
    pos.place("GE 1", "Liege")
    pos.run("check_siege", "Liege")
    pos.place("GE 2", "Koblenz")
    pos.place("GE 3", "Aachen")
    activate_attack(pos, "Aachen")
    play(pos, "resolve_attacks", "cp", answers=[], dice=[])
    first = options(pos, "declare_attack")
    targets = first[0] if first else []
    assert ("attack Liege from Aachen" in targets) == (scenario == SOE)
    assert ("attack Koblenz from Aachen" in targets) == (scenario == SOE)
