"""While every option of a decision is listed the state stands still, so a
remembered value asked for option after option (the activation cost of each
space) works out once per listing the newest revision any of its areas was
written at, and compares each result's revision with that (compile.py,
`bind_values`: kept in the listing's memo).  What that saves is work, never
a different answer: every listing must be the one a game remembering
nothing lists, and a write between two listings must reach the next one."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pogdsl.runtime import builtins as B  # noqa: E402
from pogdsl.runtime.interpreter import Game  # noqa: E402
from rules.harness import ROOT, world  # noqa: E402


def _listed_pair(w, seed: int):
    """Two games of one seed, every decision listed (as the environment
    lists them): one remembering values, one remembering nothing."""
    remembering = Game.new(w, seed=seed, log=False)
    fresh = Game.new(w, seed=seed, log=False)
    fresh.cache_values = False
    for g in (remembering, fresh):
        g.list_weights = False
    return remembering, fresh


@pytest.mark.parametrize("scenario", ["historical", "campaign", "suicide_of_europe", "illusions"])
def test_every_listing_is_the_one_a_game_remembering_nothing_lists(scenario):
    w = world(scenario)
    remembering, fresh = _listed_pair(w, 11)
    rng = random.Random(11)
    d, d_fresh = remembering.run(), fresh.run()
    listed = 0
    kinds = set()
    while d is not None and listed < 400:
        assert d_fresh is not None, f"decision {listed}: the game remembering nothing ended"
        assert (d.choice, d.options) == (d_fresh.choice, d_fresh.options), f"decision {listed} ({d.choice})"
        assert remembering.s["pending"]["values"] == fresh.s["pending"]["values"]
        kinds.add(d.choice)
        pick = rng.randrange(len(d.options)) + 1
        d, d_fresh = remembering.choose(pick), fresh.choose(pick)
        listed += 1
    assert remembering.state_hash() == fresh.state_hash()
    assert listed >= 100 and len(kinds) >= 5, "the game should list many decisions of many kinds"


def _in_a_listing(game: Game, name: str, args: tuple):
    """NAME at ARGS, asked as a listing's generated code asks it (`V_NAME`,
    with the listing's memo and Game.listing set); the memo afterwards."""
    # The generated functions share one namespace, their globals.
    generated = next(iter(game.w.forbid_any.values())).__globals__[f"V_{name}"]
    game.memo = {}
    game.listing = True
    try:
        return generated(game, *args), dict(game.memo)
    finally:
        game.memo = None
        game.listing = False


def test_a_write_between_two_listings_reaches_the_next_listing():
    """The newest revision worked out in one listing is that listing's own:
    a unit moved into a space before the next listing changes the space's
    activation cost there, though nothing it read changed between the two
    askings of the first listing."""
    # A world of its own: values a long process learnt to work out afresh
    # (builtins._stop_remembering) would not be remembered here.
    from pogdsl.opening import open_scenario

    w = open_scenario("campaign", ROOT, cache=False).world
    game = Game.new(w, seed=3, log=False)
    game.run()
    cp, move = w.by_kind["side"]["cp"], w.by_kind["activation_mode"]["move"]
    german = w.by_kind["nation"]["ge"]
    austrian = next(u for u in w.units if u.data.nation is w.by_kind["nation"]["ah"]
                    and game.s["loc"][u.index] is not None and 0 <= game.s["loc"][u.index] < len(w.spaces))
    space = next(s for s in w.spaces
                 if any(w.units[i].data.nation is german for i in game.s["occ"][w.location(s)])
                 and not any(w.units[i].data.nation is not german for i in game.s["occ"][w.location(s)]))
    args = (space, cp, move)
    before, memo = _in_a_listing(game, "activation_cost", args)
    assert before == 1
    game.clock += 1  # (a later revision, nothing written: the next asking takes the newest-revision path)
    again, memo = _in_a_listing(game, "activation_cost", args)
    assert again == 1 and "activation_cost" in memo, "the newest revision is kept in the listing's memo"
    game.move_unit(austrian, w.location(space))
    after, _ = _in_a_listing(game, "activation_cost", args)
    assert after == 2, "a German and an Austro-Hungarian unit: two nationalities, two points (9.2.3)"
    other = Game(w, game.s)
    other.cache_values = False
    assert after == B.value_of(other, "activation_cost", args)


@pytest.mark.parametrize("scenario", ["historical", "illusions"])
def test_the_listing_dispatch_forbids_what_each_restriction_forbids(scenario):
    """Game.offer sorts each candidate to the version of the generated
    restriction checker written for its values, and does not call a version
    that can forbid nothing (`_not_forbidden`); a game keeping a trace walks
    the restrictions one by one instead (rule 'forbid ... when ... unless':
    an option is legal when no restriction forbids it).  Both must list the
    same options, decision after decision."""
    w = world(scenario)
    dispatched = Game.new(w, seed=5, log=False)
    walked = Game.new(w, seed=5, log=False)
    walked.trace = []
    for g in (dispatched, walked):
        g.list_weights = False
    rng = random.Random(5)
    d, d_walked = dispatched.run(), walked.run()
    listed = 0
    while d is not None and listed < 300:
        assert (d.choice, d.options) == (d_walked.choice, d_walked.options), f"decision {listed} ({d.choice})"
        walked.trace.clear()  # (it grows with every modifier applied)
        pick = rng.randrange(len(d.options)) + 1
        d, d_walked = dispatched.choose(pick), walked.choose(pick)
        listed += 1
    assert dispatched.state_hash() == walked.state_hash()
    assert listed >= 100


@pytest.mark.parametrize("scenario", ["historical", "campaign", "suicide_of_europe", "illusions"])
def test_the_shared_tests_worked_out_once_forbid_what_the_checker_forbids(scenario, monkeypatch):
    """A listing works out once, at its first candidate, the leading tests
    of a restriction that read only the state and the values every
    candidate shares (the player, the unit being redeployed: codegen
    `_hoisted`), then tests the rest of the clause for each candidate.  At
    every listing of random games it must keep exactly the candidates the
    generated checker keeps when asked candidate by candidate (rule
    'forbid ... when ...': an option is legal when no restriction forbids
    it), and it must have been used."""
    w = world(scenario)
    checked, held = [], []
    listing = Game._not_forbidden

    def compared(game, spec, candidates):
        kept = listing(game, spec, candidates)
        forbids = game.w.forbid_any.get(spec.name)
        if forbids is not None and game.trace is None:
            one_by_one = [values for values in candidates if not forbids(game, *values)]
            assert kept == one_by_one, f"{spec.name}: {len(kept)} kept, {len(one_by_one)} one by one"
            checked.append(spec.name)
            split = getattr(forbids, "variants", None)
            versions = [forbids] if split is None else [f for f in (split[2], *split[1].values()) if f is not None]
            if candidates and any(getattr(f, "hoisted", None) for f in versions):
                held.append(spec.name)
        return kept

    monkeypatch.setattr(Game, "_not_forbidden", compared)
    game = Game.new(w, seed=7, log=False)
    game.list_weights = False
    rng = random.Random(7)
    d = game.run()
    listed = 0
    while d is not None and listed < 400:
        d = game.choose(rng.randrange(len(d.options)) + 1)
        listed += 1
    assert listed >= 100 and len(checked) >= 100
    assert held, "no listing worked out shared tests once: the test tested nothing"
