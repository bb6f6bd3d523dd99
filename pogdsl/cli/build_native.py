"""`pogdsl build-native`: compile the runtime's hottest modules with Cython,
an opt-in step after installing (pogdsl/runtime/native.py)."""

from __future__ import annotations

import sys

from .common import EXIT_ERRORS, EXIT_OK, EXIT_USAGE


def _say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def cmd_build_native(args) -> int:
    from ..runtime import native

    try:
        native.build(force=args.force, jobs=args.jobs, say=_say)
    except native.BuildError as err:
        print(f"pogdsl build-native: error: {err}", file=sys.stderr)
        return EXIT_USAGE if isinstance(err, native.CannotBuild) else EXIT_ERRORS
    if native.pure():
        _say("note: POGDSL_PURE is set, so every module runs from its source all the same")
    return EXIT_OK


def _jobs(text: str) -> int:
    import argparse

    if not text.isdigit() or not 1 <= int(text) <= 64:
        raise argparse.ArgumentTypeError(f"expected a number of compilers from 1 to 64, not {text!r}")
    return int(text)


def register(sub) -> None:
    p = sub.add_parser(
        "build-native", help="compile the runtime's hottest modules with Cython (opt-in: games run about a tenth "
                             "faster)",
        description="Compile the runtime's hottest modules (builtins, interpreter, sampling, rng, effects, compile, "
                    "values) with Cython into extension modules beside their sources, which Python then prefers: "
                    "random games run about a tenth faster. Installing does not do it, so that an install stays "
                    "quick; run this once after it, and again after editing one of those modules (until then the "
                    "edited module runs from its source, correct and only slower). Modules already compiled from "
                    "their sources as they are now are left alone. Progress goes to stderr, a line a module. "
                    "Needs Cython and setuptools (`pip install -e '.[native]'`), a C compiler and Python's headers; "
                    "POGDSL_PURE=1 runs every module from its source whatever is compiled.",
        epilog="Exit status: 0 compiled (or nothing to do), 1 a module did not compile (the compiler's last words "
               "are shown), 2 Cython, the C compiler or Python's headers are missing, or the package folder is "
               "not writable.")
    p.add_argument("--force", action="store_true", help="compile every module again, even those already compiled "
                                                        "from their sources as they are")
    p.add_argument("--jobs", "-j", type=_jobs, default=None, metavar="N",
                   help="compile N modules at a time (default: one per core)")
    p.set_defaults(func=cmd_build_native)
