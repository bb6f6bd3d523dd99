"""Shared test set-up.

The compiler caches Lark tables and parsed modules on disk.  Tests must not
write into the user's ~/.cache, so the whole session points POGDSL_CACHE_DIR at
a temporary folder (subprocesses started by the CLI tests inherit it).
"""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session", autouse=True)
def _pogdsl_cache_dir(tmp_path_factory):
    patch = pytest.MonkeyPatch()
    patch.setenv("POGDSL_CACHE_DIR", str(tmp_path_factory.mktemp("pogdsl-cache")))
    patch.delenv("POGDSL_HOME", raising=False)
    yield
    patch.undo()
