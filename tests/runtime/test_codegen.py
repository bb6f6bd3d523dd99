"""Generated expression code (runtime/codegen.py) against the closures.

The closures of compile.py are the reference: POGDSL_CLOSURES=1 makes every
expression run as closures.  The same seeded game must end in the same state,
bit for bit, either way; and the generated code keeps the closures' meaning
in the corners (laziness, aggregates, comprehension variables, errors).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from pogdsl.compiler import scenario_graph
from pogdsl.runtime import codegen
from pogdsl.runtime.errors import GameError
from pogdsl.runtime.values import Entity, Found, Pool
from pogdsl.runtime.world import build_world
from pogdsl.syntax import ast as A
from pogdsl.syntax.parser import parse_text

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.harness import play_randomly  # noqa: E402


@pytest.fixture(scope="module")
def campaign():
    comp, graph = scenario_graph("campaign")
    program = comp.scenarios["campaign"][0]
    return program, graph


def world(campaign, monkeypatch, closures: bool):
    program, graph = campaign
    if closures:
        monkeypatch.setenv("POGDSL_CLOSURES", "1")
    else:
        monkeypatch.delenv("POGDSL_CLOSURES", raising=False)
    return build_world(program, graph)


def play(w, seed: int, decisions: int):
    return play_randomly(w, seed, decisions, log=True)


@pytest.mark.parametrize("seed", [4, 11])
def test_generated_code_plays_the_same_game_as_the_closures(campaign, monkeypatch, seed):
    generated = play(world(campaign, monkeypatch, closures=False), seed, 400)
    reference = play(world(campaign, monkeypatch, closures=True), seed, 400)
    assert generated.state_hash() == reference.state_hash()
    assert generated.s["log"] == reference.s["log"]


def test_most_campaign_expressions_are_generated(campaign, monkeypatch):
    w = world(campaign, monkeypatch, closures=False)
    generated = [fn for _, fn in w.values.values() if hasattr(fn, "source")]
    assert len(generated) > 0.9 * len(w.values)


@pytest.mark.parametrize("cls", [Entity, Pool])
def test_entities_compare_by_identity_on_the_fast_path(cls):
    """Generated code compares spaces, units, sides with `==` millions of
    times a game.  One rich comparison written in Python on the class (an
    `__lt__` to sort options, as there once was) sends every one of them
    through CPython's slot lookup: that cost 10% of a game's instructions
    (bench_instructions).  Nothing orders entities (min and max take numbers)."""
    for name in ("__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__"):
        assert getattr(cls, name) is getattr(object, name), name


# ------------------------------------------------------------------ corners, on a small program

TOY = """
value xs cites 1.0 = [1, 2, 3, 4]
value evens cites 1.0 = [x for x in xs where x % 2 == 0]
value some cites 1.0 = any(x > 3 for x in xs)
value every cites 1.0 = all(x > 0 for x in xs)
value many cites 1.0 = count(x > 1 for x in xs)
value total cites 1.0 = sum(x for x in xs where x != 2)
value least cites 1.0 = min(x for x in xs where x > 9)
value lazy cites 1.0 = (if true then 1 else 1 / 0)
value nested cites 1.0 = [[y for y in xs where y < x] for x in xs]
"""


def expression(name: str):
    module, diags = parse_text(TOY, "toy.pog")
    assert not diags
    return next(d for d in module.decls if isinstance(d, A.ValueDecl) and d.name.text == name).expr


class _FakeWorld:
    def __init__(self):
        from pogdsl.semantics.model import Program

        self.state_decls = {}
        self.names = {}
        self.by_kind = {}
        self.program = Program()


class _FakeCompiler:
    def __init__(self, values):
        self.w = _FakeWorld()
        self.p = type("P", (), {"decls": {"value": values}})()


class _FakeGame:
    def __init__(self, values):
        from pogdsl.runtime.limits import DEFAULTS

        self.values = values
        self.s = {"vars": {}}
        # the bounds on work a game carries (runtime/limits.py)
        self.max_list, self.max_work = DEFAULTS["list_size"], DEFAULTS["work"]
        self.work_left = self.max_work


@pytest.mark.parametrize("name, expected", [
    ("evens", [2, 4]), ("some", True), ("every", True), ("many", 3), ("total", 8), ("least", None),
    ("lazy", 1), ("nested", [[], [1], [1, 2], [1, 2, 3]]),
])
def test_generated_corners(name, expected):
    xs = codegen.generate(_FakeCompiler({}), expression("xs"), set())
    compiler = _FakeCompiler({"xs": None})
    gen = codegen.Generator(compiler)
    gen.env["value_of"] = lambda g, n, args: xs(g, {})
    fn = gen.function(expression(name), set())
    locals_ = {}
    assert fn(_FakeGame({}), locals_) == expected
    assert locals_ == {}  # a comprehension variable never lands in the frame


@pytest.mark.parametrize("text, bound, expected", [
    ("a < b", {"a": 1, "b": 2}, True), ("a >= b", {"a": 2, "b": 2}, True), ("a > b", {"a": 1, "b": 2}, False),
    ("a <= b", {"a": None, "b": 2}, False),   # none compares false
    ("a < b", {"a": "x", "b": "y"}, True),   # not whole numbers: compared as the language compares
    ("a < b", {"a": True, "b": 2}, True),
])
def test_generated_ordered_comparisons(text, bound, expected):
    e = parse_text(f"value v(a: int, b: int) cites 1.0 = {text}\n", "c.pog")[0].decls[0].expr
    fn = codegen.Generator(_FakeCompiler({})).function(e, {"a", "b"})
    assert fn(_FakeGame({}), dict(bound)) is expected


def test_an_ordered_comparison_of_unlike_things_is_a_located_game_error():
    e = parse_text("value v(a: int, b: int) cites 1.0 = a < b\n", "c.pog")[0].decls[0].expr
    fn = codegen.Generator(_FakeCompiler({})).function(e, {"a", "b"})
    with pytest.raises(GameError, match="cannot compare 1 and x") as info:
        fn(_FakeGame({}), {"a": 1, "b": "x"})
    assert info.value.span.file == "c.pog"


@pytest.mark.parametrize("text", ["max(a, b)", "min([a, b])", "min(x for x in [a, b])"])
def test_min_and_max_of_unordered_things_are_a_located_game_error(text):
    """The checker lets only numbers into min and max; a none among them
    still reaches here, and is refused where it stands, not by a crash."""
    e = parse_text(f"value v(a: int, b: int) cites 1.0 = {text}\n", "m.pog")[0].decls[0].expr
    fn = codegen.Generator(_FakeCompiler({})).function(e, {"a", "b"})
    assert fn(_FakeGame({}), {"a": 3, "b": 5}) in (3, 5)
    with pytest.raises(GameError, match="compares numbers, not 1, none") as info:
        fn(_FakeGame({}), {"a": 1, "b": None})
    assert info.value.span.file == "m.pog"


@pytest.mark.parametrize("container, expected", [
    ([1, 2], True), ([3], False), (Found([1, 5]), True), (None, False), ((2, 1), True),
])
def test_membership_in_a_named_list_is_tested_in_place(container, expected):
    """`x in xs` with xs a name: a plain list is tested without a call, and
    anything else (a search's result, none, a tuple) as the language says."""
    e = parse_text("value v(x: int, xs: list of int) cites 1.0 = x in xs\n", "i.pog")[0].decls[0].expr
    fn = codegen.Generator(_FakeCompiler({})).function(e, {"x", "xs"})
    assert ".__class__ is list" in fn.source
    assert fn(_FakeGame({}), {"x": 1, "xs": container}) is expected


@pytest.mark.parametrize("container, expected", [
    ([1, 2], True), ([3], False), (Found([1, 5]), True), (Found([5]), False), (None, False), ((2, 1), True),
])
def test_membership_in_a_worked_out_list_works_it_out_once(container, expected):
    """`x in f(xs)` (a value's result, here a list picked from a list): the
    container is worked out once and tested as a named one is, a search's
    result by its set, the rest as the language says."""
    e = parse_text("value v(x: int, xs: list of int) cites 1.0 = x in (if x > 0 then xs else [])\n",
                   "i.pog")[0].decls[0].expr
    fn = codegen.Generator(_FakeCompiler({})).function(e, {"x", "xs"})
    assert ":=" in fn.source
    locals_ = {"x": 1, "xs": container}
    assert fn(_FakeGame({}), locals_) is expected
    assert locals_ == {"x": 1, "xs": container}  # the container held in the function, not in the frame


@pytest.mark.parametrize("container, expected", [
    ([1, 2], [1, 2]), ([3], []), (Found([1, 5]), [1]), (Found([5]), []), (None, []), ((2, 1), [1, 2]),
])
def test_membership_inside_a_loop_fetches_its_container_once_before_it(container, expected):
    """`[x for x in xs where x in ys]`, ys read from outside the loop: what
    the test reads (a list as it is, a search's result by its set) is
    fetched once before the loop, and the result is what the language says
    for a list, a search's result, none and a tuple alike."""
    e = parse_text("value v(xs: list of int, ys: list of int) cites 1.0 = [x for x in xs where x in ys]\n",
                   "i.pog")[0].decls[0].expr
    fn = codegen.Generator(_FakeCompiler({})).function(e, {"xs", "ys"})
    assert fn.source.count("l.get('ys')") == 1 and fn.source.index("l.get('ys')") < fn.source.index(" for ")
    assert fn(_FakeGame({}), {"xs": [1, 2], "ys": container}) == expected


def test_a_container_fetched_before_a_loop_that_walks_nothing_is_never_unbound():
    """Fetching first changes nothing a loop over no item did: a local not
    yet bound is no error then, and still the located error once an item
    is tested against it."""
    e = parse_text("value v(xs: list of int, ys: list of int) cites 1.0 = any(x in ys for x in xs)\n",
                   "i.pog")[0].decls[0].expr
    fn = codegen.Generator(_FakeCompiler({})).function(e, {"xs", "ys"})
    assert fn(_FakeGame({}), {"xs": []}) is False
    with pytest.raises(GameError) as info:
        fn(_FakeGame({}), {"xs": [1]})
    assert "'ys' has no value yet here" in str(info.value)


@pytest.mark.parametrize("text", ["at_war(n)", "at_war((if b then n else none))"])
def test_at_war_is_read_in_place_for_a_nation_and_as_before_for_anything_else(text):
    """`at_war(n)` (asked of every unit supply and SR look at): a nation's
    entry read in place, none (a space of no nation) never at war."""
    from pogdsl.runtime.values import Entity

    e = parse_text(f"value v(n: nation, b: bool) cites 1.0 = {text}\n", "w.pog")[0].decls[0].expr
    fn = codegen.Generator(_FakeCompiler({})).function(e, {"n", "b"})
    assert "at_war'].get(" in fn.source
    game = _FakeGame({})
    game.s["at_war"] = {"fr": True, "it": False}
    fr, it, us = (Entity("nation", key, i, None) for i, key in enumerate(["fr", "it", "us"]))
    assert fn(game, {"n": fr, "b": True}) is True
    assert fn(game, {"n": it, "b": True}) is False
    assert fn(game, {"n": us, "b": True}) is False  # no entry: not at war
    assert fn(game, {"n": None, "b": True}) is False
    assert fn(game, {"n": fr, "b": False}) is (text == "at_war(n)")  # the second form asks it of none


def test_an_unbound_local_is_a_game_error_naming_it():
    e = parse_text("value v(a: int) cites 1.0 = a + b\n", "u.pog")[0].decls[0].expr
    fn = codegen.Generator(_FakeCompiler({})).function(e, {"a", "b"})
    with pytest.raises(GameError) as info:
        fn(_FakeGame({}), {"a": 1})
    assert "'b' has no value yet here" in str(info.value)


# ------------------------------------------------------------------ specialisation of restriction checkers

def _clause(text: str):
    return parse_text(f"value v(mode: int, p: int, t: int) cites 1.0 = {text}\n", "s.pog")[0].decls[0].expr


def _specialised(text: str, mode) -> str:
    overland, by_sea, cp = object(), object(), object()
    entities = {"overland": overland, "by_sea": by_sea, "cp": cp}
    fixed = {"overland": overland, "by_sea": by_sea}[mode]
    e = codegen.specialize(_clause(text), {"mode": fixed}, entities.get)
    return type(e).__name__ if not isinstance(e, A.BoolLit) else str(e.value)


@pytest.mark.parametrize("text, mode, expected", [
    ("mode == by_sea and t > 1", "overland", "False"),     # the guard fails: the clause cannot forbid
    ("mode == by_sea and t > 1", "by_sea", "Compare"),     # the guard holds: only the rest is left
    ("mode in [overland, by_sea]", "by_sea", "True"),
    ("mode not in [overland]", "overland", "False"),
    ("mode != overland or p == cp", "overland", "Compare"),
    ("not (mode == by_sea)", "overland", "True"),
    ("(if mode == by_sea then t > 1 else false)", "overland", "False"),
    ("t > 1 and mode == by_sea", "overland", "BoolOp"),    # t > 1 ran first before: it still runs first
    ("mode == p", "overland", "Compare"),                   # not a named constant: left alone
    ("any(mode == by_sea for mode in [1])", "overland", "Aggregate"),  # a rebound name is not touched
])
def test_specialize_decides_tests_of_a_fixed_parameter(text, mode, expected):
    assert _specialised(text, mode) == expected


def test_specialized_checkers_forbid_exactly_what_the_restriction_walk_forbids(campaign, monkeypatch):
    """Candidate by candidate, at every decision of random games: the
    generated checker (one version per side and SR mode for redeploy_to, per
    action for take_action) and the walk over the restrictions agree."""
    w = world(campaign, monkeypatch, closures=False)
    dispatched = [c for c, fn in w.forbid_any.items() if "dispatch" in fn.__code__.co_filename]
    assert {"redeploy_to", "take_action"} <= set(dispatched)
    checked = {}

    def compare(g, d):
        spec = g._pending_spec()
        fn = w.forbid_any.get(spec.name)
        if fn is None:
            return
        g.memo = {}
        try:
            for values in g._candidates(spec, g.s["stack"][-1]["l"]):
                assert fn(g, *values) == bool(g._forbidden(spec.name, values)), (spec.name, values)
                checked[spec.name] = checked.get(spec.name, 0) + 1
        finally:
            g.memo = None

    for seed in (2, 9):
        play_randomly(w, seed, 500, each=compare)
    assert checked.get("redeploy_to", 0) > 50 and checked.get("take_action", 0) > 50


def _loop_candidates(g, spec, l):
    """A choice's candidates by a plain loop over every source, one item
    sources included, then its `where`: the reference for the generated
    enumerator."""
    from pogdsl.runtime.builtins import iterate

    names = [name for name, _ in spec.sources]
    out = []

    def walk(i):
        if i == len(spec.sources):
            if spec.where is None or spec.where(g, l):
                out.append(tuple(l[v] if v in names else None for v in spec.vars))
            return
        name, source = spec.sources[i]
        for x in iterate(g, source(g, l)):
            l[name] = x
            walk(i + 1)

    saved = dict(l)
    try:
        walk(0)
    finally:
        l.clear()
        l.update(saved)
    return out


def test_the_generated_candidates_equal_a_loop_over_every_source(campaign, monkeypatch):
    """Sources of one item (`p in [player]`, `m in [moved]`) are bound without
    a loop: the candidates are the same, in the same order, along random
    games."""
    w = world(campaign, monkeypatch, closures=False)
    seen = {}

    def compare(g, d):
        spec = g._pending_spec()
        l = g.s["stack"][-1]["l"]
        assert g._candidates(spec, l) == _loop_candidates(g, spec, l), spec.name
        seen[spec.name] = seen.get(spec.name, 0) + 1

    for seed in (3, 11):
        play_randomly(w, seed, 400, each=compare)
    assert seen.get("redeploy_unit", 0) > 5 and seen.get("activate", 0) > 20


def test_choices_whose_sources_cannot_repeat_offer_no_candidate_twice(campaign, monkeypatch):
    """A random player's options are not sifted for equal candidates when no
    source of the choice can give the same thing twice (`activate`: the
    spaces held, each once, and two modes; `take_action`: the cards of a
    hand): along random games, no such choice lists a candidate twice, and
    a source that could repeat is never taken for one that cannot."""
    from types import SimpleNamespace

    from pogdsl.runtime.compile import Compiler

    w = world(campaign, monkeypatch, closures=False)
    specs = {st.spec.name: st.spec for code in w.codes.values() for st in code.steps
             if getattr(st, "spec", None) is not None}
    assert specs["activate"].no_repeats and specs["take_action"].no_repeats
    seen = {}

    def compare(g, d):
        spec = g._pending_spec()
        if spec.no_repeats:
            l = g.s["stack"][-1]["l"]
            for sampled in (True, False):
                candidates = g._candidates(spec, l, sampled=sampled)
                assert len(set(candidates)) == len(candidates), spec.name
            seen[spec.name] = seen.get(spec.name, 0) + 1

    for seed in (3, 11):
        play_randomly(w, seed, 400, each=compare)
    assert seen.get("activate", 0) > 20 and seen.get("take_action", 0) > 20

    sifter = SimpleNamespace(p=w.program, w=w)
    sifter.without_repeats = Compiler.without_repeats.__get__(sifter)

    def source(text: str):
        module, diags = parse_text(f"value v(p: side, xs: list of space) cites 1.0 = {text}\n", "r.pog")
        assert not diags
        return module.decls[0].expr
    for text, expected in [("[Paris, Sedan]", True), ("[Paris, Paris]", False), ("[p, p]", False),
                           ("[t for t in spaces where t.vp]", True), ("[u.space for u in units]", False),
                           ("distinct([u.space for u in units])", True), ("xs", False), ("xs + xs", False),
                           ("spaces_held(p)", True), ("(if p == ap then [Paris] else spaces)", True)]:
        assert sifter.without_repeats(source(text), {"p", "xs"}) is expected, text


def test_remembered_option_texts_follow_the_state_and_the_type_of_what_they_show(campaign, monkeypatch):
    """Option texts are remembered by the values they show: a value read
    from the state (`{u.location}`) is part of the key, so a unit that moved
    reads its new place; 1, 1.0 and True, equal as keys, still read apart
    when a parameter has no declared type."""
    from pogdsl.runtime.compile import template

    w = world(campaign, monkeypatch, closures=False)
    game = play_randomly(w, 3, 0)
    untyped = template("pay {n}", ["n"], w)
    assert [untyped((v,), game) for v in (1, True, 1.0, 1)] == ["pay 1", "pay yes", "pay 1.0", "pay 1"]
    typed = template("pay {n}", ["n"], w, typed={"n"})
    assert [typed((v,), game) for v in (2, 3, 2)] == ["pay 2", "pay 3", "pay 2"]
    assert typed(([1, 2],), game) == "pay 1, 2"  # a list is no key: built each time
    card = w.cards[0]
    number = template("play {c.number}", ["c"], w, typed={"c"})
    assert number((card,), game) == f"play {card.data.number}"
    assert number((card,)) == f"play {card.key}"  # without a game no attribute is read, nor the text kept
    assert number((card,), game) == f"play {card.data.number}"

    where = template("{u} in {u.location}", ["u"], w, typed={"u"})
    u = next(x for x in w.units if game.s["loc"][x.index] is not None and game.s["loc"][x.index] >= 0)
    first, other = game.s["loc"][u.index], next(s.index for s in w.spaces if s.index != game.s["loc"][u.index])
    assert where((u,), game) == f"{u.key} in {w.spaces[first].key}"
    game.s["loc"][u.index] = other
    assert where((u,), game) == f"{u.key} in {w.spaces[other].key}"


def test_generated_option_texts_equal_the_template_walk_along_games(campaign, monkeypatch):
    """Every option listed in random games reads as the template, walked
    part by part with nothing remembered, reads it."""
    from pogdsl.runtime import compile as C
    from pogdsl.runtime.values import decode

    w = world(campaign, monkeypatch, closures=False)
    walks = {}
    checked = 0

    def compare(g, d):
        nonlocal checked
        spec = g._pending_spec()
        if spec.name not in walks:
            decl = w.choices[spec.name]
            walks[spec.name] = C.template(decl.template, [p.name.text for p in decl.params])
        p = g.s["pending"]
        for text, values in zip(p["options"], p["values"]):
            if text != spec.optional_label or any(v is not None for v in values):
                assert text == walks[spec.name](tuple(decode(values, w)), g), spec.name
                checked += 1

    for seed in (3, 11):
        play_randomly(w, seed, 300, each=compare)
    assert checked > 1000


def test_inline_candidates_hand_a_missing_local_to_the_located_error(campaign, monkeypatch):
    """A choice's candidates are one generated function; when something is
    amiss (here the frame lacks `left`), the loops of closures take over and
    report the error with its place in the rules."""
    w = world(campaign, monkeypatch, closures=False)
    spec = next(st.run.spec for code in w.codes.values() for st in code.steps
                if getattr(st.run, "spec", None) is not None and st.run.spec.name == "activate")
    assert spec.enumerate.__name__.startswith("_candidates")  # the inline form
    game = play(w, 3, 0)
    player = w.by_kind["side"]["cp"]
    assert spec.enumerate(game, {"player": player, "left": 3})  # spaces holding units can be activated
    with pytest.raises(GameError, match="'left' has no value yet here") as info:
        spec.enumerate(game, {"player": player})
    assert info.value.span is not None and info.value.span.file.endswith("09-operations.pog")


def test_candidates_leave_the_frame_as_it_was(campaign, monkeypatch):
    """The loops of closures bind each variable in the frame while they run;
    a frame value of the same name is back afterwards (the generated
    function binds Python locals, and leaves the frame alone too)."""
    for closures in (True, False):
        w = world(campaign, monkeypatch, closures=closures)
        spec = next(st.run.spec for code in w.codes.values() for st in code.steps
                    if getattr(st.run, "spec", None) is not None and st.run.spec.name == "activate")
        game = play(w, 3, 0)
        player = w.by_kind["side"]["cp"]
        frame = {"player": player, "left": 3, "s": "the frame's own s"}
        for enumerate_ in (spec.enumerate, spec.enumerate_unfiltered):
            assert enumerate_(game, frame)
            assert frame == {"player": player, "left": 3, "s": "the frame's own s"}, closures


def test_inline_reads_of_a_units_place_and_of_state_kept_per_entity(campaign, monkeypatch):
    """`u.space`, `u.on_map`, `u.location` and `activation[s]` written inline read what the
    built-in readers read, wherever the unit is: on a space, in a box, off
    the board; units are keyed by number in state kept per entity."""
    from pogdsl.runtime import builtins as B
    from pogdsl.runtime.interpreter import Game

    w = world(campaign, monkeypatch, closures=False)
    g = Game.new(w, 1)
    gen = codegen.Generator(type("C", (), {"w": w, "p": w.program, "ns": None})())
    space = eval("lambda g, x: " + gen.inline_attr("unit", "space", "x"), gen.env)
    on_map = eval("lambda g, x: " + gen.inline_attr("unit", "on_map", "x"), gen.env)
    location = eval("lambda g, x: " + gen.inline_attr("unit", "location", "x"), gen.env)
    u = w.units[0]
    box = len(w.spaces)  # the first number past the spaces names a box
    last = box + len(w.boxes) - 1
    for loc in (0, 17, len(w.spaces) - 1, box, last, -1, None):
        g.s["loc"][u.index] = loc
        assert space(g, u) is B._unit_space(g, u), loc
        assert on_map(g, u) is B._unit_on_map(g, u), loc
        assert location(g, u) is w.place_entity(loc) is B._unit_location(g, u), loc
    assert location(g, u) is None and w.place_entity(last) is w.boxes[-1]
    assert u.scope == str(u.index) and w.spaces[3].scope == w.spaces[3].key
    assert B.read_scoped(g, "activation", w.spaces[3]) is None
    g.s["vars"]["activation"][w.spaces[3].key] = "marker"
    assert B.read_scoped(g, "activation", w.spaces[3]) == "marker"


def test_a_box_per_side_read_by_the_sides_identity_is_the_box_index_finds(campaign, monkeypatch):
    """`reserve[x]` (a box declared per side) looks the box up by the side's
    identity; for anything else, found or not, it is what `index` gives."""
    from pogdsl.runtime import builtins as B
    from pogdsl.runtime.errors import GameError
    from pogdsl.runtime.interpreter import Game

    w = world(campaign, monkeypatch, closures=False)
    g = Game.new(w, 1)
    gen = codegen.Generator(type("C", (), {"w": w, "p": w.program, "ns": None})())
    decl = w.names["reserve"]
    obj = gen.const(decl)
    boxes = gen.boxes_by_owner(obj)
    assert boxes is not None
    read = eval(f"lambda g, x: ({boxes}.get(id(x)) or index(g, {obj}, [x], None))", {**gen.env, "index": B.index})
    for x in [*w.sides, *w.nations, w.spaces[0], "cp", None]:
        try:
            expected = B.index(g, decl, [x], None)
        except GameError:
            with pytest.raises(GameError):
                read(g, x)
        else:
            assert read(g, x) is expected, x
    assert all(read(g, side) is w.by_kind["box"][f"reserve[{side.key}]"] for side in w.sides)


def test_inline_reads_of_army_and_corps_are_the_built_in_readers(campaign, monkeypatch):
    """`u.army` and `u.corps` (the unit types of 10.1 and 11.2) written
    inline give what the built-in readers give, for every unit of the
    Campaign, both kinds among them."""
    from pogdsl.runtime import builtins as B
    from pogdsl.runtime.interpreter import Game

    w = world(campaign, monkeypatch, closures=False)
    g = Game.new(w, 1)
    gen = codegen.Generator(type("C", (), {"w": w, "p": w.program, "ns": None})())
    for attr in ("army", "corps"):
        inline = eval("lambda g, x: " + gen.inline_attr("unit", attr, "x"), gen.env)
        reader = B.attribute_getter(w, attr)
        got = [inline(g, u) for u in w.units]
        assert got == [reader(g, u, None) for u in w.units]
        assert True in got and False in got


# ------------------------------------------------------------------ one-line values written in place

ONE_LINERS = """
value double(x: int) cites 1.0 = x + x
value plus_one(x: int) cites 1.0 = x + 1
value above(a: int) cites 1.0 = [y for y in [1, 2, 3, 4] where y > a]
value first_or(a: int, b: int) cites 1.0 = (if a > 0 then a else b)
"""


def _inlining_generator():
    module, diags = parse_text(ONE_LINERS, "inline.pog")
    assert not diags
    values = {d.name.text: d for d in module.decls}
    compiler = _FakeCompiler(values)
    compiler.direct_values = True
    compiler.inline_values = set(values)
    gen = codegen.Generator(compiler)
    gen.env.update({"V_double": lambda g, x: x + x, "V_plus_one": lambda g, x: x + 1,
                    "V_above": lambda g, a: [y for y in [1, 2, 3, 4] if y > a],
                    "V_first_or": lambda g, a, b: a if a > 0 else b})
    return gen


@pytest.mark.parametrize("text, bound, expected, called", [
    ("double(a)", {"a": 3}, 6, None),              # a plain name: read twice in place
    ("plus_one(a * b)", {"a": 2, "b": 5}, 11, None),  # read once: its Python in place
    ("double(a + b)", {"a": 1, "b": 2}, 6, "V_double"),  # read twice: still called
    ("above(a - 1)", {"a": 3}, [3, 4], "V_above"),  # read inside a loop: still called
    ("above(a)", {"a": 2}, [3, 4], None),
    ("first_or(a, 1 / 0)", {"a": 2}, 2, None),     # an argument left unread is not worked out
])
def test_one_line_values_are_written_in_place_unless_an_argument_would_be_worked_out_again(
        text, bound, expected, called):
    e = parse_text(f"value v(a: int, b: int) cites 1.0 = {text}\n", "c.pog")[0].decls[0].expr
    fn = _inlining_generator().function(e, {"a", "b"})
    assert fn(_FakeGame({}), dict(bound)) == expected
    if called is None:
        assert "V_" not in fn.source
    else:
        assert called in fn.source


@pytest.mark.parametrize("name, expected", [("some", True), ("every", True), ("evens", [2, 4]), ("many", 3)])
def test_closure_corners_leave_the_frame_as_it_was(name, expected, monkeypatch):
    """The closures (POGDSL_CLOSURES=1, and whatever code generation leaves
    to them) bind a comprehension's name in the frame while they loop; `any`
    and `all` stop at their answer, and must still put the frame back: a name
    left bound there would be saved with the game, and the two runtimes'
    saves would differ."""
    from pogdsl.runtime import compile as C

    compiler = C.Compiler.__new__(C.Compiler)
    compiler.w, compiler.p = _FakeWorld(), type("P", (), {"decls": {"value": {"xs": None}}})()
    compiler.codegen = compiler.direct_values = False
    monkeypatch.setattr(C.B, "value_of", lambda g, n, args: [1, 2, 3, 4])
    fn = compiler.expr(expression(name), set())
    frame = {"x": "the frame's own x"}
    assert fn(_FakeGame({}), frame) == expected
    assert frame == {"x": "the frame's own x"}
    frame = {}
    fn(_FakeGame({}), frame)
    assert frame == {}


def test_counting_enemy_units_stops_at_the_first_and_agrees_with_the_list(campaign, monkeypatch):
    """`len(enemy_units_at(t, p)) > 0` (enemy_units_in) is generated as a test
    that builds no list, and `len(...)` of a built-in's list compared with a
    number as a plain comparison; both answer what the closures answer, at
    every space for both sides along a game (with units of both sides, and
    spaces with none)."""
    from pogdsl.runtime import builtins as B

    w = world(campaign, monkeypatch, closures=False)
    fn = w.values["enemy_units_in"][1]
    called = [fn.__globals__.get(name) for name in re.findall(r"\bk\d+\b", fn.source)]
    assert B.has_enemy_units_at in called and "len(" not in fn.source
    slow = world(campaign, monkeypatch, closures=True).values["enemy_units_in"][1]
    checked = set()
    for decisions in (0, 120, 400):
        g = play(w, 6, decisions)
        for p in w.sides:
            for t in w.spaces + w.boxes:
                expected = len(B.enemy_units_at(g, None, t, p)) > 0
                assert fn(g, p, t) is expected and bool(slow(g, p, t)) is expected
                checked.add(expected)
    assert checked == {True, False}


# ------------------------------------------------------------------ parameters whose kind is tested once

def _outcome(fn, g, args):
    """What a value gives: its result, or the error it reports."""
    try:
        return ("result", fn(g, *args))
    except GameError as err:
        return ("error", str(err))


def _twin(w, x):
    """The argument of another world that stands for `x` (entities by kind and key)."""
    if isinstance(x, Entity):
        return w.units[x.index] if x.kind == "unit" else w.by_kind[x.kind][x.key]
    return x


@pytest.mark.parametrize("name", ["in_supply", "always_supplied", "supply_ground", "attrition_supplied"])
def test_a_value_testing_its_parameters_kind_once_gives_what_the_closures_give(campaign, monkeypatch, name):
    """A value's parameter of a declared kind read inline is tested once, on
    entry, instead of at each read: for every argument (one of its kind,
    none, an entity of another kind, a number) the generated value gives
    the closures' result, or the same located error, mid-game."""
    generated_world = world(campaign, monkeypatch, closures=False)
    reference_world = world(campaign, monkeypatch, closures=True)
    generated = play(generated_world, 5, 300)
    reference = play(reference_world, 5, 300)
    fn = generated_world.values[name][1]
    assert "kind !=" in fn.generated  # the test on entry
    kind = generated_world.program.decls["value"][name].params[0].type.text
    own = generated_world.units[:40] if kind == "unit" else generated_world.spaces[:40]
    other = generated_world.spaces[:3] if kind == "unit" else generated_world.units[:3]
    for arg in [*own, None, *other, generated_world.sides[0], 7]:
        got = _outcome(fn, generated, (arg,))
        expected = _outcome(reference_world.values[name][1], reference, (_twin(reference_world, arg),))
        assert got == expected, (name, arg)
