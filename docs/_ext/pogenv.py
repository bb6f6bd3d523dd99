"""Sphinx extension: the fields of a scenario's observation, generated at
build time.

``.. pog-observation:: SCENARIO``
    A table of every field of the observation vector `pogdsl.env` gives a
    side of SCENARIO (a name, or a .pog path relative to the project): its
    name, its slice of the vector, its shape and its meaning.  The rows are
    the layout's own (pogdsl/env/layout.py, what
    `env.observation_fields()` returns), so the page cannot drift from the
    code.  It needs numpy only, not the `rl` extra.
"""

from __future__ import annotations

from pathlib import Path

from docutils.statemachine import StringList
from docutils import nodes
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import nested_parse_with_titles

PROJECT_DIR = Path(__file__).resolve().parent.parent.parent


def observation_lines(scenario: str) -> list[str]:
    from pogdsl.env.layout import layout_of
    from pogdsl.env.scenario import open_for_env

    spec = str(PROJECT_DIR / scenario) if scenario.endswith(".pog") else scenario
    layout = layout_of(open_for_env(spec, root=None if scenario.endswith(".pog") else PROJECT_DIR).world)
    lines = [".. list-table::", "   :header-rows: 1", "   :widths: 18 12 10 60", "",
             "   * - field", "     - slice", "     - shape", "     - meaning"]
    for f in layout.fields:
        row = f.as_row()
        lines += [f"   * - ``{row['name']}``", f"     - ``{row['slice']}``", f"     - {row['shape']}",
                  f"     - {_escaped(row['meaning'])}"]
    lines += ["", f"{layout.size} numbers in all."]
    return lines


def _escaped(text: str) -> str:
    """TEXT as plain reStructuredText: no `name_` reference, no emphasis."""
    for c in "\\*`_|":
        text = text.replace(c, "\\" + c)
    return text


class ObservationDirective(SphinxDirective):
    required_arguments = 1
    has_content = False

    def run(self):
        node = nodes.section()
        node.document = self.state.document
        nested_parse_with_titles(self.state, StringList(observation_lines(self.arguments[0])), node)
        return node.children


def setup(app):
    app.add_directive("pog-observation", ObservationDirective)
    return {"parallel_read_safe": True}
