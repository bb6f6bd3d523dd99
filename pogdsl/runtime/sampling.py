"""Picking a random legal option without listing them all.

A random player takes one legal option of a decision, uniformly or in
proportion to the choice's `weight`.  Listing the legal options first tests
every candidate against every restriction, which is most of what a random
game costs.  `sample` finds a pick with the same distribution by testing the
options in a random order and stopping at the first legal one, then looks
for one more legal option, because a decision with a single legal option is
not asked (the interpreter takes it at once).

The options here are *groups*: the candidates that read the same text are one
option, as `Game.offer` keeps only the first legal candidate of a text.  A
group's weight is the weight of its first legal candidate (of its first
candidate when none is legal); the caller works that out.

Why the distribution is right: each draw is proportional to the weights of
the groups not yet tried, and a group found illegal is only taken out of the
draw, which leaves the proportions among the legal groups as they were.  So
the first legal group drawn is distributed as a weighted pick among the legal
groups alone.  Groups of weight 0 are tried, uniformly, only once no group of
positive weight is legal: the listing rule is the same (weights that are all
0 among the legal options count as no weights).

Chance comes from a PCG32 state given and returned (`rng.below`), so the
caller keeps the new state only when it takes the pick: a random player's
generator advances on real decisions only, however the pick was found.
"""

from __future__ import annotations

from collections.abc import Callable

from . import rng


def sample(count: int, weights: list[int] | None, legal: Callable[[int], bool],
           state: int, sure: int | None = None) -> tuple[int, int | None, int | None]:
    """(new state, the group picked, another legal group) among `count`
    groups; `None` for a group not found.  `legal(i)` is asked at most once
    per group.  `sure` is a group known to be legal (a choice's optional
    "done"): when another group is picked, it is the other legal one, and
    no group need be tested for that."""
    if weights is None:
        positive, zero = list(range(count)), []
    else:
        positive = [i for i in range(count) if weights[i] > 0]
        zero = [i for i in range(count) if weights[i] <= 0] if len(positive) < count else []
    state, picked = _draw_until_legal(positive, weights, legal, state)
    if picked is None:
        state, picked = _draw_until_legal(zero, None, legal, state)
    if picked is None:
        return state, None, None
    if sure is not None and sure != picked:
        return state, picked, sure
    for pool in (positive, zero):  # the groups not drawn, in the order the draws left them
        for i in pool:
            if legal(i):
                return state, picked, i
    return state, picked, None


def _draw_until_legal(pool: list[int], weights: list[int] | None, legal, state: int) -> tuple[int, int | None]:
    """Draw groups out of `pool` (by weight, or uniformly) until one is legal;
    the groups drawn are taken out of `pool`."""
    total = sum(map(weights.__getitem__, pool)) if weights is not None else 0
    while pool:
        if weights is None:
            state, k = rng.below(state, len(pool))
        else:
            state, r = rng.below(state, total)
            k = 0
            while r >= weights[pool[k]]:
                r -= weights[pool[k]]
                k += 1
            total -= weights[pool[k]]
        i = pool[k]
        pool[k] = pool[-1]  # out of the pool in O(1); the order left is still fixed by the draws
        pool.pop()
        if legal(i):
            return state, i
    return state, None


def pick_index(count: int, weights: list[int] | None, state: int) -> tuple[int, int]:
    """(new state, an index in [0, count)): uniform, or by `weights` (all
    legal; weights that are all 0 count as none)."""
    state, picked, _ = sample(count, weights, lambda i: True, state)
    return state, picked
