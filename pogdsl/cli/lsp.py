"""`pogdsl lsp`: the language server, for editors (docs/editors.rst)."""

from __future__ import annotations

import sys

from .common import EXIT_USAGE


def cmd_lsp(args) -> int:
    try:
        from ..lsp.server import main
    except ImportError as err:  # (pygls comes with pogdsl; a trimmed install may lack it)
        print(f"pogdsl lsp: error: the language server needs pygls ({err}): pip install pygls", file=sys.stderr)
        return EXIT_USAGE
    # The protocol's bytes go straight to the process's own streams (main()
    # wraps sys.stdout to escape control characters, which would garble them).
    return main(sys.__stdin__.buffer, sys.__stdout__.buffer)


def register(sub) -> None:
    p = sub.add_parser("lsp", help="the language server for editors (over stdin and stdout)",
                       description="Run the Language Server Protocol server for .pog sources, speaking on "
                                   "stdin and stdout: an editor starts it (docs/editors.rst sets up VS Code and "
                                   "Neovim). It checks the project of the file being edited as you type, with "
                                   "the same diagnostics as `pogdsl check`, and answers hover, go to "
                                   "definition, find references, completion, document symbols and rename.",
                       epilog="Not meant to be run by hand: it waits for an editor's messages.")
    p.set_defaults(func=cmd_lsp)
