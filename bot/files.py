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


# -- writing a file a user named ------------------------------------------------------------------

# SQLite keeps a database's unsaved pages beside it under these suffixes: writing over one of them
# is as bad as writing over the database itself.
_SIDECARS = ("", "-wal", "-shm", "-journal")


class OutputFileError(RefereeError):
    """`problem` is a key under common.file (exists, protected, not_regular, unwritable)."""

    key = "common.file.unwritable"

    def __init__(self, path: Path | str, problem: str, **extra: object) -> None:
        super().__init__(f"common.file.{problem}", path=str(path), **extra)


def write_new_text(path: Path | str, text: str, *, force: bool = False, protect: tuple[Path | str, ...] = ()) -> None:
    """Write `text` as UTF-8 to a file the user named. An existing file is replaced only with `force`
    (and only when it is a regular file); a path that is, under any name, one of the `protect`ed files
    (the database the command reads, with its -wal/-shm/-journal) is refused even then."""
    path = Path(path)
    for guarded in protect:
        if any(_same_file(path, Path(f"{guarded}{suffix}")) for suffix in _SIDECARS):
            raise OutputFileError(path, "protected")
    data = text.encode("utf-8")
    try:
        if not force:
            # O_EXCL: the check that nothing is there and the creation are one step.
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            try:
                _write_all(fd, data)
            finally:
                os.close(fd)
            return
        try:
            existing = os.stat(path)
        except FileNotFoundError:
            existing = None
        if existing is not None and not stat.S_ISREG(existing.st_mode):
            raise OutputFileError(path, "not_regular")
        # A whole new file moved into place: a failed write leaves the old one as it was.
        temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        try:
            _write_all(fd, data)
        finally:
            os.close(fd)
        try:
            os.replace(temp, path)
        except BaseException:
            temp.unlink(missing_ok=True)
            raise
    except FileExistsError:
        raise OutputFileError(path, "exists") from None
    except (OSError, ValueError) as exc:
        raise OutputFileError(path, "unwritable", reason=_reason(exc)) from None


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _same_file(a: Path, b: Path) -> bool:
    """Whether two paths name one file: the same resolved path, or the same inode (a hard link)."""
    try:
        if a.resolve() == b.resolve():
            return True
        sa, sb = os.stat(a), os.stat(b)
    except (OSError, RuntimeError, ValueError):
        return False
    return (sa.st_dev, sa.st_ino) == (sb.st_dev, sb.st_ino)
