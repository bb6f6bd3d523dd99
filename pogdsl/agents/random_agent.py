"""An agent that picks at random among the legal options: uniformly, or as
the choice's `weight` says when the rules give one (so a designer can keep
random games plausible, e.g. peace seldom accepted).

It has its own generator, seeded once, so its choices never draw from the
game's dice: the same seed gives the same choices, and fixing the game's dice
does not change what the agent picks."""

from __future__ import annotations

import random

from .base import Agent


class RandomAgent(Agent):
    def __init__(self, seed: int = 0):
        self.seed = seed
        self.rng = random.Random(seed)
        self.label = f"random:{seed}"

    def pick(self, options, weights=None) -> int:
        """The 0-based index of an option."""
        if weights:
            return self.rng.choices(range(len(options)), weights=weights)[0]
        return self.rng.randrange(len(options))

    def choose(self, session, decision):
        return self.pick(decision.options, decision.weights) + 1
