"""Reading a text file a user names, bounded: a regular file of UTF-8 text of at most a
given size. Anything else (a directory, a device such as /dev/zero, a pipe, a larger file,
bytes that are not UTF-8) is refused with the reason, read no further.

>>> import tempfile, os
>>> with tempfile.NamedTemporaryFile("w", delete=False) as f:
...     _ = f.write("twelve bytes")
>>> read_text(f.name, 12, ValueError)
'twelve bytes'
>>> read_text(f.name, 11, ValueError)
Traceback (most recent call last):
...
ValueError: larger than 11 bytes (12)
>>> read_text("/dev/zero", 11, ValueError)
Traceback (most recent call last):
...
ValueError: not a regular file
>>> os.unlink(f.name)
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path

__all__ = ["read_text"]


def read_text(path: str | Path, limit: int, refuse: Callable[[str], Exception]) -> str:
    """The text of the file at ``path``; otherwise raises ``refuse(reason)``."""
    try:
        # O_NONBLOCK: opening a pipe does not wait for a writer; no effect on files.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as error:
        raise refuse(error.strerror or str(error)) from None
    except ValueError as error:  # a NUL byte in the name
        raise refuse(str(error)) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise refuse("not a regular file")
        if info.st_size > limit:
            raise refuse(f"larger than {limit} bytes ({info.st_size})")
        # the size it has and a byte more (one small buffer, not one of the limit's size
        # per file), then to the end, or past the limit if the file grew meanwhile
        data = os.read(fd, info.st_size + 1)
        while len(data) <= limit:
            more = os.read(fd, limit + 1 - len(data))
            if not more:
                break
            data += more
    except OSError as error:
        raise refuse(error.strerror or str(error)) from None
    finally:
        os.close(fd)
    if len(data) > limit:
        raise refuse(f"larger than {limit} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        byte = data[error.start]
        raise refuse(f"not UTF-8 text (byte 0x{byte:02x} at offset {error.start})") from None
