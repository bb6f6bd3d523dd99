"""What every command shares: exit codes and printing diagnostics."""

from __future__ import annotations

import sys
from pathlib import Path

EXIT_OK, EXIT_ERRORS, EXIT_USAGE = 0, 1, 2


def print_diagnostics(comp, as_json: bool, stream=None) -> tuple[int, int]:
    from ..diagnostics import render

    stream = stream or sys.stderr
    items = comp.reporter.sorted()
    errors = sum(d.is_error for d in items)
    warnings = len(items) - errors
    if as_json:
        return errors, warnings
    for d in items:
        print(render(d, comp.sources), file=stream)
    return errors, warnings




def add_root_option(p) -> None:
    p.add_argument("--root", type=Path, default=None,
                   help="the project folder holding rules/, cards/ and scenarios/ (default: found "
                        "from the current folder, or $POGDSL_HOME)")
