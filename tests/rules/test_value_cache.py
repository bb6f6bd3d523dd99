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
    is only a speed-up: with every guard removed, the game is the same."""
    w = world()
    guarded = w.restrictions
    unguarded = {choice: [entry[:4] + (None,) for entry in entries] for choice, entries in guarded.items()}
    assert any(entry[4] is not None for entries in guarded.values() for entry in entries)
    try:
        w.restrictions = unguarded
        plain = _play(True, 3, 100)
    finally:
        w.restrictions = guarded
    assert _play(True, 3, 100) == plain
