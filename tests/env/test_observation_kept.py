"""The observation is kept up to date (layout.observe writes again only the
spaces, units, variables, entries of a variable and piles that changed):
whatever changed and however, it must be what a first observation of the
same state gives, and what an agent was given must never change after."""

from __future__ import annotations

import numpy as np
import pytest

import pogdsl.env as E
from pogdsl.env.layout import BOUND, STRETCH, _build, _changed, _changed_few, _kind_members, observe

from .conftest import TOY, masked_choice


def _fresh(env, side: str) -> np.ndarray:
    """SIDE's observation of ENV's game worked out from nothing (a layout of
    its own, never used before)."""
    return observe(_build(env.world), env.game, side, env.page)


def _differ(env, kept: np.ndarray, fresh: np.ndarray) -> list[str]:
    return [f.name for f in env.layout.fields if not np.array_equal(kept[f.start:f.stop], fresh[f.start:f.stop])]


@pytest.mark.parametrize("scenario", ["historical", "campaign", "suicide-of-europe", "illusions", str(TOY)])
def test_the_observation_kept_up_to_date_equals_a_fresh_one_in_every_scenario(scenario):
    # One layout observes the game all along; another, built afresh, sees
    # the position for the first time: both sides, every 7th step.
    env = E.aec_env(scenario, max_cycles=400)
    env.reset(seed=11)
    rng = np.random.default_rng(11)
    reference = _build(env.world)
    for n, agent in enumerate(env.agent_iter()):
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        if n % 7 == 0:
            for side in env.possible_agents:
                reference.forget()
                kept = env.observe(side)["observation"]
                assert not _differ(env, kept, observe(reference, env.game, side, env.page)), f"step {n}, {side}"
        env.step(masked_choice(rng, obs["action_mask"]))


def test_two_games_of_one_scenario_observed_in_turn_are_each_observed_right():
    # The layout is the compiled scenario's, shared by its environments: what
    # it kept of one game must not leak into the other's observation.
    one, two = E.aec_env("campaign"), E.aec_env("campaign")
    assert one.layout is two.layout
    one.reset(seed=1)
    two.reset(seed=2)
    rng = np.random.default_rng(0)
    for _ in range(60):
        for env in (one, two):
            agent = env.agent_selection
            obs = env.observe(agent)
            assert not _differ(env, obs["observation"], _fresh(env, agent))
            env.step(masked_choice(rng, obs["action_mask"]))


def test_an_observation_given_never_changes_afterwards():
    # A learner keeps observations (a replay buffer): each is its own array,
    # not a view of what the environment goes on writing.
    env = E.aec_env("campaign")
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    given, copies = [], []
    for _ in range(80):
        obs, _, _, _, _ = env.last()
        given.append(obs["observation"])
        copies.append(obs["observation"].copy())
        env.step(masked_choice(rng, obs["action_mask"]))
    assert all(np.array_equal(a, b) for a, b in zip(given, copies))
    assert not any(np.shares_memory(a, b) for a, b in zip(given, given[1:]))


def _declared_member(world, name: str):
    """A value of the kind variable NAME holds (its first member), or None
    when it holds numbers or yes/no."""
    typ = world.state_decls[name].type
    kind = typ.type.text if typ is not None and typ.type is not None else None
    members = _kind_members(world, kind) if kind not in (None, "int", "bool") else None
    return members[-1] if members else None


def _edits(world, name: str, value):
    """Ways the rules (or a caller) may change variable NAME, holding VALUE:
    each a function of the variables, changing them in place."""
    decl = world.state_decls[name]
    member = _declared_member(world, name)
    item = member if member is not None else 7
    if decl.scope is not None:
        scope = _kind_members(world, decl.scope.text)
        first, last = scope[0].scope, scope[-1].scope
        listed = bool(decl.type is not None and decl.type.is_list)
        new = [item] if listed else item

        def set_entry(v):
            v.setdefault(name, {})
            v[name][first] = new

        def entry_none(v):
            v[name][first] = None

        def another_entry(v):
            v[name][last] = new

        def drop_entry(v):
            v[name].pop(first, None)

        def all_gone(v):
            v[name] = None

        return [set_entry, entry_none, another_entry, drop_entry, all_gone]
    if isinstance(value, list):
        def append(v):
            v[name].append(item)

        def remove(v):
            v[name].remove(item)

        return [append, append, remove]

    def set_value(v):
        v[name] = item

    def huge(v):  # (clipped to the bound)
        v[name] = 10 ** 9 if member is None else None

    def odd(v):  # (a value of another kind: present)
        v[name] = "odd"

    def none(v):
        v[name] = None

    return [set_value, huge, odd, none]


@pytest.mark.parametrize("scenario", ["campaign", "illusions"])
def test_every_variable_changed_every_way_is_observed_as_afresh(scenario):
    # Each declared variable is changed in place, entry by entry where it is
    # kept per entity (set, set to none, another entity's, dropped, the
    # whole gone), and after each change the observation kept up to date is
    # the one a fresh layout gives.
    env = E.aec_env(scenario)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(30):
        env.step(masked_choice(rng, env.action_mask(env.agent_selection)))
    side = env.agent_selection
    values = env.game.s["vars"]
    reference = _build(env.world)
    for name in env.world.state_decls:
        for edit in _edits(env.world, name, values.get(name)):
            edit(values)
            kept = env.observe(side)["observation"]
            reference.forget()
            differ = _differ(env, kept, observe(reference, env.game, side, env.page))
            assert not differ, f"{name} after {edit.__name__}: {differ}"
    assert (np.abs(kept) <= BOUND).all()


def test_units_control_piles_and_events_changed_by_hand_are_observed_as_afresh():
    env = E.aec_env("campaign")
    env.reset(seed=6)
    rng = np.random.default_rng(6)
    for _ in range(40):  # (into the game: cards dealt)
        env.step(masked_choice(rng, env.action_mask(env.agent_selection)))
    s = env.game.s
    side, other = env.possible_agents
    assert s["piles"][f"hand:{side}"], "the position must have cards in hand"
    hand, discard = s["piles"][f"hand:{side}"], s["piles"][f"discard:{side}"]
    reference = _build(env.world)

    def moves():
        yield "a unit moved", lambda: s["loc"].__setitem__(3, (s["loc"][3] or 0) + 1)
        yield "a unit reduced", lambda: s["reduced"].__setitem__(5, not s["reduced"][5])
        yield "a unit out of play", lambda: s["loc"].__setitem__(7, None)
        yield "many units moved", lambda: s["loc"].__setitem__(slice(0, 60), [0] * 60)
        yield "a space changes hands", lambda: s["control"].__setitem__(2, other if s["control"][2] == side else side)
        yield "a fort destroyed", lambda: s["fort_destroyed"].__setitem__(4, True)
        yield "a card discarded", lambda: discard.append(hand.pop())
        yield "the draw piles reordered", lambda: [p.reverse() for n, p in s["piles"].items() if n.startswith("draw")]
        yield "an event played", lambda: s["played"].append(discard[-1])
        yield "the events forgotten", lambda: s["played"].clear()
        yield "the turn advanced", lambda: s.__setitem__("turn", s["turn"] + 1)

    for what, move in moves():
        move()
        for who in (side, other):
            kept = env.observe(who)["observation"]
            reference.forget()
            differ = _differ(env, kept, observe(reference, env.game, who, env.page))
            assert not differ, f"{what}, seen by {who}: {differ}"


def test_the_board_lists_changed_are_found_stretch_by_stretch_as_item_by_item():
    # The units' places and the spaces' control are compared a stretch at a
    # time (identity first, as a list comparison does) before item by item:
    # the same positions as comparing every item, whatever changed, wherever
    # (a stretch's first or last item, the short last stretch), to an equal
    # value of another object or to none.
    rng = np.random.default_rng(3)
    for n in (1, STRETCH - 1, STRETCH, STRETCH + 1, 193, 281):
        before = [int(x) if x < 300 else None for x in rng.integers(0, 320, n)]
        for _ in range(40):
            now = list(before)
            for i in rng.choice(n, size=int(rng.integers(0, min(n, 5) + 1)), replace=False):
                now[i] = rng.choice([None, int(rng.integers(0, 320)), 10 ** 6 + int(rng.integers(0, 2))])
            assert _changed_few(now, before) == _changed(now, before)
            before = now
