"""What one side may see of a game, and a game consistent with it.

A player who looks ahead (agents/mcts.py) must not read what its side cannot
see: the cards in another side's hand, the order of any draw pile, the
dice to come.  Two functions give it what it may use:

* `view(game, side)`: the state as SIDE sees it — everything but the hidden
  part, which is shown by its size only;
* `determinize(game, side, state)`: a copy of the game whose hidden part is
  drawn afresh, consistently with the view, from the caller's own PCG32
  generator (`state`, returned advanced): every card stays in exactly one
  pile and every pile keeps its size.

Which piles are hidden is declared by kind, not by any game's names: the
runtime keeps a side's cards in piles `KIND:SIDE` (interpreter.new_state),
and `HIDDEN_KINDS` says which kinds a side sees of its own and of the other
sides' piles.  The cards hidden from a side that belong to one owner (another
side's hand and draw pile together; its own draw pile) are one pool: in a
determinization they are put in a fixed order (by card number), shuffled
with the caller's generator and dealt back into the same piles, each to its
old size.  So the result depends only on the view and on the caller's
generator, never on where the hidden cards really are.

The game's own generator and any dice fixed in advance (a test's) are hidden
too: a determinization re-seeds the one from the caller's generator and
drops the others.

Not covered: a value the rules keep in a procedure's local variable across
a decision (say, a card just drawn held in a `let`) is in the view as it is;
the sources decide what they hold there.
"""

from __future__ import annotations

from . import rng
from .values import copy_data

# Pile kind → who sees which cards are in it and in what order:
#   "owner"   the side whose pile it is sees it; the others see its size
#   "nobody"  no side sees the order or, for the other sides, the cards
#             (a draw pile: its owner knows which cards are in it, not where)
#   "all"     every side sees it (discards, removed cards, cards in play)
HIDDEN_KINDS = {"hand": "owner", "draw": "nobody"}

# Parts of the state no player sees: the game's generator, dice fixed in
# advance, and what only the machinery uses (the log, counters).
HIDDEN_STATE = ("rng", "dice", "seed", "log")


def _pile_parts(key: str) -> tuple[str, str]:
    kind, _, owner = key.partition(":")
    return kind, owner


def hidden_from(side: str, key: str) -> str | None:
    """How pile KEY is hidden from SIDE: "cards" (which cards, and their
    order: another side's hand or draw pile), "order" (only the order: its
    own draw pile), or None (it sees it all)."""
    kind, owner = _pile_parts(key)
    who = HIDDEN_KINDS.get(kind)
    if who is None:
        return None
    if owner == side:
        return "order" if who == "nobody" else None
    return "cards"


def view(game, side) -> dict:
    """The state as SIDE (a side or its key) may see it: plain data, equal for
    two games SIDE cannot tell apart.  A pile it cannot see is {"size": n};
    one whose cards it knows but not their order is {"cards": sorted list}."""
    key = getattr(side, "key", side)
    s = game.s
    seen = {k: copy_data(v) for k, v in s.items() if k not in HIDDEN_STATE and k != "piles"}
    piles = {}
    for name, cards in s["piles"].items():
        how = hidden_from(key, name)
        if how == "cards":
            piles[name] = {"size": len(cards)}
        elif how == "order":
            piles[name] = {"cards": sorted(cards)}
        else:
            piles[name] = list(cards)
    seen["piles"] = piles
    return seen


def determinize(game, side, state: int, *, remember: bool = False):
    """(advanced generator state, a copy of GAME whose part hidden from SIDE
    is drawn from the generator STATE).  The copy keeps every card in exactly
    one pile and every pile's size; the game's own generator is re-seeded
    from STATE and dice fixed in advance are dropped.  With `remember`, the
    copy inherits the values GAME remembers (Game.copy), but for those
    reading the cards."""
    key = getattr(side, "key", side)
    other = game.copy(remember=remember)
    s = other.s
    piles = s["piles"]
    pools: dict[str, list[str]] = {}  # owner → the piles whose hidden cards are pooled
    for name in piles:
        if hidden_from(key, name) is not None:
            pools.setdefault(_pile_parts(name)[1], []).append(name)
    for owner in sorted(pools):
        names = sorted(pools[owner])
        cards = sorted(c for n in names for c in piles[n])
        for i in range(len(cards) - 1, 0, -1):  # Fisher–Yates with the caller's generator
            state, j = rng.below(state, i + 1)
            cards[i], cards[j] = cards[j], cards[i]
        at = 0
        for n in names:
            size = len(piles[n])
            piles[n][:] = cards[at:at + size]
            at += size
    state, a = rng.next32(state)
    state, b = rng.next32(state)
    s["rng"] = rng.seed_state((a << 32) | b)
    s["dice"] = []
    # The copy keeps the values it inherited except those reading the cards
    # (the piles just dealt afresh); the generator and the dice are read by
    # no remembered value (chance is never remembered).
    other.touch("cards")
    return state, other


def undo_reveals(before: dict, now: dict, side: str) -> str | None:
    """Why going back from state NOW to state BEFORE would roll a die again
    or hide again a card SIDE has seen (None when it would not): the game's
    generator moved (a die rolled, a deck shuffled) or a forced die was
    used; a pile whose order nobody sees changed (a card drawn is a card
    seen); a card left a pile only its owner sees (played, so shown)."""
    if before["rng"] != now["rng"] or len(before["dice"]) != len(now["dice"]):
        return "a die was rolled (or a deck shuffled) since then: undoing would roll it again"
    for pile, cards in before["piles"].items():
        kind, owner = _pile_parts(pile)
        after = now["piles"].get(pile, [])
        if HIDDEN_KINDS.get(kind) == "nobody" and after != cards:
            return f"{owner} drew a card since then: undoing would hide it again"
        if HIDDEN_KINDS.get(kind) == "owner" and owner != side and not set(cards) <= set(after):
            return f"a card from {owner}'s {kind} was shown since then: undoing would hide it again"
    return None
