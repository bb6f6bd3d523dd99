"""`modifier m after a`: where two modifiers replace (`:=`) one value, the one
declared `after` the other is applied later, so its result stands, whatever
the order of the source text."""

from __future__ import annotations

import shutil

import pytest

from pogdsl.runtime import builtins as B
from pogdsl.runtime.interpreter import Game
from pogdsl.opening import open_scenario

from .conftest import TOY

EXTRA = """
value weather() = 0
modifier rain{AFTER} {{
  weather := 1
}}
modifier snow {{
  weather := 2
}}
modifier wind {{
  weather += 10
}}
"""


def weather(tmp_path, after: str) -> int:
    root = tmp_path / "toy"
    shutil.copytree(TOY, root)
    source = root / "scenarios" / "toy.pog"
    source.write_text(source.read_text(encoding="utf-8") + EXTRA.format(AFTER=after), encoding="utf-8")
    opened = open_scenario("toy", root, cache=False)
    game = Game.new(opened.world, 1)
    return B.value_of(game, "weather", ())


@pytest.mark.parametrize("after, expected", [
    ("", 12),               # no order: the later source line stands (the checker warns, W0801)
    (" after snow", 11),    # rain is applied after snow, though written first
])
def test_after_decides_which_replacement_stands(tmp_path, after, expected):
    assert weather(tmp_path, after) == expected
