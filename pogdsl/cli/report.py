"""`pogdsl report FILE`: summarise saved per-game records again, without playing."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from .common import EXIT_ERRORS, EXIT_OK, EXIT_USAGE, add_root_option


def _err(text: str) -> None:
    print(f"pogdsl report: error: {text}", file=sys.stderr)


class _Unread(Exception):
    """A records file that cannot be summarised: the exit code, the message."""

    def __init__(self, code: int, message: str, text: str | None = None):
        super().__init__(message)
        self.code, self.message, self.text = code, message, text


def summarise(path: Path, root, with_plots: bool):
    """The summary of one records file, read a record at a time (sim.Tally,
    plots.PlotData), so a file of gigabytes takes the memory of one line: the
    summary, the figures' data (None unless WITH_PLOTS), the opened scenario."""
    import itertools

    from ..opening import ScenarioError, open_scenario
    from ..sim import TIMING_FIELDS, Tally
    from ..sim.records import RecordError, card_labels, iter_records, plot_fields, to_result

    if not os.path.isfile(path):  # (os.path's: no OSError for a name too long)
        raise _Unread(EXIT_USAGE, f"{path} is {'a directory' if os.path.isdir(path) else 'not a file'}: give a "
                                  "records file written by `pogdsl simulate --out`")
    records = iter_records(path)
    if with_plots:
        from ..sim.plots import PlotData

        kept = PlotData()  # what the figures read, added up: bounded too
    else:
        kept = None
    try:
        first = next(records)
        try:
            opened = open_scenario(first["scenario"], root, options=first["options"])
        except ScenarioError as err:
            raise _Unread(EXIT_ERRORS, f"{path}: its scenario: {err.message}", err.text) from None
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
        raise _Unread(EXIT_ERRORS, f"{path}: {err}") from None
    except OSError as err:
        raise _Unread(EXIT_USAGE, f"cannot read {path}: {err.strerror or err}") from None
    summary = tally.summary(first["scenario"], seeds.pop() if len(seeds) == 1 else None, 0.0)
    for k in TIMING_FIELDS[:2]:  # records keep no timings (nor the look-ahead players' speed)
        summary[k] = None
    summary["interrupted"] = False  # (the same keys as simulate's; nothing is played here)
    return summary, kept, opened


def cmd_report(args) -> int:
    from .simulate import plot_folder_problem, print_plots, print_summary

    paths = [Path(f) for f in args.file]
    if len(paths) > 2:
        _err("give one records file to summarise, or two to compare (a base and a variant)")
        return EXIT_USAGE
    if args.plot is not None:
        problem = plot_folder_problem(args.plot)
        if problem:
            _err(problem)
            return EXIT_USAGE
    summaries, kept, opened = [], [], None
    for path in paths:
        try:
            summary, data, opened_here = summarise(path, args.root, args.plot is not None)
        except _Unread as err:
            if err.text:
                print(err.text, file=sys.stderr)
            _err(err.message)
            return err.code
        summaries.append(summary)
        kept.append(data)
        opened = opened or opened_here
    labels = [s["scenario"] if len(set(p.name for p in paths)) < len(paths) else p.name
              for s, p in zip(summaries, paths)]
    written = []
    if args.plot is not None:
        from ..sim.plots import plot_comparison, plot_records

        try:
            written = (plot_records(kept[0], args.plot, label=summaries[0]["scenario"]) if len(paths) == 1 else
                       plot_comparison(kept[0], kept[1], args.plot, labels=tuple(labels)))
        except OSError as err:
            _err(f"cannot write the figures into {args.plot}: {err.strerror or err}")
            return EXIT_ERRORS
    if len(paths) == 1:
        summary = summaries[0]
        if args.plot is not None:
            summary["plots"] = [str(p) for p in written]
        if args.json:
            print(json.dumps(summary))
        else:
            print_summary(summary, args)
            if args.plot is not None:
                print_plots(kept, written)
        return EXIT_OK
    return _compare(args, opened, summaries, labels, kept, written)


def _compare(args, opened, summaries, labels, kept, written) -> int:
    """Two saved runs compared as `simulate --against` compares the runs it plays."""
    from ..sim.compare import compare
    from .simulate import print_differences, print_plots, print_summary

    world = opened.world  # (the base's scenario names the sides)
    titles = {s.key: str(getattr(s.data.title, "text", s.data.title) or s.key) for s in world.sides}
    differences = compare(summaries[0], summaries[1], titles)
    if args.json:
        out = {"base": summaries[0], "variant": summaries[1], "differences": differences}
        if args.plot is not None:
            out["plots"] = [str(p) for p in written]
        print(json.dumps(out))
        return EXIT_OK
    for s in summaries:
        print_summary(s, args)
        print()
    print_differences(labels[0], labels[1], summaries, differences)
    if args.plot is not None:
        print_plots(kept, written)
    return EXIT_OK


def register(sub) -> None:
    p = sub.add_parser(
        "report", help="summarise the per-game records of `pogdsl simulate --out` again, without playing",
        description="Read FILE (JSON lines, or CSV if it ends in .csv), as written by `pogdsl simulate --out "
                    "FILE`, and print the same summary as simulate (win rates with their 95% intervals, endings, "
                    "final VP, game length, card events; --json the same JSON), without playing any game; "
                    "with --plot DIR, its figures too. The file is read a record at a time, so a file of any size "
                    "takes the memory of one line (at most 1 MiB a line). "
                    "The scenario named in the records is compiled (not played) for its sides and cards. "
                    "Given two files, a base run and a variant run (on the same seeds, as `simulate --seed S "
                    "--out` writes them), it prints both summaries and the differences, variant minus base, with "
                    "their 95% intervals and whether each is significant, as `simulate --against` does.",
        epilog="Exit status: 0 done, 1 the file is not a records file (the first bad line is named), "
               "2 wrong usage.")
    p.add_argument("file", metavar="FILE", nargs="+",
                   help="a records file written by `pogdsl simulate --out`; two (a base, then a variant) are "
                        "compared as `simulate --against` compares the runs it plays")
    p.add_argument("--json", action="store_true", help="print the summary as one JSON object, as simulate --json")
    p.add_argument("--plot", type=Path, default=None, metavar="DIR",
                   help="also write the records' figures to folder DIR (created if needed), each as PNG and SVG, "
                        "as `pogdsl simulate --plot` does: who won by the turn the game ended, the final VP, "
                        "VP over turns, and VP over turns by who won")
    add_root_option(p)
    p.set_defaults(func=cmd_report)
