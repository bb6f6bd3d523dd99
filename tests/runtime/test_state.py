"""State is plain data: JSON round trips, save and load at any decision,
copies, hashes, determinism across processes, explicit chance."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from pogdsl.agents import RandomAgent
from pogdsl.runtime.interpreter import Game
from pogdsl.opening import open_scenario

from .conftest import REPO, RULES, TOY, random_choices


def roundtrip(game, world=None) -> Game:
    text = json.dumps(game.to_json())
    return Game.from_json(world or game.w, json.loads(text))


def finish(game, seed: int) -> str:
    for _ in random_choices(game, seed):
        pass
    return game.state_hash()


@pytest.mark.parametrize("seed", range(8))
def test_every_state_round_trips_through_json(rules, seed):
    game = Game.new(rules.world, seed)
    count = 0
    for _ in random_choices(game, seed):
        data = game.to_json()
        back = roundtrip(game)
        assert back.to_json() == data
        assert back.state_hash() == game.state_hash()
        assert back.decision() == game.decision()
        count += 1
    assert count > 0 and game.over
    assert roundtrip(game).state_hash() == game.state_hash()  # the final state too


@pytest.mark.parametrize("seed", [1, 2, 5])
def test_load_at_any_decision_continues_exactly(rules, seed):
    """Stop at decision k, save to JSON, load into a freshly built world (as
    another process would), play on with the same choices: same final hash."""
    fresh = open_scenario("toy_rules", RULES, cache=False).world
    expected = finish(Game.new(rules.world, seed), seed)
    n = sum(1 for _ in random_choices(Game.new(rules.world, seed), seed))
    for k in range(n):
        game = Game.new(rules.world, seed)
        agent = RandomAgent(seed)
        d = game.run()
        for _ in range(k):
            d = game.choose(agent.pick(d.options) + 1)
        loaded = roundtrip(game, fresh)
        d = loaded.decision()
        assert d is not None and d.options == game.decision().options
        while d is not None:
            d = loaded.choose(agent.pick(d.options) + 1)
        assert loaded.state_hash() == expected, f"diverged after loading at decision {k}"


def test_a_pool_and_a_pile_held_across_a_decision_survive_loading(rules):
    """Regressions: a pool (`let reserve = GEc`) used to come back as one of
    its pieces, and a pile (`hand(ap)`) could not be read in a new process."""
    game = Game.new(rules.world, 1)
    d = game.run()
    frame = next(f for f in game.s["stack"] if f["code"] == "procedure:germans_move")
    assert type(frame["l"]["reserve"]).__name__ == "Pool"
    fresh = open_scenario("toy_rules", RULES, cache=False).world
    loaded = roundtrip(game, fresh)
    frame = next(f for f in loaded.s["stack"] if f["code"] == "procedure:germans_move")
    assert type(frame["l"]["reserve"]).__name__ == "Pool"
    while d.choice != "play_card":
        d = game.choose(1)
    assert fresh.entity("pile", "hand:ap").key == "hand:ap"
    assert roundtrip(game, fresh).state_hash() == game.state_hash()
    with pytest.raises(KeyError):
        fresh.entity("pile", "hand:nobody")


def test_same_seed_same_choices_same_hash(toy):
    a, b = Game.new(toy.world, 3), Game.new(toy.world, 3)
    assert a.state_hash() == b.state_hash()
    assert finish(a, 9) == finish(b, 9)


def test_copy_is_independent(rules):
    game = Game.new(rules.world, 2)
    game.run()
    twin = game.copy()
    before = game.state_hash()
    finish(twin, 1)
    assert game.state_hash() == before
    assert finish(game, 1) == twin.state_hash()


def test_hash_ignores_the_log_but_not_the_dice(toy):
    game = Game.new(toy.world, 3)
    game.run()
    h = game.state_hash()
    game.s["log"].append({"turn": 1, "phase": None, "text": "noise", "rules": []})
    assert game.state_hash() == h
    game.s["dice"].append(6)
    assert game.state_hash() != h


SUBPROCESS = """
import json, sys
from pathlib import Path
from pogdsl.agents import RandomAgent
from pogdsl.runtime.interpreter import Game
from pogdsl.opening import open_scenario
opened = open_scenario("toy_rules", Path(sys.argv[1]))
hashes = []
for seed in range(6):
    g = Game.new(opened.world, seed)
    agent = RandomAgent(100 + seed)
    d = g.run()
    while d is not None:
        d = g.choose(agent.pick(d.options) + 1)
    hashes.append(g.state_hash())
print(json.dumps(hashes))
"""


def test_determinism_across_two_processes(rules, tmp_path):
    """The same seeds and choices in two processes (with different string
    hashing) reach the same final states, and the same as here."""
    import os

    outs = []
    for hashseed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=hashseed, PYTHONPATH=str(REPO))
        proc = subprocess.run([sys.executable, "-c", SUBPROCESS, str(RULES)], check=False, capture_output=True, text=True,
                              env=env, cwd=tmp_path, timeout=120)
        assert proc.returncode == 0, proc.stderr
        outs.append(json.loads(proc.stdout.strip().splitlines()[-1]))
    assert outs[0] == outs[1]
    here = []
    for seed in range(6):
        g = Game.new(rules.world, seed)
        agent = RandomAgent(100 + seed)
        d = g.run()
        while d is not None:
            d = g.choose(agent.pick(d.options) + 1)
        here.append(g.state_hash())
    assert outs[0] == here


def test_forced_dice_come_first(toy):
    game = Game.new(toy.world, 3, dice=[6, 1, 5])
    d = game.run()
    while d is not None:
        d = game.choose(1)
    rolls = [e["text"] for e in game.s["log"] if e["text"].startswith("rolled")]
    assert rolls == ["rolled 6", "rolled 1", "rolled 5"]
    assert game.s["dice"] == []


def test_random_agent_is_seeded_and_leaves_the_dice_alone(toy):
    a, b = RandomAgent(42), RandomAgent(42)
    options = [str(i) for i in range(10)]
    assert [a.pick(options) for _ in range(50)] == [b.pick(options) for _ in range(50)]
    game = Game.new(toy.world, 3)
    game.run()
    rng = game.s["rng"]
    RandomAgent(7).pick(options)
    assert game.s["rng"] == rng


def test_the_toy_game_plays_to_a_result(toy):
    game = Game.new(toy.world, 3)
    finish(game, 3)
    assert game.over and game.outcome.winner in ("ap", "cp", None)
    assert TOY.is_dir()


# ------------------------------------------------------------------ where eliminated units go

def test_eliminate_without_destination_uses_the_box_that_receives_eliminated(tmp_path):
    """The box is found by its `receives eliminated` role, not by its name."""
    import shutil

    root = tmp_path / "toy"
    shutil.copytree(TOY, root)
    source = root / "scenarios" / "toy.pog"
    text = source.read_text(encoding="utf-8")
    text = text.replace('box eliminated "Eliminated" per side receives eliminated',
                        'box graveyard "Graveyard" per side receives eliminated\nbox eliminated "Not this one" per side')
    text = text.replace("reduce 'FR 1'", "eliminate 'FR 1'")
    source.write_text(text, encoding="utf-8")
    opened = open_scenario("toy", root, cache=False)
    game = Game.new(opened.world, 1, dice=[6])
    d = game.run()
    while d is not None and game.s["loc"][opened.world.names["FR 1"].index] is not None \
            and game.s["loc"][opened.world.names["FR 1"].index] < len(opened.world.spaces):
        d = game.choose(1)
    fr = opened.world.names["FR 1"]
    where = opened.world.place_entity(game.s["loc"][fr.index])
    assert where.key == "graveyard[ap]"


def test_a_loop_with_where_passes_over_failing_items_in_one_step(rules):
    """`for u in units_of(player) where u.on_map` runs as one step that
    passes over the units off the map; a frame left at the test's own step
    (as a game saved before the loop ran in one step would hold) goes on the
    same way."""
    code = rules.world.codes["procedure:germans_move"]
    head = next(i for i, st in enumerate(code.steps) if st.op == "for_next")
    assert code.steps[head + 1].op == "branch" and code.steps[head + 1].jump == head

    game = Game.new(rules.world, 1)
    d = game.run()
    frame = next(f for f in game.s["stack"] if f["code"] == "procedure:germans_move")
    units = [u for u in rules.world.units if u.data.side is not None and u.data.side.key == "cp"]
    on_map = [u for u in units if game.s["loc"][u.index] is not None and game.s["loc"][u.index] >= 0]
    off_map = [u for u in units if u not in on_map]
    assert on_map and off_map, "the toy needs units on and off the map"
    asked = []
    while d is not None and d.choice == "move_to":
        asked.append(frame["l"]["u"])
        d = game.choose(len(d.options))  # "stay"
    assert asked == on_map

    again = Game.new(rules.world, 1)
    again.run()
    frame = next(f for f in again.s["stack"] if f["code"] == "procedure:germans_move")
    slot = next(k for k, v in frame["l"].items() if isinstance(v, list) and len(v) == 2 and isinstance(v[1], int))
    frame["l"]["u"] = off_map[0]  # as if the loop had just taken a unit off the map, before its test
    frame["pc"] = head + 1
    again.s["pending"] = None
    asked = []
    d = again.run()
    while d is not None and d.choice == "move_to":
        asked.append(frame["l"]["u"])
        d = again.choose(len(d.options))
    assert frame["l"].get(slot) is None and asked == on_map[1:]


DEEP_STATE = """
import json, sys
from pathlib import Path
from pogdsl.opening import open_scenario
from pogdsl.runtime.errors import LimitExceeded
from pogdsl.runtime.interpreter import Game

world = open_scenario("toy", Path(sys.argv[1])).world
for shape in ("list", "dict"):
    data = Game.new(world, 1).to_json()
    deep = 1
    for _ in range(100_000):
        deep = [deep] if shape == "list" else {"x": deep}
    data["vars"]["deep"] = deep
    try:
        Game.from_json(world, data)
    except LimitExceeded as err:
        print(shape, "refused:", err)
"""


def test_loading_a_state_nested_thousands_deep_is_refused(tmp_path):
    """Issue 35: a state whose data nested thousands deep crashed the
    interpreter (a segmentation fault in the compiled runtime) when loaded
    through the Python API.  It is refused with a one-line error; run in a
    subprocess, so a crash fails this test instead of ending pytest."""
    import os

    env = dict(os.environ, PYTHONPATH=str(REPO))
    proc = subprocess.run([sys.executable, "-c", DEEP_STATE, str(TOY)], check=False, capture_output=True, text=True,
                          env=env, cwd=tmp_path, timeout=120)
    assert proc.returncode == 0, (proc.returncode, proc.stderr[-2000:])
    assert proc.stdout.splitlines() == [f"{shape} refused: the state holds data nested more than 400 deep"
                                        for shape in ("list", "dict")], proc.stdout
