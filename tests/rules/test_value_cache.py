"""Reusing values across decisions (runtime/deps.py) must never change a game:
the same seed and choices give the same state, decision by decision, with the
cache on and off."""

import random

from pogdsl.runtime.interpreter import Game

from .harness import world


def _play(cache: bool, seed: int, decisions: int) -> list[str]:
    game = Game.new(world(), seed=seed, log=False)
    game.cache_values = cache
    chooser = random.Random(seed)
    hashes = []
    d = game.run()
    while d is not None and len(hashes) < decisions:
        d = game.choose(chooser.randrange(len(d.options)) + 1)
        hashes.append(game.state_hash())
    return hashes


def test_cached_and_uncached_games_agree_at_every_decision():
    for seed in (1, 7):
        assert _play(True, seed, 120) == _play(False, seed, 120)


def test_every_value_has_known_dependencies():
    w = world()
    assert set(w.value_deps) == set(w.values)
    assert "board" in w.value_deps["activatable_spaces"]


def test_restriction_guards_never_change_the_options():
    """Skipping restrictions whose constant guard cannot match (compile.guard)
    is only a speed-up: with every guard removed, the game is the same.  The
    guards serve the interpreter's own restriction walk (Game._forbidden, used
    for traces and refusals), so the generated checkers are set aside here."""
    w = world()
    guarded, generated = w.restrictions, w.forbid_any
    unguarded = {choice: [entry[:4] + (None,) for entry in entries] for choice, entries in guarded.items()}
    assert any(entry[4] is not None for entries in guarded.values() for entry in entries)
    try:
        w.forbid_any = {}
        walked = _play(True, 3, 100)
        w.restrictions = unguarded
        plain = _play(True, 3, 100)
    finally:
        w.restrictions, w.forbid_any = guarded, generated
    assert walked == plain


def test_generated_restriction_checkers_agree_with_the_restriction_walk():
    """Each choice's generated checker (codegen.forbid_function) forbids
    exactly what walking its restrictions one by one forbids."""
    w = world()
    generated = w.forbid_any
    assert "redeploy_to" in generated and "take_action" in generated
    try:
        w.forbid_any = {}
        walked = _play(True, 5, 150)
    finally:
        w.forbid_any = generated
    assert _play(True, 5, 150) == walked
