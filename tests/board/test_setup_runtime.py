"""The Campaign set-up, RUN: the interpreter plays the scenario's set-up up to
its first decision (the Central Powers' Guns of August choice, 4.3.1) and the
board it leaves is checked against the rulebook's "Unit Set Up" chart (the
same chart test_reference.py checks the source text against), the stacking
limit (10.1.1), the neutral nations (4.2.2) and the starting hands (4.3).
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from pathlib import Path

import pytest

from pogdsl.compiler import scenario_graph
from pogdsl.runtime.interpreter import Game
from pogdsl.runtime.world import build_world

from test_reference import EASTERN_FRONT, OTHER_FRONTS, RESERVE, SETUP_TRENCHES, WESTERN_FRONT

ROOT = Path(__file__).resolve().parents[2]

GUNS = "Guns of August"


def _world(**options):
    comp, graph = scenario_graph("campaign", root=ROOT)
    if graph is None:
        from pogdsl.diagnostics import render

        pytest.fail("\n".join(render(d, comp.sources) for d in comp.reporter.errors))
    w = build_world(comp.scenarios["campaign"][0], graph)
    w.options.update(options)
    return w


@lru_cache(maxsize=None)
def world():
    return _world()


def start(seed: int = 0, w=None):
    """A new Campaign game run to its first decision."""
    game = Game.new(w or world(), seed=seed)
    decision = game.run()
    return game, decision


@pytest.fixture(scope="module")
def first():
    return start()


def placements(game) -> list[tuple]:
    """(unit, where, reduced) for every unit in play, `where` a space name or ("reserve", side)."""
    w, s = game.w, game.s
    out = []
    for u in w.units:
        place = w.place_entity(s["loc"][u.index])
        if place is None:
            continue
        if place.kind == "box":
            decl, side = place.data
            where = (decl.key, side.key) if side is not None else decl.key
        else:
            where = place.key
        out.append((u.key, where, bool(s["reduced"][u.index])))
    return out


def _missing(expected, actual):
    return sorted((Counter(expected) - Counter(actual)).elements(), key=str)


# ----------------------------------------------------------------- the first decision
def test_the_set_up_runs_to_the_guns_of_august_choice(first):
    game, d = first
    assert d is not None
    assert (d.by, d.choice) == ("cp", "start_with_guns")
    assert d.rules == ["4.3"]
    assert len(d.options) == 2
    assert game.s["turn"] == 1 and game.s["phase"] is None  # still in the set-up
    assert game.s["result"] is None


# ----------------------------------------------------------------- units (4.2.1)
@pytest.mark.rule("4.2.1")
def test_western_front_units_in_place(first):
    assert _missing(WESTERN_FRONT, placements(first[0])) == []


@pytest.mark.rule("4.2.1")
def test_eastern_front_units_in_place(first):
    assert _missing(EASTERN_FRONT, placements(first[0])) == []


@pytest.mark.rule("4.2.1")
def test_other_fronts_units_in_place(first):
    assert _missing(OTHER_FRONTS, placements(first[0])) == []


@pytest.mark.rule("4.2.1")
def test_nothing_else_is_in_play(first):
    actual = Counter(placements(first[0]))
    expected = Counter(WESTERN_FRONT + EASTERN_FRONT + OTHER_FRONTS)
    assert sorted((actual - expected).elements(), key=str) == []
    assert actual == expected


@pytest.mark.parametrize("unit, where", [
    ("GEc", "Bremen"), ("GE 7", "Mulhouse"), ("GEc", "Oppeln"), ("AH 2", "Munkacs"),
    ("FR 9", "Bar le Duc"), ("FR 6", "Paris"), ("BRc", "Port Said"), ("BRc", "Cairo"), ("BRc", "Basra"),
])
@pytest.mark.rule("4.2.1")
def test_parenthesised_units_start_reduced(first, unit, where):
    """The chart's "(1 Corps)" and "(7th Army)": reduced side up."""
    assert (unit, where, True) in placements(first[0])


@pytest.mark.rule("4.2.1")
def test_reserve_boxes(first):
    boxes = Counter((u, w) for u, w, reduced in placements(first[0]) if isinstance(w, tuple) and not reduced)
    assert boxes == {
        ("GEc", (RESERVE, "cp")): 8, ("AHc", (RESERVE, "cp")): 4,
        ("FRc", (RESERVE, "ap")): 7, ("RUc", (RESERVE, "ap")): 5, ("SBc", (RESERVE, "ap")): 2,
        ("BEc", (RESERVE, "ap")): 1, ("BRc", (RESERVE, "ap")): 1, ("BR BEFc", (RESERVE, "ap")): 1,
    }
    assert all(not r for _, w, r in placements(first[0]) if isinstance(w, tuple))


def test_units_stand_in_spaces_of_their_own_side(first):
    game = first[0]
    w, s = game.w, game.s
    for u in w.units:
        place = w.place_entity(s["loc"][u.index])
        if place is not None and place.kind == "space":
            assert s["control"][place.index] == u.data.side.key, (u.key, place.key)


@pytest.mark.rule("10.1.1")
def test_no_space_holds_more_than_three_units(first):
    """10.1.1: at most three units a space once the set-up is done (boxes have no limit)."""
    game = first[0]
    w, s = game.w, game.s
    crowded = {sp.key: len(s["occ"][sp.index]) for sp in w.spaces if len(s["occ"][sp.index]) > 3}
    assert crowded == {}


@pytest.mark.rule("4.2.2")
def test_neutral_nations_units_are_not_on_the_map(first):
    """4.2.2: Italy, Turkey, Bulgaria, Romania, Greece and the United States set up only on entering."""
    game = first[0]
    w, s = game.w, game.s
    neutral = {n.key for n in w.nations if n.data[0].neutral}
    assert {"it", "tu", "bu", "ro", "gr", "us"} <= neutral
    in_play = [u.key for u in w.units if u.data.nation.key in neutral and s["loc"][u.index] is not None]
    assert in_play == []
    assert all(not s["at_war"][n] for n in neutral)


@pytest.mark.rule("4.2.1")
def test_trenches(first):
    trench = first[0].s["vars"]["trench"]
    assert {k for k, v in trench.items() if v} == SETUP_TRENCHES
    assert set(trench.values()) == {1}


def test_unit_counts_per_side(first):
    game = first[0]
    sides = Counter(game.w.units[i].data.side.key for occ in game.s["occ"] for i in occ)
    assert sides == {"cp": 34, "ap": 49}


# ----------------------------------------------------------------- cards (4.3, 9.1.2)
def _pile(game, kind, side):
    return [game.w.cards[i] for i in game.s["piles"][f"{kind}:{side}"]]


def _numbers(cards):
    return sorted(c.data.number for c in cards)


@pytest.mark.parametrize("answer, guns_in_hand", [("start with Guns of August in hand: yes", True),
                                                  ("start with Guns of August in hand: no", False)])
@pytest.mark.rule("4.3.1")
@pytest.mark.rule("4.3.2")
def test_both_hands_hold_seven_cards_after_the_guns_choice(answer, guns_in_hand):
    game, d = start(seed=3)
    d = game.choose(answer)
    assert d is not None and d.by == "cp"  # the first action round
    assert game.s["phase"] == "action"
    for side in ("ap", "cp"):
        assert len(_pile(game, "hand", side)) == 7
    cp_hand = [c.data.name.text for c in _pile(game, "hand", "cp")]
    assert (GUNS in cp_hand) is guns_in_hand


@pytest.mark.rule("4.3.1")
@pytest.mark.parametrize("seed", [0, 1, 2, 5, 11])
def test_guns_of_august_yes_always_puts_it_in_hand(seed):
    game, _ = start(seed=seed)
    game.choose(1)
    assert GUNS in [c.data.name.text for c in _pile(game, "hand", "cp")]


def test_decks_hold_only_mobilization_cards_and_no_optional_ones():
    game, _ = start(seed=4)
    game.choose(2)
    for side in ("ap", "cp"):
        cards = _pile(game, "hand", side) + _pile(game, "draw", side)
        assert {c.data.deck.text for c in cards} == {"mobilization"}
        assert not any(c.data.optional for c in cards)
        assert not [n for n in _numbers(cards) if 56 <= n <= 65]
        every = [c for c in game.w.cards if c.data.side.text == side and c.data.deck.text == "mobilization"
                 and not c.data.optional]
        assert _numbers(cards) == _numbers(every)  # and all of them
        assert _pile(game, "discard", side) == [] and _pile(game, "removed", side) == []


def test_before_the_choice_the_mobilization_decks_wait_undealt(first):
    game = first[0]
    for side in ("ap", "cp"):
        assert _pile(game, "hand", side) == []
        assert len(_pile(game, "draw", side)) == 14


@pytest.mark.rule("9.1.2")
def test_the_optional_cards_option_adds_the_optional_mobilization_cards():
    """9.1.2 with the scenario option on: the optional cards of the deck join it."""
    game, _ = start(seed=4, w=_world(optional_cards=True))
    game.choose(2)
    for side in ("ap", "cp"):
        cards = _pile(game, "hand", side) + _pile(game, "draw", side)
        assert [n for n in _numbers(cards) if 56 <= n <= 65] == [56, 57]
        assert {c.data.deck.text for c in cards} == {"mobilization"}
