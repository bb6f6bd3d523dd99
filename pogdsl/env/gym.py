"""One side of a scenario as a Gymnasium environment: the learner plays it,
pogdsl players (agents/) play the others, as `pogdsl play --cp greedy` would.

Observation, actions and mask are the AEC environment's for that side
(aec.py); a step answers the learner's decision, then the other sides play
until the learner must choose again or the game is over.
"""

from __future__ import annotations

import gymnasium
from gymnasium.utils import EzPickle

from ..runtime.errors import GameError, IllegalOption
from .aec import IllegalAction, PogAEC
from .scenario import EnvError


class PogGym(gymnasium.Env, EzPickle):
    """See `pogdsl.env.gym_env`."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, scenario: str, *, side: str, opponent: str = "greedy", max_cycles: int | None = None,
                 render_mode: str | None = None, **kw):
        from ..agents import make_agent

        EzPickle.__init__(self, scenario, side=side, opponent=opponent, max_cycles=max_cycles,
                          render_mode=render_mode, **kw)
        if kw.get("cyclic"):
            raise EnvError("gym_env plays one side: cyclic does not apply")
        # Every decision of the learner's is offered, one of a single option
        # too: so every game has a step for it (a side may have no real
        # choice in a whole game of a small scenario).
        kw.setdefault("forced", True)
        self.env = PogAEC(scenario, render_mode=render_mode, **kw)
        if side not in self.env.possible_agents:
            raise EnvError(f"side '{side}' is not one of the scenario's sides: {', '.join(self.env.possible_agents)}")
        self.side = side
        self.opponent = opponent
        self.max_cycles = max_cycles
        self.render_mode = render_mode
        self.observation_space = self.env.observation_space(side)
        self.action_space = self.env.action_space(side)  # sample() draws a legal action
        for other in self.env.possible_agents:
            if other != side:
                try:
                    probe = make_agent(opponent, other, 0)
                except ValueError as err:
                    raise EnvError(f"opponent: {err}") from None
                if getattr(probe, "human", False):
                    raise EnvError("opponent: a person at the terminal cannot be an environment's opponent")
        self.opponents: dict = {}
        self.session = None
        self.steps = 0

    def observation_fields(self) -> list[dict]:
        return self.env.observation_fields(self.side)

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """A new game (SEED as for the AEC environment's reset); the other
        sides play until the learner's first decision."""
        from ..agents import make_agent
        from ..runtime.record import Session

        super().reset(seed=seed)
        self.env.reset(seed=seed)
        game = self.env.game
        self.session = Session(self.env.opened, game)
        self.opponents = {other: make_agent(self.opponent, other, self.env.seed_used)
                          for other in self.env.possible_agents if other != self.side}
        self.steps = 0
        self._others_play()
        if game.over:
            raise EnvError(f"the game of seed {self.env.seed_used} ended without a decision of {self.side}'s: "
                           "nothing to learn from it")
        return self.env.observe(self.side), self._info()

    def step(self, action):
        env, g = self.env, self.env._started()
        p = g.s["pending"]
        if p is None:
            raise EnvError("the game is over: call reset()")
        before = env._scores_now()[self.side] if env.reward_kind == "evaluation" else None
        index = env._option_of(p, action)
        self.steps += 1
        if index is not None:
            env.page = 0
            try:
                g.choose(index + 1)
            except GameError as err:
                raise EnvError(f"the game stopped: {err}") from None
            self._others_play()
        reward = 0.0
        terminated = g.over
        if terminated:
            winner = g.outcome.winner
            reward = 0.0 if winner is None else (1.0 if winner == self.side else -1.0)
        elif before is not None:
            reward = env._scores_now()[self.side] - before
        truncated = not terminated and self.max_cycles is not None and self.steps >= self.max_cycles
        return self.env.observe(self.side), reward, terminated, truncated, self._info()

    def _others_play(self) -> None:
        g = self.env.game
        d = g.decision()
        try:
            while d is not None and d.by != self.side:
                agent = self.opponents.get(d.by)
                if agent is None:
                    raise EnvError(f"'{d.by}' must choose {d.choice}, but only sides have players")
                answer = agent.choose(self.session, d)
                d = g.choose(self.session.resolve(answer) + 1)
        except IllegalOption as err:
            raise EnvError(f"the opponent {self.opponent} answered illegally: {err.message}") from None
        except GameError as err:
            raise EnvError(f"the game stopped: {err}") from None
        self.env._advance(d)

    def _info(self) -> dict:
        return dict(self.env.infos.get(self.side, {}))

    def render(self):
        return self.env.render()

    def close(self):
        self.env.close()


__all__ = ["IllegalAction", "PogGym"]
