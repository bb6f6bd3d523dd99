"""Opening a scenario for an environment, as the command line names it."""

from __future__ import annotations

import os
from pathlib import Path


class EnvError(ValueError):
    """A scenario, an argument or an action the environment refuses: its
    message says what and why, in one line (the diagnostics of sources
    that do not compile follow it)."""


def open_for_env(scenario: str, *, root=None, options: dict | None = None):
    """The opened scenario SCENARIO, named as `pogdsl play` and `simulate`
    take it: a name (`campaign`, `suicide-of-europe`, `campaign+RULESET`) or
    the path of a .pog file declaring one.  A file's project is found from
    the file's own folder (the nearest one up holding rules/ and scenarios/,
    as `docs/examples/toy/scenarios/toy.pog` has), unless ROOT says
    otherwise; OPTIONS are the scenario's options, NAME → value as a user
    types them (`on`, `3`, a name)."""
    from ..diagnostics import render
    from ..errors import SourceErrors, UsageError
    from ..opening import ScenarioError, open_scenario
    from ..project import find_root

    spec = str(scenario)
    if root is None and spec.endswith(".pog") and os.path.exists(spec):
        root = find_root(Path(spec).resolve().parent)
    chosen = {str(k): _option_text(v) for k, v in (options or {}).items()}
    try:
        return open_scenario(spec, Path(root) if root is not None else None, options=chosen)
    except ScenarioError as err:
        raise EnvError(err.message + (f"\n{err.text}" if err.text else "")) from None
    except UsageError as err:
        raise EnvError(str(err)) from None
    except SourceErrors as err:
        errors = [d for d in err.comp.reporter.sorted() if d.is_error]
        text = "\n".join(render(d, err.comp.sources) for d in errors)
        raise EnvError(f"scenario '{spec}' has {len(errors)} error{'s' * (len(errors) != 1)} in its sources\n"
                       + text) from None


def _option_text(value) -> str:
    if value is True:
        return "on"
    if value is False:
        return "off"
    return str(value)
