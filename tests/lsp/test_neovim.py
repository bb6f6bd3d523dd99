"""`pogdsl lsp` in a real editor: Neovim, headless, with no plugin, starts
the server as docs/editors.rst says any LSP client does, and gets what
`pogdsl check` and the rule index say (issue 33: a language server for
editors, not only for the test client).

Neovim is Debian's `neovim` package, installed by .ci/run when the machine
lacks it: the test fails rather than skip without it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SESSION = Path(__file__).with_name("neovim_session.lua")

CARD = """\
card ap 66 'Sacred Way' cites 9.1 {
  "A modder's card, edited in Neovim."
  deck total
  ops 3 sr 4
  event cites 9.1 {
    "Verdun's trench rises a level."
    set trench[Verdun] to trench[Verdun] + 1 cites 11.2.2
    lgo "a misspelt effect"
  }
}
"""


def _cli(*args, cwd):
    env = {k: v for k, v in os.environ.items() if k != "POGDSL_HOME"}
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.run([sys.executable, "-m", "pogdsl.cli", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=600)


def test_neovim_gets_checks_diagnostics_hover_and_definition(tmp_path):
    nvim = shutil.which("nvim")
    assert nvim, "Neovim is not installed: .ci/run installs Debian's `neovim` package"
    mod = tmp_path / "mod"
    card = mod / "cards" / "ap" / "66-sacred-way.pog"
    card.parent.mkdir(parents=True)
    card.write_text(CARD, encoding="utf-8")
    checked = json.loads(_cli("check", "--json", cwd=mod).stdout)["diagnostics"]

    lines = CARD.splitlines()
    fixed = [line.replace('lgo "a misspelt effect"', 'log "dug in" cites 11.2.2') for line in lines]
    rule_line = next(i for i, line in enumerate(lines) if "cites 11.2.2" in line)
    out = tmp_path / "seen.json"
    env = {k: v for k, v in os.environ.items() if k != "POGDSL_HOME"}
    env.update(
        PYTHONPATH=str(ROOT), HOME=str(tmp_path), XDG_CONFIG_HOME=str(tmp_path / "config"),
        XDG_DATA_HOME=str(tmp_path / "data"), XDG_STATE_HOME=str(tmp_path / "state"),
        POG_LSP_CMD=json.dumps([sys.executable, "-m", "pogdsl.cli", "lsp"]), POG_ROOT=str(mod),
        POG_FILE=str(card), POG_OUT=str(out), POG_FIXED_LINES=json.dumps(fixed),
        POG_HOVER_LINE=str(rule_line), POG_HOVER_COL=str(lines[rule_line].index("11.2.2") + 2),
        POG_DEF_LINE=str(rule_line), POG_DEF_COL=str(lines[rule_line].index("trench") + 2),
    )
    done = subprocess.run([nvim, "--headless", "-u", "NONE", "-i", "NONE", "-c", f"luafile {SESSION}"],
                          cwd=mod, env=env, capture_output=True, text=True, timeout=300)
    assert out.exists(), done.stdout + done.stderr
    seen = json.loads(out.read_text(encoding="utf-8"))

    # The diagnostics are check's own: the same message at the same place.
    assert [(d["line"] + 1, d["col"] + 1, d["message"].splitlines()[0]) for d in seen["diagnostics"]] == \
        [(d["line"], d["column"], d["message"]) for d in checked]
    assert seen["cleared"], "fixing the unsaved buffer did not clear the diagnostics"

    # Hover on a rule number: the rule index's title, as `pogdsl rules` gives it.
    title = _cli("rules", "campaign", "11.2.2", cwd=ROOT).stdout.splitlines()[1].split(None, 1)[1]
    hover = seen["hover"]["contents"]["value"]
    assert hover.startswith(f"**rule 11.2.2** — {title}")

    # Go to definition on `trench`: the library's declaration of the marker.
    [target] = seen["definition"] if isinstance(seen["definition"], list) else [seen["definition"]]
    declared = Path(target["uri"].removeprefix("file://"))
    text = declared.read_text(encoding="utf-8").splitlines()[target["range"]["start"]["line"]]
    assert declared.is_relative_to(ROOT) and text.startswith("marker trench ")
