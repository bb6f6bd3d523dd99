"""The soak's invariants (benchmarks/soak.py): a few random Campaign games
break none of them, and each check does catch a state broken on purpose
(otherwise a soak finding nothing would prove nothing)."""

from __future__ import annotations

import copy
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import soak  # noqa: E402

from pogdsl.agents import RandomAgent, agent_seed  # noqa: E402
from pogdsl.runtime.record import open_scenario  # noqa: E402
from pogdsl.runtime.errors import DecisionBudgetExceeded  # noqa: E402


@pytest.fixture(scope="module")
def opened():
    return open_scenario("campaign", None)


@pytest.fixture(scope="module")
def midgame(opened):
    """A Campaign game stopped after 150 random decisions, and its checker."""
    game = opened.new_game(5, log=False)
    game.samplers = {s.key: RandomAgent(agent_seed(5, s.key)) for s in opened.world.sides}
    game.max_decisions = 150
    checker = soak.Checker(game)
    checker.install()
    with pytest.raises(DecisionBudgetExceeded):
        game.run()
    return game, checker


def test_a_few_games_break_no_invariant():
    summary = soak.soak("campaign", games=3, seed=11, workers=1)
    assert summary["games"] == 3
    assert summary["failures"] == []
    assert summary["violations"] == []
    assert summary["decisions"] > 1000
    assert summary["checks"] >= summary["decisions"]
    assert summary["rest_checks"] > 50  # stacking was checked, at every take_action
    assert "violations: 0" in soak.report(summary)


def test_every_decision_is_checked(midgame):
    game, checker = midgame
    assert game.s["decisions"] == 150
    assert checker.checks >= 150
    assert checker.rest_checks > 0
    assert checker.violations == []


def _board(game):
    w, s = game.w, copy.deepcopy(game.s)
    by_side = {"ap": [], "cp": []}
    for i in range(len(w.spaces)):
        if s["occ"][i]:
            by_side[soak._side(w, s["occ"][i][0])].append(i)
    return w, s, by_side


def _move(s, u, to):
    s["occ"][s["loc"][u]].remove(u)
    s["occ"][to].append(u)
    s["loc"][u] = to


def test_unit_place_catches_a_unit_in_two_places(midgame):
    w, s, sides = _board(midgame[0])
    assert soak.check_unit_places(w, s) == []
    u = s["occ"][sides["ap"][0]][0]
    s["occ"][sides["ap"][1]].append(u)
    assert [v[0] for v in soak.check_unit_places(w, s)] == ["unit-place"]


def test_unit_place_catches_a_unit_listed_nowhere(midgame):
    w, s, sides = _board(midgame[0])
    s["occ"][sides["cp"][0]].pop()
    found = soak.check_unit_places(w, s)
    assert found and "listed in no occupant list" in found[0][1]


def test_unit_place_catches_a_unit_at_no_place(midgame):
    w, s, _ = _board(midgame[0])
    s["loc"][0] = w.location_count + 5
    assert any("which is no place" in d for _, d in soak.check_unit_places(w, s))


def test_sides_catches_enemies_in_one_space(midgame):
    w, s, sides = _board(midgame[0])
    assert soak.check_sides(w, s) == []
    _move(s, s["occ"][sides["ap"][0]][0], sides["cp"][0])
    found = soak.check_sides(w, s)
    assert [v[0] for v in found] == ["sides"]
    assert soak.check_unit_places(w, s) == []  # only that invariant is broken


def test_stacking_catches_four_units_in_a_space(midgame):
    w, s, sides = _board(midgame[0])
    assert soak.check_stacking(w, s, 3) == []
    target = sides["ap"][0]
    for u in [u for i in sides["ap"][1:] for u in s["occ"][i]][:4]:
        _move(s, u, target)
    found = soak.check_stacking(w, s, 3)
    assert [v[0] for v in found] == ["stacking"]
    assert soak.check_sides(w, s) == [] and soak.check_unit_places(w, s) == []


def test_stacking_is_checked_only_at_rest(midgame):
    game, _ = midgame
    w = game.w
    crowded = copy.deepcopy(game.s)
    _, _, sides = _board(game)
    for u in [u for i in sides["cp"][1:] for u in crowded["occ"][i]][:4]:
        _move(crowded, u, sides["cp"][0])
    other = game.copy()
    other.s = crowded
    checker = soak.Checker(other)
    assert checker.check("move_step") == []  # in the middle of a move: allowed for a moment (10.1.2)
    assert [v[0] for v in checker.check("take_action")] == ["stacking"]
    assert checker.stacking_limit() == 3  # the rules' own value
    assert len(checker.violations) == 1 and checker.violations[0]["choice"] == "take_action"


def test_card_pile_catches_a_card_in_two_piles_and_a_lost_card(midgame):
    w, s, _ = _board(midgame[0])
    entered: set = set()
    assert soak.check_cards(w, s, entered) == []
    pile = next(k for k, cards in s["piles"].items() if cards)
    card = s["piles"][pile][0]
    s["piles"]["removed:cp" if pile != "removed:cp" else "removed:ap"].append(card)
    assert [v[0] for v in soak.check_cards(w, s, set(entered))] == ["card-pile"]
    s2 = copy.deepcopy(midgame[0].s)
    s2["piles"][pile].remove(card)
    found = soak.check_cards(w, s2, set(entered))
    assert found and "has left every pile" in found[0][1]


def test_track_range_catches_a_value_out_of_range_and_a_non_integer(midgame):
    game = midgame[0]
    w, s, _ = _board(game)
    assert soak.check_tracks(w, s) == []
    s["vars"]["vp"] = None
    assert [v[0] for v in soak.check_tracks(w, s)] == ["track-range"]

    class Ranged:  # a declared range, as `track vp 0..20` declares it
        def __init__(self, decl):
            self.__dict__.update(state_kind="track", low=0, high=20, scope=decl.scope)

    class W:
        state_decls = {"vp": Ranged(w.state_decls["vp"])}

    s["vars"]["vp"] = 21
    found = soak.check_tracks(W, s)
    assert found == [("track-range", "track vp = 21, outside 0..20")]
    s["vars"]["vp"] = 20
    assert soak.check_tracks(W, s) == []


def test_a_violation_is_reported_with_its_seed_and_decision(opened, monkeypatch):
    """A game whose state is broken mid-game: the soak names seed, decision and invariant."""
    real = soak.check_sides

    def broken(w, s):
        return real(w, s) + ([("sides", "planted")] if s["decisions"] == 10 else [])

    monkeypatch.setattr(soak, "check_sides", broken)
    result = soak.soak_game(opened, 1234)
    assert {(v["invariant"], v["decision"], v["detail"]) for v in result["violations"]} == {("sides", 10, "planted")}
    summary = soak.summarise("campaign", 0, [dict(result, game=0)], 1.0, 1)
    assert summary["violations"][0]["seed"] == 1234
    assert "seed 1234 decision 10" in soak.report(summary)
