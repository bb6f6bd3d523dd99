"""The environment is an optional extra: the core install never imports
PettingZoo or Gymnasium, and without them pogdsl.env says which extra to
install."""

from __future__ import annotations

import subprocess
import sys

from .conftest import REPO


def _python(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=120,
                          check=False)


def test_pogdsl_and_its_command_do_not_import_the_rl_extra():
    proc = _python("import sys, contextlib, io\n"
                   "import pogdsl, pogdsl.cli\n"
                   "with contextlib.redirect_stdout(io.StringIO()):\n"
                   "    pogdsl.cli.main(['simulate', 'campaign', '--games', '1', '--ap', 'random', '--cp', 'random',"
                   " '--workers', '1', '--no-progress'])\n"
                   "print(sorted(m for m in ('pettingzoo', 'gymnasium') if m in sys.modules))")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().splitlines()[-1] == "[]"


def test_without_the_extra_pogdsl_env_names_it():
    proc = _python("import sys; sys.modules['pettingzoo'] = None\n"
                   "import pogdsl.env\n"
                   "try:\n"
                   "    pogdsl.env.aec_env('campaign')\n"
                   "except pogdsl.env.EnvError as err:\n"
                   "    print(err)\n")
    assert proc.returncode == 0, proc.stderr
    assert "pip install 'pogdsl[rl]'" in proc.stdout and "pettingzoo" in proc.stdout
