from datetime import UTC, datetime, timedelta

from signet_pipeline.recall.reads import decayed_importance
from signet_pipeline.store.db import scalar
from signet_pipeline.store.memories import DECAYED_IMPORTANCE_SQL
from signet_pipeline.timeutil import to_iso
from tests.conftest import remember


def test_decay_formula_and_pinned_memories():
    now = datetime(2026, 3, 1, tzinfo=UTC)
    row = {"pinned": 0, "importance": 0.8, "last_accessed": None, "updated_at": to_iso(now - timedelta(days=10))}
    assert abs(decayed_importance(row, 0.95, now) - 0.8 * 0.95 ** 10) < 1e-9
    row["last_accessed"] = to_iso(now - timedelta(days=1))  # a recall resets the timer
    assert abs(decayed_importance(row, 0.95, now) - 0.8 * 0.95) < 1e-9
    assert decayed_importance({**row, "pinned": 1}, 0.95, now) == 1.0


def test_sql_and_python_decay_agree(client, svc):
    memory_id = remember(client, "decaying memory", importance=0.6)["id"]
    when = datetime.now(UTC) + timedelta(days=12)
    with svc.db.write() as conn:
        conn.execute("UPDATE memories SET last_accessed = ? WHERE id = ?",
                     (to_iso(datetime.now(UTC) - timedelta(days=3)), memory_id))
    conn = svc.db.reader()
    in_sql = scalar(conn, f"SELECT {DECAYED_IMPORTANCE_SQL} FROM memories m WHERE id = :id",
                    {"id": memory_id, "decay_rate": 0.9, "now": to_iso(when)})
    row = {k: scalar(conn, f"SELECT {k} FROM memories WHERE id = ?", (memory_id,))
           for k in ("pinned", "importance", "last_accessed", "updated_at")}
    assert abs(in_sql - decayed_importance(row, 0.9, when)) < 1e-6
    assert abs(in_sql - 0.6 * 0.9 ** 15) < 1e-3
