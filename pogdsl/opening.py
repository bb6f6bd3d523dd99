"""Opening a scenario: compile it (pogdsl/compiler.py) and build its world,
once per process and set of options, for the games, saves and scripts that
play it.  The runtime's records (pogdsl/runtime/record.py) use this module;
it uses nothing of theirs.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from attrs import define, field

from .runtime.errors import GameError
from .runtime.interpreter import Game


class ScenarioError(Exception):
    """The scenario cannot be compiled or played; `text` holds the diagnostics."""

    def __init__(self, message: str, text: str = ""):
        super().__init__(message)
        self.message = message
        self.text = text



def source_fingerprints(comp) -> dict[str, str]:
    """Every source file the scenario was compiled from: its name (relative
    to the project root, or to the library an install ships in
    pogdsl/library/ — so `rules/…`, `cards/…`, `scenarios/…` either way —,
    else its bare name) → a digest of its content.  Nothing here depends on
    the current folder or where the project is installed."""
    cwd = Path.cwd()
    package = Path(__file__).resolve().parent
    bases = [Path(comp.root).resolve(), package / "library", package]
    out = {}
    for shown in comp.loaded.files:
        path = Path(shown)
        full = (path if path.is_absolute() else cwd / path).resolve()
        name = full.name
        for base in bases:
            try:
                name = full.relative_to(base).as_posix()
                break
            except ValueError:
                continue
        try:
            data = full.read_bytes()
        except OSError:
            data = b""
        out[name] = hashlib.sha256(data).hexdigest()[:16]
    return dict(sorted(out.items()))


def fingerprint_digest(fingerprints: dict[str, str]) -> str:
    """The rules' fingerprint: one digest of the contents of every file.
    Their names are left out: the same rules read from a checkout, an
    install or a folder of one's own have the same fingerprint (the names
    serve to say which files changed)."""
    text = "\n".join(sorted(fingerprints.values()))
    return hashlib.sha256(text.encode()).hexdigest()


def sources_digest(comp) -> str:
    """The rules' fingerprint of a compilation (see source_fingerprints)."""
    return fingerprint_digest(source_fingerprints(comp))


@define
class Opened:
    """A compiled, playable scenario: built once, shared by every game of it."""

    spec: str
    key: str
    world: object
    digest: str
    root: Path | None = None
    sources: dict = field(factory=dict)  # file name → digest of its content (source_fingerprints)

    def new_game(self, seed: int, **options) -> Game:
        return Game.new(self.world, seed, **options)

    @property
    def options(self) -> dict[str, object]:
        """The scenario's own options and the values its games play with."""
        own = [o.name.text for o in self.world.scenario.options]
        return {name: self.world.options[name] for name in own}

    def options_text(self) -> dict[str, str]:
        """The same, written as a user sets them (`on`, `3`, `ap`, `none`)."""
        from .syntax.ast import option_text

        return {name: option_text(v) for name, v in self.options.items()}


_OPENED: dict[tuple, Opened] = {}


def open_scenario(spec: str, root: Path | None = None, cache: bool = True,
                  options: dict[str, str] | None = None, by_name: bool = False) -> Opened:
    """Compile SCENARIO (a name, or a .pog file declaring one) and build its
    world, with `options` (NAME → value as a user types it) set and the
    others at their defaults.  Raises UsageError for an unknown scenario,
    OptionError (a UsageError) for an option it does not declare or a value
    that option does not take, ScenarioError when the sources have errors or
    cannot be played.  `by_name`: SCENARIO is a name only (a save's), never
    looked for as a file."""
    from .compiler import scenario_graph, scenario_name
    from .diagnostics import render
    from .runtime.world import WorldError, build_world, option_values

    spec = scenario_name(spec, by_name)  # `suicide-of-europe` is `suicide_of_europe`
    given = tuple(sorted((str(k), str(v)) for k, v in (options or {}).items()))
    key = (spec, str(Path(root).resolve()) if root is not None else None, given, by_name)
    if cache and key in _OPENED:
        return _OPENED[key]
    comp, graph = scenario_graph(spec, root=root, by_name=by_name)
    if graph is None:
        errors = [d for d in comp.reporter.sorted() if d.is_error]
        text = "\n".join(render(d, comp.sources) for d in errors)
        raise ScenarioError(f"scenario '{spec}' has {len(errors)} error{'s' * (len(errors) != 1)} in its "
                            "sources", text)
    scenario_key = next(iter(k for k, (p, _) in comp.scenarios.items() if p.scenario is not None))
    program = comp.scenarios[scenario_key][0]
    values = option_values(program, dict(given))
    from .compiler import program_with_options

    played = program_with_options(comp, comp.scenario_decl(scenario_key), values)
    if played is not program:  # a `when option` block changes what this game plays
        from .graph.build import build_graph

        program, graph = played, build_graph(played)
    try:
        world = build_world(program, graph, values)
    except (WorldError, GameError) as err:
        raise ScenarioError(f"scenario '{spec}' cannot be played: {err}") from None
    sources = source_fingerprints(comp)
    opened = Opened(spec, program.scenario.key, world, fingerprint_digest(sources), root, sources)
    if cache:
        _OPENED[key] = opened
    return opened
