"""The checker and scenario options: declarations with values (a range, a
choice among names) and `option("NAME")` checked against the options the
scenarios declare (E0504)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pogdsl.compiler import compile_paths

HERE = Path(__file__).resolve().parent
PROJECT = HERE / "project"


def diagnostics(tmp_path: Path, text: str) -> list[tuple[str, int, str]]:
    path = tmp_path / "case.pog"
    path.write_text(text, encoding="utf-8")
    comp = compile_paths([path], root=PROJECT)
    return [(d.code, d.span.line if d.span else 0, d.message) for d in comp.reporter.sorted()]


def codes(tmp_path, text):
    return [c for c, _, _ in diagnostics(tmp_path, text)]


SCENARIO = '''scenario bidding "Bidding" extends mini cites 7.0 {{
  option vp_bid "VP bid" default {bid} range 0..5 cites 7.0
  option bid_side "Who bids" default {side} one of ap, cp cites 7.0
}}
'''


def test_options_with_values_are_clean(tmp_path):
    text = SCENARIO.format(bid=0, side="none") + (
        'value bid_drm = (if option("bid_side") == "cp" then option("vp_bid") else 0) cites 7.0\n'
        'value short = option("short_game") and true cites 7.0\n')
    assert diagnostics(tmp_path, text) == []


@pytest.mark.parametrize("bid, side, message", [
    ("6", "none", "option 'vp_bid' has default 6, outside its range 0..5"),
    ("0", "cq", "option 'bid_side' has default cq, which is not one of ap, cp"),
    ("on", "ap", "option 'vp_bid' has default on, outside its range 0..5"),
])
def test_a_default_must_be_one_of_the_values(tmp_path, bid, side, message):
    assert diagnostics(tmp_path, SCENARIO.format(bid=bid, side=side)) == [("E0304", 2 if "vp" in message else 3,
                                                                          message)]


def test_a_value_without_its_values_and_an_empty_range(tmp_path):
    text = ('scenario odd "Odd" extends mini cites 7.0 {\n'
            '  option level "Level" default 3 cites 7.0\n'
            '  option span "Span" default 2 range 4..1 cites 7.0\n'
            '  option pick "Pick" default ap one of ap, ap cites 7.0\n'
            '}\n')
    got = diagnostics(tmp_path, text)
    assert [(c, line) for c, line, _ in got] == [("E0304", 2), ("E0304", 3), ("E0405", 4)]
    assert "range 4..1 is empty" in got[1][2]


def test_one_name_has_one_kind_in_every_scenario(tmp_path):
    text = 'scenario other "Other" extends mini cites 7.0 {\n  option short_game "n" default 1 range 0..2\n}\n'
    got = diagnostics(tmp_path, text)
    assert ("E0301", 2, "option 'short_game' is a number option here but an on/off option in another scenario") \
        in got


def test_option_reads_a_declared_name_written_as_text(tmp_path):
    got = diagnostics(tmp_path, 'value v(t: text) = option(t) cites 7.0\nvalue w = option("SHORT_GAME") cites 7.0\n')
    assert [(c, line) for c, line, _ in got] == [("E0504", 1), ("E0504", 2)]
    assert "written as text" in got[0][2] and "unknown option 'SHORT_GAME'" in got[1][2]


def test_the_kind_of_value_an_option_gives(tmp_path):
    text = SCENARIO.format(bid=0, side="none") + 'value v = option("bid_side") + 1 cites 7.0\n'
    assert codes(tmp_path, text) == ["E0301"]  # a name is text, not a number


def test_a_scenarios_own_rules_read_only_its_options(tmp_path):
    # `bidding` declares vp_bid; `lonely` (which does not extend it) may not read it
    # in its own additions, though a shared rule file could.
    text = SCENARIO.format(bid=0, side="none") + (
        'scenario lonely "Lonely" extends mini cites 7.0 {\n'
        '  add value lonely_drm = option("vp_bid") + (if option("short_game") then 1 else 0) cites 7.0\n'
        '}\n'
        'scenario child "Child" extends bidding cites 7.0 {\n'
        '  add value child_drm = option("vp_bid") cites 7.0\n'
        '}\n')
    got = diagnostics(tmp_path, text)
    assert [(c, line) for c, line, _ in got] == [("E0504", 6)]
    assert "scenario 'lonely' declares no such option" in got[0][2]
