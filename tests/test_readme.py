"""The README tells the truth (issue 35).

Its main job's sample output and its timings are the ones
benchmarks/readme.py recorded (benchmarks/results/readme.json) when it ran
the README's commands as written in a fresh virtual environment;
docs/quickstart.rst gives the same commands, output and timings; no other
timing is written in either by hand; and the job's first games still end as
they did when it was recorded, so a change to the rules, the players or the
command that moves the output fails here until the record is made again
(`python benchmarks/readme.py && python benchmarks/readme.py --update`).
Timings are never asserted as speed: only that the text says what the
record says."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import readme  # noqa: E402
from readme import Page, ReadmeError  # noqa: E402

AGAIN = "run `python benchmarks/readme.py && python benchmarks/readme.py --update`"


@pytest.fixture(scope="module")
def record() -> dict:
    return json.loads(readme.RECORD.read_text(encoding="utf-8"))


@pytest.fixture(params=[readme.README, readme.QUICKSTART], ids=lambda p: p.name)
def page(request) -> Page:
    return Page(request.param)


# ------------------------------------------------------------------ the pages and the record
def test_the_readme_and_the_quickstart_give_the_same_commands():
    assert readme.commands(Page(readme.README)) == readme.commands(Page(readme.QUICKSTART))


def test_the_record_ran_the_commands_as_written(record):
    assert record["commands"] == readme.commands(Page(readme.README)), AGAIN
    ran = [step["part"] for name in readme.RUN for step in record["runs"][name]["steps"]]
    assert ran == [part for name in readme.RUN for part in readme.parts(record["commands"][name])]


def test_the_page_shows_the_recorded_output(page, record):
    assert page.output("main-job") == record["runs"]["main-job"]["output"].rstrip("\n"), AGAIN


def test_the_page_gives_the_recorded_timings(page, record):
    said = page.paragraph("timing")
    assert said == readme.timing_paragraph(record, page), AGAIN
    flat = " ".join(said.split())
    for name in readme.RUN:
        for step in record["runs"][name]["steps"]:
            assert f"{step['seconds']:.0f} s" in flat and f"{step['cpu_seconds']:.0f} s" in flat
    assert record["date"] in flat and f"{record['machine']['cores']} cores" in flat
    assert record["machine"]["python"]["version"] in flat


def test_no_timing_is_written_by_hand(page):
    assert readme.hand_written_timings(page) == [], \
        "a timing outside the recorded paragraph goes stale: say it through benchmarks/readme.py"


def test_the_jobs_first_games_end_as_when_it_was_recorded(record):
    """The record's output is today's: the main job's first games, played
    again by the same command cut short, reach the same final states."""
    prefix = record["runs"]["main-job"]["prefix"]
    assert prefix["arguments"] == readme.prefix_arguments(record["commands"]["main-job"])
    env = {k: v for k, v in os.environ.items() if k != "POGDSL_HOME"}
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    proc = subprocess.run([sys.executable, "-m", "pogdsl.cli", *prefix["arguments"]], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["digest"] == prefix["digest"], \
        f"the main job no longer plays the recorded games: {AGAIN}"


def test_ci_runs_the_test_suite_command():
    """.ci/run does what the README's test command says (with `python -m
    pogdsl.cli` for the `pogdsl` script, and quieter)."""
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    steps = [shlex.split(line) for line in ci.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    for part in readme.parts(readme.commands(Page(readme.README))["test-suite"]):
        words = shlex.split(part.replace("pogdsl ", "python -m pogdsl.cli ", 1) if part.startswith("pogdsl ")
                            else part)
        assert any(all(w in step for w in words) for step in steps), part


# ------------------------------------------------------------------ benchmarks/readme.py itself
PAGE = """\
# A project

Run it:

<!-- readme.py: command main-job -->

    pip install -e . && tool check && tool simulate --games 5 --seed 1 --plot out/

<!-- readme.py: timing -->

It takes about 30 s.

<!-- readme.py: output main-job -->

    old output
    ...

<!-- readme.py: command native-step -->

    pip install -e '.[native]' && tool build-native

<!-- readme.py: command test-suite -->

    pip install -e '.[test]' && pytest -q

The end.
"""

RECORD = {
    "date": "2026-01-02", "commit": "abc1234",
    "commands": {"main-job": "pip install -e . && tool check && tool simulate --games 5 --seed 1 --plot out/",
                 "native-step": "pip install -e '.[native]' && tool build-native",
                 "test-suite": "pip install -e '.[test]' && pytest -q"},
    "machine": {"cores": 2, "cpu": "Some CPU", "load_before": 0.2, "load_after": 1.9, "runtime": "from source",
                "python": {"implementation": "CPython", "version": "3.11.7", "base": "/usr/bin/python3.11",
                           "optimized": True, "shared": False},
                "pip": {"cache": True, "packages": 17, "cached": 17, "local": 0, "downloaded": 0}},
    "runs": {"main-job": {"steps": [{"part": "pip install -e .", "seconds": 23.4, "cpu_seconds": 12.6},
                                    {"part": "tool check", "seconds": 4.0, "cpu_seconds": 3.1},
                                    {"part": "tool simulate --games 5 --seed 1 --plot out/", "seconds": 61.2,
                                     "cpu_seconds": 118.0}],
                          "output": "checked 3 files\n\nsummary: 5 games\n  1234 decisions in 1.5 s\n"},
             "native-step": {"steps": [{"part": "pip install -e '.[native]'", "seconds": 5.0, "cpu_seconds": 3.0},
                                       {"part": "tool build-native", "seconds": 71.6, "cpu_seconds": 140.2}]}},
}


@pytest.fixture()
def fake(tmp_path) -> Page:
    path = tmp_path / "README.md"
    path.write_text(PAGE, encoding="utf-8")
    return Page(path)


def test_update_writes_the_record_into_the_marked_places_only(fake):
    readme.update(RECORD, [fake])
    again = Page(fake.path)
    assert readme.disagreements(RECORD, [again]) == []
    assert again.output("main-job") == "checked 3 files\n\nsummary: 5 games\n  1234 decisions in 1.5 s"
    assert "    checked 3 files\n\n    summary: 5 games\n" in again.text  # (a blank line stays blank)
    assert "about 30 s" not in again.text and "23 s (13 s of processor time)" in " ".join(again.text.split())
    assert again.text.startswith("# A project\n\nRun it:\n") and again.text.endswith("The end.\n")
    readme.update(RECORD, [again])
    assert Page(fake.path).text == again.text  # once written, writing again changes nothing


def test_what_disagrees_with_the_record_is_said(fake):
    fake.path.write_text(PAGE.replace("The end.", "The end, which mentions 3 seconds."), encoding="utf-8")
    problems = readme.disagreements(RECORD, [Page(fake.path)])
    assert "README.md: the main job's output is not the recorded one" in problems
    assert "README.md: the timing paragraph is not the one the record gives" in problems
    assert "README.md: a timing written by hand: '3 seconds'" in problems
    other = {**RECORD, "commands": {**RECORD["commands"], "test-suite": "pytest"}}
    assert any("the command test-suite is" in p for p in readme.disagreements(other, [fake]))


@pytest.mark.parametrize("text", ["about 30 s on two cores", "a minute on one", "takes 1.5 seconds",
                                  "a minute and a half the first time", "well under 5 ms", "half a minute"])
def test_timings_written_by_hand_are_found(fake, text):
    fake.path.write_text(PAGE.replace("The end.", f"The end ({text})."), encoding="utf-8")
    readme.update(RECORD, [Page(fake.path)])
    assert readme.hand_written_timings(Page(fake.path)) != []


def test_no_timing_is_seen_in_counts_that_are_not_times(fake):
    fake.path.write_text(PAGE.replace("The end.", "It plays 20 turns of 130 cards, 9-12% faster, per second."),
                         encoding="utf-8")
    readme.update(RECORD, [Page(fake.path)])
    assert readme.hand_written_timings(Page(fake.path)) == []


def test_a_missing_or_doubled_marker_is_named(fake):
    fake.path.write_text(PAGE.replace("<!-- readme.py: timing -->\n", ""), encoding="utf-8")
    with pytest.raises(ReadmeError, match="expected one line `<!-- readme.py: timing -->`, found 0"):
        readme.update(RECORD, [Page(fake.path)])
    fake.path.write_text(PAGE + "\n<!-- readme.py: command native-step -->\n\n    x\n", encoding="utf-8")
    with pytest.raises(ReadmeError, match="found 2"):
        readme.commands(Page(fake.path))


def test_the_rst_page_is_read_and_written_in_its_own_syntax(tmp_path):
    rst = PAGE.replace("<!-- readme.py: ", ".. readme.py: ").replace(" -->", "")
    rst = rst.replace("\n\n    pip", "\n\n.. code-block:: console\n\n   $ pip").replace(
        "\n\n    old output\n    ...", "\n\n.. code-block:: text\n\n   old output\n   ...")
    path = tmp_path / "quickstart.rst"
    path.write_text(rst, encoding="utf-8")
    assert readme.commands(Page(path)) == RECORD["commands"]
    readme.update(RECORD, [Page(path)])
    page = Page(path)
    assert readme.disagreements(RECORD, [page]) == []
    assert "``tool check`` 4 s (3 s)" in " ".join(page.text.split())
    assert "\n   checked 3 files\n" in page.text


def test_a_command_is_run_only_as_plain_parts():
    assert readme.parts("a -e '.[x]' && b --plot out/") == ["a -e '.[x]'", "b --plot out/"]
    for bad in ("a | b", "a > f", "a; b", "a && ", "a || b"):
        with pytest.raises(ReadmeError):
            readme.parts(bad)


def test_the_prefix_is_the_simulate_part_cut_to_its_first_games():
    command = "pip install -e . && pogdsl simulate campaign --games 200 --seed 1 --plot balance/ --ap greedy"
    assert readme.prefix_arguments(command) == ["simulate", "campaign", "--seed", "1", "--ap", "greedy",
                                                "--games", "2", "--workers", "1", "--json"]
    with pytest.raises(ReadmeError, match="no `pogdsl simulate` part"):
        readme.prefix_arguments("pip install -e .")


def test_wrapping_keeps_code_spans_and_times_whole():
    text = "word " * 10 + "`pogdsl simulate campaign` took 426 s (110 s of processor time) " + "more " * 10
    for width in range(20, 60):
        lines = readme._wrap(text.strip(), width).split("\n")
        assert any("`pogdsl simulate campaign`" in line for line in lines)
        assert any("426 s" in line for line in lines) and any("(110 s" in line for line in lines)
        assert " ".join(lines) == " ".join(text.split())
