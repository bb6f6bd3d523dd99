"""A side's observation carries what that side may see and nothing else:
each side is dealt its hand from a shuffled draw pile (4.3.2), so neither
sees the other's hand nor any pile's order.  Another side's hand and every
draw pile's order are changed in the state, and the side's observation must
not move; its own hand changed, it must."""

from __future__ import annotations

import numpy as np
import pytest

import pogdsl.env as E

from .conftest import masked_choice


def _midgame(scenario: str, seed: int, steps: int):
    env = E.aec_env(scenario)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        agent = env.agent_selection
        if env.terminations[agent]:
            break
        env.step(masked_choice(rng, env.action_mask(agent)))
    return env


def _swap_hand_with_draw(state: dict, side: str) -> None:
    """Another game SIDE's opponent cannot tell from this one: one card of
    SIDE's hand traded for one of its draw pile (sizes kept), and every draw
    pile in another order."""
    hand, draw = state["piles"][f"hand:{side}"], state["piles"][f"draw:{side}"]
    assert hand and draw, "the position must have cards in hand and in the draw pile"
    hand[0], draw[-1] = draw[-1], hand[0]
    for name, pile in state["piles"].items():
        if name.startswith("draw:"):
            pile.reverse()


@pytest.mark.parametrize("scenario", ["campaign", "illusions"])
def test_the_other_sides_hand_and_the_deck_order_are_not_seen(scenario):
    env = _midgame(scenario, seed=5, steps=40)
    sides = env.possible_agents
    for me in sides:
        other = next(s for s in sides if s != me)
        before = env.observe(me)["observation"].copy()
        mine_before = env.observe(other)["observation"].copy()
        _swap_hand_with_draw(env.game.s, other)
        assert np.array_equal(env.observe(me)["observation"], before), f"{me} sees {other}'s hand or a deck order"
        # The side whose hand changed does see it: the test can fail.
        assert not np.array_equal(env.observe(other)["observation"], mine_before)


def test_the_pending_options_of_another_side_are_not_in_its_observation():
    # A decision's options name the cards of the hand it plays from: only the
    # side deciding is given them (infos, mask, the count in decision_own).
    env = _midgame("campaign", seed=2, steps=3)
    p = env.game.s["pending"]
    other = next(s for s in env.possible_agents if s != p["by"])
    assert not env.action_mask(other).any()
    assert "options" not in env.infos[other] and env.infos[p["by"]]["options"] == p["options"]
    own = env.layout.field("decision_own")
    assert not env.observe(other)["observation"][own.start:own.stop].any()
    assert env.observe(p["by"])["observation"][own.start + 1] == len(p["options"])


def test_the_observation_reads_no_part_of_the_state_hidden_from_every_side():
    from pogdsl.env.layout import READS
    from pogdsl.runtime.hidden import HIDDEN_STATE

    assert not set(READS) & set(HIDDEN_STATE)
    env = _midgame("campaign", seed=1, steps=5)
    me = env.possible_agents[0]
    before = env.observe(me)["observation"].copy()
    s = env.game.s
    s["rng"] = [1, 2]  # the generator, forced dice: nobody sees them
    s["dice"] = [6, 6, 6]
    assert np.array_equal(env.observe(me)["observation"], before)
