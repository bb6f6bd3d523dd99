"""Sphinx configuration of the pogdsl documentation.

Build it with::

    sphinx-build -W -b html docs docs/_build/html

Pages that list the vocabulary, the diagnostic codes, the command line and the
rule graph's edge kinds are generated from the code by the local extension
``docs/_ext/pogvocab.py``, the card catalogue by ``docs/_ext/pogcards.py``, the
board's figures by ``docs/_ext/pogboard.py``; the ``pog`` code blocks are coloured by
``pogdsl.highlight.PogLexer``.
"""

from __future__ import annotations

import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS / "_ext"))
sys.path.insert(0, str(DOCS.parent))  # the checkout's pogdsl, installed or not

from pogdsl import __version__

project = "pogdsl"
author = "the pogdsl authors"
copyright = "the pogdsl authors"
version = release = __version__

extensions = ["pogvocab", "pogcards", "ruleindex", "pogdiff", "pogboard", "pogenv"]

exclude_patterns = ["_build", "_generated", "examples", "Thumbs.db", ".DS_Store"]
highlight_language = "pog"
pygments_style = "friendly"
pygments_dark_style = "monokai"

html_theme = "furo"
html_title = f"pogdsl {__version__}"
html_static_path: list[str] = []

nitpicky = False


def setup(app):
    from pogdsl.highlight import PogLexer

    app.add_lexer("pog", PogLexer)
