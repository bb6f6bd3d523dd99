"""The heuristic player `greedy` (agents/greedy.py): it picks legal options
only, plays the same game for the same seed, never reads what its side may
not see, judges peace terms by its evaluation (refusing while it is ahead,
accepting when clearly lost), plays a whole Campaign game, and plays a
person at the terminal, saying why it moved.  Its strength and speed are
measured in benchmarks/greedy.py, not here."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pogdsl.agents import GreedyAgent, RandomAgent, make_agent, play
from pogdsl.agents.evaluation import score
from pogdsl.opening import open_scenario
from pogdsl.runtime import rng
from pogdsl.runtime.hidden import determinize
from pogdsl.runtime.record import Session
from pogdsl.sim import game_seed, play_random

DUEL = Path(__file__).parent / "fixtures" / "duel"
MUSTER = Path(__file__).parent / "fixtures" / "muster"
REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def campaign():
    return open_scenario("campaign")


@pytest.fixture(scope="module")
def duel():
    return open_scenario("duel", DUEL)


def _at_decision(opened, seed: int, side: str, skip: int = 0):
    """A game of SEED at the SKIP-th decision of SIDE (both sides random)."""
    game = opened.new_game(seed, log=False)
    picker = RandomAgent(seed)
    d = game.run()
    seen = 0
    while d is not None:
        if str(d.by) == side:
            if seen == skip:
                return game
            seen += 1
        d = game.choose(picker.pick(d.options, d.weights) + 1)
    raise AssertionError("no such decision")


# ------------------------------------------------------------------ choosing

def test_the_spec_names_the_player():
    assert str(make_agent("greedy", "ap", 1)) == "greedy"
    assert str(make_agent("greedy:2", "ap", 1)) == "greedy:2"
    assert str(make_agent("greedy:4:0", "ap", 1)) == "greedy:4:0"
    for bad in ("greedy:0", "greedy:x", "greedy:4:x", "greedy:4:-1", "greedy:4:101", "greedy:4:" + "9" * 40):
        with pytest.raises(ValueError, match="greedy:K"):
            make_agent(bad, "ap", 1)
    assert str(make_agent("greedy:4:100", "ap", 1)) == "greedy:4:100"


def test_it_is_deterministic_for_a_seed(campaign):
    seed = game_seed(3, 0)
    first = play_random(campaign, seed, agents={"ap": "greedy"}, max_decisions=120)
    again = play_random(campaign, seed, agents={"ap": "greedy"}, max_decisions=120)
    assert first["hash"] == again["hash"]
    other = play_random(campaign, seed, agents={"ap": "random"}, max_decisions=120)
    assert other["hash"] != first["hash"]  # (the player did play its side)


def test_it_does_not_read_what_its_side_cannot_see(campaign):
    """Its pick is the same in two games its side cannot tell apart: the
    other side's hand, every deck order and the dice dealt differently."""
    checked = 0
    for seed in range(4):
        game = _at_decision(campaign, seed, "ap", skip=3)
        _, twin = determinize(game, "ap", rng.seed_state(99 + seed))
        assert twin.s["piles"]["hand:cp"] != game.s["piles"]["hand:cp"] or not game.s["piles"]["hand:cp"]
        assert GreedyAgent(seed=7).pick(game, "ap") == GreedyAgent(seed=7).pick(twin, "ap")
        checked += 1
    assert checked == 4


def test_it_takes_the_option_its_evaluation_prefers(duel):
    """On the duel a card's event moves the VP marker by the card's ops, the
    side's way: the player plays its biggest card (a random one would not)."""
    ops = {"Guns": 1, "Shells": 2, "Gas": 3, "Tanks": 4, "Zeppelin": 5, "Rifles": 1}
    for seed in range(6):
        game = _at_decision(duel, seed, "cp")
        options = game.legal_options()
        cards = [o.removeprefix("play ") for o in options]
        assert set(cards) <= set(ops) and len(set(ops[c] for c in cards)) > 1 or len(cards) < 2
        pick = GreedyAgent(seed=seed).pick(game, "cp")
        assert ops[cards[pick]] == max(ops[c] for c in cards)


def test_it_plays_its_own_next_decisions_on_to_see_a_later_gain():
    """On the muster fixture the VP marker moves only after the side's second
    decision of its turn, by what it mustered at the first: the player that
    plays its own next decisions on musters the most; one that looks only at
    the next decision (F = 0) sees three equal options and takes the
    heaviest, the smallest muster."""
    muster = open_scenario("muster", MUSTER)
    for seed in range(4):
        for side in ("ap", "cp"):
            game = muster.new_game(seed, log=False)
            d = game.run()
            if side == "cp":
                d = game.choose("muster 1")
                d = game.choose(1)
            assert str(d.by) == side and d.choice == "muster"
            assert game.legal_options()[GreedyAgent(seed).pick(game, side)] == "muster 3"
            assert game.legal_options()[GreedyAgent(seed, follow=0).pick(game, side)] == "muster 1"


def test_a_search_player_can_use_it_on_its_own_playout_game(campaign):
    """`pick(game, side, in_place=True)`: the options are tried on the game
    given (a playout, already drawn from the side's view), which is left at
    its decision, unchanged, as a playout policy needs."""
    for seed in range(3):
        game = _at_decision(campaign, seed, "cp", skip=2)
        _, playout = determinize(game, "cp", rng.seed_state(seed))
        before = playout.state_hash()
        pick = GreedyAgent(seed=1).pick(playout, "cp", in_place=True)
        assert playout.state_hash() == before and playout.s["pending"] is not None
        assert 0 <= pick < len(playout.legal_options())
        assert pick == GreedyAgent(seed=1).pick(playout, "cp", in_place=True)


# ------------------------------------------------------------------ peace terms

def _offered_peace(campaign, vp: int, strip: str | None = None):
    """A Campaign game where the Central Powers, at VP `vp`, offer peace terms
    in their first action and the Allies must answer; `strip`: a side whose
    units are all taken off the map first (eliminated)."""
    game = campaign.new_game(5, log=False)
    d = game.run()
    assert d.choice == "start_with_guns"
    game.s["vars"]["vp"] = vp
    if strip is not None:
        box = game.w.eliminated_box[strip]
        for u in game.w.units:
            loc = game.s["loc"][u.index]
            if u.data.side is not None and u.data.side.key == strip and loc is not None and 0 <= loc < len(game.w.spaces):
                game.move_unit(u, box)
    game.invalidate()
    d = game.choose("start with Guns of August in hand: no")
    while d.by != "cp" or d.choice != "take_action":
        d = game.choose(1)
    d = game.choose("peace_offer")
    assert d.choice == "answer_peace_terms" and str(d.by) == "ap"
    return game


def test_it_refuses_peace_while_it_is_ahead(campaign):
    game = _offered_peace(campaign, 11, strip="cp")  # the Central Powers' armies gone
    assert score(game, "ap") > 0.5
    for seed in range(3):
        pick = GreedyAgent(seed=seed).pick(game, "ap")
        assert game.legal_options()[pick] == "accept the peace terms: no"


def test_it_accepts_peace_when_clearly_losing(campaign):
    game = _offered_peace(campaign, 19)  # one VP from the Central Powers' automatic victory
    assert score(game, "ap") < 0.2
    for seed in range(3):
        pick = GreedyAgent(seed=seed).pick(game, "ap")
        assert game.legal_options()[pick] == "accept the peace terms: yes"


# ------------------------------------------------------------------ whole games

def test_it_plays_a_whole_campaign_game(campaign):
    result = play_random(campaign, game_seed(1, 0), agents={"ap": "greedy", "cp": "greedy"})
    assert result["error"] is None
    assert result["reason"] is not None and result["decisions"] > 100


def test_it_plays_the_duel_through_a_session(duel):
    for seed in range(3):
        session = Session.new(duel, seed)
        agents = {"ap": make_agent("greedy", "ap", seed), "cp": make_agent("greedy:2", "cp", seed)}
        assert play(session, agents, out=io.StringIO()) == "over"  # an illegal answer would raise
        assert agents["ap"].stats["decisions"] > 0


def _play_cli(*args, answers: list[str]) -> subprocess.CompletedProcess:
    """`pogdsl play ARGS` as a person runs it, typing ANSWERS."""
    env = {k: v for k, v in os.environ.items() if k != "POGDSL_HOME"}
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    proc = subprocess.run([sys.executable, "-m", "pogdsl.cli", "play", *args], cwd=REPO, env=env, text=True,
                          input="\n".join(answers) + "\n", capture_output=True, timeout=600, check=False)
    assert "Traceback" not in proc.stdout + proc.stderr
    return proc


def test_a_person_plays_it_at_the_terminal_and_sees_why_it_moved():
    """`play --ap human --cp greedy`: the person's typed answers, the
    computer's moves each with the decision's rules and its reasons."""
    proc = _play_cli("duel", "--root", DUEL, "--seed", "4", "--ap", "human", "--cp", "greedy", answers=["1"] * 40)
    out = proc.stdout
    assert proc.returncode == 0 and "Game over" in out
    moves = [line for line in out.splitlines() if line.startswith("  · cp chose: play ")]
    assert moves and all(line.rstrip().endswith("[2.0]") for line in moves)  # the decision's rule
    assert "why (greedy): judged" in out


def test_a_person_plays_it_on_the_campaign():
    proc = _play_cli("campaign", "--seed", "1", "--ap", "human", "--cp", "greedy", answers=["1"] * 30 + ["quit"])
    out = proc.stdout
    assert proc.returncode == 0, proc.stderr
    assert "  · cp chose: play 1 event (Guns of August)  [8.1.3, 8.1.4]" in out
    assert "why (greedy): judged" in out and "it differs in" in out
