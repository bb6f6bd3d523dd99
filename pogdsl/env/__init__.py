"""pogdsl as an environment for reinforcement learning: any scenario behind
PettingZoo's AEC (and parallel) API, and one side of it behind Gymnasium's.

    import pogdsl.env
    env = pogdsl.env.aec_env("campaign", max_cycles=500)
    env.reset(seed=1)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        action = None if terminated or truncated else env.action_space(agent).sample(obs["action_mask"])
        env.step(action)

PettingZoo, Gymnasium and numpy come with the `rl` extra
(`pip install pogdsl[rl]`); nothing else of pogdsl imports this package, so
the core install does not need them.  docs/environments.rst describes the
observation (field by field), the actions and their mask, the rewards, the
seeding and what each side may see.
"""

from __future__ import annotations

__all__ = ["EnvError", "IllegalAction", "aec_env", "gym_env", "observation_fields", "parallel_env"]


def _needs_rl():
    try:
        import gymnasium  # noqa: F401
        import numpy  # noqa: F401
        import pettingzoo  # noqa: F401
    except ImportError as err:
        from .scenario import EnvError

        raise EnvError(f"pogdsl.env needs the rl extra ({err.name} is missing): pip install 'pogdsl[rl]'") from None


def aec_env(scenario: str, *, options: dict | None = None, max_cycles: int | None = None,
            render_mode: str | None = None, **kw):
    """SCENARIO (a name or a .pog file, as `pogdsl play` takes it) as a
    PettingZoo AEC environment whose agents are its sides.  OPTIONS: the
    scenario's options (NAME → value); MAX_CYCLES: truncate the game once a
    side has taken that many steps; RENDER_MODE: None or "ansi".  Further
    keywords: `root` (the project folder), `action_size` (A, the size of
    the action space), `cyclic` (agents act in turn, waiting with action 0
    when the decision is another's), `reward` ("outcome", or "evaluation"
    for the change of the scenario's declared evaluation at each step),
    `with_option_features` (the options as numbers in the observation),
    `with_markers` (the display's value markers, such as a unit's supply, in
    the observation: costly), `forced` (offer decisions of one option too)."""
    _needs_rl()
    from .aec import PogAEC

    return PogAEC(scenario, options=options, max_cycles=max_cycles, render_mode=render_mode, **kw)


def parallel_env(scenario: str, **kw):
    """SCENARIO as a PettingZoo parallel environment: the cyclic AEC
    environment (every side acts at each step, the sides without a decision
    waiting) turned parallel by PettingZoo's own `aec_to_parallel`."""
    _needs_rl()
    from pettingzoo.utils.conversions import aec_to_parallel

    kw["cyclic"] = True
    return aec_to_parallel(aec_env(scenario, **kw))


def gym_env(scenario: str, *, side: str, opponent: str = "greedy", **kw):
    """SCENARIO as a Gymnasium environment: the learner plays SIDE, the other
    sides are played by OPPONENT, a player spec as `pogdsl play --cp` takes
    it (`random`, `greedy`, `mcts:8`, …).  Keywords as for `aec_env`."""
    _needs_rl()
    from .gym import PogGym

    return PogGym(scenario, side=side, opponent=opponent, **kw)


def observation_fields(scenario: str, **kw) -> list[dict]:
    """The fields of SCENARIO's observation vector: name, slice, shape and
    meaning, in order (what docs/environments.rst tabulates)."""
    return aec_env(scenario, **kw).observation_fields()


def __getattr__(name):
    if name in ("EnvError",):
        from .scenario import EnvError

        return EnvError
    if name == "IllegalAction":
        _needs_rl()
        from .aec import IllegalAction

        return IllegalAction
    raise AttributeError(name)
