"""The generic turn-sequence interpreter.

It runs a world's code until a player must choose, then stops and offers the
legal options; an answer resumes it.  Everything it knows lives in
``game.s``, plain data: the board, piles of cards, state variables, the dice
generator, and the stack of frames (``{"code", "pc", "l"}``) that says where
it stands inside the sequence of play and its procedures.  The bottom frame is
the driver, which runs the scenario's set-up, then turns, then phases.

Nothing here knows a rule of any game: phases, procedures, choices, dice,
decks, tracks, spaces, units and effects only.
"""

from __future__ import annotations

import hashlib
import json
from bisect import bisect_right
from operator import itemgetter

from attrs import define, field

from ..numbers import MAX_DIGITS, is_digits, shown
from . import builtins as B
from . import rng, sampling
from .compile import ChoiceSpec
from .deps import entity_area
from .errors import (
    DeadEnd,
    DecisionBudgetExceeded,
    GameError,
    IllegalOption,
    LimitExceeded,
    StepBudgetExceeded,
)
from .limits import DEFAULTS
from .values import Entity, copy_data, decode, encode, text_of

STATE_FORMAT = "pogdsl-state/1"
CHANGES_KEPT = 4096  # entries of Game.changed kept (older ones are dropped half at a time)
_revision = itemgetter(0)
DRIVER = "driver"
TAKEN = object()  # what an offer returns when a random player took the decision at once (see offer_sampled)
ASKED = object()  # what an offer returns when it left a decision pending (the caller reads it: Game.decision)


@define
class Decision:
    """What the interpreter asks: who chooses, among which options, and why."""

    by: str
    choice: str
    options: list[str]
    rules: list[str]
    prompt: str | None = None
    where: str | None = None
    weights: list[int] | None = None  # how a random player should favour the options

    def to_json(self) -> dict:
        return {"by": self.by, "choice": self.choice, "options": self.options, "rules": self.rules,
                "prompt": self.prompt, "where": self.where, "weights": self.weights}


@define
class Outcome:
    winner: str | None
    reason: str
    rules: list[str] = field(factory=list)
    # The kind of result the scenario declares (`result NAME`) when the game
    # ended `as` one; None for a plain win or draw.
    result: str | None = None

    @property
    def kind(self) -> str:
        """How simulate counts it: the declared result, else the winner, else draw."""
        return self.result or self.winner or "draw"

    def text(self) -> str:
        """As the CLI says it: `cp wins`, `a draw`, `both_lose`, `cp wins (decisive)`."""
        if self.result is None:
            return f"{self.winner} wins" if self.winner else "a draw"
        return f"{self.winner} wins ({self.result})" if self.winner else self.result


class Game:
    """One game of a world.  `step_budget` bounds the steps run between two
    decisions, so a runaway loop in the sources stops with a clear error;
    by default it is the scenario's `steps` limit, and the other limits
    (limits.py) are the scenario's too."""

    # While every option of a decision is listed (offer): the values asked
    # then are not judged worth remembering before they were worked out at a
    # few revisions (builtins.REVIEW_REVISIONS), and a value no longer
    # remembered keeps its result in its callers' record (builtins.worked_out).
    # A class attribute until a listing sets it: one more attribute set in
    # __init__ cost simulate's games 2% more instructions (bench_instructions,
    # Historical, the same work done: presumably the game's attributes no
    # longer fitting CPython's shared keys).
    listing = False
    # When set (by `pogdsl fit-evaluation`), called with the game at the end
    # of each turn, where vp_by_turn is appended to.  (A class attribute
    # until set, as `listing`: one more instance attribute slows every game.)
    at_turn_end = None

    def __init__(self, world, state: dict, *, log: bool = True, step_budget: int | None = None,
                 ask_forced: bool = False, max_decisions: int | None = None):
        self.w = world
        self.s = state
        self.log_enabled = log
        limits = getattr(world, "limits", None) or DEFAULTS
        self.step_budget = step_budget if step_budget is not None else limits["steps"]
        # The bounds on work that is not steps, read where the work is done:
        # a list built, a choice's candidates, a frame pushed.
        self.max_list = limits["list_size"]
        self.max_candidates = limits["candidates"]
        self.max_depth = limits["depth"]
        self.max_work = limits["work"]
        self.work_left = self.max_work  # counted down by builtins.iterate, afresh at each decision
        self.ask_forced = ask_forced
        self._trace: list | None = None
        # How many times each card's event was played by this Game object (card
        # key → count), for `pogdsl simulate`: not part of the state, so an
        # undo does not take a play back.
        self.events_played: dict[str, int] = {}
        # When a list (set by `pogdsl simulate`), the value of the state var
        # "vp" (None if there is none) is appended at the end of each turn.
        self.vp_by_turn: list | None = None
        # Values are pure functions of the state: while options are listed the
        # state does not change, so each value is computed once per offer.
        self.memo: dict | None = None
        # Values computed earlier, reused while nothing they read has changed
        # (see builtins.value_of and deps.py): a revision counter, the revision
        # each area of the state was last written at, the remembered results,
        # and the remembered values called by the one being worked out.
        self.clock = 0
        self.ver: dict[str, int] = {}
        self.vcache: dict = {}
        self.calls: list | None = None
        # Which entities' own areas changed, by whole area, in order:
        # area → [(revision, entity or None for the whole area)], complete for
        # every revision after `changed_since` (space filters read the areas
        # they depend on, not every change).
        self.changed: dict[str, list[tuple]] = {}
        self.changes_kept = 0
        self.changed_since = 0
        self._cache_values = True
        self.history: list[dict] = []
        self.keep_history = False
        self._segment: str | None = None
        # Random players that answer their side's decisions inside run(), by
        # side key: objects with a PCG32 `state` (see _offer_sampled).
        self.samplers: dict | None = None
        # Past this many decisions the game stops with DecisionBudgetExceeded
        # (each decision starts a new step budget, so only this ends a game
        # that asks decision after decision forever): the scenario's
        # `decisions` limit unless given; None, no bound.
        self.max_decisions: int | None = max_decisions if max_decisions is not None else limits["decisions"]
        # Whether a listed decision carries its options' weights (how a random
        # player favours them): a caller that never draws from the list by
        # them (pogdsl.env, whose learner picks) is spared working them out.
        self.list_weights = True
        # Set when a step pushes or pops a frame, asks a decision or ends the
        # game: run() then looks again at where play stands (most steps do
        # none of these, and run() goes on to the next step at once).  A
        # list of one flag, which run() holds and reads after every step
        # without an attribute lookup (a type and instance lookup each, in
        # the compiled loop).
        self.moved = [False]

    # A trace shows every modifier as it applies, and values remembered earlier
    # would not show theirs: switching either setting forgets them.
    @property
    def trace(self) -> list | None:
        return self._trace

    @trace.setter
    def trace(self, value: list | None) -> None:
        self._trace = value
        self.invalidate()

    @property
    def cache_values(self) -> bool:
        return self._cache_values

    @cache_values.setter
    def cache_values(self, value: bool) -> None:
        self._cache_values = value
        self.invalidate()

    # ================================================================ creation
    @classmethod
    def new(cls, world, seed: int = 0, *, dice: list[int] | None = None, **options) -> "Game":
        game = cls(world, new_state(world, seed, dice or []), **options)
        return game

    # ================================================================ running
    @property
    def over(self) -> bool:
        return self.s["result"] is not None

    @property
    def outcome(self) -> Outcome | None:
        r = self.s["result"]
        return Outcome(r["winner"], r["reason"], r["rules"], r.get("result")) if r else None

    def run(self) -> Decision | None:
        """Run until the next decision (returned) or the end of the game (None)."""
        s = self.s
        codes = self.w.codes
        stack = s["stack"]
        budget = self.step_budget
        steps = 0
        self.work_left = self.max_work
        moved = self.moved
        while True:
            if s["result"] is not None:
                return None
            if s["pending"] is not None:
                return self.decision()
            if not stack:
                self.end_game(None, "nothing left to run", ())
                return None
            frame = stack[-1]
            if frame["code"] == DRIVER:
                self._drive(frame)
                continue
            code = codes[frame["code"]]
            runs = code.runs  # (the step itself is read only to report an error)
            # The steps of one frame in a row, until one calls, returns, asks
            # or ends the game (each of those sets `moved`).
            moved[0] = False
            while True:
                pc = frame["pc"]
                run = runs[pc]
                frame["pc"] = pc + 1
                steps += 1
                if steps > budget:
                    step = code.steps[pc]
                    raise StepBudgetExceeded(f"more than {budget} steps without a decision: a loop that never ends?",
                                             step.span, step.cites)
                try:
                    if run(self, frame) is TAKEN:
                        steps = 0  # the budget counts steps between two decisions, and so does work
                        self.work_left = self.max_work
                except GameError as err:
                    if err.span is None:
                        step = code.steps[pc]
                        err.span = step.span
                        err.cites = err.cites or step.cites
                    raise
                except RecursionError:
                    # values worked out inside one another, deeper than Python goes
                    step = code.steps[pc]
                    raise LimitExceeded("values worked out inside one another too deeply (hundreds of values, "
                                        "each calling the next)", step.span, step.cites, "value_depth") from None
                if not moved[0]:
                    continue
                break
        # unreachable

    def _drive(self, frame: dict) -> None:
        s, w = self.s, self.w
        stage = frame["pc"]
        l = frame["l"]
        if stage == 0:
            frame["pc"] = 1
            for key in reversed(w.setup):
                self.push_code(key, [])
        elif stage == 1:
            frame["pc"] = 2
            s["turn"] = w.first_turn
            self.touch("turn")
            l["phase"] = 0
            self.emit("game_started", ())
            self.emit("turn_started", (s["turn"],))
        elif stage == 2:
            if l["phase"] < len(w.sequence):
                name = w.sequence[l["phase"]]
                s["phase"] = name
                frame["pc"] = 3
                self.push_code(f"phase:{name}", [])
                self.emit("phase_started", (w.names[name],))
            elif s["turn"] < w.last_turn:
                if self.vp_by_turn is not None:
                    self.vp_by_turn.append(s["vars"].get("vp"))
                if self.at_turn_end is not None:
                    self.at_turn_end(self)
                s["turn"] += 1
                self.touch("turn")
                l["phase"] = 0
                self.emit("turn_started", (s["turn"],))
            else:
                if self.vp_by_turn is not None:
                    self.vp_by_turn.append(s["vars"].get("vp"))
                if self.at_turn_end is not None:
                    self.at_turn_end(self)
                frame["pc"] = 4
                s["phase"] = None
                self.emit("turns_ended", ())
        elif stage == 3:
            name = w.sequence[l["phase"]]
            l["phase"] += 1
            frame["pc"] = 2
            self.emit("phase_ended", (w.names[name],))
        else:
            if s["result"] is None:
                self.end_game(None, "the last turn ended with no winner declared",
                              [c.number for c in (w.scenario.turns_cites or w.scenario.cites)])  # the turns are over

    def touch(self, area: str) -> None:
        """Note that part of the state changed, so cached values reading it
        expire (an area no remembered value reads expires nothing: the clock
        stays, and results checked at it need no check again)."""
        if area not in self.w.read_areas:
            return
        self.clock += 1
        self.ver[area] = self.clock
        self._note_change(area, None)  # the whole area: no entity says which part

    def touch_entity(self, whole: str, entity, *more) -> None:
        """Note that an entity's own state changed (and so its whole area):
        `board` for a unit's place or strength, a space's control, units or
        fort; `var:NAME` for one entry of a state variable kept per entity."""
        if whole not in self.w.read_areas:
            return
        self.clock += 1
        clock = self.clock
        ver = self.ver
        ver[whole] = clock
        for e in (entity,) + more:
            area = entity_area(self.w, whole, e)
            if area is not None:
                ver[area] = clock
                self._note_change(whole, e)

    def _note_change(self, whole: str, entity) -> None:
        try:
            self.changed[whole].append((self.clock, entity))
        except KeyError:
            self.changed[whole] = [(self.clock, entity)]
        self.changes_kept += 1
        if self.changes_kept > CHANGES_KEPT:
            self._forget_changes()

    def _forget_changes(self) -> None:
        """Drop the older half of the record of changes (by revision); results
        checked before what is left are then worked out in full."""
        cutoff = (self.changed_since + self.clock) // 2
        kept = 0
        for log in self.changed.values():
            del log[:bisect_right(log, cutoff, key=_revision)]
            kept += len(log)
        self.changed_since = cutoff  # every change after it is still recorded
        self.changes_kept = kept

    def touch_location(self, loc) -> None:
        if loc is not None and loc >= 0:
            self.ver[f"loc:{loc}"] = self.clock
            if loc < len(self.w.spaces):
                self._note_change("board", self.w.spaces[loc])

    def mark(self) -> tuple:
        """A point to come back to with `restore`: a copy of the state and
        the revision the remembered values were at."""
        return copy_state(self.s), self.clock

    def restore(self, mark: tuple) -> None:
        """Put the state back as it was at MARK (which stays usable), keeping
        the values remembered since: each area written after the mark is
        noted as written again now (it holds its old content again), so the
        results that read one expire and every other result stays good.  A
        player that tries several options from one position pays once for
        what they share."""
        state, clock = mark
        self.s = copy_state(state)
        written = [area for area, revision in self.ver.items() if revision > clock]
        if not written:
            return
        self.clock += 1
        now = self.clock
        ver = self.ver
        for area in written:
            ver[area] = now
        if self.changed_since > clock:
            # The record of changes has dropped some made after the mark: which
            # entities they touched is no longer known, so every result kept
            # by entity (a space filter) is worked out in full at its next use.
            self.changed_since = now
            return
        for whole, log in list(self.changed.items()):
            for _, entity in log[bisect_right(log, clock, key=_revision):]:
                self._note_change(whole, entity)

    def invalidate(self) -> None:
        """Forget every cached value (after the state was changed from outside)."""
        self.vcache.clear()
        self.ver.clear()
        self.clock = 0
        self.changed = {}
        self.changes_kept = 0
        self.changed_since = 0

    # ================================================================ frames
    def push_code(self, key: str, args) -> None:
        self.push_frame(key, dict(zip(self.w.codes[key].params, args)))

    def push_frame(self, key: str, l: dict) -> None:
        """Start running code `key` with these locals (the one place a frame
        is made: run() is told to look at the new top of the stack)."""
        stack = self.s["stack"]
        if len(stack) > self.max_depth:
            raise LimitExceeded(f"more than {self.max_depth} procedures, triggers and events running inside one "
                                "another: a procedure that calls itself without an end?", limit="depth")
        stack.append({"code": key, "pc": 0, "l": l})
        self.moved[0] = True

    def pop_frame(self) -> None:
        self.s["stack"].pop()
        self.moved[0] = True

    def enter_segment(self, name: str, cites) -> None:
        self._segment = name
        if self._trace is not None:
            self._trace.append(("segment", name, list(cites)))

    # ================================================================ decisions
    def offer(self, spec: ChoiceSpec, frame: dict):
        """The choice SPEC at FRAME: its legal options listed and the
        decision left pending (ASKED), or the decision taken at once (None:
        a single legal option, or a hostile side's; TAKEN: a random player
        answering inside run())."""
        l = frame["l"]
        side = spec.by(self, l)
        if isinstance(side, Entity) and side.kind == "side" and side.data.hostile:
            return self._take_default(spec, frame, side)
        if self.samplers is not None and self._trace is None and not self.keep_history:
            sampler = self.samplers.get(_chooser(side))
            if sampler is not None:
                return self._offer_sampled(spec, frame, side, sampler)
        self.memo = {}
        self.listing = True
        try:
            legal = self._not_forbidden(spec, self._candidates(spec, l))
            render = spec.text
            texts = [render(values, self) for values in legal]
        finally:
            self.memo = None
            self.listing = False
        if len(set(texts)) != len(texts):  # identical texts: interchangeable options
            texts, legal = _first_of_each_text(texts, legal)
        if spec.optional:
            texts.append(spec.optional_label)
            legal = [*legal, tuple(None for _ in spec.vars)]
        if not texts:
            raise self._dead_end(spec, side)
        if len(texts) == 1 and not self.ask_forced:
            self._take_only(spec, frame, side, texts[0], legal[0])
            return None
        weights = None
        if spec.weight is not None and self.list_weights:
            # The optional "done" option weighs 1; the others as the choice says.
            weights = [self._weight_of(spec, v) for v in legal]
            if not any(weights):
                weights = None
        if self.max_decisions is not None and self.s["decisions"] >= self.max_decisions:
            raise self._too_many_decisions(spec)
        self.moved[0] = True
        self.s["pending"] = {
            "by": _chooser(side), "choice": spec.name,
            "vars": list(spec.vars), "options": texts, "values": [list(v) for v in legal],
            "rules": list(spec.cites), "prompt": spec.prompt, "weights": weights,
        }
        # (not the Decision itself: run() makes it once it stops, and most
        # offers are made inside run())
        return ASKED

    def _too_many_decisions(self, spec: ChoiceSpec) -> DecisionBudgetExceeded:
        return DecisionBudgetExceeded(f"more than {self.max_decisions} decisions and the game is not over: a "
                                      f"game that never ends? (it asks '{spec.name}' here; `limit decisions N` "
                                      "in the scenario or --max-decisions raises the bound)", spec.span, spec.cites)

    def _take_default(self, spec: ChoiceSpec, frame: dict, side) -> None:
        """A decision of a hostile side (`side x hostile`: no player plays it)
        is never asked: the legal option with the highest `default` score of
        its choice is taken (the first one listed among equals, or the first
        one listed when the choice declares no `default`).  The optional
        "done" option counts as listed last, with score 0."""
        l = frame["l"]
        self.memo = {}
        self.listing = True
        try:
            allowed = self._allowed(spec)
            options = [values for values in self._candidates(spec, l) if allowed(values)]
            if spec.optional:
                options.append(tuple(None for _ in spec.vars))
            if not options:
                raise self._dead_end(spec, side)
            best, best_score = options[0], None
            if spec.default is not None:
                for values in options:
                    score = (0 if values.count(None) == len(values) and spec.optional
                             else int(spec.default(self, dict(zip(spec.params, values)))))
                    if best_score is None or score > best_score:
                        best, best_score = values, score
        finally:
            self.memo = None
            self.listing = False
        self._bind(spec, frame, best)
        text = spec.optional_label if spec.optional and best.count(None) == len(best) else spec.text(best, self)
        self.log(f"{text_of(side)}: {text} (no player: the rules' default)", spec.cites)
        return None

    def _allowed(self, spec: ChoiceSpec):
        """values → whether no restriction forbids the option: the generated
        checker, or the walk over the restrictions when a trace must show
        which ones forbid."""
        forbidden = self._forbidding(spec)
        return lambda values: not forbidden(self, *values)

    def _not_forbidden(self, spec: ChoiceSpec, candidates: list):
        """The candidates no restriction forbids, in their order.  With a
        generated checker that dispatches on the values of some parameters
        (codegen.forbid_function), the dispatch is done here, once per
        candidate, and a version that can forbid nothing is not called."""
        forbidden = self._forbidding(spec)
        split = getattr(forbidden, "variants", None)
        if split is None:
            if getattr(forbidden, "forbids_nothing", False):
                return candidates
            hoisted = getattr(forbidden, "hoisted", None) if candidates else None
            if hoisted is not None:
                held = hoisted[0](self, *candidates[0])
                if held is not None:
                    checker = hoisted[1]
                    return [values for values in candidates if not checker(self, held, *values)]
            return [values for values in candidates if not forbidden(self, *values)]
        positions, variants, general = split
        if candidates and forbidden.held:
            return self._not_forbidden_held(candidates, positions, variants, general)
        get = variants.get
        out = []
        if len(positions) == 1:
            at = positions[0]
            for values in candidates:
                try:
                    f = get(values[at], general)
                except TypeError:  # (a list: no key)
                    f = general
                if f is None or not f(self, *values):
                    out.append(values)
            return out
        a, b = positions  # (at most two: codegen.specialized_params)
        for values in candidates:
            try:
                f = get((values[a], values[b]), general)
            except TypeError:
                f = general
            if f is None or not f(self, *values):
                out.append(values)
        return out

    def _not_forbidden_held(self, candidates: list, positions: tuple, variants: dict, general) -> list:
        """`_not_forbidden` for a dispatching checker some of whose versions
        work out their clauses' tests of the shared values once an offer
        (codegen `_hoisted`): each version's tests worked out at its first
        candidate, then the version testing the rest called for each."""
        ready: dict = {}  # the candidate's key → (checker, its tests' verdicts or None), or _PASSES
        out = []
        one = len(positions) == 1
        a, b = positions[0], positions[-1]
        for values in candidates:
            key = values[a] if one else (values[a], values[b])
            try:
                found = ready.get(key)
            except TypeError:  # (a list: no key)
                found = self._version_for(general, values)
            else:
                if found is None:
                    found = ready[key] = self._version_for(variants.get(key, general), values)
            if found is _PASSES:
                out.append(values)
                continue
            checker, held = found
            if not (checker(self, *values) if held is None else checker(self, held, *values)):
                out.append(values)
        return out

    def _version_for(self, f, values: tuple):
        """(the checker to call, the verdicts of its shared tests or None)
        for version F of a dispatching checker, or _PASSES when F can forbid
        nothing; the shared tests worked out at VALUES."""
        if f is None:
            return _PASSES
        hoisted = f.hoisted
        if hoisted is not None:
            held = hoisted[0](self, *values)
            if held is not None:
                return hoisted[1], held
        return f, None

    def _forbidding(self, spec: ChoiceSpec):
        """(game, *values) → whether a restriction forbids the option: the
        generated checker itself when there is one (`_not_forbidden` calls it,
        or the version of it for the candidate's values, with no call in
        between), else the walk over the restrictions."""
        forbids = self.w.forbid_any.get(spec.name) if self._trace is None else None
        if forbids is not None:
            return forbids
        name = spec.name
        return lambda game, *values: bool(game._forbidden(name, values))

    def _dead_end(self, spec: ChoiceSpec, side) -> DeadEnd:
        return DeadEnd(f"{text_of(side)} must choose '{spec.name}' but no option is legal", spec.span, spec.cites)

    def _take_only(self, spec: ChoiceSpec, frame: dict, side, text: str, values) -> None:
        """A decision with a single legal option is taken without asking."""
        self._bind(spec, frame, values)
        self.log(f"{text_of(side)}: {text} (the only option)", spec.cites, quiet=True)

    def _weight_of(self, spec: ChoiceSpec, values) -> int:
        """How a random player favours an option; the optional "done" option weighs 1."""
        if values.count(None) == len(values):
            return 1
        known = spec.weights  # a weight reading only the values: worked out once for each
        if known is not None:
            try:
                weight = known.get(values)  # (None is never a weight)
            except TypeError:  # a list among the values: no key
                known = None
            else:
                if weight is not None:
                    return weight
        weight = max(0, int(spec.weight_at(self, *values)))
        if known is not None:
            known[values] = weight
        return weight

    # ------------------------------------------------ random players, answering at once
    def _offer_sampled(self, spec: ChoiceSpec, frame: dict, side, sampler):
        """A decision of a side played by a random player, taken at once: the
        options are tried in a random order until one is legal, and one more
        to know the decision is a real one (sampling.py).  The pick has the
        distribution a pick from the listed options has, and the game goes on
        exactly as if the player had been offered the list and answered."""
        self.memo = {}
        l = frame["l"]
        try:
            groups = self._option_groups(spec, self._candidates(spec, l, sampled=True), texts=False)
            legal = self._sampled_legal(spec, l)
            def first_legal(text, members):
                if len(members) == 1:
                    return members[0] if legal(members[0]) else None
                return next((v for v in members if legal(v)), None)
            state, picked, other, taken = self._draw(spec, groups, first_legal, sampler.state)
        finally:
            self.memo = None
        if picked is None:
            raise self._dead_end(spec, side)
        values = taken[picked]
        if other is None and not self.ask_forced:
            self._bind(spec, frame, values)  # (no trace here: `_take_only` would log nothing)
            return None
        if self.max_decisions is not None and self.s["decisions"] >= self.max_decisions:
            stop = self._too_many_decisions(spec)
            stop.by = _chooser(side)
            raise stop
        if other is not None:  # a random player's generator advances on real decisions only
            sampler.state = state
        self._bind(spec, frame, values)
        self.s["decisions"] += 1
        if self.log_enabled:
            text = groups[picked][0]
            self.log(f"{_chooser(side)} chose: {text if text is not None else spec.text(values, self)}",
                     list(spec.cites))
        return TAKEN

    def _sampled_legal(self, spec: ChoiceSpec, l: dict):
        """values → whether the option is legal, for a random player's draw:
        the choice's `where` (when the candidates were listed without it) and
        its restrictions' generated checker, called directly (no trace is
        kept while a random player answers at once: see offer)."""
        where = spec.where_holds
        forbids = self.w.forbid_any.get(spec.name)
        if forbids is None:
            allowed = self._allowed(spec)
            if where is None:
                return allowed
            return lambda v: where(self, l, v) and allowed(v)
        if where is None:
            return lambda v: not forbids(self, *v)
        return lambda v: where(self, l, v) and not forbids(self, *v)

    def _draw(self, spec: ChoiceSpec, groups: list, first_legal, state: int):
        """A random player's draw among option groups (sampling.sample):
        (new state, the group picked, another legal group, each group tried
        → its first legal candidate or None).  `first_legal(text, members)`
        says which candidate of a group is legal; the optional "done" always is."""
        optional = len(groups) - 1 if spec.optional else None
        taken: dict[int, tuple | None] = {}

        def legal(i: int) -> bool:
            if i not in taken:
                members = groups[i][1]
                taken[i] = members[0] if i == optional else first_legal(groups[i][0], members)
            return taken[i] is not None

        weights = self._group_weights(spec, groups, legal, taken)
        state, picked, other = sampling.sample(len(groups), weights, legal, state, sure=optional)
        return state, picked, other, taken

    def _option_groups(self, spec: ChoiceSpec, candidates: list[tuple],
                       texts: bool = True) -> list[tuple[str | None, list[tuple]]]:
        """The candidates by text, in order of first appearance (one option
        per text, as offer keeps them), and the optional "done" option last.
        Without `texts`, the options of a choice whose texts tell its values
        apart (ChoiceSpec.distinct_texts) are told apart by their values, and
        their texts are left out (None): the same groups, without writing
        every text."""
        done = (spec.optional_label, [tuple(None for _ in spec.vars)]) if spec.optional else None
        if not texts and spec.distinct_texts:
            if spec.no_repeats:  # no two candidates alike: nothing to sift
                return _OneEach(candidates, done)
            try:
                return _OneEach(list(dict.fromkeys(candidates)), done)  # (equal values: one option)
            except TypeError:  # a list among the values: by text after all
                pass
        groups: dict = {}
        for values in candidates:
            groups.setdefault(spec.text(values, self), []).append(values)
        out = list(groups.items())
        if done is not None:
            out.append(done)
        return out

    def _group_weights(self, spec: ChoiceSpec, groups, legal, taken: dict) -> list[int] | None:
        """Each option's weight: its first legal candidate's, or its first
        candidate's when none is legal (legality is asked only when the
        candidates of a text weigh differently)."""
        if spec.weight is None:
            return None
        known = spec.weights or {}  # the weights already worked out, by values (see _weight_of)
        if type(groups) is _OneEach:
            if spec.weights is None:  # a weight reading the state: worked out for each candidate
                out = self._weights_now(spec, groups.values)
            else:
                out = self._known_weights(spec, known, groups.values)
            if groups.done is not None:
                out.append(1)
            return out
        out = []
        for i, (_, members) in enumerate(groups):
            if len(members) == 1:
                out.append(self._known_weight(spec, known, members[0]))
                continue
            weights = {self._weight_of(spec, v) for v in members}
            if len(weights) == 1:
                out.append(weights.pop())
            else:
                legal(i)
                out.append(self._weight_of(spec, taken[i] if taken[i] is not None else members[0]))
        return out

    def _weights_now(self, spec: ChoiceSpec, candidates: list[tuple]) -> list[int]:
        """The weight of each candidate, as _weight_of works it out, for a
        weight that reads the state (nothing to look up first)."""
        fixed = spec.weight_fixed  # the values that decide the weight outright
        at, known = fixed if fixed is not None else (0, {})
        if spec.weights_of is not None:  # the same loop, generated with the weight inline
            return spec.weights_of(self, candidates, at, known)
        weigh = spec.weight_at
        out = []
        append = out.append
        get = known.get
        for values in candidates:
            value = values[at]
            if value is None and values.count(None) == len(values):
                append(1)
                continue
            weight = get(value)
            if weight is None:
                weight = weigh(self, *values)
                if type(weight) is not int:
                    weight = int(weight)
            append(weight if weight > 0 else 0)
        return out

    def _known_weights(self, spec: ChoiceSpec, known: dict, candidates: list[tuple]) -> list[int]:
        """The weight of each candidate, for a weight reading only the values:
        looked up all at once (most are known after a few decisions), the
        others worked out (None is never a weight)."""
        try:
            out = list(map(known.get, candidates))
        except TypeError:  # a list among the values: no key
            return [self._known_weight(spec, known, values) for values in candidates]
        if None in out:
            for i, weight in enumerate(out):
                if weight is None:
                    out[i] = self._weight_of(spec, candidates[i])
        return out

    def _known_weight(self, spec: ChoiceSpec, known: dict, values: tuple) -> int:
        try:
            weight = known.get(values)  # (no KeyError raised and caught for each new option)
        except TypeError:  # a list among the values
            return self._weight_of(spec, values)
        return weight if weight is not None else self._weight_of(spec, values)

    def sample_pending(self, state: int) -> tuple[int, int, bool] | None:
        """A random player's answer to the decision already listed: (new
        generator state, 0-based option, whether it was a real decision).
        It draws exactly as _offer_sampled draws, with the listing telling
        what is legal, so a random player answers a listed decision and an
        unlisted one alike.  None if the pending choice cannot be found."""
        p = self.s["pending"]
        spec = self._pending_spec() if p is not None else None
        if spec is None or spec.name != p["choice"]:
            return None
        options, listed = p["options"], p["values"]
        first: dict[str, int] = {}
        for i, text in enumerate(options):
            first.setdefault(text, i)
        self.memo = {}
        try:
            groups = self._option_groups(spec, self._candidates(spec, self.s["stack"][-1]["l"], sampled=True))
        finally:
            self.memo = None
        state, picked, other, _ = self._draw(
            spec, groups, lambda text, members: tuple(listed[first[text]]) if text in first else None, state)
        if picked is None:
            return None
        text = groups[picked][0]
        index = len(options) - 1 if spec.optional and picked == len(groups) - 1 else first[text]
        return state, index, other is not None

    def _candidates(self, spec: ChoiceSpec, l: dict, sampled: bool = False) -> list[tuple]:
        """Every combination of the choice's sources (later sources may name
        earlier variables) that passes its `where`, as tuples in the order of
        the choice's variables (the frame is left as it was).  `sampled`:
        the candidates a random player draws among, without the `where` when
        the choice has one (it is tested on the options drawn,
        ChoiceSpec.where_holds)."""
        if sampled and spec.enumerate_unfiltered is not None:
            return spec.enumerate_unfiltered(self, l)
        return spec.enumerate(self, l)

    def _forbidden(self, choice: str, values: tuple) -> list:
        """The restrictions that forbid this option (empty if it is legal)."""
        entries = self.w.restrictions.get(choice)
        if not entries:
            return []
        found = []
        for hooked, var_names, when, unless, guard in entries:
            if guard is not None and id(values[guard[0]]) not in guard[1]:
                continue  # its condition needs another value here: it cannot forbid this option
            owner = hooked.owner
            if owner is not None and not self.card_in_play(owner):
                continue
            bound = dict(zip(var_names, values))
            if owner is not None:
                bound["this_card"] = self.w.cards[owner]
            if when is not None and not when(self, bound):
                continue
            if unless is not None and unless(self, bound):
                continue
            found.append(hooked.decl)
        if self.trace is not None:
            for d in found:  # like modifiers and triggers: the restriction's name and its rules
                self.trace.append(("forbid", d.key, [c.number for c in d.cites]))
        return found

    def _bind(self, spec: ChoiceSpec, frame: dict, values) -> None:
        for var, value in zip(spec.vars, values):
            frame["l"][var] = value

    def decision(self) -> Decision | None:
        p = self.s["pending"]
        if p is None:
            return None
        # Where the choice is written is not part of the state (a state, its
        # hash and a save must not depend on the folder the sources are read
        # from): it is looked up in the rule graph when asked.
        spec = self._pending_spec()
        where = str(spec.span) if spec is not None and getattr(spec, "span", None) is not None else None
        return Decision(p["by"], p["choice"], list(p["options"]), list(p["rules"]), p.get("prompt"), where,
                        p.get("weights"))

    def legal_options(self) -> list[str]:
        p = self.s["pending"]
        return list(p["options"]) if p else []

    def choose(self, answer: str | int) -> Decision | None:
        """Answer the pending decision (by option text or 1-based number) and
        run to the next one.  An illegal answer raises IllegalOption and leaves
        the state unchanged."""
        p = self.s["pending"]
        if p is None:
            raise IllegalOption("there is no decision to answer: the game is over" if self.over
                                else "there is no decision to answer")
        index = self._option_index(answer)
        if self.keep_history:
            self.history.append(copy_data(self.s))
        values = p["values"][index]
        frame = self.s["stack"][-1]
        for var, value in zip(p["vars"], values):
            frame["l"][var] = value
        self.s["pending"] = None
        self.s["decisions"] += 1
        if self.log_enabled:
            self.log(f"{p['by']} chose: {p['options'][index]}", p["rules"])
        return self.run()

    def _option_index(self, answer) -> int:
        p = self.s["pending"]
        options = p["options"]
        if isinstance(answer, int) or (isinstance(answer, str) and is_digits(answer.strip())):
            if isinstance(answer, str) and len(answer.strip()) > MAX_DIGITS:
                raise IllegalOption(f"there is no option {shown(answer.strip())}: choose 1 to {len(options)}")
            n = int(answer)
            if 1 <= n <= len(options):
                return n - 1
            raise IllegalOption(f"there is no option {n}: choose 1 to {len(options)}")
        text = " ".join(str(answer).split())
        if text in options:
            return options.index(text)
        lowered = [o.lower() for o in options]
        if text.lower() in lowered:
            return lowered.index(text.lower())
        # A unique beginning is enough ("play 12 ops" for "play 12 ops (Entrench)").
        starts = [i for i, o in enumerate(lowered) if o.startswith(text.lower())] if text else []
        if len(starts) == 1 or (starts and all(lowered[i] == lowered[starts[0]] for i in starts)):
            return starts[0]
        if len(starts) > 1:
            raise _ambiguous(text, [options[i] for i in starts], p["rules"])
        raise self.why_not(text)

    def match_candidate(self, text: str) -> tuple[str, bool, list]:
        """TEXT matched against every candidate of the pending decision, legal
        or not, the way answers are matched: the whole text in any case, else
        a unique beginning.  Returns the option's text, whether it is legal,
        and the restrictions that forbid it (empty when legal, or when it is
        left out for another reason).  IllegalOption when nothing matches, or
        when a beginning matches several options (they are listed)."""
        p = self.s["pending"]
        if p is None:
            raise IllegalOption("there is no decision to answer: the game is over" if self.over
                                else "there is no decision pending")
        wanted = " ".join(str(text).split()).lower()
        found: dict[str, tuple | None] = {o.lower(): (o, None) for o in p["options"]}
        spec = self._pending_spec()
        if spec is not None:
            for values in self._candidates(spec, self.s["stack"][-1]["l"]):
                shown = spec.text(values, self)
                found.setdefault(shown.lower(), (shown, values))
        legal = {o.lower() for o in p["options"]}
        if wanted in found:
            key = wanted
        else:
            starts = [k for k in found if k.startswith(wanted)] if wanted else []
            if len(starts) > 1:
                raise _ambiguous(text, [found[k][0] for k in starts], p["rules"])
            if not starts:
                raise IllegalOption(f"'{text}' is not an option of this decision ({p['choice']}), legal or "
                                    f"forbidden", p["rules"])
            key = starts[0]
        shown, values = found[key]
        if key in legal:
            return shown, True, []
        return shown, False, self._forbidden(spec.name, values) if values is not None else []

    def why_not(self, text: str) -> IllegalOption:
        """Why an answer is not a legal option: the restrictions that forbid it,
        each with its rules and its own explanation.  The answer is matched
        the way answers are (whole text, any case, or a unique beginning; a
        beginning several options share is said to be one, listing them)."""
        p = self.s["pending"]
        try:
            shown, legal, forbidding = self.match_candidate(text)
        except IllegalOption as err:
            if "beginning of several" in err.message:
                return err
            shown, legal, forbidding = None, False, []
        if legal:
            return IllegalOption(f"'{text}' is legal now ({shown})", p["rules"])
        if forbidding:
            return self._forbidden_error(text, shown, forbidding)
        return IllegalOption(f"'{text}' is not one of the {len(p['options'])} options now", p["rules"])

    @staticmethod
    def _forbidden_error(text: str, shown: str, forbidding: list) -> IllegalOption:
        rules = [c.number for d in forbidding for c in d.cites]
        names = ", ".join(d.key for d in forbidding)
        said = f"'{text}'" if shown.lower() == " ".join(text.split()).lower() else f"'{text}' ({shown})"
        message = f"{said} is forbidden by {names} (rule {', '.join(rules) or '?'})"
        notes = [d.note for d in forbidding if getattr(d, "note", None)]
        if notes:
            message += ": " + " ".join(notes)
        return IllegalOption(message, rules)

    def _pending_spec(self) -> ChoiceSpec | None:
        frame = self.s["stack"][-1]
        code = self.w.codes.get(frame["code"])
        return code.steps[frame["pc"] - 1].spec if code is not None else None

    def undo(self, count: int = 1) -> int:
        """Go back `count` decisions (needs keep_history); returns how many were undone."""
        done = 0
        while done < count and self.history:
            self.s = self.history.pop()
            done += 1
        self.invalidate()
        return done

    # ================================================================ chance
    def roll(self, step) -> int:
        forced = self.s["dice"]
        if forced:
            value = forced.pop(0)
        else:
            self.s["rng"], r = rng.below(self.s["rng"], 6)
            value = r + 1
        if self.log_enabled:
            self.log(f"rolled {value}", step.cites)
        return value

    def random_below(self, n: int) -> int:
        self.s["rng"], r = rng.below(self.s["rng"], n)
        return r

    # ================================================================ events
    def emit(self, event: str, args: tuple) -> None:
        hooked = self.w.triggers.get(event)
        if not hooked:
            return
        ready = []
        for h in hooked:
            if h.owner is not None and not self.card_in_play(h.owner):
                continue
            bound = dict(zip(h.var_names, args))
            if h.owner is not None:
                bound["this_card"] = self.w.cards[h.owner]
            if h.compiled is not None and not h.compiled(self, bound):
                continue
            ready.append((h, bound))
        for h, bound in reversed(ready):  # the first declared runs first
            self.push_frame(h.code.key, bound)
            if self._trace is not None:
                self._trace.append(("trigger", h.decl.key, [c.number for c in h.decl.cites]))

    def log(self, text: str, cites=(), quiet: bool = False) -> None:
        if not self.log_enabled or (quiet and self._trace is None):
            return
        for frame in self.s["stack"]:  # inside a `call P() cites N` (however deep): N is in force too
            called = frame.get("c")
            if called:
                cites = list(cites) + [c for c in called if c not in cites]
        self.s["log"].append({"turn": self.s["turn"], "phase": self.s["phase"], "text": text,
                              "rules": list(cites)})

    # ================================================================ board
    def move_unit(self, u: Entity, loc: int | None) -> None:
        s = self.s
        old = s["loc"][u.index]
        if old is not None and old >= 0:
            s["occ"][old].remove(u.index)
        s["loc"][u.index] = loc
        if loc is not None and loc >= 0:
            s["occ"][loc].append(u.index)
        self.touch_entity("board", u)
        self.touch_location(old)
        self.touch_location(loc)

    def take_piece(self, u: Entity, step) -> Entity:
        """The piece to place: a named unit itself, or a free piece of a pool."""
        members = getattr(u, "members", None)
        if members is None:
            return u
        loc = self.s["loc"]
        for m in members:
            if loc[m.index] is None:
                return m
        raise GameError(f"no {u.key} is left to place: all {len(members)} are in play", step.span, step.cites)

    def eliminate(self, u: Entity, loc: int | None, cites) -> None:
        if loc is None:
            side = u.data.side.key if u.data.side is not None else None
            loc = self.w.eliminated_box.get(side, -1)
        self.move_unit(u, loc)
        self.s["reduced"][u.index] = False
        self.touch_entity("board", u)
        self.log(f"{u.key} eliminated", cites)
        self.emit("unit_eliminated", (u,))

    def set_control(self, space: Entity, side, cites) -> None:
        key = side.key if isinstance(side, Entity) else None
        was = self.s["control"][space.index]
        if was == key:
            return
        self.s["control"][space.index] = key
        self.touch_entity("board", space)
        self.log(f"{space.key} now controlled by {key or 'no one'}", cites)
        self.emit("control_changed", (space, side, self.w.by_kind["side"].get(was) if was is not None else None))

    # ================================================================ cards
    def pile_entity(self, key: str) -> Entity:
        piles = self.w.by_kind.setdefault("pile", {})
        e = piles.get(key)
        if e is None:
            e = piles[key] = Entity("pile", key)
        return e

    def card_in_play(self, card_index: int) -> bool:
        piles = self.s["piles"]
        keys = self.w.in_play_piles
        if keys is None:
            keys = self.w.in_play_piles = tuple(f"in_play:{side.key}" for side in self.w.sides)
        for key in keys:
            if card_index in piles[key]:
                return True
        return False

    def move_card(self, card: Entity, pile: str) -> None:
        for key, cards in self.s["piles"].items():
            if card.index in cards:
                cards.remove(card.index)
                if key.startswith("in_play:"):
                    self.touch("in_play")
                break
        self.s["piles"][pile].append(card.index)
        self.touch("cards")
        if pile.startswith("in_play:"):
            self.touch("in_play")

    def shuffle_into(self, source: str, target: str) -> None:
        piles = self.s["piles"]
        if source != target:
            piles[target].extend(piles[source])
            piles[source].clear()
        cards = piles[target]
        self.touch("cards")
        if source.startswith("in_play:") or target.startswith("in_play:"):
            self.touch("in_play")
        for i in range(len(cards) - 1, 0, -1):  # Fisher–Yates with the game's generator
            j = self.random_below(i + 1)
            cards[i], cards[j] = cards[j], cards[i]

    def draw_to(self, side: Entity, count: int, cites) -> None:
        piles = self.s["piles"]
        hand, deck, discard = (piles[f"{k}:{side.key}"] for k in ("hand", "draw", "discard"))
        drawn = 0
        while len(hand) < count:
            if not deck:
                if not discard:
                    break
                self.shuffle_into(f"discard:{side.key}", f"draw:{side.key}")
                self.log(f"{side.key} reshuffles the discard pile", cites)
            hand.append(deck.pop())
            drawn += 1
            self.touch("cards")
        if drawn:
            self.log(f"{side.key} draws {drawn} card{'s' * (drawn != 1)}", cites)

    def play_event(self, card: Entity, cites) -> None:
        if card.index not in self.s["played"]:
            self.s["played"].append(card.index)
            self.touch_entity("played", card)
        self.log(f"event: {card.data.name.text}", cites)
        self.events_played[card.key] = self.events_played.get(card.key, 0) + 1
        key = f"card:{card.key}/event"
        if key in self.w.codes:
            self.push_code(key, [card])

    # ================================================================ the end
    def end_game(self, side, reason: str, cites, result: str | None = None) -> None:
        winner = side.key if isinstance(side, Entity) else None
        self.s["result"] = {"winner": winner, "reason": reason, "rules": list(cites)}
        if result is not None:  # (only then: a plain win or draw is saved as it always was)
            self.s["result"]["result"] = result
        self.s["pending"] = None
        self.moved[0] = True
        shown = (f"{winner}, {result}" if winner else result) if result else (winner or "draw")
        self.log(f"game over: {shown}" + (f" ({reason})" if reason else ""), cites)

    # ================================================================ saving
    def to_json(self) -> dict:
        return encode(self.s)

    @classmethod
    def from_json(cls, world, data: dict, **options) -> "Game":
        return cls(world, decode(data, world), **options)

    def state_hash(self) -> str:
        return state_hash(self.s)

    def copy(self, *, remember: bool = False) -> "Game":
        """Another game in the same state (without samplers: a random
        player's generator belongs to one game), remembering nothing, as a
        game loaded from a file.  With `remember`, it starts knowing the
        values this one remembers: they are pure functions of the state
        areas they read, the same in both, so a player looking ahead from
        the copy does not work out again what the game already knows.
        Copying them costs more than copying the state (docs/performance.rst:
        it pays in a fresh process, not once the process has learnt which
        values to drop), hence not the default.  A copy that remembers must
        have its state changed only through the game (or be told with
        `invalidate()`)."""
        other = Game(self.w, copy_state(self.s), log=self.log_enabled, step_budget=self.step_budget,
                     ask_forced=self.ask_forced, max_decisions=self.max_decisions)
        other.list_weights = self.list_weights
        if remember and self.vcache and self._cache_values and self._trace is None:
            other.inherit_values(self)
        return other

    def inherit_values(self, source: "Game") -> None:
        """Start from the remembered values of SOURCE, a game in the same
        state (just copied from it).  Its entries are copied, not shared: each
        game brings its own up to date in place as it goes on (the results
        themselves, never changed in place, are shared).  The revision
        counters and the record of changes come along, so each entry is
        checked here exactly as it would be checked there."""
        self.vcache = B.copy_remembered(source.vcache, self.w.uncached)
        self.clock = source.clock
        self.ver = dict(source.ver)
        self.changed = {area: list(log) for area, log in source.changed.items()}
        self.changes_kept = source.changes_kept
        self.changed_since = source.changed_since


class _OneEach:
    """Option groups of one candidate each, told apart by their values (their
    texts left out: None), with the optional "done" group last: what
    `Game._option_groups` gives, without a pair and a list built for every
    candidate (a random player looks at a few of them)."""

    __slots__ = ("done", "values")

    def __init__(self, values: list[tuple], done: tuple | None):
        self.values = values
        self.done = done

    def __len__(self) -> int:
        return len(self.values) + (self.done is not None)

    def __getitem__(self, i: int) -> tuple:
        values = self.values
        if i < len(values):
            return None, [values[i]]
        if self.done is not None and i == len(values):
            return self.done
        raise IndexError(i)


def _ambiguous(text: str, matches: list[str], rules) -> IllegalOption:
    shown = " | ".join(matches[:12]) + (f" | … ({len(matches)} in all)" if len(matches) > 12 else "")
    return IllegalOption(f"'{text}' is the beginning of several options: {shown}; write more of it", list(rules))


# What `_version_for` gives for a version of a checker that can forbid nothing.
_PASSES = (None, None)


def _first_of_each_text(texts: list[str], options: list) -> tuple[list[str], list]:
    """The options of a listing one per text, the first of each kept, in
    order (options of the same text are interchangeable)."""
    kept: dict = {}
    for text, values in zip(texts, options):
        kept.setdefault(text, values)
    return list(kept), list(kept.values())


def _chooser(side) -> str:
    """Who chooses, as a decision names them: a side's key, or the text of anything else."""
    return side.key if isinstance(side, Entity) else text_of(side)


# Parts of the state that are flat lists of numbers, texts, booleans or None
# (new_state): copied as they are, a list at a time.
_FLAT_LISTS = frozenset(("loc", "reduced", "control", "fort_destroyed", "played", "dice"))


def copy_state(state: dict) -> dict:
    """A deep copy of a game state (copy_data), the parts whose shape the
    interpreter fixes copied a list at a time: about three times faster,
    which a player trying several options from one position needs."""
    out = {}
    for key, value in state.items():
        if key in _FLAT_LISTS and type(value) is list:
            out[key] = value[:]
        elif key == "occ" and type(value) is list:
            out[key] = [units[:] for units in value]
        elif key == "piles" and type(value) is dict:
            out[key] = {name: cards[:] for name, cards in value.items()}
        elif key == "at_war" and type(value) is dict:
            out[key] = dict(value)
        else:
            out[key] = copy_data(value)
    return out


def state_hash(state: dict) -> str:
    """A digest of the position: everything but the log and step counters."""
    data = {k: v for k, v in state.items() if k not in ("log", "decisions")}
    text = json.dumps(encode(data), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def new_state(world, seed: int, dice: list[int]) -> dict:
    w = world
    piles = {}
    for side in w.sides + w.hostile_sides:
        for kind in ("hand", "draw", "discard", "removed", "in_play"):
            piles[f"{kind}:{side.key}"] = []
    state = {
        "format": STATE_FORMAT,
        "scenario": w.scenario.key,
        "seed": seed,
        "rng": rng.seed_state(seed),
        "dice": list(dice),
        "turn": w.first_turn,
        "phase": None,
        "loc": [None] * len(w.units),
        "reduced": [False] * len(w.units),
        "occ": [[] for _ in range(w.location_count)],
        "control": [s.data.control.key if s.data.control is not None else None for s in w.spaces],
        "fort_destroyed": [False] * len(w.spaces),
        "at_war": {n.key: not n.data[0].neutral for n in w.nations},
        "vars": {},
        "piles": piles,
        "played": [],
        "stack": [{"code": DRIVER, "pc": 0, "l": {}}],
        "pending": None,
        "decisions": 0,
        "log": [],
        "result": None,
    }
    for name, decl in w.state_decls.items():
        state["vars"][name] = {} if decl.scope is not None else copy_data(w.state_start.get(name))
    return state
