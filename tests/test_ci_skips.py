"""In CI a skipped test fails (tests/conftest.py): a test that needs a
browser, a server or an extra and does not find it must not pass unseen."""

from __future__ import annotations

from pathlib import Path

pytest_plugins = ["pytester"]

CONFTEST = (Path(__file__).parent / "conftest.py").read_text()

TESTS = """
import pytest

def test_skipped():
    pytest.skip("no browser here")

@pytest.mark.xfail(strict=True)
def test_expected_to_fail():
    assert False

def test_passes():
    pass
"""


def run(pytester, monkeypatch, ci: str | None):
    if ci is None:
        monkeypatch.delenv("CI", raising=False)
    else:
        monkeypatch.setenv("CI", ci)
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_guard=TESTS)
    return pytester.runpytest_subprocess("-q", "-p", "no:cacheprovider")


def test_a_skip_fails_in_ci_naming_its_reason(pytester, monkeypatch):
    result = run(pytester, monkeypatch, "true")
    result.assert_outcomes(passed=1, failed=1, xfailed=1)
    result.stdout.fnmatch_lines(["*skipped in CI, where every test must run*no browser here*"])


def test_a_skip_is_a_skip_outside_ci(pytester, monkeypatch):
    result = run(pytester, monkeypatch, None)
    result.assert_outcomes(passed=1, skipped=1, xfailed=1)
