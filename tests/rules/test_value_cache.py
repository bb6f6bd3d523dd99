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
