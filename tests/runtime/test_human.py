"""The terminal agent, fed lines as if typed."""

from __future__ import annotations

import io

from pogdsl.agents import HumanAgent, RandomAgent, make_agent, play
from pogdsl.runtime.record import Session, load_save

from .conftest import RULES


def fed(lines):
    it = iter(lines)

    def read(prompt=""):
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None
    return read


def human_game(rules, lines, seed=1, trace=False):
    out = io.StringIO()
    session = Session.new(rules, seed, [])
    agents = {"ap": HumanAgent("ap", input_fn=fed(lines), out=out), "cp": RandomAgent(3)}
    status = play(session, agents, out=out, trace=trace)
    return session, status, out.getvalue()


def test_a_few_decisions_with_every_command(rules, tmp_path):
    save = tmp_path / "s.json"
    lines = [
        "undo",                # nothing of ap's to take back yet
        "why pick 3",          # at play_card: not an option here
        "play Snow",
        "undo",                # back to play_card: playing Snow rolled no die and showed no card
        "play Snow",
        "why pick 3",          # at `pick`: forbidden, with its rule
        "why pick 1",
        "why pick",            # the beginning of several options: listed
        "why PICK 3",          # matched as answers are (any case)
        "space PARIS", "space Atlantis",
        "hand", "hand cp", "hand nobody",
        "tracks",
        "tracks all",
        "log 2",
        "options",
        "",
        "pick 2",              # rolls a die, and ap draws a card
        "undo",                # refused: it would roll that die again
        "3",                   # no option 3 here: refused, asked again
        "play Mud",
        "pick 3",              # forbidden: refused with the rule
        "1",
        f"save {save}",
        "help",
        "quit",
    ]
    session, status, out = human_game(rules, lines)
    assert status == "quit"
    assert "── turn 1 · action ── ap to choose: play_card · rule 6.1" in out
    assert "nothing to undo: no decision of yours yet" in out
    assert "'pick 3' is not an option of this decision (play_card), legal or forbidden" in out
    assert "'pick' is the beginning of several options: pick 1 | pick 2 | pick 3" in out
    assert out.count("'pick 3' is forbidden by no_three (rule 3.2): Three is only") == 3  # why pick 3, why PICK 3, the answer
    assert "'pick 3' is forbidden by no_three (rule 3.2)" in out
    assert "'pick 1' is legal now" in out
    assert "Paris: nation fr, terrain clear, control ap, VP space" in out
    assert "units: FR 1 3-3-3" in out
    assert "no space named 'Atlantis'" in out
    assert "ap's hand (1 card):\n  #3 Mud  (ops 3 sr 3)" in out
    assert "cp's hand: 0 cards (hidden from ap)" in out
    assert "no side named 'nobody'" in out
    assert "vp = 6" in out and "score (per side, start 0): ap 0, cp 0" in out
    assert "at their start values: `tracks all` shows them" in out
    assert "T1 action: vp -4 → 6  [4.5]" in out
    assert "took back 1 decision" in out
    assert "cannot take back that decision: a die was rolled" in out
    assert "Not legal: there is no option 3: choose 1 to 2" in out
    assert "Not legal: 'pick 3' is forbidden by no_three (rule 3.2)" in out
    assert "Commands:" in out
    loaded = load_save(save, RULES)
    assert loaded.game.state_hash() == session.game.state_hash()
    # The first undo took back `play Snow`; the second, past a die, was refused.
    picks = [e.text for e in session.events if e.kind == "decision" and e.by == "ap"]
    assert picks == ["play Snow", "pick 2", "play Mud", "pick 1"]


def test_end_of_input_stops_the_game(rules):
    session, status, out = human_game(rules, [])
    assert status == "quit" and "(end of input: stopping)" in out
    assert session.decision is not None


def test_a_human_sees_the_trace(rules):
    _, _, out = human_game(rules, ["1", "1", "quit"], trace=True)
    assert "[trace] forbid no_three (rule 3.2)" in out


def test_make_agent_specs(tmp_path):
    assert make_agent("human", "ap", 1).human
    a, b = make_agent("random", "ap", 5), make_agent("random", "ap", 5)
    assert a.seed == b.seed and make_agent("random", "cp", 5).seed != a.seed
    assert make_agent("random:12", "ap", 5).seed == 12
    script = tmp_path / "s.txt"
    script.write_text("ap: pick 1\ncp: stay\n")
    agent = make_agent(f"script:{script}", "ap", 0)
    assert [e.text for e in agent.queue] == ["pick 1"]
    import pytest

    for bad in ("robot", "random:x", "script:"):
        with pytest.raises(ValueError):
            make_agent(bad, "ap", 0)


def test_the_prompt_shows_the_opponents_hand_size_never_its_cards(rules):
    """Each side sees its own hand; of the other side's, only how many cards
    it holds (a hot-seat game shows each player their own at their turn)."""
    session = Session.new(rules, 1, [])
    d = session.game.run()
    me, other = str(d.by), ("ap" if str(d.by) == "cp" else "cp")
    theirs = next(c for c in session.world.cards if c.data.side.text == other)
    session.game.move_card(theirs, f"hand:{other}")
    out = io.StringIO()
    agent = HumanAgent(me, input_fn=fed([]), out=out)
    agent.cmd_hand(session, d, other)
    agent.cmd_hand(session, d, "")
    text = out.getvalue()
    assert f"{other}'s hand: " in text and f"(hidden from {me})" in text
    assert theirs.data.name.text not in text
    assert f"{me}'s hand (" in text
