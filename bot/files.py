"""Reading a file a user named: only a regular file, only up to a size limit, only UTF-8.

Every path that comes from a user (a script, a verify log, a card or deck file, a position, a .env)
goes through here, so `/dev/zero` cannot fill memory, a FIFO cannot hang the command, and a file
that is not text gives the project's own error instead of a traceback.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from bot.errors import RefereeError

# Large enough for any real script, log or card file; small enough that reading it is instant.
DEFAULT_LIMIT = 8 * 1024 * 1024


class InputFileError(RefereeError):
    """`problem` is a key under common.file (missing, not_regular, too_large, not_utf8, unreadable)."""

    key = "common.file.unusable"

    def __init__(self, path: Path | str, problem: str, **extra: object) -> None:
        super().__init__(f"common.file.{problem}", path=str(path), **extra)


def read_bytes(path: Path | str, *, limit: int = DEFAULT_LIMIT) -> bytes:
    """The file's bytes; refuses anything but a regular file of at most `limit` bytes."""
    try:
        # O_NONBLOCK: opening a FIFO with no writer would otherwise wait for ever before fstat sees it.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except FileNotFoundError:
        raise InputFileError(path, "missing") from None
    except (OSError, ValueError) as exc:
        raise InputFileError(path, "unreadable", reason=_reason(exc)) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise InputFileError(path, "not_regular")
        if info.st_size > limit:
            raise InputFileError(path, "too_large", limit=limit)
        chunks: list[bytes] = []
        size = 0
        while chunk := os.read(fd, 1 << 16):
            size += len(chunk)
            if size > limit:  # the file grew while we read it
                raise InputFileError(path, "too_large", limit=limit)
            chunks.append(chunk)
        return b"".join(chunks)
    except OSError as exc:
        raise InputFileError(path, "unreadable", reason=_reason(exc)) from None
    finally:
        os.close(fd)


def read_text(path: Path | str, *, limit: int = DEFAULT_LIMIT) -> str:
    """The file as UTF-8 text (a leading BOM dropped); refuses what `read_bytes` refuses and non-UTF-8."""
    data = read_bytes(path, limit=limit)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputFileError(path, "not_utf8", offset=exc.start) from None


def _reason(exc: BaseException) -> str:
    return (exc.strerror if isinstance(exc, OSError) else None) or type(exc).__name__
