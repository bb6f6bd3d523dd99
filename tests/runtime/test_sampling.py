"""Random players that answer without listing every option (runtime/sampling.py):
the pick is always legal, distributed as a pick from the listed options, and
a game played that way is the very game played by listing each decision."""

from __future__ import annotations

from collections import Counter

import pytest

from pogdsl.agents import RandomAgent, agent_seed, make_agent, play
from pogdsl.runtime import rng
from pogdsl.runtime.errors import DecisionBudgetExceeded
from pogdsl.runtime.interpreter import Game
from pogdsl.runtime.record import Session
from pogdsl.runtime.sampling import pick_index, sample
from pogdsl.sim import game_seed, play_random


def _draws(count, weights, legal_set, n=6000, seed=3):
    state = rng.seed_state(seed)
    picks = Counter()
    for _ in range(n):
        state, picked, _ = sample(count, weights, lambda i: i in legal_set, state)
        picks[picked] += 1
    return picks


def test_a_pick_is_uniform_over_the_legal_options_only():
    picks = _draws(8, None, {1, 4, 5, 7})
    assert set(picks) == {1, 4, 5, 7}
    for i in (1, 4, 5, 7):
        assert 1350 < picks[i] < 1650  # 1500 expected; a bias towards the order tried would show


def test_a_pick_follows_the_weights_of_the_legal_options():
    # Option 0 weighs 24 but is illegal: 1, 2 and 3 share the draws as 1 : 3 : 4.
    picks = _draws(5, [24, 1, 3, 4, 0], {1, 2, 3, 4})
    assert 4 not in picks  # weight 0 loses to any legal option of positive weight
    assert 0 not in picks
    assert 650 < picks[1] < 850 and 2050 < picks[2] < 2450 and 2800 < picks[3] < 3200


def test_weights_all_zero_among_the_legal_options_count_as_none():
    picks = _draws(4, [5, 0, 0, 0], {1, 2, 3})
    assert set(picks) == {1, 2, 3}
    assert all(1800 < picks[i] < 2200 for i in (1, 2, 3))


def test_each_option_is_tested_once_and_a_second_legal_one_is_found():
    asked = Counter()

    def legal(i):
        asked[i] += 1
        return i in (2, 6)

    _, picked, other = sample(7, None, legal, rng.seed_state(1))
    assert {picked, other} == {2, 6}
    assert max(asked.values()) == 1
    _, picked, other = sample(3, None, lambda i: i == 1, rng.seed_state(1))
    assert (picked, other) == (1, None)  # a single legal option: not a real decision
    assert sample(3, None, lambda i: False, rng.seed_state(1))[1:] == (None, None)


def test_an_option_known_legal_stands_for_the_other_legal_one():
    """With the optional "done" (known legal) among the groups, once another
    group is picked no more group is tested to know the decision is real;
    the pick is the one made without that knowledge."""
    for seed in range(20):
        asked = Counter()

        def legal(i, asked=asked):
            asked[i] += 1
            return i in (1, 3, 5)
        state, picked, other = sample(6, None, legal, rng.seed_state(seed), sure=5)
        plain = sample(6, None, lambda i: i in (1, 3, 5), rng.seed_state(seed))
        assert (state, picked) == plain[:2] and other is not None and other != picked
        if picked != 5:
            assert other == 5 and max(asked.values()) == 1
            # the draws' tests only: every group tested but the pick was illegal
            assert picked in asked and not any(i in (1, 3, 5) for i in asked if i != picked)


def test_pick_index_is_seeded():
    a = [pick_index(10, None, rng.seed_state(s))[1] for s in range(50)]
    b = [pick_index(10, None, rng.seed_state(s))[1] for s in range(50)]
    assert a == b and len(set(a)) > 5


def _listed_game(opened, seed):
    """A game where every decision is listed and a random player answers it
    from the list (as `play --ap random --cp random` does)."""
    agents = {s.key: RandomAgent(agent_seed(seed, s.key)) for s in opened.world.sides}
    game = opened.new_game(seed, log=False)
    d = game.run()
    while d is not None:
        d = game.choose(agents[d.by].choose(_SessionOf(game), d))
    return game


class _SessionOf:
    def __init__(self, game):
        self.game = game


@pytest.mark.parametrize("index", range(6))
def test_sampled_play_is_the_listed_game(rules, index):
    seed = game_seed(5, index)
    result = play_random(rules, seed)
    listed = _listed_game(rules, seed)
    assert result["error"] is None
    assert result["hash"] == listed.state_hash()
    assert result["decisions"] == listed.s["decisions"] > 0


def test_sampled_play_is_the_listed_game_in_the_campaign(campaign_scenario):
    # The first of a run's games that lasts (some end early, in a peace or
    # an automatic victory), so that every kind of decision is compared.
    for index in range(8):
        seed = game_seed(1, index)
        result = play_random(campaign_scenario, seed)
        if result["decisions"] > 500:
            break
    listed = _listed_game(campaign_scenario, seed)
    assert result["error"] is None and result["decisions"] > 500
    assert result["hash"] == listed.state_hash()


def test_play_with_random_agents_plays_the_simulated_game(rules):
    seed = game_seed(9, 2)
    session = Session.new(rules, seed)
    agents = {s.key: make_agent("random", s.key, seed) for s in rules.world.sides}
    assert play(session, agents, out=_Sink()) == "over"
    assert session.decisions_made > 0
    assert session.game.state_hash() == play_random(rules, seed)["hash"]


class _Sink:
    def write(self, text):
        return len(text)

    def flush(self):
        pass


def test_a_sampled_decision_is_logged_and_counted(rules):
    seed = game_seed(5, 0)
    game = rules.new_game(seed, log=True)
    game.samplers = {s.key: RandomAgent(agent_seed(seed, s.key)) for s in rules.world.sides}
    assert game.run() is None
    chosen = [e for e in game.s["log"] if " chose: " in e["text"]]
    assert len(chosen) == game.s["decisions"] > 0
    assert all(e["rules"] for e in chosen)


def test_the_decision_budget_stops_random_players(rules):
    game = rules.new_game(1, log=False)
    game.samplers = {s.key: RandomAgent(1) for s in rules.world.sides}
    game.max_decisions = 3
    with pytest.raises(DecisionBudgetExceeded, match="more than 3 decisions"):
        game.run()
    assert game.s["decisions"] == 3
    result = play_random(rules, 1, max_decisions=3)
    assert result["kind"] == "too_long" and "more than 3 decisions" in result["error"]


def test_a_state_that_cannot_be_hashed_fails_its_game_not_the_run(rules, monkeypatch):
    """Issue: one game whose final state could not be hashed (a value grown
    past what the hash encodes) killed the whole simulation; it is now that
    game's failure, with its seed, and the run goes on."""
    from pogdsl.runtime.interpreter import Game

    def unhashable(self):
        raise ValueError("Exceeds the limit (4300 digits) for integer string conversion")
    monkeypatch.setattr(Game, "state_hash", unhashable)
    result = play_random(rules, 7)
    assert result["kind"] == "internal" and result["seed"] == 7
    assert "cannot be hashed" in result["error"] and result["hash"] is None


def test_history_or_a_trace_turns_sampling_off(rules):
    for setting in ("keep_history", "trace"):
        game = rules.new_game(1, log=False)
        game.samplers = {s.key: RandomAgent(1) for s in rules.world.sides}
        if setting == "keep_history":
            game.keep_history = True  # an undo needs the listed decision to go back to
        else:
            game.trace = []  # a trace shows every restriction of every option
        d = game.run()
        assert d is not None and len(d.options) > 1


def test_a_side_without_a_sampler_is_still_asked(rules):
    game = rules.new_game(1, log=False)
    first = Game.new(rules.world, 1).run()
    game.samplers = {s.key: RandomAgent(1) for s in rules.world.sides if s.key != first.by}
    d = game.run()
    assert d is not None and d.by == first.by


def test_a_weight_reading_only_the_option_is_worked_out_once_per_option(campaign_scenario):
    """`take_action`'s weight depends on the option alone (its use, and what
    its card has printed on it): each option's weight is remembered.  A weight that reads the state
    (`turn`) is worked out at each offer."""
    from pogdsl.runtime.compile import Compiler
    from pogdsl.syntax.parser import parse_text

    world = campaign_scenario.world
    specs = {st.run.spec.name: st.run.spec for code in world.codes.values() for st in code.steps
             if getattr(st.run, "spec", None) is not None}
    take = specs["take_action"]
    assert take.weights is not None
    play_random(campaign_scenario, 5, max_decisions=300)
    assert take.weights, "the weights of the options offered are remembered"
    fresh = campaign_scenario.new_game(5, log=False)
    for values, weight in take.weights.items():
        assert weight == max(0, int(take.weight(fresh, dict(zip(take.params, values)))))

    compiler = object.__new__(Compiler)
    compiler.w = world

    def weight_expr(text):
        return parse_text(f"value v(use: card_use) cites 1.0 = {text}\n", "w.pog")[0].decls[0].expr
    assert compiler._reads_nothing_but(weight_expr("(if use == peace_offer then 1 else 4)"), {"use"})
    assert not compiler._reads_nothing_but(weight_expr("(if turn > 3 then 1 else 4)"), {"use"})
    assert not compiler._reads_nothing_but(weight_expr("random_pick([1, 2])"), {"use"})
    # What a card parameter has printed on it is no state, even where a state
    # of the same name is kept for sides (war_status).
    printed = weight_expr("(if use == event then 4 + 8 * c.war_status else 4)")
    assert compiler._reads_nothing_but(printed, {"use", "c"}, frozenset({"c"}))
    assert not compiler._reads_nothing_but(printed, {"use", "c"})


def test_a_weight_decided_by_an_option_value_is_taken_without_working_it_out(campaign_scenario, monkeypatch):
    """`activate`'s weight reads the board, but an activation to move weighs
    2 whatever the board: those options are weighed without a call, and
    every option of a game weighs what the weight says.  (Weighed one
    option at a time here: the loop generated for all of them at once is
    tested below.)"""
    world = campaign_scenario.world
    specs = {st.run.spec.name: st.run.spec for code in world.codes.values() for st in code.steps
             if getattr(st.run, "spec", None) is not None}
    activate = specs["activate"]
    move = world.by_kind["activation_mode"]["move"]
    at, known = activate.weight_fixed
    assert activate.params[at] == "mode" and known == {move: 2}
    asked = []
    weigh = activate.weight_at
    monkeypatch.setattr(activate, "weights_of", None)

    def counting(g, *values):
        asked.append(values)
        w = weigh(g, *values)
        assert w == max(0, int(activate.weight(g, dict(zip(activate.params, values)))))
        return w
    monkeypatch.setattr(activate, "weight_at", counting)
    game = campaign_scenario.new_game(7, log=False)
    game.samplers = {s.key: RandomAgent(agent_seed(7, s.key)) for s in world.sides}
    weights_now = Game._weights_now
    moves = []

    def checking(self, spec, candidates):
        out = weights_now(self, spec, candidates)
        if spec is activate:
            for values, w in zip(candidates, out):
                if values[at] is move:
                    moves.append(w)
                else:
                    assert w == max(0, int(spec.weight(self, dict(zip(spec.params, values)))))
        return out
    monkeypatch.setattr(Game, "_weights_now", checking)
    game.max_decisions = 400
    try:
        game.run()
    except DecisionBudgetExceeded:
        pass
    assert moves and set(moves) == {2}
    assert asked and all(values[at] is not move for values in asked)


def test_the_weights_of_every_candidate_at_once_are_each_options_own(campaign_scenario, monkeypatch):
    """A weight that reads the state is worked out for all the candidates of
    a random player's draw in one generated loop (ChoiceSpec.weights_of):
    along a game, each weight it gives is what the choice's weight says of
    that option alone (0 for a negative one), and a move activation still
    weighs 2."""
    world = campaign_scenario.world
    specs = {st.run.spec.name: st.run.spec for code in world.codes.values() for st in code.steps
             if getattr(st.run, "spec", None) is not None}
    assert specs["activate"].weights_of is not None
    weights_now = Game._weights_now
    checked = Counter()

    def checking(self, spec, candidates):
        out = weights_now(self, spec, candidates)
        assert len(out) == len(candidates)
        for values, w in zip(candidates, out):
            if spec.weights_of is not None and values.count(None) < len(values):
                assert w == max(0, int(spec.weight(self, dict(zip(spec.params, values)))))
                checked[spec.name, w] += 1
        return out
    monkeypatch.setattr(Game, "_weights_now", checking)
    game = campaign_scenario.new_game(11, log=False)
    game.samplers = {s.key: RandomAgent(agent_seed(11, s.key)) for s in world.sides}
    game.max_decisions = 400
    try:
        game.run()
    except DecisionBudgetExceeded:
        pass
    activate = {w for name, w in checked if name == "activate"}
    assert {1, 2} <= activate and any(w >= 6 for w in activate)  # not in front, a move, in front


def test_a_value_of_the_shared_parameters_is_worked_out_once_for_all_candidates(campaign_scenario, monkeypatch):
    """`activate`'s weight asks `front_spaces(player)` of every attack
    candidate, and `player` is the same for all the candidates of an offer
    (`p in [player]`): the loop over the candidates works it out once, and
    again only when a candidate names another player; every weight is still
    the option's own."""
    world = campaign_scenario.world
    specs = {st.run.spec.name: st.run.spec for code in world.codes.values() for st in code.steps
             if getattr(st.run, "spec", None) is not None}
    activate = specs["activate"]
    env = activate.weights_of.__globals__
    asked = []
    front = env["V_front_spaces"]

    def counting(g, player):
        asked.append(player)
        return front(g, player)
    game = campaign_scenario.new_game(3, log=False)
    game.samplers = {s.key: RandomAgent(agent_seed(3, s.key)) for s in world.sides}
    game.max_decisions = 30  # the armies set up, some moves made
    with pytest.raises(DecisionBudgetExceeded):
        game.run()
    monkeypatch.setitem(env, "V_front_spaces", counting)
    attack = world.by_kind["activation_mode"]["attack"]
    ap, cp = (world.by_kind["side"][k] for k in ("ap", "cp"))
    spaces = world.spaces
    at, known = activate.weight_fixed
    one_side = [(ap, s, attack) for s in spaces]
    weights = activate.weights_of(game, one_side, at, known)
    assert asked == [ap]
    assert weights == [max(0, int(activate.weight_at(game, *v))) for v in one_side]
    assert any(w >= 6 for w in weights) and 1 in weights  # spaces at the front and behind it
    asked.clear()
    both = [(side, s, attack) for s in spaces[:3] for side in (ap, cp)]
    assert activate.weights_of(game, both, at, known) == [max(0, int(activate.weight_at(game, *v))) for v in both]
    assert asked[:6] == [ap, cp] * 3


def test_what_a_shared_value_is_tested_on_is_fetched_once_for_all_candidates(campaign_scenario, monkeypatch):
    """`s in front_spaces(player)` in `activate`'s weight: the set the
    membership is tested on (front_spaces is a search's result) is fetched
    once for the candidates of one player, again when a candidate names the
    other player, and every weight is still the option's own."""
    from pogdsl.runtime import builtins as B

    world = campaign_scenario.world
    specs = {st.run.spec.name: st.run.spec for code in world.codes.values() for st in code.steps
             if getattr(st.run, "spec", None) is not None}
    activate = specs["activate"]
    env = activate.weights_of.__globals__
    names = [k for k, v in env.items() if v is B.membership]
    assert names, "the weight loop tests the membership without fetching the set once"
    fetched = []

    def counting(value):
        fetched.append(value)
        return B.membership(value)
    game = campaign_scenario.new_game(3, log=False)
    game.samplers = {s.key: RandomAgent(agent_seed(3, s.key)) for s in world.sides}
    game.max_decisions = 30  # the armies set up, some moves made
    with pytest.raises(DecisionBudgetExceeded):
        game.run()
    for name in names:
        monkeypatch.setitem(env, name, counting)
    attack = world.by_kind["activation_mode"]["attack"]
    ap, cp = (world.by_kind["side"][k] for k in ("ap", "cp"))
    at, known = activate.weight_fixed
    one_side = [(ap, s, attack) for s in world.spaces]
    weights = activate.weights_of(game, one_side, at, known)
    assert len(fetched) == 1
    assert weights == [max(0, int(activate.weight_at(game, *v))) for v in one_side]
    assert any(w >= 6 for w in weights) and 1 in weights
    fetched.clear()
    both = [(side, s, attack) for s in world.spaces[:40] for side in (ap, cp)]
    weights = activate.weights_of(game, both, at, known)
    assert len(fetched) == len(both)
    assert weights == [max(0, int(activate.weight_at(game, *v))) for v in both]
    assert any(w >= 6 for w in weights)


@pytest.mark.parametrize("decl, varying, apart", [
    ('choice c(p: side, s: space, m: activation_mode) "activate {s} {m}"', ["s", "m"], True),
    ('choice c(p: side, s: space, m: activation_mode) "activate {s} {m}"', ["p", "s"], False),  # p not shown
    ('choice c(u: unit, t: space) "{u} to {t}"', ["u", "t"], False),      # identical pieces share a name
    ('choice c(c: card, n: int) "play {c.number}"', ["c"], False),       # an attribute may repeat
    ('choice c(c: card) "play {c.number}"', ["c"], False),               # AP 12 and CP 12, every text written
    ('choice c(p: side, u: card_use, c: card) "[play {c.number} ]{u}[ ({c.name})]"', ["u", "c"], True),
    ('choice c(p: side, u: card_use, c: card) "{p}: [play {c.number} ]{u}"', ["p", "u", "c"], False),
    ('choice c(t: space, st: space) "[move to {t}][stop in {st}]"', ["t", "st"], True),
    ('choice c(t: space, a: space) "attack {t} from {a}"', ["t", "a"], True),
    ('choice c(m: sr_mode, t: space) "{m}[ to {t}]"', ["m", "t"], True),  # `to` is no word of `to_reserve`
    ('choice c(s: space, t: space) "{s} {t}"', ["s", "t"], False),     # "Le Havre Paris": which is which?
    ('choice c(s: space, t: space) "{s} le {t}"', ["s", "t"], False),  # `le` is a word of "Bar le Duc"
    ('choice c(a: int, b: int) "{a}{b}"', ["a", "b"], False),          # 1 and 23, or 12 and 3
    ('choice c(a: text) "say {a}"', ["a"], False),                     # spaces in a text are read as one
])
def test_which_choices_texts_tell_their_options_apart(campaign_scenario, decl, varying, apart):
    """A random player groups the options of such a choice by their values,
    without writing each text (the groups are the same)."""
    from pogdsl.runtime.compile import _texts_tell_apart
    from pogdsl.syntax.parser import parse_text

    choice = parse_text(decl + " cites 1.0\n", "c.pog")[0].decls[0]
    assert _texts_tell_apart(choice, varying, campaign_scenario.world) is apart


def test_options_grouped_by_value_are_the_options_grouped_by_text(campaign_scenario):
    """Along a Campaign game, for every choice whose texts tell its options
    apart, the groups by value are the groups by text, in the same order."""
    checked = set()
    for game, spec, l in _listed_decisions(campaign_scenario, 8, 400):
        if spec.distinct_texts:
            candidates = game._candidates(spec, l)
            by_text = game._option_groups(spec, candidates)
            by_value = game._option_groups(spec, candidates, texts=False)
            assert [m for _, m in by_text] == [m for _, m in by_value], spec.name
            assert [t for t, m in by_text] == [t if t is not None else spec.text(m[0], game) for t, m in by_value]
            checked.add(spec.name)
    assert {"activate", "redeploy_to", "move_step", "take_action"} <= checked


def _listed_decisions(opened, seed: int, limit: int):
    """(game, the pending choice, its frame's locals) at each decision of a
    game listed decision by decision and answered by a random player."""
    game = opened.new_game(seed, log=False)
    agent = RandomAgent(seed)
    d = game.run()
    while d is not None and game.s["decisions"] < limit:
        yield game, game._pending_spec(), game.s["stack"][-1]["l"]
        d = game.choose(agent.pick(d.options, d.weights) + 1)


def test_a_random_player_tests_a_choice_where_only_on_what_it_draws(campaign_scenario):
    """`choose activate ... where activation_cost(s, player, mode) <= left`:
    a random player draws among the candidates without the `where` and tests
    it on the options drawn, as it tests restrictions.  The `where` test says
    what the listing's `where` says, option by option."""
    compared = Counter()
    for game, spec, l in _listed_decisions(campaign_scenario, 3, 700):
        if spec.where_holds is not None:
            listed = game._candidates(spec, l)
            everything = game._candidates(spec, l, sampled=True)
            kept = [v for v in everything if spec.where_holds(game, l, v)]
            assert kept == listed, spec.name
            compared[spec.name] += len(everything) > len(listed)
    assert compared["activate"] > 0, "some activations were out of reach of the points left"

    activate = next(st.run.spec for code in campaign_scenario.world.codes.values() for st in code.steps
                    if getattr(st.run, "spec", None) is not None and st.run.spec.name == "activate")
    tested, candidates = [], []
    original, enumerate_all = activate.where_holds, activate.enumerate_unfiltered

    def counting(g, l, values):
        tested.append(values)
        return original(g, l, values)

    def listing(g, l):
        out = enumerate_all(g, l)
        candidates.extend(out)
        return out
    activate.where_holds, activate.enumerate_unfiltered = counting, listing
    try:
        seed = game_seed(1, 0)
        game = campaign_scenario.new_game(seed, log=False)
        game.samplers = {s.key: RandomAgent(agent_seed(seed, s.key)) for s in campaign_scenario.world.sides}
        game.max_decisions = 200
        with pytest.raises(DecisionBudgetExceeded):
            game.run()
    finally:
        activate.where_holds, activate.enumerate_unfiltered = original, enumerate_all
    assert 0 < len(tested) < len(candidates) / 5, "a few tests per activation, not one per candidate"


def test_a_batch_plays_with_the_collector_set_for_games_and_puts_it_back(rules, monkeypatch):
    """While a batch plays, the world is frozen out of the cycle collector's
    walks and the youngest generation is collected less often; afterwards
    the collector is as it was, whatever happened in the batch."""
    import gc

    from pogdsl import sim

    from .conftest import RULES

    before = gc.get_threshold()
    seen = []

    def playing(opened, seed, **limits):
        seen.append((gc.get_threshold()[0], gc.get_freeze_count() > 0))
        if len(seen) == 2:
            raise RuntimeError("a batch that fails half way")
        return {"seed": seed}

    monkeypatch.setattr(sim, "play_random", playing)
    with pytest.raises(RuntimeError):
        sim.run_batch(("toy_rules", str(RULES), 1, [0, 1, 2], 1000, 1000, ()))
    assert seen == [(sim.YOUNG_COLLECTION_AFTER, True)] * 2
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0


def test_simulate_in_one_process_sets_the_collector_once_for_all_its_batches(monkeypatch):
    """A setting inside another changes nothing and leaves the outer one in
    place; simulate without workers plays all its batches in one setting,
    so the full collection that starts a setting is made once, not once per
    batch."""
    import gc

    from pogdsl import sim

    from .conftest import RULES

    before = gc.get_threshold()
    with sim.collector_set_for_games():
        with sim.collector_set_for_games():
            assert gc.get_threshold()[0] == sim.YOUNG_COLLECTION_AFTER and gc.get_freeze_count() > 0
        assert gc.get_threshold()[0] == sim.YOUNG_COLLECTION_AFTER and gc.get_freeze_count() > 0
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0

    collections = []
    real_collect = gc.collect
    monkeypatch.setattr(gc, "collect", lambda *a: collections.append(a) or real_collect(*a))
    monkeypatch.setattr(sim, "play_random", lambda opened, seed, **limits: {
        "seed": seed, "winner": None, "reason": "a stand-in", "decisions": 1, "turn": 1, "hash": "0", "error": None})
    summary = sim.simulate("toy_rules", games=9, seed=1, root=RULES, workers=1)
    assert len(sim.batches(9, 1)) > 1 and summary["games"] == 9
    assert len(collections) == 1
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0
