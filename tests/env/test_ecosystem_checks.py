"""pogdsl.env checked by the ecosystems' own test suites: PettingZoo's
api_test, seed_test and max_cycles_test, and Gymnasium's check_env."""

from __future__ import annotations

import types
import warnings

import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, max_cycles_test, parallel_api_test, seed_test

import pogdsl.env as E

from .conftest import TOY

# The Campaign and a variant of it; their games are long, so every check is
# cut with max_cycles (the checks are about the API, not about whole games).
SCENARIOS = ["campaign", "suicide-of-europe"]


@pytest.fixture(autouse=True)
def _quiet():
    # The checkers advise names like "player_0" and plain Box observations:
    # the agents are the scenario's sides, the observation PettingZoo's
    # {"observation", "action_mask"} dict (as its own chess and connect-four).
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_api_test(scenario):
    api_test(E.aec_env(scenario, max_cycles=60), num_cycles=150)


def test_api_test_on_the_toy_game_to_its_end():
    api_test(E.aec_env(str(TOY)), num_cycles=1000)


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_seed_test(scenario):
    seed_test(lambda: E.aec_env(scenario, max_cycles=40), num_cycles=40)


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_max_cycles_test(scenario):
    # PettingZoo's test takes a module with `env` and `parallel_env`; a
    # parallel environment needs the sides to act in turn (cyclic).
    module = types.SimpleNamespace(
        env=lambda max_cycles: E.aec_env(scenario, max_cycles=max_cycles, cyclic=True),
        parallel_env=lambda max_cycles: E.parallel_env(scenario, max_cycles=max_cycles))
    max_cycles_test(module)


def test_parallel_api_test():
    parallel_api_test(E.parallel_env("campaign", max_cycles=30), num_cycles=40)


@pytest.mark.parametrize("scenario, opponent", [(str(TOY), "random"), (str(TOY), "greedy"), ("campaign", "random")])
def test_gymnasium_check_env(scenario, opponent):
    check_env(E.gym_env(scenario, side="ap", opponent=opponent, max_cycles=30), skip_render_check=True)
