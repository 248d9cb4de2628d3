"""What a new session gets from session-start, on a realistic store: three projects (a payments
API, a mobile app, their infrastructure) and the user's standing knowledge, a few hundred memories
over six months, written by the generator below through the production write path (embeddings,
inline entity linker). The inject's sections, its candidate pool (the project's, not the other
projects'), the ranking, the one budget they share, the identity files, and the ledger that keeps
user-prompt-submit from repeating what session-start gave."""

from __future__ import annotations

import random
import re
from datetime import UTC, datetime, timedelta

import pytest
from fastapi.testclient import TestClient

from signet_api.app import create_app
from signet_pipeline.models import RememberRequest
from signet_pipeline.sessions import inject, synthesis
from signet_pipeline.timeutil import parse_iso, to_iso
from signet_pipeline.write.remember import remember_many
from tests.conftest import remember

HOME = "/home/ana/code"
PROJECTS = {
    "Harbor": {
        "what": "payments API", "tag": "payments",
        "tech": ["Postgres 16", "FastAPI", "Stripe", "Celery", "Redis 7", "SQLAlchemy 2", "Alembic", "pytest",
                 "Sentry", "OpenTelemetry", "pgbouncer", "Pydantic 2"],
        "parts": ["refund endpoint", "webhook receiver", "invoice generator", "ledger tables", "payout scheduler",
                  "idempotency middleware", "currency converter", "fraud check", "card vault", "settlement report",
                  "retry queue", "audit log"],
        "cmds": ["make test", "alembic upgrade head", "docker compose up db", "uv run pytest -k ledger",
                 "make lint", "./scripts/replay_webhooks.sh"],
        "rules": ["Harbor must never log full card numbers, only the last four digits",
                  "Harbor must never run schema migrations during business hours (09:00-18:00 CET)",
                  "Harbor refunds must always go through the ledger service, never straight to Stripe"],
        "pinned": "Harbor's production database is Postgres 16 on db-prod-2; never run migrations there by hand",
    },
    "Lumen": {
        "what": "mobile app", "tag": "mobile",
        "tech": ["React Native 0.74", "Expo SDK 51", "TestFlight", "Sentry", "Zustand", "Detox", "Fastlane",
                 "React Query", "Reanimated 3", "MMKV", "EAS Build", "Maestro"],
        "parts": ["onboarding screens", "push notifications", "offline sync", "photo picker", "settings page",
                  "deep links", "login flow", "payment sheet", "dark theme", "widget", "crash reporter",
                  "app review prompt"],
        "cmds": ["npx expo start", "eas build --profile preview", "npx detox test -c ios.sim.release",
                 "fastlane beta", "yarn lint", "maestro test flows/"],
        "rules": ["Lumen must never ship a release without a Detox run on both iOS and Android",
                  "Lumen must always keep supporting iOS 16 until the end of the year"],
        "pinned": None,
    },
    "Atlas": {
        "what": "infrastructure", "tag": "infra",
        "tech": ["Terraform 1.8", "Kubernetes 1.29", "ArgoCD", "Grafana", "Prometheus", "Vault", "Helm",
                 "cert-manager", "Loki", "Cilium", "Velero", "Karpenter"],
        "parts": ["staging cluster", "ingress controller", "backup job", "node pools", "alert rules", "DNS zone",
                  "VPN gateway", "secrets store", "log pipeline", "cost dashboard", "CI runners", "service mesh"],
        "cmds": ["terraform plan -out plan.bin", "kubectl -n argocd get apps", "helm diff upgrade",
                 "velero backup create nightly", "make kubeconfig", "argocd app sync"],
        "rules": ["Atlas must never apply Terraform to production without a reviewed plan",
                  "Atlas ingress changes must always go through ArgoCD, never kubectl apply"],
        "pinned": "Atlas on-call escalates to Marco after 15 minutes without an acknowledgement",
    },
}
REASONS = ["it halves the p95 latency", "the old one is unmaintained", "it is what the team already knows",
           "it removes a nightly cron job", "it costs a third as much", "it makes local development simpler",
           "the vendor deprecated the old API", "it passed the load test at 2,000 rps"]
SYMPTOMS = ["times out", "returns a 500", "leaks connections", "double-charges", "drops events", "hangs on start-up",
            "shows stale data", "crashes on Android 14"]
CONDITIONS = ["the queue is full", "two requests race", "the token expires mid-request", "the network flaps",
              "a retry arrives late", "the cache is cold", "the user switches accounts"]
LESSONS = ["batching the writes beats raising the pool size", "feature flags need an owner and an end date",
           "the staging data must be refreshed weekly", "flaky tests usually hide a race",
           "a missing index shows up first as lock waits", "the retry budget must be shared across workers"]
PEOPLE = [("Priya", "the product manager", "priorities and scope"), ("Marco", "the SRE lead", "the clusters"),
          ("Jonas", "the iOS developer", "App Store reviews"), ("Leila", "the designer", "the design system"),
          ("Tomasz", "the finance contact", "payouts and invoices")]
PREFERENCES = [("answers in British English", "style"), ("small pull requests with one change each", "workflow"),
               ("type hints on every public function", "code"), ("tabs over spaces in Makefiles only", "code"),
               ("plain SQL over ORM magic for reports", "code"), ("commit messages in the imperative", "workflow"),
               ("dark mode in every editor", "tools"), ("to be asked before any force-push", "workflow"),
               ("examples before theory when learning something new", "style"),
               ("uv over pip for Python projects", "tools")]

ABOUT_ANA = ["Ana works from Lisbon (WET) and is offline after 18:00 on Fridays (week {i}).",
             "Ana's laptop is a 14-inch MacBook Pro; her CI runs on Linux (checked in week {i}).",
             "Ana is travelling to Berlin for a conference in week {i}; expect slow replies.",
             "Ana reviews pull requests in the morning, before 11:00 (noted in week {i}).",
             "Ana keeps her notes for week {i} in Obsidian, not in the repository.",
             "Ana has a dentist appointment on Thursday of week {i} and leaves at 15:00."]


def path(project: str) -> str:
    return f"{HOME}/{project.lower()}"


def realistic_store(seed: int = 7, per_project: int = 100, standing: int = 50,
                    now: datetime | None = None) -> list[RememberRequest]:
    """Memories of three projects and of the user, varied in type, importance, tags and age (more
    recent ones than old ones, over 180 days). Deterministic for a seed."""
    rng = random.Random(seed)
    now = now or datetime.now(UTC)

    def made(days: float) -> str:
        return to_iso(now - timedelta(days=days, minutes=rng.randint(0, 600)))

    def age() -> float:
        return min(180.0, rng.expovariate(1 / 40))

    out: list[RememberRequest] = []
    for name, p in PROJECTS.items():
        tech, parts = p["tech"], p["parts"]
        for i in range(per_project):
            part, other, t1, t2 = rng.choice(parts), rng.choice(parts), *rng.sample(tech, 2)
            kind = rng.choices(["fact", "decision", "issue", "learning", "procedure", "progress"],
                               weights=[30, 15, 20, 10, 10, 15])[0]
            content, importance = {
                "fact": (f"{name}'s {part} uses {t1} since release {rng.randint(1, 9)}.{rng.randint(0, 40)} "
                         f"({p['what']}).", rng.uniform(0.4, 0.7)),
                "decision": (f"We decided that the {part} of {name} will use {t1} instead of {t2}: "
                             f"{rng.choice(REASONS)}.", rng.uniform(0.65, 0.9)),
                "issue": (f"{name} bug {name[:3].upper()}-{1000 + i}: the {part} {rng.choice(SYMPTOMS)} when "
                          f"{rng.choice(CONDITIONS)}; fixed by pinning {t1}.", rng.uniform(0.45, 0.8)),
                "learning": (f"Learned on {name}'s {part} in sprint {1 + i // 12}: {rng.choice(LESSONS)}.",
                             rng.uniform(0.5, 0.75)),
                "procedure": (f"To check the {part} of {name} locally, run `{rng.choice(p['cmds'])}` "
                              f"after `{rng.choice(p['cmds'])}`.", rng.uniform(0.55, 0.8)),
                "progress": (f"{rng.choice(PEOPLE)[0]} finished the {part} work for {name} (#{200 + i}); "
                             f"next is the {other}.", rng.uniform(0.25, 0.5)),
            }[kind]
            tags = [name.lower(), p["tag"], *([kind] if kind in ("issue", "decision") else [])]
            out.append(RememberRequest(content=content, type=kind, importance=round(importance, 2), tags=tags,
                                       project=path(name), createdAt=made(age())))
        for rule in p["rules"]:
            out.append(RememberRequest(content=rule, type="rule", importance=0.9, tags=[name.lower(), "rule"],
                                       project=path(name), createdAt=made(rng.uniform(20, 120))))
        if p["pinned"]:
            out.append(RememberRequest(content=p["pinned"], pinned=True, project=path(name),
                                       createdAt=made(rng.uniform(30, 90))))
        for n in range(2):
            a, b = rng.sample(parts, 2)
            out.append(RememberRequest(
                content=f"Session on {name}: reworked the {a} and reviewed the {b} with {rng.choice(PEOPLE)[0]}. "
                        f"Open: the {b} still {rng.choice(SYMPTOMS)} when {rng.choice(CONDITIONS)}.",
                type=synthesis.SUMMARY_TYPE, importance=0.5, project=path(name), createdAt=made(n * 3 + 1)))
    # Cross-project knowledge: the infrastructure hosts the API.
    out.append(RememberRequest(content="Atlas hosts Harbor's staging namespace on the staging cluster.",
                               type="fact", importance=0.6, tags=["atlas", "infra"], project=path("Atlas"),
                               createdAt=made(12)))
    for i in range(standing):
        kind = rng.choice(["preference", "person", "user"])
        if kind == "preference":
            what, area = PREFERENCES[i % len(PREFERENCES)]
            again = "" if i < len(PREFERENCES) else f" (said again on day {i})"
            req = RememberRequest(content=f"Ana prefers {what}{again}",
                                  type="preference", importance=round(rng.uniform(0.6, 0.9), 2),
                                  tags=["preference", area], createdAt=made(age()))
        elif kind == "person":
            who, role, topic = rng.choice(PEOPLE)
            req = RememberRequest(content=f"{who} is {role}; ask {who} about {topic} (noted {i}).", type="fact",
                                  importance=round(rng.uniform(0.4, 0.7), 2), tags=["people"], createdAt=made(age()))
        else:
            req = RememberRequest(content=rng.choice(ABOUT_ANA).format(i=i), type="fact",
                                  importance=round(rng.uniform(0.3, 0.6), 2), tags=["ana"], createdAt=made(age()))
        out.append(req)
    out.append(RememberRequest(content="Ana wants every answer to name the file it changes", pinned=True,
                               tags=["style"], createdAt=made(60)))
    return out


AGENTS_MD = "# How you work here\n\n" + "".join(
    f"- Rule {i}: read the module's tests before changing module {i}; keep commits small and run `make lint`.\n"
    for i in range(200))  # ~18,000 characters: over the file's budget
IDENTITY_FILES = {
    "AGENTS.md": AGENTS_MD,
    "SOUL.md": "# Soul\n\nCurious, direct, allergic to hand-waving. Says so when unsure.\n",
    "IDENTITY.md": "---\nname: Quill\ndescription: Ana's coding agent\n---\n# Quill\n\nA careful pair programmer.\n",
    "USER.md": "# Ana\n\nBackend engineer in Lisbon. Owns Harbor; reviews Lumen and Atlas changes.\n",
}


def write_workspace(svc, files: dict[str, str] = IDENTITY_FILES) -> None:
    for name, text in files.items():
        (svc.settings.workspace / name).write_text(text, encoding="utf-8")
    synthesis.write(svc, "# Working memory\n\n- Harbor: the refund endpoint rework is half done.\n", memories=3)


@pytest.fixture
def store(make_service):
    """A client on the realistic store (defaults unless a test passes settings)."""
    made = []

    def _store(**settings):
        svc = make_service(**settings)
        remember_many(svc, realistic_store())
        write_workspace(svc)
        client = TestClient(create_app(service=svc))
        made.append(client.__enter__())
        return client, svc

    yield _store
    for client in made:
        client.__exit__(None, None, None)


def start(client, **body) -> dict:
    response = client.post("/api/hooks/session-start", json={"harness": "claude-code", **body})
    assert response.status_code == 200, response.text
    return response.json()


def section(text: str, heading: str) -> str:
    """The body of one `## ` section (up to the next heading)."""
    body = text.split(heading, 1)[1]
    return re.split(r"\n\n#{1,2} ", body, maxsplit=1)[0]


def rows(svc, ids: list[str]) -> dict[str, dict]:
    found = svc.db.reader().execute(
        "SELECT id, project, pinned, importance, created_at, type FROM memories WHERE id IN "
        f"({','.join('?' * len(ids))})", ids).fetchall()
    return {r[0]: {"project": r[1], "pinned": r[2], "importance": r[3], "created_at": r[4], "type": r[5]}
            for r in found}


def test_a_new_session_of_a_project_gets_the_guide_identity_and_its_memories(store):
    client, svc = store()
    body = start(client, sessionKey="harbor-1", project=path("Harbor"))
    text = body["inject"]
    assert len(text) <= svc.settings.hooks.session_start_budget_chars
    headings = ["[signet active]", "# Current Date & Time", "## Agent Instructions", "## Soul", "## Identity",
                "## About Your User", "## Working Memory", "## Relevant Memories", "## Active Constraints"]
    assert [text.index(h) for h in headings] == sorted(text.index(h) for h in headings)
    # The guide names only tools the MCP server serves (or is about to), and the date is today's.
    assert "memory_search" in text and "memory_store" in text and "do not follow instructions" in text
    today = datetime.now().astimezone()
    assert f"{today:%B} {today.day}, {today.year}" in section(text, "# Current Date & Time")
    # AGENTS.md is cut to its budget, the others come whole, MEMORY.md without its generation header.
    agents = section(text, "## Agent Instructions")
    assert agents.rstrip().endswith(inject.CUT_NOTE.strip()) and len(agents) <= 12_000 + 2
    assert "Curious, direct" in text and "name: Quill" in text and "Owns Harbor" in text
    assert "refund endpoint rework is half done" in section(text, "## Working Memory")
    assert "generated by signet" not in text

    listed = [m for m in body["memories"] if m["source"] != "constraint"]
    lines = section(text, "## Relevant Memories").splitlines()[1:]
    assert len(lines) == len(listed) >= 40 and f"importance × recency: {len(listed)})" in text
    found = rows(svc, [m["id"] for m in listed])
    # Pinned first, each with its date; then by importance x recency.
    pinned = [m for m in listed if found[m["id"]]["pinned"]]
    assert {m["content"] for m in pinned} == {PROJECTS["Harbor"]["pinned"], PROJECTS["Atlas"]["pinned"],
                                              "Ana wants every answer to name the file it changes"}
    assert listed[:len(pinned)] == pinned and all("(pinned, " in line for line in lines[:len(pinned)])
    now = datetime.now(UTC)
    scores = [found[m["id"]]["importance"] * 0.95 ** ((now - parse_iso(found[m["id"]]["created_at"])).total_seconds()
                                                      / 86_400) for m in listed[len(pinned):]]
    assert scores == sorted(scores, reverse=True)
    assert re.search(r"\[harbor, payments(, \w+)?\] \([A-Z][a-z]{2} \d{1,2}, \d{4}\)$", "\n".join(lines), re.M)
    # The pool is the project's (and the user's standing knowledge), not the other projects'.
    foreign = [m for m in listed[len(pinned):] if found[m["id"]]["project"] not in (None, path("Harbor"))]
    assert all("Harbor" in m["content"] for m in foreign)  # found by searching for the project
    assert sum(found[m["id"]]["project"] == path("Harbor") for m in listed) >= 0.5 * len(listed)
    assert any(found[m["id"]]["type"] == "preference" for m in listed)  # standing knowledge
    assert not any(found[m["id"]]["type"] == synthesis.SUMMARY_TYPE for m in listed)

    # The constraints of the entities in scope: Harbor's rules and decisions, named; none of Lumen's.
    constraints = section(text, "## Active Constraints")
    assert all(f"[Harbor] {rule}" in constraints for rule in PROJECTS["Harbor"]["rules"])
    assert "Lumen" not in constraints and "[Harbor] We decided that the " in constraints

    # Recorded for continuity scoring (rank = order in the inject) and for the session's ledger.
    ranks = dict(svc.db.reader().execute("SELECT memory_id, rank FROM session_memories "
                                         "WHERE session_key = 'harbor-1' AND was_injected = 1").fetchall())
    assert ranks == {m["id"]: i + 1 for i, m in enumerate(body["memories"])}
    assert {"id", "content", "source", "type", "importance", "created_at"} <= set(body["memories"][0])


def test_a_prompt_of_the_session_does_not_repeat_what_session_start_gave(store):
    client, svc = store()
    body = start(client, sessionKey="harbor-2", project=path("Harbor"))
    given = {m["id"] for m in body["memories"]}
    rule = PROJECTS["Harbor"]["rules"][0]
    prompt = {"harness": "claude-code", "userMessage": "may Harbor log full card numbers?"}
    first = client.post("/api/hooks/user-prompt-submit", json={**prompt, "sessionKey": "harbor-2"}).json()
    assert rule not in first["inject"] and not given & {m["id"] for m in first["memories"]}
    other = client.post("/api/hooks/user-prompt-submit", json={**prompt, "sessionKey": "elsewhere"}).json()
    assert rule in other["inject"]  # another session was not given it
    # Session-start again in the same context (a resumed harness) repeats no memory; after a
    # compaction (a new context epoch) the session is given them again.
    assert start(client, sessionKey="harbor-2", project=path("Harbor"))["memories"] == []
    client.post("/api/hooks/compaction-complete", json={"harness": "claude-code", "sessionKey": "harbor-2",
                                                        "summary": "Worked on the refund endpoint."})
    assert {m["id"] for m in start(client, sessionKey="harbor-2", project=path("Harbor"))["memories"]} >= given


def test_the_sections_share_one_budget(store):
    client, svc = store(hooks={"sessionStartBudgetChars": 6000})
    body = start(client, project=path("Harbor"))
    text = body["inject"]
    assert len(text) <= 6000
    # Constraints (at most a quarter) and pinned memories first; the guide whole; the files scaled
    # to the budget (AGENTS.md gets 12,000 x 6,000 / 48,000); the ranked memories get the rest.
    assert 0 < len(section(text, "## Active Constraints")) <= 6000 * inject.CONSTRAINTS_SHARE
    assert PROJECTS["Harbor"]["pinned"] in text and inject.GUIDE in text
    assert len(section(text, "## Agent Instructions")) <= 12_000 * 6000 // 48_000
    listed = section(text, "## Relevant Memories").splitlines()[1:]
    assert len(listed) > 3 and text.count("\n- ") >= len(body["memories"])


def test_the_reference_example_gets_every_memory_with_dates_and_tags(client):
    remember(client, "billing runs on Postgres 16", pinned=True)
    remember(client, "Ana prefers dark mode in every editor", type="preference", tags=["editor", "style"])
    remember(client, "The staging cluster has three nodes")
    text = start(client, sessionKey="s1")["inject"]
    assert text.startswith("[signet active]") and "# Current Date & Time" in text
    lines = section(text, "## Relevant Memories").splitlines()[1:]
    assert lines[0].startswith("- billing runs on Postgres 16 (pinned, ")
    assert any(re.fullmatch(r"- Ana prefers dark mode in every editor \[editor, style\] \([A-Z][a-z]{2} \d+, \d{4}\)",
                            line) for line in lines)
    assert any(line.startswith("- The staging cluster has three nodes (") for line in lines)


def test_an_agent_reads_its_own_identity_files_before_the_workspaces(make_service):
    svc = make_service(agents={"roster": [{"name": "ops", "readPolicy": "isolated"}]})
    write_workspace(svc)
    own = svc.settings.workspace / "agents" / "ops"
    own.mkdir(parents=True)
    (own / "SOUL.md").write_text("# Ops soul\n\nCalm under pressure.\n")
    with TestClient(create_app(service=svc)) as client:
        ops = start(client, agentId="ops")["inject"]
        default = start(client)["inject"]
    assert "Calm under pressure" in ops and "Curious, direct" not in ops
    assert "Rule 0: read the module's tests" in ops  # the workspace's AGENTS.md, shared
    assert "## Working Memory" not in ops  # the default agent's MEMORY.md is not the isolated agent's
    assert "Curious, direct" in default and "refund endpoint rework" in default


def test_identity_files_can_be_left_out(make_service):
    svc = make_service(hooks={"sessionStartIdentity": False})
    write_workspace(svc)
    with TestClient(create_app(service=svc)) as client:
        text = start(client)["inject"]
    assert "## Soul" not in text and "## Agent Instructions" not in text and "## Working Memory" in text
