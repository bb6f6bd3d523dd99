"""pogdsl.testindex: markers read from test sources without running them."""

from __future__ import annotations

import textwrap
from pathlib import Path

from pogdsl.testindex import MarkedTest, marked_tests, scan_source

SOURCE = textwrap.dedent('''
    import pytest
    from pytest import mark

    pytestmark = [pytest.mark.rule("1.0"), pytest.mark.slow]


    @pytest.mark.rule("12.4.3")
    @pytest.mark.rule("12.4.4")
    @pytest.mark.card("AP 33")
    def test_two_rules_and_a_card():
        pass


    @mark.rule("9.2.1")
    @pytest.mark.parametrize("x", [1, 2])
    def test_bare_mark(x):
        pass


    def helper():
        pass


    @pytest.mark.rule("not on a test")
    def not_a_test():
        pass


    @pytest.mark.card("CP 25")
    class TestCards:
        @pytest.mark.rule("9.5.1.1")
        def test_method(self):
            pass

        def test_plain(self):
            pass
''')


def pairs(marker):
    return sorted((v, t.name) for v, t in scan_source(SOURCE, "tests/test_x.py", marker))


def test_rule_markers_on_functions_methods_and_module():
    assert pairs("rule") == sorted([
        ("1.0", "test_two_rules_and_a_card"), ("1.0", "test_bare_mark"),
        ("1.0", "TestCards::test_method"), ("1.0", "TestCards::test_plain"),
        ("12.4.3", "test_two_rules_and_a_card"), ("12.4.4", "test_two_rules_and_a_card"),
        ("9.2.1", "test_bare_mark"), ("9.5.1.1", "TestCards::test_method"),
    ])


def test_the_same_scanner_reads_card_markers_and_class_markers():
    assert pairs("card") == [("AP 33", "test_two_rules_and_a_card"), ("CP 25", "TestCards::test_method"),
                             ("CP 25", "TestCards::test_plain")]


def test_unknown_marker_finds_nothing():
    assert pairs("nothing") == []


def test_marked_tests_walks_a_folder_and_gives_node_ids(tmp_path: Path):
    tests = tmp_path / "tests"
    (tests / "sub").mkdir(parents=True)
    (tests / "sub" / "test_a.py").write_text(SOURCE, encoding="utf-8")
    (tests / "test_b.py").write_text('import pytest\n@pytest.mark.rule("12.4.3")\ndef test_b():\n    pass\n',
                                     encoding="utf-8")
    (tests / "helpers.py").write_text('import pytest\n@pytest.mark.rule("12.4.3")\ndef test_c():\n    pass\n',
                                      encoding="utf-8")  # not a test file: not read
    (tests / "test_broken.py").write_text("def test_(:\n", encoding="utf-8")  # skipped, not fatal
    index = marked_tests(tests, "rule")
    assert [t.id for t in index["12.4.3"]] == ["tests/sub/test_a.py::test_two_rules_and_a_card",
                                               "tests/test_b.py::test_b"]
    assert index["12.4.3"][0] == MarkedTest("tests/sub/test_a.py", "test_two_rules_and_a_card", 11)  # the def line


def test_the_projects_own_rule_tests_are_found():
    root = Path(__file__).resolve().parents[1]
    index = marked_tests(root / "tests", "rule")
    assert "tests/rules/test_losses.py::test_12_4_3_example_exact_loss_number_through_a_replacement_corps" in \
        [t.id for t in index["12.4.3"]]
