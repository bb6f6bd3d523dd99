"""`pogdsl serve`: play a scenario in the browser (pogdsl/web/)."""

from __future__ import annotations

import sys

from .common import EXIT_ERRORS, EXIT_OK, EXIT_USAGE, add_option_argument, add_root_option, options_from, whole_number

LOOPBACK = ("127.0.0.1", "localhost", "::1")


def _err(command: str, text: str) -> None:
    print(f"pogdsl {command}: error: {text}", file=sys.stderr)


def listed_scenarios(root) -> dict[str, str]:
    """The scenarios a page may start (key → the name to open): every one the
    project declares.  A page names one of these; it never names a file."""
    from ..compiler import compile_paths

    comp = compile_paths(None, root=root, check_scenarios=False)
    return {key: key for key in comp.base.decls.get("scenario", {})}


def players_from(args, sides: list[str]) -> dict[str, str] | str:
    """Side → player from --ap, --cp and --agent SIDE=PLAYER; a message when
    one is wrong.  By default the first side is a person and the others the
    heuristic player."""
    from ..agents import make_agent

    specs = {side: ("human" if i == 0 else "greedy") for i, side in enumerate(sides)}
    given = [("ap", args.ap), ("cp", args.cp)] + [tuple(x.partition("=")[::2]) for x in args.agent or []]
    for side, spec in given:
        if spec is None:
            continue
        side, spec = side.strip(), spec.strip()
        if side not in specs:
            return f"this scenario has no side '{side}' (sides: {', '.join(sides)})"
        if not spec:
            return f"--agent takes SIDE=PLAYER, not '{side}='"
        specs[side] = spec
    for side, spec in specs.items():
        if spec.lower() == "human":
            specs[side] = "human"
            continue
        if spec.lower().startswith(("script:", "human:")):
            return f"{side}: a page is played by people or computer players, not by '{spec}'"
        try:
            make_agent(spec, side, 0)
        except ValueError as err:
            return str(err)
    if "human" not in specs.values():
        return "no side is played by a person: give --ap human or --cp human (to watch a game, record it and " \
               "`pogdsl view` it)"
    return specs


def open_table(args, command: str):
    """The Table for --load or SCENARIO; (None, exit status) after an error said."""
    from ..opening import ScenarioError, open_scenario
    from ..runtime.errors import BadSave, GameError
    from ..runtime.record import Session, load_any
    from ..web.table import Table

    chosen = options_from(args)
    try:
        if args.load:
            session = load_any(args.load, args.root, chosen=chosen, scenario=args.scenario)
            if args.seed is not None and args.seed != session.game.s["seed"]:
                _err(command, f"{args.load} was played with seed {session.game.s['seed']}; --seed cannot change it")
                return None, EXIT_USAGE
        else:
            if not args.scenario:
                _err(command, "which scenario? give SCENARIO or --load FILE")
                return None, EXIT_USAGE
            opened = open_scenario(args.scenario, args.root, options=chosen)
            session = Session.new(opened, args.seed if args.seed is not None else 0)
    except ScenarioError as err:
        if err.text:
            print(err.text, file=sys.stderr)
        _err(command, err.message)
        return None, EXIT_ERRORS
    except BadSave as err:
        _err(command, str(err))
        return None, EXIT_ERRORS
    except GameError as err:
        _err(command, f"the game stopped: {err}")
        return None, EXIT_ERRORS
    players = players_from(args, [s.key for s in session.world.sides])
    if isinstance(players, str):
        _err(command, players)
        return None, EXIT_USAGE
    scenarios = listed_scenarios(args.root)
    scenarios.setdefault(session.opened.key, session.opened.spec)  # a scenario of the user's own file too
    return Table(session, players, scenarios=scenarios, root=args.root), EXIT_OK


def port_problem(host: str, port: int) -> str | None:
    """Why the server could not listen on HOST:PORT (one line), or None:
    checked before the page's address is printed."""
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as err:
        return f"cannot listen on {host}: {getattr(err, 'strerror', None) or err}"
    family, _, _, _, address = infos[0]
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as err:
            hint = " (is another server on it? try --port)" if err.errno == 98 else ""
            return f"cannot listen on {host}:{port}: {err.strerror or err}{hint}"
    return None


def run_server(app, host: str, port: int, url: str, open_browser: bool, command: str) -> int:
    import uvicorn

    problem = port_problem(host, port)
    if problem:
        _err(command, problem)
        return EXIT_ERRORS
    print(f"pogdsl {command}: {url}", file=sys.stderr)
    print("(Ctrl-C stops the server)", file=sys.stderr)
    if open_browser:
        import threading
        import webbrowser

        threading.Timer(0.8, lambda: webbrowser.open(url)).start()
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", access_log=False)
    server = uvicorn.Server(config)
    try:
        server.run()
    except OSError as err:
        _err(command, f"cannot listen on {host}:{port}: {err.strerror or err}")
        return EXIT_ERRORS
    except SystemExit:  # uvicorn's way of saying it could not start (it has logged why)
        _err(command, f"the server could not start on {host}:{port}")
        return EXIT_ERRORS
    if not server.started:
        _err(command, f"cannot listen on {host}:{port} (is the port taken? try --port)")
        return EXIT_ERRORS
    return EXIT_OK


def address(host: str, port: int, token: str | None) -> str:
    if host in ("0.0.0.0", "::", ""):  # every interface: this machine's name is what others may open
        import socket

        host = socket.gethostname()
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/" + (f"?token={token}" if token else "")


def serve_app(args, table, command: str) -> int:
    import secrets

    from ..web.app import make_app

    loopback = args.host in LOOPBACK
    token = None if loopback else secrets.token_urlsafe(18)
    app = make_app(table, token=token, loopback=loopback)
    return run_server(app, args.host, args.port, address(args.host, args.port, token), args.open, command)


def server_problem(args, command: str) -> int | None:
    """The exit status after saying why the server cannot start, or None."""
    from importlib.util import find_spec

    missing = [name for name in ("starlette", "uvicorn") if find_spec(name) is None]
    if missing:
        _err(command, f"the web board needs Starlette and uvicorn ({', '.join(missing)} not installed): "
                      "pip install starlette uvicorn")
        return EXIT_ERRORS
    if not 0 < args.port < 65536:
        _err(command, "--port must be from 1 to 65535")
        return EXIT_USAGE
    return None


def cmd_serve(args) -> int:
    problem = server_problem(args, "serve")
    if problem is not None:
        return problem
    table, code = open_table(args, "serve")
    if table is None:
        return code
    w = table.session.world
    who = ", ".join(f"{side}: {spec}" for side, spec in table.specs.items())
    print(f"{w.scenario.key}, seed {table.session.game.s['seed']} ({who})", file=sys.stderr)
    return serve_app(args, table, "serve")


def cmd_view(args) -> int:
    from ..runtime.errors import BadSave, GameError
    from ..web.replay import Replay, read_record_line, replay_record

    problem = server_problem(args, "view")
    if problem is not None:
        return problem
    record = str(args.file).lower().endswith(".jsonl")
    if args.game is not None and not record:
        _err("view", "--game N picks a game of a `simulate --out` file (.jsonl); a save or a script holds one game")
        return EXIT_USAGE
    try:
        if record:
            data = read_record_line(args.file, args.game)
            print(f"playing game {data['game']} of {args.file} again from its seed…", file=sys.stderr)
            session = replay_record(data, args.file, args.root)
            label = f"{args.file} game {data['game']}"
        else:
            from ..runtime.record import load_any

            session = load_any(args.file, args.root)
            label = str(args.file)
        replay = Replay(session, label)
    except BadSave as err:
        _err("view", str(err))
        return EXIT_ERRORS
    except GameError as err:
        _err("view", f"the game stopped: {err}")
        return EXIT_ERRORS
    print(f"{label}: {session.opened.key}, {replay.steps} decisions", file=sys.stderr)
    return serve_app(args, replay, "view")


def add_server_options(p) -> None:
    p.add_argument("--port", type=int, default=8000, help="the port to listen on (default 8000)")
    p.add_argument("--host", default="127.0.0.1",
                   help="the address to listen on (default 127.0.0.1, this machine only); any other address "
                        "(another machine may then connect) makes the server require a random token, printed "
                        "at start in the address to open")
    p.add_argument("--open", action="store_true", help="open the page in the default browser")


def register(sub) -> None:
    p = sub.add_parser(
        "serve", help="play a scenario in the browser: the board, the options, the log, undo and save",
        description="Serve SCENARIO (a scenario name, or a .pog file declaring one) as a web page on this "
                    "machine: the board drawn from the scenario's own display declarations, the pending "
                    "decision's options as a list and on the map (forbidden ones greyed, with the rule that "
                    "forbids them), the log with each line's rules, undo, save and new game. Each side is played "
                    "by `human` (a person at the page; two humans play hot-seat, the page hiding one hand from "
                    "the other) or a computer player (random, greedy, mcts:N, ismcts:N, as for `pogdsl play`), "
                    "which answers on the server between the person's decisions. By default the first side is "
                    "human and the others greedy. The page needs no network but this server's; docs/web.rst "
                    "describes its JSON API.",
        epilog="Exit status: 0 the server was stopped, 1 the sources or the save have errors (or the port is "
               "taken), 2 wrong usage.")
    p.add_argument("scenario", metavar="SCENARIO", nargs="?",
                   help="scenario name or .pog file (optional with --load)")
    p.add_argument("--seed", type=whole_number, default=None, help="the game's seed: dice, shuffles (default 0)")
    p.add_argument("--ap", metavar="PLAYER", help="who plays side ap: human | random | greedy | mcts:N | ismcts:N")
    p.add_argument("--cp", metavar="PLAYER", help="who plays side cp (same choices as --ap)")
    p.add_argument("--agent", metavar="SIDE=PLAYER", action="append",
                   help="who plays any side, e.g. --agent ap=human (repeatable)")
    p.add_argument("--load", metavar="FILE", help="continue a saved game (or the game a script leads to), "
                                                  "replayed and checked first")
    add_server_options(p)
    add_option_argument(p)
    add_root_option(p)
    p.set_defaults(func=cmd_serve)

    v = sub.add_parser(
        "view", help="step through a recorded game in the browser: the board, the log and the dice at each decision",
        description="Serve a page that steps forward and back through FILE's decisions: a saved game (.json), a "
                    "script, or a `pogdsl simulate --out` record (.jsonl; --game N picks its game N, which is "
                    "played again from its seed with the players it names and checked against its recorded end). "
                    "Each step shows the board, the decision with the option taken, the log with the lines that "
                    "step added and its dice. The seat menu draws the board for one side's eyes (its hand "
                    "shown) or for none.",
        epilog="Exit status: 0 the server was stopped, 1 the file cannot be read or does not replay (or the port "
               "is taken), 2 wrong usage.")
    v.add_argument("file", metavar="FILE", help="a save (.json), a script, or a `simulate --out` record (.jsonl)")
    v.add_argument("--game", type=whole_number, default=None, metavar="N",
                   help="with a .jsonl record: the game to view (its \"game\" number; needed when it holds several)")
    add_server_options(v)
    add_root_option(v)
    v.set_defaults(func=cmd_view)
