"""The ismcts:N agent (agents/ismcts.py): information-set tree search over
both sides' options.  It picks legal options only, plays the same game for
the same seed, cannot read what its side does not see, keys its tree by the
options' texts so one tree serves determinizations with different legal
options, keeps the subtree under its choice for its next decision, and
finds a winning move on the duel fixture (tests/fixtures/duel: a card game
with hidden hands and decks) that a random player misses."""

from __future__ import annotations

import io
import json
from pathlib import Path
from types import SimpleNamespace

import pytest


from pogdsl.agents import IsmctsAgent, RandomAgent, make_agent, play
from pogdsl.agents.ismcts import Node
from pogdsl.cli import main
from pogdsl.opening import open_scenario
from pogdsl.runtime import rng
from pogdsl.runtime.hidden import determinize, view
from pogdsl.runtime.record import Session
from pogdsl.sim import game_seed, play_random
from pogdsl.sim.stats import wilson

DUEL = Path(__file__).parent / "fixtures" / "duel"
OPS = {"Guns": 1, "Shells": 2, "Gas": 3, "Tanks": 4, "Zeppelin": 5, "Rifles": 1}  # the duel's CP cards


@pytest.fixture(scope="module")
def duel():
    return open_scenario("duel", DUEL)


def _at(opened, seed: int, found):
    """A game of SEED at the first decision FOUND(game, decision) accepts,
    both sides playing at random by listing (None if the game ends first)."""
    game = opened.new_game(seed, log=False)
    picker = RandomAgent(seed)
    d = game.run()
    while d is not None:
        if found(game, d):
            return game
        d = game.choose(picker.pick(d.options) + 1)
    return None


def _at_decision(opened, seed: int, side: str, choice: str | None = None, skip: int = 0):
    """SIDE's SKIP-th decision with more than one option (of CHOICE if given)."""
    seen = []

    def found(game, d):
        if str(d.by) == side and len(d.options) > 1 and choice in (None, d.choice):
            seen.append(d)
            return len(seen) > skip
        return False

    game = _at(opened, seed, found)
    assert game is not None, "no such decision"
    return game


def _twin(game, viewer: str, seed: int):
    """GAME with what VIEWER cannot see dealt again by another generator: the
    other side's hand and deck, VIEWER's deck order and the dice."""
    return determinize(game, viewer, rng.seed_state(seed))[1]


# ------------------------------------------------------------------ what it may read

def test_the_agent_does_not_read_hidden_cards(duel):
    """Same view, same agent seed: the same choice, however the other side's
    hand, the decks and the dice really lie."""
    checked = 0
    for seed in range(8):
        game = _at_decision(duel, seed, "ap", skip=seed % 3)
        for k in range(3):
            twin = _twin(game, "ap", 1000 * seed + k)
            assert view(twin, "ap") == view(game, "ap")
            if k == 0:
                assert twin.s["piles"]["hand:cp"] != game.s["piles"]["hand:cp"]
            agents = [IsmctsAgent(24, seed=42) for _ in range(2)]
            assert agents[0].pick(game, "ap") == agents[1].pick(twin, "ap")
            # not only the choice: the whole search saw the same thing
            assert _tree(agents[0].root) == _tree(agents[1].root)
            checked += 1
    assert checked == 24


def test_a_kept_subtree_does_not_read_hidden_cards(duel):
    """The same over two decisions in a row (a card, then the push), the
    second searched from the subtree kept from the first."""
    for seed in range(4):
        game = _at_decision(duel, seed, "ap", choice="play_card", skip=seed % 3)
        twin = _twin(game, "ap", 500 + seed)
        agents = [IsmctsAgent(16, seed=8) for _ in range(2)]
        first = [a.pick(g, "ap") for a, g in zip(agents, (game, twin))]
        assert first[0] == first[1]
        for g in (game, twin):
            g.choose(first[0] + 1)
        assert view(twin, "ap") == view(game, "ap")
        assert agents[0].pick(game, "ap") == agents[1].pick(twin, "ap")
        assert agents[0].stats["kept"] == agents[1].stats["kept"] == 1
        assert _tree(agents[0].root) == _tree(agents[1].root)


def _tree(node: Node) -> dict:
    return {key: (child.visits, round(child.total, 9), child.available, _tree(child))
            for key, child in node.children.items()}


def test_a_campaign_choice_does_not_depend_on_the_other_hand():
    """The same on the Campaign, where a hand is 7 cards and the decks are long."""
    opened = open_scenario("campaign")
    game = _at_decision(opened, 5, "cp", skip=6)
    twin = _twin(game, "cp", 77)
    assert twin.s["piles"]["hand:ap"] != game.s["piles"]["hand:ap"]
    assert view(twin, "cp") == view(game, "cp")
    picks = [IsmctsAgent(6, seed=9, horizon=4).pick(g, "cp") for g in (game, twin)]
    assert picks[0] == picks[1]
    assert 0 <= picks[0] < len(game.legal_options())


# ------------------------------------------------------------------ the screened search (ismcts:N)

class _Seen:
    """A playout policy that passes every decision to the heuristic one and
    notes the hidden piles of each game it is asked about: the games the
    search dealt itself."""

    def __init__(self, inner, piles):
        self.inner, self.piles, self.seen = inner, piles, []

    @property
    def player(self):  # (the search marks and restores the heuristic player's generator)
        return self.inner.player

    def pick(self, game, side: str) -> int:
        self.seen.append(tuple(tuple(game.s["piles"][p]) for p in self.piles))
        return self.inner.pick(game, side)


def _spec_agent(spec: str, seed: int) -> IsmctsAgent:
    from pogdsl.agents.ismcts import parse_spec

    return parse_spec(spec.removeprefix("ismcts:"), seed)


def _contested(opened, side: str, spec: str, seed: int, first_game: int = 0):
    """(a game at a decision of SIDE that `ismcts:N` of SEED searches, the
    agent that searched it)."""
    for g in range(first_game, first_game + 40):
        game = opened.new_game(game_seed(3, g), log=False)
        picker = RandomAgent(g)
        d = game.run()
        while d is not None:
            if str(d.by) == side and len(d.options) > 1:
                agent = _spec_agent(spec, seed)
                before = game.copy()
                agent.pick(game, side)
                if agent.stats["searched"]:
                    return before, agent
            d = game.choose(picker.pick(d.options) + 1)
    raise AssertionError("no contested decision found")


def test_the_screened_search_deals_worlds_without_the_real_hidden_cards(duel):
    """The worlds the search plays out are dealt from the side's view: two
    games the side cannot tell apart give the search the very same worlds
    (so it never read where the other hand's cards really are), and those
    worlds hold other hands than the real one."""
    hidden = ("hand:cp", "draw:cp", "draw:ap")
    for k in range(3):
        game, _ = _contested(duel, "ap", "ismcts:12", seed=k, first_game=10 * k)
        twin = _twin(game, "ap", 300 + k)
        assert view(twin, "ap") == view(game, "ap") and twin.s["piles"]["hand:cp"] != game.s["piles"]["hand:cp"]
        seen = []
        for g in (game, twin):
            agent = _spec_agent("ismcts:12", k)
            agent.policy = _Seen(agent.policy, hidden)
            seen.append((agent.pick(g, "ap"), agent.policy.seen, _tree(agent.root)))
        assert seen[0] == seen[1] and seen[0][1]
        real = tuple(game.s["piles"]["hand:cp"])
        assert any(piles[0] != real for piles in seen[0][1])


def test_a_campaign_search_does_not_depend_on_the_other_hand():
    opened = open_scenario("campaign")
    game = _at_decision(opened, 5, "cp", skip=6)
    twin = _twin(game, "cp", 78)
    assert twin.s["piles"]["hand:ap"] != game.s["piles"]["hand:ap"]
    agents = [_spec_agent("ismcts:4:2", 9) for _ in range(2)]
    for _ in range(3):  # three decisions in a row, whoever searches them
        picks = [a.pick(g, "cp") for a, g in zip(agents, (game, twin))]
        assert picks[0] == picks[1] and _same_but_time(agents)
        if game.choose(picks[0] + 1) is None or str(game.s["pending"]["by"]) != "cp":
            break
        twin.choose(picks[0] + 1)


def _same_but_time(agents) -> bool:
    strip = [{k: v for k, v in a.stats.items() if "seconds" not in k} for a in agents]
    return strip[0] == strip[1]


def test_a_clear_decision_takes_the_heuristic_players_answer(duel):
    """Where the heuristic player's look-ahead tells the options clearly
    apart (or cannot tell them apart at all), `ismcts:N` takes its answer
    without a search: the same option as `greedy` of the same seed."""
    from pogdsl.agents.greedy import GreedyAgent
    from pogdsl.runtime.record import derive_seed

    checked = 0
    for g in range(6):
        game = duel.new_game(game_seed(5, g), log=False)
        agent, greedy = _spec_agent("ismcts:6", g), GreedyAgent(derive_seed(g, "screen"))
        picker = RandomAgent(g)
        d = game.run()
        while d is not None:
            if str(d.by) == "ap" and len(d.options) > 1:
                searched = agent.stats["searched"]
                mine, its = agent.pick(game, "ap"), greedy.pick(game, "ap")
                if agent.stats["searched"] == searched:
                    assert mine == its
                    checked += 1
                d = game.choose(mine + 1)
            else:
                d = game.choose(picker.pick(d.options) + 1)
    assert checked >= 20
    assert agent.stats["searched"] < agent.stats["decisions"]


def test_a_contested_decision_plays_each_candidate_on_the_same_deals(duel):
    """A searched decision weighs at most WIDTH options, each played from
    every deal of the first rounds: the same number of iterations each, the
    heuristic player's choice in every round (more only for an undecided
    search, at most EXTRA times more)."""
    from pogdsl.agents.ismcts import EXTRA, WIDTH

    game, agent = _contested(duel, "cp", "ismcts:10", seed=4)
    agent = _spec_agent("ismcts:10", 4)
    index = agent.pick(game, "cp")
    children = agent.root.children
    assert 2 <= len(children) <= WIDTH
    assert ("cp", game.legal_options()[index]) in children
    rounds = -(-10 // len(children))
    visits = sorted(c.visits for c in children.values())
    assert all(v % rounds == 0 and rounds <= v <= rounds * (1 + EXTRA) for v in visits)
    assert visits[-1] == rounds * (1 + agent.stats["extended"])  # the heuristic player's choice: every round
    assert agent.stats["iterations"] == sum(visits)


def test_a_lead_within_the_noise_does_not_override_the_heuristic_player_under_a_gate():
    """Under a gate (ismcts:N:H:Z, Z > 0) the search replaces the heuristic
    player's choice only with an option that beat it on the same deals by
    clearly more than the rounds scatter: a better mean alone is not
    enough.  Without one (Z = 0, ismcts:N) any lead is taken."""
    from pogdsl.agents.ismcts import IsmctsAgent

    choice, close, clear, behind = 0, 1, 2, 3
    scores = {choice: [0.50, 0.60, 0.40, 0.55, 0.45, 0.50],
              close: [0.60, 0.50, 0.50, 0.50, 0.55, 0.52],  # ahead by 0.02 on average, now up, now down
              clear: [0.56, 0.67, 0.45, 0.62, 0.50, 0.57],  # ahead in every round, by 0.05 to 0.07
              behind: [0.40, 0.50, 0.30, 0.45, 0.35, 0.40]}
    lead = IsmctsAgent._lead
    assert lead(choice, [choice, close, behind], scores, 2) == (choice, [choice, close])
    assert lead(choice, [choice, close, clear, behind], scores, 2) == (clear, [choice, close, clear])
    assert lead(choice, [choice, close, behind], scores, 0) == (close, [choice])
    assert lead(choice, [choice, behind], scores, 0) == (choice, [choice])
    tied = {choice: [0.5] * 6, close: [0.5] * 6}
    assert lead(choice, [choice, close], tied, 2) == (choice, [choice])
    assert lead(choice, [choice, close], tied, 0) == (choice, [choice])


def test_an_evaluation_that_tells_the_options_apart_by_nothing_keeps_the_heuristic_choice(duel):
    """Scored by an evaluation that is the same for every position, no
    option leads the heuristic player's choice: every searched decision
    takes its answer, and a gated search goes on past its first rounds
    none of the time (only a rival ahead is worth more of them)."""
    from pogdsl.agents.greedy import GreedyAgent
    from pogdsl.runtime.record import derive_seed

    searched = 0
    for k in range(6):
        spec = "ismcts:8:40:2" if k % 2 else "ismcts:8"
        game, _ = _contested(duel, "ap", spec, seed=k, first_game=10 * k)
        agent = _spec_agent(spec, k)
        agent.evaluate = lambda g, side: 0.5
        greedy = GreedyAgent(derive_seed(k, "screen"))
        assert agent.pick(game, "ap") == greedy.pick(game, "ap")
        searched += agent.stats["searched"]
        assert agent.stats["overridden"] == 0 and agent.stats["extended"] == 0
    assert searched == 6


def test_a_gated_search_plays_more_rounds_only_while_a_rival_is_ahead(duel):
    """Under a gate every searched decision plays its first rounds over all
    its candidates; more rounds only over the heuristic player's choice and
    rivals still ahead of it; never more than (1 + EXTRA) times the first.
    Scored by noise, rivals are now ahead, now behind, and seldom clearly:
    some searches go on, and few override the heuristic player."""
    import random

    from pogdsl.agents.ismcts import EXTRA

    extended = overridden = 0
    for k in range(8):
        game, _ = _contested(duel, "cp", "ismcts:6:40:2", seed=k, first_game=5 * k)
        agent = _spec_agent("ismcts:6:40:2", k)
        noise = random.Random(k)
        agent.evaluate = lambda g, side: noise.random()
        agent.pick(game, "cp")
        visits = sorted((c.visits for c in agent.root.children.values()), reverse=True)
        rounds = -(-6 // len(visits))
        assert visits[0] == rounds * (1 + agent.stats["extended"]) <= rounds * (1 + EXTRA)
        assert all(v % rounds == 0 and rounds <= v <= visits[0] for v in visits)
        extended += agent.stats["extended"] > 0
        overridden += agent.stats["overridden"]
    assert extended >= 2 and overridden <= 2
    assert agent.label == "ismcts:6:40:2"


def _searched_choices(opened, side: str, spec: str, games: int) -> list[str]:
    """The choices `ismcts:N` of SIDE searched over GAMES duel games, the
    other side playing at random."""
    searched = []
    for g in range(games):
        game = opened.new_game(game_seed(6, g), log=False)
        agent, picker = _spec_agent(spec, g), RandomAgent(g)
        d = game.run()
        while d is not None:
            if str(d.by) == side and len(d.options) > 1:
                before = agent.stats["searched"]
                index = agent.pick(game, side)
                if agent.stats["searched"] > before:
                    searched.append(d.choice)
                d = game.choose(index + 1)
            else:
                d = game.choose(picker.pick(d.options) + 1)
    return searched


def test_only_a_decision_that_opens_the_sides_action_is_searched(duel):
    """In the duel a side's round is its card, then its push right after
    (tests/fixtures/duel): the card opens the round and is searched when
    contested, the push that follows it never is."""
    for side in ("ap", "cp"):
        searched = _searched_choices(duel, side, "ismcts:6", games=6)
        assert searched and set(searched) == {"play_card"}


def test_a_playout_plays_through_the_other_sides_round(duel):
    """A searched card play is played out through the side's own push and
    the other side's whole round (its card, its push), and scored when the
    side is back at its next card (or the game is over): the score is read
    after the reply, not before it."""
    from pogdsl.agents.evaluation import score

    checked = 0
    for k in range(12):
        game = _at_decision(duel, 20 + k, "ap", choice="play_card", skip=k % 3)
        agent = _spec_agent("ismcts:12:40", k)
        scored = []

        def evaluate(g, side, scored=scored):
            pending = g.s["pending"]
            scored.append((pending and (str(pending["by"]), pending["choice"]), g.s["decisions"]))
            return score(g, side)

        agent.evaluate = evaluate
        at = game.s["decisions"]
        agent.pick(game, "ap")
        if not agent.stats["searched"]:
            continue  # a clear choice: nothing played out
        checked += 1
        assert scored
        for pending, decisions in scored:
            assert pending in (None, ("ap", "play_card"))
            if pending is not None:  # the card chosen, the push, the other side's card and push
                assert decisions >= at + 4
    assert checked >= 3


def test_a_short_ladder_with_the_search_player(capsys):
    """`pogdsl ladder` plays ismcts:N against the others on both sides."""
    code = main(["ladder", "duel", "--root", str(DUEL), "--players", "random,greedy,ismcts:4", "--games", "2",
                 "--workers", "1", "--json"])
    assert code == 0
    s = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert s["players"] == ["random", "greedy", "ismcts:4"] and s["games"] == 18 and s["finished"] == 18
    assert s["matrix"]["ismcts:4"]["greedy"]["games"] == 4
    assert set(s["ratings"]["players"]) == {"random", "greedy", "ismcts:4"}


# ------------------------------------------------------------------ the tree

def test_the_tree_is_keyed_by_option_texts_across_determinizations(duel):
    """After AP's push the CP plays a card from a hand AP cannot see: each
    determinization deals CP another hand, so CP's legal options differ from
    one iteration to the next.  The tree keeps one node per card text, each
    counted as available only when that card was in the hand dealt, and
    visited no more often than it was available."""
    game = _at_decision(duel, 3, "ap", choice="push", skip=1)
    agent = IsmctsAgent(200, seed=1)
    agent.pick(game, "ap")
    hand_size = len(game.s["piles"]["hand:cp"])
    for (by, text), child in agent.root.children.items():
        assert by == "ap" and text.startswith("push ")
        cp_nodes = child.children
        assert all(by == "cp" and text.startswith("play ") for by, text in cp_nodes)
        assert len(cp_nodes) > hand_size  # more cards than one hand holds: several hands were dealt
        for node in cp_nodes.values():
            assert 1 <= node.visits <= node.available <= child.visits
        assert any(node.available < child.visits for node in cp_nodes.values())
        # every playout through the push went on to one of CP's cards (the duel has no dead ends)
        assert sum(node.visits for node in cp_nodes.values()) == child.visits - 1


def test_the_root_children_are_the_legal_options(duel):
    game = _at_decision(duel, 2, "cp", choice="play_card")
    agent = IsmctsAgent(30, seed=5)
    index = agent.pick(game, "cp")
    options = game.legal_options()
    assert set(agent.root.children) == {("cp", o) for o in options}
    assert sum(c.visits for c in agent.root.children.values()) == 30
    most = max(c.visits for c in agent.root.children.values())
    assert agent.root.children[("cp", options[index])].visits == most


def test_the_subtree_is_kept_for_the_next_own_decision(duel):
    """A side's card play is followed by its own push: the search of the push
    starts from the playouts that already went through the card chosen.
    After the other side's decisions, a new tree."""
    game = _at_decision(duel, 4, "ap", choice="play_card", skip=1)
    agent = IsmctsAgent(40, seed=2)
    index = agent.pick(game, "ap")
    kept = agent.root.children[("ap", game.legal_options()[index])]
    before = kept.visits
    d = game.choose(index + 1)
    assert str(d.by) == "ap" and d.choice == "push"
    agent.pick(game, "ap")
    assert agent.root is kept and agent.stats["kept"] == 1
    assert sum(c.visits for c in kept.children.values()) == before - 1 + 40
    d = game.choose(1)
    while str(d.by) != "ap":
        d = game.choose(1)
    agent.pick(game, "ap")
    assert agent.stats["kept"] == 1
    assert agent.root is not kept and sum(c.visits for c in agent.root.children.values()) == 40


# ------------------------------------------------------------------ strength

def _last_card_positions(duel, count: int):
    """CP's card play in the last turn with the VP set so that CP's biggest
    card wins at once (VP 21 or more when the turn ends) and every other card
    at best gives a chance: (game, the winning option's index)."""
    positions = []
    seed = 0
    while len(positions) < count:
        seed += 1
        game = _at(duel, seed, lambda g, d: g.s["turn"] == 6 and str(d.by) == "cp" and d.choice == "play_card")
        if game is None:
            continue
        ops = [OPS[o.removeprefix("play ")] for o in game.legal_options()]
        best = max(ops)
        if ops.count(best) > 1 or best - sorted(ops)[-2] < 1:
            continue
        game.s["vars"]["vp"] = 21 - best
        game.invalidate()
        positions.append((game, ops.index(best)))
    return positions


def test_the_agent_finds_the_winning_card_where_random_does_not(duel):
    """Playing the biggest card wins outright; a smaller one needs a lucky
    push (a roll of 1-4 after pushing 2) and may only draw.  The agent sees
    it in every position; a random player does not."""
    positions = _last_card_positions(duel, 6)
    assert [IsmctsAgent(60, seed=3).pick(game, "cp") for game, _ in positions] == [w for _, w in positions]
    random_picks = [RandomAgent(7).pick(game.legal_options()) for game, _ in positions]
    assert random_picks != [w for _, w in positions]


def test_the_agent_plans_its_card_and_push_together(duel):
    """Two decisions in a row: with VP 16 before CP's last card, only the
    biggest card (4 ops, VP 20) followed by a push of 2 (a roll of 1-4)
    wins with 2/3; the tree finds the card and then the push."""
    found = 0
    for game, win in _last_card_positions(duel, 12):
        options = game.legal_options()
        if OPS[options[win].removeprefix("play ")] != 4 or any(OPS[o.removeprefix("play ")] == 3 for o in options):
            continue
        game.s["vars"]["vp"] = 16
        game.invalidate()
        agent = IsmctsAgent(300, seed=4)
        assert agent.pick(game, "cp") == win
        d = game.choose(win + 1)
        assert d.choice == "push"
        assert d.options[agent.pick(game, "cp")] == "push 2"
        found += 1
    assert found >= 2


def test_the_agent_beats_random_on_the_duel(duel):
    """On the same seeds, ismcts:10 as the Allies wins clearly more often
    than a random Allied player: the lower end of its 95% Wilson interval is
    above the random player's win rate (and above an even game)."""
    games = 40
    wins = baseline = 0
    for i in range(games):
        seed = game_seed(11, i)
        wins += play_random(duel, seed, agents={"ap": "ismcts:10"})["winner"] == "ap"
        baseline += play_random(duel, seed)["winner"] == "ap"
    low, _ = wilson(wins, games)
    assert low > max(0.5, baseline / games), (wins, baseline)


# ------------------------------------------------------------------ the player

def test_the_agent_picks_only_legal_options(duel):
    for seed in range(4):
        session = Session.new(duel, seed)
        agents = {"ap": make_agent("ismcts:6", "ap", seed), "cp": make_agent("ismcts:4:3", "cp", seed)}
        assert play(session, agents, out=io.StringIO()) == "over"  # an illegal answer would raise
        for agent in agents.values():
            # every decision with a choice answered, the contested ones searched
            # (each round plays its 2 or 3 options: N rounded up to a whole round)
            stats = agent.stats
            assert stats["decisions"] == 12 and stats["searched"] <= 12
            assert 2 * stats["searched"] <= stats["iterations"] <= stats["searched"] * (agent.iterations + 2)


def test_the_agent_is_deterministic_for_a_seed(duel):
    seed = game_seed(0, 5)
    first = play_random(duel, seed, agents={"ap": "ismcts:8", "cp": "ismcts:5"})
    again = play_random(duel, seed, agents={"ap": "ismcts:8", "cp": "ismcts:5"})
    assert first["error"] is None and first["hash"] == again["hash"]
    game = _at_decision(duel, 3, "ap")
    agents = [IsmctsAgent(20, seed=1), IsmctsAgent(20, seed=1)]
    assert agents[0].pick(game, "ap") == agents[1].pick(game.copy(), "ap")
    assert _tree(agents[0].root) == _tree(agents[1].root)


def test_simulate_and_play_play_the_same_game(duel):
    """`simulate --ap ismcts:N` game i is `play --seed <its seed> --ap ismcts:N --cp random`."""
    seed = game_seed(0, 3)
    simulated = play_random(duel, seed, agents={"ap": "ismcts:10"})
    session = Session.new(duel, seed)
    play(session, {"ap": make_agent("ismcts:10", "ap", seed), "cp": make_agent("random", "cp", seed)},
         out=io.StringIO())
    assert simulated["hash"] == session.game.state_hash()


class _FirstOption:
    """A playout policy that takes the first option listed, counting its picks."""

    def __init__(self):
        self.picks = 0

    def pick(self, game, side: str) -> int:
        assert str(game.s["pending"]["by"]) == side
        self.picks += 1
        return 0


def test_a_playout_policy_plays_the_playouts(duel):
    """Given a policy (`pick(game, side)`), the playouts are its choices, at
    most the horizon's number of them each; given an evaluation, the cut
    playouts are scored by it."""
    game = _at_decision(duel, 1, "ap")
    policy = _FirstOption()
    scored = []

    def evaluate(g, side):
        scored.append(side)
        return 0.25

    agent = IsmctsAgent(20, seed=1, horizon=3, policy=policy, evaluate=evaluate)
    agent.pick(game, "ap")
    assert 0 < policy.picks <= 20 * 3
    assert scored and set(scored) <= {"ap", "cp"}
    assert all(abs(c.mean() - 0.25) < 1e-9 for c in agent.root.children.values())


def test_a_decision_with_one_option_is_not_searched(duel):
    """(The interpreter takes a lone option itself unless asked to list it,
    as `play` does for people: here the decision is cut to one option.)"""
    game = _at_decision(duel, 1, "ap")
    pending = game.s["pending"]
    pending["options"], pending["values"] = pending["options"][-1:], pending["values"][-1:]
    agent = IsmctsAgent(5, seed=1)
    assert agent.choose(SimpleNamespace(game=game), game.decision()) == 1
    assert agent.stats == {"decisions": 0, "iterations": 0, "seconds": 0.0, "kept": 0}


# ------------------------------------------------------------------ the command line

def test_simulate_takes_an_ismcts_player(capsys):
    code = main(["simulate", "duel", "--root", str(DUEL), "--games", "3", "--workers", "1", "--ap", "ismcts:5",
                 "--cp", "random", "--json"])
    assert code == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["agents"] == {"ap": "ismcts:5", "cp": "random"} and summary["finished"] == 3
    speed = summary["agent_speed"]
    assert list(speed) == ["ap"] and speed["ap"]["decisions"] == 3 * 12  # two choices a turn, six turns
    assert speed["ap"]["decisions_per_second"] > 0


@pytest.mark.parametrize("command", ["simulate", "play"])
@pytest.mark.parametrize("spec", ["ismcts:0", "ismcts:abc", "ismcts", "ismcts:5:0", "ismcts:5:x", "ismcts:-3",
                                  "ismcts:5:5:5:5:5", "ismcts:5:40:x", "ismcts:5:40:-1", "ismcts:5:40:11",
                                  "ismcts:5:40:0:x", "ismcts:5:40:0:-1", "ismcts:5:40:0:101",
                                  "ismcts:5:40:0:99999999999999999999"])
def test_a_bad_ismcts_spec_is_a_one_line_usage_error(capsys, command, spec):
    args = [command, "duel", "--root", str(DUEL), "--ap", spec]
    code = main(args + (["--games", "1", "--workers", "1"] if command == "simulate" else []))
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2
    assert len([line for line in err if "error" in line]) == 1 and "ismcts" in err[-1]
    assert "Traceback" not in "\n".join(err)


def test_the_fourth_number_sets_how_far_the_searchs_greedy_plays_on():
    """ismcts:N:H:Z:F: the greedy that screens the decisions and the one that
    plays the playouts both play F of their own decisions on after each
    option they look at, as greedy:K:F does; an empty number is its
    default, and the default F names the player as before."""
    from pogdsl.agents.greedy import FOLLOW

    agent = _spec_agent("ismcts:4:40:0:2", 1)
    assert agent.screen.player.follow == 2 and agent.policy.player.follow == 2
    assert agent.label == "ismcts:4:40:0:2"
    assert _spec_agent("ismcts:4:::2", 1).label == "ismcts:4:40:0:2"
    plain = _spec_agent("ismcts:4", 1)
    assert plain.screen.player.follow == FOLLOW and plain.policy.player.follow == FOLLOW
    assert _spec_agent(f"ismcts:4:40:0:{FOLLOW}", 1).label == plain.label == "ismcts:4"


def test_a_search_with_its_own_follow_is_deterministic_and_legal(duel):
    results = []
    for _ in range(2):
        game = duel.new_game(5, log=False)
        agents = {"ap": make_agent("ismcts:4:::1", "ap", 5), "cp": make_agent("greedy", "cp", 5)}
        d = game.run()
        while d is not None:
            i = agents[str(d.by)].pick(game, str(d.by))
            assert 0 <= i < len(d.options)
            d = game.choose(i + 1)
        results.append(game.state_hash())
    assert results[0] == results[1]


def test_play_parses_ismcts(capsys):
    code = main(["play", "duel", "--root", str(DUEL), "--seed", "2", "--ap", "ismcts:5", "--cp", "random"])
    captured = capsys.readouterr()
    assert code == 0 and "Game over" in captured.out and "ap: ismcts:5" in captured.err


@pytest.mark.parametrize("command", ["simulate", "play"])
def test_the_help_names_the_search_player(capsys, command):
    with pytest.raises(SystemExit):
        main([command, "--help"])
    assert "ismcts:N" in capsys.readouterr().out


def test_the_benchmark_reports_both_seats_and_the_speed(capsys):
    """benchmarks/ismcts.py, on two duel games a pairing: a line for each
    seat, the share of decisive games with its interval, the endings and the
    searched decisions a second of each search player."""
    import importlib.util

    path = Path(__file__).resolve().parents[1] / "benchmarks" / "ismcts.py"
    spec = importlib.util.spec_from_file_location("ismcts_benchmark", path)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    assert bench.main(["--scenario", "duel", "--root", str(DUEL), "--games", "2", "--player", "ismcts:4",
                       "--against", "mcts:3,random"]) == 0
    out = capsys.readouterr().out
    assert out.count("as ap: won") == out.count("as cp: won") == 2
    assert "ismcts:4 against mcts:3, 2 games" in out and "ismcts:4 against random, 2 games" in out
    assert out.count("ismcts:4: ") == 2 and out.count("mcts:3: ") == 1 and "searched decisions a second" in out
    assert out.count("endings: ") == 2
