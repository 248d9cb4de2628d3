"""Read-only views of the settings for GET /api/features and GET /api/config: which features are
on, and every effective setting (defaults < agent.yaml < SIGNET_* env) with anything that looks
like a credential redacted."""

from __future__ import annotations

import re
from typing import Any

from signet_pipeline.config import CONFIG_FILE, Settings

REDACTED = "[redacted]"
_SECRET_PARTS = frozenset({"secret", "token", "password", "passwd", "credential", "credentials", "apikey"})
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def is_secret_name(key: str) -> bool:
    """Whether a setting's value is a credential, by its name's words (`apiKey`, `auth_secret`).
    `*Env` settings hold the NAME of an env var, not its value, and stay visible."""
    parts = _CAMEL.sub("_", key).lower().split("_")
    if parts[-1] == "env":
        return False
    joined = {a + b for a, b in zip(parts, parts[1:])}
    return bool(_SECRET_PARTS & (set(parts) | joined))


def features(settings: Settings) -> dict[str, bool]:
    pipeline = settings.pipeline
    return {
        "pipeline": pipeline.enabled, "shadowMode": pipeline.write_mode == "shadow",
        "mutationsFrozen": pipeline.mutations_frozen, "allowUpdateDelete": pipeline.allow_update_delete,
        "embeddings": settings.embedding.provider != "none", "graph": pipeline.graph_on,
        "traversal": pipeline.graph_on and pipeline.traversal.enabled, "hints": pipeline.hints.enabled,
        "feedback": pipeline.feedback.enabled,
        "retention": pipeline.retention.enabled, "embeddingTracker": pipeline.embedding_tracker.enabled,
        "autonomousRepairs": settings.autonomous.enabled and not settings.autonomous.frozen,
        "semanticContradiction": pipeline.semantic_contradiction_enabled,
    }


def redact(value: Any, key: str = "") -> Any:
    if isinstance(value, dict):
        return {k: redact(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [redact(v, key) for v in value]
    if key and is_secret_name(key) and value not in (None, ""):
        return REDACTED
    return value


def effective_config(settings: Settings) -> dict[str, Any]:
    config_file = settings.workspace / CONFIG_FILE
    return {
        "workspace": str(settings.workspace),
        "files": [{"path": str(config_file), "exists": config_file.exists()}],
        "settings": redact(settings.model_dump(mode="json", by_alias=True, exclude={"workspace"})),
    }
