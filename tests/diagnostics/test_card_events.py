"""A card without an event (E0901, W0902).

In the project's own deck (its cards/ folder) a card must have its event once
the project says so, with `require-card-events = true` under `[tool.pogdsl]`
in its pyproject.toml: then it is an error, with the card's location and a
hint.  Before that (a deck still being written) it is not reported.  A card
elsewhere — a modder's file checked with the project — is only a warning
(the golden case cases/card_without_event.pog).

The project here is a copy of the mini project with the card of
own_deck/02-quiet-sector.pog added to its cards/ folder; the rendered text
must equal own_deck/expected.txt (regenerate with POGDSL_UPDATE_GOLDEN=1).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from pogdsl.cli.check import _check
from pogdsl.compiler import compile_paths
from pogdsl.diagnostics import render

HERE = Path(__file__).resolve().parent
OWN = HERE / "own_deck"
UPDATE = os.environ.get("POGDSL_UPDATE_GOLDEN", "") not in ("", "0")


@pytest.fixture
def project(tmp_path, monkeypatch):
    root = tmp_path / "project"
    shutil.copytree(HERE / "project", root)
    shutil.copy(OWN / "02-quiet-sector.pog", root / "cards" / "cp" / "02-quiet-sector.pog")
    monkeypatch.chdir(root)
    return root


def rendered(comp) -> str:
    return "".join(render(d, comp.sources) + "\n" for d in comp.reporter.sorted())


def test_own_card_without_event_is_an_error_when_the_project_requires_events(project):
    (project / "pyproject.toml").write_text('[tool.pogdsl]\nrequire-card-events = true\n')
    comp = compile_paths(None, root=project)
    got = [(d.severity, d.code, d.span.file, d.span.line, d.span.col, d.message) for d in comp.reporter.sorted()]
    assert got == [("error", "E0901", "cards/cp/02-quiet-sector.pog", 2, 11,
                    "card CP 2 'Quiet Sector' has no event")]
    golden = OWN / "expected.txt"
    if UPDATE:
        golden.write_text(rendered(comp), encoding="utf-8")
    assert rendered(comp) == golden.read_text(encoding="utf-8")


@pytest.mark.parametrize("settings", [None, "[tool.pogdsl]\nrequire-card-events = false\n",
                                      "[tool.other]\nrequire-card-events = true\n", "not toml ["])
def test_own_card_without_event_is_not_reported_until_the_project_requires_events(project, settings):
    if settings is not None:
        (project / "pyproject.toml").write_text(settings)
    comp = compile_paths(None, root=project)
    assert [d.code for d in comp.reporter.sorted()] == []


def test_the_same_card_outside_the_deck_is_a_warning(project):
    (project / "pyproject.toml").write_text('[tool.pogdsl]\nrequire-card-events = true\n')
    moved = project / "mods"
    moved.mkdir()
    (project / "cards" / "cp" / "02-quiet-sector.pog").rename(moved / "quiet.pog")
    comp = compile_paths([moved / "quiet.pog"], root=project)
    assert [(d.severity, d.code) for d in comp.reporter.sorted()] == [("warning", "W0902")]


def test_check_exits_1_and_the_cache_sees_the_setting_change(project, capsys):
    import argparse
    import io

    from pogdsl.cli import result_cache

    args = argparse.Namespace(paths=[], root=project, standalone=False, json=False, quiet=False, strict=False,
                              no_cache=False)
    key_before = result_cache.key_for(args)
    (project / "pyproject.toml").write_text('[tool.pogdsl]\nrequire-card-events = true\n')
    assert result_cache.key_for(args) != key_before
    out, err = io.StringIO(), io.StringIO()
    assert _check(args, out, err) == 1
    assert "error[E0901]: card CP 2 'Quiet Sector' has no event" in err.getvalue()


def test_the_project_requires_every_card_event_and_has_them_all():
    """The deck is complete: the project's pyproject.toml asks for every card's
    event, and no card of cards/ lacks one."""
    from pogdsl.project import settings

    root = HERE.parents[1]
    assert settings(root).get("require-card-events") is True
    comp = compile_paths(None, root=root)
    assert not [d for d in comp.reporter.items if d.code in ("E0901", "W0902")]
    assert len(comp.base.all("card")) == 130
