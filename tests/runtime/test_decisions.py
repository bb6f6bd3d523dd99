"""Decisions: legal options minus what restrictions forbid, refusals with
rule numbers and no change to the state, undo, the trace, the log's rules."""

from __future__ import annotations

import pytest

from pogdsl.runtime.errors import IllegalOption
from pogdsl.runtime.interpreter import Game

from .conftest import random_choices


def to_pick(game):
    """Play (always the first option) up to ap's first `pick`."""
    d = game.run() if game.s["pending"] is None else game.decision()
    while d.choice != "pick":
        d = game.choose(1)
    return d


def test_a_restriction_removes_an_option(rules):
    game = Game.new(rules.world, 1)
    d = to_pick(game)
    assert d.options == ["pick 1", "pick 2"]  # pick 3 is forbidden until France is attacked (3.2)
    assert d.rules == ["6.1"]


@pytest.mark.parametrize("answer, fragment, cited", [
    ("pick 3", "forbidden by no_three", ("3.2",)),
    ("pick 9", "is not one of the 2 options", ("6.1",)),
    (7, "there is no option 7", ()),
    ("0", "there is no option 0", ()),
])
def test_an_illegal_option_is_refused_with_its_rules_and_nothing_changes(rules, answer, fragment, cited):
    game = Game.new(rules.world, 1)
    to_pick(game)
    before, data = game.state_hash(), game.to_json()
    with pytest.raises(IllegalOption) as info:
        game.choose(answer)
    assert fragment in info.value.message
    assert info.value.rules == cited
    if cited == ("3.2",):
        assert "rule 3.2" in info.value.message
    assert game.state_hash() == before and game.to_json() == data


def test_why_not_names_the_restriction(rules):
    game = Game.new(rules.world, 1)
    to_pick(game)
    err = game.why_not("pick 3")
    assert err.rules == ("3.2",) and "no_three" in err.message


def test_why_not_explains_in_the_restrictions_own_words(rules):
    game = Game.new(rules.world, 1)
    to_pick(game)
    err = game.why_not("pick 3")
    assert err.message == ("'pick 3' is forbidden by no_three (rule 3.2): "
                           "Three is only allowed once France has been attacked.")


@pytest.mark.parametrize("typed", ["PICK 3", "  pick   3 "])
def test_why_not_matches_answers_as_choose_does(rules, typed):
    game = Game.new(rules.world, 1)
    to_pick(game)
    err = game.why_not(typed)
    assert err.rules == ("3.2",) and "no_three" in err.message


def test_why_not_a_unique_beginning_names_the_full_option(rules):
    game = Game.new(rules.world, 1)
    to_pick(game)
    err = game.why_not("pick 3")  # exact; a beginning shared by no other candidate works too
    assert "(pick 3)" not in err.message
    err = game.why_not("pick")  # every pick: not one option, so not explained as one, but listed
    assert err.message.startswith("'pick' is the beginning of several options: pick 1 | pick 2 | pick 3")


def test_the_restriction_lifts_when_its_unless_holds(rules):
    game = Game.new(rules.world, 1, dice=[6])  # a 6 attacks France in turn 1
    to_pick(game)
    game.choose("pick 1")
    assert game.s["vars"]["attacked"] is True
    d = to_pick(game)
    assert d.options == ["pick 1", "pick 2", "pick 3"]


def test_options_by_number_and_by_text(rules):
    a, b = Game.new(rules.world, 4), Game.new(rules.world, 4)
    to_pick(a), to_pick(b)
    a.choose(2)
    b.choose("  PICK   2 ")
    assert a.state_hash() == b.state_hash()


def test_undo_goes_back_decision_by_decision(rules):
    game = Game.new(rules.world, 2)
    game.keep_history = True
    d = game.run()
    hashes = [game.state_hash()]
    for _ in range(4):
        d = game.choose(len(d.options))
        hashes.append(game.state_hash())
    assert game.undo(1) == 1 and game.state_hash() == hashes[3]
    assert game.undo(2) == 2 and game.state_hash() == hashes[1]
    assert game.undo(10) == 1 and game.state_hash() == hashes[0]
    assert game.undo() == 0
    # And play on from there exactly as a new game would.
    other = Game.new(rules.world, 2)
    d1, d2 = game.decision(), other.run()
    assert d1 == d2
    assert game.choose(1) == other.choose(1)
    assert game.state_hash() == other.state_hash()


def test_the_trace_shows_restrictions_modifiers_triggers(rules):
    game = Game.new(rules.world, 1)
    game.trace = []
    game.cache_values = False
    kinds = {}
    for d in random_choices(game, 4):
        for kind, name, cites in game.trace:
            kinds.setdefault(kind, set()).add((name, tuple(cites)))
    assert ("no_three", ("3.2",)) in kinds["forbid"]
    assert ("big_pick", ("3.4",)) in kinds["modifier"]
    assert ("lost", ("7.2",)) in kinds["trigger"]  # Paris changed hands in this game


def test_no_trace_is_collected_unless_asked(rules):
    game = Game.new(rules.world, 1)
    for _ in random_choices(game, 5):
        pass
    assert game.trace is None


def test_every_log_line_cites_a_rule(rules):
    game = Game.new(rules.world, 3)
    game.trace = []  # also the quiet lines
    for _ in random_choices(game, 3):
        pass
    assert game.over
    missing = [e for e in game.s["log"] if not e["rules"]]
    assert not missing, missing
    assert any("rolled" in e["text"] and "6.2" in e["rules"] for e in game.s["log"])


def test_no_decision_to_answer_when_over(toy):
    game = Game.new(toy.world, 3)
    for _ in random_choices(game, 1):
        pass
    with pytest.raises(IllegalOption, match="game is over"):
        game.choose(1)


def test_random_players_favour_events_that_raise_war_status():
    """The weights a random player follows (not the rules of play): an
    event carrying war status weighs more than any other use of a card, so
    that simulated games reach Limited and Total War as played games do."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from cards.test_card_events import campaign_start

    pos = campaign_start(guns=True)
    d = pos.game.run()
    weight = dict(zip(d.options, d.weights))
    guns = weight["play 1 event (Guns of August)"]  # war status 2
    assert guns > max(w for o, w in weight.items() if "event" not in o)
    # operations are a card's usual use; redeployment and replacements less so
    assert weight["play 1 ops (Guns of August)"] > weight["play 1 sr (Guns of August)"] == weight["play 1 rp (Guns of August)"]
