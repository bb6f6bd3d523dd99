"""`pogdsl rules SCENARIO RULE` (issue 33): one rule at a time — its title,
every place implementing it (rule files first, then cards, then scenarios),
the tests naming it, declared approximations — with the counts the docs'
rule index gives."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from pogdsl.cli import main

REPO = Path(__file__).resolve().parents[1]
DOCS = REPO / "docs"


@pytest.fixture(autouse=True)
def _at_repo(monkeypatch):
    monkeypatch.chdir(REPO)
    monkeypatch.delenv("POGDSL_HOME", raising=False)


def rules(capsys, *args):
    status = main(["rules", *args])
    out = capsys.readouterr()
    return status, out.out, out.err


def test_a_rule_and_its_sub_rules_with_places_in_order(capsys):
    status, out, err = rules(capsys, "campaign", "12.5")
    assert status == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("12.5 in campaign: 7 leaf rules of 8")
    headings = [line.split()[0] for line in lines[1:] if re.match(r"\s*12\.5", line)]
    assert headings == ["12.5"] + [f"12.5.{i}" for i in range(1, 8)]
    # 12.5.1 (when defenders retreat) is written in the rule files and changed by cards: rules first.
    at = next(i for i, line in enumerate(lines) if line.strip().startswith("12.5.1 "))
    kinds = [line.split(":")[0].strip() for line in lines[at + 1:] if not re.match(r"\s*12\.5\.2", line)][:4]
    assert kinds.index("rules") < kinds.index("cards") < kinds.index("test")


def test_the_counts_of_the_chapters_add_up_to_the_docs_rule_index(capsys):
    sys.path.insert(0, str(DOCS / "_ext"))
    try:
        from ruleindex import rule_index_lines
    finally:
        sys.path.remove(str(DOCS / "_ext"))
    header = rule_index_lines("campaign")[0]
    want = [int(n) for n in re.findall(r"(\d+) (?:leaf|named|marked|approximated|still)", header)]
    report = json.loads(_json(capsys, "campaign"))
    numbers = set(report["cited"]) | set(report["not_applicable"]) | set(report["uncovered"])
    chapters = sorted({n.split(".")[0] for n in numbers}, key=int)
    total = [0, 0, 0, 0, 0]
    for chapter in chapters:
        status = main(["rules", "campaign", chapter, "--json"])
        if status != 0:  # (a number no rule of the index starts with)
            capsys.readouterr()
            continue
        c = json.loads(capsys.readouterr().out)["counts"]
        for i, key in enumerate(("leaf", "tested", "not_applicable", "approximated", "lacking")):
            total[i] += c[key]
    assert total == want, (header, total)


def _json(capsys, scenario):
    assert main(["rules", scenario, "--json"]) == 0
    return capsys.readouterr().out


def test_declared_approximations_are_listed_with_what_is_left_out(capsys):
    status, out, _ = rules(capsys, "campaign", "14.1.3")
    assert status == 0
    assert "approximated: dotted lines" in out
    report = json.loads(_json(capsys, "campaign"))
    assert "14.1.3" in report["approximated"]
    status, out, _ = rules(capsys, "illusions", "iog 26")
    assert status == 0 and "3 approximated" in out.splitlines()[0]
    assert "not applicable: rests on IoG's Southern Italy region" in out


def test_an_unknown_rule_is_refused_with_the_nearest(capsys):
    status, out, err = rules(capsys, "campaign", "12.55")
    assert status == 2 and "rule 12.55 is not in the rule index of campaign" in err and "did you mean" in err
