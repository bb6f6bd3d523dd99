"""Shared test set-up.

The compiler caches Lark tables and parsed modules on disk.  Tests must not
write into the user's ~/.cache, so the whole session points POGDSL_CACHE_DIR at
a temporary folder (subprocesses started by the CLI tests inherit it).
"""

from __future__ import annotations

import os

import pytest


@pytest.fixture(scope="session", autouse=True)
def _pogdsl_cache_dir(tmp_path_factory):
    patch = pytest.MonkeyPatch()
    patch.setenv("POGDSL_CACHE_DIR", str(tmp_path_factory.mktemp("pogdsl-cache")))
    patch.delenv("POGDSL_HOME", raising=False)
    yield
    patch.undo()


def pytest_configure(config):
    # Markers that name what a test checks, so that tools can list the tests
    # of a card (`pogdsl cards`) or of a rule (`pogdsl rules --tests`) by
    # reading the test sources, without running them.
    config.addinivalue_line("markers", 'card(key): the strategy card the test checks, "AP 33" or "CP 25"')
    config.addinivalue_line("markers", 'rule(number): the rulebook number the test checks, "12.4.3" (or "soe 12.4.3")')
    config.addinivalue_line("markers", "slow: a test that takes long (building and installing a wheel); it runs "
                                       "in the suite, -m 'not slow' leaves it out")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    # In CI every test runs: a test skipped there (a missing browser, an
    # extra not installed) would pass unseen, so with CI set a skip fails,
    # naming its reason.  An expected failure (xfail) is not a skip.
    outcome = yield
    report = outcome.get_result()
    if os.environ.get("CI") and report.skipped and not hasattr(report, "wasxfail"):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        report.outcome = "failed"
        report.longrepr = f"skipped in CI, where every test must run: {reason}"
