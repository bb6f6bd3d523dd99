"""The observation: fixed shape, laid out from the scenario's declarations,
every field documented, and reading what the state holds."""

from __future__ import annotations

import numpy as np
import pytest

import pogdsl.env as E
from pogdsl.env.aec import PogAEC

from .conftest import TOY


@pytest.mark.parametrize("scenario", ["campaign", "illusions", str(TOY)])
def test_the_fields_tile_the_vector_and_say_what_they_mean(scenario):
    env = E.aec_env(scenario)
    fields = env.observation_fields()
    assert [f["name"] for f in fields] == list(dict.fromkeys(f["name"] for f in fields))
    at = 0
    for f in fields:
        start, stop = map(int, f["slice"].split(":"))
        assert start == at and stop > start and f["meaning"]
        assert np.prod([int(x) for x in f["shape"].split("×")]) == stop - start
        at = stop
    assert at == env.observation_space("ap")["observation"].shape[0]


def test_a_variant_that_declares_more_gets_more_fields():
    # The Illusions variant adds a National Will track kept per nation.
    base = {f["name"] for f in E.observation_fields("campaign")}
    variant = {f["name"]: f for f in E.observation_fields("illusions")}
    assert "var:national_will" not in base and "var:national_will" in variant
    assert variant["var:national_will"]["shape"] == str(len(E.aec_env("illusions").world.nations))


def test_the_toy_board_is_read_from_the_state():
    env = E.aec_env(str(TOY))
    env.reset(seed=0)
    w, lay = env.world, env.layout
    obs = env.observe("ap")["observation"]
    spaces = [s.key for s in w.spaces]
    sides = list(env.possible_agents)
    control = obs[lay.field("space_control").start:lay.field("space_control").stop].reshape(len(spaces), -1)
    # The toy scenario: France's spaces are the Allies', Germany's the Central Powers'.
    assert control[spaces.index("Paris"), sides.index("ap")] == 1
    assert control[spaces.index("Koblenz"), sides.index("cp")] == 1
    trench = lay.field("var:trench")
    assert obs[trench.start + spaces.index("Paris")] == 1  # the set-up's trench
    nations = [n.key for n in w.nations]
    full = obs[lay.field("space_full_units").start:lay.field("space_full_units").stop].reshape(len(spaces), -1)
    reduced = obs[lay.field("space_reduced_units").start:lay.field("space_reduced_units").stop].reshape(
        len(spaces), -1)
    assert full[spaces.index("Paris"), nations.index("fr")] == 1  # FR 1
    assert reduced[spaces.index("Koblenz"), nations.index("ge")] >= 1  # a reduced GE corps
    hand = lay.field("cards")
    cards = obs[hand.start:hand.stop].reshape(hand.shape)
    assert not cards.any()  # the Allies see no card: Gas Attack is in the other hand
    cp = env.observe("cp")["observation"][hand.start:hand.stop].reshape(hand.shape)
    kinds = env.layout._pile_kinds
    assert cp[0, kinds.index("hand"), sides.index("cp")] == 1


def test_option_features_describe_the_pending_options():
    env = E.aec_env(str(TOY), forced=True, with_option_features=True)
    env.reset(seed=0)
    p = env.game.s["pending"]
    feats = env.observe(p["by"])["option_features"]
    n = len(p["options"])
    assert feats[:n, 0].all() and not feats[n:].any()
    spaces = [s.key for s in env.world.spaces]
    for row, values in zip(feats, p["values"]):
        assert row[2] == spaces.index(values[0].key) + 1


def test_bad_arguments_are_refused_in_one_line():
    for kw, fragment in [({"render_mode": "human"}, "render_mode"), ({"reward": "vp"}, "reward"),
                         ({"max_cycles": 0}, "max_cycles"), ({"action_size": 1}, "action_size")]:
        with pytest.raises(E.EnvError, match=fragment):
            PogAEC("campaign", **kw)
    with pytest.raises(E.EnvError, match="unknown scenario"):
        E.aec_env("no_such_scenario")
    with pytest.raises(E.EnvError, match="side 'xx'"):
        E.gym_env("campaign", side="xx")
    with pytest.raises(E.EnvError, match="opponent"):
        E.gym_env("campaign", side="ap", opponent="wizard")
    with pytest.raises(E.EnvError, match="option"):
        E.aec_env("campaign", options={"no_such_option": "on"})


def test_rewards_are_the_outcome():
    # Played by pogdsl's random players (whose weights keep a random game
    # plausible: uniform picks accept peace at once), seed 0 ends in a win.
    from pogdsl.agents import make_agent
    from pogdsl.runtime.record import Session

    env = E.aec_env("campaign")
    env.reset(seed=0)
    players = {s: make_agent("random", s, 0) for s in env.possible_agents}
    session = Session(env.opened, env.game)
    total = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        total[agent] += reward
        if terminated or truncated:
            assert info["outcome"] == env.game.outcome.text()
            env.step(None)
            continue
        env.step(players[agent].choose(session, env.game.decision()) - 1)
    winner = env.game.outcome.winner
    assert winner is not None
    loser = next(s for s in env.possible_agents if s != winner)
    assert total == {winner: 1.0, loser: -1.0}


@pytest.mark.parametrize("scenario", ["campaign", "suicide-of-europe"])
def test_the_observation_kept_up_to_date_equals_one_worked_out_afresh(scenario):
    # The layout writes again only what changed since a side's last
    # observation: all along a game, that must be what a first observation
    # of the same state gives.
    env = E.aec_env(scenario, max_cycles=150)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    lay = env.layout
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        lay.forget()
        fresh = env.observe(agent)["observation"]
        differ = [f.name for f in lay.fields
                  if not np.array_equal(fresh[f.start:f.stop], obs["observation"][f.start:f.stop])]
        assert not differ, f"kept up to date wrongly: {differ}"
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))


def test_nothing_before_reset():
    env = E.aec_env(str(TOY))
    for call in (lambda: env.step(0), lambda: env.observe("ap"), lambda: env.action_mask("ap")):
        with pytest.raises(E.EnvError, match="call reset"):
            call()
    gym = E.gym_env(str(TOY), side="ap", opponent="random")
    with pytest.raises(E.EnvError, match="call reset"):
        gym.step(0)


def test_the_evaluation_reward_is_the_change_of_each_sides_score():
    from pogdsl.agents.evaluation import score

    env = E.aec_env("campaign", reward="evaluation")
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    moved = False
    for _ in range(80):
        agent = env.agent_selection
        before = {a: score(env.game, a) for a in env.possible_agents}
        legal = np.flatnonzero(env.action_mask(agent))
        env.step(int(legal[rng.integers(len(legal))]))
        for a in env.possible_agents:
            assert env.rewards[a] == pytest.approx(score(env.game, a) - before[a])
            moved = moved or env.rewards[a] != 0
    assert moved  # the score does move in 80 decisions of the Campaign


@pytest.mark.rule("14.1.2")
def test_with_markers_a_unit_cut_off_from_its_sources_is_seen_out_of_supply():
    # 14.1.2: a unit is in supply when it traces a path of friendly-controlled
    # spaces to a friendly source. A German army set down in Orleans, whose
    # neighbours are all Allied, traces none; the display marks it OOS.
    env = E.aec_env("campaign", with_markers=True)
    env.reset(seed=0)
    g, w = env.game, env.world
    orleans = next(s for s in w.spaces if s.key == "Orleans")
    assert all(g.s["control"][n.index] == "ap" for n in w.neighbours[orleans.index])
    army = next(u for u in w.units if u.key == "GE 1")
    field = env.layout.field("marker:out_of_supply")
    assert not env.observe("ap")["observation"][field.start:field.stop].any()  # the set-up: all supplied
    g.move_unit(army, orleans.index)
    seen = env.observe("ap")["observation"][field.start:field.stop]
    assert seen[army.index] == 1 and seen.sum() == 1
    assert "marker:out_of_supply" not in {f["name"] for f in E.observation_fields("campaign")}  # only when asked


def test_an_environment_pickles_as_its_arguments():
    import pickle

    env = E.aec_env(str(TOY), max_cycles=9, action_size=16)
    again = pickle.loads(pickle.dumps(env))
    assert again.max_cycles == 9 and again.action_size == 16 and again.possible_agents == env.possible_agents
    again.reset(seed=1)
    env.reset(seed=1)
    assert np.array_equal(again.observe("cp")["observation"], env.observe("cp")["observation"])
    gym = pickle.loads(pickle.dumps(E.gym_env(str(TOY), side="cp", opponent="random")))
    assert gym.side == "cp" and gym.opponent == "random"
