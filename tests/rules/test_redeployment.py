"""Rules 9.3 and 13.0, Strategic Redeployment: SR points from the card (9.3.2),
the cost of corps and armies (13.1.2), once a round (13.1.3), supply (13.1.5,
14.3.2), Russian SR (13.1.6), SR by sea (13.1.7), the Reserve Box (13.1.8,
13.1.9, 13.1.11, 13.1.12), the Near East limits (13.2) and the 13.0
nationality notes.

Each test plays one SR card with `play_for_redeployment` on an empty Campaign
board.  Every decision is asked (even a forced one), so the answers list each
step: the unit, then how and where it goes.  A refused option raises
IllegalOption naming the restriction and its rule."""

import pytest

from pogdsl.runtime.errors import IllegalOption

from .harness import Position

CP_SR4 = "Guns of August"   # SR 4
CP_SR2 = "Landwehr"         # SR 2
AP_SR4 = "Blockade"         # SR 4
AP_SR2 = "Pleve"            # SR 2


def position() -> Position:
    pos = Position()
    pos.game.ask_forced = True
    return pos


def sr(pos, side, card, answers):
    pos.run("play_for_redeployment", side, pos.entity("card", card), answers=answers)


def refused(pos, side, card, answers, rule):
    """The last answer is refused, naming `rule`."""
    with pytest.raises(IllegalOption) as err:
        sr(pos, side, card, answers)
    assert rule in err.value.rules, err.value.message
    return err.value.message


def options(pos, choice):
    return [o for d in pos.asked if d.choice == choice for o in d.options]


def at_war(pos, *nations):
    for n in nations:
        pos.s["at_war"][n] = True
    pos.game.invalidate()


def discarded(pos, side, card):
    return pos.entity("card", card).index in pos.s["piles"][f"discard:{side}"]


# ----------------------------------------------------------------- 9.3.2 / 13.1.2 points and costs

@pytest.mark.rule("9.3.2")
@pytest.mark.rule("13.1.2")
def test_9_3_2_13_1_2_an_army_costs_four_sr_points():
    """13.1.2: an army costs 4 SR points; a 4-SR card moves one army and is spent (then discarded, 9.3.1)."""
    pos = position()
    army = pos.place("GE 1", "Essen", reduced=True)
    sr(pos, "cp", CP_SR4, ["redeploy GE 1 (reduced) from Essen for 4 SR", "overland to Breslau"])
    assert pos.units_at("Breslau") == ["GE 1"]
    assert pos.reduced(army.index)  # SR moves a unit as it is
    assert discarded(pos, "cp", CP_SR4)


@pytest.mark.rule("13.1.2")
def test_13_1_2_a_corps_costs_one_point_four_corps_use_a_four_sr_card():
    pos = position()
    for s in ["Berlin", "Hamburg", "Leipzig", "Dresden"]:
        pos.place("GEc", s)
    sr(pos, "cp", CP_SR4, [
        "redeploy GEc (full) from Berlin for 1 SR", "overland to Breslau",
        "redeploy GEc (full) from Hamburg for 1 SR", "overland to Breslau",
        "redeploy GEc (full) from Leipzig for 1 SR", "overland to Breslau",
        "redeploy GEc (full) from Dresden for 1 SR", "overland to Posen",
    ])
    assert pos.units_at("Breslau") == ["GEc", "GEc", "GEc"]
    assert pos.units_at("Posen") == ["GEc"]
    # the points are spent: no fifth decision was offered
    assert len([d for d in pos.asked if d.choice == "redeploy_unit"]) == 4


@pytest.mark.rule("13.1.2")
def test_13_1_2_an_army_is_refused_when_fewer_than_four_points_are_left():
    pos = position()
    pos.place("GEc", "Berlin")
    pos.place("GE 1", "Essen")
    refused(pos, "cp", CP_SR4, ["redeploy GEc (full) from Berlin for 1 SR", "overland to Breslau",
                                "redeploy GE 1 (full) from Essen for 4 SR"], "13.1.2")


@pytest.mark.rule("13.1.2")
def test_13_1_2_a_two_sr_card_cannot_move_an_army():
    pos = position()
    pos.place("GE 1", "Essen")
    refused(pos, "cp", CP_SR2, ["redeploy GE 1 (full) from Essen for 4 SR"], "13.1.2")


@pytest.mark.rule("13.1.3")
def test_13_1_3_a_unit_redeploys_once_a_card():
    pos = position()
    pos.place("GEc", "Berlin")
    refused(pos, "cp", CP_SR4, ["redeploy GEc (full) from Berlin for 1 SR", "overland to Breslau",
                                "redeploy GEc (full) from Breslau for 1 SR"], "13.1.3")


@pytest.mark.rule("13.1.10")
def test_13_1_10_the_player_may_stop_early_and_keep_a_unit_back():
    """13.1.4, 13.1.10: points may be left unspent; a unit picked may be put back."""
    pos = position()
    pos.place("GEc", "Berlin")
    pos.place("GEc", "Hamburg")
    sr(pos, "cp", CP_SR4, ["redeploy GEc (full) from Berlin for 1 SR", "choose another unit",
                           "redeploy GEc (full) from Hamburg for 1 SR", "overland to Breslau",
                           "end redeployment"])
    assert pos.units_at("Berlin") == ["GEc"]
    assert pos.units_at("Breslau") == ["GEc"]
    assert discarded(pos, "cp", CP_SR4)


# ----------------------------------------------------------------- 13.1.5 / 14.3.2 supply and route

@pytest.mark.rule("14.3.2")
def test_14_3_2_out_of_supply_units_may_not_redeploy():
    pos = position()
    pos.place("GEc", "Minsk")
    pos.control("Minsk", "cp")          # an island in Russia: no path back to Essen or Breslau
    pos.place("GEc", "Berlin")
    refused(pos, "cp", CP_SR4, ["redeploy GEc (full) from Minsk for 1 SR"], "14.3.2")


@pytest.mark.rule("13.1.5")
def test_13_1_5_the_route_enters_only_friendly_spaces():
    """13.1.5: Metz and everything behind the front are not offered to a French corps in Nancy."""
    pos = position()
    pos.place("FRc", "Nancy")
    pos.place("FRc", "Paris")
    sr(pos, "ap", AP_SR4, ["redeploy FRc (full) from Nancy for 1 SR", "overland to Paris", "end redeployment"])
    offered = options(pos, "redeploy_to")
    assert "overland to Verdun" in offered
    assert not any(o in offered for o in ["overland to Metz", "overland to Strasbourg", "overland to Essen"])
    assert pos.units_at("Paris") == ["FRc", "FRc"]


@pytest.mark.rule("13.1.5")
def test_13_1_5_never_through_an_enemy_unit():
    """13.1.5: a friendly space holding enemy units (besiegers of a friendly fort) blocks the route."""
    pos = position()
    pos.place("GEc", "Verdun")          # CP corps besieging... or simply standing in Allied Verdun
    pos.place("FRc", "Nancy")
    sr(pos, "ap", AP_SR4, ["redeploy FRc (full) from Nancy for 1 SR", "overland to Bar le Duc", "end redeployment"])
    assert "overland to Verdun" not in options(pos, "redeploy_to")


@pytest.mark.rule("13.1.5")
def test_13_1_5_a_unit_may_not_lift_a_siege_by_leaving():
    """13.1.5: an army besieging Verdun (fort 3) with one corps may not leave it; the corps may."""
    pos = position()
    pos.place("GE 1", "Verdun")
    pos.place("GEc", "Verdun")
    pos.set("besieged", True, key="Verdun")
    refused(pos, "cp", CP_SR4, ["redeploy GE 1 (full) from Verdun for 4 SR"], "13.1.5")
    pos = position()
    pos.place("GE 1", "Verdun")
    pos.place("GEc", "Verdun")
    pos.set("besieged", True, key="Verdun")
    sr(pos, "cp", CP_SR4, ["redeploy GEc (full) from Verdun for 1 SR", "overland to Metz", "end redeployment"])
    assert pos.units_at("Verdun") == ["GE 1"]


@pytest.mark.rule("10.1.2")
def test_10_1_2_an_sr_may_not_overstack_its_destination():
    pos = position()
    for _ in range(3):
        pos.place("GEc", "Breslau")
    pos.place("GEc", "Berlin")
    refused(pos, "cp", CP_SR4, ["redeploy GEc (full) from Berlin for 1 SR", "overland to Breslau"], "10.1.2")


@pytest.mark.rule("11.1.4")
def test_11_1_4_dotted_lines_only_for_their_nationality():
    """13.1.5 'eligible dashed lines': London's lines are British only."""
    pos = position()
    pos.place("BRc", "London")
    pos.place("FRc", "London")
    sr(pos, "ap", AP_SR4, ["redeploy BRc (full) from London for 1 SR", "overland to Calais",
                           "redeploy FRc (full) from London for 1 SR", "choose another unit",
                           "end redeployment"])
    british, french = [d.options for d in pos.asked if d.choice == "redeploy_to"]
    assert "overland to Calais" in british
    assert not any(o.startswith("overland") for o in french)


@pytest.mark.rule("11.1.9")
def test_11_1_9_no_cp_sr_into_the_channel_ports_before_race_to_the_sea():
    pos = position()
    for s in ["Brussels", "Liege", "Ostend"]:
        pos.control(s, "cp")
    pos.place("GEc", "Brussels")
    refused(pos, "cp", CP_SR4, ["redeploy GEc (full) from Brussels for 1 SR", "overland to Ostend"], "11.1.9")


# ----------------------------------------------------------------- 13.1.6 Russians

@pytest.mark.rule("13.1.6")
def test_13_1_6_russians_stay_inside_russia():
    pos = position()
    pos.place("RUc", "Warsaw")
    sr(pos, "ap", AP_SR4, ["redeploy RUc (full) from Warsaw for 1 SR", "overland to Lodz", "end redeployment"])
    assert pos.units_at("Lodz") == ["RUc"]


@pytest.mark.rule("13.1.6")
def test_13_1_6_russians_use_the_reserve_box_only_from_russia():
    """A Russian corps in Belgrade (supplied from that Russian-network source) may not go to the
    Reserve Box from outside Russia."""
    pos = position()
    pos.place("RUc", "Belgrade")
    refused(pos, "ap", AP_SR4, ["redeploy RUc (full) from Belgrade for 1 SR", "to_reserve"], "13.1.6")
    pos = position()
    pos.place("RUc", "Warsaw")
    sr(pos, "ap", AP_SR4, ["redeploy RUc (full) from Warsaw for 1 SR", "to_reserve", "end redeployment"])
    assert pos.units_at("reserve[ap]") == ["RUc"]


@pytest.mark.rule("13.1.6")
def test_13_1_6_russians_do_not_sr_overland_outside_russia():
    """A Russian corps in Serbia may not SR out of it overland."""
    pos = position()
    pos.place("RUc", "Belgrade")
    pos.place("SBc", "Nis")
    refused(pos, "ap", AP_SR4, ["redeploy RUc (full) from Belgrade for 1 SR", "overland to Nis"], "13.1.6")


# ----------------------------------------------------------------- 13.1.7 by sea

@pytest.mark.rule("13.1.7")
def test_13_1_7_corps_sr_by_sea_between_friendly_ports():
    pos = position()
    pos.place("FRc", "Bordeaux")
    sr(pos, "ap", AP_SR2, ["redeploy FRc (full) from Bordeaux for 1 SR", "by_sea to Marseilles", "end redeployment"])
    assert pos.units_at("Marseilles") == ["FRc"]


@pytest.mark.rule("13.1.7")
def test_13_1_7_armies_never_sr_by_sea():
    pos = position()
    pos.place("FR 1", "Bordeaux")
    refused(pos, "ap", AP_SR4, ["redeploy FR 1 (full) from Bordeaux for 4 SR", "by_sea to Marseilles"], "13.1.7")


@pytest.mark.rule("13.1.7.2")
def test_13_1_7_2_no_allied_sea_sr_to_constantinople_without_gallipoli():
    pos = position()
    at_war(pos, "tu")
    pos.control("Constantinople", "ap")
    pos.place("BRc", "Marseilles")
    refused(pos, "ap", AP_SR2, ["redeploy BRc (full) from Marseilles for 1 SR", "by_sea to Constantinople"],
            "13.1.7.2")


# ----------------------------------------------------------------- 13.1.8 / 13.1.9 the Reserve Box

@pytest.mark.rule("13.1.9")
def test_13_1_9_corps_go_to_the_reserve_box_armies_do_not():
    pos = position()
    pos.place("GEc", "Berlin")
    pos.place("GE 1", "Essen")
    sr(pos, "cp", CP_SR2, ["redeploy GEc (full) from Berlin for 1 SR", "to_reserve", "end redeployment"])
    assert pos.units_at("reserve[cp]") == ["GEc"]
    pos = position()
    pos.place("GE 1", "Essen")
    refused(pos, "cp", CP_SR4, ["redeploy GE 1 (full) from Essen for 4 SR", "to_reserve"], "13.1.9")


@pytest.mark.rule("13.1.8")
def test_13_1_8_out_of_the_reserve_onto_a_unit_of_its_nationality_or_a_capital():
    pos = position()
    pos.place("FRc", "reserve[ap]")
    pos.place("FRc", "reserve[ap]")
    pos.place("FR 1", "Nancy")
    sr(pos, "ap", AP_SR2, ["redeploy FRc (full) from reserve[ap] for 1 SR", "from_reserve to Nancy",
                           "redeploy FRc (full) from reserve[ap] for 1 SR", "from_reserve to Paris"])
    assert pos.units_at("Nancy") == ["FR 1", "FRc"]
    assert pos.units_at("Paris") == ["FRc"]
    assert pos.units_at("reserve[ap]") == []


@pytest.mark.rule("3.0")
@pytest.mark.rule("13.1.8")
def test_3_0_13_1_8_a_belgian_corps_leaves_the_reserve_for_brussels_belgiums_capital():
    """3.0 names Brussels Belgium's capital; 13.1.8 lets a corps leave the
    Reserve Box for a friendly, supplied capital of its nation even when no
    unit of its nation stands there."""
    pos = position()
    pos.place("BEc", "reserve[ap]")
    sr(pos, "ap", AP_SR2, ["redeploy BEc (full) from reserve[ap] for 1 SR", "from_reserve to Brussels",
                           "end redeployment"])
    assert pos.units_at("Brussels") == ["BEc"]


@pytest.mark.rule("13.1.8")
def test_13_1_8_not_onto_a_space_of_another_nationality():
    pos = position()
    pos.place("FRc", "reserve[ap]")
    pos.place("BRc", "Amiens")
    refused(pos, "ap", AP_SR2, ["redeploy FRc (full) from reserve[ap] for 1 SR", "from_reserve to Amiens"],
            "13.1.8")


@pytest.mark.rule("13.1.8")
def test_13_1_8_not_onto_a_space_held_only_by_the_ana():
    """13.1.8: the ANA (British for SR, 13.0) does not open its space to corps leaving the Reserve Box."""
    pos = position()
    pos.place("BRc", "reserve[ap]")
    pos.place("BR ANAc", "Arabia")
    refused(pos, "ap", AP_SR2, ["redeploy BRc (full) from reserve[ap] for 1 SR", "from_reserve to Arabia"],
            "13.1.8")


@pytest.mark.rule("13.0")
def test_13_0_an_aus_corps_counts_as_british_for_sr():
    """13.0: the AUS corps leaves the Reserve Box onto British units."""
    pos = position()
    pos.place("AUSc", "reserve[ap]")
    pos.place("BRc", "Amiens")
    sr(pos, "ap", AP_SR2, ["redeploy AUSc (full) from reserve[ap] for 1 SR", "from_reserve to Amiens",
                           "end redeployment"])
    assert pos.units_at("Amiens") == ["AUSc", "BRc"]


@pytest.mark.rule("13.1.8")
def test_13_1_8_us_corps_may_go_to_any_allied_port_in_france():
    pos = position()
    at_war(pos, "us")
    pos.place("USc", "reserve[ap]")
    pos.place("FRc", "Nancy")
    sr(pos, "ap", AP_SR2, ["redeploy USc (full) from reserve[ap] for 1 SR", "from_reserve to Le Havre",
                           "end redeployment"])
    assert pos.units_at("Le Havre") == ["USc"]
    pos = position()
    at_war(pos, "us")
    pos.place("USc", "reserve[ap]")
    pos.place("FRc", "Nancy")
    refused(pos, "ap", AP_SR2, ["redeploy USc (full) from reserve[ap] for 1 SR", "from_reserve to Nancy"], "13.1.8")


@pytest.mark.rule("13.1.11")
def test_13_1_11_no_reserve_box_sr_while_the_capital_is_besieged_or_lost():
    pos = position()
    pos.place("FRc", "reserve[ap]")
    pos.place("FRc", "Nancy")
    pos.set("besieged", True, key="Paris")
    refused(pos, "ap", AP_SR2, ["redeploy FRc (full) from reserve[ap] for 1 SR", "from_reserve to Nancy"],
            "13.1.11")
    pos = position()
    pos.place("FRc", "Nancy")
    pos.control("Paris", "cp")
    refused(pos, "ap", AP_SR2, ["redeploy FRc (full) from Nancy for 1 SR", "to_reserve"], "13.1.11")


@pytest.mark.rule("13.1.11")
def test_13_1_11_austria_hungary_has_two_capitals():
    pos = position()
    pos.place("AHc", "Cracow")
    pos.control("Budapest", "ap")
    refused(pos, "cp", CP_SR2, ["redeploy AHc (full) from Cracow for 1 SR", "to_reserve"], "13.1.11")


@pytest.mark.rule("13.1.11")
def test_13_1_11_montenegro_only_to_and_from_the_reserve_box():
    pos = position()
    pos.place("MNc", "Cetinje")
    refused(pos, "ap", AP_SR2, ["redeploy MNc (full) from Cetinje for 1 SR", "overland to Tirana"], "13.1.11")
    pos = position()
    pos.place("MNc", "Cetinje")
    sr(pos, "ap", AP_SR2, ["redeploy MNc (full) from Cetinje for 1 SR", "to_reserve", "end redeployment"])
    assert pos.units_at("reserve[ap]") == ["MNc"]


@pytest.mark.rule("13.1.12")
def test_13_1_12_no_reserve_box_sr_for_germans_on_turkish_supply():
    """A German corps in Constantinople, cut from Germany by a neutral Bulgaria, traces only to
    Constantinople."""
    pos = position()
    at_war(pos, "tu")
    pos.place("GEc", "Constantinople")
    refused(pos, "cp", CP_SR2, ["redeploy GEc (full) from Constantinople for 1 SR", "to_reserve"], "13.1.12")


# ----------------------------------------------------------------- 13.2 Near East

@pytest.mark.rule("13.2.1")
def test_13_2_1_one_british_corps_a_turn_by_sea_to_the_near_east():
    pos = position()
    pos.place("BRc", "Marseilles")
    pos.place("BRc", "Bordeaux")
    refused(pos, "ap", AP_SR2, ["redeploy BRc (full) from Marseilles for 1 SR", "by_sea to Alexandria",
                                "redeploy BRc (full) from Bordeaux for 1 SR", "by_sea to Port Said"], "13.2.1")
    assert pos.units_at("Alexandria") == ["BRc"]


@pytest.mark.rule("13.2.1")
def test_13_2_1_french_corps_may_not_sr_by_sea_to_the_near_east():
    pos = position()
    pos.place("FRc", "Marseilles")
    refused(pos, "ap", AP_SR2, ["redeploy FRc (full) from Marseilles for 1 SR", "by_sea to Alexandria"], "13.2.1")


@pytest.mark.rule("13.2.1")
def test_13_2_1_no_limit_by_sea_inside_the_near_east():
    pos = position()
    pos.place("BRc", "Alexandria")
    pos.place("BRc", "Port Said")
    pos.set("british_near_east_sr", 1)   # the turn's crossing is used
    sr(pos, "ap", AP_SR2, ["redeploy BRc (full) from Alexandria for 1 SR", "overland to Cairo",
                           "redeploy BRc (full) from Port Said for 1 SR", "by_sea to Alexandria"])
    assert pos.units_at("Cairo") == ["BRc"]
    assert pos.units_at("Alexandria") == ["BRc"]


@pytest.mark.rule("13.2.2")
def test_13_2_2_one_russian_corps_a_turn_to_the_near_east_never_an_army():
    pos = position()
    pos.place("RUc", "Caucasus")
    pos.place("RUc", "Caucasus")
    refused(pos, "ap", AP_SR2, ["redeploy RUc (full) from Caucasus for 1 SR", "overland to Grozny",
                                "redeploy RUc (full) from Caucasus for 1 SR", "overland to Poti"], "13.2.2")
    pos = position()
    pos.place("RU CAU", "Caucasus")
    refused(pos, "ap", AP_SR4, ["redeploy RU CAU (full) from Caucasus for 4 SR", "overland to Grozny"], "13.2.2")


@pytest.mark.rule("13.2.3")
def test_13_2_3_one_cp_corps_a_turn_to_the_near_east_turks_not_counted():
    pos = position()
    at_war(pos, "tu", "bu")
    pos.place("BUc", "Constantinople")
    pos.place("BUc", "reserve[cp]")
    pos.place("BUc", "reserve[cp]")
    pos.place("TUc", "reserve[cp]")
    refused(pos, "cp", CP_SR4, ["redeploy BUc (full) from reserve[cp] for 1 SR", "from_reserve to Constantinople",
                                "redeploy TUc (full) from reserve[cp] for 1 SR", "from_reserve to Constantinople",
                                "redeploy BUc (full) from reserve[cp] for 1 SR", "from_reserve to Constantinople"],
            "13.2.3")
    assert pos.units_at("Constantinople") == ["BUc", "BUc", "TUc"]
    assert pos.var("cp_near_east_sr") == pos.s["turn"]


@pytest.mark.rule("11.3.1")
def test_11_3_1_armies_not_listed_stay_off_the_near_east_map():
    pos = position()
    at_war(pos, "tu", "bu")
    pos.place("GE 1", "Sofia")
    refused(pos, "cp", CP_SR4, ["redeploy GE 1 (full) from Sofia for 4 SR", "overland to Constantinople"], "11.3.1")


def test_13_1_7_the_ports_open_to_sr_are_read_from_the_open_spaces():
    """`sr_ports(p)` reads `sr_open` from the side's open spaces (a filter
    kept up to date anyway): along a game it lists exactly the side's marked
    ports it controls where `sr_open` holds."""
    from pogdsl.runtime import builtins as B

    from .harness import check_along_a_game, world

    def compare(game, p):
        expected = [s for s in B.value_of(game, "sr_port_spaces", (p,))
                    if game.s["control"][s.index] == p.key and B.value_of(game, "sr_open", (p, s))]
        assert list(B.value_of(game, "sr_ports", (p,))) == expected, p.key

    assert check_along_a_game(world(), 5, compare) >= 8
