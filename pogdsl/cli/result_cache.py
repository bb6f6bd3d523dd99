"""The result cache of `pogdsl check`.

Checking is a pure function of the sources, the options and pogdsl itself, so
when none of them changed the previous answer is the answer: the printed
output and the exit status are replayed without parsing or checking anything.
The key covers

* every input file, by path as shown and by content (SHA-256 of its bytes),
  the installed library's among them when the project extends it;
* the project's settings (ROOT/pyproject.toml, `[tool.pogdsl]`, and the
  installed library's);
* the options that change the output, the project root and the current folder
  (paths are shown relative to it);
* pogdsl itself: every file of the package (code, grammar, tables) by content,
  so an upgrade or a local edit of the checker is never answered from an old
  result.

Any file that cannot be read, any missing path, any failure of the cache makes
it step aside: the check then runs as if there were no cache.  A result is
plain JSON, sealed with its key (sealed_cache.py): one rewritten by hand,
copied from another key or planted, or a FIFO in its place, is not replayed —
the check runs and writes it again.
"""

from __future__ import annotations

import hashlib
import json
import os
from functools import lru_cache
from pathlib import Path

from .. import __version__, sealed_cache
from ..project import cache_dir, expand, find_root, library_files, settings_files
from ..safe_io import SOURCE_LIMIT, read_bytes

FORMAT = "pogdsl-check-result/2"
RESULT_LIMIT = 64 * 1024 * 1024  # a stored result larger than this is not one of ours
KEEP = 64  # results kept; the oldest go first


@lru_cache(maxsize=1)
def toolchain_digest() -> str:
    package = Path(__file__).resolve().parents[1]
    digest = hashlib.sha256(f"{FORMAT}\0{__version__}".encode())
    for path in sorted(package.rglob("*")):
        if path.suffix in (".py", ".lark", ".json") and path.is_file():
            digest.update(str(path.relative_to(package)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def key_for(args) -> str | None:
    """The key of this invocation, or None when it should not be cached."""
    try:
        root = (args.root or find_root()).resolve()
        # (the library as seen from ROOT: the installed library's files, by
        # their absolute paths, when ROOT extends it; so a result from one
        # install or one root is never replayed for another)
        files = library_files(root) if not args.standalone else []
        if args.paths:
            found, missing = expand([Path(p) for p in args.paths])
            if missing or not found:
                return None  # a usage error: let the check report it
            files.extend(found)
        if not files:
            return None  # nothing to check: a usage error, worked out afresh each time
        files.extend(settings_files(root))  # [tool.pogdsl] settings change what is reported
        digest = hashlib.sha256(toolchain_digest().encode())
        options = [args.json, args.quiet, args.strict, args.standalone, str(root), os.getcwd(), list(args.paths)]
        digest.update(json.dumps(options).encode())
        for path in files:
            data = read_bytes(path, SOURCE_LIMIT, "source")  # a FIFO or /dev/zero: no key, the check refuses it
            digest.update(b"\0" + str(path).encode() + b"\0" + hashlib.sha256(data).digest())
        return digest.hexdigest()
    except OSError:
        return None


def _folder() -> Path | None:
    folder = cache_dir()
    if folder is None:
        return None
    folder = folder / "check"
    try:
        folder.mkdir(exist_ok=True)
    except OSError:
        return None
    return folder


def lookup(key: str) -> dict | None:
    folder = _folder()
    if folder is None:
        return None
    content = sealed_cache.read(folder / f"{key}.json", key, RESULT_LIMIT)
    if content is None:
        return None
    try:
        result = json.loads(content)
    except (ValueError, RecursionError):
        return None
    if not isinstance(result, dict) or result.get("format") != FORMAT or result.get("key") != key:
        return None
    if not all(isinstance(result.get(k), t) for k, t in (("stdout", str), ("stderr", str), ("exit", int))):
        return None
    return result


def store(key: str, stdout: str, stderr: str, exit_status: int) -> None:
    folder = _folder()
    if folder is None:
        return
    data = {"format": FORMAT, "key": key, "stdout": stdout, "stderr": stderr, "exit": exit_status}
    if not sealed_cache.write(folder / f"{key}.json", key, json.dumps(data).encode()):
        return  # a result that cannot be kept is only a missed speed-up
    try:
        results = sorted(folder.glob("*.json"), key=lambda p: p.lstat().st_mtime)
        for old in results[:-KEEP]:
            old.unlink(missing_ok=True)
    except OSError:
        pass
