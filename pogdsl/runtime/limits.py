"""The bounds on the work of one game.

The language has no unbounded loop, but a source can still ask for a great
deal of work: a loop of a million steps, a range of a billion numbers, a
choice over every four spaces of the map, a number squared until it fills
memory.  Each such resource has a limit here; running out of one stops the
game with a `LimitExceeded` (a located game error naming the limit), never a
hang, a MemoryError, a RecursionError or a crash.

A scenario raises (or lowers) a limit with ``limit NAME N`` (docs/language.rst,
"Limits"); the integer range is the language's own and cannot be changed.
"""

from __future__ import annotations

# The language's integers: at most MAX_INT_DIGITS decimal digits, that is
# -INT_LIMIT < n < INT_LIMIT (a 64-bit integer holds every one of them).
MAX_INT_DIGITS = 18
INT_LIMIT = 10 ** MAX_INT_DIGITS

# How deeply lists may hold lists in a value of the state (a saved game and
# the state hash write it out; real rules nest two or three deep).
MAX_NESTING = 100

# name → (default, what it bounds); a scenario's `limit NAME N` sets one.
LIMITS: dict[str, tuple[int, str]] = {
    "steps": (2_000_000, "steps run between two decisions"),
    "work": (50_000_000, "items walked (by comprehensions, aggregates, choices, `for`) between two decisions"),
    "list_size": (1_000_000, "items of one list or range a rule builds (and the `limit` of best_fill)"),
    "candidates": (1_000_000, "candidates looked at for one choice (every combination of its sources)"),
    "depth": (1_000, "procedures, triggers and events running inside one another (frames on the stack)"),
    "units": (100_000, "pieces of one unit declaration (`count N`)"),
}

DEFAULTS: dict[str, int] = {name: default for name, (default, _) in LIMITS.items()}


def limits_of(scenario) -> dict[str, int]:
    """A scenario's limits: the defaults, then its `limit` statements."""
    out = dict(DEFAULTS)
    for name, value in (getattr(scenario, "limits", None) or {}).items():
        if name in out:
            out[name] = value[0] if isinstance(value, tuple) else value
    return out
