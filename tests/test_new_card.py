"""`pogdsl new card` (issue 33, "modding without friction"): a card of one's
own and a script that tries it, both green as written, in a folder that
extends the library under the README's editable install."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def pogdsl(*args, cwd):
    env = {k: v for k, v in os.environ.items() if k != "POGDSL_HOME"}
    env["PYTHONPATH"] = str(REPO)
    proc = subprocess.run([sys.executable, "-m", "pogdsl.cli", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=600)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc


@pytest.fixture(scope="module")
def mod(tmp_path_factory):
    folder = tmp_path_factory.mktemp("mymod")
    proc = pogdsl("new", "card", "ap", "66", "Sacred Way", cwd=folder)
    assert proc.returncode == 0, proc.stderr
    return folder


def test_the_card_and_its_script_are_written_and_pass_as_written(mod):
    card = mod / "cards" / "ap" / "66-sacred-way.pog"
    script = mod / "scripts" / "ap-66-sacred-way.script"
    assert card.is_file() and script.is_file()
    assert "card ap 66 'Sacred Way' cites" in card.read_text(encoding="utf-8")
    text = script.read_text(encoding="utf-8")
    assert "scenario campaign" in text and "hand ap 'Sacred Way'" in text and "expect legal" in text
    checked = pogdsl("check", "--strict", cwd=mod)
    assert checked.returncode == 0, checked.stderr
    replayed = pogdsl("replay", str(script.relative_to(mod)), cwd=mod)
    assert replayed.returncode == 0, replayed.stderr
    assert replayed.stdout.startswith("OK")


def test_the_new_card_is_in_the_deck_of_the_scenarios(mod):
    shown = pogdsl("cards", "campaign", "AP 66", cwd=mod)
    assert shown.returncode == 0, shown.stderr
    assert "Sacred Way" in shown.stdout and "cards/ap/66-sacred-way.pog" in shown.stdout


@pytest.mark.parametrize("args, said", [
    (("ap", "66", "Sacred Way"), "exists already"),
    (("ap", "1", "Another"), "AP 1 is 'British Reinforcements (BR 2)' already"),
    (("xp", "67", "Nobody's"), "without a single quote"),
    (("xp", "67", "Nobody"), "unknown side 'xp': the sides are ap, cp"),
    (("ap", "99999999999999999999", "Huge"), "the card's number runs from 1 to 999"),
])
def test_mistakes_are_refused_and_write_nothing(mod, args, said):
    before = sorted(p.relative_to(mod) for p in mod.rglob("*") if p.is_file())
    proc = pogdsl("new", "card", *args, cwd=mod)
    assert proc.returncode == 2 and said in proc.stderr, proc.stderr
    assert sorted(p.relative_to(mod) for p in mod.rglob("*") if p.is_file()) == before
