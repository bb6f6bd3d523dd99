"""The environment's tests need the `rl` extra (in the `test` extra too):
without it they are not collected."""

from __future__ import annotations

from pathlib import Path

try:
    import gymnasium  # noqa: F401
    import pettingzoo  # noqa: F401
except ImportError:
    collect_ignore_glob = ["test_*.py"]

REPO = Path(__file__).resolve().parents[2]
TOY = REPO / "docs" / "examples" / "toy" / "scenarios" / "toy.pog"


def masked_choice(rng, mask) -> int:
    """A legal action drawn from RNG (a numpy Generator)."""
    import numpy as np

    legal = np.flatnonzero(mask)
    return int(legal[rng.integers(len(legal))])
