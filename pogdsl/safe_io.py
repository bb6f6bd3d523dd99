"""Reading and writing a user's files safely, and printing text that came
from them: the one reader, writer and escaper every command goes through.

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

Every file a command writes whole (a save, a script, a figure, a graph) goes
through `write_file`: it refuses a directory, a FIFO or a device at the path
(a FIFO would block the writer until someone reads it), writes to a
temporary file in the same folder and renames it over the path only once
every byte is on disk, so a full disk, a file size limit or Ctrl-C midway
leaves the file that was there untouched.  Its errors are `OSError`s with a
one-line `strerror` too ("No space left on device", "File too large").

Text read from saves, scripts, records and sources is printed through
`EscapingStream` (the CLI wraps stdout and stderr in it): control characters
are shown escaped (``\x1b``), so a file cannot clear the screen, move the
cursor, overwrite a line with ``\r`` or reorder it with a bidirectional
override to forge an "OK".
"""

from __future__ import annotations

import errno
import os
import re
import stat
import tempfile
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


# ================================================================ writing
class UnwritableFile(OSError):
    """A path pogdsl will not write to: a directory, a FIFO, a device."""

    def __init__(self, path, reason: str):
        super().__init__(reason)
        self.strerror = reason
        self.filename = str(path)

    def __str__(self) -> str:
        return f"{self.filename}: {self.strerror}"


_WRITE_REASONS = {  # errno → the one-line reason a user reads (strerror's words are terse)
    errno.ENOSPC: "the disk is full (No space left on device)",
    errno.EFBIG: "the file would exceed this process's file size limit (File too large)",
    errno.ENAMETOOLONG: "the file name is longer than the file system allows",
    errno.EDQUOT: "the disk quota is exceeded",
}


def write_problem(path: str | Path) -> str | None:
    """Why a file could not be written at PATH, found without writing
    (a directory, a FIFO, a device, a missing folder, a name too long), or
    None."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        folder = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(folder):
            return f"its folder {os.path.dirname(str(path)) or '.'} does not exist"
        return _name_problem(path, folder)
    except OSError as err:
        return _WRITE_REASONS.get(err.errno) or err.strerror or str(err)
    if stat.S_ISREG(st.st_mode):
        return None
    kind = next((name for test, name in _KINDS if test(st.st_mode)), "not a regular file")
    return f"it is {kind}, not a file pogdsl may replace"


def _name_problem(path, folder: str) -> str | None:
    try:
        limit = os.pathconf(folder, "PC_NAME_MAX")
    except (OSError, ValueError, AttributeError):
        return None
    if len(os.fsencode(os.path.basename(path))) > limit:
        return f"the file name is longer than the {limit} bytes the file system allows"
    return None


def write_file(path: str | Path, data: bytes | str, encoding: str = "utf-8") -> None:
    """Write DATA to PATH whole or not at all: to a temporary file in the
    same folder, flushed to disk, then renamed over PATH (a symbolic link
    is followed: the file it names is replaced).  On any error the temporary
    file is removed and what was at PATH stays as it was.  Raises
    UnwritableFile (not a file), or OSError with a one-line strerror."""
    if isinstance(data, str):
        data = data.encode(encoding)
    target = os.path.realpath(path)
    problem = write_problem(target)
    if problem:
        raise UnwritableFile(path, problem)
    folder = os.path.dirname(target)
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except OSError:
        mode = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=".pogdsl-", suffix=".tmp", dir=folder)
    except OSError as err:
        raise _one_line(err) from None
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.chmod(tmp, mode if mode is not None else 0o666 & ~_umask())
        os.replace(tmp, target)
    except BaseException as err:  # a write error, or Ctrl-C midway: the old file stays
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(err, OSError):
            raise _one_line(err) from None
        raise


def _one_line(err: OSError) -> OSError:
    reason = _WRITE_REASONS.get(err.errno)
    if reason:
        err.strerror = reason
    return err


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_error_text(err: OSError) -> str:
    """An OSError from writing as a one-line reason."""
    return _WRITE_REASONS.get(err.errno) or err.strerror or str(err)


# ================================================================ printing
# C0 controls but newline and tab, DEL, C1 controls, and the bidirectional
# overrides and isolates (which reorder what follows them on the line).
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _escape(match: re.Match) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def escape_controls(text: str, keep_lines: bool = True) -> str:
    """TEXT with every control character written as an escape (``\x1b``);
    with keep_lines False, newlines and tabs too (text bound for one line)."""
    if keep_lines:
        return _CONTROL.sub(_escape, text)
    return _CONTROL.sub(_escape, text).replace("\n", "\\n").replace("\t", "\\t")


class EscapingStream:
    """A text stream that writes to another with control characters
    escaped (escape_controls); everything else it passes through."""

    def __init__(self, raw):
        self.raw = raw

    def write(self, text: str) -> int:
        return self.raw.write(_CONTROL.sub(_escape, text))

    def writelines(self, lines) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name):
        return getattr(self.raw, name)
