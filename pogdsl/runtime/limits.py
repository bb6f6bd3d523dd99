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
    "units": (100_000, "pieces of the world: of one unit declaration (`count N`) and of all of them"),
    "decisions": (1_000, "decisions of a whole game, for each turn of the scenario (a random Campaign game "
                         "takes under 100 a turn)"),
}

# The most a source may set each limit to: what one process can afford.  A
# runaway game at these still stops within a minute and a couple of
# gigabytes (measured on the two-core machine with every limit at its most:
# 10 million steps in 16 s; 10,000 frames in 3 s; `work` bounds memory too,
# since what is built was walked: 100 million items walked into lists of
# numbers took 3.3 GB, so it stays at its default, about 1.7 GB at worst).
# Above it, `limit NAME N` is a checker error (E0304), and the world is built
# with the most.  The command-line options (`--max-steps`,
# `--max-decisions`) are the user's own and are not capped.
MAXIMA: dict[str, int] = {
    "steps": 10_000_000,
    "work": 50_000_000,
    "list_size": 10_000_000,
    "candidates": 10_000_000,
    "depth": 10_000,
    "units": 200_000,
    "decisions": 200_000,
}

DEFAULTS: dict[str, int] = {name: default for name, (default, _) in LIMITS.items()}


def limits_of(scenario, turns: int = 1) -> dict[str, int]:
    """A scenario's limits: the defaults, then its `limit` statements, each
    at most its MAXIMA.  The default of `decisions` is per turn: it is
    multiplied by TURNS, the number of turns the scenario plays (a random
    game takes under a hundred decisions a turn: ten times that and more is
    a game that never ends)."""
    out = dict(DEFAULTS)
    # (at most the most a source may set: `turns 1..1000000000` is no licence)
    out["decisions"] = min(DEFAULTS["decisions"] * max(1, turns), MAXIMA["decisions"])
    for name, value in (getattr(scenario, "limits", None) or {}).items():
        if name in out:
            out[name] = min(value[0] if isinstance(value, tuple) else value, MAXIMA[name])
    return out
