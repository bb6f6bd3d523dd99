"""The terminal prompt of a person playing (`pogdsl play` with stdin and
stdout a terminal): prompt_toolkit's line editor with history, completion
and a status line, and the long option lists grouped and paged.

The plain `input()` of agents/human.py stays what a pipe or a script gets:
nothing here changes what an answer means, only how it is typed and how the
options are laid out.

What is completed and grouped comes from the compiled world and the pending
decision, never from English: option texts, the commands, and the names of
spaces, boxes, units, cards and sides; a long list is grouped by the choice's
space or unit variable (the one that gathers the options best), else by its
card, and the status line shows the tracks the scenario declares
(board/tracks.py).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from attrs import define, field
from prompt_toolkit import PromptSession
from prompt_toolkit.completion import Completer, Completion
from prompt_toolkit.history import FileHistory, InMemoryHistory

from ..board.tracks import readings
from ..runtime.values import Entity, text_of

# Options a page holds when the terminal's height is not known; a list no
# longer than a page is printed as it always was, one option a line.
PAGE_LINES = 20
GROUP_KINDS = ("space", "unit")


# ================================================================ grouping
@define
class Group:
    """Options sharing one space, unit, card or nation: `label` (None for the
    options no group gathers, such as an optional "done"), their 0-based
    indices in the decision."""

    label: str | None
    members: list[int] = field(factory=list)


def option_groups(game, options: list[str]) -> list[Group]:
    """OPTIONS of the pending decision grouped by the values the choice binds:
    the space or unit variable with the fewest distinct values that still
    gathers some options; failing one, a card variable (a card's uses side by
    side); failing that, the nation of those spaces or units.  One group per
    option when nothing gathers them."""
    pending = game.s.get("pending") or {}
    values = pending.get("values") or []
    if len(values) != len(options):  # (a decision not from this state)
        return [Group(None, [i]) for i in range(len(options))]
    ways = []  # (preference, how many groups, column, each option's group)
    for column in range(len(pending.get("vars") or ())):
        cells = [row[column] for row in values]
        for preference, label in enumerate((_group_key, _card_label, _nation_of)):
            labels = [label(v) for v in cells]
            if _gathers(labels):
                ways.append((preference, len(set(labels) - {None}), column, labels))
    if not ways:
        return [Group(None, [i]) for i in range(len(options))]
    labels = min(ways, key=lambda way: way[:3])[3]
    groups: dict[str | None, Group] = {}
    for i, label in enumerate(labels):
        groups.setdefault(label, Group(label)).members.append(i)
    ungrouped = groups.pop(None, None)
    return list(groups.values()) + ([ungrouped] if ungrouped else [])


def _gathers(labels: list) -> bool:
    """Whether LABELS put some options together, yet not all in one group."""
    named = [lab for lab in labels if lab is not None]
    return 1 < len(set(named)) < len(named)


def _group_key(value) -> str | None:
    if isinstance(value, Entity) and value.kind in GROUP_KINDS:
        return value.key
    return None


def _card_label(value) -> str | None:
    if isinstance(value, Entity) and value.kind == "card":
        return f"{value.data.side.text.upper()} {value.data.number}"  # (its name is in each option)
    return None


def _nation_of(value) -> str | None:
    if isinstance(value, Entity) and value.kind in GROUP_KINDS:
        nation = getattr(value.data, "nation", None)
        return text_of(nation) if nation is not None else None
    return None


def option_lines(game, options: list[str], width: int = 100) -> list[str]:
    """The options as printed lines: each group on a line of its own (wrapped
    at WIDTH), every option with its number in the decision."""
    digits = len(str(len(options)))
    groups = option_groups(game, options)
    label_width = max((len(g.label) for g in groups if g.label is not None), default=0) + 1
    lines = []
    for group in groups:
        items = [f"{i + 1:>{digits}}. {options[i]}" for i in group.members]
        if group.label is None:
            lines.extend(f"  {item}" for item in items)
            continue
        line = f"  {group.label + ':':<{label_width}} " + items[0]
        for item in items[1:]:
            if len(line) + len(item) + 3 > width:
                lines.append(line)
                line = " " * (label_width + 3) + item
            else:
                line += " · " + item
        lines.append(line)
    return lines


def pages(lines: list[str], size: int) -> list[list[str]]:
    size = max(1, size)
    return [lines[i:i + size] for i in range(0, len(lines), size)] or [[]]


# ================================================================ status
def status_text(session, decision, width: int | None = None) -> str:
    """The status line: who decides, then each declared track with a value;
    wrapped at WIDTH between tracks (a narrow terminal gets more lines, no
    track cut in two)."""
    parts = [f"{decision.by} to choose" if decision is not None else "no decision pending"]
    parts.extend(r.text() for r in readings(session.game))
    if width is None:
        return " · ".join(parts)
    lines = [parts[0]]
    for part in parts[1:]:
        if len(lines[-1]) + 3 + len(part) <= width:
            lines[-1] += " · " + part
            continue
        lines.append("")
        for piece in _pieces(part, width):  # (a track wider than the screen: at its commas)
            if lines[-1] and len(lines[-1]) + 1 + len(piece) > width:
                lines.append("  ")
            lines[-1] += (" " if lines[-1].strip() else "") + piece
    return "\n".join(lines)


def _pieces(part: str, width: int) -> list[str]:
    if len(part) <= width:
        return [part]
    words = part.split(", ")
    return [w + ("," if k < len(words) - 1 else "") for k, w in enumerate(words)]


# ================================================================ completion
COMMAND_ARGUMENTS = {
    "space": lambda s, d: [*s.world.by_kind.get("space", {}), *s.world.by_kind.get("box", {})],
    "unit": lambda s, d: list(dict.fromkeys(u.key for u in s.world.units)),
    "card": lambda s, d: card_names(s),
    "hand": lambda s, d: [side.key for side in s.world.sides],
    "why": lambda s, d: list(d.options) if d is not None else [],
    "options": lambda s, d: ["all"],
    "tracks": lambda s, d: ["all"],
}


def card_names(session) -> list[str]:
    """Every card as `AP 6` and by its name (public: the catalogue, not a hand)."""
    names = []
    for c in session.world.cards:
        names.append(f"{c.data.side.text.upper()} {c.data.number}")
        names.append(session.card_text(c))
    return list(dict.fromkeys(names))


def match_rank(candidate: str, typed: str) -> int | None:
    """How well CANDIDATE matches TYPED, ignoring case (lower is better):
    0 it begins with it, 1 each typed word begins a word of it in order
    (`act tarn att`), 2 its letters come in order (`tarnatt`); None no match."""
    c, t = candidate.lower(), typed.lower().strip()
    if not t or c.startswith(t):
        return 0
    words, at = c.split(), 0
    for part in t.split():
        while at < len(words) and not words[at].startswith(part):
            at += 1
        if at == len(words):
            break
        at += 1
    else:
        return 1
    pos = 0
    for ch in t.replace(" ", ""):
        pos = c.find(ch, pos) + 1
        if pos == 0:
            return None
    return 2


def ranked(candidates, typed: str) -> list[str]:
    """The CANDIDATES TYPED matches, best first; letters in order count only
    when no beginning matches (they match too much to stand beside those)."""
    scored = [(r, i, c) for i, c in enumerate(dict.fromkeys(candidates))
              if (r := match_rank(c, typed)) is not None]
    if any(r < 2 for r, _, _ in scored):
        scored = [x for x in scored if x[0] < 2]
    return [c for _, _, c in sorted(scored)]


def completions_for(text: str, session, decision, commands) -> tuple[list[str], int]:
    """What may complete TEXT (a line typed so far): (candidates, how many
    characters at its end they replace).  A command's argument completes
    from the world; anything else from the options and the command words."""
    word, sep, rest = text.partition(" ")
    source = COMMAND_ARGUMENTS.get(word.lower())
    if sep and source is not None:
        return ranked(source(session, decision), rest), len(rest)
    options = list(decision.options) if decision is not None else []
    return ranked(options + list(commands), text), len(text)


# ================================================================ the prompt
def history_path() -> Path | None:
    """Where the prompt's history is kept between games: $POGDSL_HISTORY
    (empty: nowhere), else $XDG_DATA_HOME/pogdsl/history, else
    ~/.local/share/pogdsl/history."""
    given = os.environ.get("POGDSL_HISTORY")
    if given is not None:
        return Path(given) if given else None
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "pogdsl" / "history"


class QuietFileHistory(FileHistory):
    """A file history that never stops a game: a file that cannot be read
    or written leaves the lines in memory only."""

    def load_history_strings(self):
        try:
            yield from super().load_history_strings()
        except (OSError, UnicodeError):
            return

    def store_string(self, string: str) -> None:
        try:
            super().store_string(string)
        except OSError:
            pass


def _history(path: Path | None):
    if path is None:
        return InMemoryHistory()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError:
        return InMemoryHistory()
    return QuietFileHistory(str(path))


class TerminalPrompt:
    """prompt_toolkit's line editor for HumanAgent: one per terminal, shared
    by the sides played at it (a hot-seat game keeps one history)."""

    def __init__(self, *, history: Path | None = None, input=None, output=None, page_lines: int | None = None,
                 width: int | None = None):
        self.context = (None, None)
        self.fixed_page = page_lines
        self.fixed_width = width
        self.prompt = PromptSession(history=_history(history), completer=_Completer(self),
                                    complete_while_typing=False, bottom_toolbar=self.toolbar,
                                    input=input, output=output)

    @property
    def page_lines(self) -> int:
        if self.fixed_page:
            return self.fixed_page
        return max(8, shutil.get_terminal_size((100, PAGE_LINES + 6)).lines - 6)

    @property
    def width(self) -> int:
        return self.fixed_width or shutil.get_terminal_size((100, 24)).columns

    def read(self, session, decision, commands) -> str:
        self.context = (session, decision)
        self.commands = commands
        return self.prompt.prompt(f"{decision.by}> ")

    def toolbar(self) -> str:
        session, decision = self.context
        if session is None:
            return ""
        try:
            return status_text(session, decision, self.width - 1)
        except Exception as err:  # (a status line never stops a game: say what went wrong in it)
            return f"(status line: {err})"


class _Completer(Completer):
    def __init__(self, terminal: TerminalPrompt):
        self.terminal = terminal

    def get_completions(self, document, complete_event):
        session, decision = self.terminal.context
        if session is None:
            return
        found, replaced = completions_for(document.text_before_cursor, session, decision,
                                          getattr(self.terminal, "commands", ()))
        for text in found:
            yield Completion(text, start_position=-replaced)
