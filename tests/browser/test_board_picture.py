"""The board's SVG (`pogdsl show SCENARIO --svg`) as a browser draws it.

The web client puts this same picture on its page and makes its spaces and
units clickable through their data-* attributes; these tests check, in a real
Chromium, that what a player would click is where the picture says: every
space of the map is drawn on the screen, and a click at a space's centre
lands on that space (no other space, connection or panel covers it)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

# For every space group: its name, and what is under the centre of its box.
HIT_TEST = """() => [...document.querySelectorAll('g.space[data-space]')].map(g => {
    const box = g.querySelector('rect').getBoundingClientRect();
    const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
    const owner = hit && hit.closest('[data-space]');
    return {space: g.dataset.space, width: box.width, height: box.height,
            hit: owner ? owner.dataset.space : (hit ? hit.tagName : null)};
})"""


@pytest.fixture(scope="module")
def picture(tmp_path_factory):
    """The Campaign's board after set-up, written by the command line."""
    path = tmp_path_factory.mktemp("picture") / "campaign.svg"
    done = subprocess.run([sys.executable, "-m", "pogdsl.cli", "show", "campaign", "--svg", str(path)],
                          cwd=REPO, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return path


def open_at_full_size(page, path) -> None:
    # elementFromPoint answers only for what is inside the viewport: make it the picture's size.
    page.goto(path.as_uri())
    size = page.evaluate("() => { const b = document.documentElement.getBBox ? "
                         "document.documentElement.getBoundingClientRect() : null; "
                         "return [Math.ceil(b.width), Math.ceil(b.height)]; }")
    page.set_viewport_size({"width": size[0], "height": size[1]})


def test_every_space_is_drawn_and_a_click_at_its_centre_lands_on_it(page, picture, snapshot):
    open_at_full_size(page, picture)
    spaces = page.evaluate(HIT_TEST)
    assert len(spaces) > 200  # the Campaign's two maps
    assert all(s["width"] > 0 and s["height"] > 0 for s in spaces)
    covered = {s["space"]: s["hit"] for s in spaces if s["hit"] != s["space"]}
    assert covered == {}, f"spaces whose centre another element covers: {covered}"
    snapshot(page, "campaign-setup")


def test_the_unit_set_up_in_a_space_is_drawn_inside_it_on_the_screen(page, picture):
    """Each unit drawn in a space lies in its space's column, under it."""
    open_at_full_size(page, picture)
    misplaced = page.evaluate("""() => [...document.querySelectorAll('g.space g.unit')].filter(u => {
        const space = u.closest('g.space').querySelector('rect').getBoundingClientRect();
        const box = u.getBoundingClientRect();
        return box.left < space.left - 1 || box.right > space.right + 1 || box.top < space.bottom - 1;
    }).map(u => u.dataset.unit)""")
    units = page.locator("g.space g.unit").count()
    assert units > 50
    assert misplaced == []
