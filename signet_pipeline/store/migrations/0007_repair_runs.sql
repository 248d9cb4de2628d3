-- Repair actions (spec "Diagnostics and Repair"): every request, executed or denied by the policy
-- gate. The gate's cooldown and hourly budget read it, so they hold across processes and restarts.
CREATE TABLE IF NOT EXISTS repair_runs (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    action     TEXT NOT NULL,
    outcome    TEXT NOT NULL CHECK (outcome IN ('executed', 'denied', 'failed')),
    actor      TEXT,
    actor_type TEXT,
    reason     TEXT,
    result     TEXT,
    created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS idx_repair_runs_action ON repair_runs(action, outcome, created_at);
