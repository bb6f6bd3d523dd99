"""Golden tests for the checker's diagnostics.

Each case is a small file under ``cases/NAME.pog`` checked together with the
mini project under ``project/`` (as a modder's file is checked together with
the library).  For every case the test asserts

* the severity, code, line, column and message of every diagnostic, written
  out below in ``EXPECTED`` so a reviewer reads them next to the case; and
* the full rendered text (location line, source line, caret, notes, hint),
  which must equal ``cases/NAME.expected`` byte for byte.

Regenerate the ``.expected`` files with ``POGDSL_UPDATE_GOLDEN=1 pytest
tests/diagnostics``, then read every changed file: a golden file records what
a user sees, so it must be *right*, not merely stable.  ``EXPECTED`` is never
regenerated: it is the reviewed statement of what each case must report.

Paths in the rendered text are relative to this folder (the tests run from
here), so the golden files do not depend on where the checkout lives.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from pogdsl.compiler import compile_paths
from pogdsl.diagnostics import CODES, QUOTED_LINE_MOST, render

HERE = Path(__file__).resolve().parent
PROJECT = HERE / "project"
CASES = HERE / "cases"
UPDATE = os.environ.get("POGDSL_UPDATE_GOLDEN", "") not in ("", "0")

E, W = "error", "warning"

# name -> [(severity, code, line, column, message), ...] in the order the
# reporter sorts them (file, line, column).  Line 0 / column 0 marks a
# diagnostic about the whole file (it cannot be read, or it is empty).
EXPECTED: dict[str, list[tuple[str, str, int, int, str]]] = {
    # ------------------------------------------------------------ files and syntax
    "syntax_error": [
        (E, "E0101", 2, 31, "unexpected 'cites'"),
    ],
    "unterminated_text": [
        (E, "E0102", 2, 21, 'unterminated text: a "string" must close on its line'),
    ],
    "unterminated_name": [
        (E, "E0102", 3, 9, "unterminated name: a 'quoted name' must close on its line"),
    ],
    "three_broken_blocks": [
        (E, "E0101", 3, 11, "unexpected '='"),
        (E, "E0101", 10, 1, "unexpected '}'"),
        (E, "E0101", 16, 9, "unexpected '0'"),
    ],
    "unclosed_block": [
        (E, "E0101", 2, 1, "block 'procedure open_ended' is not closed before the next block"),
    ],
    "empty": [
        (W, "W0704", 0, 0, "the file is empty"),
    ],
    "binary": [
        (E, "E0001", 0, 0, "this is a binary file, not a .pog source"),
    ],
    "non_utf8": [
        (E, "E0001", 2, 1, "the file is not valid UTF-8 text"),
    ],
    "nested_too_deeply": [
        # at the start of the expression that nests too deeply; the file is not read further
        (E, "E0103", 2, 18, "expression or block nested too deeply (more than 100 levels)"),
    ],
    "number_too_large": [
        (E, "E0104", 2, 24, "the number 1234567890123456789012 is too large: whole numbers have at most 15 "
                            "digits (below 10^15)"),
    ],
    # ------------------------------------------------------------ unknown names
    "unknown_space": [
        (E, "E0203", 5, 29, "unknown space 'Leige'"),
    ],
    "unknown_nation": [
        (E, "E0202", 2, 14, "unknown nation 'fra'"),
    ],
    "unknown_unit": [
        (E, "E0204", 5, 27, "unknown unit 'GE 9'"),
    ],
    "unknown_procedure": [
        (E, "E0205", 3, 8, "unknown procedure 'combatt'"),
    ],
    "unknown_choice": [
        (E, "E0206", 3, 10, "unknown choice 'activat'"),
    ],
    "unknown_value_in_modifier": [
        (E, "E0207", 3, 3, "unknown value 'attack_dr'"),
    ],
    "unknown_event_in_trigger": [
        (E, "E0215", 2, 20, "unknown event or signal 'unit_eliminatd'"),
    ],
    "unknown_function": [
        (E, "E0217", 2, 32, "unknown function 'units_inn'"),
    ],
    "unknown_attribute": [
        (E, "E0220", 3, 36, "a unit has no attribute 'strenght'"),
    ],
    "unknown_name": [
        (E, "E0201", 2, 24, "unknown name 'Pariss'"),
    ],
    "space_without_connections": [
        (W, "W0706", 3, 9, "space 'Lost' has no connections: no unit can enter or leave it"),
    ],
    "space_without_nation": [
        (E, "E0202", 3, 9, "space 'Nowhere' has no nation"),
    ],
    "card_without_cites": [
        (W, "W0604", 2, 11, "card 'cp 8' cites no rule"),
        (W, "W0604", 5, 9, "the event of card 'cp 8' cites no rule"),
    ],
    "yes_for_true": [
        (E, "E0201", 5, 33, "unknown name 'yes'"),
        (E, "E0212", 6, 33, "unknown side 'allies'"),
    ],
    "equals_for_to": [
        (E, "E0101", 6, 22, "unexpected '='"),
    ],
    "edit_changes_nothing": [
        (W, "W0516", 4, 3, "this edit changes nothing: space 'Liege' already has fort 3"),
    ],
    "card_value_out_of_range": [
        (E, "E0306", 3, 7, "value 'printed_sr' is the range of a card's sr: write it as LOW..HIGH"),
        (W, "W0903", 4, 12, "card 'cp 11': ops 9 is outside the printed range 1..4"),
    ],
    "approximated_and_not_applicable": [
        (E, "E0608", 4, 3, "rule 4.3 is marked both not applicable and approximated"),
    ],
    "setup_changes_nothing": [
        (W, "W0517", 5, 5, "this set-up line changes nothing: 'liege_fallen' starts at false"),
    ],
    "unknown_side": [
        (E, "E0212", 2, 6, "unknown side 'nt'"),
    ],
    "unknown_box_role": [
        (E, "E0221", 2, 45, "a box cannot receive 'eliminatd'"),
    ],
    "two_boxes_receive_eliminated": [
        (E, "E0401", 3, 41, "boxes 'lost' and 'gone' both receive eliminated units"),
    ],
    "unknown_sequence": [
        (E, "E0219", 4, 12, "unknown sequence 'turns'"),
    ],
    "unknown_phase_in_sequence": [
        (E, "E0210", 2, 41, "unknown phase 'atrition'"),
    ],
    "unknown_extends": [
        (E, "E0216", 2, 34, "unknown scenario 'minii'"),
    ],
    "unknown_remove_kind": [
        (E, "E0214", 3, 10, "'rulez' is not a kind of definition"),
    ],
    "wrong_enum_member": [
        (E, "E0214", 5, 49, "'half' is not a member of enum 'strength'"),
    ],
    "unbound_choice_var": [
        (E, "E0201", 3, 19, "'t' is chosen but never given candidates"),
        (E, "E0201", 3, 32, "'s' is not one of the names this choice binds"),
    ],
    # ------------------------------------------------------------ kinds, arity, effects
    "wrong_kind": [
        (E, "E0301", 5, 27, "'Paris' is a space, but a unit or a list of units is wanted here"),
        (E, "E0301", 5, 36, "'GE 1' is a unit, but a space or a box or a pile is wanted here"),
    ],
    "wrong_arity_call": [
        (E, "E0302", 3, 3, "procedure 'combat' takes 1 argument, but 2 are given"),
    ],
    "wrong_arity_choice": [
        (E, "E0302", 3, 10, "choice 'activate' has 1 parameter, but 2 names are given"),
    ],
    "wrong_preposition": [
        (E, "E0303", 4, 5, "'move' needs 'to …'"),
        (E, "E0303", 4, 15, "'move' does not take 'at'"),
    ],
    "missing_preposition": [
        (E, "E0303", 5, 21, "'place' needs 'at …'"),
    ],
    "set_not_state": [
        (E, "E0305", 5, 25, "'Paris' is a space, not state, so 'set' cannot change it"),
    ],
    "value_kind": [
        (E, "E0301", 10, 45, "'Paris' is a space, but a side is wanted here"),
    ],
    "unordered_extreme": [
        (E, "E0301", 3, 31, "this is a space, but an int is wanted here"),
        (E, "E0301", 4, 31, "this is a unit, but an int is wanted here"),
        (E, "E0301", 5, 33, "this is a space, but an int is wanted here"),
    ],
    "start_out_of_range": [
        (E, "E0304", 2, 25, "start value 7 is outside 0..5"),
    ],
    "empty_turns": [
        (E, "E0304", 3, 3, "turns 5..2 is an empty range"),
    ],
    # ------------------------------------------------------------ duplicates
    "duplicate_space": [
        (E, "E0401", 3, 9, "space 'Sedan' is defined twice"),
    ],
    "name_clash": [
        (E, "E0401", 2, 6, "'Verdun' is already defined as a space"),
    ],
    "duplicate_connection": [
        (E, "E0402", 3, 3, "'Sedan' and 'Paris' are connected twice"),
    ],
    "self_connection": [
        (E, "E0402", 3, 3, "'Metz' is connected to itself"),
    ],
    "duplicate_table_row": [
        (E, "E0403", 6, 7, "table 'retreat' has two rows keyed 2"),
    ],
    "table_row_cells": [
        (E, "E0406", 5, 3, "row 2 of table 'retreat_odds' has 3 cells, but the table has 2 columns"),
    ],
    "repeated_item": [
        (E, "E0405", 5, 3, "card 'cp 10' gives 'ops' twice; only one can hold"),
    ],
    "duplicate_param": [
        (E, "E0404", 2, 28, "parameter 's' is named twice"),
    ],
    # ------------------------------------------------------------ variants
    "replace_missing": [
        (E, "E0501", 3, 17, "`replace` names table 'firee', which does not exist"),
    ],
    "remove_missing": [
        (E, "E0501", 3, 22, "`remove` names restriction 'no_belgum', which does not exist"),
    ],
    "remove_cites_nothing": [
        (E, "E0501", 3, 16, "nothing that can be removed cites rule 2.2"),
    ],
    "add_existing": [
        (E, "E0502", 3, 12, "`add` names state 'liege_fallen', which already exists"),
    ],
    # ------------------------------------------------------------ hostile sides
    "hostile_side_asked": [
        (E, "E0560", 6, 21, "`choose loss by rebels`: 'rebels' is a hostile side, which no player plays"),
    ],
    "hostile_side_card": [
        (E, "E0561", 4, 6, "card 'rebels 1' belongs to the hostile side 'rebels'"),
    ],
    "hostile_side_neutral": [
        (E, "E0562", 3, 8, "nation 'rb' is neutral, but its side 'rebels' is hostile"),
    ],
    "cyclic_extends": [
        # reported once, from the member whose name sorts first, at the link that closes it
        (E, "E0503", 5, 28, "scenarios extend each other in a cycle: chicken → egg → chicken"),
    ],
    "unknown_option": [
        # a rule file is shared by every scenario: the name must be an option some scenario declares
        (E, "E0504", 2, 30, "unknown option 'short_gmae': no scenario declares it"),
    ],
    # ------------------------------------------------------------ rule citations
    "unknown_rule": [
        (E, "E0601", 2, 22, "rule 9.9 is not in the rule index"),
    ],
    "not_applicable_rule": [
        (E, "E0602", 2, 24, ("rule 8.1 is cited here but the rule index says it does not apply "
                             "(how to write to the publisher; nothing to play)")),
    ],
    "duplicate_rule_entry": [
        (E, "E0603", 5, 3, "rule 4.2 is listed twice in rulebook extra_rules"),
    ],
    "cite_other_rulebook": [],
    "unknown_rulebook": [
        (E, "E0605", 5, 23, "unknown rulebook 'variant_rule' in the citation 'variant_rule 10.1'"),
    ],
    "unknown_rule_in_rulebook": [
        (E, "E0601", 5, 23, "rule 10.11 is not in rulebook variant_rules"),
    ],
    "same_as_missing_rule": [
        (E, "E0606", 3, 32, "rule 10.1 of rulebook variant_rules is said to be the same as rule 4.3, which is "
                            "not in the main rule index (mini)"),
    ],
    "block_without_cites": [
        (W, "W0604", 2, 11, "procedure 'uncited_step' cites no rule"),
    ],
    "term_without_citation": [
        (E, "E0607", 4, 6, "term 'vp_held' has no citation: a term of the evaluation says which rule makes it "
                           "matter, and why, in its own words"),
        (E, "E0306", 4, 6, "terms of the evaluation are declared but no `value evaluation_scale`"),
        (E, "E0607", 5, 6, "term 'vp_unexplained' has no note: a term of the evaluation says which rule makes "
                           "it matter, and why, in its own words"),
        (E, "E0306", 6, 6, "term 'vp_both' must take one parameter, the side it judges for"),
    ],
    # ------------------------------------------------------------ reachability, data flow
    "self_defining_value": [
        (E, "E0705", 3, 7, "value 'ever_more' is defined in terms of itself: ever_more → ever_more"),
        (E, "E0705", 4, 7, "values are defined in terms of each other: chicken → egg → chicken"),
        (E, "E0705", 6, 7, "value 'countdown' is defined in terms of itself: countdown → countdown"),
        (E, "E0705", 7, 7, "values are defined in terms of each other: bonus → running_total → bonus"),
    ],
    "flag_never_written": [
        (W, "W0701", 4, 45, "flag 'treaty_signed' is read but nothing ever sets it"),
    ],
    "phase_unreachable": [
        (W, "W0702", 2, 7, "phase 'forgotten' is in no sequence, so it never runs"),
    ],
    "procedure_never_called": [
        (W, "W0703", 2, 11, "procedure 'orphan_step' is never called"),
    ],
    # ------------------------------------------------------------ order of modifiers
    "unordered_replacements": [
        (W, "W0801", 7, 3, "modifiers 'mud' and 'storm_troops' both replace 'attack_drm' and nothing says "
                           "which one stands when both apply"),
    ],
    "unknown_modifier_after": [
        (E, "E0222", 2, 20, "unknown modifier 'trench_dr'"),
    ],
    "modifier_order_circle": [
        (E, "E0802", 2, 10, "modifier 'rain' is ordered after itself, through snow"),
        (E, "E0802", 5, 10, "modifier 'snow' is ordered after itself, through rain"),
    ],
    # ------------------------------------------------------------ cards
    "ambiguous_card_name": [
        (E, "E0223", 11, 28, "'Dig In' is the name of 2 cards (AP 15 and CP 15): it cannot say which one"),
    ],
    # Outside the project's own cards/ folder a card without an event is only a
    # warning (test_card_events.py: inside it, an error once the project asks).
    "card_without_event": [
        (W, "W0902", 3, 12, "card CP 12 'Quiet Sector' has no event: it can only be played for operations, SR "
                            "or replacements"),
    ],
}

# Notes that must point at the first definition (or the index entry).
EXPECTED_NOTES = {
    "duplicate_space": [("first defined here", "project/rules/board.pog", 18, 9)],
    "name_clash": [("defined here", "project/rules/board.pog", 19, 9)],
    "duplicate_connection": [("first connected here", "project/rules/board.pog", 31, 3)],
    "duplicate_table_row": [("first row here", "cases/duplicate_table_row.pog", 5, 3)],
    "duplicate_rule_entry": [("first listed here", "cases/duplicate_rule_entry.pog", 4, 3)],
    "add_existing": [("defined here", "project/rules/state.pog", 4, 6)],
    "not_applicable_rule": [("marked not applicable here", "project/rules/index.pog", 22, 3)],
}

# Hints with a "did you mean".
EXPECTED_SUGGESTIONS = {
    "unknown_space": "Liege", "unknown_nation": "fr", "unknown_procedure": "combat",
    "unknown_choice": "activate", "unknown_value_in_modifier": "attack_drm",
    "unknown_event_in_trigger": "unit_eliminated", "unknown_function": "units_in",
    "unknown_name": "Paris", "unknown_sequence": "turn", "unknown_phase_in_sequence": "attrition",
    "unknown_extends": "mini", "replace_missing": "fire", "remove_missing": "no_belgium",
    "unknown_option": "short_game",
}


def compile_case(name: str, monkeypatch):
    monkeypatch.chdir(HERE)
    comp = compile_paths([Path("cases") / f"{name}.pog"], root=Path("project"))
    diags = comp.reporter.sorted()
    rendered = "".join(render(d, comp.sources) + "\n" for d in diags)
    return comp, diags, rendered


def test_mini_project_is_clean(monkeypatch):
    monkeypatch.chdir(HERE)
    comp = compile_paths(None, root=Path("project"))
    assert [render(d, comp.sources) for d in comp.reporter.items] == []
    assert len(comp.loaded.files) == 6
    # It has every kind of thing the cases lean on.
    for kind, key in [("side", "ap"), ("nation", "be"), ("space", "Liege"), ("unit", "GE 1"),
                      ("rulebook", "mini"), ("procedure", "combat"), ("phase", "action"),
                      ("sequence", "turn"), ("card", "cp 1"), ("scenario", "mini"),
                      ("scenario", "mini_variant"), ("table", "fire"), ("state", "liege_fallen")]:
        assert comp.base.get(kind, key) is not None, (kind, key)
    assert set(comp.scenarios) == {"mini", "mini_variant"}


def test_every_case_has_expectations_and_a_golden_file():
    sources = {p.stem for p in CASES.glob("*.pog")}
    goldens = {p.stem for p in CASES.glob("*.expected")}
    assert sources == set(EXPECTED), "each case needs an EXPECTED entry (and vice versa)"
    if not UPDATE:
        assert goldens == sources, "each case needs its .expected golden file (and vice versa)"


def test_enough_kinds_of_mistake():
    kinds = set(EXPECTED)
    assert len(kinds) >= 24
    codes = {code for items in EXPECTED.values() for _, code, *_ in items}
    assert codes <= set(CODES)
    assert len(codes) >= 24
    # Both severities are covered.
    assert {sev for items in EXPECTED.values() for sev, *_ in items} == {E, W}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_case(name, monkeypatch):
    comp, diags, rendered = compile_case(name, monkeypatch)
    got = [(d.severity, d.code, d.span.line if d.span else None, d.span.col if d.span else None, d.message)
           for d in diags]
    assert got == EXPECTED[name]
    # Every mistake is reported in the case file, never in the project it uses.
    assert all(d.span is not None and d.span.file == f"cases/{name}.pog" for d in diags)
    golden = CASES / f"{name}.expected"
    if UPDATE:
        golden.write_text(rendered, encoding="utf-8")
    assert golden.read_text(encoding="utf-8") == rendered
    # Errors make the check fail; warnings alone do not.
    assert comp.ok == all(sev == W for sev, *_ in EXPECTED[name])


@pytest.mark.parametrize("name", sorted(EXPECTED_NOTES))
def test_notes_point_at_the_first_definition(name, monkeypatch):
    _, diags, _ = compile_case(name, monkeypatch)
    (diag,) = diags
    got = [(msg, span.file, span.line, span.col) for msg, span in diag.notes]
    assert got == EXPECTED_NOTES[name]


@pytest.mark.parametrize("name", sorted(EXPECTED_SUGGESTIONS))
def test_did_you_mean(name, monkeypatch):
    _, diags, _ = compile_case(name, monkeypatch)
    assert diags[0].hint == f"did you mean '{EXPECTED_SUGGESTIONS[name]}'?"


_HEAD = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+):(?P<col>\d+): (?P<sev>error|warning)\[(?P<code>[EW]\d{4})\]: (?P<msg>.+)$")
_FILE_HEAD = re.compile(r"^(?P<file>[^:]+): (?P<sev>error|warning)\[(?P<code>[EW]\d{4})\]: (?P<msg>.+)$")


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_rendered_shape(name, monkeypatch):
    """`path:line:col: severity[CODE]: message`, the source line, a caret under
    the span, then notes and the hint."""
    comp, diags, _ = compile_case(name, monkeypatch)
    for d in diags:
        lines = render(d, comp.sources).split("\n")
        s = d.span
        if s.line == 0:
            m = _FILE_HEAD.match(lines[0])
            assert m and m["file"] == s.file and m["code"] == d.code and m["msg"] == d.message
            rest = lines[1:]
        else:
            m = _HEAD.match(lines[0])
            assert m, lines[0]
            assert (m["file"], int(m["line"]), int(m["col"]), m["sev"], m["code"], m["msg"]) == \
                (s.file, s.line, s.col, d.severity, d.code, d.message)
            source = comp.sources.line(s.file, s.line)
            if source is None:  # the file could not be read as text
                rest = lines[1:]
            else:
                gutter = f" {s.line} | "
                if len(source) > QUOTED_LINE_MOST:  # a long line is quoted cut, from its start here
                    assert lines[1].startswith(gutter) and lines[1].endswith("…")
                    source = lines[1][len(gutter):-1]
                    assert comp.sources.line(s.file, s.line).startswith(source)
                assert lines[1] == gutter + source or lines[1] == gutter + source + "…"
                caret = lines[2]
                assert caret.startswith(" " * (len(gutter) - 2) + "| ")
                marks = caret[len(gutter):]
                assert marks.index("^") == s.col - 1
                if s.end_line == s.line and s.end_col > s.col:
                    assert marks.strip() == "^" * (s.end_col - s.col)
                    # The caret really sits under the text the span names.
                    assert source[s.col - 1:s.end_col - 1].strip()
                rest = lines[3:]
        expected_tail = [f"   = note: {msg} ({span})" for msg, span in d.notes]
        if d.hint:
            expected_tail.append(f"   = hint: {d.hint}")
        assert rest == expected_tail


def test_three_broken_blocks_keep_the_good_ones(monkeypatch):
    comp, diags, _ = compile_case("three_broken_blocks", monkeypatch)
    assert [d.span.line for d in diags] == [3, 10, 16]
    assert all(d.code == "E0101" for d in diags)
    # The blocks between the broken ones still reach the checker.
    assert comp.base.get("state", "morale") is not None
    assert comp.base.get("state", "good_flag") is not None
    for broken in ("first_broken", "second_broken", "third_broken"):
        assert not any(broken in table for table in comp.base.decls.values())


def test_cases_check_on_their_own_do_not_leak(monkeypatch):
    """Checking one case must not leave anything behind for the next: the mini
    project is clean again right after a broken case."""
    compile_case("three_broken_blocks", monkeypatch)
    comp = compile_paths(None, root=Path("project"))
    assert comp.reporter.items == []
