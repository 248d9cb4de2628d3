"""Atlas's knowledge graph, written through the real API as an agent would, for the tests that
navigate it (tests/pipeline/graph/test_knowledge_navigation.py) and the MCP tools over it
(tests/api/test_mcp_knowledge.py)."""

from signet_pipeline.providers.llm.rules import RulesLlm
from signet_pipeline.stages.extraction.batch import run_jobs
from signet_pipeline.stages.session_summary import run_session_jobs
from signet_pipeline.store.queue import JobQueue
from tests.conftest import settle

TRANSCRIPT = ("user: We decided to deploy Atlas with Helm on Thursdays.\n"
              "user: Priya Sharma owns the Atlas billing service.")


def post(client, path: str, body: dict, headers: dict | None = None) -> dict:
    response = client.post(path, json=body, headers=headers)
    assert response.status_code == 200, response.text
    return response.json()


def claim(content: str, claim_key: str, group: str | None = "schedule") -> dict:
    return {"entityName": "Atlas", "entityType": "project", "aspect": "deployment",
            "attributes": [{"groupKey": group, "claimKey": claim_key, "content": content}]}


def seed_graph(client, svc, *, headers: dict | None = None, session: str = "s-1", visibility: str = "global",
               transcript: str = TRANSCRIPT) -> str:
    """Atlas's graph, one summarized session about it and the facts extracted from the summary;
    returns the summary's id."""
    def remember(content: str, **fields):
        post(client, "/api/memory/remember", {"content": content, "visibility": visibility, **fields}, headers)

    remember("Atlas deploy schedule: Fridays at 16:00", structured={
        "entities": [{"source": "Atlas", "sourceType": "project", "relationship": "uses", "target": "Postgres"}],
        "aspects": [{**claim("Atlas deploys on Fridays", "deploy_day"), "attributes": [
            {"groupKey": "schedule", "claimKey": "deploy_day", "content": "Atlas deploys on Fridays"},
            {"groupKey": "schedule", "claimKey": "deploy_time", "content": "Atlas deploys at 16:00"},
            {"content": "Atlas deploys with Helm charts"}]}]})
    remember("Atlas moved its deploys to Thursdays", structured={"aspects": [claim("Atlas deploys on Thursdays",
                                                                                   "deploy_day")]})
    remember("We decided to never deploy Atlas on Mondays.")
    settle(svc)
    start = {"harness": "claude-code", "sessionKey": session, "project": "/repo/atlas"}
    post(client, "/api/hooks/session-start", start, headers)
    post(client, "/api/hooks/session-end", {"harness": "claude-code", "sessionKey": session, "transcript": transcript,
                                            "visibility": visibility}, headers)
    (report,) = [r for r in run_session_jobs(svc, JobQueue(svc.db), RulesLlm(), 10).reports if r.session_key == session]
    run_jobs(svc, JobQueue(svc.db), RulesLlm(), 50)  # the summary's facts
    settle(svc)
    return report.memory_ids[0]
