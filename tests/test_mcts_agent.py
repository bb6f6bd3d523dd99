"""The mcts:N agent (agents/mcts.py) and the per-side view of a game it plays
with (runtime/hidden.py): it picks legal options only, plays the same game
for the same seed, cannot read what its side does not see, and beats a
random player on the duel fixture (tests/fixtures/duel), a small card game
with hidden hands and decks where a better card and a bolder push win more
often."""

from __future__ import annotations

import io
import math
from collections import Counter
from pathlib import Path

import pytest


from pogdsl.agents import MctsAgent, RandomAgent, make_agent, play
from pogdsl.cli import main
from pogdsl.opening import open_scenario
from pogdsl.runtime import rng
from pogdsl.runtime.hidden import determinize, hidden_from, view
from pogdsl.runtime.record import Session
from pogdsl.sim import game_seed, play_random, simulate

DUEL = Path(__file__).parent / "fixtures" / "duel"


@pytest.fixture(scope="module")
def duel():
    return open_scenario("duel", DUEL)


def _at_decision(opened, seed: int, side: str, skip: int = 0):
    """A game of SEED at a decision of SIDE with more than one option (the
    SKIP-th such), both sides playing at random by listing."""
    game = opened.new_game(seed, log=False)
    picker = RandomAgent(seed)
    d = game.run()
    seen = 0
    while d is not None:
        if str(d.by) == side and len(d.options) > 1:
            if seen == skip:
                return game
            seen += 1
        d = game.choose(picker.pick(d.options) + 1)
    raise AssertionError("no such decision")


def _hidden_shuffled(game, viewer: str, seed: int):
    """GAME with what VIEWER cannot see moved about by another generator: the
    other side's hand and deck dealt again, VIEWER's deck reordered, and the
    dice re-seeded — a game VIEWER cannot tell from GAME."""
    _, other = determinize(game, viewer, rng.seed_state(seed))
    return other


def _wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


# ------------------------------------------------------------------ the view

def test_which_piles_a_side_sees_is_by_kind():
    assert hidden_from("ap", "hand:cp") == "cards"
    assert hidden_from("ap", "draw:cp") == "cards"
    assert hidden_from("ap", "draw:ap") == "order"
    assert hidden_from("ap", "hand:ap") is None
    for kind in ("discard", "removed", "in_play"):
        assert hidden_from("ap", f"{kind}:cp") is None


def test_the_view_shows_own_hand_and_only_the_size_of_the_other_hand(duel):
    game = _at_decision(duel, 4, "ap")
    seen = view(game, "ap")
    piles = game.s["piles"]
    assert seen["piles"]["hand:ap"] == piles["hand:ap"]
    assert seen["piles"]["hand:cp"] == {"size": len(piles["hand:cp"])} and len(piles["hand:cp"]) == 3
    assert seen["piles"]["draw:cp"] == {"size": len(piles["draw:cp"])}
    assert seen["piles"]["draw:ap"] == {"cards": sorted(piles["draw:ap"])}
    assert "rng" not in seen and "dice" not in seen


def test_a_determinization_keeps_every_card_in_one_pile_and_every_size(duel):
    for seed in range(10):
        game = _at_decision(duel, seed, "ap", skip=seed % 4)
        before = game.s["piles"]
        state, other = determinize(game, "ap", rng.seed_state(100 + seed))
        after = other.s["piles"]
        assert {k: len(v) for k, v in after.items()} == {k: len(v) for k, v in before.items()}
        every = [c for cards in after.values() for c in cards]
        assert len(every) == len(set(every)) == len([c for cards in before.values() for c in cards])
        # what ap sees is untouched; only ap-hidden piles change, each owner's cards staying its own
        assert view(other, "ap") == view(game, "ap")
        assert sorted(after["hand:cp"] + after["draw:cp"]) == sorted(before["hand:cp"] + before["draw:cp"])
        assert after["hand:ap"] == before["hand:ap"]
        assert other.s["rng"] != game.s["rng"] and state != rng.seed_state(100 + seed)
        assert game.s["piles"] is before  # the game itself is not changed


def test_a_determinization_draws_the_hidden_cards_afresh(duel):
    game = _at_decision(duel, 2, "ap")
    hands = {tuple(determinize(game, "ap", rng.seed_state(s))[1].s["piles"]["hand:cp"]) for s in range(30)}
    assert len(hands) > 5  # the other side's hand is a guess, not the real one


def test_a_determinization_depends_only_on_the_view(duel):
    game = _at_decision(duel, 7, "ap", skip=1)
    twin = _hidden_shuffled(game, "ap", 99)
    assert twin.s["piles"]["hand:cp"] != game.s["piles"]["hand:cp"] or \
        twin.s["piles"]["draw:cp"] != game.s["piles"]["draw:cp"]
    assert view(twin, "ap") == view(game, "ap")
    a = determinize(game, "ap", rng.seed_state(5))
    b = determinize(twin, "ap", rng.seed_state(5))
    assert a[0] == b[0] and a[1].state_hash() == b[1].state_hash()


def test_the_agent_does_not_read_hidden_cards(duel):
    """Same view, same agent seed: the same choice, however the other side's
    hand, the decks and the dice really lie."""
    checked = 0
    for seed in range(8):
        game = _at_decision(duel, seed, "ap", skip=seed % 3)
        for k in range(3):
            twin = _hidden_shuffled(game, "ap", 1000 * seed + k)
            assert view(twin, "ap") == view(game, "ap")
            picks = [MctsAgent(12, seed=42).pick(g, "ap") for g in (game, twin)]
            assert picks[0] == picks[1]
            checked += 1
    assert checked == 24


def test_the_agent_finds_the_better_option():
    """The view test has teeth: the agent does weigh its options.  Pushing 2
    gains 2 VP on a roll of 1-4 (4/3 expected), pushing 1 gains 1 on 1-2
    (1/3), pushing 0 nothing; with playouts cut after 4 decisions the
    evaluation (the VP lead) tells them apart."""
    duel = open_scenario("duel", DUEL)
    picks = []
    for seed in range(6):
        game = _at_decision(duel, seed, "cp", skip=1)
        assert game.legal_options() == ["push 0", "push 1", "push 2"]
        picks.append(MctsAgent(60, seed=3, depth=4).pick(game, "cp"))
    assert picks == [2] * 6


# ------------------------------------------------------------------ the agent

def test_the_agent_picks_only_legal_options(duel):
    for seed in range(6):
        session = Session.new(duel, seed)
        agents = {"ap": make_agent("mcts:6", "ap", seed), "cp": make_agent("mcts:4:3", "cp", seed)}
        out = io.StringIO()
        assert play(session, agents, out=out) == "over"  # an illegal answer would raise
        assert agents["ap"].stats["decisions"] > 0 and agents["cp"].stats["decisions"] > 0


def test_the_agent_is_deterministic_for_a_seed(duel):
    seed = game_seed(0, 5)
    first = play_random(duel, seed, agents={"ap": "mcts:8", "cp": "mcts:5"})
    again = play_random(duel, seed, agents={"ap": "mcts:8", "cp": "mcts:5"})
    assert first["error"] is None and first["hash"] == again["hash"]
    assert MctsAgent(10, seed=1).pick(_at_decision(duel, 3, "ap"), "ap") == \
        MctsAgent(10, seed=1).pick(_at_decision(duel, 3, "ap"), "ap")


def test_simulate_and_play_play_the_same_game(duel):
    """`simulate --ap mcts:N` game i is `play --seed <its seed> --ap mcts:N --cp random`."""
    seed = game_seed(0, 3)
    simulated = play_random(duel, seed, agents={"ap": "mcts:10"})
    session = Session.new(duel, seed)
    play(session, {"ap": make_agent("mcts:10", "ap", seed), "cp": make_agent("random", "cp", seed)},
         out=io.StringIO())
    assert simulated["hash"] == session.game.state_hash()


def test_the_agent_beats_random_on_the_duel(duel):
    """On the same seeds, mcts:10 as the Allies wins clearly more often than a
    random Allied player: the lower end of its 95% Wilson interval is above
    the random player's win rate (and above an even game)."""
    games = 60
    wins = Counter()
    baseline = Counter()
    for i in range(games):
        seed = game_seed(11, i)
        wins[play_random(duel, seed, agents={"ap": "mcts:10"})["winner"]] += 1
        baseline[play_random(duel, seed)["winner"]] += 1
    low, _ = _wilson(wins["ap"], games)
    assert low > max(0.5, baseline["ap"] / games), (wins, baseline)


def test_a_cut_playout_is_scored_by_the_declared_evaluation(duel):
    """A position is worth more to the side the VP lead favours, the more so
    the bigger the lead; the two sides' scores add up to one; a finished game
    scores its result."""
    from pogdsl.agents.mcts import score

    game = _at_decision(duel, 0, "ap")
    scores = []
    for vp in (20, 22, 24, 30):
        game.s["vars"]["vp"] = vp
        game.invalidate()
        scores.append(score(game, "cp"))
        assert score(game, "cp") + score(game, "ap") == pytest.approx(1.0)
    assert scores[0] == pytest.approx(0.5) and scores[0] < scores[1] < scores[2] < scores[3] < 1.0
    game.s["result"] = {"winner": "ap", "reason": "test", "rules": []}
    assert score(game, "ap") == 1.0 and score(game, "cp") == 0.0


# ------------------------------------------------------------------ the command line

def test_simulate_takes_an_mcts_player(capsys):
    code = main(["simulate", "duel", "--root", str(DUEL), "--games", "3", "--workers", "1", "--ap", "mcts:5",
                 "--cp", "random", "--json"])
    assert code == 0
    import json

    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["agents"] == {"ap": "mcts:5", "cp": "random"} and summary["finished"] == 3
    speed = summary["agent_speed"]
    assert list(speed) == ["ap"] and speed["ap"]["decisions"] == 3 * 12  # two choices a turn, six turns
    assert speed["ap"]["decisions_per_second"] > 0


@pytest.mark.parametrize("command", ["simulate", "play"])
@pytest.mark.parametrize("spec", ["mcts:0", "mcts:abc", "mcts", "mcts:5:0"])
def test_a_bad_mcts_spec_is_a_one_line_usage_error(capsys, command, spec):
    args = [command, "duel", "--root", str(DUEL), "--ap", spec]
    code = main(args + (["--games", "1", "--workers", "1"] if command == "simulate" else []))
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2
    assert len([line for line in err if "error" in line]) == 1 and "mcts" in err[-1]


def test_simulate_refuses_players_it_cannot_run(capsys):
    assert main(["simulate", "duel", "--root", str(DUEL), "--games", "1", "--cp", "human"]) == 2
    assert "cannot play a batch of games" in capsys.readouterr().err
    script = DUEL / "no-such-script.txt"
    assert main(["simulate", "duel", "--root", str(DUEL), "--games", "1", "--cp", f"script:{script}"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "error" in err[0]


def test_play_parses_mcts(capsys):
    code = main(["play", "duel", "--root", str(DUEL), "--seed", "2", "--ap", "mcts:5", "--cp", "random"])
    captured = capsys.readouterr()
    assert code == 0 and "Game over" in captured.out and "ap: mcts:5" in captured.err


def test_the_campaign_declares_an_evaluation():
    opened = open_scenario("campaign")
    assert opened.world.terms and all(t.cites and t.note for t in opened.world.terms)
    game = opened.new_game(1, log=False)
    game.run()
    from pogdsl.agents.mcts import score

    assert score(game, "ap") + score(game, "cp") == pytest.approx(1.0)


def test_a_campaign_determinization_keeps_the_piles():
    """The same, on the Campaign's real piles (hands of 7, the Mobilization
    deck, cards in play) a few rounds in."""
    opened = open_scenario("campaign")
    game = _at_decision(opened, 5, "ap", skip=12)
    before = game.s["piles"]
    assert before["hand:cp"] and before["draw:cp"]
    for seed in range(3):
        _, other = determinize(game, "ap", rng.seed_state(seed))
        after = other.s["piles"]
        assert {k: len(v) for k, v in after.items()} == {k: len(v) for k, v in before.items()}
        assert sorted(c for v in after.values() for c in v) == sorted(c for v in before.values() for c in v)
        assert sorted(after["hand:cp"] + after["draw:cp"]) == sorted(before["hand:cp"] + before["draw:cp"])
        assert after["hand:ap"] == before["hand:ap"] and view(other, "ap") == view(game, "ap")
        assert other.decision().options == game.decision().options  # ap's own decision is unchanged
