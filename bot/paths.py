"""Where the data folders (cards/, rules/) are, from a checkout or from an installed copy."""

from __future__ import annotations

from pathlib import Path

from bot.errors import RefereeError

_PACKAGE = Path(__file__).resolve().parent


class DataFolderMissing(RefereeError):
    key = "common.data_folder_missing"


def data_folder(name: str, override: Path | None = None) -> Path:
    """Return the data folder `name` ("cards" or "rules").

    Order: an explicit setting, the copy installed inside the package, the checkout beside it.
    """
    candidates = [override] if override is not None else [_PACKAGE / "_data" / name, _PACKAGE.parent / name]
    for candidate in candidates:
        if candidate is not None and candidate.is_dir():
            return candidate
    raise DataFolderMissing(
        name=name,
        setting=f"REFEREE_{name.upper()}_DIR",
        tried=", ".join(str(c) for c in candidates if c is not None),
    )
