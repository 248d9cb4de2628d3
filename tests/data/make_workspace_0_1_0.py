"""How tests/data/workspace-0.1.0-memories.db.gz was made: a workspace written by the 0.1.0 build.

    git worktree add /tmp/old01 e64a581
    PYTHONPATH=/tmp/old01 .venv/bin/python tests/data/make_workspace_0_1_0.py /tmp/ws010 /tmp/out/memories.db
    gzip -9 -c /tmp/out/memories.db > tests/data/workspace-0.1.0-memories.db.gz

Not collected by pytest (no test_ prefix); kept so the fixture can be remade."""
import sys
from pathlib import Path

from fastapi.testclient import TestClient

import signet_pipeline
from signet_api.app import create_app
from signet_pipeline.config import load_settings
from signet_pipeline.service import MemoryService

print("building with", signet_pipeline.__file__, signet_pipeline.__version__)
ws = Path(sys.argv[1]); ws.mkdir(parents=True, exist_ok=True)
svc = MemoryService(load_settings(ws))
with TestClient(create_app(service=svc), base_url="http://127.0.0.1") as c:
    facts = ["Ada prefers tabs over spaces in Python code.", "The billing service runs on Postgres 16.",
             "Grace moved the weekly standup to Tuesdays at 9:30.", "We decided to ship the mobile app in March.",
             "Linus keeps the deploy runbook in the ops wiki.", "critical: [home]: The spare key hangs behind the garage door"]
    ids = [c.post("/api/memory/remember", json={"content": f, "tags": ["seed"], "project": "demo"}).json()["id"] for f in facts]
    c.post("/api/memory/remember", json={"content": "Billing deploys freeze on Fridays.", "pinned": True})
    c.post("/api/memory/remember", json={"content": "a2 keeps its own notes private.", "agentId": "a2", "visibility": "private"})
    c.patch(f"/api/memory/{ids[1]}", json={"content": "The billing service runs on Postgres 16.2.", "reason": "more precise"})
    c.delete(f"/api/memory/{ids[3]}", params={"reason": "plan changed"})
    c.post("/api/hooks/session-start", json={"harness": "claude-code", "sessionKey": "s-010", "project": "demo"})
    c.post("/api/hooks/session-end", json={"harness": "claude-code", "sessionKey": "s-010", "transcript": "user: where is the key?\nassistant: behind the garage door"})
    c.post("/api/documents", json={"content": "Runbook: restart billing with systemctl restart billing.", "title": "runbook"})
svc.close()
import apsw

src = ws / "memory" / "memories.db"
conn = apsw.Connection(str(src)); conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
out = Path(sys.argv[2]); out.parent.mkdir(parents=True, exist_ok=True); out.unlink(missing_ok=True)
conn.execute(f"VACUUM INTO '{out}'"); conn.close()
print(out, out.stat().st_size)
