"""A diagnostic about a huge line stays a few lines long.

A generated or hostile `.pog` file may hold a line of hundreds of
kilobytes, or a name of tens of thousands of characters.  The diagnostic
must still say where the mistake is, with the caret under it, without
printing the line (or the name) again in full.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from pogdsl.diagnostics import QUOTED_LINE_MOST, QUOTED_NAME_MOST, Reporter, Sources, clip_names, render
from pogdsl.syntax.ast import Span

REPO = Path(__file__).resolve().parents[2]


def _render(text: str, line: int, col: int, end_col: int, message: str = "bad") -> list[str]:
    sources = Sources()
    sources.add("a.pog", text)
    reporter = Reporter()
    reporter.error("E0201", message, Span("a.pog", line, col, line, end_col))
    return render(reporter.items[0], sources).split("\n")


def test_a_short_line_is_quoted_whole_with_the_caret_under_its_span():
    head, quoted, caret = _render("value v = zork + 1", 1, 11, 15)
    assert quoted.endswith("value v = zork + 1")
    assert caret.index("^") == quoted.index("zork") and caret.count("^") == 4


def test_a_long_line_is_cut_around_the_span_and_the_caret_stays_under_it():
    text = "value v = " + "1 + " * 5000 + "zork + " + "2 + " * 5000 + "3"
    col = text.index("zork") + 1
    head, quoted, caret = _render(text, 1, col, col + 4)
    body = quoted.split(" | ", 1)[1]
    assert len(body) <= QUOTED_LINE_MOST + 2  # the two '…' marks
    assert body.startswith("…") and body.endswith("…")
    assert quoted[caret.index("^"):caret.index("^") + 4] == "zork"
    assert caret.count("^") == 4


def test_a_span_longer_than_the_window_is_underlined_to_the_window_end():
    text = "value w = " + "q" * 50_000
    head, quoted, caret = _render(text, 1, 11, 50_011)
    assert caret.count("^") <= QUOTED_LINE_MOST
    assert quoted[caret.index("^")] == "q"


def test_a_huge_name_in_a_message_is_cut_and_its_length_said():
    message = clip_names("unknown name '" + "q" * 50_000 + "'")
    assert len(message) < 2 * QUOTED_NAME_MOST
    assert "50,000 characters" in message
    assert clip_names("unknown name 'trench'") == "unknown name 'trench'"


def test_check_on_a_file_of_huge_lines_prints_a_short_located_report(tmp_path):
    (tmp_path / "rules").mkdir()
    (tmp_path / "scenarios").mkdir()
    source = ("value v cites 1.1 = [" + "1, " * 20_000 + "zork]\n"
              + "value w cites 1.2 = " + "q" * 50_000 + "\n")
    (tmp_path / "rules" / "a.pog").write_text(source)
    done = subprocess.run([sys.executable, "-m", "pogdsl.cli", "check", "--root", str(tmp_path)],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path,
                          env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 1
    assert "Traceback" not in done.stderr + done.stdout
    report = done.stdout + done.stderr
    assert f"rules/a.pog:1:{22 + 3 * 20_000}: error[E0201]: unknown name 'zork'" in report
    assert "rules/a.pog:2:21: error[E0201]" in report
    assert len(report) < 3_000, report[:500]
