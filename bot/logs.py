"""Logging, configured once at start from REFEREE_LOG_LEVEL.

Modules log through `logging.getLogger(__name__)` with `extra` fields (channel, game, action) where
they apply; the format prints the ones a record carries. Secrets (seeds, hands, deck orders, the
token) are never passed to a logger.
"""

from __future__ import annotations

import logging
import sys

CONTEXT_FIELDS = ("shard", "channel", "game", "version", "action", "user")


class _ContextFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        context = " ".join(f"{name}={getattr(record, name)}" for name in CONTEXT_FIELDS if hasattr(record, name))
        return f"{line} [{context}]" if context else line


def configure_logging(level: str = "INFO") -> None:
    """Send the referee's log lines to stderr at `level` (a name: DEBUG, INFO, WARNING, ERROR, CRITICAL)."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_ContextFormatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger("bot")
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    root.propagate = False
