"""One game at the table: its session, who plays each side, and what one
seat may see of it.

Every answer goes through the Session the terminal uses (record.py), so an
option is refused here exactly as `pogdsl play` refuses it (with the rule
that forbids it, `Game.why_not`).  What a seat receives is built for that
seat alone: its own hand, the other hands' sizes, the board drawn for its
eyes (board/svg.py) and the pending decision's options only when the
decision is its own.  No deck order, no other hand, no generator state ever
leaves this module.

A decision carries an id (the table's revision): an answer to a decision
that is no longer pending — a second click, a tab left open while another
answered — is refused (StaleDecision) rather than applied to the next one.
"""

from __future__ import annotations

import hashlib
import json
import threading

from ..runtime.errors import BadSave, GameError, IllegalOption
from ..runtime.hidden import undo_reveals
from ..runtime.values import Entity, encode

# The largest number of forbidden options listed beside the legal ones (a
# decision over many spaces may have hundreds of candidates).
FORBIDDEN_SHOWN = 200
# How many log lines a page receives at first (it asks for the rest by number).
LOG_FIRST = 400


class TableError(Exception):
    """A request the table refuses: `status` is the HTTP status it maps to
    (400 malformed, 404 unknown, 409 stale or out of turn, 422 illegal)."""

    def __init__(self, status: int, message: str, rules: list[str] | None = None):
        super().__init__(message)
        self.status, self.message, self.rules = status, message, list(rules or [])

    def to_json(self) -> dict:
        out = {"error": self.message}
        if self.rules:
            out["rules"] = self.rules
        return out


# ---------------------------------------------------------------- rules' words
class Glossary:
    """A rule number's title (the rule index) and the own-words note of the
    first block citing it, for the hover on a log line's rule numbers."""

    def __init__(self, program):
        self.program = program
        self.notes: dict[str, str] = {}
        # The blocks that say what a rule does come first; a state or value
        # citing the rule only says what it holds.
        first = ("restriction", "modifier", "trigger", "procedure", "phase", "sequence", "table", "choice")
        kinds = [k for k in first if k in program.decls] + [k for k in program.decls if k not in first]
        for kind in kinds:
            if kind in ("card", "scenario", "rulebook", "display", "ruleset"):
                continue
            for decl in program.decls[kind].values():
                note = getattr(decl, "note", None)
                for cite in getattr(decl, "cites", None) or ():
                    if note:
                        self.notes.setdefault(cite.number, note)
        self.cache: dict[str, dict] = {}

    def rule(self, number: str) -> dict:
        found = self.cache.get(number)
        if found is None:
            entry = self.program.rule_entry(number)
            found = self.cache[number] = {"number": number, "title": entry.title if entry else None,
                                          "note": self.notes.get(number)}
        return found


_GLOSSARIES: dict[int, Glossary] = {}


def glossary(world) -> Glossary:
    found = _GLOSSARIES.get(id(world))
    if found is None or found.program is not world.program:
        found = _GLOSSARIES[id(world)] = Glossary(world.program)
    return found


# ---------------------------------------------------------------- options
_TARGETS = {"space": "spaces", "box": "boxes"}


def _named(values, out: dict[str, list[str]]) -> None:
    """The spaces, units and boxes an option's bound values name."""
    for value in values:
        if isinstance(value, (list, tuple)):
            _named(value, out)
        elif isinstance(value, Entity):
            members = getattr(value, "members", None)
            if value.kind == "unit":
                keys = [m.key for m in members] if members else [value.key]
                out["units"].extend(k for k in keys if k not in out["units"])
            elif value.kind in _TARGETS and value.key not in out[_TARGETS[value.kind]]:
                out[_TARGETS[value.kind]].append(value.key)


def option_targets(values) -> dict[str, list[str]]:
    out = {"spaces": [], "units": [], "boxes": []}
    _named(values, out)
    return out


def forbidden_options(game) -> list[tuple[str, IllegalOption, dict]]:
    """The pending decision's candidates that a restriction forbids, each
    with the refusal `why_not` gives (rules and the blocks' own notes) and
    what it names on the board."""
    p = game.s["pending"]
    spec = game._pending_spec()
    if p is None or spec is None:
        return []
    legal = {o.lower() for o in p["options"]}
    out, seen = [], set()
    for values in game._candidates(spec, game.s["stack"][-1]["l"]):
        text = spec.text(values, game)
        low = text.lower()
        if low in legal or low in seen:
            continue
        seen.add(low)
        forbidding = game._forbidden(spec.name, values)
        if not forbidding:  # left out for another reason than a restriction: not an option at all
            continue
        out.append((text, game._forbidden_error(text, text, forbidding), option_targets(values)))
        if len(out) >= FORBIDDEN_SHOWN:
            break
    return out


# ---------------------------------------------------------------- what a seat sees
def decision_json(session, seat: str | None, decision_id: str, may_answer: bool) -> dict | None:
    """The pending decision as SEAT sees it: its options (legal ones, then
    those a restriction forbids, with the refusal) only when the decision is
    SEAT's own; another side's options would name the cards in its hand."""
    g, words = session.game, glossary(session.world)
    d = session.decision
    if d is None:
        return None
    out = {"id": decision_id, "side": str(d.by), "choice": d.choice, "prompt": d.prompt,
           "rules": [words.rule(r) for r in d.rules], "yours": False, "options": None}
    if str(d.by) != seat or not may_answer:
        return out
    values = g.s["pending"]["values"]
    options = [{"index": i, "label": text, "legal": True, "reason": None, "rules": [],
                **option_targets(values[i])} for i, text in enumerate(d.options)]
    for text, refusal, targets in forbidden_options(g):
        options.append({"index": len(options), "label": text, "legal": False, "reason": refusal.message,
                        "rules": [words.rule(r) for r in refusal.rules], **targets})
    out.update(yours=True, options=options)
    return out


def log_json(world, entries: list[dict], start: int) -> list[dict]:
    """Log lines from number START, each rule with its title and note."""
    words = glossary(world)
    return [{"n": n, "turn": e["turn"], "phase": e["phase"], "text": e["text"],
             "rules": [words.rule(r) for r in e["rules"]]} for n, e in enumerate(entries[start:], start)]


def status_json(game) -> dict:
    """The turn, the phase and every track the display blocks declare."""
    from ..board.svg import track_rows

    return {"turn": game.s["turn"], "phase": game.s["phase"], "decisions": game.s["decisions"],
            "tracks": [{"track": name, "label": label, "values": values}
                       for name, label, values in track_rows(game)]}


def hand_json(world, piles: dict, seat: str | None) -> list[dict]:
    """SEAT's own hand (nobody's for None), by card number."""
    out = []
    for i in sorted(piles.get(f"hand:{seat}", ()) if seat else (), key=lambda i: world.cards[i].data.number):
        d = world.cards[i].data
        out.append({"card": f"{d.side.text.upper()} {d.number}", "number": d.number, "name": d.name.text,
                    "ops": d.ops, "sr": d.sr, "combat": bool(d.combat), "removed": bool(d.removed),
                    "event": d.event is not None, "note": d.note})
    return out


def result_json(game) -> dict | None:
    o = game.outcome
    if not game.over or o is None:
        return None
    return {"winner": o.winner, "text": o.text(), "reason": o.reason, "rules": list(o.rules), "result": o.result}


# ---------------------------------------------------------------- the board
def board_key(game, seat: str) -> str:
    """A digest of what the board drawn for SEAT shows: the pieces, control,
    forts, the state variables (markers and tracks), the piles' sizes and
    SEAT's own hand; not where the interpreter stands, so a decision that
    moves nothing on the board keeps the drawing."""
    s = game.s
    shown = {k: s[k] for k in ("turn", "loc", "reduced", "control", "fort_destroyed", "at_war")}
    shown["vars"] = encode(s["vars"])
    shown["piles"] = {name: (sorted(cards) if name == f"hand:{seat}" else len(cards))
                      for name, cards in s["piles"].items()}
    return hashlib.sha1(json.dumps(shown, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


# ---------------------------------------------------------------- the table
class Table:
    """A game and its players.  `players`: side → `human` or an agent spec
    (`greedy`, `random`, `mcts:200`…).  Thread-safe: one request at a time
    changes or reads the game."""

    def __init__(self, session, players: dict[str, str], *, scenarios: dict[str, str] | None = None,
                 root=None):
        self.lock = threading.RLock()
        self.root = root
        self.scenarios = dict(scenarios or {})  # key a page may ask for → the spec to open
        self.specs = dict(players)
        self.revision = 0
        self.game_number = 0
        self.error: str | None = None
        self._boards: dict[tuple, tuple[str, str]] = {}
        self._pieces: dict[tuple, dict[str, str]] = {}  # (seat, board id) → its pieces (board/svg.py)
        self._start(session)

    # ------------------------------------------------------------ set-up
    def _start(self, session) -> None:
        from ..agents import make_agent

        self.session = session
        sides = [s.key for s in session.world.sides]
        for side in sides:
            self.specs.setdefault(side, "greedy")
        seed = session.game.s["seed"]
        self.humans = [s for s in sides if self.specs[s] == "human"]
        self.agents = {s: make_agent(self.specs[s], s, seed) for s in sides if s not in self.humans}
        session.game.keep_history = True
        self.error = None
        self.game_number += 1
        self._changed()
        self._advance()

    def _changed(self) -> None:
        self.revision += 1

    def _advance(self) -> None:
        """Let the computer players answer until a person must choose."""
        from ..agents.base import Again, Stop

        s = self.session
        try:
            for _ in range(100_000):
                d = s.decision
                if d is None or str(d.by) in self.humans:
                    return
                agent = self.agents.get(str(d.by))
                if agent is None:
                    self.error = f"'{d.by}' must choose {d.choice}, but no player sits on that side"
                    return
                answer = agent.choose(s, d)
                if isinstance(answer, (Stop, Again)):
                    self.error = f"the {agent} player of {d.by} stopped"
                    return
                s.choose(s.resolve(answer) + 1)
                self._changed()
        except (GameError, BadSave, IllegalOption) as err:
            self.error = f"the game stopped: {err}"

    @property
    def decision_id(self) -> str:
        return f"{self.game_number}.{self.revision}"

    @property
    def sides(self) -> list[str]:
        return [s.key for s in self.session.world.sides]

    def default_seat(self) -> str:
        d = self.session.decision
        if d is not None and str(d.by) in self.humans:
            return str(d.by)
        return self.humans[0] if self.humans else self.sides[0]

    def check_seat(self, seat) -> str:
        if seat is None or seat == "":
            return self.default_seat()
        if not isinstance(seat, str) or seat not in self.sides:
            raise TableError(400, f"no seat {str(seat)[:40]!r}: the seats are {', '.join(self.sides)}")
        if seat not in self.humans and self.humans:
            # Nobody sits there: its view would show the computer's hand to the person playing against it.
            raise TableError(403, f"{seat} is played by the computer: its view (its hand) is not shown; the "
                                  f"seats here are {', '.join(self.humans)}")
        return seat

    # ------------------------------------------------------------ reading
    def view(self, seat=None, log_from=None, board=None) -> dict:
        with self.lock:
            seat = self.check_seat(seat)
            return self._view(seat, log_from, board)

    def _view(self, seat: str, log_from, have_board) -> dict:
        g, w = self.session.game, self.session.world
        total = len(g.s["log"])
        start = max(0, total - LOG_FIRST) if log_from is None else max(0, min(_whole(log_from, "log_from"), total))
        board_id, svg = self.board(seat)
        over = g.over
        out = {
            "scenario": {"key": w.scenario.key, "title": getattr(w.scenario, "title", None) or w.scenario.key},
            "game": self.game_number,
            "revision": self.revision,
            "seat": seat,
            "players": [{"side": side, "player": self.specs[side], "human": side in self.humans,
                         "hand": len(g.s["piles"].get(f"hand:{side}", ()))} for side in self.sides],
            "decision": self._decision(seat),
            "log_start": start,
            "log_total": total,
            "log": log_json(w, g.s["log"], start),
            "status": status_json(g),
            "hand": hand_json(w, g.s["piles"], seat),
            "undo": self.undo_check(seat),
            "over": over,
            "result": result_json(g),
            "error": self.error,
            "board": self.board_answer(seat, have_board, board_id, svg),
        }
        return out

    def board_answer(self, seat: str, have, board_id: str, svg: str) -> dict:
        """The board as the page needs it: nothing when it has this drawing;
        when it has an earlier drawing for the same seat, only the spaces and
        the panel that changed ("parts", replacing their old selves: a move
        redraws two spaces and the panel, not the 300 KB of the map); else
        the whole SVG."""
        from ..board.svg import changed_pieces

        if have == board_id:
            return {"id": board_id, "svg": None}
        before, after = self._pieces.get((seat, have)), self._pieces.get((seat, board_id))
        changed = changed_pieces(before, after) if before is not None and after is not None else None
        if changed is None:
            return {"id": board_id, "svg": svg}
        return {"id": board_id, "svg": None, "from": have, "parts": changed}

    def board(self, seat: str) -> tuple[str, str]:
        """The board drawn for SEAT, and an id that changes when the drawing
        does (a page that has it is not sent it again).  Drawn again only
        when what it shows has changed: most decisions (a card chosen, a
        space activated) leave it as it was."""
        key = (seat, board_key(self.session.game, seat))
        found = self._boards.get(key)
        if found is None:
            from ..board.svg import board_pieces, join_pieces

            pieces = board_pieces(self.session.game, seat)
            svg = join_pieces(pieces)
            while len(self._boards) >= 16:  # the oldest go first: a page has one of the latest
                old_key = next(iter(self._boards))
                old_id = self._boards.pop(old_key)[0]
                self._pieces.pop((old_key[0], old_id), None)
            found = self._boards[key] = (hashlib.sha1(svg.encode()).hexdigest()[:16], svg)
            self._pieces[(seat, found[0])] = pieces
        return found

    def _decision(self, seat: str) -> dict | None:
        return decision_json(self.session, seat, self.decision_id, seat in self.humans)

    # ------------------------------------------------------------ acting
    def decide(self, decision_id, option, seat=None, log_from=None, board=None) -> dict:
        _check_view_args(log_from, board)
        with self.lock:
            s = self.session
            d = s.decision
            if not isinstance(decision_id, str):
                raise TableError(400, "\"decision\" must be the id of the decision answered (a string)")
            if d is None or decision_id != self.decision_id:
                raise TableError(409, "that decision is no longer pending (the game has moved on): "
                                      "the page shows the game as it is now")
            if str(d.by) not in self.humans:
                raise TableError(409, f"the decision is {d.by}'s, whom the computer plays")
            if seat is not None and seat != "" and self.check_seat(seat) != str(d.by):
                raise TableError(409, f"the decision is {d.by}'s, not {seat}'s")
            text = self._option_text(option)
            try:
                index = s.resolve(text)
            except IllegalOption as err:
                raise TableError(422, err.message, err.rules) from None
            try:
                s.choose(index + 1)
            except IllegalOption as err:  # (resolve accepted it: the game has not moved)
                raise TableError(422, err.message, err.rules) from None
            except GameError as err:
                self.error = f"the game stopped: {err}"
            self._changed()
            self._advance()
            return self._view(self.check_seat(seat) if seat else str(d.by), log_from, board)

    def why(self, option, seat=None) -> dict:
        """Why an option of SEAT's pending decision is legal or forbidden,
        down to the sub-condition that decided (pogdsl/explain), with the
        values SEAT may see: what the terminal's `why` says."""
        from ..explain.options import explain_option

        with self.lock:
            seat = self.check_seat(seat)
            d = self.session.decision
            if d is None or str(d.by) != seat:
                raise TableError(409, f"no decision of {seat}'s is pending: only its own options are explained")
            text = self._option_text(option)
            found = explain_option(self.session.game, text, viewer=seat)
            return {"option": found.shown or text, "verdict": found.verdict, "text": found.to_text()}

    def _option_text(self, option) -> str:
        """An option as the page names it: its index in the list the page was
        given (legal ones first, then the forbidden ones), or its text."""
        d = self.session.decision
        if isinstance(option, bool) or not isinstance(option, (int, str)):
            raise TableError(400, "\"option\" must be an option's index (a whole number) or its text")
        if isinstance(option, str):
            if not option.strip() or len(option) > 500:
                raise TableError(400, "\"option\" names no option")
            return option
        if 0 <= option < len(d.options):
            return d.options[option]
        forbidden = forbidden_options(self.session.game) if option >= len(d.options) else []
        if option < 0 or option - len(d.options) >= len(forbidden):
            raise TableError(422, f"there is no option {option}: choose 0 to "
                                  f"{len(d.options) + len(forbidden) - 1}", d.rules)
        return forbidden[option - len(d.options)][0]

    def undo_check(self, seat: str) -> dict:
        """Whether SEAT may take back its last decision now, and if not why."""
        steps, reason = self._undo_steps(seat)
        return {"possible": reason is None, "reason": reason, "steps": steps}

    def _undo_steps(self, seat: str) -> tuple[int, str | None]:
        s, g = self.session, self.session.game
        if seat not in self.humans:
            return 0, f"{seat} is played by the computer"
        steps = s.steps_back({seat})
        if not steps:
            return 0, "no decision of yours to take back"
        if steps > len(g.history):
            return 0, "only the decisions made since the game was started or loaded here can be taken back"
        reason = undo_reveals(g.history[-steps], g.s, seat)
        return steps, (f"cannot take back your last decision: {reason}" if reason else None)

    def undo(self, seat=None, log_from=None, board=None) -> dict:
        _check_view_args(log_from, board)
        with self.lock:
            seat = self.check_seat(seat)
            steps, reason = self._undo_steps(seat)
            if reason:
                raise TableError(409, reason)
            self.session.undo(steps)
            self.error = None
            self._changed()
            return self._view(seat, log_from, board)

    def new_game(self, scenario, seed) -> dict:
        from ..errors import UsageError
        from ..opening import ScenarioError, open_scenario
        from ..runtime.record import Session

        if not isinstance(scenario, str) or scenario not in self.scenarios:
            raise TableError(400, f"no scenario {str(scenario)[:60]!r} here: choose one of "
                                  f"{', '.join(sorted(self.scenarios))}")
        seed = 0 if seed is None else _whole(seed, "seed")
        if seed < 0 or seed >= 2 ** 48:
            raise TableError(400, "\"seed\" must be a whole number from 0 to 2^48 - 1")
        with self.lock:
            try:
                opened = open_scenario(self.scenarios[scenario], self.root)
                session = Session.new(opened, seed)
            except ScenarioError as err:
                raise TableError(422, err.message) from None
            except UsageError as err:  # (a listed scenario whose file went away since)
                raise TableError(422, str(err)) from None
            except GameError as err:
                raise TableError(422, f"the game cannot start: {err}") from None
            keep = {side: spec for side, spec in self.specs.items()}
            self.specs = {side: keep.get(side, "greedy") for side in (x.key for x in opened.world.sides)}
            self._start(session)
            return self._view(self.default_seat(), None, None)

    def save(self) -> tuple[str, str]:
        """The save file's name and text (the whole game: both hands and the
        decks, as every save holds them)."""
        from ..runtime.record import save_text

        with self.lock:
            s = self.session
            if not s.at_rest():
                raise TableError(409, "the game is between two decisions: it cannot be saved now")
            name = f"{s.opened.key}-turn{s.game.s['turn']}-{s.decisions_made}.json"
            return name, save_text(s)

    def scenario_list(self) -> list[dict]:
        return [{"key": key, "current": key == self.session.world.scenario.key} for key in sorted(self.scenarios)]


def _check_view_args(log_from, board) -> None:
    """What a request asks of the view it gets back, checked before it acts:
    a malformed request changes nothing."""
    if log_from is not None:
        _whole(log_from, "log_from")
    if board is not None and (not isinstance(board, str) or len(board) > 64):
        raise TableError(400, "\"board\" must be the id of the board the page has (a string)")


def _whole(value, name: str) -> int:
    if isinstance(value, bool):
        raise TableError(400, f"\"{name}\" must be a whole number")
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdigit() and len(value.strip()) <= 15:
        return int(value.strip())
    raise TableError(400, f"\"{name}\" must be a whole number")


__all__ = ["Table", "TableError", "forbidden_options", "glossary", "option_targets"]
