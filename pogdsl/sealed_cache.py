"""Files of the user's cache folder that nobody else can plant or rewrite.

Every cache of pogdsl (parsed files, the results of `pogdsl check`) is a file
in the cache folder (project.cache_dir), and anyone who can write there could
put a file where pogdsl will look for one.  So a cache file

* holds plain JSON data only, never anything that is run (no pickle): reading
  a planted file can at worst be a miss;
* is sealed: its first line is an HMAC (SHA-256) of its key and its content
  under a secret of this cache folder (`secret`, 32 random bytes, readable by
  its owner only), so a rewritten result, or one copied from another key,
  does not verify and is ignored — the work is done again and the file
  rewritten;
* is read without ever blocking or reading without end: a FIFO, a device or
  a file larger than its cap where a cache file should be is passed over
  (safe_io.read_bytes).

What the seal proves: the content was written by a pogdsl that could read
the secret, for this key.  Someone who can read your secret (you, or root)
can still forge an entry; the secret is refused, and the caches step aside,
when it is not a regular file of yours that only you can read.  Every failure
here is only a missed speed-up, never an error.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import stat
from pathlib import Path

from .project import cache_dir
from .safe_io import read_bytes

SECRET_NAME = "secret"
SECRET_SIZE = 32
_secrets: dict[str, bytes | None] = {}


def _read_secret(path: Path) -> bytes | None:
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return None
    if not stat.S_ISREG(st.st_mode) or st.st_mode & 0o077 or (hasattr(os, "getuid") and st.st_uid != os.getuid()):
        raise PermissionError(f"{path} is not a private file of this user")
    data = read_bytes(path, SECRET_SIZE, "cache secret")
    if len(data) != SECRET_SIZE:
        raise PermissionError(f"{path} is damaged")
    return data


def _new_secret(path: Path) -> bytes | None:
    data = os.urandom(SECRET_SIZE)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags, 0o600)
    except FileExistsError:  # another process made it first: use theirs
        return _read_secret(path)
    try:
        os.write(fd, data)
    finally:
        os.close(fd)
    return data


def secret() -> bytes | None:
    """The secret of the cache folder (made on first use), or None when there
    is no usable one: then nothing is cached."""
    folder = cache_dir()
    if folder is None:
        return None
    path = Path(folder) / SECRET_NAME
    if str(path) not in _secrets:
        try:
            _secrets[str(path)] = _read_secret(path) or _new_secret(path)
        except (OSError, ValueError):
            _secrets[str(path)] = None
    return _secrets[str(path)]


def seal(key: str, content: bytes) -> str | None:
    """The seal of CONTENT stored under KEY, or None without a secret."""
    key_bytes = secret()
    if key_bytes is None:
        return None
    return hmac.new(key_bytes, key.encode() + b"\0" + content, hashlib.sha256).hexdigest()


def read(path: Path, key: str, limit: int) -> bytes | None:
    """The content of the cache file PATH if it is a regular file of at most
    LIMIT bytes whose seal verifies for KEY; None otherwise (a miss)."""
    try:
        data = read_bytes(path, limit, "cache")
    except (OSError, ValueError):
        return None
    head, newline, content = data.partition(b"\n")
    if not newline:
        return None
    expected = seal(key, content)
    if expected is None or not hmac.compare_digest(head, expected.encode()):
        return None
    return content


def write(path: Path, key: str, content: bytes) -> bool:
    """Write CONTENT sealed for KEY to PATH (through a temporary file and a
    rename, so a reader never sees half of it); False if it could not be."""
    mark = seal(key, content)
    if mark is None:
        return False
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as fh:
            fh.write(mark.encode() + b"\n" + content)
        os.replace(tmp, path)
        return True
    except OSError:
        try:
            tmp.unlink()
        except OSError:
            pass
        return False
