"""Repair actions through the API: what each does, and the policy gate (frozen, role, cooldown,
hourly budget) with its audit trail."""

from fastapi.testclient import TestClient

from signet_api.app import create_app
from tests.conftest import remember


def test_requeue_dead_runs_once_then_cools_down_and_is_audited(client, svc):
    job_id = remember(client, "The nightly export failed twice")["jobId"]
    with svc.db.write() as conn:
        conn.execute("UPDATE memory_jobs SET status = 'dead', attempts = 3 WHERE id = ?", (job_id,))
    done = client.post("/api/repair/requeue-dead", json={"reason": "provider is back"})
    assert done.status_code == 200 and done.json()["result"] == {"requeued": 1}
    assert client.get(f"/api/memory/jobs/{job_id}").json()["status"] == "pending"
    audit = svc.db.reader().execute("SELECT event, reason, changed_by FROM memory_history WHERE memory_id = 'system'")
    assert list(audit) == [("repair", "provider is back", "api")]

    again = client.post("/api/repair/requeue-dead")
    assert again.status_code == 429
    error = again.json()["error"]
    assert error["code"] == "repair_cooldown" and 0 < error["retryAfterS"] <= 60
    outcomes = [r["outcome"] for r in client.get("/api/repair").json()["runs"]]
    assert outcomes == ["denied", "executed"]


def test_hourly_budget_counts_runs_across_processes(make_service):
    svc = make_service(repair={"defaultCooldownMs": 1000, "defaultHourlyBudget": 2})
    with svc.db.write() as conn:  # two runs by another process ten minutes ago
        for _ in range(2):
            conn.execute("INSERT INTO repair_runs(action, outcome, created_at) VALUES ('check-fts', 'executed', "
                         "strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-10 minutes'))")
    with TestClient(create_app(service=svc)) as client:
        denied = client.post("/api/repair/check-fts")
    assert denied.status_code == 429 and denied.json()["error"]["code"] == "repair_budget_exhausted"


def test_frozen_stops_everything_and_agents_need_autonomy(make_service):
    frozen = make_service(autonomous={"frozen": True})
    with TestClient(create_app(service=frozen)) as client:
        response = client.post("/api/repair/release-leases")
    assert response.status_code == 503 and response.json()["error"]["code"] == "repair_frozen"

    closed = make_service(autonomous={"enabled": False})
    with TestClient(create_app(service=closed)) as client:
        as_agent = client.post("/api/repair/release-leases", headers={"x-signet-actor-type": "agent"})
        as_operator = client.post("/api/repair/release-leases")
    assert as_agent.status_code == 403 and as_agent.json()["error"]["code"] == "repair_forbidden"
    assert as_operator.status_code == 200


def test_check_fts_reports_drift_and_rebuilds_only_when_asked(client, svc):
    for i in range(5):
        remember(client, f"Searchable note number {i} about the harbour ferry")
    with svc.db.write() as conn:
        conn.execute("INSERT INTO memories_fts(memories_fts) VALUES ('delete-all')")
    report = client.post("/api/repair/check-fts").json()["result"]
    assert report["mismatch"] == 1.0 and not report["rebuilt"]
    with svc.db.write() as conn:  # let the cooldown pass
        conn.execute("UPDATE repair_runs SET created_at = ?", ("2020-01-01T00:00:00.000Z",))
    fixed = client.post("/api/repair/check-fts", json={"repair": True}).json()["result"]
    assert fixed["rebuilt"]
    assert client.post("/api/memory/recall", json={"query": "harbour ferry"}).json()["results"]
    assert client.get("/api/diagnostics/index").json()["status"] == "healthy"


def test_unknown_action_and_bad_body(client):
    assert client.post("/api/repair/format-disk").json()["error"]["code"] == "unknown_repair"
    bad = client.post("/api/repair/check-fts", json={"repair": "maybe"})
    assert bad.status_code == 422
