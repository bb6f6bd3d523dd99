"""An agent that plays the decision lines of a script, in order, for one side."""

from __future__ import annotations

from collections import deque

from ..runtime.errors import BadSave
from ..runtime.record import Script, ScriptError, read_script
from .base import Agent


class ScriptExhausted(BadSave):
    """The script has no more decisions for its side and the game is not over."""


class ScriptedAgent(Agent):
    batch = False  # one recorded game's answers, not a player of many games

    def __init__(self, script: Script, side: str):
        self.script = script
        self.side = side
        self.queue = deque(script.decisions_for(side))
        self.current = None
        self.label = f"script:{script.path}"

    @classmethod
    def from_file(cls, path, side: str) -> ScriptedAgent:
        return cls(read_script(path), side)

    def choose(self, session, decision):
        if not self.queue:
            last = f" (its last line for {self.side} was {self.current.line})" if self.current else ""
            raise ScriptExhausted(f"{self.script.path}: no more decisions for {self.side}{last}, but the game "
                                  f"asks {self.side} to choose {decision.choice}: "
                                  + " | ".join(decision.options))
        self.current = self.queue.popleft()
        return self.current.text

    def refused(self, session, decision, answer, error) -> None:
        line = self.current.line if self.current else 0
        raise ScriptError(self.script.path, line, f"'{answer}' is not legal: {error.message}; legal: "
                                                  + " | ".join(decision.options))
