"""The built-in `reach_along(ns, starts, within)` when its starts begin with
a region it found before through the same spaces along the same lines (as
supply joins a land region to the ports: `lines_region(ns, land + ports,
p)`): that region is not searched from again, and the search finds the same
spaces in the same order as one that could not know it."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pogdsl.runtime import builtins as B  # noqa: E402
from pogdsl.runtime.interpreter import Game  # noqa: E402
from pogdsl.runtime.values import Found  # noqa: E402
from rules.harness import world  # noqa: E402


def _two_parts(w, game):
    """Spaces around Essen and around Warsaw, two parts apart: a search's `within`."""
    sp = w.by_kind["space"]
    every = list(w.spaces)
    west = B.reach_within(game, None, [w.by_kind["nation"]["ge"]], [sp["Essen"]], every, 2)
    east = B.reach_within(game, None, [w.by_kind["nation"]["ru"]], [sp["Warsaw"]], every, 1)
    assert not set(west) & set(east)
    return Found(list(west) + list(east))


def _german_region():
    """(game, spaces, [Germany], the two parts, the region found from Essen
    along German lines through them)."""
    w = world("campaign")
    game = Game.new(w)
    sp = w.by_kind["space"]
    ge = [w.by_kind["nation"]["ge"]]
    within = _two_parts(w, game)
    return game, sp, ge, within, B.reach_along(game, None, ge, [sp["Essen"]], within)


def test_a_search_from_a_region_found_before_and_more_starts_finds_what_a_plain_search_finds():
    game, sp, ge, within, land = _german_region()
    assert sp["Warsaw"] not in land  # (the parts do not touch)
    starts = list(land) + [sp["Warsaw"], sp["Essen"]]
    joined = B.reach_along(game, None, ge, starts, within)
    # The same search through a plain copy of the spaces keeps no region: it searches from every start.
    plain = B.reach_along(game, None, ge, starts, list(within))
    assert [s.key for s in joined] == [s.key for s in plain]
    assert sp["Warsaw"] in joined and len(joined) > len(land)


def test_only_a_region_found_through_the_same_spaces_along_the_same_lines_is_passed_over():
    game, sp, ge, within, land = _german_region()
    more = list(land) + [sp["Warsaw"]]
    assert B.closed_prefix(within, {"ge"}, more) == len(land)
    assert B.closed_prefix(within, {"ge", "ru"}, more) == 0  # other lines: the region may grow
    assert B.closed_prefix(Found(within), {"ge"}, more) == 0  # other spaces (a list of its own)
    assert B.closed_prefix(within, {"ge"}, [sp["Warsaw"]] + list(land)) == 0  # not at the start
    assert B.closed_prefix(within, {"ge"}, list(land)[:-1]) == 0  # not the whole region
