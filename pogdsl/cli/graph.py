"""`pogdsl graph`: export a scenario's rule graph."""

from __future__ import annotations

import sys

from .common import EXIT_ERRORS, EXIT_OK, add_root_option, print_diagnostics

def cmd_graph(args) -> int:
    from ..compiler import scenario_graph
    from ..graph.export import to_dot, to_json

    comp, graph = scenario_graph(args.scenario, root=args.root)
    if graph is None:
        print_diagnostics(comp, False)
        return EXIT_ERRORS
    text = to_json(graph) if args.format == "json" else to_dot(graph, args.kinds)
    if args.output:
        from ..safe_io import write_file

        try:
            write_file(args.output, text)
        except OSError as err:
            print(f"pogdsl graph: error: cannot write {args.output}: {err.strerror or err}", file=sys.stderr)
            return EXIT_ERRORS
    else:
        sys.stdout.write(text)
    return EXIT_OK


def register(sub) -> None:
    p = sub.add_parser("graph", help="export a scenario's rule graph (DOT or JSON)",
                       description="Compile SCENARIO (a scenario name such as `campaign`, or a .pog file "
                                   "declaring one) and print its rule graph.")
    p.add_argument("scenario", metavar="SCENARIO")
    p.add_argument("--format", choices=("dot", "json"), default="dot", help="output format (default dot)")
    p.add_argument("--kinds", nargs="+", metavar="KIND",
                   help="DOT only: show just these node kinds (e.g. phase procedure rule)")
    p.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of stdout")
    add_root_option(p)
    p.set_defaults(func=cmd_graph)
