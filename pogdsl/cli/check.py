"""`pogdsl check`: parse and check sources."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

from .common import EXIT_ERRORS, EXIT_OK, EXIT_USAGE, add_root_option, print_diagnostics


def cmd_check(args) -> int:
    from . import result_cache

    key = None if args.no_cache else result_cache.key_for(args)
    if key is not None:
        cached = result_cache.lookup(key)
        if cached is not None:
            sys.stdout.write(cached["stdout"])
            sys.stderr.write(cached["stderr"])
            return cached["exit"]
    out, err = io.StringIO(), io.StringIO()
    status = _check(args, out, err)
    sys.stdout.write(out.getvalue())
    sys.stderr.write(err.getvalue())
    if key is not None:
        result_cache.store(key, out.getvalue(), err.getvalue(), status)
    return status


def _check(args, out, err) -> int:
    from ..compiler import compile_paths

    from ..project import expand, find_root, no_library_hint

    paths = [Path(p) for p in args.paths]
    found, missing = expand(paths)
    if paths and not found and not missing:  # (folders without a .pog file: nothing of the user's is checked)
        print(f"pogdsl check: error: no .pog file found in {', '.join(args.paths)}", file=err)
        print(f"hint: {no_library_hint((args.root or find_root()).resolve(), check=True)}", file=err)
        return EXIT_USAGE
    comp = compile_paths(paths or None, root=args.root, library=not args.standalone)
    if not comp.loaded.files:  # checking nothing would pass anything: a mistake in where to look
        if args.paths:
            what = "no .pog file found in " + ", ".join(args.paths)
        elif args.standalone:
            what = "nothing to check: --standalone checks only the PATHs it is given"
        else:
            what = f"no .pog file found in the rules/, cards/ or scenarios/ of {comp.root}"
        print(f"pogdsl check: error: {what}", file=err)
        print(f"hint: {no_library_hint(comp.root, check=True)}", file=err)
        return EXIT_USAGE
    errors, warnings = print_diagnostics(comp, args.json, stream=err)
    if args.json:
        print(json.dumps({
            "files": len(comp.loaded.files), "errors": errors, "warnings": warnings,
            "diagnostics": [d.to_json() for d in comp.reporter.sorted()],
        }, indent=1), file=out)
    elif not args.quiet:
        files = len(comp.loaded.files)
        summary = f"checked {files} file{'s' * (files != 1)}: {errors} error{'s' * (errors != 1)}, " \
                  f"{warnings} warning{'s' * (warnings != 1)}"
        print(summary, file=err)
    if errors or (args.strict and warnings):
        return EXIT_ERRORS
    return EXIT_OK


def register(sub) -> None:
    p = sub.add_parser("check", help="check .pog sources and report every mistake",
                       description="Parse and check .pog sources. With no PATH, checks the project's own "
                                   "rules/, cards/ and scenarios/: those of the project folder (--root, "
                                   "$POGDSL_HOME, or found from the current folder), together with the library "
                                   "installed with pogdsl, which they extend (a folder whose rules/ declare a "
                                   "rulebook of their own is a game of its own and is checked alone). A PATH "
                                   "outside them is checked together with them, so it can use their names. "
                                   "Finding no .pog file at all (or none in a PATH) is an error, exit 2. When "
                                   "neither the sources nor pogdsl changed since the last check, its result is "
                                   "replayed from the cache ($POGDSL_CACHE_DIR, default ~/.cache/pogdsl).",
                       epilog="Exit status: 0 clean, 1 errors (or warnings with --strict), 2 wrong usage "
                              "(no .pog file found, a PATH that does not exist).")
    p.add_argument("paths", nargs="*", metavar="PATH", help="files or folders to check")
    p.add_argument("--json", action="store_true", help="print the diagnostics as JSON on stdout")
    p.add_argument("--standalone", action="store_true",
                   help="check PATHs on their own, without the project's library")
    p.add_argument("--strict", action="store_true", help="treat warnings as errors (exit 1)")
    p.add_argument("-q", "--quiet", action="store_true", help="no summary line")
    p.add_argument("--no-cache", action="store_true",
                   help="check everything again; neither read nor write the result cache")
    add_root_option(p)
    p.set_defaults(func=cmd_check)
