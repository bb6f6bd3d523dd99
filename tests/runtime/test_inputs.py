"""Bad input never ends in a traceback, a hang or a crash (issue 22, "inputs").

Numbers of any size in scripts, saves and on the command line get a one-line
error; every reader (sources, scripts, saves, `--load`, `replay`) goes through
pogdsl/safe_io.py, which refuses devices, FIFOs and directories and caps the
size of a file; deep JSON in a save is refused in one line.  CLI tests run
`pogdsl` in a subprocess (`run_cli` asserts there is no traceback)."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from pogdsl.numbers import MAX_DIGITS, NumberError, parse_whole
from pogdsl.runtime.errors import BadSave
from pogdsl.runtime.record import ScriptError, load_any, parse_script, read_save_data, read_script, save_seal
from pogdsl.safe_io import RECORD_LIMIT, SOURCE_LIMIT, UnreadableFile, read_bytes, read_text

from .conftest import TOY, run_cli

HUGE = "9" * 5000  # past Python's 4,300-digit conversion limit
DEV_ZERO = Path("/dev/zero")
needs_dev_zero = pytest.mark.skipif(not DEV_ZERO.exists(), reason="no /dev/zero here")
needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")


@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "pipe.pog"
    os.mkfifo(path)
    return path


def sparse(path: Path, size: int, head: bytes = b"") -> Path:
    """A file of SIZE bytes that takes no room on disk."""
    with path.open("wb") as f:
        f.write(head)
        f.truncate(size)
    return path


def one_line_error(proc) -> str:
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert proc.returncode != 0
    assert len(lines) == 1, proc.stderr
    return lines[0]


# ------------------------------------------------------------------ numbers
def test_whole_numbers_have_a_stated_range():
    assert parse_whole("9" * MAX_DIGITS) == 10**MAX_DIGITS - 1
    assert parse_whole("-12") == -12 and parse_whole(" 007 ") == 7
    with pytest.raises(NumberError, match="too large: whole numbers have at most 15 digits"):
        parse_whole("1" + "0" * MAX_DIGITS)
    with pytest.raises(NumberError, match=r"\(5000 digits\) is too large"):
        parse_whole(HUGE)


@pytest.mark.parametrize("text", ["²", "١٢", "1_000", "+", "", "3.5", "0x10"])
def test_only_ascii_digits_make_a_number(text):
    with pytest.raises(NumberError, match="is not a whole number"):
        parse_whole(text)


@pytest.mark.parametrize("line, message", [
    (f"dice {HUGE}", r"`dice` needs die results.*\(5000 digits\) is too large"),
    ("dice ²", r"`dice` needs die results.*'²' is not a whole number"),
    ("dice 0", r"`dice` needs die results"),
    (f"seed {HUGE}", r"`seed` needs a whole number.*\(5000 digits\) is too large"),
    ("seed ²", r"`seed` needs a whole number: '²' is not a whole number"),
], ids=["huge-dice", "odd-dice", "zero-dice", "huge-seed", "odd-seed"])
def test_a_script_number_out_of_range_is_a_located_error(line, message):
    with pytest.raises(ScriptError, match=message) as caught:
        parse_script(f"scenario toy\n{line}\n", "s.txt")
    assert "s.txt:2" in str(caught.value)


def test_a_script_keeps_its_numbers():
    script = parse_script("scenario toy\nseed 12\ndice 4, 2 6\n", "s.txt")
    assert script.seed == 12 and script.events[0].values == [4, 2, 6]


@pytest.mark.parametrize("answer, message", [
    (HUGE, r"there is no option 999.*\(5000 digits\): choose 1 to 2"),
    ("²", r"'²' is not one of the 2 options"),
], ids=["huge", "odd"])
def test_a_huge_or_odd_answer_in_a_script_is_refused_in_one_line(tmp_path, answer, message):
    script = tmp_path / "odd.txt"
    script.write_text(f"scenario toy\ncp: {answer}\n", encoding="utf-8")
    proc = run_cli("replay", script, "--root", TOY)
    assert proc.returncode == 1
    assert re.search(message, one_line_error(proc))


def _save(tmp_path) -> Path:
    path = tmp_path / "game.json"
    proc = run_cli("play", "toy", "--root", TOY, "--ap", "random", "--cp", "random", "--seed", "2", "--save", path)
    assert proc.returncode == 0, proc.stderr
    return path


def test_a_save_with_a_huge_number_is_refused_in_one_line(tmp_path):
    path = _save(tmp_path)
    data = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(path.read_text(encoding="utf-8").replace(f'"seed": {data["seed"]}', f'"seed": {HUGE}', 1),
                    encoding="utf-8")
    with pytest.raises(BadSave, match=r"not a valid saved game: the number 999.*\(5000 digits\) is too large"):
        read_save_data(path)
    for args in (("replay", path), ("play", "toy", "--root", TOY, "--load", path)):
        assert "is too large" in one_line_error(run_cli(*args, "--root", TOY) if args[0] == "replay"
                                                else run_cli(*args))


def test_a_save_holding_half_a_surrogate_pair_is_refused_in_one_line(tmp_path):
    """JSON may write \\ud800 alone (found by benchmarks/fuzz.py): no
    character, so no seal or hash can be worked out of it."""
    path = _save(tmp_path)
    text = path.read_text(encoding="utf-8")
    data = json.loads(text)
    path.write_text(text.replace(f'"scenario": "{data["scenario"]}"', '"scenario": "toy\\ud800"', 1),
                    encoding="utf-8")
    with pytest.raises(BadSave, match="lone surrogate"):
        read_save_data(path)
    assert "lone surrogate" in one_line_error(run_cli("play", "toy", "--root", TOY, "--load", path))
    assert "lone surrogate" in one_line_error(run_cli("replay", path, "--root", TOY))


@pytest.mark.parametrize("depth", [40, 100_000])
def test_a_deeply_nested_save_is_refused_in_one_line(tmp_path, depth):
    path = tmp_path / "deep.json"
    path.write_text('{"format": "pogdsl-save/1", "x": ' + "[" * depth + "]" * depth + "}", encoding="utf-8")
    with pytest.raises(BadSave, match="its JSON is nested too deeply"):
        read_save_data(path)
    line = one_line_error(run_cli("play", "toy", "--root", TOY, "--load", path))
    assert "nested too deeply" in line
    assert "nested too deeply" in one_line_error(run_cli("replay", path, "--root", TOY))


def test_a_real_save_is_not_too_deep_nor_too_large(tmp_path):
    path = _save(tmp_path)
    assert read_save_data(path)["format"] == "pogdsl-save/2"
    assert load_any(path, TOY).game.over


@pytest.mark.parametrize("args", [
    ("simulate", "toy", "--games", HUGE),
    ("simulate", "toy", "--seed", "²"),
    ("show", "toy", "--seed", HUGE),
    ("play", "toy", "--ap", f"random:{HUGE}", "--cp", "random"),
], ids=["games", "seed", "show-seed", "agent-seed"])
def test_command_line_numbers_out_of_range_are_one_line_errors(args):
    proc = run_cli(*args, "--root", TOY)
    assert proc.returncode == 2
    last = proc.stderr.strip().splitlines()[-1]
    assert ("is too large" in last or "is not a whole number" in last) and HUGE not in last


# ------------------------------------------------------------------ the safe reader
def test_the_reader_reads_a_regular_file(tmp_path):
    path = tmp_path / "a.txt"
    path.write_bytes(b"hello\n")
    assert read_bytes(path, 100, "source") == b"hello\n"
    assert read_text(path, 100, "source") == "hello\n"


def test_the_reader_refuses_a_directory(tmp_path):
    with pytest.raises(UnreadableFile, match="it is a directory, not a save file"):
        read_bytes(tmp_path, RECORD_LIMIT, "save")


@needs_fifo
def test_the_reader_refuses_a_fifo_without_blocking(fifo):
    with pytest.raises(UnreadableFile, match=r"it is a FIFO \(named pipe\), not a script file"):
        read_bytes(fifo, RECORD_LIMIT, "script")


@needs_dev_zero
def test_the_reader_refuses_a_device():
    with pytest.raises(UnreadableFile, match="it is a device, not a source file") as caught:
        read_bytes(DEV_ZERO, SOURCE_LIMIT, "source")
    assert isinstance(caught.value, OSError) and "/dev/zero" in str(caught.value)


def test_the_reader_refuses_a_file_over_its_cap_before_reading_it(tmp_path):
    path = sparse(tmp_path / "big.pog", SOURCE_LIMIT + 1)
    with pytest.raises(UnreadableFile, match=r"more than the 4 MiB a source file may be"):
        read_bytes(path, SOURCE_LIMIT, "source")
    assert read_bytes(sparse(tmp_path / "ok.pog", 10), SOURCE_LIMIT, "source") == b"\0" * 10


def test_the_caps_are_what_the_docs_say():
    assert SOURCE_LIMIT == 4 * 1024 * 1024 and RECORD_LIMIT == 32 * 1024 * 1024
    playing = (Path(__file__).resolve().parents[2] / "docs" / "playing.rst").read_text(encoding="utf-8")
    assert "4 MiB" in playing and "32 MiB" in playing


def _special_files(tmp_path) -> list[tuple[str, Path, str]]:
    """(name, path, what the refusal says) of every kind of non-file here."""
    found = [("directory", tmp_path / "folder", "it is a directory")]
    (tmp_path / "folder").mkdir()
    if hasattr(os, "mkfifo"):
        os.mkfifo(tmp_path / "pipe")
        found.append(("fifo", tmp_path / "pipe", "it is a FIFO (named pipe)"))
    if DEV_ZERO.exists():
        found.append(("device", DEV_ZERO, "it is a device"))
    return found


@pytest.mark.parametrize("kind", ["directory", "fifo", "device"])
def test_every_reader_refuses_special_files(tmp_path, kind):
    special = {name: (path, said) for name, path, said in _special_files(tmp_path)}
    if kind not in special:
        pytest.skip(f"no {kind} here")
    path, said = special[kind]
    # a script, a save, either (--load, replay) — as functions
    with pytest.raises(BadSave, match=re.escape(f"cannot read {path}: {said}")):
        read_script(path)
    with pytest.raises(BadSave, match=re.escape(f"cannot read {path}: {said}")):
        read_save_data(path)
    with pytest.raises(BadSave, match=re.escape(f"cannot read {path}: {said}")):
        load_any(path, TOY)
    # ... and as a user meets them
    assert f"cannot read {path}: {said}" in one_line_error(run_cli("replay", path, "--root", TOY))
    assert f"cannot read {path}: {said}" in one_line_error(run_cli("play", "toy", "--root", TOY, "--load", path))
    line = one_line_error(run_cli("play", "toy", "--root", TOY, "--ap", f"script:{path}", "--cp", "random"))
    assert said in line


@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_a_special_file_as_a_source_or_a_scenario_is_refused(tmp_path, kind):
    special = {name: (path, said) for name, path, said in _special_files(tmp_path)}
    if kind not in special:
        pytest.skip(f"no {kind} here")
    path, said = special[kind]
    proc = run_cli("check", "--root", TOY, path)
    assert proc.returncode == 1
    assert f"{path}: error[E0001]: cannot read the file: {said}, not a source file" in proc.stderr
    proc = run_cli("play", path, "--root", TOY, "--ap", "random", "--cp", "random")
    assert proc.returncode != 0 and f"cannot read the file: {said}" in proc.stderr


def test_oversize_files_are_refused_by_every_reader(tmp_path):
    source = sparse(tmp_path / "big.pog", SOURCE_LIMIT + 1, b"# big\n")
    proc = run_cli("check", "--root", TOY, source)
    assert proc.returncode == 1 and "more than the 4 MiB a source file may be" in proc.stderr
    save = sparse(tmp_path / "big.json", RECORD_LIMIT + 1, b"{")
    script = sparse(tmp_path / "big.txt", RECORD_LIMIT + 1, b"scenario toy\n")
    for path in (save, script):
        assert "more than the 32 MiB" in one_line_error(run_cli("replay", path, "--root", TOY))
        assert "more than the 32 MiB" in one_line_error(run_cli("play", "toy", "--root", TOY, "--load", path))
    with pytest.raises(BadSave, match="more than the 32 MiB a script file may be"):
        read_script(script)


def test_a_source_folder_still_expands_to_its_files(tmp_path):
    folder = tmp_path / "mod"
    folder.mkdir()
    (folder / "note.pog").write_text("# nothing yet\n", encoding="utf-8")
    proc = run_cli("check", "--root", TOY, folder)
    assert proc.returncode == 0, proc.stderr
    assert "checked 2 files" in proc.stderr


@needs_dev_zero
def test_a_device_named_as_a_scenario_in_a_script_or_a_save_is_refused(tmp_path):
    script = tmp_path / "dev.txt"
    script.write_text("scenario /dev/zero\n", encoding="utf-8")
    proc = run_cli("replay", script)
    assert proc.returncode != 0 and "/dev/zero" in proc.stderr
    save = tmp_path / "dev.json"
    data = json.loads(_save(tmp_path).read_text(encoding="utf-8"))
    data["scenario"] = "/dev/zero"
    data["seal"] = save_seal(data)  # as by someone who knows to reseal: the scenario check itself refuses it
    save.write_text(json.dumps(data), encoding="utf-8")
    proc = run_cli("replay", save)
    assert proc.returncode != 0 and "/dev/zero" in proc.stderr


# ------------------------------------------------------------------ depth, through every stage
@pytest.mark.parametrize("expr", [" + ".join(["1"] * 500), "x" + ".a" * 2000, "x" + "[1]" * 2000],
                         ids=["sum", "attributes", "indexes"])
def test_check_reports_a_too_deep_expression_without_a_traceback(tmp_path, expr):
    path = tmp_path / "deep.pog"
    path.write_text(f"value deep = {expr}\n", encoding="utf-8")
    proc = run_cli("check", "--root", TOY, path)
    assert proc.returncode == 1
    assert "deep.pog:1:14: error[E0103]: expression or block nested too deeply" in proc.stderr


def test_expressions_and_blocks_just_under_the_limit_compile_and_play(tmp_path):
    """Nesting the parser lets through is followed by the checker, the code
    generator and Python's compiler of the generated code."""
    root = tmp_path / "deep"
    (root / "scenarios").mkdir(parents=True)
    text = (TOY / "scenarios" / "toy.pog").read_text(encoding="utf-8")
    deep = "\n".join([
        "value deep_sum = " + " + ".join(["1"] * 95),
        "value deep_index = " + "[" * 30 + "1" + "]" * 30 + "[0]" * 30,
        "value deep_neg = " + "-" * 94 + "1",
        "value deep_brackets = " + "(" * 45 + "1" + ")" * 45,
        "phase check_end {",
        "  " + "".join(f"for x{i} in [1] {{ " for i in range(25)) + 'log "deep for"' + " }" * 25,
        "  " + "if true { " * 40 + "let total = deep_sum * 1000 + deep_index * 100 + deep_neg * 10 + deep_brackets"
        + ' log "total {total}"' + " }" * 40,
    ])
    (root / "scenarios" / "toy.pog").write_text(text.replace("phase check_end {", deep, 1), encoding="utf-8")
    proc = run_cli("check", "--root", root)
    assert proc.returncode == 0, proc.stderr
    proc = run_cli("play", "toy", "--root", root, "--ap", "random", "--cp", "random", "--seed", "1", "--log",
                   env={"POGDSL_PURE": "1"})
    assert proc.returncode == 0, proc.stderr
    assert "total 95111" in proc.stdout and "deep for" in proc.stdout


@pytest.mark.parametrize("line", ["cp: " + "[" * 100_000 + "]" * 100_000, "dice " + "[" * 100_000],
                         ids=["answer", "dice"])
def test_a_script_with_100000_nested_brackets_is_a_one_line_error(tmp_path, line):
    script = tmp_path / "deep.txt"
    script.write_text(f"scenario toy\n{line}\n", encoding="utf-8")
    for args in (("replay", script, "--root", TOY), ("play", "toy", "--root", TOY, "--load", script)):
        assert "deep.txt:2:" in one_line_error(run_cli(*args))
