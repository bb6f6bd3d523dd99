"""`pogdsl report FILE`: summarise saved per-game records again, without playing."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from .common import EXIT_ERRORS, EXIT_OK, EXIT_USAGE, add_root_option


def _err(text: str) -> None:
    print(f"pogdsl report: error: {text}", file=sys.stderr)


def cmd_report(args) -> int:
    from ..opening import ScenarioError, open_scenario
    import itertools

    from ..sim import TIMING_FIELDS, Tally
    from ..sim.records import RecordError, card_labels, iter_records, plot_fields, to_result
    from .simulate import plot_folder_problem, print_plots, print_summary

    path = Path(args.file)
    if args.plot is not None:
        problem = plot_folder_problem(args.plot)
        if problem:
            _err(problem)
            return EXIT_USAGE
    if not os.path.isfile(path):  # (os.path's: no OSError for a name too long)
        _err(f"{args.file} is {'a directory' if os.path.isdir(path) else 'not a file'}: give a records file "
             "written by `pogdsl simulate --out`")
        return EXIT_USAGE
    # Read a record at a time and summarised as read (sim.Tally, plots.PlotData):
    # a file of gigabytes takes the memory of one line.
    records = iter_records(path)
    if args.plot is not None:
        from ..sim.plots import PlotData

        kept = PlotData()  # what the figures read, added up: bounded too
    else:
        kept = None
    try:
        first = next(records)
        try:
            opened = open_scenario(first["scenario"], args.root, options=first["options"])
        except ScenarioError as err:
            if err.text:
                print(err.text, file=sys.stderr)
            _err(f"{args.file}: its scenario: {err.message}")
            return EXIT_ERRORS
        keys = {label: key for key, label in card_labels(opened.world).items()}
        tally = Tally(opened)
        seeds = set()
        for i, rec in enumerate(itertools.chain([first], records)):
            tally.add(to_result(rec, keys, i))
            if len(seeds) < 2:
                seeds.add(rec.get("run_seed"))
            if kept is not None:
                kept.add(plot_fields(rec))
    except RecordError as err:
        _err(f"{args.file}: {err}")
        return EXIT_ERRORS
    except OSError as err:
        _err(f"cannot read {args.file}: {err.strerror or err}")
        return EXIT_USAGE
    summary = tally.summary(first["scenario"], seeds.pop() if len(seeds) == 1 else None, 0.0)
    for k in TIMING_FIELDS[:2]:  # records keep no timings (nor the look-ahead players' speed)
        summary[k] = None
    summary["interrupted"] = False  # (the same keys as simulate's; nothing is played here)
    written = []
    if args.plot is not None:
        from ..sim.plots import plot_records

        try:
            written = plot_records(kept, args.plot, label=first["scenario"])
        except OSError as err:
            _err(f"cannot write the figures into {args.plot}: {err.strerror or err}")
            return EXIT_ERRORS
        summary["plots"] = [str(p) for p in written]
    if args.json:
        print(json.dumps(summary))
    else:
        print_summary(summary, args)
        if args.plot is not None:
            print_plots([kept], written)
    return EXIT_OK


def register(sub) -> None:
    p = sub.add_parser(
        "report", help="summarise the per-game records of `pogdsl simulate --out` again, without playing",
        description="Read FILE (JSON lines, or CSV if it ends in .csv), as written by `pogdsl simulate --out "
                    "FILE`, and print the same summary as simulate (win rates with their 95% intervals, endings, "
                    "final VP, game length, card events; --json the same JSON), without playing any game; "
                    "with --plot DIR, its figures too. The file is read a record at a time, so a file of any size "
                    "takes the memory of one line (at most 1 MiB a line). "
                    "The scenario named in the records is compiled (not played) for its sides and cards.",
        epilog="Exit status: 0 done, 1 the file is not a records file (the first bad line is named), "
               "2 wrong usage.")
    p.add_argument("file", metavar="FILE", help="a records file written by `pogdsl simulate --out`")
    p.add_argument("--json", action="store_true", help="print the summary as one JSON object, as simulate --json")
    p.add_argument("--plot", type=Path, default=None, metavar="DIR",
                   help="also write the records' figures to folder DIR (created if needed), each as PNG and SVG, "
                        "as `pogdsl simulate --plot` does: who won by the turn the game ended, the final VP, "
                        "VP over turns, and VP over turns by who won")
    add_root_option(p)
    p.set_defaults(func=cmd_report)
