"""Scripts a rules lawyer writes by hand, saves, and playing them back."""

from __future__ import annotations

import json

import pytest

from pogdsl.runtime.errors import BadSave
from pogdsl.runtime.interpreter import Game
from pogdsl.runtime.record import (
    ScriptError,
    Session,
    load_any,
    load_save,
    parse_script,
    replay_script,
    save_text,
    script_text,
    write_save,
)

from .conftest import GAMES, RULES

OPENING = GAMES / "opening.txt"


def script(text: str):
    return parse_script(text, "test.txt")


# ------------------------------------------------------------------ reading scripts
def test_parse_a_script():
    s = script("""
        # a comment
        scenario toy_rules   # trailing comment
        seed 12
        dice 4, 2 6
        hand ap 'Snow', Fog
        cp: move GE 1 to Sedan
        ap: 'pick 2'
        ap: 3
        expect vp 14
        expect options pick 1 | pick 2
        expect illegal pick 3 rule 3.2
    """)
    assert (s.scenario, s.seed) == ("toy_rules", 12)
    kinds = [e.kind for e in s.events]
    assert kinds == ["dice", "hand", "decision", "decision", "decision", "expect", "expect", "expect"]
    assert s.events[0].values == [4, 2, 6]
    assert s.events[1].by == "ap" and s.events[1].values == ["Snow", "Fog"]
    assert (s.events[2].by, s.events[2].text, s.events[2].line) == ("cp", "move GE 1 to Sedan", 7)
    assert s.events[3].text == "pick 2"
    assert s.events[6].values == ["pick 1", "pick 2"]
    assert [e.text for e in s.decisions_for("ap")] == ["pick 2", "3"]


@pytest.mark.parametrize("text, line, fragment", [
    ("scenario toy_rules\nfly me to the moon", 2, "cannot read 'fly me to the moon'"),
    ("scenario toy_rules\nseed twelve", 2, "whole number"),
    ("scenario toy_rules\ndice 4 x", 2, "die results"),
    ("scenario toy_rules\ndice 0", 2, "die results"),
    ("scenario toy_rules\nhand ap", 2, "needs a side and cards"),
    ("scenario toy_rules\ncp: ", 2, "names no option"),
    ("scenario toy_rules\ncp: stay\nseed 3", 3, "must come before"),
    ("scenario toy_rules\nexpect", 2, "needs something to check"),
])
def test_unreadable_lines_are_named(text, line, fragment):
    with pytest.raises(ScriptError) as info:
        script(text)
    assert info.value.line == line and fragment in str(info.value)
    assert str(info.value).startswith(f"test.txt:{line}: ")


# ------------------------------------------------------------------ playing scripts
def test_the_hand_written_opening_reaches_an_exact_state(rules):
    session = replay_script(parse_script(OPENING.read_text(), str(OPENING)), RULES)
    # The same game driven by hand: forced dice, the hand fixed at the first decision.
    game = Game.new(rules.world, 7, dice=[6, 2])
    game.run()
    piles = game.s["piles"]
    wanted = {rules.world.by_kind["card_name"][n].index for n in ("Snow", "Fog")}
    for i in [i for i in piles["hand:ap"] if i not in wanted]:
        piles["hand:ap"].remove(i)
        piles["draw:ap"].insert(0, i)
    for i in sorted(wanted - set(piles["hand:ap"])):
        piles["draw:ap"].remove(i)
        piles["hand:ap"].append(i)
    for answer in ("move GE 1 to Sedan", "stay", "play Snow", "pick 2"):
        game.choose(answer)
    assert sorted(piles["hand:ap"]) == sorted(session.game.s["piles"]["hand:ap"])
    assert session.game.state_hash() == game.state_hash()
    assert session.game.s["vars"]["vp"] == 11 and session.game.s["turn"] == 2


def test_a_played_game_written_as_a_script_replays(rules):
    from pogdsl.agents import RandomAgent

    session = Session.new(rules, 5, [])
    agent = RandomAgent(8)
    while session.decision is not None:
        session.choose(agent.pick(session.decision.options) + 1)
    text = script_text(session)
    assert "expect hash " in text and "expect winner" in text
    again = replay_script(parse_script(text, "again.txt"), RULES)
    assert again.game.state_hash() == session.game.state_hash()


@pytest.mark.parametrize("lines, line, fragment", [
    (["cp: fly away"], 3, "'fly away' is not one of the 2 options now; legal: move GE 1 to Sedan | stay"),
    (["ap: stay"], 3, "the decision is cp's (move_to), not ap's"),
    (["expect vp 99"], 3, "expected vp 99, found vp 10"),
    (["expect options stay"], 3, "found options move GE 1 to Sedan | stay"),
    (["expect legal pick 3"], 3, "is not legal"),
    (["expect winner cp"], 3, "the game is not over"),
    (["expect score 3"], 3, "kept per side"),
    (["expect nonsense 3"], 3, "not a state variable"),
    (["hand ap 'Hail'"], 3, "no card named 'Hail'"),
    (["hand xx 'Fog'"], 3, "no side named 'xx'"),
    (["cp: stay", "cp: stay", "ap: 1", "expect illegal pick 3 rule 9.9"], 6, "forbidden by no_three"),
    # `expect illegal` names an option that exists and a restriction forbids: not a legal one, not a typo.
    (["cp: stay", "cp: stay", "ap: 1", "expect illegal pick 1"], 6, "found 'pick 1' is legal"),
    (["cp: stay", "cp: stay", "ap: 1", "expect illegal plick 3"], 6,
     "'plick 3' is not an option of this decision (pick), legal or forbidden; the legal options: pick 1 | pick 2"),
    (["cp: stay", "cp: stay", "ap: 1", "expect illegal pick 3 by big_pick"], 6, "not by big_pick"),
    (["cp: stay", "cp: stay", "ap: 1", "expect illegal pick 3 by 9.9"], 6, "not by 9.9"),
    (["cp: stay", "cp: stay", "ap: 1", "expect illegal pick 3 because"], 6, "'pick 3 because' is not an option"),
    (["expect illegal move"], 3, "found 'move GE 1 to Sedan' is legal"),
    (["expect illegal fly away"], 3, "'fly away' is not an option of this decision"),
    # A beginning several options share is an error listing them, for checks as for answers.
    (["cp: stay", "cp: stay", "ap: 1", "expect illegal pick"], 6,
     "'pick' is the beginning of several options: pick 1 | pick 2 | pick 3"),
    (["cp: stay", "cp: stay", "ap: 1", "expect legal pick"], 6, "'pick' is the beginning of several options"),
    (["cp: stay", "cp: stay", "ap: 1", "ap: pick"], 6, "'pick' is the beginning of several options: pick 1 | pick 2"),
])
def test_a_script_line_that_does_not_hold_is_named(rules, lines, line, fragment):
    text = "scenario toy_rules\nseed 7\n" + "\n".join(lines) + "\n"
    with pytest.raises(ScriptError) as info:
        replay_script(parse_script(text, "bad.txt"), RULES)
    assert info.value.line == line, str(info.value)
    assert fragment in str(info.value)


def test_checks_match_options_as_answers_do(rules):
    text = ("scenario toy_rules\nseed 7\nexpect legal move\nexpect legal STAY\ncp: stay\ncp: stay\nap: 1\n"
            "expect legal pick 2\nexpect illegal pick 3\nexpect illegal PICK 3 by no_three\n"
            "expect illegal 'pick 3' by 3.2, no_three\nexpect illegal pick 3 rule 3.2\n")
    replay_script(parse_script(text, "good.txt"), RULES)


def test_decisions_after_the_end_are_refused(toy):
    session = Session.new(toy, 3, [])
    while session.decision is not None:
        session.choose(1)
    text = script_text(session) + "ap: pick 1\n"
    n = len(text.splitlines())
    with pytest.raises(ScriptError, match=f"over.txt:{n}: the game is already over"):
        replay_script(parse_script(text, "over.txt"), toy.root)


def test_a_script_needs_a_known_scenario():
    with pytest.raises(ScriptError, match="names no scenario"):
        replay_script(parse_script("seed 1\n", "x.txt"), RULES)
    with pytest.raises(ScriptError, match="x.txt:1: unknown scenario 'toy_rulez'.*did you mean"):
        replay_script(parse_script("scenario toy_rulez\n", "x.txt"), RULES)


# ------------------------------------------------------------------ saves
def midgame(rules, seed=4, k=5) -> Session:
    from pogdsl.agents import RandomAgent

    session = Session.new(rules, seed, [])
    agent = RandomAgent(seed)
    for _ in range(k):
        session.choose(agent.pick(session.decision.options) + 1)
    return session


def test_save_and_load_in_the_middle_continue_exactly(rules, tmp_path):
    from pogdsl.agents import RandomAgent

    session = midgame(rules)
    path = tmp_path / "mid.json"
    write_save(session, path)
    loaded = load_save(path, RULES)
    assert loaded.game.state_hash() == session.game.state_hash()
    assert loaded.decision == session.decision
    assert loaded.game.s["log"] == session.game.s["log"]
    a, b = RandomAgent(99), RandomAgent(99)
    while session.decision is not None:
        session.choose(a.pick(session.decision.options) + 1)
        loaded.choose(b.pick(loaded.decision.options) + 1)
        assert loaded.game.state_hash() == session.game.state_hash()
    assert loaded.game.over


def test_a_save_keeps_dice_and_hands(rules, tmp_path):
    session = replay_script(parse_script(OPENING.read_text(), str(OPENING)), RULES)
    path = tmp_path / "opening.json"
    write_save(session, path)
    data = json.loads(path.read_text())
    assert data["decisions"][:2] == [{"dice": [6, 2]}, {"hand": "ap", "cards": ["Snow", "Fog"]}]
    assert load_save(path, RULES).game.state_hash() == session.game.state_hash()
    assert load_any(OPENING, RULES).game.state_hash() == session.game.state_hash()


def tampered(session, change, reseal: bool = True) -> str:
    """A save with `change` made to it; `reseal`: as by someone who knows to
    recompute the seal, so that the checks behind it are what refuses it."""
    from pogdsl.runtime.record import save_seal

    data = json.loads(save_text(session))
    change(data)
    if reseal and "seal" in data:
        data["seal"] = save_seal(data)
    return json.dumps(data)


def _recompute_hash(data):
    from pogdsl.runtime.interpreter import state_hash

    data["state"]["vars"]["vp"] = 1
    data["hash"] = state_hash(data["state"])


@pytest.mark.parametrize("change, fragment", [
    (lambda d: d["state"]["vars"].__setitem__("vp", 1), "changed since it was saved: its state does not match"),
    (_recompute_hash, "its decisions do not lead to its state"),
    (lambda d: d.__setitem__("scenario", "nowhere"), "scenario 'nowhere', which cannot be found"),
    (lambda d: d.__setitem__("sources_digest", "0" * 64), 'its "sources" do not match its "sources_digest"'),
    # the seal is recomputed by `tampered`: an edit of what a file's fingerprint says is caught on its own
    (lambda d: d["sources"].__setitem__(sorted(d["sources"])[0], "0" * 16),
     'its "sources" do not match its "sources_digest"'),
    (lambda d: d["sources"].__setitem__("rules/extra.pog", "0" * 16), 'its "sources" do not match'),
    (lambda d: d.__setitem__("format", "pogdsl-save/0"), "has format 'pogdsl-save/0'"),
    (lambda d: d.__setitem__("format", "pogdsl-save/1"), "older pogdsl"),
    (lambda d: d.__setitem__("turn", d["turn"] + 1), "its header does not match its state"),
    (lambda d: d.__setitem__("over", not d["over"]), "its header does not match its game"),
    (lambda d: d.__setitem__("scenario_key", "toy"), "a game of scenario 'toy', not 'toy_rules'"),
    (lambda d: d.__setitem__("scenario", "/etc/passwd"), "names its scenario by a path"),
    (lambda d: d.__setitem__("scenario", "games/x.pog"), "names its scenario by a path"),
    (lambda d: d.__setitem__("extra", 1), "fields a save does not have (extra)"),
    (lambda d: d.pop("state"), "the field \"state\" is missing"),
    (lambda d: d["decisions"].__setitem__(1, {"by": "cp", "option": "fly"}), "entry 2 (cp: fly) is not legal"),
    (lambda d: d["decisions"].__setitem__(0, 7), "entry 1 of \"decisions\" is not a decision"),
    (lambda d: d["decisions"].append({"by": "cp", "option": "stay"}), "do not lead to its state"),
    (lambda d: d["state"]["stack"][0].__setitem__("code", {"$": "unit", "k": "nobody"}), "does not fit"),
])
def test_a_damaged_save_is_refused_with_the_reason(rules, tmp_path, change, fragment):
    path = tmp_path / "bad.json"
    path.write_text(tampered(midgame(rules), change))
    with pytest.raises(BadSave) as info:
        load_save(path, RULES)
    assert fragment in str(info.value)


@pytest.mark.parametrize("content, fragment", [
    ("", "is empty"),
    ("{\"format\": \"pogdsl-save/1\", \"scenario\": \"toy", "truncated"),
    ("[1, 2]", "not a pogdsl saved game"),
    ("{nope}", "bad JSON at line 1 column 2"),
])
def test_an_unreadable_save_is_refused(tmp_path, content, fragment):
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(BadSave, match=fragment):
        load_save(path, RULES)


def test_a_binary_file_is_refused(tmp_path):
    path = tmp_path / "bad.json"
    path.write_bytes(b"{\xff\xfe\x00")
    with pytest.raises(BadSave, match="not UTF-8"):
        load_save(path, RULES)


@pytest.mark.parametrize("field_, value", [
    ("turn", 99), ("over", True), ("scenario_key", "toy"), ("seed", 12345), ("options", {"x": "on"}),
    ("scenario", "toy"), ("sources_digest", "0" * 64), ("hash", "0" * 64), ("decisions", []),
])
def test_any_edited_header_field_is_refused_in_one_line(rules, tmp_path, field_, value):
    path = tmp_path / "edited.json"
    path.write_text(tampered(midgame(rules), lambda d: d.__setitem__(field_, value), reseal=False))
    with pytest.raises(BadSave) as info:
        load_save(path, RULES)
    assert "edited or damaged since it was saved" in str(info.value)
    assert "\n" not in str(info.value)


def test_a_save_names_its_scenario_never_a_path(rules, tmp_path):
    session = midgame(rules)
    data = json.loads(save_text(session))
    assert data["scenario"] == "toy_rules"
    # No source location, no folder: the state and its hash are the same wherever the game is played.
    assert ".pog" not in json.dumps(data["state"]) and str(RULES.parents[2]) not in json.dumps(data)
    assert all("/" not in name or not name.startswith("/") for name in data["sources"])


def test_a_save_naming_a_path_is_refused_before_anything_is_read(rules, tmp_path, monkeypatch):
    import pogdsl.runtime.record as record

    def no_compiling(*args, **kwargs):
        raise AssertionError("the scenario was opened before the save was verified")

    monkeypatch.setattr(record, "open_scenario", no_compiling)
    path = tmp_path / "evil.json"
    path.write_text(tampered(midgame(rules), lambda d: d.__setitem__("scenario", "/etc/passwd")))
    with pytest.raises(BadSave) as info:
        load_save(path, RULES)
    assert "by a path" in str(info.value) and "root:" not in str(info.value)
    path.write_text(tampered(midgame(rules), lambda d: d.__setitem__("turn", 7), reseal=False))
    with pytest.raises(BadSave, match="seal"):
        load_save(path, RULES)


def _copy_rules(dest):
    import shutil

    shutil.copytree(RULES, dest)
    return dest


def test_changed_rules_are_named_and_can_be_replayed_under(rules, tmp_path):
    from pogdsl.opening import open_scenario

    root = _copy_rules(tmp_path / "project")
    session = midgame(open_scenario("toy_rules", root, cache=False))
    path = tmp_path / "game.json"
    write_save(session, path)
    changed = root / "scenarios" / "toy_rules.pog"
    changed.write_text(changed.read_text() + "\n# a comment\n")
    with pytest.raises(BadSave) as info:
        load_save(path, root)
    message = str(info.value)
    assert "saved under other rules" in message and changed.relative_to(root).as_posix() in message
    assert "--under-current-rules" in message
    loaded = load_save(path, root, under_current_rules=True)
    assert loaded.game.state_hash() == session.game.state_hash() and not loaded.replayed_differs


def test_under_current_rules_names_the_first_decision_no_longer_legal(rules, tmp_path):
    session = midgame(rules)
    path = tmp_path / "game.json"

    def forbid(d):
        d["sources_digest"] = "0" * 64
        d["decisions"][1] = {"by": d["decisions"][1]["by"], "option": "fly to the moon"}

    path.write_text(tampered(session, forbid))
    with pytest.raises(BadSave) as info:
        load_save(path, RULES, under_current_rules=True)
    assert "entry 2" in str(info.value) and "no longer legal under the current rules" in str(info.value)


def test_an_old_format_save_is_refused_clearly_or_replayed_under_current_rules(rules, tmp_path):
    session = midgame(rules)
    data = json.loads(save_text(session))
    old = {k: data[k] for k in ("scenario", "scenario_key", "seed", "options", "sources_digest", "turn", "over",
                                "decisions", "state", "hash")}
    old["format"] = "pogdsl-save/1"
    path = tmp_path / "old.json"
    path.write_text(json.dumps(old))
    with pytest.raises(BadSave, match=r"older pogdsl .*--under-current-rules"):
        load_save(path, RULES)
    loaded = load_save(path, RULES, under_current_rules=True)
    assert loaded.game.state_hash() == session.game.state_hash()


def test_the_state_holds_no_source_location_but_a_decision_still_shows_it(rules, tmp_path, monkeypatch):
    from pogdsl.opening import open_scenario

    session = midgame(rules)
    assert session.decision.where and "toy_rules.pog:" in session.decision.where
    assert "where" not in session.game.s["pending"]
    # The same game opened from another folder, with the root written another way, has the same hash.
    monkeypatch.chdir(tmp_path)
    other = midgame(open_scenario("toy_rules", RULES.resolve(), cache=False))
    assert other.game.state_hash() == session.game.state_hash()
