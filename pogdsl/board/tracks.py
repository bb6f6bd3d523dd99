"""The tracks a scenario declares, read from a game: what the terminal's
`tracks` command and status line show.

The `track` lines of the `display` blocks (rules/display.pog and whatever a
variant adds or replaces) say which state a player follows and under which
label; a later block's line stands over an earlier one's, as on the board
(board/svg.py).  A track is a state variable (one value, or one per side or
nation), the turn (TRACK_BUILTINS), or a value of a procedure under way
(`track left "OPS Left" in operations`), which has a value only while that
procedure runs.  Nothing here names a game's track: a variant's National Will
is shown because the variant declares it.
"""

from __future__ import annotations

from attrs import define

from ..runtime import builtins as B
from ..runtime.values import Entity, text_of
from .roles import TRACK_BUILTINS


@define
class TrackLine:
    """One declared track: its state name, its label and whose values it shows
    (`only`; every side or nation when empty); `within` names the procedure
    whose local it is."""

    name: str
    label: str
    only: list[str]
    within: str | None = None


@define
class Reading:
    """A track's value now, as text: `values` one entry for a single value,
    `WHO VALUE` entries for a track kept per side or nation."""

    name: str
    label: str
    values: list[str]

    def text(self) -> str:
        return f"{self.label} {', '.join(self.values)}"


def declared_tracks(program) -> list[TrackLine]:
    """The program's track lines in declaration order, a later line with the
    same name standing over an earlier one (in the earlier one's place)."""
    lines: dict[str, TrackLine] = {}
    for decl in program.all("display"):
        for item in decl.items:
            if item.item == "track":
                within = item.within.text if getattr(item, "within", None) is not None else None
                lines[item.name.text] = TrackLine(item.name.text, item.text, [n.text for n in item.only], within)
    return list(lines.values())


def value_text(value) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return text_of(value).replace("_", " ") if isinstance(value, Entity) else text_of(value)


def read_track(game, line: TrackLine) -> Reading | None:
    """LINE's value in GAME, or None where it has none: a procedure's value
    while that procedure is not running, a track of a rule the scenario left
    out."""
    w, s = game.w, game.s
    if line.within is not None:
        frame = _innermost_frame(s, line.within)
        if frame is None or line.name not in frame["l"]:
            return None
        return Reading(line.name, line.label, [value_text(frame["l"][line.name])])
    if line.name in TRACK_BUILTINS:
        return Reading(line.name, line.label, [f"{s['turn']} of {w.first_turn}-{w.last_turn}"])
    decl = w.state_decls.get(line.name)
    if decl is None:
        return None
    if decl.scope is None:
        return Reading(line.name, line.label, [value_text(s["vars"][line.name])])
    every = w.by_kind.get(decl.scope.text, {})
    keys = line.only or list(every)
    return Reading(line.name, line.label,
                   [f"{k} {value_text(B.read_scoped(game, line.name, every[k]))}" for k in keys if k in every])


def readings(game) -> list[Reading]:
    """Every declared track that has a value now, in declaration order."""
    found = (read_track(game, line) for line in declared_tracks(game.w.program))
    return [r for r in found if r is not None]


def _innermost_frame(state: dict, procedure: str) -> dict | None:
    code = f"procedure:{procedure}"
    for frame in reversed(state["stack"]):
        if frame["code"] == code:
            return frame
    return None
