"""A player that looks ahead: flat Monte Carlo search over the engine's
own legal options, with random playouts: a search tree one level deep (the
options of the decision at hand), the options chosen for playouts by UCB1.

It knows nothing of any game beyond what the sources declare.  At each
decision with more than one option it runs N playouts (`mcts:N`).  Each
playout:

1. draws a game consistent with what its side may see (runtime/hidden.py:
   the other sides' hands and every draw pile dealt afresh, the dice
   re-seeded, all from the agent's own generator);
2. takes one of the options — each is tried once, then the one with the best
   upper confidence bound (UCB1), so promising options get more playouts;
3. lets random players (the interpreter's samplers, as `simulate` uses)
   play on, for at most D decisions (`mcts:N:D`, default 30) or to the end
   of the game;
4. scores the result for its side: 1 for a win, 0 for a loss, ½ for a game
   ended with no winner; a playout cut short scores the win expectation of
   the scenario's declared evaluation (its `term`s, agents/evaluation.py),
   or ½ when the scenario declares none.

It then takes the option played most often (ties: the better mean score,
then the first listed).  Its generator is seeded like a random player's
(from the game's seed and its side) unless given, so a game is the same
game every time, whether played by `play` or by `simulate`.
"""

from __future__ import annotations

import math
import time

from ..runtime import rng
from ..runtime.errors import DecisionBudgetExceeded, GameError
from ..runtime.hidden import determinize
from .base import LookAhead, random_samplers
from .evaluation import score

__all__ = ["MctsAgent", "parse_spec", "score"]  # score: where it was (agents/evaluation.py)

DEFAULT_DEPTH = 30  # decisions a playout plays before it is scored
EXPLORATION = 0.7  # UCB1's constant, for scores between 0 and 1


class MctsAgent(LookAhead):
    def __init__(self, playouts: int, seed: int = 0, depth: int = DEFAULT_DEPTH):
        if playouts < 1:
            raise ValueError("mcts:N needs at least 1 playout")
        if depth < 1:
            raise ValueError("mcts:N:D needs a depth of at least 1 decision")
        self.playouts = playouts
        self.depth = depth
        self.seed = seed
        self.state = rng.seed_state(seed)
        self.label = f"mcts:{playouts}" + (f":{depth}" if depth != DEFAULT_DEPTH else "")
        # decisions it looked ahead for, playouts played, seconds spent: its speed
        self.stats: dict[str, float] = {"decisions": 0, "playouts": 0, "seconds": 0.0}

    def pick(self, game, side: str) -> int:
        """The 0-based index of the option to take at GAME's pending decision
        for SIDE."""
        start = time.perf_counter()
        n = len(game.s["pending"]["options"])
        visits = [0] * n
        totals = [0.0] * n
        order = list(range(n))
        for i in range(n - 1, 0, -1):  # untried options in a random order
            self.state, j = rng.below(self.state, i + 1)
            order[i], order[j] = order[j], order[i]
        for k in range(self.playouts):
            if k < n:
                option = order[k]
            else:
                log_k = math.log(k)
                option = max(range(n), key=lambda i: totals[i] / visits[i]
                             + EXPLORATION * math.sqrt(log_k / visits[i]))
            totals[option] += self.playout(game, side, option)
            visits[option] += 1
        self.stats["decisions"] += 1
        self.stats["playouts"] += self.playouts
        self.stats["seconds"] += time.perf_counter() - start
        return max(range(n), key=lambda i: (visits[i], totals[i] / visits[i] if visits[i] else 0.0, -i))

    def playout(self, game, side: str, option: int) -> float:
        """The score for SIDE of one playout that starts with OPTION."""
        self.state, other = determinize(game, side, self.state)
        other.log_enabled = False
        self.state, samplers = random_samplers(game, self.state)
        other.samplers = samplers
        other.max_decisions = other.s["decisions"] + self.depth
        try:
            other.choose(option + 1)  # runs on, the random players answering inside
        except DecisionBudgetExceeded:
            pass
        except GameError:
            return 0.5  # a playout the rules could not finish (a dead end): it tells nothing
        return score(other, side)


def parse_spec(arg: str, seed: int) -> MctsAgent:
    """The agent of spec `mcts:N` or `mcts:N:D` (ARG is "N" or "N:D")."""
    from ..numbers import NumberError, parse_whole

    count, _, depth = arg.partition(":")
    try:
        playouts = parse_whole(count)
        depth_n = parse_whole(depth) if depth else DEFAULT_DEPTH
    except NumberError as err:
        raise ValueError(f"mcts:N[:D] needs whole numbers (N playouts a decision, D decisions a playout): "
                         f"{err}") from None
    return MctsAgent(playouts, seed, depth_n)
