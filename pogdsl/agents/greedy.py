"""A heuristic player: at each decision it takes the option whose immediate
outcome its side's declared evaluation (agents/evaluation.py) judges best.

It knows nothing of any game beyond what the sources declare: the legal
options, each choice's `weight` and the scenario's `term`s.  At a decision
with more than one option (`greedy`, or `greedy:K` to look at K options):

1. it orders the options by the choice's `weight` (the designer's sense of
   what is usually worth doing; equal weights in an order drawn from its own
   generator) and keeps the first K (default 4): the rest are pruned without
   a look;
2. it draws one game consistent with what its side may see
   (runtime/hidden.determinize: the other side's hand, every deck order and
   the dice drawn afresh from its own generator, never read);
3. for each kept option it takes the option in a copy of that game and lets
   the game run on to the next real decision, whoever makes it: the dice,
   draws and decisions with a single option on the way are played (the same
   dice for every option, so options are compared on the same luck), and
   scores the result — except at a decision that opens its action (its
   first since another side decided: which card to play and how, an
   answer to the other side), where it plays on through its own next F
   decisions (default 6, `greedy:K:F`), drawn at random by the choices'
   weights with the same draws for every option, or until another side
   must decide: what a card sets going (the operations it pays for, the
   attacks its event opens) shows in the score, not only its first step;
4. it takes the best; equal scores go to the heavier option.  Options whose
   look-ahead cannot change the evaluation (the first step of an operation,
   say) all score alike, and the weight decides among them.

Then it checks the best options against the replies they invite: an option
that leads straight to a decision of another side with few options (an
offer of peace, a choice of losses) is worth the *worst* of those replies
for it, and the next option is looked into in turn while its own score
could still beat the best found so far.  An option that ends the game with
no winner (peace accepted) is never taken while its side's score is above
one half: it never accepts a peace it is winning.

A choice whose last DULL_AFTER look-aheads told its options apart by
nothing is answered by weight alone for its next SKIPS decisions, then
looked at again: most of a game's decisions are such first steps.

Its generator is seeded like a random player's (from the game's seed and its
side), so a game is the same game every time, whether played by `play` or by
`simulate`.

`GreedyAgent.pick(game, side)` answers a bare Game (no Session): a search
player can use it as its playout policy (`in_place=True` on a playout game
of its own, already drawn from the side's view, saves the determinization).
"""

from __future__ import annotations

import time

from attrs import define, field

from ..runtime import rng
from ..runtime.errors import DecisionBudgetExceeded, GameError
from ..runtime.hidden import determinize
from .base import LookAhead, Sampler
from .evaluation import score, term_values

DEFAULT_WIDTH = 4  # options looked at a decision (the heaviest)
REPLY_WIDTH = 4  # an answer of the other side with at most this many options is looked into
FOLLOW = 6  # at a side's first decision of its action: its own decisions played on after an option
MAX_FOLLOW = 100  # greedy:K:F (and ismcts's F): at most this many played on (a hundred is most of a turn)
DULL_AFTER = 3  # look-aheads in a row that told a choice's options apart by nothing: stop looking …
SKIPS = 8  # … for this many of its decisions, then look again


_DEAD_END = object()  # an option the rules could not play on


def _stoppers_for(game) -> dict:
    """Samplers for every side, there only to stop the game at the next real
    decision without listing its options (the stop comes before any pick)."""
    return {s.key: Sampler(0) for s in game.w.sides}


@define
class Judgement:
    """Why the player took an option: the option, its score and the next
    best's, and the terms of the evaluation that changed most between the
    two positions (term, change in its weighted value for the side)."""

    option: int
    score: float
    runner_up: int | None = None
    runner_up_score: float | None = None
    looked_at: int = 0
    terms: list = field(factory=list)


class GreedyAgent(LookAhead):
    def __init__(self, seed: int = 0, width: int = DEFAULT_WIDTH, follow: int = FOLLOW):
        if width < 1:
            raise ValueError("greedy:K needs at least 1 option to look at")
        if not 0 <= follow <= MAX_FOLLOW:
            # (more would play most of the game on for every option it looks
            # at: a player that seems to hang)
            raise ValueError(f"greedy:K:F takes F from 0 to {MAX_FOLLOW} decisions played on, not {follow}")
        self.seed = seed
        self.width = width
        self.follow = follow
        # the game's decision count when it last answered: a decision right
        # after its own is a later step of the same action (see _opens_action)
        self._answered_at: int | None = None
        self._follow_seed: int | None = None  # this decision's seed for the played-on steps
        self.state = rng.seed_state(seed)
        self.label = "greedy" + (f":{width}" if width != DEFAULT_WIDTH or follow != FOLLOW else "")
        self.label += f":{follow}" if follow != FOLLOW else ""
        # decisions it judged, options it looked at, seconds spent: its speed
        self.stats: dict[str, float] = {"decisions": 0, "lookaheads": 0, "seconds": 0.0}
        # choice → (look-aheads in a row that told its options apart by
        # nothing, decisions taken since without one): see _skip
        self.dull: dict[str, tuple[int, int]] = {}
        self.explain = False  # keep a Judgement of each decision (`last`), for a person watching
        self.last: Judgement | None = None
        self._dirty = False  # the copy being looked at is not at the decision (see _clean)

    # ------------------------------------------------------------ choosing
    def pick(self, game, side: str, in_place: bool = False) -> int:
        """The 0-based index of the option to take at GAME's pending decision
        for SIDE (a bare Game will do).

        `in_place`: GAME is already a game the side may look into (a search
        player's playout, drawn from the side's view) and the caller's own:
        the options are tried on it instead of on a fresh determinization,
        and it is put back at its decision before this returns (its state
        is then a new object: hold the Game, not its state)."""
        start = time.perf_counter()
        pending = game.s["pending"]
        n = len(pending["options"])
        if n <= 1:
            return 0
        candidates = self._candidates(n, pending.get("weights"))
        choice_name = pending["choice"]
        self._follow_seed = None
        opens = not in_place and self._opens_action(game)
        if opens:
            self.state, self._follow_seed = rng.next32(self.state)
        self._answered_at = game.s["decisions"]
        # a decision that opens an action is few and weighty: never answered unlooked
        if not opens and self._skip(choice_name):
            self.stats["decisions"] += 1
            self.stats["seconds"] += time.perf_counter() - start
            self.last = Judgement(candidates[0], -1.0) if self.explain else None
            return candidates[0]
        if in_place:
            base = game
            kept = (base.log_enabled, base.samplers, base.max_decisions)
            base.samplers = base.max_decisions = None
        else:
            self.state, base = determinize(game, side, self.state)
        base.log_enabled = False
        try:
            choice = self._judge(base, side, candidates, choice_name, keep=in_place)
        finally:
            if in_place:
                base.log_enabled, base.samplers, base.max_decisions = kept
        self.stats["decisions"] += 1
        self.stats["lookaheads"] += len(candidates)
        self.stats["seconds"] += time.perf_counter() - start
        return choice

    def _judge(self, base, side: str, candidates: list[int], choice_name: str, keep: bool) -> int:
        """The option of CANDIDATES to take, each tried on BASE (put back at
        its decision afterwards when KEEP)."""
        # Every option is tried on this one copy and the copy put back after
        # each (Game.mark/restore), so what the options share — the
        # position's supply, say — is worked out once.
        start_mark = base.mark()
        scored = []
        for k, i in enumerate(candidates):
            if k:
                base.restore(start_mark)
            value, draw, by = self._try(base, side, i)
            scored.append((value, i, draw, by))
        self._dirty = True  # put back only if needed again (_clean)
        self._note(choice_name, scored)
        # best first; equal scores keep the weight order (a stable sort)
        scored.sort(key=lambda t: -t[0])
        choice = self._checked(base, side, scored, start_mark)
        if self.explain:
            self.last = self._judgement(base, side, scored, choice, start_mark)
        if keep:
            self._clean(base, start_mark)
        return choice

    def _skip(self, choice: str) -> bool:
        """Whether to take the heaviest option of CHOICE without a look: its
        last look-aheads told its options apart by nothing (the first step
        of an operation, say, changes nothing the evaluation reads).  One
        decision in SKIPS is looked at again, in case that has changed."""
        dull, skipped = self.dull.get(choice, (0, 0))
        if dull < DULL_AFTER or skipped >= SKIPS:
            return False
        self.dull[choice] = (dull, skipped + 1)
        return True

    def _opens_action(self, game) -> bool:
        """Whether this decision is the side's first since another side
        decided (the choice of its action, an answer to the other side's):
        its options are then played on through the side's next FOLLOW
        decisions, so what an option sets going (the operations a card pays
        for, the attacks an event opens) is judged, not only its first step."""
        return self.follow > 0 and (self._answered_at is None or game.s["decisions"] != self._answered_at + 1)

    def _note(self, choice: str, scored: list) -> None:
        values = {v for v, _, d, _ in scored if d is not None}
        dull, _ = self.dull.get(choice, (0, 0))
        self.dull[choice] = (dull + 1, 0) if len(values) <= 1 else (0, 0)

    def _candidates(self, n: int, weights) -> list[int]:
        """The options looked at: the heaviest K, equal weights in a random order."""
        order = list(range(n))
        for i in range(n - 1, 0, -1):
            self.state, j = rng.below(self.state, i + 1)
            order[i], order[j] = order[j], order[i]
        if weights:
            order.sort(key=lambda i: -weights[i])
        return order[:self.width]

    def _run_on(self, game, option: int, side: str | None = None):
        """Take OPTION in GAME and run on to the next real decision, not
        listed: whoever must decide next, the game stops there.  Who that
        is (a side's key; None when the game is over), or _DEAD_END when
        the rules could not go on.

        With SIDE at a decision that opens its action (_follow_seed set),
        SIDE's own next decisions are played on instead, at random by the
        choices' weights (the same draws for every option), up to FOLLOW
        of them or until another side must decide (listed: the stop)."""
        if side is not None and self._follow_seed is not None:
            game.samplers = {side: Sampler(rng.seed_state(self._follow_seed))}
            game.max_decisions = game.s["decisions"] + 1 + self.follow
        else:
            game.samplers = _stoppers_for(game)
            game.max_decisions = game.s["decisions"] + 1
        try:
            game.choose(option + 1)
        except DecisionBudgetExceeded as stop:
            return stop.by
        except GameError:
            return _DEAD_END
        finally:
            game.samplers = None
            game.max_decisions = None
        pending = game.s["pending"]
        return pending["by"] if pending is not None else None

    def _try(self, base, side: str, option: int, follow: bool = True) -> tuple[float, object, object]:
        """(score for SIDE after OPTION, whether the game ended with no
        winner, who decides next); a dead end scores below everything."""
        by = self._run_on(base, option, side if follow else None)
        if by is _DEAD_END:
            return -1.0, None, None
        draw = base.over and base.s["result"]["winner"] is None
        return score(base, side), draw, by

    def _checked(self, base, side: str, scored: list, start_mark) -> int:
        """The best option once the replies the options invite are looked
        into (see the module's note), and never a draw while the side is
        ahead.  SCORED is best first; an option leading to another side's
        decision is worth its worst reply, looked into only while it could
        still beat the best found (a reply can only lower it)."""
        ahead = None
        best, best_value = None, None
        for k, (value, option, draw, by) in enumerate(scored):
            if draw is None:
                continue
            if best_value is not None and value <= best_value:
                break
            if draw:
                if ahead is None:
                    self._clean(base, start_mark)
                    ahead = score(base, side) > 0.5
                if ahead:
                    continue
            if by is not None and by != side:
                worst = self._worst_reply(base, side, option, start_mark)
                if worst is not None:
                    value = worst
                    scored[k] = (worst, option, draw, by)
            if best_value is None or value > best_value:
                best, best_value = option, value
        return best if best is not None else scored[0][1]

    def _clean(self, base, start_mark) -> None:
        """BASE put back at the decision, if an option was tried on it since."""
        if self._dirty:
            base.restore(start_mark)
            self._dirty = False

    def _worst_reply(self, base, side: str, option: int, start_mark) -> float | None:
        """The score for SIDE of the worst answer another side can give when
        OPTION leads straight to its decision with few options; None when it
        does not."""
        self._clean(base, start_mark)
        try:
            d = base.choose(option + 1)  # listed this time: the answers are wanted
        except GameError:
            base.restore(start_mark)
            return None
        if d is None or str(d.by) == side or len(d.options) > REPLY_WIDTH:
            base.restore(start_mark)
            return None
        reply_mark = base.mark()
        worst = None
        for r in range(len(d.options)):
            value, _, _ = self._try(base, side, r, follow=False)
            base.restore(reply_mark)
            if value >= 0:
                worst = value if worst is None else min(worst, value)
        base.restore(start_mark)
        return worst

    # ------------------------------------------------------------ explaining
    def _judgement(self, base, side: str, scored: list, choice: int, start_mark) -> Judgement:
        by_option = {i: v for v, i, _, _ in scored}
        judgement = Judgement(choice, by_option[choice], looked_at=len(scored))
        rivals = [(v, i) for v, i, d, _ in scored if i != choice and d is not None]
        if not rivals:
            return judgement
        runner_score, runner = max(rivals)
        judgement.runner_up, judgement.runner_up_score = runner, runner_score
        weighted = []
        self._clean(base, start_mark)
        for option in (choice, runner):
            played = self._run_on(base, option, side) is not _DEAD_END and not base.over
            try:
                weighted.append({name: weight * v for name, weight, v in term_values(base, side)}
                                if played else None)
            except GameError:
                weighted.append(None)
            base.restore(start_mark)
        mine, theirs = weighted
        if mine is None or theirs is None:
            return judgement
        changes = [(name, mine[name] - theirs[name]) for name in mine if mine[name] != theirs[name]]
        changes.sort(key=lambda t: -abs(t[1]))
        judgement.terms = changes[:3]
        return judgement


def parse_spec(arg: str, seed: int) -> GreedyAgent:
    """The agent of spec `greedy` (ARG ""), `greedy:K` (ARG "K": K options
    looked at a decision) or `greedy:K:F` (ARG "K:F": and F of its own
    decisions played on after each option of a decision that opens its
    action; 0 looks only at the next decision)."""
    if not arg:
        return GreedyAgent(seed)
    from ..numbers import NumberError, parse_whole

    width_text, _, follow_text = arg.partition(":")
    try:
        width = parse_whole(width_text)
    except NumberError as err:
        raise ValueError(f"greedy:K needs a whole number (K options looked at a decision): {err}") from None
    follow = FOLLOW
    if follow_text:
        try:
            follow = parse_whole(follow_text)
        except NumberError as err:
            raise ValueError(f"greedy:K:F needs a whole number (F decisions played on after an option): {err}") from None
    return GreedyAgent(seed, width, follow)
