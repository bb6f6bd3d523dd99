"""A game's record stepped through, for `pogdsl view`: the board, the log
and the dice at each decision, forward and back.

A record is a save or a script (record.py plays it back and checks it), or
one game of a `pogdsl simulate --out` JSON-lines file, played again from
its seed with the players it names and checked against its final hash.
Step K is the game after its first K decisions (and the dice or hands set
by hand that follow them).  Positions are rebuilt from checkpoints: the
state is kept every CHECKPOINT_EVERY decisions, and a step is reached by
playing the recorded decisions on from the nearest one, so any step costs
at most that many decisions and memory stays small for a long game.
"""

from __future__ import annotations

import hashlib
import json
import threading

from ..runtime.errors import BadSave, GameError, IllegalOption
from ..runtime.interpreter import Game, copy_state
from ..runtime.record import Event, Session
from .table import TableError, _whole, hand_json, log_json, option_targets, result_json, status_json

CHECKPOINT_EVERY = 16
RECORD_LINE_LIMIT = 1024 * 1024  # one record of a --out file


class Replay:
    """The positions of one recorded game."""

    def __init__(self, session: Session, label: str):
        self.opened = session.opened
        self.label = label
        self.seed = session.game.s["seed"]
        self.events: list[Event] = list(session.events)
        # Step K is the game once events[:starts[K]] are applied: its first K
        # decisions and the inputs up to the next one.
        decisions = [i for i, e in enumerate(self.events) if e.kind == "decision"]
        self.starts = decisions + [len(self.events)]
        self.chosen = [self.events[i].text for i in decisions]  # the option taken at step K
        self.lock = threading.Lock()
        self.checkpoints: dict[int, dict] = {}
        self.log_sizes: list[int] = []  # the log's length at each step
        self._boards: dict[tuple, tuple[str, str]] = {}
        self._walk()

    @property
    def steps(self) -> int:
        return len(self.starts) - 1

    def _walk(self) -> None:
        """Play the record once, keeping a checkpoint every CHECKPOINT_EVERY steps."""
        session = Session(self.opened, self.opened.new_game(self.seed), [], self.label)
        at = next((i for i, e in enumerate(self.events) if e.kind != "dice"), len(self.events))
        for e in self.events[:at]:  # dice set before the game starts: the set-up may roll
            session.apply_input(e, started=False)
        session.game.run()
        for step in range(self.steps + 1):
            at = self._apply(session, at, self.starts[step])
            if step % CHECKPOINT_EVERY == 0:
                self.checkpoints[step] = copy_state(session.game.s)
            self.log_sizes.append(len(session.game.s["log"]))
        self.final = session.game.state_hash()

    def _apply(self, session: Session, at: int, until: int) -> int:
        """Apply events[at:until] (the first already applied ones skipped)."""
        for e in self.events[at:until]:
            try:
                if e.kind == "decision":
                    session.choose(e.text, by=e.by)
                else:
                    session.apply_input(e)
            except (IllegalOption, ValueError, GameError) as err:
                raise BadSave(f"{self.label} does not replay at '{e.by}: {e.text}': {err}") from None
        return max(at, until)

    def position(self, step: int) -> Game:
        """The game at STEP (0 ≤ STEP ≤ steps)."""
        base = step - step % CHECKPOINT_EVERY
        game = Game(self.opened.world, copy_state(self.checkpoints[base]))
        session = Session(self.opened, game, [], self.label)
        self._apply(session, self.starts[base], self.starts[step])
        return game

    # ------------------------------------------------------------ what the page gets
    def view(self, step=None, seat=None, log_from=None, board=None) -> dict:
        with self.lock:  # one position built at a time (the drawing's caches are shared)
            return self._view(step, seat, log_from, board)

    def _view(self, step, seat, log_from, board) -> dict:
        step = self.steps if step is None or step == "" else _whole(step, "step")
        if not 0 <= step <= self.steps:
            raise TableError(400, f"\"step\" must be from 0 to {self.steps}")
        sides = [s.key for s in self.opened.world.sides]
        if seat not in (None, "") and seat not in sides:
            raise TableError(400, f"no seat {str(seat)[:40]!r}: the seats are {', '.join(sides)} (or none)")
        seat = seat or None
        if board is not None and (not isinstance(board, str) or len(board) > 64):
            raise TableError(400, "\"board\" must be the id of the board the page has (a string)")
        game = self.position(step)
        w, log = self.opened.world, game.s["log"]
        total = len(log)
        start = 0 if log_from is None else max(0, min(_whole(log_from, "log_from"), total))
        before = self.log_sizes[step - 1] if step > 0 else 0
        dice = [int(e["text"].split()[1]) for e in log[before:] if e["text"].startswith("rolled ")
                and e["text"].split()[1].isdigit()]
        board_id, svg = self.board(game, seat)
        return {
            "mode": "view",
            "label": self.label,
            "scenario": {"key": w.scenario.key, "title": getattr(w.scenario, "title", None) or w.scenario.key},
            "step": step,
            "steps": self.steps,
            "seat": seat or "",
            "players": [{"side": s, "player": "record", "human": False,
                         "hand": len(game.s["piles"].get(f"hand:{s}", ()))} for s in sides],
            "decision": self._decision(game, step),
            "log_start": start,
            "log_total": total,
            "step_log_start": before,
            "log": log_json(w, log, start),
            "dice": dice,
            "status": status_json(game),
            "hand": hand_json(w, game.s["piles"], seat),
            "undo": None,
            "over": game.over,
            "result": result_json(game),
            "error": None,
            "board": {"id": board_id, "svg": None if board == board_id else svg},
        }

    def _decision(self, game: Game, step: int) -> dict | None:
        d = game.decision()
        if d is None:
            return None
        from .table import glossary

        words = glossary(self.opened.world)
        chosen = self.chosen[step] if step < len(self.chosen) else None
        values = game.s["pending"]["values"]
        return {"id": f"step.{step}", "side": str(d.by), "choice": d.choice, "prompt": d.prompt,
                "rules": [words.rule(r) for r in d.rules], "yours": False, "chosen": chosen,
                "options": [{"index": i, "label": text, "legal": True, "reason": None, "rules": [],
                             "chosen": text == chosen, **option_targets(values[i])}
                            for i, text in enumerate(d.options)]}

    def board(self, game: Game, seat: str | None) -> tuple[str, str]:
        from ..board.svg import board_svg
        from .table import board_key

        key = (seat, board_key(game, seat or ""))
        found = self._boards.get(key)
        if found is None:
            svg = board_svg(game, seat)
            if len(self._boards) > 32:
                self._boards.clear()
            found = self._boards[key] = (hashlib.sha1(svg.encode()).hexdigest()[:16], svg)
        return found


# ---------------------------------------------------------------- reading records
def read_record_line(path, number: int | None) -> dict:
    """Game NUMBER of a `simulate --out` JSON-lines file (its "game" field;
    the only one when NUMBER is None); BadSave naming the problem."""
    from ..safe_io import RECORD_LIMIT, read_bytes

    try:
        raw = read_bytes(path, RECORD_LIMIT, "record")
    except OSError as err:
        raise BadSave(f"cannot read {path}: {err.strerror or err}") from None
    found, games = None, []
    for n, line in enumerate(raw.splitlines(), 1):
        if not line.strip():
            continue
        if len(line) > RECORD_LINE_LIMIT:
            raise BadSave(f"{path}:{n}: a record line longer than {RECORD_LINE_LIMIT // 1024} KiB")
        try:
            data = json.loads(line)
        except (ValueError, RecursionError):
            raise BadSave(f"{path}:{n}: not a JSON record (a line of `pogdsl simulate --out`)") from None
        if not isinstance(data, dict) or not isinstance(data.get("game"), int):
            raise BadSave(f"{path}:{n}: not a game record (no \"game\" number)")
        games.append(data["game"])
        if number is None or data["game"] == number:
            if found is not None and number is None:
                raise BadSave(f"{path} holds several games: say which with --game N "
                              f"(games {', '.join(str(g) for g in games[:8])}…)")
            found = data
    if found is None:
        raise BadSave(f"{path} holds no game {number}" if number is not None and games else f"{path} holds no game")
    return found


def replay_record(data: dict, path, root=None) -> Session:
    """The game a `simulate --out` record describes, played again from its
    seed with its players and checked against its final hash."""
    from ..agents import make_agent
    from ..agents.base import Again, Stop
    from ..opening import ScenarioError, open_scenario
    from ..runtime.record import _NAME

    scenario, seed, players = data.get("scenario"), data.get("seed"), data.get("players")
    options = data.get("options") or {}
    if not isinstance(scenario, str) or not _NAME.match(scenario):
        raise BadSave(f"{path}: game {data['game']} names no scenario by name (a record may not name a file)")
    if not isinstance(seed, int) or isinstance(seed, bool) or not isinstance(players, dict) \
            or not isinstance(options, dict):
        raise BadSave(f"{path}: game {data['game']} lacks its seed or its players (made by an older pogdsl?)")
    if data.get("error"):
        raise BadSave(f"{path}: game {data['game']} did not finish ({data['error']}): it cannot be stepped through")
    try:
        opened = open_scenario(scenario, root, options={str(k): str(v) for k, v in options.items()}, by_name=True)
        session = Session.new(opened, seed)
        agents = {side: make_agent(str(spec), side, seed) for side, spec in players.items()}
    except ScenarioError as err:
        raise BadSave(f"{path}: game {data['game']} is of scenario '{scenario}': {err.message}") from None
    except (ValueError, GameError) as err:
        raise BadSave(f"{path}: game {data['game']} cannot be played again: {err}") from None
    limit = data.get("decisions") if isinstance(data.get("decisions"), int) else 100_000
    try:
        while session.decision is not None and session.decisions_made <= limit:
            d = session.decision
            agent = agents.get(str(d.by))
            if agent is None or agent.human:
                raise BadSave(f"{path}: game {data['game']} names no computer player for '{d.by}'")
            answer = agent.choose(session, d)
            if isinstance(answer, (Stop, Again)):
                raise BadSave(f"{path}: the {agent} player stopped")
            session.choose(session.resolve(answer) + 1)
    except (GameError, IllegalOption) as err:
        raise BadSave(f"{path}: game {data['game']} does not replay: {err}") from None
    if data.get("hash") and session.game.state_hash() != data["hash"]:
        raise BadSave(f"{path}: game {data['game']} played again does not reach its recorded end (another "
                      "version of the rules or of the players?)")
    return session


__all__ = ["Replay", "read_record_line", "replay_record"]
