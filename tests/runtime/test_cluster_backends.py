"""`simulate --backend ray|dask`: the same games on a cluster the test starts
itself (a local Ray instance, a Dask LocalCluster), with the same results as
the local pool.  The backends' packages are in the test extra."""

from __future__ import annotations

import pytest

from pogdsl.sim import simulate

from .conftest import RULES

GAMES, SEED = 6, 2


def _played(summary: dict) -> tuple:
    return summary["finished"], summary["failed"], summary["results"], summary["digest"]


@pytest.fixture(scope="module")
def local():
    return simulate("toy_rules", games=GAMES, seed=SEED, root=RULES, workers=1)


def test_dask_plays_the_same_games_on_a_local_cluster(local, monkeypatch):
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        monkeypatch.setenv("DASK_SCHEDULER_ADDRESS", cluster.scheduler_address)
        summary = simulate("toy_rules", games=GAMES, seed=SEED, root=RULES, workers=2, backend="dask")
    assert summary["finished"] == GAMES and _played(summary) == _played(local)


def test_ray_plays_the_same_games_on_a_local_instance(local, monkeypatch):
    ray = pytest.importorskip("ray")
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        summary = simulate("toy_rules", games=GAMES, seed=SEED, root=RULES, workers=2, backend="ray")
    finally:
        ray.shutdown()
    assert summary["finished"] == GAMES and _played(summary) == _played(local)
