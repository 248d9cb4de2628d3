"""The memory.pipelineV2 sections of the settings (worker, extraction, graph, traversal, feedback,
retention, hints, embedding tracker, documents): split from
config.py, which composes them into Settings. `Section` is the base of every settings section:
camelCase keys as agent.yaml writes them, snake_case accepted too, unknown keys ignored."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator
from pydantic.alias_generators import to_camel


class Section(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="ignore")


class WorkerConfig(Section):
    # Dagster sensor interval over memory_jobs (floored at 1 s: a tick is a gRPC call + a query).
    poll_ms: int = Field(2000, ge=100, le=60_000)
    max_retries: int = Field(3, ge=1, le=10)
    lease_timeout_ms: int = Field(300_000, ge=10_000, le=600_000)
    # Jobs leased at a time; a Dagster run leases batch after batch (stages/drain/loop.py).
    batch_size: int = Field(50, ge=1, le=1000)
    # A run stops leasing after this long (its metadata reaches the UI, other runs get a slot) ...
    run_budget_ms: int = Field(120_000, ge=1_000, le=3_600_000)
    # ... or once nothing has been due this long: about what launching the next run would cost.
    run_idle_ms: int = Field(5_000, ge=0, le=300_000)
    # Past runBudgetMs a run draining alone (no other run waits for a slot) carries on while jobs stay
    # due, up to this: ending would only launch the same run again (seconds of CPU, nothing drained).
    run_max_ms: int = Field(600_000, ge=1_000, le=3_600_000)
    # Legacy spelling of extraction.concurrency, used when only it is set.
    concurrency: int | None = Field(None, ge=1, le=32)


_LLM_DEFAULT_MODELS = {"rules": "rules-v1", "ollama": "qwen3:4b", "openai": "gpt-4o-mini"}


class ExtractionConfig(Section):
    """LLM provider of the extraction/decision stages. `rules` is the offline deterministic default."""

    provider: Literal["rules", "ollama", "openai"] = "rules"
    model: str = Field("", description="empty: the provider's default model")
    timeout: int = Field(45_000, ge=5_000, le=300_000, description="ms per LLM call")
    min_confidence: float = Field(0.7, ge=0.0, le=1.0)
    # Jobs in flight inside a drain run with an HTTP model (their calls overlap); the rules
    # provider is CPU-bound Python and runs jobs one at a time.
    concurrency: int = Field(4, ge=1, le=32)
    base_url: str | None = None
    api_key_env: str = "OPENAI_API_KEY"

    @model_validator(mode="after")
    def _default_model(self) -> ExtractionConfig:
        if not self.model:
            self.model = _LLM_DEFAULT_MODELS[self.provider]
        return self

    def resolved_base_url(self) -> str | None:
        if self.base_url:
            return self.base_url.rstrip("/")
        return {"ollama": "http://localhost:11434", "openai": "https://api.openai.com"}.get(self.provider)


class GraphConfig(Section):
    """The knowledge graph: the inline entity linker and recall's graph walk (traversal). The spec's
    graph boost, dampening and embedding reranker are not here: each lowered R@10 (docs/decisions.md)."""

    enabled: bool = True


class TraversalConfig(Section):
    """Graph traversal as a recall path (spec knowledge-graph "Walk Algorithm")."""

    enabled: bool = True
    # The walk is how the memories of the people and things a query names become candidates: wider
    # than the spec's 10 x 20 / 50, as measured (docs/decisions.md "A wider walk than the spec").
    max_aspects_per_entity: int = Field(20, ge=1, le=100)
    max_attributes_per_aspect: int = Field(60, ge=1, le=500)
    max_dependency_hops: int = Field(30, ge=0, le=500)
    min_dependency_strength: float = Field(0.3, ge=0.0, le=1.0)
    timeout_ms: int = Field(500, ge=10, le=10_000)
    max_focal_entities: int = Field(20, ge=1, le=200)
    max_memories: int = Field(100, ge=1, le=5000, description="memories one walk may add as candidates")
    # Share of the result slots kept for flat FTS/vector candidates (the issue: at least 40%).
    flat_slot_share: float = Field(0.4, ge=0.4, le=1.0)


class FeedbackConfig(Section):
    """Aspect feedback at session end (spec "Behavioral Feedback Loop"): injected memories a later
    full-text search of the session hit raise their aspects' weight; aspects nobody confirmed for
    `staleDays` decay, every `decayIntervalSessions` ended sessions of an agent."""

    enabled: bool = True
    delta: float = Field(0.05, ge=0.0, le=1.0, description="weight gained per confirmed memory")
    min_weight: float = Field(0.1, ge=0.0, le=1.0)
    max_weight: float = Field(1.0, ge=0.0, le=1.0)
    stale_days: float = Field(14.0, gt=0.0, le=3650.0)
    decay_rate: float = Field(0.02, ge=0.0, le=1.0)
    decay_interval_sessions: int = Field(5, ge=1, le=10_000)

    @model_validator(mode="after")
    def _bounds(self) -> FeedbackConfig:
        if self.min_weight > self.max_weight:
            raise ValueError("minWeight must not exceed maxWeight")
        return self


class RetentionConfig(Section):
    """Retention sweep (spec "Retention Worker"): six ordered purge steps, each its own short
    transaction capped at batchLimit rows; nothing inside its window is touched."""

    enabled: bool = True
    interval_hours: int = Field(6, ge=1, le=24, description="schedule: every N hours")
    batch_limit: int = Field(500, ge=1, le=100_000)
    tombstone_retention_days: float = Field(30.0, ge=0.0, le=36_500.0)
    history_retention_days: float = Field(180.0, ge=0.0, le=36_500.0)
    completed_job_retention_days: float = Field(14.0, ge=0.0, le=36_500.0)
    dead_job_retention_days: float = Field(30.0, ge=0.0, le=36_500.0)
    # Session checkpoints and the session context ledger.
    checkpoint_retention_days: float = Field(30.0, ge=0.0, le=36_500.0)
    # Session transcripts are lossless (spec) and kept unless this is set; a purged memory's own
    # words are cut from its session's transcript either way.
    transcript_retention_days: float | None = Field(None, ge=0.0, le=36_500.0)
    # Local telemetry events (memory.pipelineV2.telemetryEnabled); the table also keeps at most 100k.
    telemetry_retention_days: float = Field(30.0, ge=0.0, le=36_500.0)
    # Embedding change-log entries kept (in-process vector indexes read it; a reader further
    # behind reloads from the table) and pruned per sweep.
    change_log_keep: int = Field(100_000, ge=1_000, le=10_000_000)
    change_log_batch: int = Field(50_000, ge=1, le=10_000_000)


class SynthesisConfig(Section):
    """MEMORY.md synthesis (`memory.synthesis`): who writes it and how often the pipeline does."""

    harness: str = Field("signet", max_length=100, description="named in /api/hooks/synthesis for a harness")
    model: str = Field("", max_length=200, description="named for a harness; the pipeline uses extraction's")
    schedule: Literal["daily", "weekly", "on-demand"] = "daily"
    max_tokens: int = Field(2_000, ge=100, le=32_000)


class BackupConfig(Section):
    """Daily backups (the `store_backup` asset): a database copy and a Parquet snapshot per day
    under `<workspace>/backups/<day>/`, the newest `keep` days kept."""

    enabled: bool = True
    keep: int = Field(7, ge=1, le=3_650, description="days of backups kept")
    parquet: bool = Field(True, description="also write the portable Parquet snapshot")
    # The schedule backs up the day that just ended, at this time of the next day (server time).
    hour: int = Field(2, ge=0, le=23)
    minute: int = Field(30, ge=0, le=59)


class HintsConfig(Section):
    """Prospective indexing (spec "Prospective Indexing (Hints)"): questions a memory would answer,
    generated after the write and searched beside the content (max-merged, never added). On by
    default, unlike the spec, for what it adds to recall (docs/decisions.md)."""

    enabled: bool = True
    max: int = Field(5, ge=1, le=20, description="hints generated per memory")
    timeout: int = Field(45_000, ge=5_000, le=300_000, description="ms per LLM call")


class EmbeddingTrackerConfig(Section):
    """Embedding refresh (spec "Embedding Tracker"): missing vectors, vectors of an old content hash
    and vectors of another model are re-embedded in small batches."""

    enabled: bool = True
    poll_ms: int = Field(5_000, ge=1_000, le=60_000)
    batch_size: int = Field(8, ge=1, le=20)


class DocumentsConfig(Section):
    """Document ingest (spec "Document Ingest"): chunk windows and the URL fetch size cap."""

    worker_interval_ms: int = Field(10_000, ge=1_000, le=300_000, description="sensor interval")
    chunk_size: int = Field(2_000, ge=200, le=50_000, description="characters per chunk")
    chunk_overlap: int = Field(200, ge=0, le=10_000, description="characters a chunk shares with the previous")
    max_content_bytes: int = Field(10_485_760, ge=1_024, le=104_857_600)
    # Off: a queued URL may not reach this machine or a private network (a document is readable
    # by agents who could not call those services). On only for trusted single-user setups.
    allow_private_urls: bool = False

    @model_validator(mode="after")
    def _overlap(self) -> DocumentsConfig:
        if self.chunk_overlap >= self.chunk_size:
            raise ValueError("chunkOverlap must be smaller than chunkSize")
        return self


class PipelineV2Config(Section):
    enabled: bool = True
    shadow_mode: bool = False
    mutations_frozen: bool = False
    allow_update_delete: bool = False
    graph_enabled: bool = True
    min_fact_confidence_for_write: float = Field(0.7, ge=0.0, le=1.0)
    semantic_contradiction_enabled: bool = False
    semantic_contradiction_timeout_ms: int = Field(45_000, ge=5_000, le=300_000)
    # Local telemetry (/api/telemetry/*): counts, durations and codes into the store; off by default (spec).
    telemetry_enabled: bool = False
    extraction: ExtractionConfig = ExtractionConfig()
    worker: WorkerConfig = WorkerConfig()
    graph: GraphConfig = GraphConfig()
    traversal: TraversalConfig = TraversalConfig()
    feedback: FeedbackConfig = FeedbackConfig()
    retention: RetentionConfig = RetentionConfig()
    hints: HintsConfig = HintsConfig()
    embedding_tracker: EmbeddingTrackerConfig = EmbeddingTrackerConfig()
    documents: DocumentsConfig = DocumentsConfig()

    @property
    def graph_on(self) -> bool:
        """`graph.enabled`, or the legacy flat `graphEnabled` when only it is set."""
        if "enabled" in self.graph.model_fields_set:
            return self.graph.enabled
        return self.graph_enabled

    @property
    def write_confidence_floor(self) -> float:
        """`extraction.minConfidence`; the legacy flat `minFactConfidenceForWrite` when only it is set
        (spec: nested keys take precedence over legacy flat ones)."""
        if "min_confidence" in self.extraction.model_fields_set:
            return self.extraction.min_confidence
        return self.min_fact_confidence_for_write

    @property
    def llm_concurrency(self) -> int:
        """`extraction.concurrency`; the legacy `worker.concurrency` when only it is set."""
        if "concurrency" in self.extraction.model_fields_set or self.worker.concurrency is None:
            return self.extraction.concurrency
        return self.worker.concurrency

    @property
    def write_mode(self) -> Literal["shadow", "controlled", "full"]:
        """Spec "Pipeline Modes": shadow records proposals only; controlled applies ADD (and NONE
        for audit); full also applies UPDATE/DELETE, as supersession."""
        if self.shadow_mode or self.mutations_frozen:
            return "shadow"
        return "full" if self.allow_update_delete else "controlled"
