"""Set-up lines in scripts (issue 33, "modding without friction"): a position
put together by hand — units placed and removed, control, trenches, tracks,
the turn, the phase — so that a card is tried in it with `pogdsl replay` and
no Python.

The rule checked through them is written from the rulebook (Deluxe 9.5.3.1):
no side may play a reinforcement card in the August 1914 turn, and may on a
later one; the set-up line `set turn 2` is what makes the later turn.  The
phase set by hand is checked against the sequence of play (6.0): the phases
follow in their order and a turn's last one leads to the next turn's first;
the Central Powers act first in every action round (6.0 B); an automatic
victory is found in segment E.2 of the War Status Phase (5.2.1), not when the
VP merely reach 20."""

from __future__ import annotations

import json

import pytest

from pogdsl.runtime.errors import BadSave
from pogdsl.runtime.record import ScriptError, load_any, parse_script, replay_script, save_data, save_seal, script_text

from .conftest import run_cli

OPENING = """\
scenario campaign
seed 3
hand cp 'Guns of August', 'German Reinforcements (GE 9)'
cp: start with Guns of August in hand: no
"""
GE9_EVENT = "play 7 event (German Reinforcements (GE 9))"


def play(text: str):
    return replay_script(parse_script(text, "position.script"))


def test_no_reinforcement_card_in_august_1914_but_on_a_later_turn():
    # 9.5.3.1: neither player plays a reinforcement card on the August 1914 turn.
    play(OPENING + f"expect turn 1\nexpect illegal '{GE9_EVENT}' by 9.5.3.1\n")
    session = play(OPENING + f"set turn 2\nexpect turn 2\nexpect legal {GE9_EVENT}\n")
    assert GE9_EVENT in session.decision.options


def test_lines_build_the_position_they_say():
    session = play(OPENING + """\
place 'GE 1' at Liege reduced
place AH 1 at Belgrade
remove 'BE 1'
set control[Liege] cp
set trench[Verdun] 2
set vp to 14
expect location 'GE 1' Liege
expect location 'AH 1' Belgrade
expect control Liege cp
expect trench[Verdun] 2
expect vp 14
""")
    g, w = session.game, session.world
    ge1 = w.by_kind["unit"]["GE 1"]
    assert g.s["reduced"][ge1.index] is True
    assert g.s["loc"][w.by_kind["unit"]["BE 1"].index] is None
    assert "position set by hand: 6 lines" in session.forced()


def test_a_save_and_a_written_script_keep_the_position(tmp_path):
    session = play(OPENING + "set trench[Verdun] 2\nplace 'GE 1' at Liege\nset turn 2\n")
    data = save_data(session)
    assert {"setup": "set", "args": ["trench[Verdun]", "2"]} in data["decisions"]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    again = load_any(path, None)
    assert again.game.state_hash() == session.game.state_hash()
    written = script_text(session)
    assert "set trench[Verdun] 2" in written and "place 'GE 1' at Liege" in written
    assert play(written).game.state_hash() == session.game.state_hash()


def test_the_action_phase_set_again_starts_with_the_central_powers():
    # 6.0 B: in each action round the Central Powers act first.  Once they
    # have acted, it is the Allies' turn; the phase started again by hand
    # goes back to the Central Powers.
    acted = play(OPENING + "cp: play 3 rp (Von Francois)\n")
    assert (acted.decision.by, acted.game.s["phase"]) == ("ap", "action")
    again = play(OPENING + "cp: play 3 rp (Von Francois)\nset phase action\nexpect phase action\nexpect turn 1\n")
    assert again.decision.by == "cp"
    assert "play 3 rp (Von Francois)" not in again.decision.options  # the card played is gone from the hand


def test_the_turn_goes_on_from_the_phase_set_to_the_next_turn():
    # 6.0: the phases in their order; after the last (H, end of turn) the next
    # turn begins with its Mandated Offensive Phase, then its Action Phase.
    session = play(OPENING + "set phase end_of_turn\nexpect turn 2\nexpect phase action\n")
    assert session.decision.by == "cp"


def test_an_automatic_victory_is_found_in_the_war_status_phase():
    # 5.2.1: the Central Powers win automatically with 20 VP or more during
    # segment E.2 of the War Status Phase: 20 VP in the Action Phase end
    # nothing yet; the War Status Phase started by hand ends the game.
    assert not play(OPENING + "set vp 20\n").game.over
    session = play(OPENING + "set vp 20\nset phase war_status_phase\nexpect winner cp\n")
    assert session.game.outcome.rules[-1] == "5.2.1"


def test_a_phase_set_by_hand_is_kept_by_a_save(tmp_path):
    session = play(OPENING + "set phase end_of_turn\n")
    path = tmp_path / "game.json"
    path.write_text(json.dumps(save_data(session)), encoding="utf-8")
    assert load_any(path, None).game.state_hash() == session.game.state_hash()
    assert play(script_text(session)).game.state_hash() == session.game.state_hash()


def test_the_phase_cannot_be_set_while_the_set_up_runs():
    # (the Campaign's set-up asks whether Guns of August starts in hand: 4.3.1)
    with pytest.raises(ScriptError, match=r"position.script:3: the scenario's set-up is still running"):
        play("scenario campaign\nseed 3\nset phase action\ncp: start with Guns of August in hand: no\n")


@pytest.mark.parametrize("line, said", [
    ("set phase lunch", "no phase 'lunch' in this scenario's sequence of play: mandated_offensive, action, "),
    ("place 'GE 99' at Liege", "no unit named 'GE 99'"),
    ("place 'GE 1' at Atlantis", "no space or box named 'Atlantis'"),
    ("place 'GE 1' Liege", "`place` reads `place UNIT at SPACE`"),
    ("remove 'GE 9'", "GE 9 is not in play"),
    ("set trench[Verdun] 7", "'trench' runs from 0 to 2, not 7"),
    ("set trench 1", "'trench' is kept per space"),
    ("set vp lots", "'lots' is not a whole number"),
    ("set vp " + "9" * 5000, "'vp' is a whole number"),
    ("set besieged[Liege] maybe", "'besieged' is true or false"),
    ("set nothing_here 1", "cannot set 'nothing_here'"),
    ("set control[Liege] xp", "no side named 'xp'"),
    ("set", "`set` needs what to set"),
])
def test_a_bad_line_is_named_with_its_line(line, said):
    with pytest.raises(ScriptError) as err:
        play(OPENING + line + "\n")
    assert err.value.line == 5 and said in err.value.message, err.value.message


def test_a_tampered_save_entry_is_refused_in_one_line(tmp_path):
    session = play(OPENING + "set vp 12\n")
    data = save_data(session)
    data["decisions"].append({"setup": "set", "args": ["vp", "to", "x" * 50]})
    data["seal"] = save_seal(data)  # as by someone who knows to reseal: the line itself is refused
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(BadSave) as err:
        load_any(path, None, under_current_rules=True)
    assert "\n" not in str(err.value)
    data["decisions"][-1] = {"setup": "format_disk", "args": []}
    data["seal"] = save_seal(data)
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(BadSave, match="not a decision or an input"):
        load_any(path, None, under_current_rules=True)


def test_replay_runs_a_position_script(tmp_path):
    script = tmp_path / "card.script"
    script.write_text(OPENING + f"set turn 2\nexpect legal {GE9_EVENT}\n", encoding="utf-8")
    proc = run_cli("replay", str(script))
    assert proc.returncode == 0, proc.stderr
    assert "position set by hand: 1 line" in proc.stdout
