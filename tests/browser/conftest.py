"""Fixtures for the browser tests: `pogdsl serve` clicked in a real Chromium.

Playwright drives the system's Chromium (Debian's `chromium` package at
/usr/bin/chromium, or the file POGDSL_CHROMIUM names): Playwright's own
browser builds cannot be downloaded on this project's machines, so
`playwright install` is never run.  A missing browser or a missing Playwright
*fails* the test with what to install, never skips it: CI (.ci/run installs
Chromium) cannot pass without having clicked.

Each test gets its own server (`serve`, or `view` for the replay viewer),
started as a subprocess on a free port (a served game with a fixed seed, so
the same clicks play the same game) and killed after the test.  Each page is screenshot when its test ends, and
`snapshot(page, name)` keeps one mid-test; the pictures go to
`<pytest basetemp>/browser-artifacts/` (or the folder POGDSL_TEST_ARTIFACTS
names), printed at the end of the run.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("POGDSL_CHROMIUM", "/usr/bin/chromium")
SEED = 7  # every served game starts from it, so the same clicks give the same game

# Without the networking switches Chromium's own background connections (updates,
# sync, QUIC probes) are refused on a closed network and slow every page down.
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
VIEWPORT = {"width": 1600, "height": 1000}
SERVER_START_SECONDS = 90  # compiling the Campaign on a busy two-core machine
ARTIFACTS_KEY = pytest.StashKey[Path]()


def _sync_playwright():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("the browser tests need Playwright: pip install -e '.[test]' "
                    "(its browsers are not needed: do not run `playwright install`)", pytrace=False)
    return sync_playwright


@pytest.fixture(scope="module")
def chromium():
    """One headless Chromium a test module; Playwright gives every launch a
    fresh user-data folder of its own, so no profile carries over.  (Not one
    for the session: Playwright's sync API keeps an asyncio loop running in
    the main thread while it is open, and the tests after these —
    prompt_toolkit's, pytest-lsp's — start loops of their own.)"""
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(f"the browser tests need Chromium at {CHROMIUM}: apt-get install chromium "
                    "(.ci/run does), or set POGDSL_CHROMIUM to another Chromium", pytrace=False)
    with _sync_playwright()() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture(scope="session")
def artifacts(tmp_path_factory, pytestconfig) -> Path:
    """The folder the screenshots go to."""
    folder = Path(os.environ.get("POGDSL_TEST_ARTIFACTS") or tmp_path_factory.getbasetemp() / "browser-artifacts")
    folder.mkdir(parents=True, exist_ok=True)
    pytestconfig.stash[ARTIFACTS_KEY] = folder
    return folder


def _file_name(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-")[:120]


@pytest.fixture
def snapshot(request, artifacts):
    """snapshot(page, name): keep a screenshot of what the page shows now
    (its viewport: a full-page shot of a bare SVG document never ends),
    named after the test and `name`."""
    def take(page, name: str) -> Path:
        path = artifacts / f"{_file_name(request.node.name)}--{_file_name(name)}.png"
        page.screenshot(path=str(path), timeout=20_000)
        return path
    return take


@pytest.fixture
def context(chromium):
    """A browser context of its own (cookies, storage) for the test."""
    ctx = chromium.new_context(viewport=VIEWPORT)
    yield ctx
    ctx.close()


@pytest.fixture
def page(context, snapshot):
    """A page whose uncaught script errors fail the test, screenshot at its end."""
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda err: errors.append(str(err)))
    pg.script_errors = errors
    yield pg
    if not pg.is_closed():
        try:
            snapshot(pg, "end")
        except Exception as err:  # a page that crashed still lets the test report why
            print(f"no screenshot: {err}", file=sys.stderr)
    assert not errors, f"the page raised script errors: {errors}"


# ------------------------------------------------------------ the server
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """A `pogdsl serve` (or `view`) subprocess and the address it answers on."""

    def __init__(self, args: list[str], log_path: Path):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        self.command = [sys.executable, "-m", "pogdsl.cli", *args, "--port", str(self.port)]
        self.log_path = log_path
        self._log = open(log_path, "wb")
        self.proc = subprocess.Popen(self.command, cwd=REPO, stdout=self._log, stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL)
        self._wait_until_it_answers()

    def output(self) -> str:
        self._log.flush()
        return self.log_path.read_text(errors="replace")

    def _wait_until_it_answers(self) -> None:
        deadline = time.monotonic() + SERVER_START_SECONDS
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                self.stop()
                pytest.fail(f"`{' '.join(self.command[2:])}` ended with status {self.proc.returncode} "
                            f"before answering:\n{self.output()}", pytrace=False)
            try:
                with urllib.request.urlopen(self.url, timeout=2):
                    return
            except urllib.error.HTTPError:
                return  # it answers, even if not with a page: the test says what it expected
            except OSError:
                time.sleep(0.1)
        self.stop()
        pytest.fail(f"`{' '.join(self.command[2:])}` did not answer within {SERVER_START_SECONDS} s:\n"
                    f"{self.output()}", pytrace=False)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._log.close()


@pytest.fixture
def servers(tmp_path):
    """start(*args): run `pogdsl ARGS --port N` on a free port and return the
    Server once it answers; every server is stopped after the test."""
    started: list[Server] = []

    def start(*args: str) -> Server:
        server = Server(list(args), tmp_path / f"server-{len(started)}.log")
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


@pytest.fixture
def serve(servers):
    """serve(*args, seed=SEED): `pogdsl serve ARGS --seed SEED`, answering."""
    return lambda *args, seed=SEED: servers("serve", *args, "--seed", str(seed))


@pytest.fixture
def view(servers):
    """view(FILE, *args): `pogdsl view FILE ARGS`, answering."""
    return lambda *args: servers("view", *map(str, args))


def pytest_terminal_summary(terminalreporter, config):
    folder = config.stash.get(ARTIFACTS_KEY, None)
    if folder is not None and any(folder.iterdir()):
        terminalreporter.write_line(f"browser screenshots: {folder}")
