"""`why`, `pogdsl explain` and the explain module: why an option is legal,
forbidden or not offered, down to the sub-condition that decided.

The campaign's cases are written from the Deluxe rulebook
(/work/shared/rulebooks): no reinforcement card on the August 1914 turn
(9.5.3.1), each player plays from his own deck (9.1.2), a space is activated
for movement or combat but not both (9.2.5).  Each checks that the
explanation names the condition that decided, the value it saw, where it is
written and its rule, against the source files themselves."""

from __future__ import annotations

import io
import json

import pytest

from pogdsl.explain import explain_option, forbidden_options, trace_log
from pogdsl.explain.unparse import unparse
from pogdsl.runtime.record import load_any, replay_events

from .conftest import GAMES, REPO, RULES, run_cli

OPENING = GAMES / "opening.txt"

# Turn 1 (August 1914), the Central Powers' first action round, with a
# reinforcement card in hand (Guns of August is played as the event first:
# `cp: 2` declines it, so the ordinary first action follows).
AUGUST_1914 = """\
scenario campaign
seed 3
hand cp 'German Reinforcements (GE 9)', 'Guns of August'
cp: 2
"""


def _source_line(file: str, line: int, end_line: int | None = None) -> str:
    """The source's line LINE (through END_LINE: an expression laid out on
    several lines), as one text."""
    lines = (REPO / file).read_text(encoding="utf-8").splitlines()[line - 1:end_line or line]
    return " ".join(part.strip() for part in lines)


@pytest.fixture(scope="module")
def august(tmp_path_factory):
    path = tmp_path_factory.mktemp("explain") / "august.txt"
    path.write_text(AUGUST_1914, encoding="utf-8")
    return path, load_any(path, REPO)


@pytest.fixture(scope="module")
def at_pick():
    """The toy game with rules at ap's `pick` of turn 1: France not attacked yet."""
    session = load_any(OPENING, RULES)
    cut = [i for i, e in enumerate(session.events) if e.kind == "decision"][3]
    return replay_events(session.opened, session.game.s["seed"], session.events[:cut], str(OPENING))


# ---------------------------------------------------------------- the rulebook
def test_no_reinforcement_card_on_the_august_1914_turn(august):
    _, session = august
    game = session.game
    assert game.s["turn"] == 1 and game.decision().choice == "take_action"
    e = explain_option(game, "play 7 event")  # German Reinforcements (GE 9), a unique beginning
    assert e.verdict == "forbidden"
    assert e.shown == "play 7 event (German Reinforcements (GE 9))"
    data = e.to_json()
    assert data["block"] == "reinforcement_play" and "9.5.3.1" in data["rules"]
    # Down to the sub-condition: the turn test inside the value the restriction calls.
    assert data["condition"] == "turn > 1" and data["value"] is False
    assert data["values"] == {"turn": 1}
    assert data["condition_block"] == "reinforcements_allowed" and data["condition_rules"] == ["9.5.3.1"]
    assert "turn > 1" in _source_line(data["condition_file"], data["condition_line"])
    assert data["condition_note"]  # the value's own-words note comes along
    text = e.to_text()
    assert (f"because `turn > 1` is false: turn is 1 — `reinforcements_allowed`, "
            f"{data['condition_file']}:{data['condition_line']}, rule 9.5.3.1") in text
    # The tree shows the path there: the restriction's `when`, the `not`, the call opened.
    assert "`not reinforcements_allowed(p, c)` is true" in text
    assert "`reinforcements_allowed(p, c)` is false: player is cp, c is cp 7" in text


def test_a_legal_option_says_which_restrictions_it_passed(august):
    _, session = august
    e = explain_option(session.game, "play 7 ops")
    assert e.verdict == "legal" and e.decisive() is None
    passed = {r.block.name: r for r in e.reasons}
    assert "reinforcement_play" in passed and not passed["reinforcement_play"].decides
    leaf = passed["reinforcement_play"].deciding()
    assert leaf.text == "use == event" and leaf.value is False and leaf.seen[0][0] == "use"
    assert "reinforcement_play, rules/09-events.pog:" in e.to_text()


def test_a_card_of_the_other_deck_is_not_offered(august):
    _, session = august  # 9.1.2: each player has his own deck; Pleve is the Allies' card 4
    e = explain_option(session.game, "play 4 event (Pleve)")
    assert e.verdict == "not offered"
    reason = e.decisive()
    assert reason.kind == "source" and reason.block.name == "take_action"
    assert "c = ap 4 (Pleve) is not in `cards_in(hand(player))`" in e.headline
    assert reason.span.file == "rules/08-action-phase.pog"
    assert "cards_in(hand(player))" in _source_line(reason.span.file, reason.span.line, reason.span.end_line)


def test_an_activated_space_is_not_offered_again(august, tmp_path):
    path, _ = august  # 9.2.5: a space is activated for movement or for combat, not both
    script = tmp_path / "activated.txt"
    script.write_text(path.read_text() + "cp: play 2 ops\ncp: activate Tarnow move\n", encoding="utf-8")
    game = load_any(script, REPO).game
    e = explain_option(game, "activate Tarnow attack")
    assert e.verdict == "not offered"
    leaf = e.decisive().deciding()
    assert leaf.text == "activation[s] == none" and leaf.value is False
    assert [(name, str(v)) for name, v in leaf.seen] == [("activation[s]", "move")]
    assert leaf.block.name == "activatable_spaces"
    assert "activation[s] == none" in _source_line(leaf.expr.span.file, leaf.expr.span.line)
    assert explain_option(game, "activate Munkacs attack").verdict == "legal"


def test_a_text_naming_no_option_gets_the_nearest(august):
    _, session = august
    e = explain_option(session.game, "play 7 evnt (German Reinforcements (GE 9))")
    assert e.verdict == "unknown"
    assert e.suggestions[0] == "play 7 event (German Reinforcements (GE 9))"
    assert "did you mean 'play 7 event (German Reinforcements (GE 9))'" in e.headline


def test_explaining_leaves_the_game_as_it_was(august):
    _, session = august
    before = session.game.state_hash()
    explain_option(session.game, "play 7 event")
    explain_option(session.game, "play 4 event (Pleve)")
    forbidden_options(session.game)
    assert session.game.state_hash() == before


# ---------------------------------------------------------------- the toy game
def test_forbidden_option_names_the_unless_that_failed(at_pick):
    e = explain_option(at_pick.game, "PICK 3")  # matched as answers are: any case
    assert e.verdict == "forbidden" and e.shown == "pick 3"
    assert e.headline.startswith("'pick 3' is forbidden by no_three (rule 3.2): Three is only")
    roles = {role: f for role, f in e.decisive().parts}
    assert roles["when"].value is True and roles["when"].seen == [("n", 3)]
    assert roles["unless"].text == "attacked" and roles["unless"].value is False
    assert e.to_json()["condition"] == "attacked"


def test_forbidden_options_lists_each_with_its_reason(at_pick):
    found = forbidden_options(at_pick.game)
    assert [e.shown for e in found] == ["pick 3"]
    assert found[0].decisive().block.name == "no_three"
    json.dumps([e.to_json() for e in found])  # plain JSON data


def test_a_where_filter_names_the_part_that_left_the_option_out(tmp_path):
    from pogdsl.opening import open_scenario

    (tmp_path / "scenarios").mkdir()
    (tmp_path / "scenarios" / "where.pog").write_text(
        (RULES / "scenarios" / "toy_rules.pog").read_text(encoding="utf-8")
        + '\nphase even_only cites 9.3 {\n  choose pick(n) by ap for n in [1, 2, 3, 4, 6]\n'
          '    where n % 2 == 0 or n > vp\n  shift vp by n cites 9.3\n}\n'
          'restriction no_bonus_four cites 9.4 {\n  forbid pick(n) when n == 4 and pick_bonus(n) > 0\n}\n'
          'sequence even_turn { even_only }\nscenario even "Even" { turns 1..1 sequence even_turn }\n',
        encoding="utf-8")
    game = open_scenario("even", tmp_path).new_game(1)
    game.run()
    assert game.decision().options == ["pick 2", "pick 6"]
    e = explain_option(game, "pick 3")
    assert e.verdict == "not offered" and e.decisive().kind == "filter"
    where = e.decisive().parts[0][1]
    assert where.value is False and [p.text for p in where.parts] == ["n % 2 == 0", "n > vp"]  # `or`: every false part
    assert where.parts[1].seen == [("n", 3), ("vp", 10)]
    assert e.to_json()["condition"] == "n % 2 == 0"
    # A value a modifier changed: its own expression gives 0, big_pick adds 1 (3.4).
    four = explain_option(game, "pick 4")
    assert four.verdict == "forbidden"
    bonus = four.decisive().deciding()
    assert bonus.text == "pick_bonus(n) > 0" and bonus.seen == [("pick_bonus(n)", 1)]
    assert bonus.parts[0].note == "its own expression gives 0; modifier big_pick changes it"


def test_why_in_the_play_prompt(at_pick):
    from pogdsl.agents import HumanAgent

    out = io.StringIO()
    agent = HumanAgent("ap", out=out)
    d = at_pick.decision
    agent.cmd_why(at_pick, d, "")
    agent.cmd_why(at_pick, d, "pick 3")
    agent.cmd_why(at_pick, d, "pick 1")
    said = out.getvalue()
    assert "1 forbidden now" in said
    assert "because `attacked` is false — `no_three`" in said
    assert "unless: `attacked` is false" in said
    assert "'pick 1' is legal now" in said


def test_log_lines_trace_to_the_blocks_that_wrote_them():
    session = load_any(OPENING, RULES)
    lines = trace_log(session)
    assert [line.entry for line in lines] == session.game.s["log"]
    snow = next(line for line in lines if line.entry["text"] == "vp -4 → 6")
    assert [(f.kind, f.name) for f in snow.frames] == [("card", "ap 4"), ("phase", "action")]
    assert "shift vp by -4" in _source_line(snow.frames[0].span.file, snow.frames[0].span.line)
    assert snow.frames[0].rules == ["4.5"]


def test_unparse_writes_conditions_as_their_authors_do(campaign_scenario):
    program = campaign_scenario.world.program
    texts = [unparse(f.when) for d in program.all("restriction") for f in d.forbids if f.when is not None]
    assert "use == event and c != none and len(c.reinforcements) > 0 and not reinforcements_allowed(p, c)" in texts
    value = program.decls["value"]["entry_open"]
    assert "(s != Orleans or (Paris.control == player and not besieged[Paris]))" in unparse(value.expr)


# ---------------------------------------------------------------- the command
def test_cli_explains_an_option_of_a_script():
    proc = run_cli("explain", "--root", RULES, OPENING, "--at", "3", "pick", "3")
    assert proc.returncode == 0, proc.stderr
    assert "turn 1, 3 decisions made: ap to choose pick" in proc.stdout
    assert "because `attacked` is false — `no_three`" in proc.stdout
    proc = run_cli("explain", "--root", RULES, OPENING, "--at", "3", "--json", "pick 2")
    data = json.loads(proc.stdout)
    assert data["verdict"] == "legal" and data["reasons"][0]["values"] == {"n": 2}
    proc = run_cli("explain", "--root", RULES, OPENING, "--at", "3")
    assert "1 option forbidden" in proc.stdout and "'pick 3' is forbidden by no_three" in proc.stdout


def test_cli_traces_a_log_line():
    proc = run_cli("explain", "--root", RULES, OPENING, "--log", "7")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("#7 T1 action: vp -4 → 6  [4.5]\n  written by card ap 4 'Snow' at ")
    assert "called from phase action" in proc.stdout


@pytest.mark.parametrize("args, status, said", [
    (["--at", "9", "pick"], 2, "--at 9: "),
    (["--at", "-1", "pick"], 2, "--at -1: a number of decisions"),
    (["--log", "0"], 2, "--log 0: a log line's number"),
    (["--log", "999"], 2, "--log 999: the log has "),
    (["--at", "3", "pik 3"], 1, "did you mean 'pick 3'"),
])
def test_cli_refuses_bad_input_in_one_line(args, status, said):
    proc = run_cli("explain", "--root", RULES, OPENING, *args)
    assert proc.returncode == status
    assert said in proc.stderr and proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr


def test_cli_refuses_a_bad_file_in_one_line(tmp_path):
    proc = run_cli("explain", tmp_path / "missing.json", "x")
    assert proc.returncode == 2 and "no such file" in proc.stderr
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    proc = run_cli("explain", bad, "x")
    assert proc.returncode == 1 and proc.stderr.startswith("pogdsl explain: error: ")
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr


def test_explanations_agree_with_the_games_refusals(campaign_scenario):
    """Over a random Campaign game, every option `forbidden_options` lists is
    refused by the game, by the same restrictions, and the game is left as
    it was: the walk of the conditions and the generated code agree."""
    import random

    game = campaign_scenario.new_game(11)
    pick = random.Random(11)
    d, checked = game.run(), 0
    for _ in range(60):
        if d is None:
            break
        before = game.state_hash()
        for e in forbidden_options(game):
            shown, legal, forbidding = game.match_candidate(e.shown)
            assert not legal
            assert {r.block.name for r in e.reasons if r.decides} == {x.key for x in forbidding}, e.shown
            checked += 1
        assert game.state_hash() == before
        d = game.choose(pick.randrange(len(d.options)) + 1)
    assert checked > 20


def test_a_side_sees_no_card_of_the_other_hand_in_an_explanation(august):
    """Hidden information: explained for the Allies, the Central Powers'
    hand (the source the option is missing from) shows as hidden cards."""
    _, session = august
    for_allies = explain_option(session.game, "play 4 event (Pleve)", viewer="ap")
    assert "a hidden card" in for_allies.to_text() and "cp 7" not in for_allies.to_text()
    assert "cp 7" not in json.dumps(for_allies.to_json())
    for_cp = explain_option(session.game, "play 4 event (Pleve)", viewer="cp")
    assert "cp 7" in for_cp.to_text() and "a hidden card" not in for_cp.to_text()
    forbidden = forbidden_options(session.game, viewer="ap")
    assert all("cp 7" not in e.to_text() for e in forbidden)


def test_cli_explains_an_option_of_a_save(tmp_path):
    from pogdsl.runtime.record import write_save

    save = tmp_path / "game.json"
    write_save(load_any(OPENING, RULES), save)
    proc = run_cli("explain", "--root", RULES, save, "--at", "3", "pick", "3")
    assert proc.returncode == 0, proc.stderr
    assert "'pick 3' is forbidden by no_three (rule 3.2)" in proc.stdout
    assert "because `attacked` is false" in proc.stdout


def test_why_log_in_the_play_prompt(at_pick):
    from pogdsl.agents import HumanAgent

    out = io.StringIO()
    agent = HumanAgent("ap", out=out)
    d = at_pick.decision
    for line in ("log", "log 2", "log 999", "log x"):
        agent.cmd_why(at_pick, d, line)
    said = out.getvalue()
    last, second = at_pick.game.s["log"][-1], at_pick.game.s["log"][-2]
    assert f"T1 action: {last['text']}" in said and f"T1 action: {second['text']}" in said
    assert "written by card ap 4 'Snow' at " in said  # Snow's event shifted the VP (4.5)
    assert f"the log has {len(at_pick.game.s['log'])} lines" in said
    assert "why log [N]: N counts the log's lines from the last" in said


def test_after_august_1914_the_reinforcement_passes_the_turn_test(august, tmp_path):
    path, _ = august  # 9.5.3.1: the August 1914 turn only; on turn 2 the card may be played as an event
    script = tmp_path / "september.txt"
    script.write_text(path.read_text() + "set turn 2\n", encoding="utf-8")
    game = load_any(script, REPO).game
    e = explain_option(game, "play 7 event")
    assert e.verdict == "legal"
    clause = next(r for r in e.reasons if r.block.name == "reinforcement_play")
    assert not clause.decides
    passed = clause.deciding()  # the value's every part holds: the value itself is the answer
    assert passed.text == "reinforcements_allowed(p, c)" and passed.value is True
    opened = passed.parts[0]
    assert opened.parts[0].text == "turn > 1" and opened.parts[0].seen == [("turn", 2)]
