"""The declared evaluation (`term` and `value evaluation_scale`,
agents/evaluation.py): a side's score follows its terms, a variant that
replaces, removes or re-weighs a term changes the score, and the rule graph
carries each term with its citations.  The duel fixture (tests/fixtures/duel)
judges by one term, the VP lead."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pogdsl.agents.evaluation import evaluation, score, term_values
from pogdsl.opening import open_scenario

DUEL = Path(__file__).parent / "fixtures" / "duel"
EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples" / "evaluation"


def _variant_project(tmp_path: Path, changes: str) -> Path:
    """The duel fixture and a variant of it, `duel_v`, with CHANGES."""
    root = tmp_path / "duel"
    shutil.copytree(DUEL, root)
    (root / "scenarios" / "variant.pog").write_text(
        f'scenario duel_v "A variant" extends duel cites 4.3 {{\n{changes}\n}}\n', encoding="utf-8")
    return root


def _at_vp(opened, vp: int):
    """A new duel game after its set-up, with the VP marker set to VP."""
    game = opened.new_game(3, log=False)
    game.run()
    game.s["vars"]["vp"] = vp
    game.invalidate()
    return game


def test_the_score_follows_the_terms():
    duel = open_scenario("duel", DUEL)
    behind, even, ahead = (_at_vp(duel, vp) for vp in (17, 20, 23))
    assert evaluation(ahead, "cp") == 3 and evaluation(ahead, "ap") == -3
    assert score(even, "cp") == pytest.approx(0.5)
    assert score(behind, "cp") < 0.5 < score(ahead, "cp")
    assert score(ahead, "cp") + score(ahead, "ap") == pytest.approx(1.0)
    assert term_values(ahead, "cp") == [("vp_lead", 1, 3)]


def test_a_finished_game_scores_its_result():
    game = _at_vp(open_scenario("duel", DUEL), 35)  # far ahead on the marker, but the game is lost
    game.s["result"] = {"winner": "ap", "reason": "test", "rules": []}
    assert score(game, "ap") == 1.0 and score(game, "cp") == 0.0
    game.s["result"] = {"winner": None, "reason": "peace", "rules": []}
    assert score(game, "ap") == score(game, "cp") == 0.5


@pytest.mark.parametrize("changes, effect", [
    ("  edit term vp_lead weight 3", "stronger"),
    ("  replace term vp_lead(p: side) weight 1 cites 5.1 =\n"
     "    (if p == cp then 20 - vp else vp - 20)\n    \"A contrary player: the marker on its side is bad.\"", "reversed"),
    ("  remove term vp_lead", "indifferent"),
])
def test_a_variant_that_changes_a_term_changes_the_score(tmp_path, changes, effect):
    base = _at_vp(open_scenario("duel", DUEL), 23)
    variant = _at_vp(open_scenario("duel_v", _variant_project(tmp_path, changes)), 23)
    before, after = score(base, "cp"), score(variant, "cp")
    assert before > 0.5
    if effect == "stronger":
        assert after > before
    elif effect == "reversed":
        assert after == pytest.approx(1.0 - before)
    else:
        assert after == 0.5


def test_an_added_term_counts(tmp_path):
    changes = ('  add term hand_kept(p: side) weight 10 cites 2.1 = len(cards_in(hand(p)))\n'
               '    "A card kept is an action to come."')
    variant = open_scenario("duel_v", _variant_project(tmp_path, changes))
    game = _at_vp(variant, 20)
    game.s["piles"]["hand:cp"].pop()
    game.invalidate()
    assert [t.name for t in variant.world.terms] == ["vp_lead", "hand_kept"]
    assert score(game, "cp") < 0.5  # a card fewer, the VP even


def test_the_rule_graph_has_each_term_with_its_citations():
    from pogdsl.compiler import scenario_graph

    _, graph = scenario_graph("campaign")
    terms = [n for n, data in graph.nodes(data=True) if data.get("kind") == "term"]
    assert "term:vp_lead" in terms
    cited = {b for _, b, data in graph.out_edges("term:vp_lead", data=True) if data["kind"] == "cites"}
    assert {"rule:5.1.1", "rule:5.2"} <= cited
    reads = {b for _, b, data in graph.out_edges("term:vp_lead", data=True) if data["kind"] == "reads"}
    assert "value:final_vp" in reads


@pytest.mark.parametrize("scenario, even", [("campaign", 11), ("limited_war", 14.5), ("introductory", 12),
                                             ("historical", 12.5)])
def test_the_vp_lead_is_read_against_the_scenario_s_own_victory_levels(scenario, even):
    """5.5.2: the Campaign's Allies win at 9 or less, the Central Powers at 13
    or more; 5.4.2 (12 and 17), 5.3.4 (10 and 14) and 5.7.2 (no draw: 12 and
    13) move the levels, and the VP level that is even for both moves with them."""
    game = open_scenario(scenario).new_game(1, log=False)
    game.run()
    for vp in range(8, 19):
        game.s["vars"]["vp"] = vp
        game.invalidate()
        lead = dict((name, value) for name, _, value in term_values(game, "cp"))["vp_lead"]
        assert lead == 2 * vp - 2 * even


def test_the_illusions_variant_weighs_national_will():
    illusions = open_scenario("illusions")
    assert "national_will" in [t.name for t in illusions.world.terms]
    assert "national_will" not in [t.name for t in open_scenario("campaign").world.terms]
    game = illusions.new_game(2, log=False)
    game.run()
    before = score(game, "cp")
    for n in ("ge", "ah"):  # the Central Powers' home fronts worn down
        game.s["vars"]["national_will"][n] = 4
    game.invalidate()
    assert score(game, "cp") < before


# ------------------------------------------------------------ the Campaign's terms

def _campaign_started(seed: int = 5):
    """A Campaign game at its first decision, after the set-up."""
    game = open_scenario("campaign").new_game(seed, log=False)
    game.run()
    return game


def _term(game, side: str, name: str) -> int:
    return next(v for n, _, v in term_values(game, side) if n == name)


def test_a_destroyed_fort_is_lost_to_its_side_s_forts_term():
    """15.1.9-15.1.10: a standing fort keeps its space for its side; once
    destroyed it no longer does.  Liege (a Belgian fort of strength 3 at the
    start) counts for the Allies until it falls."""
    game = _campaign_started()
    liege = game.w.entity("space", "Liege")
    before = _term(game, "ap", "forts_standing")
    assert liege.data.fort == 3 and before >= 3
    game.s["fort_destroyed"][liege.index] = True
    game.invalidate()
    assert _term(game, "ap", "forts_standing") == before - 3
    assert _term(game, "cp", "forts_standing") == _term(_campaign_started(), "cp", "forts_standing")


def test_a_unit_that_cannot_trace_supply_counts_as_cut_off():
    """14.1.2, 14.3.5: a unit with no line of friendly spaces to a supply
    source is lost in attrition.  A German army set down in Moscow, among
    Allied spaces, counts its combat factors against its side."""
    game = _campaign_started()
    assert _term(game, "cp", "units_cut_off") == 0 and _term(game, "ap", "units_cut_off") == 0
    army = next(u for u in game.w.units if u.data.name == "GE 1")
    game.move_unit(army, game.w.location(game.w.entity("space", "Moscow")))
    game.invalidate()
    cf = next(v for n, _, v in term_values(game, "cp") if n == "strength_on_map")
    assert _term(game, "cp", "units_cut_off") < 0
    assert -_term(game, "cp", "units_cut_off") <= cf
    assert _term(game, "ap", "units_cut_off") == 0


def test_an_open_vp_space_next_to_the_enemy_weighs_more_than_a_held_one():
    """5.1.2, 11.1.14: a VP space changes hands, and the VP marker moves, when
    an enemy unit enters it; one with none of its side's units and no
    standing fort can be taken by walking in, so it counts twice."""
    game = _campaign_started()
    w, loc = game.w, game.s["loc"]

    def units_in(s):
        return [u for u in w.units if loc[u.index] == s.index]

    def enemy_next_door(s, side):
        return any(game.s["control"][x.index] not in (None, side) and units_in(x) for x in w.neighbours[s.index])

    checked = 0
    for s in w.spaces:
        side = game.s["control"][s.index]
        if not s.data.vp or side is None or not units_in(s) or s.data.fort:
            continue
        if not enemy_next_door(s, side):
            continue
        before = _term(game, side, "vp_spaces_threatened")
        for u in units_in(s):
            game.move_unit(u, w.eliminated_box[side])
        game.invalidate()
        assert _term(game, side, "vp_spaces_threatened") == before - 1
        checked += 1
    assert checked >= 1


def test_a_card_spent_is_a_card_drawn_at_the_end_of_the_turn():
    """6.0.G: each side draws up to a full hand when the turn ends, so a card
    still held then takes a fresh card's place.  The term counts only how
    many cards a hand holds, which the other player sees."""
    game = _campaign_started()
    game.choose("start with Guns of August in hand: yes")  # the hands are dealt (4.3)
    for side in ("ap", "cp"):
        held = len(game.s["piles"]["hand:" + side])
        assert held >= 6 and _term(game, side, "cards_held") == -held
    game.s["piles"]["hand:cp"].pop()
    game.invalidate()
    assert _term(game, "cp", "cards_held") == -(len(game.s["piles"]["hand:cp"]))
    # the Allies' view of the game, the Central Powers' hand dealt afresh:
    # other cards, the same count, the same evaluation
    from pogdsl.runtime import rng
    from pogdsl.runtime.hidden import determinize

    _, twin = determinize(game, "ap", rng.seed_state(4))
    assert sorted(twin.s["piles"]["hand:cp"]) != sorted(game.s["piles"]["hand:cp"])
    assert evaluation(twin, "ap") == evaluation(game, "ap")


# ------------------------------------------------------------ the Historical scenario's own term

def _card(world, name: str):
    return world.by_kind["card_name"][name]


def test_the_historical_end_of_game_vp_are_counted_before_the_end():
    """5.7.4 (8, 9): when an Armistice or turn 20 ends the Historical game,
    the Central Powers gain a VP for each US Army reinforcement card whose
    event was never played (AP 38, 43 and 47; AP 64 is optional) and lose
    two if Fall of the Tsar's event was not played.  The players count
    those VP (ten a VP, as the VP lead does) from the start: 3 - 2 = +1 VP
    for the Central Powers, one less for each US card played as an event,
    two more once the Tsar falls; the Allies' term is the opposite."""
    opened = open_scenario("historical")
    game = opened.new_game(4, log=False)
    game.run()
    assert [(w, v) for n, w, v in term_values(game, "cp") if n == "historical_end_vp"] == [(10, 1)]
    assert _term(game, "ap", "historical_end_vp") == -1
    before = score(game, "cp")
    game.s["played"].append(_card(opened.world, "USA Reinforcements (US 1)").index)  # USA Reinforcements (US 1), as its event
    game.invalidate()
    assert _term(game, "cp", "historical_end_vp") == 0 and score(game, "cp") < before
    game.s["played"].append(_card(opened.world, "Fall of the Tsar").index)  # Fall of the Tsar, as its event
    game.invalidate()
    assert _term(game, "cp", "historical_end_vp") == 2 and _term(game, "ap", "historical_end_vp") == -2
    assert "historical_end_vp" not in [t.name for t in open_scenario("campaign").world.terms]


@pytest.mark.parametrize("vp, ws_ap, ws_cp, ap_counts, cp_counts", [
    (12, 17, 18, 5, 0),   # 5.7.2: the Allies win draws, so an armistice at 12 VP is theirs
    (13, 17, 18, 0, 5),   # at 13 it is the Central Powers'
    (13, 15, 15, 0, 0),   # still ten points of War Status short of 40: nothing counts yet
    (20, 30, 25, 0, 25),  # past 40 (16.2.1): every point past 30 counts
])
def test_the_armistice_example_counts_war_status_for_the_side_an_armistice_would_crown(vp, ws_ap, ws_cp,
                                                                                         ap_counts, cp_counts):
    """docs/examples/evaluation/armistice-near.pog (players.rst, tenth
    session): an armistice comes at a combined War Status of 40 (16.2.1)
    and is decided by the VP level (5.5.2; 5.7.2 in the Historical game,
    where the Allies win the draws).  The example counts the combined War
    Status past 30 for the side that level favours, and nothing for the
    other."""
    opened = open_scenario(str(EXAMPLES / "armistice-near.pog"))
    game = opened.new_game(4, log=False)
    game.run()
    game.s["vars"]["vp"] = vp
    game.s["vars"]["war_status"] = {"ap": ws_ap, "cp": ws_cp}
    game.invalidate()
    assert (_term(game, "ap", "armistice_near"), _term(game, "cp", "armistice_near")) == (ap_counts, cp_counts)


def test_the_armistice_example_has_a_twin_that_weighs_nothing():
    """benchmarks/fitted_evaluation.py plays a weighted variant against its
    twin at weight 0: the two must read the very same terms, and differ
    only in the one term's weight."""
    weighted = open_scenario(str(EXAMPLES / "armistice-near.pog")).world.terms
    twin = open_scenario(str(EXAMPLES / "armistice-near-probe.pog")).world.terms
    assert [t.value for t in weighted] == [t.value for t in twin]
    differ = {t.name: (t.weight, u.weight) for t, u in zip(weighted, twin) if t.weight != u.weight}
    assert differ == {"armistice_near": (2, 0)}
