"""What every agent is: something that answers a decision; and what the
players that look ahead share."""

from __future__ import annotations

from ..runtime import rng


class Stop:
    """Returned by an agent instead of an answer: quit the game."""


class Again:
    """Returned by an agent that changed the game itself (undo, load): look at
    the pending decision again."""


QUIT = Stop()
AGAIN = Again()


class Agent:
    """An agent answers decisions with an option's text or its 1-based number."""

    human = False
    label = "agent"
    # Whether `simulate` and `ladder` can play it in their worker processes:
    # no terminal, no file of its own, and a game from its seed alone.
    batch = True

    def choose(self, session, decision):
        raise NotImplementedError

    def refused(self, session, decision, answer, error) -> None:
        """The answer was not legal.  A human is told and asked again; any other
        agent has a bug or a stale script, so the game stops."""
        raise error

    def __str__(self) -> str:
        return self.label


class Sampler:
    """A random player the interpreter draws for (Game.samplers): its PCG32 state."""

    __slots__ = ("state",)

    def __init__(self, state: int):
        self.state = state


def random_samplers(game, state: int) -> tuple[int, dict]:
    """(advanced generator STATE, a random player for each side of GAME, each
    seeded from STATE): the players a look-ahead plays its playouts with."""
    samplers = {}
    for s in game.w.sides:
        state, a = rng.next32(state)
        state, b = rng.next32(state)
        samplers[s.key] = Sampler(rng.seed_state((a << 32) | b))
    return state, samplers


class LookAhead(Agent):
    """A player that searches: a decision of one option is taken at once, the
    others go to `pick(game, side)` → a 0-based option index."""

    def choose(self, session, decision):
        game = session.game
        if len(game.s["pending"]["options"]) <= 1:
            return 1
        return self.pick(game, str(decision.by)) + 1

    def pick(self, game, side: str) -> int:
        raise NotImplementedError
