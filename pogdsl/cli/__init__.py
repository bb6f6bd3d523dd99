"""The `pogdsl` command.

Exit status, for scripts: 0 success, 1 the sources (or a game file) have
errors, 2 the command was called wrongly (unknown option, missing path,
unknown scenario).  A user's mistake never ends in a Python traceback.
"""

from __future__ import annotations

import argparse
import sys

from .. import __version__
from . import (bid, build_native, card_value, cards, check, diff, explain, fit_evaluation, fmt, graph, ladder, lsp, new,
               play, replay, report, rules, serve, show, simulate)
from .common import EXIT_ERRORS, EXIT_OK, EXIT_USAGE, print_diagnostics

# Each command is a module with `register(subparsers)`; its parser sets `func`.
COMMANDS = [check, graph, diff, rules, cards, show, play, simulate, report, ladder, card_value, bid, fit_evaluation,
            replay, explain, new, fmt, serve, lsp, build_native]


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # argparse exits 2 on usage errors; keep its wording
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


class _Version(argparse.Action):
    """--version, with whether the runtime runs compiled (worked out only
    when asked: it reads the sources)."""

    def __call__(self, parser, namespace, values, option_string=None):
        from ..runtime import native

        print(f"pogdsl {__version__}\n{native.describe()}")
        parser.exit(EXIT_OK)


# ----------------------------------------------------------------- main
def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="pogdsl",
        description="Rules language and engine for Paths of Glory and its family of card-driven wargames.",
        epilog="Exit status: 0 success, 1 errors in the sources, 2 wrong usage. "
               "Run `pogdsl COMMAND --help` for a command's options.",
    )
    parser.add_argument("--version", action=_Version, nargs=0,
                        help="show the version, and which runtime modules run compiled, and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    for module in COMMANDS:
        module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    from ..safe_io import EscapingStream

    # Text from saves, scripts, records and sources reaches the terminal:
    # its control characters are shown escaped (pogdsl/safe_io.py).
    streams = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = (s if isinstance(s, EscapingStream) else EscapingStream(s) for s in streams)
    try:
        return _main(argv)
    finally:
        sys.stdout, sys.stderr = streams


def _main(argv: list[str] | None) -> int:
    import signal
    import threading

    if hasattr(signal, "SIGXFSZ") and threading.current_thread() is threading.main_thread():  # past a file size limit a write fails (EFBIG) instead of killing us
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return EXIT_USAGE
    from ..errors import SourceErrors, UsageError

    try:
        return args.func(args)
    except UsageError as err:
        print(f"pogdsl {args.command}: error: {err}", file=sys.stderr)
        return EXIT_USAGE
    except SourceErrors as err:
        print_diagnostics(err.comp, False)
        return EXIT_ERRORS
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
