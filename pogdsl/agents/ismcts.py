"""A player that searches: information-set Monte Carlo tree search (single-
observer ISMCTS, after Cowling, Powley & Whitehouse, 2012) over the
engine's own legal options, for either side of any scenario.

It knows nothing of any game beyond what the sources declare.  At each
decision with more than one option it runs N iterations (`ismcts:N`); each:

1. draws a game consistent with what its side may see (runtime/hidden.py:
   the other sides' hands and every draw pile dealt afresh, the dice
   re-seeded, all from the agent's own generator — the real hidden cards
   are never read);
2. walks down one tree shared by every determinization: a node is the
   sequence of options taken since the decision at hand, by both sides,
   each option known by its side and its text — so a node means the same in
   every determinization, even where the legal options differ (the other
   side's options depend on the hand it was dealt).  At each node it takes,
   among the options legal in this determinization, the one with the best
   upper confidence bound, counted over the times the option was
   *available* (legal) rather than over the node's visits;
3. adds one node: an option legal here that the tree has not tried;
4. plays on with the playout policy — by default the interpreter's weighted
   random players, as `simulate` plays (runtime/sampling.py) — for at most H
   decisions (`ismcts:N:H`, default 30) or to the end of the game;
5. scores the result for each side (agents/mcts.py `score`: 1 a win, 0 a
   loss, ½ a game ended with no winner, and the scenario's declared
   `evaluation` for a playout cut short) and adds it to every node on the
   path, each from the side of the player who chose there.

It then takes the option tried most often (ties: the better mean score,
then the first listed).  A decision with one option costs nothing.  When its
next decision follows its own choice with no other decision between (a
side's action is often several decisions in a row), it keeps the subtree
under the option it chose: the iterations spent there are not lost.

Its generator is seeded like a random player's (from the game's seed and its
side) unless given, so a game is the same game every time, whether played by
`play` or by `simulate`.

Two plug points, so a better policy or evaluation can be swapped in without
touching the search: `policy`, any object with `pick(game, side)` → the
0-based index of an option of GAME's pending decision (None: the random
players; `playout_policy` makes the one `ismcts:N` plays with), and
`evaluate`, a function (game, side) → how good the game is for side, from 0
to 1 (`DEFAULT_EVALUATE`).
"""

from __future__ import annotations

import math
import time

from ..runtime import rng
from ..runtime.errors import DecisionBudgetExceeded, GameError
from ..runtime.hidden import determinize
from ..runtime.record import derive_seed
from .base import LookAhead, random_samplers
from .evaluation import score

DEFAULT_HORIZON = 30  # decisions a playout plays after the tree before it is scored
EXPLORATION = 0.7  # the UCB constant, for scores between 0 and 1
UNDECIDED = 0.5  # the score of a playout the rules could not finish (a dead end): it tells nothing

# The plug points.  How a playout is played and how a cut one is scored
# when the agent is given nothing else: the random players and the
# scenario's declared evaluation (agents/mcts.py `score`).
DEFAULT_EVALUATE = score


class GreedyPolicy:
    """The heuristic player as a playout policy: it tries the options on the
    playout's own game (already dealt from the side's view), with no fresh
    determinization a decision."""

    def __init__(self, seed: int):
        from .greedy import GreedyAgent

        self.player = GreedyAgent(seed)

    def pick(self, game, side: str) -> int:
        return self.player.pick(game, side, in_place=True)


def playout_policy(seed: int):
    """The playout policy `ismcts:N` plays with: the heuristic player
    (None would mean the interpreter's random players).  A policy is any
    object with `pick(game, side)` → the 0-based index of an option of
    GAME's pending decision; one is made per agent, from the agent's seed,
    so a policy with a generator of its own keeps games the same for a
    seed."""
    return GreedyPolicy(derive_seed(seed, "playout policy"))


class Node:
    """A node of the search tree: the options taken to reach it, by side and
    text, are its key in its parent's `children`.  `visits` and `total` are
    the playouts through it and their summed score for the side that chose
    the option leading here; `available` counts the playouts that passed its
    parent while that option was legal."""

    __slots__ = ("children", "visits", "total", "available")

    def __init__(self):
        self.children: dict[tuple[str, str], Node] = {}
        self.visits = 0
        self.total = 0.0
        self.available = 0

    def mean(self) -> float:
        return self.total / self.visits if self.visits else 0.0


class IsmctsAgent(LookAhead):
    def __init__(self, iterations: int, seed: int = 0, horizon: int = DEFAULT_HORIZON, *,
                 policy=None, evaluate=DEFAULT_EVALUATE):
        if iterations < 1:
            raise ValueError("ismcts:N needs at least 1 iteration")
        if horizon < 1:
            raise ValueError("ismcts:N:H needs a horizon of at least 1 decision")
        self.iterations = iterations
        self.horizon = horizon
        self.policy = policy
        self.evaluate = evaluate
        self.seed = seed
        self.state = rng.seed_state(seed)
        self.label = f"ismcts:{iterations}" + (f":{horizon}" if horizon != DEFAULT_HORIZON else "")
        # decisions it searched, iterations run, seconds spent: its speed; and
        # how many of those searches started from the subtree kept from the last
        self.stats: dict[str, float] = {"decisions": 0, "iterations": 0, "seconds": 0.0, "kept": 0}
        # The subtree kept for the next decision: (side, the game's decision
        # count it is for, its root), when that decision follows our choice at once.
        self._kept: tuple[str, int, Node] | None = None
        self.root: Node | None = None  # the tree of the last decision searched

    def pick(self, game, side: str) -> int:
        """The 0-based index of the option to take at GAME's pending decision
        for SIDE."""
        start = time.perf_counter()
        pending = game.s["pending"]
        by, options = pending["by"], pending["options"]
        root = self._reused_root(game, side)
        for _ in range(self.iterations):
            self.iterate(game, side, root)
        best = max(range(len(options)), key=lambda i: self._rank(root, by, options, i))
        chosen = root.children.get((by, options[best]))
        self._kept = (side, game.s["decisions"] + 1, chosen) if chosen is not None else None
        self.root = root
        self.stats["decisions"] += 1
        self.stats["iterations"] += self.iterations
        self.stats["seconds"] += time.perf_counter() - start
        return best

    @staticmethod
    def _rank(root: Node, by: str, options: list[str], i: int) -> tuple:
        child = root.children.get((by, options[i]))
        if child is None:
            return (0, 0.0, -i)
        return (child.visits, child.mean(), -i)

    def _reused_root(self, game, side: str) -> Node:
        """The subtree under our last choice when this decision is the very
        next one, ours again; else a new tree.  (The decision count is in
        every side's view: no hidden part is read.)"""
        kept, self._kept = self._kept, None
        if kept is not None and kept[0] == side and kept[1] == game.s["decisions"]:
            self.stats["kept"] += 1
            return kept[2]
        return Node()

    # ------------------------------------------------------------ one iteration
    def iterate(self, game, side: str, root: Node) -> None:
        """One determinization, descent, expansion, playout and backup."""
        self.state, other = determinize(game, side, self.state)
        other.log_enabled = False
        path: list[tuple[str, Node]] = []  # (who chose, the node chosen) from the root down
        node = root
        try:
            while other.s["result"] is None and other.s["pending"] is not None:
                by, option, child = self._select(other, node)
                if child is None:  # expansion: a new node, then the playout from it
                    child = node.children[(by, other.s["pending"]["options"][option])] = Node()
                    child.available = 1
                    path.append((by, child))
                    self._play_out(other, option)
                    break
                path.append((by, child))
                node = child
                other.choose(option + 1)
        except DecisionBudgetExceeded:
            pass
        except GameError:
            self._back_up(path, None)
            return
        self._back_up(path, other)

    def _select(self, game, node: Node) -> tuple[str, int, Node | None]:
        """(who chooses, the option to take, its node or None to expand it) at
        GAME's pending decision: an untried legal option at random if there is
        one, else the legal option with the best availability-counted UCB."""
        pending = game.s["pending"]
        by = pending["by"]
        children = node.children
        untried = []
        tried = []
        for i, text in enumerate(pending["options"]):
            child = children.get((by, text))
            if child is None:
                untried.append(i)
            else:
                child.available += 1
                tried.append((i, child))
        if untried:
            self.state, j = rng.below(self.state, len(untried))
            return by, untried[j], None
        best_i, best_child, best_bound = 0, None, -1.0
        for i, child in tried:
            bound = child.total / child.visits + EXPLORATION * math.sqrt(math.log(child.available) / child.visits)
            if bound > best_bound:
                best_i, best_child, best_bound = i, child, bound
        return by, best_i, best_child

    def _play_out(self, game, option: int) -> None:
        """Take OPTION, then play on with the policy for at most `horizon`
        decisions; a game cut short raises DecisionBudgetExceeded (random
        players) or stops at the horizon (a policy)."""
        if self.policy is None:
            self.state, samplers = random_samplers(game, self.state)
            game.samplers = samplers
            game.max_decisions = game.s["decisions"] + 1 + self.horizon
            game.choose(option + 1)  # runs on, the random players answering inside
            return
        d = game.choose(option + 1)
        for _ in range(self.horizon):
            if d is None:
                return
            d = game.choose(self.policy.pick(game, str(d.by)) + 1)

    def _back_up(self, path: list[tuple[str, Node]], game) -> None:
        """Add the playout's score to every node on PATH, each for the side
        that chose there (GAME None: a playout that tells nothing)."""
        scores: dict[str, float] = {}
        sides = {s.key for s in game.w.sides} if game is not None else set()
        for by, node in path:
            if game is None or by not in sides:
                value = UNDECIDED  # (a chooser that is not a side has no score)
            else:
                value = scores.get(by)
                if value is None:
                    value = scores[by] = self.evaluate(game, by)
            node.visits += 1
            node.total += value


def parse_spec(arg: str, seed: int) -> IsmctsAgent:
    """The agent of spec `ismcts:N` or `ismcts:N:H` (ARG is "N" or "N:H")."""
    from ..numbers import NumberError, parse_whole

    count, _, horizon = arg.partition(":")
    if ":" in horizon:
        raise ValueError(f"ismcts:N[:H] takes at most two numbers (N iterations a decision, H decisions a "
                         f"playout), not 'ismcts:{arg}'")
    try:
        iterations = parse_whole(count)
        horizon_n = parse_whole(horizon) if horizon else DEFAULT_HORIZON
    except NumberError as err:
        raise ValueError(f"ismcts:N[:H] needs whole numbers (N iterations a decision, H decisions a playout): "
                         f"{err}") from None
    return IsmctsAgent(iterations, seed, horizon_n, policy=playout_policy(seed))
