"""A realistic store for session start: three projects (a payments API, a mobile app, their
infrastructure) and the user's standing knowledge, a few hundred memories over six months, plus the
workspace's identity files. Used by tests/pipeline/sessions/test_session_start.py and the session-start and
hook benchmarks."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from signet_pipeline.models import RememberRequest
from signet_pipeline.sessions import synthesis
from signet_pipeline.timeutil import to_iso

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
