"""One structured log for every Signet process (API, CLI, Dagster runs).

`configure_logging` sets the process's log level and format on stderr, as before, and adds a
handler that buffers each `signet.*` record at INFO or above and writes them to the store's
bounded `log_entries` ring once a second, from a daemon thread (buffer.py). /api/logs reads that ring, so the
pipeline's entries appear beside the API's; Dagster keeps its own run logs as well. A record's
`extra` fields that are numbers, flags or short identifiers travel with it (never free text).
"""

from __future__ import annotations

import json
import logging
import os
from typing import Any

from signet_pipeline.store import analytics as analytics_store
from signet_pipeline.store.db import Database
from signet_pipeline.telemetry.buffer import BufferedWriter
from signet_pipeline.timeutil import now_iso

KEEP = 10_000
LEVELS = {"debug": logging.DEBUG, "info": logging.INFO, "warning": logging.WARNING, "warn": logging.WARNING,
          "error": logging.ERROR, "critical": logging.CRITICAL}
FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
_STANDARD = set(logging.LogRecord("", 0, "", 0, "", None, None).__dict__) | {"message", "asctime"}


def level_name(level: int) -> str:
    return logging.getLevelName(level).lower()


def _fields(record: logging.LogRecord) -> dict[str, Any] | None:
    extra = {k: v for k, v in record.__dict__.items() if k not in _STANDARD and not k.startswith("_")
             and (isinstance(v, bool | int | float) or (isinstance(v, str) and len(v) <= 80))}
    return extra or None


class StoreLogHandler(logging.Handler):
    def __init__(self, db: Database, process: str, level: int = logging.INFO):
        super().__init__(level)
        self.db = db
        self.process = process
        self._buffer = BufferedWriter(self._write, name="signet-log-writer")

    def _write(self, entries: list[tuple[int, str, str, str | None, str, str]]) -> None:
        try:
            with self.db.write() as conn:
                analytics_store.append_logs(conn, entries, keep=KEEP)
        except Exception:  # noqa: BLE001 - the stderr log still has them
            pass

    def emit(self, record: logging.LogRecord) -> None:
        if self._buffer.on_writer_thread:
            return  # the writer's own trouble must not feed itself
        try:
            message = record.getMessage()
            if record.exc_info and record.exc_info[1] is not None:
                message = f"{message}: {type(record.exc_info[1]).__name__}: {record.exc_info[1]}"
            fields = _fields(record)
            category = record.name.removeprefix("signet.") if record.name != "signet" else "signet"
            self._buffer.add((record.levelno, category, message[:2000], json.dumps(fields) if fields else None,
                              self.process, now_iso()))
        except Exception:  # noqa: BLE001 - logging must never raise into the caller
            self.handleError(record)

    def flush(self) -> None:
        self._buffer.flush()

    def close(self) -> None:
        self._buffer.close()
        super().close()


def configure_logging(level: str = "info") -> None:
    """The process's stderr log: one format and level for API, CLI and pipeline. The level is set
    on the stderr handler too: the store handler lets `signet.*` INFO records through to the ring
    even when stderr shows only warnings."""
    chosen = LEVELS.get(level.lower(), logging.INFO)
    logging.basicConfig(level=chosen, format=FORMAT)
    for handler in logging.getLogger().handlers:
        handler.setLevel(chosen)


def attach_store(db: Database, process: str | None = None) -> StoreLogHandler:
    """Send this process's `signet.*` records to the store's log ring (replacing an earlier
    handler of this process, e.g. a service opened again)."""
    logger = logging.getLogger("signet")
    detach_store(logger)
    handler = StoreLogHandler(db, process or f"{os.getpid()}")
    logger.addHandler(handler)
    if logger.level == logging.NOTSET or logger.level > logging.INFO:
        logger.setLevel(logging.INFO)
    return handler


def detach_store(logger: logging.Logger | None = None, db: Database | None = None) -> None:
    """Remove the store handler (only the one writing to `db`, when given)."""
    logger = logger or logging.getLogger("signet")
    for handler in list(logger.handlers):
        if isinstance(handler, StoreLogHandler) and (db is None or handler.db is db):
            logger.removeHandler(handler)
            handler.close()
