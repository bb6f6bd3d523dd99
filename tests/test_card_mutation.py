"""benchmarks/card_mutation.py: a card's event emptied in a copy of the
sources, its marked tests run; tests that still pass are reported."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))
import card_mutation  # noqa: E402

sys.path.pop(0)


def test_mutation_empties_the_event_and_deletes_nested_and_file_hooks():
    cards = {key: rest for key, *rest in card_mutation.cards_with_events(REPO, "campaign")}
    decl, rel, hooks = cards["AP 2"]
    assert rel == Path("cards/ap/02-blockade.pog")
    assert [h.key for h in hooks] == ["blockade_winter_vp"]
    text = (REPO / rel).read_text(encoding="utf-8")
    mutated = card_mutation.mutate_text(text, decl, hooks)
    assert "event cites 6.0.E.1 { \n\n\n}" in mutated and "shift vp" not in mutated and "log " not in mutated
    assert mutated.count("\n") == text.count("\n")  # line numbers stay
    decl, rel, hooks = cards["AP 27"]
    mutated = card_mutation.mutate_text((REPO / rel).read_text(encoding="utf-8"), decl, hooks)
    assert "trigger great_retreat on" not in mutated
    # a modifier stays declared (another may be ordered after it) but never applies
    assert "combat_proceeds := false when false" in mutated
    assert "value great_retreat_possible(" in mutated  # values and procedures stay: others may use them


TESTS = '''
from pathlib import Path

import pytest

from pogdsl.compiler import resolve_scenario

ROOT = Path(__file__).resolve().parents[1]


def card(number):
    _, program = resolve_scenario("mini", root=ROOT)
    return program.get("card", f"cp {number}")


@pytest.mark.card("CP 1")
def test_the_gambit_places_an_army():
    assert "place" in repr(card(1).event.body) and card(1).nested


@pytest.mark.card("CP 2")
def test_the_quiet_card_exists():
    assert card(2) is not None


def test_unmarked_is_not_run():
    raise AssertionError("only marked tests run")
'''

QUIET = '''card cp 2 'Quiet Sector' cites 6.1 {
  "Nothing much."
  deck mobilization
  ops 2 sr 2
  event cites 6.1 { log "quiet" cites 6.1 }
}
'''


def test_mutation_run_on_a_small_project(tmp_path):
    root = tmp_path / "project"
    shutil.copytree(REPO / "tests" / "diagnostics" / "project", root)
    (root / "cards" / "cp" / "02-quiet.pog").write_text(QUIET)
    (root / "tests").mkdir()
    (root / "tests" / "test_mini_cards.py").write_text(textwrap.dedent(TESTS))
    done = subprocess.run([sys.executable, str(REPO / "benchmarks" / "card_mutation.py"), "mini", "--root",
                           str(root), "--json"], capture_output=True, text=True, check=False, timeout=600)
    assert done.returncode == 1, done.stderr
    results = {r["key"]: r for r in json.loads(done.stdout)["results"]}
    assert results["CP 1"]["verdict"] == "killed"
    assert results["CP 2"]["verdict"] == "survived"
    assert results["CP 2"]["tests"] == ["tests/test_mini_cards.py::test_the_quiet_card_exists"]
    assert "Quiet Sector" in (root / "cards" / "cp" / "02-quiet.pog").read_text()  # the real files are untouched


def test_mutation_forgets_the_plays_the_rules_read(tmp_path):
    """Race to the Sea's effect lives in the rules chapters that read
    played('Race to the Sea'): the mutant makes them read false."""
    copy = card_mutation.copy_project(REPO, tmp_path / "copy")
    cards = {key: rest for key, *rest in card_mutation.cards_with_events(REPO, "campaign")}
    decl, rel, _ = cards["CP 8"]
    assert card_mutation.forget_plays(copy, decl, rel, unique_name=True) >= 3
    chapters = "".join(p.read_text(encoding="utf-8") for p in (copy / "rules").rglob("*.pog"))
    assert "played('Race to the Sea')" not in chapters
    assert "played('Race to the Sea')" in "".join(p.read_text(encoding="utf-8")
                                                  for p in (REPO / "rules").rglob("*.pog"))
    # A name two cards bear is left alone (it names no one card).
    decl, rel, _ = cards["AP 12"]
    before = (copy / rel).read_text(encoding="utf-8")
    card_mutation.forget_plays(copy, decl, rel, unique_name=False)
    assert (copy / rel).read_text(encoding="utf-8").count("false") >= before.count("false")
