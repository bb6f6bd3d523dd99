"""Rules of chapters 10, 11, 13, 14, 15 and 16 that had no test of their own,
each written from the rulebook's text: stacking with the enemy and with
allies (10.1.5, 10.1.6), movement costs and the Senussi (11.1.2, 11.1.16),
trenches for corps and forts (11.2.8, 11.2.9), SR (13.1.1, 13.1.4,
13.1.7.1, 13.2.4, 13.2.5), London as supply source (14.2.4), forts in
combat (15.1.x) and the war status tracks (16.1.5, 16.1.6, 16.2.2, 16.4.1)."""

import pytest

from pogdsl.runtime.errors import IllegalOption

from .harness import Position, Unanswered
from .test_combat import activate_attack, control, where
from .test_redeployment import AP_SR2, AP_SR4, CP_SR4, at_war, options, position, sr
from .test_supply import supplied


def attack(pos: Position, side: str, answers, dice):
    try:
        pos.run("resolve_attacks", side, answers=answers, dice=dice)
    except Unanswered:
        pass
    return pos.log()


# ------------------------------------------------------------------ 10 stacking
@pytest.mark.rule("10.1.5")
def test_opposing_units_never_share_a_space_except_around_a_fort():
    """10.1.5: a German unit may not stop where French units stand; it may
    stand in a space whose only Allied piece is a fort it besieges (forts are
    not units)."""
    pos = Position()
    pos.place("FR 3", "Sedan")
    pos.place("GE 1", "Koblenz")
    pos.activate("Koblenz", "move")
    with pytest.raises(IllegalOption):
        pos.run("move_activated_units", "cp", answers=["move GE 1 from Koblenz", "move to Sedan"])
    pos = Position()
    pos.place("GE 1", "Aachen")
    pos.activate("Aachen", "move")
    pos.run("move_activated_units", "cp", answers=["move GE 1 from Aachen", "move to Liege"])
    assert pos.units_at("Liege") == ["GE 1"] and control(pos, "Liege") == "ap"


@pytest.mark.rule("10.1.6")
def test_nations_of_one_side_stack_freely():
    """10.1.6: an Austro-Hungarian corps may join a German army and corps in
    one space (three units)."""
    pos = Position()
    pos.place("GE 9", "Breslau")
    pos.place("GEc", "Breslau")
    pos.place("AHc", "Oppeln")
    pos.activate("Oppeln", "move")
    pos.run("move_activated_units", "cp", answers=["move AHc from Oppeln", "move to Breslau", "stop in Breslau"])
    assert pos.units_at("Breslau") == ["AHc", "GE 9", "GEc"]


# ------------------------------------------------------------------ 11 movement
@pytest.mark.rule("11.1.2")
def test_every_space_costs_one_movement_point_whatever_its_terrain():
    """11.1.2: a German corps (MF 4) crosses the mountains from Munich by
    Spittal, Villach and Graz to Vienna at one MP a space: four spaces."""
    pos = Position()
    pos.place("GEc", "Munich")
    pos.activate("Munich", "move")
    pos.run("move_activated_units", "cp",
            answers=["move GEc from Munich", "move to Spittal", "move to Villach", "move to Graz", "move to Vienna"])
    assert pos.units_at("Vienna") == ["GEc"]
    assert len(pos.asked) == 5  # the fourth step used the last MP; stopping answered itself


@pytest.mark.rule("11.1.16")
def test_the_senussi_leave_converted_spaces_open_to_attrition():
    """11.1.16: spaces the Senussi took, other than the one they stand in,
    suffer attrition when they cannot trace supply; the Senussi's own space
    stays (they are always supplied, 14.1.5)."""
    pos = Position()
    pos.s["at_war"]["tu"] = True
    pos.place("TU SNc", "Alexandria")
    pos.control("Alexandria", "cp")
    pos.control("Libya", "cp")
    pos.run("attrition_phase")
    assert control(pos, "Libya") == "ap"
    assert control(pos, "Alexandria") == "cp"


@pytest.mark.rule("11.2.8")
def test_corps_in_a_trench_get_its_combat_benefit():
    """11.2.8: a corps cannot dig but defends with the trench: the attacker's
    fire is shifted one column left by a level 1 trench."""
    pos = Position()
    pos.place("GE 9", "Thorn")
    pos.place("RUc", "Lodz")
    pos.set("trench", 1, key="Lodz")
    activate_attack(pos, "Thorn")
    log = attack(pos, "cp", ["attack Lodz from Thorn"], [1, 1])
    assert "cp fires with strength 5 on the Army table (shift -1), die 1 modified to 1: loss number 2" in log


@pytest.mark.rule("11.2.9")
def test_a_fort_alone_gets_no_trench_benefit_but_its_defenders_do():
    """11.2.9: an empty fort space with a trench gives the attacker no column
    shift; with a unit defending there the trench shifts and the fort adds
    its CF."""
    pos = Position()
    pos.place("GE 1", "Aachen")
    pos.set("trench", 1, key="Liege")
    activate_attack(pos, "Aachen")
    log = attack(pos, "cp", ["attack Liege from Aachen"], [1, 1])
    assert any(t.startswith("cp fires with strength 5 on the Army table (shift 0)") for t in log)
    pos = Position()
    pos.place("GE 1", "Aachen")
    pos.place("BEc", "Liege")
    pos.set("trench", 1, key="Liege")
    activate_attack(pos, "Aachen")
    log = attack(pos, "cp", ["attack Liege from Aachen"], [1, 1])
    assert any(t.startswith("cp fires with strength 5 on the Army table (shift -1)") for t in log)
    assert "cp attacks Liege with strength 5 against 4" in log  # corps 1 + fort 3


# ------------------------------------------------------------------ 13 strategic redeployment
@pytest.mark.rule("13.1.1")
def test_sr_moves_far_through_friendly_ground_or_to_the_reserve_box():
    """13.1.1: a corps goes by SR from Berlin across Germany to Strasbourg, or
    into the Reserve Box; not to a space reached only through enemy ground."""
    pos = position()
    pos.place("GEc", "Berlin")
    sr(pos, "cp", CP_SR4, ["redeploy GEc (full) from Berlin for 1 SR", "overland to Strasbourg", "end redeployment"])
    assert pos.units_at("Strasbourg") == ["GEc"]
    pos = position()
    pos.place("GEc", "Berlin")
    sr(pos, "cp", CP_SR4, ["redeploy GEc (full) from Berlin for 1 SR", "to_reserve", "end redeployment"])
    assert pos.units_at("reserve[cp]") == ["GEc"]
    pos = position()
    pos.place("GEc", "Berlin")
    with pytest.raises((IllegalOption, Unanswered)):
        sr(pos, "cp", CP_SR4, ["redeploy GEc (full) from Berlin for 1 SR", "overland to Paris"])


@pytest.mark.rule("13.1.4")
def test_sr_points_are_split_freely_between_nations_and_spaces():
    """13.1.4: one card moves a German corps and an Austro-Hungarian corps
    from different spaces, and leaves the second German corps of Berlin."""
    pos = position()
    pos.place("GEc", "Berlin")
    pos.place("GEc", "Berlin")
    pos.place("AHc", "Vienna")
    sr(pos, "cp", CP_SR4, ["redeploy GEc (full) from Berlin for 1 SR", "overland to Breslau",
                           "redeploy AHc (full) from Vienna for 1 SR", "overland to Cracow", "end redeployment"])
    assert pos.units_at("Breslau") == ["GEc"] and pos.units_at("Berlin") == ["GEc"]
    assert pos.units_at("Cracow") == ["AHc"]


@pytest.mark.rule("13.1.7.1")
def test_central_powers_sea_sr_between_their_ports_in_germany_and_russia():
    """13.1.7.1: a German corps goes by sea from Kiel to Memel (both German
    ports); a besieged Riga may not be used."""
    pos = position()
    pos.place("GEc", "Kiel")
    sr(pos, "cp", CP_SR4, ["redeploy GEc (full) from Kiel for 1 SR", "by_sea to Memel", "end redeployment"])
    assert pos.units_at("Memel") == ["GEc"]
    pos = position()
    pos.place("GEc", "Kiel")
    pos.control("Riga", "cp")
    pos.place("GE 8", "Riga")  # besieging the Russian fort there, which keeps it Allied
    pos.control("Riga", "ap")
    with pytest.raises((IllegalOption, Unanswered)):
        sr(pos, "cp", CP_SR4, ["redeploy GEc (full) from Kiel for 1 SR", "by_sea to Riga"])


@pytest.mark.rule("13.2.4")
def test_no_limit_to_british_sr_inside_the_near_east():
    """13.2.4: two British corps redeploy within the Near East map with one
    card (the one-corps limit of 13.2.1 is for SR into it)."""
    pos = position()
    at_war(pos, "tu")
    pos.place("BRc", "Port Said")
    pos.place("BRc", "Port Said")
    sr(pos, "ap", AP_SR4, ["redeploy BRc (full) from Port Said for 1 SR", "overland to Cairo",
                           "redeploy BRc (full) from Port Said for 1 SR", "overland to Cairo", "end redeployment"])
    assert pos.units_at("Cairo") == ["BRc", "BRc"]


@pytest.mark.rule("13.2.5")
def test_allied_corps_sr_to_the_near_east_before_turkey_enters():
    """13.2.5: with Turkey still neutral, a British corps may go by sea from
    Marseilles to Alexandria."""
    pos = position()
    pos.place("BRc", "Marseilles")
    sr(pos, "ap", AP_SR2, ["redeploy BRc (full) from Marseilles for 1 SR", "by_sea to Alexandria", "end redeployment"])
    assert pos.units_at("Alexandria") == ["BRc"]


# ------------------------------------------------------------------ 14 supply
@pytest.mark.rule("14.2.4")
def test_paris_is_no_supply_source_the_french_trace_to_london():
    """14.2.4: French units trace to London (by a port); cut off from every
    port, a French army in Paris is out of supply: Paris is no source."""
    pos = Position()
    fr = pos.place("FR 1", "Paris")
    assert supplied(pos, fr)
    for s in ("Amiens", "Chateau Thierry", "Melun", "Orleans", "Rouen"):
        pos.control(s, "cp")
    assert not supplied(pos, fr)


# ------------------------------------------------------------------ 15 forts
@pytest.mark.rule("15.1.2")
def test_an_unbesieged_fort_may_be_attacked_from_next_door():
    """15.1.2: Liege's fort alone, not besieged, may be attacked from Aachen."""
    pos = Position()
    pos.place("GE 1", "Aachen")
    activate_attack(pos, "Aachen")
    log = attack(pos, "cp", ["attack Liege from Aachen"], [1, 1])
    assert "cp attacks Liege with strength 5 against 3" in log


@pytest.mark.rule("15.1.3")
def test_a_besieged_fort_is_attacked_only_from_its_own_space():
    """15.1.3: with German units besieging Liege, an army next door in Aachen
    may not attack the fort; the besiegers may."""
    pos = Position()
    pos.place("GE 1", "Liege")
    pos.place("GE 2", "Aachen")
    pos.run("update_sieges", "cp")
    activate_attack(pos, "Aachen")
    try:
        pos.run("resolve_attacks", "cp", answers=[])
    except Unanswered:
        pass
    assert not any("attack Liege from Aachen" in o for d in pos.asked for o in d.options)
    pos = Position()
    pos.place("GE 1", "Liege")
    pos.run("update_sieges", "cp")
    activate_attack(pos, "Liege")
    log = attack(pos, "cp", ["attack Liege from Liege"], [1, 1])
    assert "cp attacks Liege with strength 5 against 3" in log


@pytest.mark.rule("15.1.5")
def test_forts_never_add_their_strength_to_an_attack():
    """15.1.5: French units attacking out of Verdun (fort 3) count only their
    own CF."""
    pos = Position()
    pos.place("FR 3", "Verdun")
    pos.place("GEc", "Metz")
    activate_attack(pos, "Verdun")
    log = attack(pos, "ap", ["attack Metz from Verdun"], [1, 1])
    assert any(t.startswith("ap attacks Metz with strength 3 against") for t in log)


@pytest.mark.rule("15.1.6")
def test_an_empty_fort_is_never_flanked_but_one_with_defenders_may_be():
    """15.1.6: no flank attack against a fort alone; against a fort space with
    unentrenched enemy units, a flank attack is allowed."""
    def flank_offered(defender: bool) -> bool:
        pos = Position()
        pos.place("GE 1", "Aachen")
        pos.place("GEc", "Koblenz")
        if defender:
            pos.place("BEc", "Liege")
        activate_attack(pos, "Aachen", "Koblenz")
        attack(pos, "cp", ["attack Liege from Aachen", "from Koblenz: GEc"], [6, 1, 1])
        return any(d.choice == "flank_attack" for d in pos.asked)

    assert not flank_offered(False)
    assert flank_offered(True)


@pytest.mark.rule("15.1.8")
def test_a_fort_takes_no_unmet_loss_while_a_defender_survives():
    """15.1.8: loss number 3 against a Russian army (LF 2) in Warsaw (fort
    LF 2): the army is flipped; the last point is left unmet and the fort
    stands, as the army survived."""
    pos = Position()
    pos.place("AH 1", "Lodz")
    pos.place("AHc", "Lodz")
    ru = pos.place("RU 1", "Warsaw")
    pos.control("Lodz", "cp")
    activate_attack(pos, "Lodz")
    attack(pos, "cp", ["attack Warsaw from Lodz", "from Lodz: AH 1, AHc"], [4, 1])
    assert "cp fires with strength 4 on the Army table (shift 0), die 4 modified to 4: loss number 3" in pos.log()
    assert pos.reduced(ru.index)
    assert not pos.s["fort_destroyed"][pos.entity("space", "Warsaw").index]


@pytest.mark.rule("15.1.10")
def test_an_intact_fort_keeps_its_space_even_when_besieged():
    """15.1.10: German units besiege Liege: the space stays Allied (its VP not
    claimed) as long as the fort stands."""
    pos = Position()
    pos.place("GE 1", "Aachen")
    pos.activate("Aachen", "move")
    vp = pos.var("vp")
    pos.run("move_activated_units", "cp", answers=["move GE 1 from Aachen", "move to Liege"])
    assert pos.var("besieged", "Liege")
    assert control(pos, "Liege") == "ap" and pos.var("vp") == vp


# ------------------------------------------------------------------ 16 war status
@pytest.mark.rule("16.1.5")
def test_war_commitment_never_goes_down():
    """16.1.5: War Status only goes up, so the level reached stays: a side at
    Limited War is still there at the next check, and an event play adds to
    its War Status, never takes away."""
    pos = Position()
    pos.set("commitment", "limited_war_level", key="cp")
    pos.set("war_status", 5, key="cp")
    pos.run("raise_war_commitment", "cp")
    assert pos.var("commitment", "cp") == "limited_war_level"
    assert all((c.data.war_status or 0) >= 0 for c in pos.w.cards)  # no card lowers a War Status


@pytest.mark.rule("16.1.6")
def test_after_total_war_event_war_status_still_counts_in_the_combined_status():
    """16.1.6: at Total War a side's own War Status no longer matters, but an
    event's War Status still raises the Combined War Status."""
    from pogdsl.runtime import builtins as B

    pos = Position()
    pos.set("commitment", "total_war_level", key="ap")
    pos.set("war_status", 20, key="ap")
    pos.set("war_status", 15, key="cp")
    before = B.value_of(pos.game, "combined_war_status", ())
    zt = pos.entity("card", "Zimmermann Telegram")
    pos.play_event("ap", zt)
    assert B.value_of(pos.game, "combined_war_status", ()) == before + zt.data.war_status
    assert pos.var("commitment", "ap") == "total_war_level"


@pytest.mark.rule("16.2.2")
def test_the_combined_war_status_gates_us_entry():
    """16.2.2: Zimmermann Telegram waits for a Combined War Status of 30,
    whichever side's status makes it up."""
    for ap, cp, allowed in ((30, 0, True), (0, 30, True), (15, 14, False)):
        pos = Position()
        pos.set("war_status", ap, key="ap")
        pos.set("war_status", cp, key="cp")
        assert pos.may_play_event("ap", "Zimmermann Telegram") is allowed, (ap, cp)


@pytest.mark.rule("16.4.1")
def test_the_russian_capitulation_marker_starts_in_god_save_the_tsar():
    """16.4.1: the track has its steps from God Save the Tsar to the treaty,
    and the marker starts in God Save the Tsar."""
    pos = Position()
    assert pos.var("russian_capitulation") == "god_save_the_tsar"
    boxes = list(pos.w.by_kind["capitulation_box"])
    assert boxes[0] == "god_save_the_tsar" and boxes[-1] == "brest_litovsk_signed"


@pytest.mark.rule("13.1.10")
def test_sr_example_units_redeploy_in_any_order_onto_a_unit_that_moved():
    """13.1.10 example: corps A goes from the Reserve Box onto corps B (in
    Essen); B then goes on to Strasbourg; corps C follows from the Reserve
    Box onto B in its new space, which it could not reach before B moved."""
    pos = position()
    a = pos.place("GEc", "reserve[cp]")
    c = pos.place("GEc", "reserve[cp]")
    b = pos.place("GEc", "Essen", reduced=True)
    try:
        sr(pos, "cp", CP_SR4, ["redeploy GEc (full) from reserve[cp] for 1 SR"])
    except Unanswered:
        pass
    assert "from_reserve to Strasbourg" not in options(pos, "redeploy_to")
    pos = position()
    a = pos.place("GEc", "reserve[cp]")
    c = pos.place("GEc", "reserve[cp]")
    b = pos.place("GEc", "Essen", reduced=True)
    sr(pos, "cp", CP_SR4, ["redeploy GEc (full) from reserve[cp] for 1 SR", "from_reserve to Essen",
                           "redeploy GEc (reduced) from Essen for 1 SR", "overland to Strasbourg",
                           "redeploy GEc (full) from reserve[cp] for 1 SR", "from_reserve to Strasbourg",
                           "end redeployment"])
    assert where(pos, b) == "Strasbourg"
    assert sorted([where(pos, a), where(pos, c)]) == ["Essen", "Strasbourg"]
