"""The terminal prompt (pogdsl/agents/terminal.py): prompt_toolkit's real
prompt driven through a pipe (`create_pipe_input`, `DummyOutput`), as a person
types: completion, history, long option lists grouped and paged, the status
line; and the `tracks` and `unit` commands of the terminal player.

The option lists, names and tracks are the scenarios' own: the Campaign's
first action offers every card of the Central Powers' hand (8.1.3), an
operation offers each space holding its units for movement or for attack
(9.2.5), and the status line and `tracks` show the tracks the display blocks
declare (the Illusions variant's National Will with no Python of its own)."""

from __future__ import annotations

import io
import os
import threading
import time
from pathlib import Path

import pytest
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from pogdsl.agents import HumanAgent, RandomAgent, play
from pogdsl.agents.human import COMMANDS
from pogdsl.agents.terminal import TerminalPrompt, history_path, option_groups, option_lines
from pogdsl.opening import open_scenario
from pogdsl.runtime.record import Session

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def campaign():
    return open_scenario("campaign", REPO)


@pytest.fixture(scope="module")
def illusions():
    return open_scenario("illusions", REPO)


@pytest.fixture
def pipe():
    with create_pipe_input() as inp:
        yield inp


def at(opened, choice: str, seed: int = 0):
    """A session of OPENED at its first decision called CHOICE: first options
    taken, a card of two OPS or more played for operations."""
    session = Session.new(opened, seed)
    d = session.game.run()
    cards = session.world.by_kind["card"]
    while d.choice != choice:
        if d.choice == "take_action":  # `play N ops (NAME)`: N is the card's number
            d = session.game.choose(next(o for o in d.options
                                         if " ops (" in o and cards[f"{d.by} {o.split()[1]}"].data.ops >= 2))
        else:
            d = session.game.choose(d.options[0])
    return session, d


def completions(terminal, session, decision, typed: str) -> list[str]:
    terminal.context = (session, decision)
    terminal.commands = COMMANDS
    found = terminal.prompt.completer.get_completions(Document(typed, len(typed)), CompleteEvent(True))
    return [c.text for c in found]


def typed_in_the_prompt(terminal, pipe, session, decision, keys: str) -> tuple[str, str]:
    """KEYS typed at the real prompt, the completion (if any) let finish,
    then Enter: (the line as it stood before Enter, the line read)."""
    read = []
    worker = threading.Thread(target=lambda: read.append(terminal.read(session, decision, COMMANDS)))
    worker.start()
    pipe.send_text(keys)
    buffer = terminal.prompt.default_buffer
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and buffer.text != keys.replace("\t", "") and buffer.complete_state is None:
        time.sleep(0.02)
    time.sleep(0.2)  # (a completion inserts its common part once found)
    before = buffer.text
    pipe.send_text("\r")
    worker.join(10)
    assert read, "the prompt returned no line"
    return before, read[0]


def game_at_the_prompt(opened, pipe, lines: list[str], page_lines: int = 6, side: str = "cp"):
    """OPENED played by a person at the pipe's prompt for SIDE (the other
    side random), on a screen 100 wide with PAGE_LINES a page: the session,
    the play's status, what was printed, the prompt."""
    terminal = TerminalPrompt(input=pipe, output=DummyOutput(), page_lines=page_lines, width=100)
    out = io.StringIO()
    session = Session.new(opened, 0)
    other = "ap" if side == "cp" else "cp"
    agents = {side: HumanAgent(side, terminal=terminal, out=out), other: RandomAgent(1)}
    pipe.send_text("".join(line + "\r" for line in lines))
    status = play(session, agents, out=out)
    return session, status, out.getvalue(), terminal


# ------------------------------------------------------------ completion
def test_option_texts_and_commands_complete_in_any_case(campaign, pipe):
    session, d = at(campaign, "take_action")
    terminal = TerminalPrompt(input=pipe, output=DummyOutput())
    assert completions(terminal, session, d, "PLAY 3 OPS") == ["play 3 ops (Von Francois)"]
    assert completions(terminal, session, d, "tra") == ["tracks"]
    # A word's beginning anywhere in the option, in order:
    found = completions(terminal, session, d, "sr landw")
    assert found == [o for o in d.options if "sr" in o.split() and "Landwehr" in o]
    # Letters in order, when no beginning matches:
    assert "play 3 ops (Von Francois)" in completions(terminal, session, d, "vnfrnc")


def test_space_unit_card_and_side_names_complete_from_the_world(campaign, pipe):
    session, d = at(campaign, "take_action")
    terminal = TerminalPrompt(input=pipe, output=DummyOutput())
    assert completions(terminal, session, d, "space verd") == ["Verdun"]
    spaces = completions(terminal, session, d, "space ")
    assert len(spaces) == len(session.world.spaces) + len(session.world.boxes)
    units = completions(terminal, session, d, "unit ge 1")
    assert units[0] == "GE 1" and all(u in {x.key for x in session.world.units} for u in units)
    cards = completions(terminal, session, d, "card guns")
    assert cards[0] == "Guns of August" and "Fortified Machine Guns" in cards
    assert completions(terminal, session, d, "card cp 1")[0] == "CP 1"
    assert completions(terminal, session, d, "hand ") == ["ap", "cp"]
    assert completions(terminal, session, d, "why play 3 s") == ["play 3 sr (Von Francois)"]


def test_tab_completes_at_the_real_prompt(campaign, pipe):
    session, d = at(campaign, "take_action")
    terminal = TerminalPrompt(input=pipe, output=DummyOutput())
    before, line = typed_in_the_prompt(terminal, pipe, session, d, "space verd\t")
    assert before == line == "space Verdun"
    _, line = typed_in_the_prompt(terminal, pipe, session, d, "play 5 ev\t")
    assert line == "play 5 event (Landwehr)" and line in d.options


# ------------------------------------------------------------ history
def test_up_arrow_recalls_the_lines_typed_before(campaign, pipe):
    session, d = at(campaign, "take_action")
    terminal = TerminalPrompt(input=pipe, output=DummyOutput())
    for line in ("tracks", "hand"):
        pipe.send_text(line + "\r")
        assert terminal.read(session, d, COMMANDS) == line
    pipe.send_text("\x1b[A\x1b[A\r")  # up twice: the line before the last
    assert terminal.read(session, d, COMMANDS) == "tracks"


def test_the_history_file_keeps_lines_between_games(campaign, pipe, tmp_path):
    session, d = at(campaign, "take_action")
    path = tmp_path / "data" / "history"
    first = TerminalPrompt(input=pipe, output=DummyOutput(), history=path)
    pipe.send_text("space Verdun\r")
    first.read(session, d, COMMANDS)
    again = TerminalPrompt(input=pipe, output=DummyOutput(), history=path)
    pipe.send_text("\x1b[A\r")
    assert again.read(session, d, COMMANDS) == "space Verdun"


def test_an_unwritable_history_never_stops_the_game(campaign, pipe, tmp_path):
    session, d = at(campaign, "take_action")
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    terminal = TerminalPrompt(input=pipe, output=DummyOutput(), history=blocker / "history")
    pipe.send_text("hand\r")
    assert terminal.read(session, d, COMMANDS) == "hand"
    directory = tmp_path / "a-folder"
    directory.mkdir()
    terminal = TerminalPrompt(input=pipe, output=DummyOutput(), history=directory)  # a folder, not a file
    pipe.send_text("hand\r")
    assert terminal.read(session, d, COMMANDS) == "hand"


def test_the_history_path_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("POGDSL_HISTORY", str(tmp_path / "h"))
    assert history_path() == tmp_path / "h"
    monkeypatch.setenv("POGDSL_HISTORY", "")
    assert history_path() is None
    monkeypatch.delenv("POGDSL_HISTORY")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert history_path() == tmp_path / "pogdsl" / "history"


# ------------------------------------------------------------ long lists
def numbers_in(text: str) -> list[int]:
    """The option numbers printed in TEXT (`  12. play ...`)."""
    import re

    return [int(n) for n in re.findall(r"(?:^|  |· )\s*(\d+)\. ", text, re.M)]


def test_a_long_list_is_paged(campaign, pipe):
    # The first action offers 26 options (each card for OPS, SR, RP, and its
    # event where it may be played, 8.1.3, and an automatic operation).
    _, status, out, _ = game_at_the_prompt(campaign, pipe, ["1", "more", "options 3", "options all", "quit"])
    assert status == "quit"
    shown = out[out.index("take_action"):]
    parts = shown.split("  (page ")
    first, more, third, rest = parts[0], parts[1], parts[2], parts[3]
    assert more.startswith("1 of ") and third.startswith("2 of ") and rest.startswith("3 of ")
    pages = [numbers_in(first), numbers_in(more.split("\n", 1)[1]), numbers_in(third.split("\n", 1)[1])]
    for page, text in zip(pages, (first, more, third)):
        assert page and len([ln for ln in text.splitlines() if numbers_in(ln)]) <= 6
    assert not set(pages[0]) & set(pages[1]) and not set(pages[1]) & set(pages[2])
    every = numbers_in(rest.split("\n", 1)[1])  # `options all`: the whole list, no page line
    assert sorted(every) == list(range(1, 27))
    assert "(page" not in rest.split("\n", 1)[1]


def test_an_answer_by_number_from_a_later_page(campaign, pipe):
    session, status, out, _ = game_at_the_prompt(campaign, pipe, ["1", "more", "more", "quit"])
    second_page = out.split("  (page ")[2].split("\n", 1)[1]
    number = numbers_in(second_page)[0]
    session, status, out, _ = game_at_the_prompt(campaign, pipe, ["1", "more", "more", str(number), "quit"])
    made = [e.text for e in session.events if e.kind == "decision" and e.by == "cp"]
    assert len(made) == 2 and f"{number}. {made[1]}" in out


def test_a_short_list_is_printed_whole(campaign, pipe):
    _, _, out, _ = game_at_the_prompt(campaign, pipe, ["quit"])
    assert "  1. start with Guns of August in hand: yes\n  2. start with Guns of August in hand: no\n" in out
    assert "(page " not in out


def test_activations_are_grouped_by_space(campaign):
    session, d = at(campaign, "activate")
    groups = option_groups(session.game, d.options)
    assert sorted(i for g in groups for i in g.members) == list(range(len(d.options)))
    spaces = session.world.by_kind["space"]
    for g in groups:
        if g.label is None:
            assert [d.options[i] for i in g.members] == ["done activating"]
            continue
        assert g.label in spaces
        assert sorted(d.options[i] for i in g.members) == [f"activate {g.label} attack", f"activate {g.label} move"]
    lines = option_lines(session.game, d.options)
    assert len(lines) == len(groups) < len(d.options)
    tarnow = next(line for line in lines if line.strip().startswith(groups[0].label + ":"))
    first, second = groups[0].members
    assert f"{first + 1}. {d.options[first]}" in tarnow and f"{second + 1}. {d.options[second]}" in tarnow


def test_a_cards_uses_are_grouped_by_the_card(campaign):
    """A card is played for OPS, SR, RP or its event (8.1.3): the four sit
    together under the card, whatever the options' order."""
    session, d = at(campaign, "take_action")
    groups = option_groups(session.game, d.options)
    cards = session.world.by_kind["card"]
    for g in groups:
        if g.label is None:
            assert [d.options[i] for i in g.members] == ["automatic_op"]
            continue
        side, number = g.label.split()
        card = cards[f"{side.lower()} {number}"]
        uses = sorted(d.options[i].split()[2] for i in g.members)
        assert {"ops", "sr", "rp"} <= set(uses) <= {"ops", "sr", "rp", "event"}
        assert all(d.options[i].endswith(f"({card.data.name.text})") for i in g.members)


def test_a_list_of_plain_values_is_not_grouped():
    """The toy rules' `pick N` binds a number: nothing to group by."""
    session = Session.new(open_scenario("toy_rules", REPO / "tests" / "fixtures" / "toy_rules"), 1)
    d = session.game.run()
    d = session.game.choose(d.options[0])
    assert all(g.label is None and len(g.members) == 1 for g in option_groups(session.game, d.options))


# ------------------------------------------------------------ status line
def test_the_status_line_shows_the_declared_tracks(campaign, pipe):
    session, d = at(campaign, "activate")
    terminal = TerminalPrompt(input=pipe, output=DummyOutput())
    pipe.send_text("hand\r")
    terminal.read(session, d, COMMANDS)
    status = terminal.toolbar()
    assert status.startswith("cp to choose · Turn 1 of 1-")
    for part in ("Action Round 1", "Victory Points 10", "War Status ap 0, cp 0", "OPS Left "):
        assert part in status, part
    assert "National Will" not in status


def test_the_status_line_shows_a_variants_tracks(illusions, pipe):
    session, d = at(illusions, "take_action")
    terminal = TerminalPrompt(input=pipe, output=DummyOutput())
    pipe.send_text("hand\r")
    terminal.read(session, d, COMMANDS)
    assert "National Will ru 12, ge 12, ah 12" in terminal.toolbar()
    assert "Troop Quality ru 16, it 16, ge 16, ah 16" in terminal.toolbar()


def test_end_of_input_at_the_prompt_stops_the_game(campaign, pipe):
    terminal = TerminalPrompt(input=pipe, output=DummyOutput())
    out = io.StringIO()
    session = Session.new(campaign, 0)
    pipe.send_text("\x04")  # Ctrl-D
    status = play(session, {"cp": HumanAgent("cp", terminal=terminal, out=out), "ap": RandomAgent(1)}, out=out)
    assert status == "quit" and "(end of input: stopping)" in out.getvalue()


# ------------------------------------------------------------ commands
def tracks_output(opened, rest: str = "") -> str:
    session, d = at(opened, "take_action")
    out = io.StringIO()
    HumanAgent(str(d.by), input_fn=lambda prompt="": "", out=out).cmd_tracks(session, d, rest)
    return out.getvalue()


def test_tracks_shows_the_campaigns_tracks_by_their_labels(campaign):
    out = tracks_output(campaign)
    lines = out.splitlines()
    assert lines[0].startswith("turn 1, phase action")
    assert any(line.split() == ["Victory", "Points", "10"] for line in lines)
    assert any(line.split() == ["War", "Status", "ap", "0,", "cp", "0"] for line in lines)
    assert any(line.split() == ["Action", "Round", "1"] for line in lines)
    assert "Russian Capitulation" in out and "US Entry" in out
    assert "National Will" not in out
    # Not the interpreter's variables: no state name, no `name = value`.
    assert "mo_against_italy" not in out and " = " not in out and "war_status" not in out


def test_tracks_shows_the_illusions_national_will(illusions):
    out = tracks_output(illusions)
    assert any(line.split() == ["National", "Will", "ru", "12,", "ge", "12,", "ah", "12"] for line in out.splitlines())
    assert "Troop Quality" in out and "national_will" not in out


def test_tracks_all_still_shows_every_state_variable(campaign):
    out = tracks_output(campaign, "all")
    assert "vp = 10" in out and "mo_against_italy = no" in out


def test_unit_names_a_units_place_and_factors(campaign):
    session, d = at(campaign, "take_action")
    out = io.StringIO()
    agent = HumanAgent("cp", input_fn=lambda prompt="": "", out=out)
    unit = next(u for u in session.world.units if session.game.s["loc"][u.index] is not None
                and 0 <= session.game.s["loc"][u.index] < len(session.world.spaces))
    agent.cmd_unit(session, d, unit.key.lower())
    place = session.world.spaces[session.game.s["loc"][unit.index]].key
    assert f"at {place}" in out.getvalue() and "-".join(str(f) for f in unit.data.full) in out.getvalue()
    agent.cmd_unit(session, d, "GE 999")
    assert "no unit named 'GE 999'" in out.getvalue()


# ------------------------------------------------------------ the command
def test_play_help_names_the_prompt_and_plain(capsys):
    from pogdsl.cli import main

    with pytest.raises(SystemExit):
        main(["play", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for words in ("--plain", "Tab completes option texts", "$POGDSL_HISTORY", "grouped by space or unit",
                  "more, space, unit"):
        assert words in text, words


def test_a_pipe_keeps_the_plain_prompt(monkeypatch):
    """stdin or stdout not a terminal: `pogdsl play` reads with input(), as
    scripts and the existing tests rely on; a dumb terminal too."""
    from pogdsl.cli.play import _terminal_prompts

    monkeypatch.setattr("sys.stdin.isatty", lambda: False, raising=False)
    assert _terminal_prompts(["cp"]) == {}
    monkeypatch.setattr("sys.stdin.isatty", lambda: True, raising=False)
    monkeypatch.setattr("sys.stdout.isatty", lambda: True, raising=False)
    monkeypatch.setenv("TERM", "dumb")
    assert _terminal_prompts(["cp"]) == {}


def test_hot_seat_sides_keep_their_own_history(monkeypatch, tmp_path):
    """Two people at one terminal: each side's prompt has its own history,
    kept in memory, so the arrow keys never show one what the other typed
    (a `card` looked up, a `why` asked); one person keeps the history file."""
    import pogdsl.agents.terminal as terminal
    from pogdsl.cli.play import _terminal_prompts

    made = []

    class Recorded:
        def __init__(self, history=None):
            made.append(history)

    monkeypatch.setattr(terminal, "TerminalPrompt", Recorded)
    monkeypatch.setattr("sys.stdin.isatty", lambda: True, raising=False)
    monkeypatch.setattr("sys.stdout.isatty", lambda: True, raising=False)
    monkeypatch.setenv("TERM", "xterm")
    monkeypatch.setenv("POGDSL_HISTORY", str(tmp_path / "h"))
    both = _terminal_prompts(["ap", "cp"])
    assert set(both) == {"ap", "cp"} and both["ap"] is not both["cp"] and made == [None, None]
    made.clear()
    assert set(_terminal_prompts(["cp"])) == {"cp"} and made == [tmp_path / "h"]


def test_more_after_the_last_page_says_so(campaign, pipe):
    _, _, out, _ = game_at_the_prompt(campaign, pipe, ["1", "options 3", "more", "quit"])
    assert "(no more: page 3 of 3 was the last; `options 1` shows the first again)" in out


def test_a_narrow_status_line_wraps_between_tracks(campaign):
    from pogdsl.agents.terminal import status_text

    session, d = at(campaign, "take_action")
    whole = status_text(session, d)
    lines = status_text(session, d, 40).splitlines()
    assert len(lines) > 1 and all(len(line) <= 40 for line in lines)
    assert " ".join(lines).replace("·", " ").split() == whole.replace("·", " ").split()


def test_pogdsl_play_at_a_real_terminal_uses_the_prompt(tmp_path):
    """`pogdsl play` in a pseudo-terminal (as a person runs it): the status
    line is drawn with the declared tracks, Tab completes, the history file
    is written, and quitting stops the game as at the plain prompt."""
    pty = pytest.importorskip("pty")
    import fcntl
    import select
    import struct
    import sys
    import termios

    env = dict(os.environ, POGDSL_HISTORY=str(tmp_path / "history"), TERM="xterm",
               PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    pid, fd = pty.fork()
    if pid == 0:  # the child: the command, at the terminal
        os.chdir(REPO)
        os.execvpe(sys.executable, [sys.executable, "-m", "pogdsl.cli", "play", "campaign", "--cp", "human",
                                    "--ap", "random", "--root", str(REPO)], env)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 100, 0, 0))
    seen = bytearray()

    def read_until(marker: bytes, since: int = 0, timeout: float = 120) -> bool:
        deadline = time.monotonic() + timeout
        while marker not in seen[since:] and time.monotonic() < deadline:
            if select.select([fd], [], [], 0.2)[0]:
                try:
                    chunk = os.read(fd, 65536)
                except OSError:
                    return
                seen.extend(chunk)
                for _ in range(chunk.count(b"\x1b[6n")):  # the terminal answers where its cursor is
                    os.write(fd, b"\x1b[10;1R")
        return marker in seen[since:]

    try:
        read_until(b"cp to choose \xc2\xb7 Turn 1 of 1-")  # the status line
        typed = len(seen)
        os.write(fd, b"start with guns of august in hand: y\t")
        completed = read_until(b"Guns of August in hand: yes", since=typed, timeout=20)  # Tab: the option's text
        os.write(fd, b"\r")
        read_until(b"take_action")
        os.write(fd, b"quit\r")
        read_until(b"stopped at turn")
    finally:
        _, status = os.waitpid(pid, 0)
        os.close(fd)
    text = bytes(seen).decode("utf-8", "replace")
    assert completed
    assert "Victory Points 10" in text and "War Status ap 0, cp 0" in text
    assert "cp chose: start with Guns of August in hand: yes" in text
    assert "stopped at turn 1" in text and os.WEXITSTATUS(status) == 0
    assert "Traceback" not in text
    assert "+quit" in (tmp_path / "history").read_text(encoding="utf-8")
