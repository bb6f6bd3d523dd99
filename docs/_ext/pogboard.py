"""Sphinx extension: a board drawn at build time.

``.. pog-board:: SCENARIO [SIDE]``
    The board of SCENARIO after its set-up, as ``pogdsl show SCENARIO --svg
    FILE [--side SIDE]`` draws it (pogdsl/board/svg.py), shown as a figure.
    The SVG is written under ``docs/_generated/`` (not kept in git) and
    rebuilt when any rule or scenario source changes.
"""

from __future__ import annotations

from pathlib import Path

from docutils import nodes
from sphinx.util.docutils import SphinxDirective

DOCS_DIR = Path(__file__).resolve().parent.parent
PROJECT_DIR = DOCS_DIR.parent
GENERATED = DOCS_DIR / "_generated"


def board_file(scenario: str, side: str | None = None) -> Path:
    """Draw SCENARIO's board after set-up into docs/_generated/; its path."""
    from pogdsl.board.svg import board_svg, write_atomic
    from pogdsl.opening import open_scenario

    game = open_scenario(scenario, PROJECT_DIR).new_game(0)
    game.run()
    GENERATED.mkdir(exist_ok=True)
    path = GENERATED / f"board-{scenario}{'-' + side if side else ''}.svg"
    write_atomic(str(path), board_svg(game, side).encode("utf-8"))
    return path


class PogBoard(SphinxDirective):
    required_arguments = 1
    optional_arguments = 1
    has_content = True

    def run(self):
        for folder in ("rules", "scenarios"):
            for path in sorted((PROJECT_DIR / folder).rglob("*.pog")):
                self.env.note_dependency(str(path))
        path = board_file(*self.arguments)
        image = nodes.image(uri="/" + path.relative_to(DOCS_DIR).as_posix(), alt=f"the board of {self.arguments[0]}",
                            width="100%")
        figure = nodes.figure("", image)
        if self.content:
            caption = nodes.caption(text=" ".join(self.content))
            figure += caption
        return [figure]


def setup(app):
    app.add_directive("pog-board", PogBoard)
    return {"version": "1.0", "parallel_read_safe": True}
