"""What every agent is: something that answers a decision."""

from __future__ import annotations


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
