"""Errors of play, each with the source span and rules in force, so a user
sees `rules/12-combat.pog:88:5 (12.4.3): ...` and never a traceback."""

from __future__ import annotations


class GameError(Exception):
    """The sources asked for something impossible at run time."""

    def __init__(self, message: str, span=None, cites=()):
        super().__init__(message)
        self.message = message
        self.span = span
        self.cites = tuple(cites or ())

    def __str__(self) -> str:
        where = f"{self.span}: " if self.span is not None and getattr(self.span, "line", 0) else ""
        rules = f" (rule {', '.join(self.cites)})" if self.cites else ""
        return f"{where}{self.message}{rules}"


class DeadEnd(GameError):
    """A player must choose but no option is legal, and the game is not over."""


class LimitExceeded(GameError):
    """The game ran out of one of its bounded resources (runtime/limits.py):
    too many steps, too long a list, too large a number, too many candidates,
    too deep a nesting.  `limit` names it."""

    def __init__(self, message: str, span=None, cites=(), limit: str = ""):
        super().__init__(message, span, cites)
        self.limit = limit


class StepBudgetExceeded(LimitExceeded):
    """The game ran more steps than its budget: a runaway loop in the sources."""

    def __init__(self, message: str, span=None, cites=(), limit: str = "steps"):
        super().__init__(message, span, cites, limit)


class DecisionBudgetExceeded(LimitExceeded):
    """The game took more decisions than its budget and is not over: the
    scenario's `decisions` limit (a game that never ends), or the depth of a
    look-ahead player's playout."""

    def __init__(self, message: str, span=None, cites=(), limit: str = "decisions"):
        super().__init__(message, span, cites, limit)

    by: str | None = None  # who was about to decide (a side's key), when known


class IllegalOption(Exception):
    """An answer that is not one of the legal options; the state is unchanged."""

    def __init__(self, message: str, rules=()):
        super().__init__(message)
        self.message = message
        self.rules = tuple(rules)


class BadSave(Exception):
    """A saved game or script that cannot be read or does not verify."""
