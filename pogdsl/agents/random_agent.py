"""An agent that picks at random among the legal options: uniformly, or as
the choice's `weight` says when the rules give one (so a designer can keep
random games plausible, e.g. peace seldom accepted).

It has its own generator, seeded once, so its choices never draw from the
game's dice: the same seed gives the same choices, and fixing the game's dice
does not change what the agent picks."""

from __future__ import annotations

from ..runtime import rng, sampling
from .base import Agent


class RandomAgent(Agent):
    """A random player.  Its generator is a PCG32 state (`state`), so the
    interpreter can draw for it without listing a decision's options
    (`Game.samplers`, runtime/sampling.py), and a listed decision is answered
    by the same draws (`Game.sample_pending`): the same seed plays the same
    game whether its decisions were listed or not."""

    def __init__(self, seed: int = 0):
        self.seed = seed
        self.state = rng.seed_state(seed)
        self.label = f"random:{seed}"

    def pick(self, options, weights=None) -> int:
        """The 0-based index of one of `options`, all legal: uniformly, or by
        `weights`."""
        self.state, index = sampling.pick_index(len(options), weights or None, self.state)
        return index

    def choose(self, session, decision):
        drawn = session.game.sample_pending(self.state)
        if drawn is None:  # no choice to draw from (a decision made up by a caller): pick from its list
            return self.pick(decision.options, decision.weights) + 1
        state, index, real = drawn
        if real:
            self.state = state
        return index + 1
