"""A scenario as a PettingZoo AEC environment: the agents are its sides.

The environment is a thin layer over the interpreter's own decisions
(runtime/interpreter.py): the game runs until a side must choose, that side
is the agent selected, its legal options are the action mask, and an action
answers the decision.  What a side observes is laid out by layout.py, on
what runtime/hidden.py lets it see.

Actions (docs/environments.rst, "Actions"): `Discrete(A)`, action i is the
i-th legal option of the pending decision.  A decision with more than A
options is shown in pages of A-1 options, action A-1 turning to the next
page.  In the cyclic mode (`cyclic=True`, what `parallel_env` needs) the
agents act in turn, and one with no decision of its own waits: action 0.
"""

from __future__ import annotations

import weakref

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv

from ..runtime.errors import GameError, IllegalOption
from ..runtime.record import derive_seed
from .layout import BOUND, layout_of, observe
from .options import option_features, option_width
from .scenario import EnvError, open_for_env


class IllegalAction(EnvError):
    """An action the mask rules out: refused, the game unchanged."""

    def __init__(self, message: str, rules=()):
        super().__init__(message)
        self.rules = tuple(rules)


def default_action_size(world) -> int:
    """The size of the action space: the smallest power of two above the
    number of spaces (a choice of one space, with a "done" option, fits on
    one page; the Campaign's largest decisions measured, 144 options of
    `redeploy_to`, fit in its 512), at least 8."""
    size = 8
    while size < len(world.spaces) + 1:
        size *= 2
    return size


class LegalDiscrete(spaces.Discrete):
    """`Discrete(A)` whose `sample()` without a mask draws a legal action of
    its agent (the mask of the moment): a caller that ignores masks, as
    Gymnasium's checker and PettingZoo's max_cycles test do, still plays
    legal moves.  With a mask (or probabilities) it draws as Discrete does."""

    def __init__(self, n: int, env, agent: str):
        super().__init__(n)
        self._env = weakref.ref(env)
        self._agent = agent

    def sample(self, mask=None, probability=None):
        env = self._env()
        if mask is None and probability is None and env is not None and env.game is not None:
            legal = env.action_mask(self._agent)
            if legal.any():
                mask = legal
        return super().sample(mask=mask, probability=probability)


class PogAEC(AECEnv, EzPickle):
    """See `pogdsl.env.aec_env`."""

    metadata = {"render_modes": ["ansi"], "name": "pogdsl_v1", "is_parallelizable": True}

    def __init__(self, scenario: str, *, options: dict | None = None, max_cycles: int | None = None,
                 render_mode: str | None = None, root=None, action_size: int | None = None,
                 cyclic: bool = False, reward: str = "outcome", with_option_features: bool = False,
                 forced: bool = False, with_markers: bool = False):
        # Pickled as its arguments (a vectorised trainer sends environments to
        # worker processes): unpickled, it is made anew, before any reset.
        EzPickle.__init__(self, scenario, options=options, max_cycles=max_cycles, render_mode=render_mode,
                          root=root, action_size=action_size, cyclic=cyclic, reward=reward,
                          with_option_features=with_option_features, forced=forced, with_markers=with_markers)
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise EnvError(f"render_mode '{render_mode}' is not one of: {', '.join(self.metadata['render_modes'])}")
        if reward not in ("outcome", "evaluation"):
            raise EnvError(f"reward '{reward}' is not one of: outcome, evaluation")
        if max_cycles is not None and max_cycles < 1:
            raise EnvError("max_cycles must be at least 1")
        self.opened = open_for_env(scenario, root=root, options=options)
        self.world = self.opened.world
        self.layout = layout_of(self.world, markers=with_markers)
        self.scenario = scenario
        self.render_mode = render_mode
        self.max_cycles = max_cycles
        self.cyclic = cyclic
        self.reward_kind = reward
        self.action_size = int(action_size) if action_size is not None else default_action_size(self.world)
        if self.action_size < 2:
            raise EnvError("action_size must be at least 2 (a page holds action_size - 1 options and a turn)")
        self.with_option_features = with_option_features
        self.forced = forced  # offer a decision of one option too (the interpreter takes it itself otherwise)
        self.possible_agents = [s.key for s in self.world.sides]
        self.agents = list(self.possible_agents)
        width = self._option_width = option_width(self.world)
        parts = {
            "observation": spaces.Box(-BOUND, BOUND, (self.layout.size,), np.float32),
            "action_mask": spaces.MultiBinary(self.action_size),
        }
        if with_option_features:
            parts["option_features"] = spaces.Box(-BOUND, BOUND, (self.action_size, width), np.float32)
        self.observation_spaces = {a: spaces.Dict(parts) for a in self.possible_agents}
        self.action_spaces = {a: LegalDiscrete(self.action_size, self, a) for a in self.possible_agents}
        self.game = None
        self._seed = 0
        self._episode = 0
        self.seed_used = None

    # ------------------------------------------------------------ spaces
    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def observation_fields(self, agent: str | None = None) -> list[dict]:
        """Each field of the observation vector: name, slice, shape, meaning
        (the same for every agent: each sees its own part of the same
        layout)."""
        return [f.as_row() for f in self.layout.fields]

    # ------------------------------------------------------------ playing
    def reset(self, seed: int | None = None, options: dict | None = None):
        """A new game.  SEED seeds the game's own generator (the only source
        of chance); without one, the next game of the last seed given
        (0 at first): the same seeds give the same games.  OPTIONS is
        accepted as PettingZoo's API has it; the scenario's options are set
        when the environment is made."""
        if seed is not None:
            self._seed, self._episode = int(seed), 0
        elif self.game is not None:
            self._episode += 1
        game_seed = self._seed if self._episode == 0 else derive_seed(self._seed, "episode", self._episode)
        self.seed_used = game_seed
        self.game = self.opened.new_game(game_seed, log=False, ask_forced=self.forced)
        self.game.list_weights = False  # the learner picks: the options' weights are a random player's
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.steps_taken = dict.fromkeys(self.agents, 0)
        self.page = 0
        self._turn_order = 0
        self.agent_selection = self.agents[0]
        try:
            decision = self.game.run()
        except GameError as err:
            raise EnvError(f"the game stopped: {err}") from None
        self._advance(decision)

    def _advance(self, decision) -> None:
        """Select who acts next, after the game ran to DECISION (None: over)."""
        if decision is None:
            self._finish()
            return
        if self.cyclic:
            self.agent_selection = self.possible_agents[self._turn_order % len(self.possible_agents)]
        else:
            self.agent_selection = decision.by
        self._fill_infos()

    def _fill_infos(self) -> None:
        p = self.game.s["pending"]
        for a in self.agents:
            info = self.infos[a] = {}
            if p is not None and p["by"] == a:
                info["choice"] = p["choice"]
                info["options"] = list(p["options"])
                info["rules"] = list(p["rules"])
                info["page"] = self.page
                info["actions"] = self._page_range(len(p["options"]))[1]

    def _page_range(self, n: int) -> tuple[int, int]:
        """(first option, options shown) on the current page."""
        if n <= self.action_size:
            return 0, n
        per = self.action_size - 1
        first = self.page * per
        return first, min(per, n - first)

    def _finish(self) -> None:
        outcome = self.game.outcome
        for a in self.agents:
            if outcome.winner is None:
                self.rewards[a] = 0.0
            else:
                self.rewards[a] = 1.0 if a == outcome.winner else -1.0
            self.terminations[a] = True
            self.infos[a] = {"outcome": outcome.text(), "reason": outcome.reason, "rules": list(outcome.rules)}
        if getattr(self, "agent_selection", None) not in self.agents:
            self.agent_selection = self.agents[0]

    def action_mask(self, agent) -> np.ndarray:
        """AGENT's legal actions now (int8, 1 legal): the options on the page
        shown and the page turn when the decision is its own; in the cyclic
        mode, action 0 (wait) when another side decides; else none."""
        mask = np.zeros(self.action_size, np.int8)
        p = self._started().s["pending"]
        if p is None or agent not in self.agents or self.terminations.get(agent) or self.truncations.get(agent):
            return mask
        if p["by"] == agent:
            n = len(p["options"])
            first, count = self._page_range(n)
            mask[:count] = 1
            if n > self.action_size:
                mask[-1] = 1
        elif self.cyclic:
            mask[0] = 1  # waiting for another side's decision
        return mask

    def _started(self):
        if self.game is None:
            raise EnvError("the environment has no game yet: call reset() first")
        return self.game

    def observe(self, agent):
        g = self._started()
        if agent not in self.possible_agents:
            raise EnvError(f"'{agent}' is not an agent of this environment: {', '.join(self.possible_agents)}")
        mask = self.action_mask(agent)
        out = {"observation": observe(self.layout, g, agent, self.page), "action_mask": mask}
        if self.with_option_features:
            feats = np.zeros((self.action_size, self._option_width), np.float32)
            p = g.s["pending"]
            if p is not None and p["by"] == agent and mask.any():
                first, count = self._page_range(len(p["options"]))
                option_features(self.world, p["values"][first:first + count], feats)
            out["option_features"] = feats
        return out

    def step(self, action):
        self._started()
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            return self._was_dead_step(action)
        g = self.game
        p = g.s["pending"]
        waiting = self.cyclic and p["by"] != agent
        if waiting and _as_index(action) != 0:
            raise IllegalAction(f"{agent} has no decision now ({p['by']} is choosing {p['choice']}): "
                                f"its only action is 0 (wait), not {action!r}")
        index = None if waiting else self._option_of(p, action)  # (refused here, nothing changed yet)
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if index is None:  # a wait, or the next page
            self._turn_order += waiting
            self._after_step(agent, g.decision())
            return
        before = self._scores_now() if self.reward_kind == "evaluation" else None
        self.page = 0
        try:
            decision = g.choose(index + 1)
        except GameError as err:
            raise EnvError(f"the game stopped: {err}") from None
        self._turn_order += 1
        if before is not None and decision is not None:
            after = self._scores_now()
            for a in self.agents:
                self.rewards[a] = after[a] - before[a]
        self._after_step(agent, decision)

    def _after_step(self, agent, decision) -> None:
        self.steps_taken[agent] += 1
        self._advance(decision)
        if decision is not None and self.max_cycles is not None and \
                max(self.steps_taken.values()) >= self.max_cycles and \
                (not self.cyclic or self._turn_order % len(self.possible_agents) == 0):
            for a in self.agents:
                self.truncations[a] = True
                self.infos[a]["truncated"] = f"cut after {self.max_cycles} cycles (max_cycles)"
        self._accumulate_rewards()

    def _scores_now(self) -> dict:
        from ..agents.evaluation import score

        return {a: score(self.game, a) for a in self.agents}

    def _option_of(self, p: dict, action) -> int | None:
        """The 0-based option ACTION names (None: it turns the page, which it
        does); refuses an action the mask rules out, saying why."""
        if isinstance(action, str):  # an option's text: the engine says which rule forbids it
            try:
                return self.game._option_index(action)
            except IllegalOption as err:
                raise IllegalAction(f"{p['by']} cannot answer {p['choice']} with '{action}': {err.message}",
                                    err.rules) from None
        i = _as_index(action)
        n = len(p["options"])
        first, count = self._page_range(n)
        paged = n > self.action_size
        if i is not None and 0 <= i < count:
            return first + i
        if paged and i == self.action_size - 1:
            per = self.action_size - 1
            self.page = (self.page + 1) % ((n + per - 1) // per)
            return None
        raise IllegalAction(self._refusal(p, action, n, count, paged), p["rules"])

    def _refusal(self, p: dict, action, n: int, count: int, paged: bool) -> str:
        rules = f" (rule {', '.join(p['rules'])})" if p["rules"] else ""
        shown = f"actions 0 to {count - 1}" + (f" and {self.action_size - 1} (next page)" if paged else "")
        page = f", page {self.page + 1} shows {count}" if paged else ""
        return (f"action {action!r} is masked out: {p['by']}'s decision {p['choice']}{rules} has {n} legal "
                f"option{'s' * (n != 1)}{page}; legal: {shown}")

    # ------------------------------------------------------------ the rest
    def render(self):
        if self.render_mode is None:
            return None
        g = self.game
        lines = [f"{self.world.scenario.key}: turn {g.s['turn']}, phase {g.s['phase'] or '-'}"]
        p = g.s["pending"]
        if p is not None:
            lines.append(f"{p['by']} chooses {p['choice']}: " + "; ".join(p["options"][:10]) +
                         (f"; … ({len(p['options'])} options)" if len(p["options"]) > 10 else ""))
        elif g.over:
            lines.append(f"over: {g.outcome.text()} ({g.outcome.reason})")
        return "\n".join(lines)

    def close(self):
        pass


def _as_index(action) -> int | None:
    if isinstance(action, (bool, np.bool_)):
        return None
    if isinstance(action, (int, np.integer)):
        return int(action)
    if isinstance(action, np.ndarray) and action.shape == () and np.issubdtype(action.dtype, np.integer):
        return int(action)
    return None
