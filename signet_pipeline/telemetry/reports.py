"""What the API answers from the telemetry and log rings (more-endpoints "Telemetry, logs")."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from typing import Any

import numpy as np

from signet_pipeline.store import analytics as analytics_store
from signet_pipeline.store.db import Database
from signet_pipeline.telemetry.logs import LEVELS, level_name


def _event(row: dict[str, Any]) -> dict[str, Any]:
    return {"event": row["event"], "properties": json.loads(row["properties"]), "timestamp": row["created_at"]}


def events(db: Database, *, enabled: bool, event: str | None, since: str | None, until: str | None,
           limit: int) -> dict[str, Any]:
    found = analytics_store.telemetry(db.reader(), event=event, since=since, until=until, limit=limit)
    return {"events": [_event(r) for r in found], "enabled": enabled}


def export_lines(db: Database, *, since: str | None, limit: int) -> Iterator[str]:
    for row in reversed(analytics_store.telemetry(db.reader(), event=None, since=since, until=None, limit=limit)):
        yield json.dumps(_event(row), separators=(",", ":")) + "\n"


def _percentiles(values: list[float]) -> tuple[float | None, float | None]:
    if not values:
        return None, None
    p50, p95 = np.percentile(np.asarray(values, dtype=np.float64), [50, 95])
    return round(float(p50), 2), round(float(p95), 2)


def stats(db: Database, *, enabled: bool, since: str | None) -> dict[str, Any]:
    rows = analytics_store.telemetry_since(db.reader(), since)
    llm_ms: list[float] = []
    recall_ms: list[float] = []
    recall_types: Counter[str] = Counter()
    llm = {"calls": 0, "errors": 0, "totalInputTokens": 0, "totalOutputTokens": 0}
    by_stage: Counter[str] = Counter()
    by_code: Counter[str] = Counter()
    for row in rows:
        props = json.loads(row["properties"])
        if row["event"] == "llm.generate":
            llm["calls"] += 1
            llm["errors"] += not props.get("ok", True)
            llm["totalInputTokens"] += props.get("inputTokens") or 0
            llm["totalOutputTokens"] += props.get("outputTokens") or 0
            llm_ms.append(props.get("durationMs", 0.0))
        elif row["event"] == "recall.performed":
            recall_ms.append(props.get("latencyMs", 0.0))
            recall_types[props.get("type", "unknown")] += 1
        elif row["event"] == "pipeline.error":
            by_stage[props.get("stage", "unknown")] += 1
            by_code[props.get("code", "unknown")] += 1
    l50, l95 = _percentiles(llm_ms)
    r50, r95 = _percentiles(recall_ms)
    return {"enabled": enabled, "totalEvents": len(rows), "llm": {**llm, "p50": l50, "p95": l95},
            "recall": {"calls": len(recall_ms), "p50": r50, "p95": r95,
                       "byType": [{"type": t, "calls": n} for t, n in recall_types.most_common()]},
            "pipelineErrors": sum(by_stage.values()), "pipelineErrorsByStage": dict(by_stage),
            "pipelineErrorsByCode": dict(by_code)}


def log_entry(row: dict[str, Any]) -> dict[str, Any]:
    return {"id": row["id"], "level": level_name(row["level"]), "category": row["category"],
            "message": row["message"], "at": row["at"], "process": row["process"],
            **({"fields": json.loads(row["fields"])} if row["fields"] else {})}


def logs(db: Database, *, limit: int, level: str | None, category: str | None, since: str | None) -> dict[str, Any]:
    found = analytics_store.logs(db.reader(), min_level=LEVELS.get((level or "debug").lower(), 0),
                                 category=category, since=since, after_id=0, limit=limit)
    return {"logs": [log_entry(r) for r in found], "count": len(found)}


def logs_after(db: Database, after_id: int, *, level: str | None, category: str | None,
               limit: int = 500) -> list[dict[str, Any]]:
    return [log_entry(r) for r in analytics_store.logs(
        db.reader(), min_level=LEVELS.get((level or "debug").lower(), 0), category=category, since=None,
        after_id=after_id, limit=limit)]


def last_log_id(db: Database) -> int:
    return analytics_store.last_log_id(db.reader())
