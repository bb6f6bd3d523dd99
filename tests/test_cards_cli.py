"""`pogdsl cards`: the cards of a scenario with their values, rules and the
tests that name them, found by reading the test sources (pogdsl/testmarks.py)."""

from __future__ import annotations

import json
import textwrap

import pytest

from pogdsl.testmarks import card_key, scan_tests

from test_cli import PROJECT as PROJECT_DIR
from test_cli import REPO, run

MARKED = '''
import pytest
from pytest import mark

pytestmark = [pytest.mark.slow]


@pytest.mark.card("cp 1")
def test_plain():
    pass


@pytest.mark.rule("6.1")
@mark.card("CP 1")
@pytest.mark.parametrize("x", [pytest.param(1, marks=pytest.mark.card("AP 9"))])
def test_param(x):
    pass


@pytest.mark.card("AP 7")
class TestGroup:
    def test_one(self):
        pass

    @pytest.mark.card("Opening Gambit")
    def test_two(self):
        pass

    def helper(self):
        pass


def test_unmarked():
    pass


CASES = [pytest.param(2, marks=pytest.mark.card("AP 11")), pytest.param(3, marks=pytest.mark.card("AP 12"))]


@pytest.mark.parametrize("x", CASES)
def test_cases_from_a_list(x):
    pass
'''


@pytest.fixture
def tests_dir(tmp_path):
    folder = tmp_path / "tests"
    (folder / "cards").mkdir(parents=True)
    (folder / "cards" / "test_marked.py").write_text(textwrap.dedent(MARKED))
    (folder / "test_broken.py").write_text("def test_(:\n")
    (folder / "helper.py").write_text("import pytest\n@pytest.mark.card('CP 9')\ndef test_not_a_test_file(): pass\n")
    return folder


def test_card_key_forms():
    assert card_key("ap 33") == "AP 33" and card_key("CP#5") == "CP 5" and card_key("Entrench") is None


def test_scan_reads_markers_without_running_the_tests(tests_dir):
    scan = scan_tests(tests_dir)
    assert scan.tests == {
        "AP 7": ["tests/cards/test_marked.py::TestGroup::test_one", "tests/cards/test_marked.py::TestGroup::test_two"],
        "AP 9": ["tests/cards/test_marked.py::test_param"],
        "AP 11": ["tests/cards/test_marked.py::test_cases_from_a_list"],
        "AP 12": ["tests/cards/test_marked.py::test_cases_from_a_list"],
        "CP 1": ["tests/cards/test_marked.py::test_param", "tests/cards/test_marked.py::test_plain"],
    }
    assert scan.bad == ["tests/cards/test_marked.py::TestGroup::test_two: marker card('Opening Gambit') is not a "
                        "card's side and number, e.g. \"AP 33\""]
    assert len(scan.unreadable) == 1 and scan.unreadable[0].startswith("tests/test_broken.py:")


def test_cards_json_on_the_mini_project(tests_dir):
    proc = run("cards", "mini", "--json", "--tests", str(tests_dir))
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["scenario"] == "mini"
    assert report["summary"] == {"cards": 1, "events": 1, "tested": 1, "events_untested": 0}
    (card,) = report["cards"]
    assert {k: card[k] for k in ("key", "side", "number", "name", "deck", "ops", "sr", "war_status", "rp",
                                 "removed", "combat", "event")} == {
        "key": "CP 1", "side": "cp", "number": 1, "name": "Opening Gambit", "deck": "mobilization", "ops": 3,
        "sr": 4, "war_status": 0, "rp": {"ge": 2}, "removed": True, "combat": False, "event": True}
    assert card["cites"] == {"card": ["6.1"], "playable": ["6.1"], "event": ["6.1"],
                             "nested": {"gambit_drm": ["4.2"]}}
    assert card["rules"] == ["4.2", "6.1"]
    assert card["location"].endswith("project/cards/cp/01-opening-gambit.pog:2")
    assert card["tests"] == ["tests/cards/test_marked.py::test_param", "tests/cards/test_marked.py::test_plain"]
    assert report["unknown_markers"] == {
        "AP 7": ["tests/cards/test_marked.py::TestGroup::test_one", "tests/cards/test_marked.py::TestGroup::test_two"],
        "AP 9": ["tests/cards/test_marked.py::test_param"],
        "AP 11": ["tests/cards/test_marked.py::test_cases_from_a_list"],
        "AP 12": ["tests/cards/test_marked.py::test_cases_from_a_list"]}
    assert len(report["marker_problems"]) == 2


def test_cards_text_and_one_card_in_full(tests_dir):
    proc = run("cards", "mini", "--tests", str(tests_dir))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("scenario mini: 1 card, 1 with their event written, 1 named by tests")
    assert "CP 1   Opening Gambit" in proc.stdout
    assert "which is no card of this scenario" in proc.stdout
    proc = run("cards", "mini", "'Opening Gambit'", "--tests", str(tests_dir))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[:2] == ["CP 1 Opening Gambit (mobilization deck)",
                                            "  Germany brings a second army into Aachen."]
    assert "  rules: 4.2, 6.1 (card 6.1; playable 6.1; event 6.1; gambit_drm 4.2)" in proc.stdout
    assert "  tests: 2" in proc.stdout


@pytest.mark.parametrize("args, message", [
    (["mini", "CP 2"], "pogdsl cards: error: no card CP 2 in this scenario (CP 1 to 1)"),
    (["nowhere"], "pogdsl cards: error: unknown scenario 'nowhere'"),
    (["mini", "--tests", "no/such/folder"], "pogdsl cards: error: no such folder: no/such/folder"),
])
def test_cards_usage_errors(args, message):
    proc = run("cards", *args)
    assert proc.returncode == 2
    assert proc.stderr.startswith(message)


def test_cards_on_the_campaign_names_shared_cards_by_number():
    proc = run("cards", "campaign", "Withdrawal", cwd=REPO, root=False)
    assert proc.returncode == 2
    assert proc.stderr == ("pogdsl cards: error: 'Withdrawal' names 2 cards: AP 6 Withdrawal and CP 56 Withdrawal; "
                           "write 'AP 6' or 'CP 56'\n")
    proc = run("cards", "campaign", "AP 6", "cp 56", "--json", cwd=REPO, root=False)
    cards = json.loads(proc.stdout)["cards"]
    assert [(c["key"], c["name"], c["event"]) for c in cards][0] == ("AP 6", "Withdrawal", True)
    assert cards[1]["key"] == "CP 56"
    # The tests of tests/cards/test_card_events.py name the cards they check.
    assert "tests/cards/test_card_events.py::test_withdrawal_only_for_the_defender" in cards[0]["tests"]
    assert "12.6.3" in cards[0]["rules"] and cards[0]["location"] == "cards/ap/06-withdrawal.pog:14"


def test_every_written_event_is_named_by_a_test():
    proc = run("cards", "campaign", "--untested", "--json", cwd=REPO, root=False)
    assert json.loads(proc.stdout)["cards"] == []


def test_help():
    proc = run("cards", "--help", root=False)
    assert proc.returncode == 0 and proc.stdout.startswith("usage: pogdsl cards")
    assert "@pytest.mark.card" in proc.stdout


def test_show_a_card_by_side_and_number():
    proc = run("show", "campaign", "--card", "CP 1", "--card", "ap6", cwd=REPO, root=False)
    assert proc.returncode == 0, proc.stderr
    assert "CP 1 Guns of August: ops 3 sr 4 ws 2  mobilization *\n  pile: draw:cp" in proc.stdout
    assert "AP 6 Withdrawal: ops 2 sr 2  mobilization * combat" in proc.stdout
    proc = run("show", "campaign", "--card", "Entrench", cwd=REPO, root=False)
    assert proc.returncode == 2
    assert proc.stderr == ("pogdsl show: error: 'Entrench' names 2 cards: AP 12 Entrench and CP 6 Entrench; "
                           "write 'AP 12' or 'CP 6'\n")
    proc = run("show", "campaign", "--card", "cp 1", "--json", cwd=REPO, root=False)
    (card,) = json.loads(proc.stdout)["cards"]
    assert (card["key"], card["pile"], card["event"]) == ("CP 1", "draw:cp", True)
