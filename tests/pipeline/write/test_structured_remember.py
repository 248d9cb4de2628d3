"""remember with a `structured` payload: the caller's relations, aspect attributes (groupKey /
claimKey supersession) and hints are written as given, and the memory skips LLM extraction."""

from __future__ import annotations

from fastapi.testclient import TestClient

from signet_api.app import create_app
from signet_pipeline.auth.tokens import TokenScope, issue, load_or_create_secret
from signet_pipeline.store import jobs as job_store
from signet_pipeline.store.queue import EXTRACT, PROSPECTIVE_INDEX
from tests.conftest import recall, remember


def q(svc, sql, *params):
    return svc.db.reader().execute(sql, params).fetchall()


def test_structured_knowledge_is_written_as_given_and_skips_extraction(client, svc):
    saved = remember(client, "Nicholai moved the Signet daemon to the new Hetzner box", structured={
        "entities": [{"source": "Signet", "sourceType": "project", "relationship": "runs on", "target": "Hetzner",
                      "targetType": "system", "confidence": 0.9}],
        "aspects": [{"entityName": "Signet", "entityType": "project", "aspect": "infrastructure", "attributes": [
            {"groupKey": "hosting", "claimKey": "daemon_host", "content": "The daemon runs on the Hetzner box"}]}],
        "hints": ["Where does the Signet daemon run?", "bad"],
    })
    assert saved["structured"] == {"relations": 1, "triples_rejected": 0, "aspects": 1, "attributes": 1,
                                   "superseded": 0, "skipped": 0, "hints": 1}
    types = dict(q(svc, "SELECT canonical_name, entity_type FROM entities"))
    assert types["signet"] == "project" and types["hetzner"] == "system"
    assert q(svc, "SELECT group_key, claim_key, status FROM entity_attributes") == [("hosting", "daemon_host",
                                                                                     "active")]
    assert q(svc, "SELECT hint, model FROM memory_hints") == [("Where does the Signet daemon run?", "structured")]
    jobs = job_store.counts_by_type(svc.db.reader())
    assert EXTRACT not in jobs and PROSPECTIVE_INDEX not in jobs  # the caller did that work
    assert q(svc, "SELECT extraction_status FROM memories WHERE id = ?", saved["id"]) == [("none",)]
    # The hint is searchable like a generated one.
    assert recall(client, "Where does the daemon run?")["results"][0]["id"] == saved["id"]


def test_an_aspect_of_a_short_named_person_the_agent_knows_is_kept(client, svc):
    # "Jon" speaks in a turn, so he is the agent's person; "Al" is nobody yet: too short to resolve (spec).
    remember(client, "Jon: I've opened a dance studio downtown.")
    aspect = {"aspect": "work", "attributes": [{"content": "Runs a dance studio downtown"}]}
    saved = remember(client, "Jon runs the studio; Al helps.", structured={
        "aspects": [{"entityName": "Jon", **aspect}, {"entityName": "Al", **aspect}]})
    assert (saved["structured"]["aspects"], saved["structured"]["skipped"]) == (1, 1)
    assert q(svc, "SELECT e.canonical_name, e.entity_type FROM entity_attributes t JOIN entities e "
                  "ON e.id = t.entity_id WHERE t.memory_id = ?", saved["id"]) == [("jon", "person")]


def test_a_claim_supersedes_only_its_own_group_and_claim(client, svc):
    def claim(content, claim_key, group="hosting"):
        remember(client, content, structured={"aspects": [{"entityName": "Signet", "aspect": "infrastructure",
                                                            "attributes": [{"groupKey": group, "claimKey": claim_key,
                                                                            "content": content}]}]})

    claim("The daemon runs on the Hetzner box", "daemon_host")
    claim("Backups go to the B2 bucket", "backup_target")
    claim("The staging daemon runs on a laptop", "daemon_host", group="staging")
    claim("The daemon runs on the OVH box", "daemon_host")
    status = dict(q(svc, "SELECT content, status FROM entity_attributes"))
    assert status == {"The daemon runs on the Hetzner box": "superseded", "Backups go to the B2 bucket": "active",
                      "The staging daemon runs on a laptop": "active", "The daemon runs on the OVH box": "active"}
    (by,) = q(svc, "SELECT superseded_by FROM entity_attributes WHERE status = 'superseded'")[0]
    assert q(svc, "SELECT content FROM entity_attributes WHERE id = ?", by) == [("The daemon runs on the OVH box",)]


def test_bad_structured_payloads_are_client_errors(client):
    for structured in ({"entities": [{"source": "A"}]}, {"aspects": [{"entityName": "X", "aspect": "a",
                                                                      "attributes": [{"content": ""}]}]},
                       {"hints": ["q?"] * 21}, {"entities": "nope"}):
        response = client.post("/api/memory/remember",
                               json={"content": "Structured input check", "structured": structured})
        assert response.status_code == 422 and response.json()["error"]["code"] == "invalid_request", structured


def test_codex_native_notes_are_files_for_local_callers_only(make_service, tmp_path):
    local = make_service(hooks={"codex_home": str(tmp_path / "codex")})
    with TestClient(create_app(service=local)) as client:
        written = client.post("/api/memory/codex-native-note", json={"content": "Prefer ripgrep over grep here.",
                                                                     "title": "Search tools", "tags": "codex,note"})
        assert written.status_code == 200 and written.json()["ok"] is True
        path = written.json()["path"]
        assert path.startswith(str(tmp_path / "codex" / "memories" / "extensions" / "ad_hoc" / "notes"))
        text = open(path, encoding="utf-8").read()
        assert text.startswith("# Search tools\ntags: codex,note\n") and "Prefer ripgrep over grep here." in text
        too_long = client.post("/api/memory/codex-native-note", json={"content": "x" * 8001})
        assert too_long.status_code == 422
    team = make_service(auth={"mode": "hybrid"}, hooks={"codex_home": str(tmp_path / "codex2")})
    with TestClient(create_app(service=team), client=("10.0.0.9", 5000)) as remote:
        token = issue(load_or_create_secret(team.settings.auth_secret_path), sub="bot", role="admin",
                      scope=TokenScope(), ttl_s=60)[0]
        refused = remote.post("/api/memory/codex-native-note", json={"content": "remote note"},
                              headers={"authorization": f"Bearer {token}"})
        assert refused.status_code == 403 and refused.json()["error"]["code"] == "local_only"
    assert not (tmp_path / "codex2").exists()


def test_a_backfilled_claim_older_than_the_current_one_arrives_superseded(client, svc):
    def claim(content, created_at=None):
        body = {"structured": {"aspects": [{"entityName": "Signet", "aspect": "infrastructure", "attributes": [
            {"groupKey": "hosting", "claimKey": "daemon_host", "content": content}]}]}}
        return remember(client, content, **body, **({"createdAt": created_at} if created_at else {}))

    claim("The daemon runs on the OVH box")
    claim("The daemon ran on the Hetzner box", created_at="2024-01-01T00:00:00Z")
    status = dict(q(svc, "SELECT content, status FROM entity_attributes"))
    assert status == {"The daemon runs on the OVH box": "active", "The daemon ran on the Hetzner box": "superseded"}


def test_a_retried_structured_remember_still_lands_its_knowledge(client, svc):
    first = remember(client, "Signet ships a Dagster pipeline")
    again = remember(client, "Signet ships a Dagster pipeline", structured={"hints": ["What does Signet ship with?"]})
    assert again["deduped"] is True and again["id"] == first["id"] and again["structured"]["hints"] == 1
    blank = client.post("/api/memory/remember", json={"content": "Blank aspect check", "structured": {
        "aspects": [{"entityName": "Signet", "aspect": "   "}]}})
    assert blank.status_code == 422
