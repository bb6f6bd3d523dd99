"""A decision's options as numbers: for each option, what each of the
choice's variables holds (the values the interpreter binds when the option
is taken, `pending["values"]`), laid out the same for every choice."""

from __future__ import annotations

import numpy as np

from ..runtime.values import Entity
from .layout import BOUND


def max_vars(world) -> int:
    """The most variables a choice of WORLD binds."""
    return max((len(getattr(c, "params", ()) or ()) for c in world.choices.values()), default=0)


def option_width(world) -> int:
    """Numbers per option: 1 (the option is there), then 3 per variable."""
    return 1 + 3 * max(1, max_vars(world))


def kinds(world) -> dict[str, int]:
    """Every kind of entity, numbered from 1 (0: not an entity)."""
    found = _KINDS.get(id(world))
    if found is None or found[0] is not world:
        names = ["space", "unit", "card", "side", "nation", "box", *sorted(world.by_kind)]
        found = _KINDS[id(world)] = (world, {k: i + 1 for i, k in enumerate(dict.fromkeys(names))})
    return found[1]


_KINDS: dict[int, tuple] = {}


def option_features(world, values: list, out: np.ndarray) -> None:
    """Write the features of the options VALUES (one list of values per
    option) into the rows of OUT: [1, then for each variable: the kind of
    entity it holds (kinds(), 0 for a number, a yes/no or nothing), the
    entity's position in its kind (1-based) or the number itself, and 1
    when it holds nothing (the optional "done" answer)]."""
    numbered = kinds(world)
    width = out.shape[1]
    for row, option in enumerate(values):
        out[row, 0] = 1
        col = 1
        for value in option:
            if col + 3 > width:
                break
            if isinstance(value, Entity):
                out[row, col] = numbered.get(value.kind, 0)
                out[row, col + 1] = (value.index + 1) if value.index >= 0 else 0
            elif value is None:
                out[row, col + 2] = 1
            elif isinstance(value, (bool, int, float)):
                out[row, col + 1] = float(value)
            elif isinstance(value, list):
                out[row, col + 1] = len(value)
            col += 3
    np.clip(out, -BOUND, BOUND, out=out)
