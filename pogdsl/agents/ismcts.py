"""A player that searches: information-set Monte Carlo tree search (single-
observer ISMCTS, after Cowling, Powley & Whitehouse, 2012) over the
engine's own legal options, for either side of any scenario.

It knows nothing of any game beyond what the sources declare.

`ismcts:N` spends its search where it can change the answer.  At each
decision with more than one option it first asks the heuristic player
(agents/greedy.py, its own generator: the `Screen`) and reads its
look-ahead scores.  It searches only a decision that opens its side's
action (its first since another side decided, at the outermost level of
the sequence of play it has met: which card and how, not a step inside an
operation or a combat; `_opens_action`), and only where the scores are
close: where they tell the best option clearly apart (by more than
MARGIN), or tell the options apart by nothing at all (answered by the
choice's weight), or the decision is a later step of an action, it takes
the heuristic player's answer.  Else it searches the heuristic player's choice
and the options it scored within MARGIN of the best, WIDTH at most, in
rounds: each round deals one game from its side's view and plays every
one of those options from it, with the same dice and the same state of
the playout policy, so the options are compared on the same luck; the deal
inherits the values the game remembers (`determinize(remember=True)`) and
every option of the round starts from it (Game.mark/restore), so what they
share is worked out once.  It takes the option that led the heuristic
player's choice most, round by round on the same deals (`_lead`): by any
margin, or with `ismcts:N:H:Z` only by at least Z standard errors of the
rounds' differences — the rounds are few and their scores scatter, and a
better mean alone may be luck.  Under such a gate options that trail the
choice are dropped, and while one is ahead but not yet clearly the first
rounds are played again over those left, EXTRA times at most.  Below the
root the tree grows by progressive widening: a node's first child is the
playout policy's own option, another only when 1 + WIDEN × √visits allows.
N iterations in all, in whole rounds (up to (1 + EXTRA) × N under a gate,
when undecided).  A playout goes on through the other side's reply: it
stops when the side is back at the searched decision's choice after the
other side has made that choice too (its next card, once the other side
has played one), at the end of the game, or after H = 40 decisions
(`ismcts:N:H`), and is scored there.

`IsmctsAgent` without a screen (its Python default) searches every option
of every decision as plain ISMCTS.  Each iteration:

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
4. plays on with the playout policy — without one the interpreter's
   weighted random players, as `simulate` plays (runtime/sampling.py);
   `ismcts:N` plays the heuristic player — for at most H decisions
   (default 30) or to the end of the game;
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
from .greedy import FOLLOW, MAX_FOLLOW

DEFAULT_HORIZON = 30  # decisions a playout plays after the tree before it is scored
SPEC_HORIZON = 40  # `ismcts:N`'s cap: a playout stops sooner, at the side's next turn at the choice
WIDTH = 3  # a screened search weighs the heuristic player's best few options, no more …
MARGIN = 0.05  # … those it scored within this of its best; a clearer best is taken without a search
WIDEN = 0.5  # under a screened search a tree node may have 1 + WIDEN * sqrt(visits) children
EXPLORATION = 0.7  # the UCB constant, for scores between 0 and 1
CONFIDENCE = 0  # a rival replaces the heuristic player's choice when it leads by this many standard errors (ismcts:N:H:Z) …
MAX_CONFIDENCE = 10  # (a lead of ten standard errors is already certain)
EXTRA = 2  # … and a gated search (Z > 0) still undecided plays its first rounds again, at most EXTRA times more
UNDECIDED = 0.5  # the score of a playout the rules could not finish (a dead end): it tells nothing

# The plug points.  How a playout is played and how a cut one is scored
# when the agent is given nothing else: the random players and the
# scenario's declared evaluation (agents/mcts.py `score`).
DEFAULT_EVALUATE = score


class GreedyPolicy:
    """The heuristic player as a playout policy: it tries the options on the
    playout's own game (already dealt from the side's view), with no fresh
    determinization a decision.  FOLLOW is its `greedy:K:F`'s F."""

    def __init__(self, seed: int, follow: int = FOLLOW):
        from .greedy import GreedyAgent

        self.player = GreedyAgent(seed, follow=follow)

    def pick(self, game, side: str) -> int:
        return self.player.pick(game, side, in_place=True)


def playout_policy(seed: int, follow: int = FOLLOW):
    """The playout policy `ismcts:N` plays with: the heuristic player,
    playing FOLLOW of its own decisions on after each option it looks at
    (None would mean the interpreter's random players).  A policy is any
    object with `pick(game, side)` → the 0-based index of an option of
    GAME's pending decision; one is made per agent, from the agent's seed,
    so a policy with a generator of its own keeps games the same for a
    seed."""
    return GreedyPolicy(derive_seed(seed, "playout policy"), follow)


class Screen:
    """The heuristic player, asked first at each decision: its look-ahead
    scores say whether the decision is worth a search, and which options
    are.  (A hook kept in this module, not in agents/greedy.py: it keeps the
    scores the heuristic player hands its own `_note`.)"""

    def __init__(self, seed: int, follow: int = FOLLOW):
        from .greedy import GreedyAgent

        screen = self

        class Scoring(GreedyAgent):
            def _note(self, choice, scored):
                screen.scored = list(scored)
                super()._note(choice, scored)

        self.player = Scoring(seed, follow=follow)
        self.scored: list | None = None

    def contested(self, game, side: str, width: int, margin: float) -> tuple[int, list[int]]:
        """(the heuristic player's choice, the options worth a search: its
        choice first, then the others its look-ahead scored within MARGIN of
        the best, at most WIDTH in all).  A list of one: the choice is
        clear, or the heuristic player answered by weight alone."""
        self.scored = None
        choice = self.player.pick(game, side)
        scored = self.scored or []
        valid = sorted(((v, i) for v, i, draw, _ in scored if draw is not None), key=lambda t: -t[0])
        if len(valid) < 2 or valid[0][0] == valid[-1][0]:
            # all alike: the look-ahead read no difference (the first step of
            # an operation, mostly), and the choice's weight decides
            return choice, [choice]
        best = valid[0][0]
        rivals = [i for v, i in valid if i != choice and v >= best - margin]
        return choice, [choice] + rivals[:width - 1]


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
                 policy=None, evaluate=DEFAULT_EVALUATE, screen: Screen | None = None,
                 width: int = WIDTH, margin: float = MARGIN, confidence: float = CONFIDENCE):
        if iterations < 1:
            raise ValueError("ismcts:N needs at least 1 iteration")
        if horizon < 1:
            raise ValueError("ismcts:N:H needs a horizon of at least 1 decision")
        self.iterations = iterations
        self.horizon = horizon
        self.policy = policy
        self.evaluate = evaluate
        self.screen = screen
        self.width = width
        self.margin = margin
        self.confidence = confidence
        self.seed = seed
        self.state = rng.seed_state(seed)
        plain = SPEC_HORIZON if screen is not None else DEFAULT_HORIZON
        follow = getattr(getattr(screen, "player", None), "follow", FOLLOW)
        self.label = f"ismcts:{iterations}" + (f":{horizon}:{confidence:g}:{follow}" if follow != FOLLOW
                                                else f":{horizon}:{confidence:g}" if confidence != CONFIDENCE
                                                else f":{horizon}" if horizon != plain else "")
        # decisions it answered (more than one option), iterations run and
        # seconds spent: its speed; how many searches started from the
        # subtree kept from the last; with a screen, the decisions it
        # searched and their seconds (the others took the screen's answer)
        self.stats: dict[str, float] = {"decisions": 0, "iterations": 0, "seconds": 0.0, "kept": 0}
        if screen is not None:
            self.stats.update(searched=0, search_seconds=0.0, overridden=0, extended=0)
        # The subtree kept for the next decision: (side, the game's decision
        # count it is for, its root), when that decision follows our choice at once.
        self._kept: tuple[str, int, Node] | None = None
        self._at: tuple[str, int] = ("", 0)  # (side, decision count) of the decision being searched
        self.root: Node | None = None  # the tree of the last decision searched
        # the game's decision count at its last answer: a decision right after
        # it is a later step of the same action, not searched (see _screened_pick)
        self._answered_at: int | None = None
        self._shallowest: int | None = None  # the fewest frames on the stack at a decision it answered
        # (side, choice) of the decision being searched: its playouts stop when
        # the side is back at that choice after the other side had its turn at it
        self._round: tuple[str, str] | None = None

    def pick(self, game, side: str) -> int:
        """The 0-based index of the option to take at GAME's pending decision
        for SIDE."""
        start = time.perf_counter()
        if self.screen is not None:
            best = self._screened_pick(game, side, start)
        else:
            best = self._full_pick(game, side)
        self.stats["decisions"] += 1
        self.stats["seconds"] += time.perf_counter() - start
        return best

    def _full_pick(self, game, side: str) -> int:
        """Every option searched, the root's by UCB, each iteration a fresh deal."""
        pending = game.s["pending"]
        root = self._reused_root(game, side)
        for _ in range(self.iterations):
            self.iterate(game, side, root)
        return self._chosen(root, pending["by"], pending["options"], range(len(pending["options"])))

    def _screened_pick(self, game, side: str, start: float) -> int:
        """The heuristic player's answer where its look-ahead tells the
        options clearly apart; else a search of its few best options, in
        rounds: one deal a round, every option played from it with the same
        dice and the same state of the playout policy, so the options are
        compared on the same luck."""
        opens = self._opens_action(game)  # (asked at every decision: it counts them)
        choice, candidates = self.screen.contested(game, side, self.width, self.margin)
        if len(candidates) < 2 or not opens:
            self._kept = None
            return choice
        self._round = (side, game.s["pending"]["choice"])
        pending = game.s["pending"]
        root = self._reused_root(game, side)
        rounds = max(1, -(-self.iterations // len(candidates)))
        scores = {option: [] for option in candidates}  # each option's playout score, round by round
        looks = 0
        while True:
            for _ in range(rounds):
                self._play_round(game, side, root, candidates, scores)
            looks += 1
            best, candidates = self._lead(choice, candidates, scores, self.confidence)
            if best != choice or len(candidates) < 2 or looks > EXTRA:
                break
            self.stats["extended"] += 1
        self.stats["searched"] += 1
        self.stats["overridden"] += best != choice
        self.stats["search_seconds"] += time.perf_counter() - start
        return self._keep(root, pending["by"], pending["options"], best)

    def _play_round(self, game, side: str, root: Node, candidates: list[int], scores: dict) -> None:
        """One deal from SIDE's view, every candidate played from it with the
        same dice and the same state of the playout policy; each one's score
        (what its playout added at the root) noted in SCORES."""
        # the deal inherits the values the game remembers, and every option of
        # the round is played from it: what they share is worked out once
        # (Game.mark/restore keep what was learnt)
        self.state, dealt = determinize(game, side, self.state, remember=True)
        dealt.log_enabled = False
        dealt_mark, policy_mark = dealt.mark(), self._policy_mark()
        by, options = game.s["pending"]["by"], game.s["pending"]["options"]
        for k, option in enumerate(candidates):
            if k:
                dealt.restore(dealt_mark)
                self._policy_restore(policy_mark)
            key = (by, options[option])
            before = root.children[key].total if key in root.children else 0.0
            self.iterate(game, side, root, dealt=dealt, first=option)
            scores[option].append(root.children[key].total - before)

    @staticmethod
    def _lead(choice: int, candidates: list[int], scores: dict, confidence: float) -> tuple[int, list[int]]:
        """(the option to take so far, the candidates still worth more
        rounds).  A rival replaces CHOICE, the heuristic player's answer,
        when its lead over CHOICE, round by round on the same deals, is
        more than CONFIDENCE standard errors above nothing (the best such
        lead; ties: the first in CANDIDATES' order).  With CONFIDENCE 0 any
        lead will do; above 0 a mean better by noise alone does not override
        the look-ahead, rivals that trail are dropped, and those ahead but
        not yet clearly are kept for more rounds."""
        best, best_bound, ahead = choice, 0.0, []
        for rival in candidates[1:]:
            lead = [mine - its for mine, its in zip(scores[rival], scores[choice])]
            mean = sum(lead) / len(lead)
            if mean <= 0:
                continue
            ahead.append(rival)
            if confidence:
                if len(lead) < 2:
                    continue
                mean -= confidence * math.sqrt(sum((x - mean) ** 2 for x in lead) / (len(lead) - 1) / len(lead))
            if mean > best_bound:
                best, best_bound = rival, mean
        return best, [choice] + (ahead if confidence else [])

    def _opens_action(self, game) -> bool:
        """Whether this decision opens the side's action: its first since
        another side decided, at the outermost level of the sequence of play
        the agent has met (the fewest procedures running: which card to
        play and how, not a step inside an operation or a combat).  Only
        these are searched: they are few and weigh most."""
        depth = len(game.s["stack"])
        if self._shallowest is None or depth < self._shallowest:
            self._shallowest = depth
        follows_own = self._answered_at is not None and game.s["decisions"] == self._answered_at + 1
        self._answered_at = game.s["decisions"]
        return not follows_own and depth <= self._shallowest

    def _policy_mark(self):
        """What a playout changes in the heuristic playout policy (its
        generator, its memory of dull choices), to play every option of a
        round with the same; None for another policy."""
        player = getattr(self.policy, "player", None)
        if player is None or not hasattr(player, "dull"):
            return None
        return player.state, dict(player.dull)

    def _policy_restore(self, mark) -> None:
        if mark is not None:
            player = self.policy.player
            player.state, player.dull = mark[0], dict(mark[1])

    def _chosen(self, root: Node, by: str, options: list[str], among) -> int:
        """The option of AMONG tried most often (ties: the better mean, then
        the first in AMONG's order), its subtree kept for the next decision."""
        among = list(among)
        order = {i: k for k, i in enumerate(among)}
        best = max(among, key=lambda i: self._rank(root, by, options, i) + (-order[i],))
        return self._keep(root, by, options, best)

    def _keep(self, root: Node, by: str, options: list[str], best: int) -> int:
        """BEST, its subtree kept for the next decision (when that is ours at once)."""
        chosen = root.children.get((by, options[best]))
        side, decision = self._at
        self._kept = (side, decision + 1, chosen) if chosen is not None else None
        self.root = root
        self.stats["iterations"] += sum(c.visits for c in root.children.values()) - self._visits_before
        return best

    @staticmethod
    def _rank(root: Node, by: str, options: list[str], i: int) -> tuple:
        child = root.children.get((by, options[i]))
        if child is None:
            return (0, 0.0)
        return (child.visits, child.mean())

    def _reused_root(self, game, side: str) -> Node:
        """The subtree under our last choice when this decision is the very
        next one, ours again; else a new tree.  (The decision count is in
        every side's view: no hidden part is read.)"""
        kept, self._kept = self._kept, None
        self._at = (side, game.s["decisions"])
        root = Node()
        if kept is not None and kept[0] == side and kept[1] == game.s["decisions"]:
            self.stats["kept"] += 1
            root = kept[2]
        self._visits_before = sum(c.visits for c in root.children.values())
        return root

    # ------------------------------------------------------------ one iteration
    def iterate(self, game, side: str, root: Node, dealt=None, first: int | None = None) -> None:
        """One determinization (DEALT, when the caller dealt it), descent (by
        option FIRST at the root, when given), expansion, playout and backup."""
        if dealt is None:
            self.state, dealt = determinize(game, side, self.state)
            dealt.log_enabled = False
        other = dealt
        path: list[tuple[str, Node]] = []  # (who chose, the node chosen) from the root down
        node = root
        try:
            while other.s["result"] is None and other.s["pending"] is not None:
                if first is not None:
                    by, option, child = self._forced(other, node, first)
                    first = None
                else:
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

    @staticmethod
    def _forced(game, node: Node, option: int) -> tuple[str, int, Node | None]:
        """OPTION at the root, its node (None: new) counted as available."""
        pending = game.s["pending"]
        child = node.children.get((pending["by"], pending["options"][option]))
        if child is not None:
            child.available += 1
        return pending["by"], option, child

    def _select(self, game, node: Node) -> tuple[str, int, Node | None]:
        """(who chooses, the option to take, its node or None to expand it) at
        GAME's pending decision: an untried legal option if there is one (under
        a screened search only while the node has fewer than 1 + WIDEN ×
        √visits children legal here: the policy's own option first, then
        others at random), else the legal option with the best
        availability-counted UCB."""
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
        if untried and (self.screen is None or len(tried) < 1 + WIDEN * math.sqrt(node.visits)):
            if not tried and self.screen is not None and self.policy is not None:
                return by, self.policy.pick(game, str(by)), None
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
        side, choice = self._round if self._round is not None else (None, None)
        answered = False  # another side has made the searched decision's choice since
        for _ in range(self.horizon):
            if d is None:
                return
            if d.choice == choice:
                if str(d.by) != side:
                    answered = True
                elif answered:
                    return  # the side is back at the same choice, the other side's turn at it played
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
    """The agent of spec `ismcts:N`, `ismcts:N:H`, `ismcts:N:H:Z` or
    `ismcts:N:H:Z:F` (ARG is "N", "N:H", "N:H:Z" or "N:H:Z:F"; an empty
    number takes its default: `ismcts:16:::2`)."""
    from ..numbers import NumberError, parse_whole

    usage = ("ismcts:N[:H[:Z[:F]]] (N iterations a decision, H decisions a playout, Z standard errors a searched "
             "option must lead greedy's choice by, F decisions greedy plays on after each option it looks at)")
    numbers = arg.split(":")
    if len(numbers) > 4:
        raise ValueError(f"{usage} takes at most four numbers, not 'ismcts:{arg}'")
    try:
        iterations = parse_whole(numbers[0])
        horizon_n, confidence, follow = (parse_whole(n) if n else default
                                         for n, default in zip(numbers[1:] + ["", "", ""],
                                                               (SPEC_HORIZON, CONFIDENCE, FOLLOW)))
    except NumberError as err:
        raise ValueError(f"{usage} needs whole numbers: {err}") from None
    if iterations < 1:
        raise ValueError("ismcts:N needs at least 1 iteration")
    if not 0 <= confidence <= MAX_CONFIDENCE:
        raise ValueError(f"ismcts:N:H:Z takes Z from 0 to {MAX_CONFIDENCE} standard errors, not {confidence}")
    if not 0 <= follow <= MAX_FOLLOW:
        raise ValueError(f"ismcts:N:H:Z:F takes F from 0 to {MAX_FOLLOW} decisions played on, not {follow}")
    return IsmctsAgent(iterations, seed, horizon_n, policy=playout_policy(seed, follow),
                       screen=Screen(derive_seed(seed, "screen"), follow), confidence=confidence)
