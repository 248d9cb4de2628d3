"""Dagster resources: how assets and sensors reach the store and the providers.

Built from the same settings as the API (agent.yaml + SIGNET_* env of the workspace); each field
left empty means "what the settings say", so an operator can override one thing per run from the
launchpad without editing agent.yaml.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TypeVar

import dagster as dg
from pydantic import BaseModel, Field, PrivateAttr

from signet_pipeline.config import Settings, load_settings
from signet_pipeline.providers.embeddings import EmbeddingProvider, load_embedder
from signet_pipeline.providers.llm import Llm, create_llm
from signet_pipeline.service import MemoryService
from signet_pipeline.store.db import Database
from signet_pipeline.store.migrate import migrate
from signet_pipeline.store.queue import JobQueue

C = TypeVar("C", bound=BaseModel)


def _override(cfg: C, **fields: str) -> C:
    """`cfg` with the non-empty fields replaced, validated again. A new provider without a model
    gets that provider's default model, not the old provider's."""
    given = {k: v for k, v in fields.items() if v}
    if not given:
        return cfg
    if "provider" in given and "model" not in given:
        given["model"] = ""
    return cfg.model_validate({**cfg.model_dump(), **given})


class EmbedderResource(dg.ConfigurableResource):
    """The embedding provider of the derived facts (`embedding.*` in the settings)."""

    provider: str = Field(default="", description="onnx | ollama | openai | none; empty = embedding.provider")
    model: str = Field(default="", description="empty = embedding.model")

    def load(self, settings: Settings) -> EmbeddingProvider:
        return load_embedder(_override(settings.embedding, provider=self.provider, model=self.model))


class LlmResource(dg.ConfigurableResource):
    """The LLM provider of extraction and decisions (`memory.pipelineV2.extraction.*`)."""

    provider: str = Field(default="", description="rules | ollama | openai; empty = extraction.provider")
    model: str = Field(default="", description="empty = extraction.model (or the provider's default)")
    base_url: str = Field(default="", description="empty = extraction.base_url (or the provider's default)")

    def create(self, settings: Settings) -> Llm:
        cfg = _override(settings.pipeline.extraction, provider=self.provider, model=self.model, base_url=self.base_url)
        return create_llm(cfg)


class SignetStoreResource(dg.ConfigurableResource):
    """The Signet workspace whose memory/memories.db the pipeline reads and writes.

    `service()` opens the full memory service (migrations, embedder, vector index) once per run;
    sensors use `database()`, which opens the file alone and never creates or migrates it.
    """

    workspace: str = Field(default="", description="empty = SIGNET_WORKSPACE (or ~/.agents), as for the API")
    embedder: EmbedderResource = Field(default_factory=EmbedderResource)

    _service: MemoryService | None = PrivateAttr(default=None)

    def settings(self) -> Settings:
        return load_settings(self.workspace or None)

    def service(self) -> MemoryService:
        if self._service is None:
            settings = self.settings()
            self._service = MemoryService(settings, embedder=self.embedder.load(settings), process="pipeline")
        return self._service

    def queue(self, owner: str | None = None) -> JobQueue:
        """The job queue; `owner` names the leases (a run id)."""
        worker = self.service().settings.pipeline.worker
        return JobQueue(self.service().db, max_attempts=worker.max_retries, lease_timeout_ms=worker.lease_timeout_ms,
                        owner=owner)

    @contextmanager
    def database(self, *, migrated: bool = False) -> Iterator[Database | None]:
        """The store, or None while no process has created it yet; `migrated` brings an existing
        store's schema up to date first (assets that write tables a newer migration added)."""
        path = self.settings().db_path
        if not path.exists():
            yield None
            return
        db = Database(path)
        try:
            if migrated:
                migrate(db)
            yield db
        finally:
            db.close()

    def teardown_after_execution(self, context: dg.InitResourceContext) -> None:
        if self._service is not None:
            self._service.close()
            self._service = None
