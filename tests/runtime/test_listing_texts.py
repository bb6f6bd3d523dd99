"""A listed decision offers each legal option once by its text: options whose
texts read the same are interchangeable (docs/playing.rst, decisions), and
the first of them, in the order of the choice's sources, is the one kept.
Game.offer renders every legal option and sifts the texts at once; here each
listing of random games is held to the options worked out one by one: the
choice's candidates, each asked of the restrictions (Game._forbidden, the
walk over them), its text written, kept unless a text already kept reads the
same, and the optional answer last."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pogdsl.runtime.interpreter import Game  # noqa: E402
from rules.harness import world  # noqa: E402


def _one_by_one(game: Game) -> tuple[list[str], list[list]]:
    """The pending decision's options and their values, worked out afresh
    candidate by candidate."""
    spec = game._pending_spec()
    texts: list[str] = []
    values: list[list] = []
    for candidate in spec.enumerate(game, game.s["stack"][-1]["l"]):
        if game._forbidden(spec.name, candidate):
            continue
        text = spec.text(candidate, game)
        if text not in texts:
            texts.append(text)
            values.append(list(candidate))
    if spec.optional:
        texts.append(spec.optional_label)
        values.append([None] * len(spec.vars))
    return texts, values


@pytest.mark.parametrize("scenario", ["historical", "campaign"])
def test_each_listing_keeps_one_option_per_text_the_first_of_them(scenario):
    game = Game.new(world(scenario), seed=5, log=False)
    game.list_weights = False
    rng = random.Random(5)
    d = game.run()
    listed = alike = 0
    while d is not None and listed < 500:
        texts, values = _one_by_one(game)
        assert d.options == texts, f"decision {listed} ({d.choice})"
        assert game.s["pending"]["values"] == values, f"decision {listed} ({d.choice})"
        spec = game._pending_spec()
        candidates = spec.enumerate(game, game.s["stack"][-1]["l"])
        alike += len({spec.text(c, game) for c in candidates}) < len(candidates)
        d = game.choose(rng.randrange(len(d.options)) + 1)
        listed += 1
    assert listed >= 200, "the game should list many decisions"
    assert alike > 0, "some listing should meet candidates whose texts read the same"
