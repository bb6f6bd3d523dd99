"""Lookups the runtime keeps instead of working them out at each ask: they
must answer what working them out does.

* `played(c)` looks the card up in a set of the state's played list, kept
  for the list last asked about (builtins.played): along games, across
  games and after a restore it answers what the list itself says.
* A box declared per side or nation (`reserve[u.side]`) is kept on the world
  by entity once found by its name (builtins.index)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pogdsl.runtime import builtins as B  # noqa: E402
from pogdsl.runtime.errors import GameError  # noqa: E402
from pogdsl.runtime.interpreter import Game  # noqa: E402
from rules.harness import play_randomly, world  # noqa: E402


@pytest.fixture(scope="module")
def campaign():
    return world()


def _agrees(game: Game) -> None:
    listed = game.s["played"]
    for c in game.w.cards:
        assert B.played(game, None, c) is (c.index in listed), c.key


def test_played_answers_what_the_list_says_along_two_interleaved_games(campaign):
    other = Game.new(campaign, seed=8, log=False)
    other.run()
    seen = set()

    def each(game, decision):
        _agrees(game)
        _agrees(other)  # another game's list asked in between: the set kept must follow
        seen.add(len(game.s["played"]))

    play_randomly(campaign, seed=7, decisions=400, each=each)
    assert len(seen) > 5  # cards were played while the answers were checked


def test_played_after_a_restore_reads_the_restored_list(campaign):
    game = Game.new(campaign, seed=11, log=False)
    rng = random.Random(11)
    d = game.run()
    mark = game.mark()
    before = len(game.s["played"])
    while len(game.s["played"]) == before:
        d = game.choose(rng.randrange(len(d.options)) + 1)
    first = game.w.cards[game.s["played"][before]]
    _agrees(game)
    assert B.played(game, None, first)
    game.restore(mark)
    # The same length again, with another card: only the list's identity tells.
    another = next(c for c in game.w.cards if c.index not in game.s["played"] and c is not first)
    game.s["played"].append(another.index)
    assert len(game.s["played"]) == before + 1
    assert not B.played(game, None, first)
    assert B.played(game, None, another)
    _agrees(game)


def test_a_box_per_entity_is_the_box_of_that_name_at_every_ask(campaign):
    game = Game.new(campaign, seed=3, log=False)
    decls = {box.data[0] for box in campaign.boxes if box.data[1] is not None}
    assert decls  # the reserve boxes, one per side
    owners = [*campaign.sides, *campaign.nations]
    for _ in range(2):  # the second time from what the world kept
        for decl in decls:
            for owner in owners:
                named = campaign.by_kind["box"].get(f"{decl.key}[{owner.scope}]")
                if named is None:
                    with pytest.raises(GameError, match="there is no box"):
                        B.index(game, decl, [owner], None)
                else:
                    assert B.index(game, decl, [owner], None) is named
    assert campaign.boxes_by_entity  # kept
