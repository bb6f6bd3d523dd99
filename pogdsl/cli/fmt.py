"""`pogdsl fmt`: lay `.pog` sources out in the one canonical layout
(pogdsl/syntax/format.py)."""

from __future__ import annotations

import difflib
import sys
from pathlib import Path

from .common import EXIT_ERRORS, EXIT_OK, EXIT_USAGE, add_root_option


def _sources(args) -> tuple[list[Path], list[Path]]:
    """The files to format, and the PATHs that do not exist.  No PATH: the
    project's own rules/, cards/ and scenarios/ (never the installed library
    a project extends)."""
    from ..project import LIBRARY_DIRS, expand, find_root

    if args.paths:
        return expand([Path(p) for p in args.paths])
    root = (args.root or find_root()).resolve()
    return expand([root / sub for sub in LIBRARY_DIRS if (root / sub).is_dir()])


def _read(path: Path, shown: str, diagnostics) -> str | None:
    from ..diagnostics import Reporter
    from ..semantics.loader import read_source

    reporter = Reporter()
    text = read_source(path, shown, reporter)
    diagnostics.extend(reporter.items)
    return text


def cmd_fmt(args) -> int:
    from ..diagnostics import Sources, render
    from ..project import display_path
    from ..safe_io import write_file
    from ..syntax.format import FormatError, format_text

    files, missing = _sources(args)
    if missing:
        print(f"pogdsl fmt: error: no such file or folder: {', '.join(str(m) for m in missing)}", file=sys.stderr)
        return EXIT_USAGE
    if not files:
        where = ", ".join(args.paths) if args.paths else "the rules/, cards/ and scenarios/ of the project"
        print(f"pogdsl fmt: error: no .pog file found in {where}", file=sys.stderr)
        return EXIT_USAGE
    cwd = Path.cwd().resolve()
    failed, changed = 0, []
    for path in files:
        shown = display_path(path, cwd)
        diagnostics: list = []
        sources = Sources()
        text = _read(path, shown, diagnostics)
        formatted = None
        if text is not None:
            sources.add(shown, text)
            try:
                formatted = format_text(text, shown)
            except FormatError as err:
                diagnostics.extend(err.diagnostics)
        if formatted is None:
            failed += 1
            for d in diagnostics:
                print(render(d, sources), file=sys.stderr)
            continue
        if formatted == text and _same_bytes(path, text):
            continue
        changed.append(shown)
        if args.diff:
            sys.stdout.writelines(difflib.unified_diff(text.splitlines(True), formatted.splitlines(True),
                                                       f"{shown} (as written)", f"{shown} (formatted)"))
        if args.check or args.diff:
            continue
        try:
            write_file(path, formatted)
        except OSError as err:
            failed += 1
            print(f"pogdsl fmt: error: cannot write {shown}: {err.strerror or err}", file=sys.stderr)
    return _summary(args, files, changed, failed)


def _same_bytes(path: Path, text: str) -> bool:
    """Whether the file holds TEXT exactly as formatted (no BOM, no CR)."""
    try:
        return path.read_bytes() == text.encode("utf-8")
    except OSError:
        return True


def _summary(args, files, changed, failed) -> int:
    if args.check:
        for shown in changed:
            print(f"would reformat {shown}")
    verb = "would reformat" if args.check or args.diff else "reformatted"
    if not args.quiet:
        print(f"{len(files)} file{'s' * (len(files) != 1)}: {verb} {len(changed)}, {failed} not formatted "
              "(errors above)" if failed else
              f"{len(files)} file{'s' * (len(files) != 1)}: {verb} {len(changed)}", file=sys.stderr)
    if failed or (args.check and changed):
        return EXIT_ERRORS
    return EXIT_OK


def register(sub) -> None:
    p = sub.add_parser(
        "fmt", help="lay .pog sources out in the one canonical layout",
        description="Rewrite .pog sources in pogdsl's one canonical layout, printed from the syntax tree: the "
                    "spaces and line breaks as written do not matter, comments stay where they were, texts and "
                    "names are kept as written, and the program compiled from a file is the same before and "
                    "after (fmt checks it, and leaves a file alone otherwise). Formatting twice changes nothing. "
                    "With no PATH, formats the project's own rules/, cards/ and scenarios/ (--root, "
                    "$POGDSL_HOME, or found from the current folder; never the installed library). A file that "
                    "does not parse is reported as `pogdsl check` reports it and left untouched; a file is "
                    "replaced whole or not at all. The layout rules: docs/writing-a-card.rst, \"Formatting\".",
        epilog="Exit status: 0 done (or, with --check, nothing to change), 1 a file does not parse or cannot "
               "be written (or, with --check, would change), 2 wrong usage (a PATH that does not exist, no "
               ".pog file found).")
    p.add_argument("paths", nargs="*", metavar="PATH", help="files or folders to format (folders: every .pog "
                                                            "file under them)")
    p.add_argument("--check", action="store_true",
                   help="write nothing; list the files that would change and exit 1 if there is any")
    p.add_argument("--diff", action="store_true",
                   help="write nothing; print what would change as a unified diff on stdout")
    p.add_argument("-q", "--quiet", action="store_true", help="no summary line")
    add_root_option(p)
    p.set_defaults(func=cmd_fmt)
