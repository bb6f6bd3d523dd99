"""The built-in `reach_within(ns, starts, within, steps)`: the spaces a
search along usable lines reaches inside a list of spaces, no farther than a
number of lines from the starts (a reach within a number of movement points,
as SoE 13.1.6's tactical redeployment needs)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pogdsl.runtime import builtins as B  # noqa: E402
from pogdsl.runtime.interpreter import Game  # noqa: E402
from rules.harness import world  # noqa: E402


def _reach(steps, within=None, ns=("ge",), start="Essen"):
    w = world("campaign")
    game = Game.new(w)
    sp = w.by_kind["space"]
    nations = [w.by_kind["nation"][n] for n in ns]
    allowed = list(w.spaces) if within is None else [sp[n] for n in within]
    return [s.key for s in B.reach_within(game, None, nations, [sp[start]], allowed, steps)]


def test_steps_bound_the_search_and_the_start_is_included():
    assert _reach(0) == ["Essen"]
    one = _reach(1)
    assert sorted(one) == ["Aachen", "Bremen", "Essen", "Kassel"]
    two = _reach(2)
    assert "Hannover" in two and "Berlin" not in two
    assert "Berlin" in _reach(3) and "Stettin" not in _reach(3)


def test_only_spaces_of_the_list_are_entered():
    # Bremen left out: Hannover is then three lines away (Essen, Kassel, Hannover)
    assert "Hannover" in _reach(2, within=["Essen", "Bremen", "Kassel", "Hannover"])
    assert "Hannover" in _reach(2, within=["Essen", "Kassel", "Hannover"])
    assert _reach(3, within=["Essen", "Hannover"]) == ["Essen"]


def test_dotted_lines_only_for_their_nations():
    # Kiev ~~ Kharkov is a Russian dotted line
    assert "Kharkov" in _reach(1, ns=("ru",), start="Kiev")
    assert "Kharkov" not in _reach(1, ns=("ge",), start="Kiev")


def test_the_same_as_reach_along_when_steps_are_many():
    w = world("campaign")
    game = Game.new(w)
    sp = w.by_kind["space"]
    ge = [w.by_kind["nation"]["ge"]]
    along = B.reach_along(game, None, ge, [sp["Essen"]], list(w.spaces))
    within = B.reach_within(game, None, ge, [sp["Essen"]], list(w.spaces), 1000)
    assert sorted(s.key for s in along) == sorted(s.key for s in within)
