"""Actions: option i of the pending decision, masked to the legal ones,
paged when a decision has more options than the action space; anything
else refused with a clear error and the game unchanged."""

from __future__ import annotations

import numpy as np
import pytest

import pogdsl.env as E
from pogdsl.agents import make_agent
from pogdsl.env.aec import IllegalAction, default_action_size
from pogdsl.runtime.record import Session

from .conftest import TOY


def _play_to_a_decision_of(env, seed: int, at_least: int, limit: int = 4000):
    """Play ENV (reset with SEED) with pogdsl's random players, answering by
    the options' text, until a decision has AT_LEAST options."""
    env.reset(seed=seed)
    players = {s: make_agent("random", s, seed) for s in env.possible_agents}
    session = Session(env.opened, env.game)
    for _ in range(limit):
        p = env.game.s["pending"]
        assert p is not None, "the game ended before a decision that large"
        if len(p["options"]) >= at_least:
            return p
        answer = players[p["by"]].choose(session, env.game.decision())
        env.step(p["options"][answer - 1])
    raise AssertionError(f"no decision of {at_least} options in {limit} steps")


def test_every_legal_option_has_an_action_and_nothing_else_is_legal():
    env = E.aec_env("campaign")
    p = _play_to_a_decision_of(env, seed=1, at_least=100)  # the largest kind measured: 100 to 144 options
    n = len(p["options"])
    assert n <= env.action_size == default_action_size(env.world)
    mask = env.observe(p["by"])["action_mask"]
    assert mask.dtype == np.int8 and mask[:n].all() and not mask[n:].any()
    assert env.infos[p["by"]]["options"] == p["options"]
    before = env.game.copy()
    env.step(n - 1)  # the last option is the last action
    before.choose(n)
    assert env.game.state_hash() == before.state_hash()


def test_a_decision_larger_than_the_action_space_is_paged():
    env = E.aec_env("campaign", action_size=16)
    p = _play_to_a_decision_of(env, seed=1, at_least=100)
    n, by = len(p["options"]), p["by"]
    counts, pages = [], -(-n // 15)
    for page in range(pages):
        mask = env.action_mask(by)
        assert mask[15] == 1  # the page turn is always legal on a paged decision
        counts.append(int(mask[:15].sum()))
        assert env.observe(by)["observation"][env.layout.field("decision_own").start + 2] == page
        if page < pages - 1:
            env.step(15)
    assert sum(counts) == n and counts[:-1] == [15] * (pages - 1)
    before = env.game.copy()
    env.step(counts[-1] - 1)  # the last option of the last page: the decision's last option
    before.choose(n)
    assert env.game.state_hash() == before.state_hash()


def test_a_masked_out_action_is_refused_and_the_game_is_unchanged():
    env = E.aec_env("campaign")
    env.reset(seed=4)
    p = env.game.s["pending"]
    n = len(p["options"])
    before = env.game.state_hash()
    with pytest.raises(IllegalAction) as err:
        env.step(n)  # one past the last option
    text = str(err.value)
    assert f"has {n} legal option" in text and f"legal: actions 0 to {n - 1}" in text
    assert p["choice"] in text and all(rule in text for rule in p["rules"])
    for action in (-1, env.action_size, 2.5, "no such option at all"):
        with pytest.raises(IllegalAction):
            env.step(action)
    assert env.game.state_hash() == before


@pytest.mark.rule("toy 4.4")
def test_a_forbidden_option_named_by_its_text_is_refused_with_the_rule_that_forbids_it():
    # The toy rulebook's 4.4: nobody attacks into a forest on the first turn.
    # Sedan is the forest next to the Central Powers' Aachen.
    env = E.aec_env(str(TOY), forced=True)
    env.reset(seed=0)
    assert env.game.s["turn"] == 1 and env.agent_selection == "cp"
    assert "attack Sedan" not in env.infos["cp"]["options"]
    with pytest.raises(IllegalAction) as err:
        env.step("attack Sedan")
    assert "no_forest_attack" in str(err.value) and "4.4" in str(err.value)
    assert err.value.rules == ("4.4",)


def test_a_legal_option_may_be_named_by_its_text():
    env = E.aec_env(str(TOY), forced=True)
    env.reset(seed=0)
    option = env.infos["cp"]["options"][0]
    expected = env.game.copy()
    expected.choose(1)
    env.step(option)
    assert env.game.state_hash() == expected.state_hash()


def test_in_the_cyclic_mode_a_side_without_a_decision_waits():
    env = E.aec_env("campaign", cyclic=True)
    env.reset(seed=2)
    seen_wait = False
    for _ in range(60):
        agent = env.agent_selection
        p = env.game.s["pending"]
        if p["by"] != agent:
            assert env.action_mask(agent).tolist() == [1] + [0] * (env.action_size - 1)
            with pytest.raises(IllegalAction, match="its only action is 0"):
                env.step(1)
            seen_wait = True
        env.step(0)
    assert seen_wait


def test_the_gym_learner_plays_its_side_and_the_opponent_the_others():
    env = E.gym_env("campaign", side="cp", opponent="random", max_cycles=25)
    obs, info = env.reset(seed=6)
    steps = 0
    while True:
        game = env.env.game
        assert game.s["pending"]["by"] == "cp"  # every step is the learner's decision
        assert info["options"] == game.s["pending"]["options"]
        legal = np.flatnonzero(obs["action_mask"])
        obs, reward, terminated, truncated, info = env.step(int(legal[-1]))
        steps += 1
        if terminated or truncated:
            break
    assert truncated and steps == 25 and reward == 0.0


def test_a_refused_action_leaves_the_rewards_as_they_were():
    env = E.aec_env("campaign", reward="evaluation")
    env.reset(seed=4)
    legal = np.flatnonzero(env.action_mask(env.agent_selection))
    env.step(int(legal[0]))
    rewards, cumulative = dict(env.rewards), dict(env._cumulative_rewards)
    with pytest.raises(IllegalAction):
        env.step(env.action_size)
    assert env.rewards == rewards and env._cumulative_rewards == cumulative


def test_render_ansi_says_whose_decision_it_is():
    env = E.aec_env(str(TOY), render_mode="ansi", forced=True)
    env.reset(seed=0)
    text = env.render()
    assert "turn 1" in text and "cp chooses attack_target" in text and "attack Amiens" in text
    assert E.aec_env(str(TOY)).render() is None  # no render mode: nothing drawn


def test_max_cycles_cuts_the_game_once_a_side_has_taken_that_many_steps():
    env = E.aec_env("campaign", max_cycles=5)
    env.reset(seed=3)
    steps = dict.fromkeys(env.possible_agents, 0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            assert truncated and "max_cycles" in info["truncated"]
            env.step(None)
            continue
        steps[agent] += 1
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert max(steps.values()) == 5 and not env.game.over
