"""How a computer player judges a position: the scenario's declared
evaluation (`term` declarations and `value evaluation_scale`, see
docs/players.rst), turned into a win expectation.

For a side p, E(p) is the sum of `weight * term(p)` over the terms; the
score of an unfinished game for p is the logistic of p's lead over the other
playing sides (their mean), divided by the scale:

    score(p) = 1 / (1 + exp(-(E(p) - mean E(other sides)) / scale))

so a lead of one scale makes a win about 2.7 times as likely as a loss, and
the scores of two sides add up to 1.  A finished game scores 1 for a win, 0
for a loss and 1/2 for a game no one won.  A scenario that declares no term
scores every unfinished game 1/2.

Each term is worked out as a value of its own (runtime/world.py), so its
result is remembered while nothing it reads changes; a player that judges
thousands of positions a game pays only for what changed.  Nothing here
knows any game: the terms are the sources'.
"""

from __future__ import annotations

import math

from ..runtime.builtins import value_of
from ..runtime.errors import GameError
from ..semantics.model import EVALUATION_SCALE

__all__ = ["evaluation", "score", "term_values"]


def _side(game, side):
    """The side entity of SIDE (an entity or its key)."""
    if not isinstance(side, str):
        return side
    for s in game.w.sides:
        if s.key == side:
            return s
    raise KeyError(f"no playing side '{side}'")


def term_values(game, side) -> list[tuple[str, int, int]]:
    """(term, weight, value) of each term for SIDE, in source order."""
    entity = _side(game, side)
    return [(t.name, t.weight, int(value_of(game, t.value, (entity,)))) for t in game.w.terms]


def evaluation(game, side) -> int:
    """E(SIDE): the weighted sum of the terms for SIDE."""
    entity = _side(game, side)
    return sum(t.weight * value_of(game, t.value, (entity,)) for t in game.w.terms)


def lead(game, side) -> float:
    """E(SIDE) less the mean E of the other playing sides."""
    me = _side(game, side)
    others = [s for s in game.w.sides if s is not me]
    mine = evaluation(game, me)
    if not others:
        return float(mine)
    return mine - sum(evaluation(game, s) for s in others) / len(others)


def scale(game) -> float:
    """The declared scale (at least 1)."""
    return max(1.0, float(value_of(game, EVALUATION_SCALE, ())))


def score(game, side) -> float:
    """How good GAME is for SIDE (a side or its key), from 0 to 1: its result
    when the game is over, else the win expectation of the declared
    evaluation (1/2 when the scenario declares none, or when a term cannot be
    worked out in this position)."""
    result = game.s["result"]
    key = getattr(side, "key", side)
    if result is not None:
        winner = result["winner"]
        return 0.5 if winner is None else float(winner == key)
    if not game.w.terms:
        return 0.5
    try:
        x = lead(game, side) / scale(game)
    except GameError:
        return 0.5
    if x < -60:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))
