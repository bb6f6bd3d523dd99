"""Per-game records of `pogdsl simulate --out FILE`, read back by
`pogdsl report FILE`.

One record per game, a JSON object on a line of a .jsonl file (or a row of
a .csv file, by the file's extension):

  seed        the game's seed: `pogdsl play SCENARIO --seed SEED --ap random
              --cp random` (with the same --option) plays the game again
  winner      "ap", "cp"... or null (a draw, a failure, a result with no winner)
  result      the declared result it ended as (`result NAME` of the scenario) or null
  reason      how it ended, as the rules say it, or null
  final_vp    the VP track ("vp") at the end, or null (no such track, or a failure)
  turn        the last turn played
  decisions   the decisions made
  vp_by_turn  the VP at the end of each turn played
  events      cards whose event was played, and how often: {"AP 12": 1}
  error, kind a failure's message and kind (dead_end, too_long...), or null
  hash        the final state's hash (the same as `pogdsl play` prints)
  scenario, options   what was played
  players     each side's player, by its spec: {"ap": "random", "cp": "mcts:8"}
              (records written before players were recorded have none)
  game, run_seed      the game's number in its run, and the run's --seed

In CSV, events are flattened as `AP 12:1;CP 3:2`, vp_by_turn as `10;12;9`,
options as `name=value;name=value` and players as `ap=random;cp=mcts:8`.
"""

from __future__ import annotations

import csv
import io
import json
import os
import stat
from pathlib import Path

FIELDS = ("game", "seed", "run_seed", "winner", "result", "reason", "final_vp", "turn", "decisions",
          "vp_by_turn", "events", "error", "kind", "hash", "scenario", "options", "players")
# field → the types its value may have (None: null allowed)
TYPES = {"seed": (int,), "winner": (str, None), "result": (str, None), "reason": (str, None),
         "final_vp": (int, None), "turn": (int, None), "decisions": (int,), "vp_by_turn": (list,),
         "events": (dict,), "error": (str, None), "kind": (str, None), "hash": (str, None),
         "scenario": (str,), "options": (dict,)}
OPTIONAL = {"game": (int,), "run_seed": (int, None), "players": (dict,)}


class RecordError(Exception):
    """A records file that cannot be read: the message names the line."""


def card_labels(world) -> dict[str, str]:
    """Card key → its label, "AP 12"."""
    return {c.key: f"{c.data.side.text.upper()} {c.data.number}" for c in world.cards}


def is_csv(path) -> bool:
    return str(path).lower().endswith(".csv")


def output_problem(path) -> str | None:
    """Why a records file cannot be written at `path`, or None."""
    p = Path(path)
    try:
        st = os.stat(p)
    except FileNotFoundError:
        parent = p.parent if str(p.parent) else Path(".")
        if not parent.is_dir():
            return f"{path}: its folder {parent} does not exist"
        return None
    except OSError as err:  # (a name longer than the file system allows, ...)
        from ..safe_io import write_error_text

        return f"{path}: {write_error_text(err)}"
    if stat.S_ISDIR(st.st_mode):
        return f"{path} is a directory: give a file name (FILE.jsonl or FILE.csv)"
    if not stat.S_ISREG(st.st_mode):
        return f"{path} is not a regular file (a device or a pipe): give a file name (FILE.jsonl or FILE.csv)"
    return None


def to_record(result: dict, labels: dict[str, str], scenario: str, options: dict, run_seed: int | None) -> dict:
    rec = {k: result.get(k) for k in FIELDS}
    rec["result"] = result.get("result")
    rec["vp_by_turn"] = list(result.get("vp_by_turn") or [])
    rec["events"] = {labels.get(k, k): n for k, n in sorted((result.get("events") or {}).items(),
                                                             key=lambda kv: _label_order(labels.get(kv[0], kv[0])))}
    rec["scenario"] = scenario
    rec["options"] = dict(options)
    rec["run_seed"] = run_seed
    rec["players"] = dict(result.get("players") or {})
    return rec


def _label_order(label: str):
    side, _, number = label.partition(" ")
    return (side, int(number) if number.isdigit() else 0, label)


class RecordWriter:
    """Writes records to a .jsonl (or .csv) file as games finish: each call
    of write (one game a call on the local pool, a batch on Ray or Dask) is
    flushed, so a run stopped early keeps the games it played."""

    def __init__(self, path, labels: dict[str, str], scenario: str, options: dict, run_seed: int | None):
        self.path = path
        self.csv = is_csv(path)
        self.labels, self.scenario, self.options, self.run_seed = labels, scenario, options, run_seed
        self.file = open(path, "w", encoding="utf-8", newline="" if self.csv else None)
        self.count = 0
        if self.csv:
            self.writer = csv.DictWriter(self.file, fieldnames=FIELDS)
            self.writer.writeheader()

    def write(self, results: list[dict]) -> None:
        for r in results:
            rec = to_record(r, self.labels, self.scenario, self.options, self.run_seed)
            if self.csv:
                self.writer.writerow(flatten(rec))
            else:
                self.file.write(json.dumps(rec, separators=(",", ":")) + "\n")
            self.count += 1
        self.file.flush()

    def close(self) -> None:
        try:
            self.file.close()
        except OSError:  # (what a full disk refused was reported when it was written)
            pass


def flatten(rec: dict) -> dict:
    row = dict(rec)
    row["events"] = ";".join(f"{k}:{v}" for k, v in rec["events"].items())
    row["vp_by_turn"] = ";".join("" if v is None else str(v) for v in rec["vp_by_turn"])
    row["options"] = ";".join(f"{k}={v}" for k, v in rec["options"].items())
    row["players"] = ";".join(f"{k}={v}" for k, v in (rec.get("players") or {}).items())
    return {k: ("" if v is None else v) for k, v in row.items()}


def _unflatten(row: dict, line: int) -> dict:
    def whole(text, field, nullable=True):
        if text == "" and nullable:
            return None
        try:
            return int(text)
        except ValueError:
            raise RecordError(f"line {line}: '{field}' should be a whole number, not '{text}'") from None

    rec: dict = {}
    for k in FIELDS:
        if k not in row or row[k] is None:
            if k in OPTIONAL:
                continue
            raise RecordError(f"line {line}: no '{k}' column")
        rec[k] = row[k]
    for k in ("winner", "result", "reason", "error", "kind", "hash"):
        rec[k] = rec[k] or None
    for k in ("game", "seed", "run_seed", "final_vp", "turn", "decisions"):
        if k in rec:
            rec[k] = whole(rec[k], k, nullable=k not in ("seed", "decisions"))
    rec["vp_by_turn"] = [whole(x, "vp_by_turn") for x in rec["vp_by_turn"].split(";")] if rec["vp_by_turn"] else []
    events = {}
    for item in filter(None, rec["events"].split(";")):
        label, colon, n = item.rpartition(":")
        if not colon:
            raise RecordError(f"line {line}: events should read 'AP 12:1;CP 3:2', not '{rec['events']}'")
        events[label] = whole(n, "events", nullable=False)
    rec["events"] = events
    rec["options"] = dict(item.partition("=")[::2] for item in filter(None, rec["options"].split(";")))
    if "players" in rec:
        rec["players"] = dict(item.partition("=")[::2] for item in filter(None, (rec["players"] or "").split(";")))
    return rec


def check_record(rec, line: int) -> dict:
    if not isinstance(rec, dict):
        raise RecordError(f"line {line}: a record is a JSON object, not {type(rec).__name__}")
    for k, types in {**TYPES, **OPTIONAL}.items():
        if k not in rec:
            if k in OPTIONAL:
                continue
            raise RecordError(f"line {line}: no field '{k}'")
        v = rec[k]
        ok = any((v is None) if t is None else (isinstance(v, t) and not (t is int and isinstance(v, bool)))
                 for t in types)
        if not ok:
            raise RecordError(f"line {line}: field '{k}' has the wrong type ({json.dumps(v)[:40]})")
    if not all(isinstance(k, str) and isinstance(v, str) for k, v in (rec.get("players") or {}).items()):
        raise RecordError(f"line {line}: field 'players' should name each side's player, e.g. {{\"ap\": \"random\"}}")
    if not all(isinstance(n, int) for n in rec["events"].values()):
        raise RecordError(f"line {line}: field 'events' should count plays per card, e.g. {{\"AP 12\": 1}}")
    return rec


LINE_LIMIT = 1024 * 1024  # the longest line a records file may have (a game's record: about 1 KB)


def read_records(path) -> list[dict]:
    """The records of a .jsonl (or .csv) file, checked (RecordError names the
    first bad line).  For a file of any size, iter_records."""
    return list(iter_records(path))


def iter_records(path):
    """The records of a .jsonl (or .csv) file one at a time, checked as they
    are read (RecordError names the first bad line), so that a file of
    gigabytes is read in the memory of one line.  Only a regular file is
    read (a FIFO or a device is refused without waiting on it: OSError), a
    line at most LINE_LIMIT long."""
    first = None
    count = 0
    with _open_regular(path) as raw:
        text = io.TextIOWrapper(raw, encoding="utf-8", newline="")
        lines = _limited_lines(text)
        try:
            for i, rec in (_csv_records(lines) if is_csv(path) else _json_records(lines)):
                count += 1
                if first is None:
                    first = rec
                elif rec["scenario"] != first["scenario"] or rec["options"] != first["options"]:
                    raise RecordError(f"record {count}: another scenario or options than the first record's "
                                      f"({rec['scenario']} vs {first['scenario']})")
                elif rec.get("players") != first.get("players"):
                    raise RecordError(f"record {count}: other players than the first record's ({rec.get('players')} "
                                      f"vs {first.get('players')}): a balance figure is of one pair of players")
                yield rec
        except UnicodeDecodeError:
            raise RecordError(f"{path} is not a text file") from None
    if first is None:
        raise RecordError("no records (the file is empty)")


def text_lines(path):
    """The lines of PATH as text, read as records files are (a regular file
    only, a line at most LINE_LIMIT long: OSError, RecordError), in the
    memory of one line."""
    with _open_regular(path) as raw:
        yield from _limited_lines(io.TextIOWrapper(raw, encoding="utf-8", newline=""))


def _open_regular(path):
    from ..safe_io import _check_kind

    _check_kind(path, os.stat(path).st_mode, "records")  # never opens a FIFO or a device
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    try:
        _check_kind(path, os.fstat(fd).st_mode, "records")
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def _limited_lines(text):
    number = 0
    while True:
        line = text.readline(LINE_LIMIT + 1)
        if not line:
            return
        number += 1
        if len(line) > LINE_LIMIT:
            raise RecordError(f"line {number}: longer than {LINE_LIMIT // (1024 * 1024)} MiB, not a record")
        yield line


def _json_records(lines):
    for i, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as err:
            raise RecordError(f"line {i}: not JSON ({err.msg})") from None
        except ValueError as err:  # (a number of more than 4,300 digits)
            raise RecordError(f"line {i}: not a record ({err})") from None
        except RecursionError:
            raise RecordError(f"line {i}: nested too deeply") from None
        yield i, check_record(rec, i)


def _csv_records(lines):
    reader = csv.DictReader(lines)
    try:
        if not reader.fieldnames or "seed" not in reader.fieldnames:
            raise RecordError("line 1: not a records header (seed,winner,...)")
        for i, row in enumerate(reader, start=2):
            yield i, check_record(_unflatten(row, i), i)
    except csv.Error as err:
        raise RecordError(f"line {reader.line_num}: {err}") from None


PLOTTED = ("game", "winner", "result", "turn", "error", "final_vp", "vp_by_turn", "scenario")


def plot_fields(rec: dict) -> dict:
    """What the figures read of a record (sim/plots.py): a tenth of it."""
    return {k: rec.get(k) for k in PLOTTED}


def to_result(rec: dict, keys: dict[str, str], index: int) -> dict:
    """A record as a result of play_random, for sim.summarise (events keyed by card key)."""
    r = dict(rec)
    r["events"] = {keys.get(label, label): n for label, n in rec["events"].items()}
    r.setdefault("game", index)
    if r.get("game") is None:
        r["game"] = index
    r["hash"] = rec.get("hash") or ""
    return r
