"""Reading a user's file safely: the one reader every file of pogdsl goes through.

A path on the command line, in a script or in a save may name anything: a
directory, a FIFO that blocks until someone writes to it, ``/dev/zero`` that
never ends, or a file of gigabytes.  Every reader of sources, scripts and
saves goes through `read_bytes` / `read_text`, which

* refuse anything that is not a regular file (directory, FIFO, device,
  socket), without blocking on it: the file is opened non-blocking and
  checked again once open, so a swap between the check and the open is caught;
* refuse a file larger than the cap of its kind, before reading it, and stop
  reading at the cap should the file grow meanwhile.

The caps (docs/playing.rst, "Files pogdsl reads"):

* a source (`.pog` file, a scenario named by its path): `SOURCE_LIMIT`, 4 MiB —
  the project's largest file is about 32 KB;
* a save or a script (`--load`, `replay`, `--ap script:FILE`): `RECORD_LIMIT`,
  32 MiB — a whole Campaign game saves in about 330 KB.

A refusal is an `UnreadableFile`, an `OSError` whose `strerror` is a one-line
reason, so a caller that reports "cannot read PATH: {err.strerror}" says it
well without knowing this module.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

SOURCE_LIMIT = 4 * 1024 * 1024
RECORD_LIMIT = 32 * 1024 * 1024

_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a device"),
    (stat.S_ISBLK, "a device"),
    (stat.S_ISSOCK, "a socket"),
)


class UnreadableFile(OSError):
    """A file pogdsl will not read: not a regular file, or too large."""

    def __init__(self, path, reason: str):
        super().__init__(reason)
        self.strerror = reason
        self.filename = str(path)

    def __str__(self) -> str:
        return f"{self.filename}: {self.strerror}"


def _size(n: int) -> str:
    if n >= 1024 * 1024:
        return f"{n / (1024 * 1024):.1f} MiB".replace(".0 MiB", " MiB")
    if n >= 1024:
        return f"{n / 1024:.0f} KiB"
    return f"{n} bytes"


def _check_kind(path, mode: int, what: str) -> None:
    if stat.S_ISREG(mode):
        return
    kind = next((name for test, name in _KINDS if test(mode)), "not a regular file")
    raise UnreadableFile(path, f"it is {kind}, not a {what} file" if kind.startswith("a ")
                         else f"it is {kind}")


def _too_large(path, size: str, limit: int, what: str) -> UnreadableFile:
    return UnreadableFile(path, f"it is {size}, more than the {_size(limit)} a {what} file may be")


def read_bytes(path: str | Path, limit: int, what: str) -> bytes:
    """The content of PATH, a regular file of at most LIMIT bytes; WHAT
    ("source", "save", "script") names the kind of file in a refusal.
    Raises UnreadableFile (an OSError) for a refusal, OSError as `open` does
    (missing file, no permission)."""
    _check_kind(path, os.stat(path).st_mode, what)  # never opens a FIFO or a device
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags)
    try:
        st = os.fstat(fd)
        _check_kind(path, st.st_mode, what)  # the file opened is the file checked
        if st.st_size > limit:
            raise _too_large(path, _size(st.st_size), limit, what)
        chunks = []
        left = limit + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1024 * 1024))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        data = b"".join(chunks)
    finally:
        os.close(fd)
    if len(data) > limit:
        raise _too_large(path, f"over {_size(limit)}", limit, what)
    return data


def read_text(path: str | Path, limit: int, what: str, encoding: str = "utf-8") -> str:
    """`read_bytes` decoded (UnicodeDecodeError if it is not ENCODING)."""
    return read_bytes(path, limit, what).decode(encoding)
