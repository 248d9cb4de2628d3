"""SQL for provider_outcomes: a ring of each provider's latest call outcomes."""

from __future__ import annotations

import apsw

from signet_pipeline.store.db import Row, rows


def record(conn: apsw.Connection, *, provider: str, model: str, outcomes: list[tuple[str, float, str | None]],
           now: str, keep: int) -> None:
    """Append (outcome, latency ms, error) rows, then drop the provider's entries beyond the newest `keep`."""
    conn.executemany(
        "INSERT INTO provider_outcomes(provider, model, outcome, latency_ms, error, created_at) VALUES (?, ?, ?, ?, ?, ?)",
        [(provider, model, outcome, round(ms, 2), error, now) for outcome, ms, error in outcomes])
    conn.execute("DELETE FROM provider_outcomes WHERE provider = ? AND id <= "
                 "(SELECT id FROM provider_outcomes WHERE provider = ? ORDER BY id DESC LIMIT 1 OFFSET ?)",
                 (provider, provider, keep))


def summary(conn: apsw.Connection) -> list[Row]:
    """Per provider: calls in the ring by outcome, median latency proxy, the last error."""
    return rows(conn, """
        SELECT provider, max(model) AS model, count(*) AS calls,
               sum(outcome = 'success') AS successes, sum(outcome = 'failure') AS failures,
               sum(outcome = 'timeout') AS timeouts, round(avg(latency_ms), 1) AS mean_latency_ms,
               max(created_at) AS last_call_at,
               (SELECT error FROM provider_outcomes p2 WHERE p2.provider = p.provider AND p2.error IS NOT NULL
                ORDER BY id DESC LIMIT 1) AS last_error
        FROM provider_outcomes p GROUP BY provider ORDER BY provider""")
