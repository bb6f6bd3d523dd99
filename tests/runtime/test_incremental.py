"""Values kept up to date incrementally (builtins.value_of, deps.py).

A remembered result must always equal the value worked out afresh; what the
machinery saves is work, never a different answer.  These tests check the
three ways it saves work: per-entity areas, early cut-off, and space filters
patched one space at a time."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pogdsl.runtime import builtins as B  # noqa: E402
from pogdsl.runtime.interpreter import Game  # noqa: E402
from rules.harness import ROOT, play_randomly, world  # noqa: E402


@pytest.fixture(scope="module")
def campaign():
    return world()


def _fresh(game: Game, name: str, args: tuple):
    """The value worked out with nothing remembered."""
    other = Game(game.w, game.s)
    other.cache_values = False
    return B.value_of(other, name, args)


def test_areas_of_a_value_name_its_arguments_own_state(campaign):
    whole, own = campaign.value_areas["in_supply"]
    assert "board" not in whole, "in_supply reads only its unit's own place, not the whole board"
    assert (0, "board") in own
    whole, own = campaign.value_areas["sr_open"]
    assert (1, "board") in own and (1, "var:besieged") in own


def test_supply_open_spaces_is_a_space_filter(campaign):
    own, others, _ = campaign.space_filters["supply_open_spaces"]
    # (war: whether the space's nation, or the nation of a unit in it, is at war)
    assert own == {"board", "var:besieged", "war"}
    assert "board" not in others and "war" not in others
    assert "war:tu" in others  # Persia opens with Turkey at war (nation_open): Turkey's entry alone
    assert "sr_open_spaces" in campaign.space_filters
    assert "open_sources" in campaign.space_filters  # the sources a space traces to, kept per space
    assert "live_sources" in campaign.space_filters  # the sources a network traces to


def test_a_space_filter_tests_each_space_without_remembering_it(campaign):
    """sr_open_spaces calls sr_open for each space: through the filter that
    call is worked out, not remembered once per space."""
    game = Game.new(campaign, seed=5, log=False)
    game.run()
    B.value_of(game, "sr_open_spaces", (campaign.sides[0],))
    assert ("sr_open_spaces", (campaign.sides[0],)) in game.vcache
    assert not any(key[0] == "sr_open" for key in game.vcache)


def test_a_search_through_a_region_matches_one_testing_each_space(campaign):
    """`reach(t from S where t in R)` runs as a set lookup (reach_in_region):
    the same spaces in the same order as the test written out."""
    game = Game.new(campaign, seed=6, log=False)
    game.run()
    spaces = campaign.spaces
    region = [s for s in spaces if s.index % 3 != 0]
    for start in spaces[::17]:
        expected = B.reach(game, None, [start], lambda t: t in region)
        assert list(B.reach_in_region(game, None, [start], region)) == list(expected)
    assert list(B.reach_in_region(game, None, [spaces[1]], None)) == [spaces[1]]  # none: an empty region


@pytest.mark.parametrize("seed", [3, 8])
def test_remembered_supply_values_equal_fresh_ones_along_a_game(campaign, seed):
    game = Game.new(campaign, seed=seed, log=False)
    rng = random.Random(seed)
    sides = list(campaign.sides)
    cp, ap = campaign.by_kind["side"]["cp"], campaign.by_kind["side"]["ap"]
    ru = campaign.by_kind["nation"]["ru"]
    units = campaign.units
    d = game.run()
    checked = 0
    while checked < 250:
        if d is None:  # a random game may end early (a peace accepted, a VP victory): play another
            game = Game.new(campaign, seed=seed + 1000 + checked, log=False)
            d = game.run()
        for p in sides:
            remembered = B.value_of(game, "supply_open_spaces", (p,))
            assert remembered == _fresh(game, "supply_open_spaces", (p,))
            assert B.value_of(game, "space_region", (p,)) == _fresh(game, "space_region", (p,))
            assert B.value_of(game, "sr_open_spaces", (p,)) == _fresh(game, "sr_open_spaces", (p,))
        for feeds, p in ((cp, cp), (ap, ap), (ru, ap)):
            # 14.1.2: a marked source feeds while its side holds it and no enemy stands in it
            open_ = _fresh(game, "supply_open_spaces", (p,))
            marked = _fresh(game, "marked_sources", (feeds,))
            expected = [s for s in marked if game.s["control"][s.index] == p.key and s in open_]
            assert list(B.value_of(game, "live_sources", (feeds, p))) == expected
        for u in rng.sample(units, 5):
            assert B.value_of(game, "in_supply", (u,)) == _fresh(game, "in_supply", (u,)), u.key
            if u.data.side is not None and game.s["loc"][u.index] is not None \
                    and 0 <= game.s["loc"][u.index] < len(campaign.spaces):
                side = u.data.side
                network = B.value_of(game, "sr_network", (side, u))
                assert network == _fresh(game, "sr_network", (side, u))
                # The network searched again with each space tested on its own:
                start = campaign.spaces[game.s["loc"][u.index]]
                open_ = [t for t in campaign.spaces if B.value_of(game, "sr_open", (side, t))]
                nations = [u.data.nation, B.value_of(game, "sr_nation", (u,))]
                by_test = B.reach_along(game, None, nations, [start], open_)
                assert list(network) == list(by_test), u.key
        d = game.choose(rng.randrange(len(d.options)) + 1)
        checked += 1


def test_an_unchanged_result_keeps_its_object_and_its_revision():
    """Early cut-off: after a board change that leaves a supply region as it
    was, the region is the same object, marked as changed no later than before."""
    from pogdsl.opening import open_scenario

    # A world of its own: a process that has played many games (the rest of
    # the suite) may have learnt to work supply regions out afresh at each call
    # (builtins._stop_remembering), and then there is no remembered entry.
    campaign = open_scenario("campaign", ROOT, cache=False).world
    game = play_randomly(campaign, 5, 60)
    cp = campaign.by_kind["side"]["cp"]
    net = campaign.by_kind["supply_net"]["cp_lines"]
    region = B.value_of(game, "supply_region", (net,))
    entry = game.vcache[("supply_region", (net,))]
    changed_before = entry[B.CHANGED]
    # Move a Central Powers unit between two of its own spaces deep inside its
    # region: no space opens or closes to supply.
    mover = next(u for u in campaign.units if u.data.side is cp and game.s["loc"][u.index] is not None
                 and 0 <= game.s["loc"][u.index] < len(campaign.spaces))
    game.move_unit(mover, game.s["loc"][mover.index])
    again = B.value_of(game, "supply_region", (net,))
    assert again is region
    assert game.vcache[("supply_region", (net,))][B.CHANGED] == changed_before
    assert game.vcache[("supply_region", (net,))][B.CHECKED] == game.clock


def values_worked_out(monkeypatch) -> list:
    """The names of the values worked out from here on (not found
    remembered, nor patched), in order: a list that fills as the test runs."""
    names: list = []
    original = B._value_of

    def noting(g, name, args):
        names.append(name)
        return original(g, name, args)
    monkeypatch.setattr(B, "_value_of", noting)
    return names


def test_a_space_filter_is_patched_not_recomputed(campaign, monkeypatch):
    game = play_randomly(campaign, 2, 40)
    cp = campaign.by_kind["side"]["cp"]
    B.value_of(game, "supply_open_spaces", (cp,))
    calls = values_worked_out(monkeypatch)
    unit = next(u for u in campaign.units if game.s["loc"][u.index] is not None
                and 0 <= game.s["loc"][u.index] < len(campaign.spaces))
    game.move_unit(unit, game.s["loc"][unit.index])
    result = B.value_of(game, "supply_open_spaces", (cp,))
    assert "supply_open_spaces" not in calls, "the whole map was scanned again"
    assert result == _fresh(game, "supply_open_spaces", (cp,))


def test_a_filter_reading_the_neighbours_is_patched_around_each_change(campaign, monkeypatch):
    """front_spaces (the spaces next to enemy units) reads the units of each
    space's neighbours: a unit moving is a change to the spaces it left and
    entered; whether enemy units stand there is asked again of those two,
    and only the spaces next to one where the answer changed are tested
    again.  The result stays what the rule says at every decision of a
    game, and so does the answer kept for every space."""
    assert campaign.filter_neighbours["front_spaces"] == {"board"}
    assert "front_spaces" in campaign.filter_inner
    sides = list(campaign.sides)

    def enemy_in(game, x, p):
        return any(game.s["loc"][u.index] == x.index and u.data.side is not None and u.data.side is not p
                   for u in campaign.units)

    def by_rule(game, p):
        return [t for t in campaign.spaces if any(enemy_in(game, x, p) for x in campaign.neighbours[t.index])]

    def each(game, d):
        if game.s["decisions"] % 7 == 0:
            for p in sides:
                assert list(B.value_of(game, "front_spaces", (p,))) == by_rule(game, p)
                held = game.vcache[("front_spaces", (p,))][B.INNER]
                assert list(held) == [int(enemy_in(game, x, p)) for x in campaign.spaces]

    game = play_randomly(campaign, 9, 120, each=each)
    cp = campaign.by_kind["side"]["cp"]
    B.value_of(game, "front_spaces", (cp,))
    tested = []
    space_filter = campaign.space_filters["front_spaces"]
    cond = space_filter[2]

    def counting(g, t, *args):
        tested.append(t.index)
        return cond(g, t, *args)
    monkeypatch.setitem(campaign.space_filters, "front_spaces", (space_filter[0], space_filter[1], counting))
    seen = set()
    for unit in campaign.units:  # an enemy unit of cp's leaving a space it held alone, then one joining others
        here = game.s["loc"][unit.index]
        if here is None or not 0 <= here < len(campaign.spaces) or unit.data.side is cp:
            continue
        there = campaign.neighbours[here][0].index
        before = {x: enemy_in(game, campaign.spaces[x], cp) for x in (here, there)}
        tested.clear()
        game.move_unit(unit, there)
        assert list(B.value_of(game, "front_spaces", (cp,))) == by_rule(game, cp)
        changed = [x for x in (here, there) if enemy_in(game, campaign.spaces[x], cp) != before[x]]
        assert set(tested) == {t for x in changed for t in campaign.neighbour_of[x]}
        seen.add(bool(changed))
    assert seen == {True, False}  # moves that changed where enemies stand, and moves that did not


def test_a_nation_entering_the_war_tests_again_its_spaces_and_where_its_units_stand(campaign, monkeypatch):
    """11.1.11 and 14.1.2: a space may be crossed (by a path of supply, an
    SR) once its nation is at war, and a space holding units of a nation
    still neutral blocks the path. When a nation enters the war, a filter
    reading that through its space is tested again in the nation's spaces
    and the spaces its units stand in, not over the whole map, and stays
    what a fresh scan gives."""
    game = play_randomly(campaign, 3, 30)
    names = ("supply_open_spaces", "sr_open_spaces", "open_sea_ports")
    # (not Turkey: its entry also opens Persia, read as `at_war(tu)`, a scan of the map)
    neutral = [n for n in campaign.nations
               if not game.s["at_war"].get(n.key, False) and any(s.data.nation is n for s in campaign.spaces)
               and not any(f"war:{n.key}" in campaign.space_filters[name][1] for name in names)]
    assert neutral, "a Campaign game 30 decisions in has nations still neutral"
    nation = neutral[0]
    for name in names:
        for p in campaign.sides:
            B.value_of(game, name, (p,))
    tested = []
    for name in names:
        own, others, cond = campaign.space_filters[name]

        def counting(g, t, *args, cond=cond):
            tested.append(t.index)
            return cond(g, t, *args)
        monkeypatch.setitem(campaign.space_filters, name, (own, others, counting))
    scanned = values_worked_out(monkeypatch)
    game.s["at_war"][nation.key] = True  # (as `set n.at_war to true` writes it, effects.py)
    game.touch_entity("war", nation)
    patched = {(name, p): list(B.value_of(game, name, (p,))) for name in names for p in campaign.sides}
    assert not set(names) & set(scanned), "the whole map was scanned again"
    for (name, p), result in patched.items():
        assert result == list(_fresh(game, name, (p,))), (name, p.key)
    standing = {game.s["loc"][u.index] for u in campaign.units if u.data.nation is nation} - {None}
    expected = {s.index for s in campaign.spaces if s.data.nation is nation} \
        | {i for i in standing if 0 <= i < len(campaign.spaces)}
    assert tested and set(tested) == expected


def test_cached_and_uncached_games_agree_over_long_play(campaign):
    def hashes(cache: bool) -> list[str]:
        game = Game.new(campaign, seed=21, log=False)
        game.cache_values = cache
        rng = random.Random(21)
        out = []
        d = game.run()
        while d is not None and len(out) < 400:
            d = game.choose(rng.randrange(len(d.options)) + 1)
            out.append(game.state_hash())
        return out
    assert hashes(True) == hashes(False)


def test_an_inline_read_of_none_is_the_closures_located_error(campaign):
    """Generated code reads attributes inline; on `none` it hands over to the
    closure, which reports the located game error (never an AttributeError)."""
    from pogdsl.runtime.errors import GameError

    game = Game.new(campaign, seed=1, log=False)  # set-up not yet run: every unit is off the map
    off_map = next(u for u in campaign.units if u.data.nation.key == "sb" and game.s["loc"][u.index] is None)
    with pytest.raises(GameError) as info:
        B.value_of(game, "always_supplied", (off_map,))
    assert "of none" in str(info.value) and info.value.span is not None


def test_a_value_reading_no_state_is_worked_out_once_per_world(campaign):
    """sr_port_spaces(p) reads only the map's static facts: every game of the
    world shares one result, equal to the value worked out afresh; values
    that read state are not shared."""
    assert "sr_port_spaces" in campaign.static_values
    assert "supply_open_spaces" not in campaign.static_values and "in_supply" not in campaign.static_values
    one = Game.new(campaign, seed=1, log=False)
    two = Game.new(campaign, seed=2, log=False)
    side = campaign.sides[0]
    first = B.value_of(one, "sr_port_spaces", (side,))
    assert B.value_of(two, "sr_port_spaces", (side,)) is first
    assert first == _fresh(two, "sr_port_spaces", (side,))
    assert ("sr_port_spaces", (side,)) not in one.vcache  # nothing to keep up to date per game


def test_a_value_reading_no_state_called_with_a_list_is_kept_by_the_lists_items(campaign, monkeypatch):
    """bef_closed(g, t) (the BEF's limits, 11.1.17) reads no state and is
    called with a stack: the generated call keys it by the stack's units, so
    a stack built afresh finds the result kept (not worked out again), the
    result equals the value worked out afresh, and one key holds it
    whichever way it was asked."""
    assert "bef_closed" in campaign.static_values
    game = Game.new(campaign, seed=3, log=False)
    fn = campaign.values["bef_closed"][1].__globals__["V_bef_closed"]
    units = [u for u in campaign.units if u.data.nation is not None and u.data.nation.key == "br"][:2]
    for t in campaign.spaces[:60]:
        campaign.static_results.pop(("bef_closed", (tuple(units), t)), None)
        got = fn(game, list(units), t)
        assert got == _fresh(game, "bef_closed", (list(units), t)), t
        assert campaign.static_results[("bef_closed", (tuple(units), t))] == got
        worked_out = values_worked_out(monkeypatch)
        assert fn(game, list(units), t) == got  # a new list of the same units: the result kept
        assert B.value_of(game, "bef_closed", (list(units), t)) == got
        assert worked_out == []
        monkeypatch.undo()


def test_the_results_a_world_keeps_of_values_reading_no_state_are_bounded(campaign, monkeypatch):
    """Stacks met in play are new in every game: a world keeps at most
    STATIC_RESULTS_KEPT results of values that read no state, so a long
    simulation does not grow it without end; past the bound a result is
    still right, only worked out each time."""
    game = Game.new(campaign, seed=4, log=False)
    fn = campaign.values["bef_closed"][1].__globals__["V_bef_closed"]
    units = [u for u in campaign.units if u.data.nation is not None and u.data.nation.key == "br"][:2]
    kept = dict(campaign.static_results)
    try:
        campaign.static_results.clear()
        monkeypatch.setattr(B, "STATIC_RESULTS_KEPT", 5)
        for t in campaign.spaces[:40]:
            assert fn(game, list(units), t) == _fresh(game, "bef_closed", (list(units), t)), t
            assert B.value_of(game, "bef_closed", (list(units), t)) == _fresh(game, "bef_closed", (list(units), t))
        assert len(campaign.static_results) == 5
    finally:
        campaign.static_results.clear()
        campaign.static_results.update(kept)


def test_a_printed_attribute_is_no_state_of_the_same_name(campaign):
    """`v.vp` of a space is its print, not the VP counter; `c.war_status` of
    a card is its print, not the War Status kept per side: values that read
    only prints are static (worked out once per world), so a random player's
    weight that calls them is remembered per option."""
    from pogdsl.runtime.deps import Dependencies

    deps = Dependencies(campaign)
    assert deps.of_value("steps_to_enemy_vp") == frozenset()
    assert deps.of_value("event_weight") == frozenset()
    assert "steps_to_enemy_vp" in campaign.static_values  # (event_weight is a one-line value: not remembered)
    # A state kept per side is still read through a side.
    assert "var:war_status" in deps.of_expression(
        __import__("pogdsl.syntax.parser", fromlist=["parse_text"]).parse_text(
            "value v(p: side) cites 1.0 = war_status[p]\n", "w.pog")[0].decls[0].expr, {"p"})


def test_counting_a_list_of_units_reads_no_cards_counting_a_pile_does(campaign):
    from pogdsl.runtime.deps import CARDS, Dependencies

    deps = Dependencies(campaign)
    # len(enemy_units_at(t, p)) > 0: a built-in declared to give a list
    assert deps.of_value("enemy_units_in") == {"board"}
    assert campaign.value_areas["enemy_units_in"] == ((), ((1, "board"),))
    # len(us) of a parameter, len(directed_spaces(u)) of a value: either may be a pile, as far as
    # the source says, so the cards are read
    assert CARDS in deps.of_value("stack_option") and CARDS in deps.of_value("directed")


def test_a_space_or_unit_named_outright_reads_its_own_state_only():
    """`Gallipoli.control` (sea_ports: 14.1.4 lets the Allies use
    Constantinople only while they hold Gallipoli) reads Gallipoli's own
    area, not the whole board: the Allied ports stay good while units move
    elsewhere, and expire when Gallipoli changes hands."""
    from pogdsl.opening import open_scenario

    # A world of its own: one that has played many games may have stopped
    # remembering sea_ports (builtins._stop_remembering).
    campaign = open_scenario("campaign", ROOT, cache=False).world
    gallipoli = campaign.by_kind["space"]["Gallipoli"]
    whole, own = campaign.value_areas["sea_ports"]
    assert whole == (f"loc:{gallipoli.index}",) and not own
    game = play_randomly(campaign, 4, 30)
    ap, cp = campaign.by_kind["side"]["ap"], campaign.by_kind["side"]["cp"]
    B.value_of(game, "sea_ports", (ap,))
    entry = game.vcache[("sea_ports", (ap,))]
    elsewhere = next(u for u in campaign.units if game.s["loc"][u.index] is not None
                     and 0 <= game.s["loc"][u.index] < len(campaign.spaces)
                     and game.s["loc"][u.index] != gallipoli.index)
    game.move_unit(elsewhere, game.s["loc"][elsewhere.index])
    assert B._still_good(game, entry)
    game.set_control(gallipoli, cp if game.s["control"][gallipoli.index] == "ap" else ap, ())
    assert not B._still_good(game, entry)
    assert B.value_of(game, "sea_ports", (ap,)) == _fresh(game, "sea_ports", (ap,))


def test_walking_a_list_argument_reads_no_state(campaign):
    """`t in region` of a `region: list of space` parameter reads the list
    given, not the board: reaches_region stays good while units move, as long
    as the region object passed is the same."""
    whole, own = campaign.value_areas["reaches_region"]
    assert "board" not in whole and not own


def test_a_search_result_argument_is_keyed_by_identity_other_lists_by_items():
    from pogdsl.runtime.values import Found

    region = Found([1, 2, 3])
    same_items = Found([1, 2, 3])
    assert B._frozen((region, 4)) == B._frozen((region, 4))
    assert B._frozen((region, 4)) != B._frozen((same_items, 4))
    assert B._frozen(([1, 2], 4)) == B._frozen(([1, 2], 4))  # a list built afresh is found again
    assert B._frozen((region,), identity=False) == B._frozen((same_items,), identity=False)


def test_values_seldom_found_good_are_no_longer_remembered_but_space_filters_always_are(monkeypatch):
    """A value found still good in fewer than half its calls, once reviewed,
    is worked out at each call from then on; a space filter is patched a few
    spaces at a time however often it changes, and stays remembered.  The
    world is built afresh: what is no longer remembered is kept per world."""
    from pogdsl.compiler import scenario_graph
    from pogdsl.runtime.world import build_world

    comp, graph = scenario_graph("campaign")
    w = build_world(comp.scenarios["campaign"][0], graph)
    monkeypatch.setattr(B, "REVIEW_AFTER", 0)
    game = Game.new(w, seed=1, log=False)
    game.run()
    cp = w.by_kind["side"]["cp"]
    unit = next(u for u in w.units if game.s["loc"][u.index] is not None
                and 0 <= game.s["loc"][u.index] < len(w.spaces))
    for name, args in (("sr_open_spaces", (cp,)), ("in_supply", (unit,))):
        game.clock += 1  # a new revision with nothing changed: the remembered result is found good
        game.vcache.clear()  # … unless forgotten: each call below works it out again
        for _ in range(3):
            B.value_of(game, name, args)
            game.vcache.clear()
    assert "in_supply" in w.uncached
    assert "sr_open_spaces" not in w.uncached
    assert B.value_of(game, "sr_open_spaces", (cp,)) == _fresh(game, "sr_open_spaces", (cp,))


@pytest.mark.parametrize("review, calls, dropped_share, kept_share", [
    # Past QUICK_REVIEW_AFTER calls, a value found good in under 5% of them
    # is dropped without waiting for the later reviews; one found good a
    # fifth of the time waits for them.
    ("QUICK_REVIEW_AFTER", 30, 0, 5),
    # Past MID_REVIEW_AFTER calls, a value found good in under a fifth of them
    # is dropped; one found good a third of the time waits for the last review.
    ("MID_REVIEW_AFTER", 45, 10, 3),
])
def test_values_seldom_found_good_are_dropped_at_the_earlier_reviews(monkeypatch, review, calls, dropped_share,
                                                                      kept_share):
    """Each earlier review, alone (the others put out of reach), drops the
    value found good too seldom, keeps the other, and the dropped one is
    then worked out afresh at each call with the same result.  A share N
    means found good one call in N (0: never)."""
    from pogdsl.compiler import scenario_graph
    from pogdsl.runtime.world import build_world

    comp, graph = scenario_graph("campaign")
    w = build_world(comp.scenarios["campaign"][0], graph)
    for name in ("QUICK_REVIEW_AFTER", "MID_REVIEW_AFTER", "REVIEW_AFTER"):
        monkeypatch.setattr(B, name, 20 if name == review else 10_000)
    game = Game.new(w, seed=1, log=False)
    game.run()
    cp = w.by_kind["side"]["cp"]
    units = [u for u in w.units if game.s["loc"][u.index] is not None and 0 <= game.s["loc"][u.index] < len(w.spaces)]

    def call(name, args, found_good: bool):
        game.clock += 1  # a new revision with nothing changed
        if not found_good:  # forgotten: worked out again
            for key in [k for k in game.vcache if k[0] == name]:
                del game.vcache[key]
        B.value_of(game, name, args)

    for i in range(calls):
        call("in_supply", (units[0],), found_good=dropped_share > 0 and i % dropped_share == 0)
        call("sr_network", (cp, units[1]), found_good=i % kept_share == 0)
    assert "in_supply" in w.uncached
    assert "sr_network" not in w.uncached
    assert B.value_of(game, "in_supply", (units[0],)) == _fresh(game, "in_supply", (units[0],))


def test_a_value_first_asked_for_many_options_at_once_is_judged_once_it_was_asked_again():
    """A listed decision asks a value for each of its options at one revision
    (the cost of every space an operation may activate): all new results,
    none found good yet, since a result is found good only at a later
    revision.  While options are listed the reviews wait for a few
    revisions, so the value is kept, and found good when the next decision
    asks again; one never found good at later revisions is still dropped."""
    from pogdsl.compiler import scenario_graph
    from pogdsl.runtime.world import build_world

    comp, graph = scenario_graph("campaign")
    w = build_world(comp.scenarios["campaign"][0], graph)
    game = Game.new(w, seed=1, log=False)
    game.run()
    units = [u for u in w.units if game.s["loc"][u.index] is not None and 0 <= game.s["loc"][u.index] < len(w.spaces)]
    assert len(units) > B.QUICK_REVIEW_AFTER
    game.listing = True  # (as Game.offer, listing every option)
    for u in units:
        B.value_of(game, "in_supply", (u,))
    assert "in_supply" not in w.uncached
    game.clock += 1  # the next decision, nothing changed: every result is found good
    good = w.cache_stats["in_supply"][1]
    for u in units:
        assert B.value_of(game, "in_supply", (u,)) == _fresh(game, "in_supply", (u,))
    assert w.cache_stats["in_supply"][1] == good + len(units)
    assert "in_supply" not in w.uncached
    cp = w.by_kind["side"]["cp"]
    for _ in range(B.QUICK_REVIEW_AFTER + 1):  # asked at each revision, forgotten each time: never found good
        game.clock += 1
        game.vcache.clear()
        B.value_of(game, "sr_network", (cp, units[0]))
    assert "sr_network" in w.uncached


def test_outside_listings_the_quick_review_drops_a_value_at_once():
    """Values worked out for every unit at once outside a listing (the supply
    of each unit at attrition) are judged as soon as they were asked 40
    times: one never found good is dropped at its first revision."""
    from pogdsl.compiler import scenario_graph
    from pogdsl.runtime.world import build_world

    comp, graph = scenario_graph("campaign")
    w = build_world(comp.scenarios["campaign"][0], graph)
    game = Game.new(w, seed=1, log=False)
    game.run()
    units = [u for u in w.units if game.s["loc"][u.index] is not None and 0 <= game.s["loc"][u.index] < len(w.spaces)]
    for u in units:
        B.value_of(game, "in_supply", (u,))
    assert "in_supply" in w.uncached
    assert all(B.value_of(game, "in_supply", (u,)) == _fresh(game, "in_supply", (u,)) for u in units)


def test_space_filters_stay_exact_when_the_record_of_changes_is_trimmed(campaign, monkeypatch):
    """The record of changes is kept per area and trimmed by revision: a
    filter checked before what is left is worked out in full, one checked
    after is patched from what is left; both equal the value worked out
    afresh, with the record trimmed every few changes."""
    from pogdsl.runtime import interpreter as I

    monkeypatch.setattr(I, "CHANGES_KEPT", 8)
    game = Game.new(campaign, seed=4, log=False)
    rng = random.Random(4)
    d = game.run()
    trimmed = set()
    for step in range(200):
        if d is None:
            break
        if step % 3 == 0:  # some filters checked often, others seldom
            for p in campaign.sides:
                assert B.value_of(game, "supply_open_spaces", (p,)) == _fresh(game, "supply_open_spaces", (p,))
        if step % 17 == 0:
            for p in campaign.sides:
                assert B.value_of(game, "sr_open_spaces", (p,)) == _fresh(game, "sr_open_spaces", (p,))
        assert game.changes_kept <= I.CHANGES_KEPT
        assert all(clock > game.changed_since for log in game.changed.values() for clock, _ in log)
        trimmed.add(game.changed_since)
        d = game.choose(rng.randrange(len(d.options)) + 1)
    assert len(trimmed) > 5


def test_a_remembered_value_holds_the_entries_it_called_and_they_are_rewritten_in_place(campaign):
    """A remembered result keeps the entries of the values it called, not
    their keys: an entry worked out anew is rewritten in place, so the one a
    caller holds is always the one kept under its key, and it checks without
    a lookup.  Along a game, every entry called is the cache's own."""
    rng = random.Random(2)
    game = Game.new(campaign, seed=2, log=False)
    d = game.run()
    seen = 0
    for _ in range(150):
        if d is None:
            break
        for p in campaign.sides:
            B.value_of(game, "space_region", (p,))
        for entry in list(game.vcache.values()):
            for dep in entry[B.CALLED]:
                if isinstance(dep, tuple):
                    assert dep[0] is None  # a value no longer remembered: the areas it reads
                    continue
                assert game.vcache.get(dep[B.KEY]) is dep, dep[B.KEY][0]
                seen += 1
        d = game.choose(rng.randrange(len(d.options)) + 1)
    assert seen > 100


# ---------------------------------------------------------------- copies


def _play_on(game: Game, seed: int, decisions: int) -> list:
    """Play on from the pending decision for up to DECISIONS decisions with a
    seeded chooser following the weights; the options of every decision
    offered and the final state hash."""
    rng = random.Random(seed)
    seen = []
    d = game.decision() if game.s["pending"] is not None else game.run()
    for _ in range(decisions):
        if d is None:
            break
        seen.append((d.by, d.choice, tuple(d.options), tuple(d.weights or ())))
        pick = rng.choices(range(len(d.options)), weights=d.weights)[0] if d.weights else rng.randrange(len(d.options))
        d = game.choose(pick + 1)
    return seen + [game.state_hash()]


def _inherited_values_hold(game: Game) -> int:
    """Ask every remembered value again (keyed by plain arguments) and
    compare it with the value worked out afresh; how many were asked."""
    asked = 0
    for key in list(game.vcache):
        name, args = key
        if name not in game.w.values or any(isinstance(a, (list, tuple)) for a in args):
            continue
        assert _outcome(B.value_of, game, name, args) == _outcome(_fresh, game, name, args), key
        asked += 1
    return asked


def _outcome(ask, game: Game, name: str, args: tuple):
    """A value's result, or the error asking it now gives (a value kept for
    a unit since eliminated, asked again out of its context, reads the space
    of none: play never asks it so, and the two must fail alike)."""
    try:
        return ask(game, name, args)
    except Exception as err:  # noqa: BLE001
        return f"{type(err).__name__}: {err}"


@pytest.mark.parametrize("seed, at", [(3, 150), (8, 400)])
def test_a_copy_inheriting_remembered_values_plays_the_same_game_as_a_cold_copy(campaign, seed, at):
    game = play_randomly(campaign, seed, at)
    assert game.vcache, "a game well under way remembers values"
    warm, cold = game.copy(remember=True), game.copy()
    assert warm.vcache and not cold.vcache
    assert warm.vcache.keys() == {k for k in game.vcache if k[0] not in campaign.uncached}
    assert _inherited_values_hold(game.copy(remember=True)) > 0
    assert _play_on(warm, seed, 300) == _play_on(cold, seed, 300)
    # ... and neither touched the game it was copied from, nor its entries
    assert _play_on(game, seed, 300) == _play_on(play_randomly(campaign, seed, at).copy(), seed, 300)


def test_a_copys_entries_are_its_own_and_point_at_each_other(campaign):
    game = play_randomly(campaign, 5, 250)
    twin = game.copy(remember=True)
    originals = {id(e) for e in game.vcache.values()}
    assert twin.vcache
    for key, entry in twin.vcache.items():
        assert entry is not game.vcache[key] and entry[B.RESULT] is game.vcache[key][B.RESULT]
        for dep in entry[B.CALLED]:
            assert dep.__class__ is tuple or id(dep) not in originals
        if entry[B.MEMBER] is not None:
            assert entry[B.MEMBER] == game.vcache[key][B.MEMBER]
            assert entry[B.MEMBER] is not game.vcache[key][B.MEMBER]


def test_a_determinized_copy_plays_the_same_with_inherited_values_as_with_none(campaign):
    from pogdsl.runtime.hidden import determinize

    game = play_randomly(campaign, 4, 300)
    side = game.decision().by
    _, warm = determinize(game, side, 12345, remember=True)
    _, cold = determinize(game, side, 12345)
    assert warm.vcache and not cold.vcache
    # every value it inherited, asked now, is what the dealt cards make it
    assert _inherited_values_hold(warm) > 0
    assert _play_on(warm, 4, 300) == _play_on(cold, 4, 300)


def test_values_remembered_across_a_restore_equal_values_worked_out_afresh(campaign):
    """Game.mark/restore (a player trying several options from one position):
    after the state is put back, every remembered value still equals the one
    worked out afresh — at the position put back, and after a different
    option is played from it — and nothing remembered is thrown away."""
    names = [n for n in ("in_supply", "supply_open_spaces", "sr_open_spaces", "spaces_held", "term_vp_lead",
                         "term_strength_on_map", "term_vp_spaces_threatened") if n in campaign.values]
    rnd = random.Random(3)
    checked = 0
    for seed in range(3):
        game = play_randomly(campaign, seed, 60 + 40 * seed)
        d = game.decision()
        if d is None or len(d.options) < 2:
            continue
        sides = campaign.sides
        units = [u for u in campaign.units if game.s["loc"][u.index] is not None and game.s["loc"][u.index] >= 0]

        def args_of(name):
            if name == "in_supply":
                return [(u,) for u in rnd.sample(units, 5)]
            if name in ("supply_open_spaces", "sr_open_spaces", "spaces_held") or name.startswith("term_"):
                return [(s,) for s in sides]
            return [()]

        def check_all():
            nonlocal checked
            for name in names:
                for args in args_of(name):
                    assert B.value_of(game, name, args) == _fresh(game, name, args), (name, args)
                    checked += 1

        check_all()
        mark = game.mark()
        for option in (1, len(d.options)):
            game.choose(option)  # a different option each time, run to the next decision
            check_all()
            remembered = len(game.vcache)
            game.restore(mark)
            assert game.state_hash() == Game(campaign, mark[0]).state_hash()
            assert len(game.vcache) == remembered  # nothing forgotten: what expired is found so when asked
            check_all()
    assert checked > 50


def test_space_filters_are_exact_after_a_restore_past_a_trimmed_record_of_changes(campaign, monkeypatch):
    """A player tries an option, plays on for a while, and puts the position
    back (Game.mark/restore) to try the next.  Meanwhile the record of which
    spaces changed may have been trimmed past the mark: the spaces changed
    before the trim are then unknown, and every filter kept by space must
    still equal the one worked out afresh at the position put back (until
    2026-11-29 it kept the spaces of the option tried: `front_spaces`, the
    spaces next to an enemy, named spaces no enemy was next to)."""
    from pogdsl.runtime import interpreter as I

    monkeypatch.setattr(I, "CHANGES_KEPT", 16)
    names = [n for n in ("front_spaces", "supply_open_spaces", "sr_open_spaces") if n in campaign.space_filters]
    assert names
    rnd = random.Random(5)
    restores_past_a_trim = 0
    for seed in range(3):
        game = play_randomly(campaign, seed, 80 + 50 * seed)
        for p in campaign.sides:  # every filter remembered at the mark
            for name in names:
                B.value_of(game, name, (p,))
        mark = game.mark()
        for _ in range(3):
            d = game.decision()
            for _ in range(40):  # an option and what follows it
                if d is None:
                    break
                d = game.choose(rnd.randrange(len(d.options)) + 1)
                for p in campaign.sides:
                    B.value_of(game, "front_spaces", (p,))  # the filters kept up to date as the play goes
            restores_past_a_trim += game.changed_since > mark[1]
            game.restore(mark)
            for p in campaign.sides:
                for name in names:
                    assert B.value_of(game, name, (p,)) == _fresh(game, name, (p,)), (name, p)
    assert restores_past_a_trim >= 3


def test_a_value_calling_one_no_longer_remembered_stays_good_while_that_ones_result_does(monkeypatch):
    """A remembered value keeps the result of each value it called that is
    no longer remembered (builtins.worked_out): when what that one reads is
    written while options are listed, it is worked out again, and the caller
    stays good if its result did not change (outside a listing the caller is
    worked out again, as before).  9.2.3: a space costs one point per nationality in it;
    British and French units in a French space cost two, one only in the
    turn of Everyone Into Battle (all Allied units there count as French).
    Whether SUD Army was played is read by activation_group too, and writing
    it again changes no group here: the cost is not worked out again."""
    from pogdsl.compiler import scenario_graph
    from pogdsl.runtime.world import build_world

    comp, graph = scenario_graph("campaign")
    w = build_world(comp.scenarios["campaign"][0], graph)
    game = Game.new(w, seed=1, log=False)
    game.run()
    B._stop_remembering(game, "activation_group")  # as a process that learnt it is cheaper worked out
    ap, move = w.by_kind["side"]["ap"], w.names["move"]
    paris = w.names["Paris"]
    british = next(u for u in w.units if u.data.nation.key == "br" and game.s["loc"][u.index] is None)
    game.move_unit(british, paris.index)
    assert {u.data.nation.key for u in w.units if game.s["loc"][u.index] == paris.index} == {"fr", "br"}
    args = (paris, ap, move)

    def listed():
        """The cost asked as Game.offer asks it, listing every option: the
        operation's spaces, each one's cost (a listing's memo of its own)."""
        game.listing, game.memo = True, {}
        try:
            return B.value_of(game, "activation_cost", args)
        finally:
            game.listing, game.memo = False, None

    assert listed() == 2
    entry = game.vcache[("activation_cost", args)]
    changed = entry[B.CHANGED]

    worked = []
    recompute = B._recompute
    monkeypatch.setattr(B, "_recompute", lambda g, key, name, *rest: (worked.append(name), recompute(g, key, name,
                                                                                                   *rest))[1])
    sud_army = "played:cp 10"
    game.touch(sud_army)  # (written again, not played)
    assert listed() == 2
    assert "activation_cost" not in worked
    assert game.vcache[("activation_cost", args)] is entry and entry[B.CHANGED] == changed

    game.s["vars"]["everyone_into_battle_turn"] = game.s["turn"]
    game.touch("var:everyone_into_battle_turn")
    assert listed() == 1 == _fresh(game, "activation_cost", args)
    assert "activation_cost" in worked

    worked.clear()  # outside a listing, the written area alone expires the caller
    game.touch(sud_army)
    assert B.value_of(game, "activation_cost", args) == 1
    assert "activation_cost" in worked

    # SUD Army's saving serves one stack an action round (CP 10): the round
    # is read for the German corps of a SUD Army stack alone, so a new round
    # leaves this cost good, in a listing or not.
    worked.clear()
    game.s["vars"]["action_round"] += 1
    game.touch("var:action_round")
    assert B.value_of(game, "activation_cost", args) == 1 == listed()
    assert "activation_cost" not in worked

    # Everyone Into Battle holds for its turn only (AP 51): the next turn
    # the two nations cost two points again.
    game.s["turn"] += 1
    game.touch("turn")
    assert listed() == 2 == _fresh(game, "activation_cost", args)


def test_a_small_filter_result_patched_from_the_old_one_is_the_fresh_result_in_map_order(campaign, monkeypatch):
    """The Move and Attack markers (9.2.5) and the spaces next to the enemy
    are a few spaces of the map: a patch builds their new result from the
    old one (the spaces still in it, those added put in map order) instead
    of reading every space's membership.  At every decision of a game the
    result is the spaces the rule names, in the map's order, and the
    shortcut was taken, both adding and dropping spaces."""
    calls = []
    patched = B._patched_result

    def noting(old, member, flipped, spaces):
        result = patched(old, member, flipped, spaces)
        if len(old) <= B.SMALL_FILTER_RESULT:
            calls.append((len(old), len(result)))
        return result
    monkeypatch.setattr(B, "_patched_result", noting)
    modes = campaign.by_kind["activation_mode"]
    marks = {"move_marked": modes["move"], "attack_marked_spaces": modes["attack"]}

    def each(game, d):
        held = game.s["vars"]["activation"]
        for name, mark in marks.items():
            by_rule = [s for s in campaign.spaces if held.get(s.scope) is mark]
            assert list(B.value_of(game, name, ())) == by_rule
        for p in campaign.sides:
            assert list(B.value_of(game, "front_spaces", (p,))) == list(_fresh(game, "front_spaces", (p,)))

    play_randomly(campaign, 5, 250, each=each)
    assert any(after > before for before, after in calls) and any(after < before for before, after in calls)


def test_the_pieces_of_a_name_are_every_unit_of_that_name_along_a_game(campaign):
    """Identical pieces share a name (`available('RU CAVc') == 2`, the
    pieces a card's reinforcements may still take, 9.5.3.1): `pool` gives
    every unit of the unit's name in the order of the units, as a walk of
    every unit finds them, and `available` counts those off the board, at
    every decision of a game as the pieces come and go."""
    names = sorted({u.key for u in campaign.units})
    shared = [n for n in names if sum(u.key == n for u in campaign.units) > 1]
    assert shared  # the corps of a nation are pieces alike
    checked = []

    def each(game, d):
        if game.s["decisions"] % 10:
            return
        loc = game.s["loc"]
        for name in shared:
            one = next(u for u in campaign.units if u.key == name)
            every = [u for u in campaign.units if u.key == name]
            assert B.pool(game, None, one) == every
            assert B.available(game, None, one) == sum(1 for u in every if loc[u.index] is None)
            checked.append(B.available(game, None, one))
    play_randomly(campaign, 6, 200, each=each)
    assert len(set(checked)) > 2  # pieces came and went
