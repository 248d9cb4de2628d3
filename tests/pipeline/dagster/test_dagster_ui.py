"""What an operator finds in the Dagster UI, asked through the GraphQL API the UI itself reads
(dagster-webserver's schema, served in process): the lineage from the store's tables through every
asset, what each job materializes, the drain runs' observations of memory_jobs, the pop-up the
shipped instance config turns off, where the daily partitions start, a code location that loads
without beta warnings."""

import shutil
import subprocess
import sys
from datetime import UTC, date, datetime, timedelta

import dagster as dg
import pytest
from dagster._core.remote_origin import InProcessCodeLocationOrigin
from dagster._core.types.loadable_target_origin import LoadableTargetOrigin
from dagster._core.workspace.context import WorkspaceProcessContext
from dagster._core.workspace.load_target import InProcessWorkspaceLoadTarget
from dagster_graphql.test.utils import execute_dagster_graphql

from signet_pipeline.defs import store
from signet_pipeline.defs.extraction.assets import memory_pipeline
from signet_pipeline.defs.resources import EmbedderResource, LlmResource, SignetStoreResource
from signet_pipeline.models import RememberRequest
from signet_pipeline.write.remember import remember
from tests.conftest import ROOT

ASSETS = """{ assetNodes { assetKey { path } groupName isExecutable jobNames dependencyKeys { path } } }"""
OBSERVATIONS = """query Observations($key: AssetKeyInput!) { assetOrError(assetKey: $key) { ... on Asset {
  assetObservations { runId timestamp metadataEntries { label
    ... on IntMetadataEntry { intValue } ... on FloatMetadataEntry { floatValue } ... on TextMetadataEntry { text }
  } } } } }"""
PARTITIONS = """query Partitions($key: AssetKeyInput!) { assetNodeOrError(assetKey: $key) { ... on AssetNode {
  partitionKeysByDimension { partitionKeys } } } }"""


@pytest.fixture
def instance():
    with dg.instance_for_test() as inst:
        yield inst


def graphql(instance: dg.DagsterInstance, query: str, variables: dict | None = None) -> dict:
    """One GraphQL query against the code location as the webserver loads it."""
    origin = InProcessCodeLocationOrigin(LoadableTargetOrigin(module_name="signet_pipeline.defs.definitions"))
    with WorkspaceProcessContext(instance, InProcessWorkspaceLoadTarget(origin)) as process:
        return execute_dagster_graphql(process.create_request_context(), query, variables).data


def asset_nodes(instance) -> dict[str, dict]:
    return {"/".join(n["assetKey"]["path"]): n for n in graphql(instance, ASSETS)["assetNodes"]}


# -- lineage -----------------------------------------------------------------------------------------

# The data's way through the pipeline, edge by edge (upstream, downstream).
FLOW = {
    ("memory_jobs", "memory_extractions"), ("memories", "memory_extractions"),
    ("memory_extractions", "memory_decisions"), ("memory_decisions", "derived_facts"),
    ("derived_facts", "entity_graph"), ("memories", "entity_graph"), ("entity_graph", "entity_structure"),
    ("entity_graph", "entity_communities"), ("entity_structure", "entity_communities"),
    ("derived_facts", "memory_hints"), ("memories", "embeddings"), ("derived_facts", "embeddings"),
    ("memories", "embedding_refresh"), ("embedding_refresh", "embeddings"), ("embedding_backfill", "embeddings"),
    ("embeddings", "embedding_projection"), ("connector_sync", "documents"), ("documents", "document_ingest"),
    ("memory_jobs", "document_ingest"), ("document_ingest", "memories"), ("session_transcripts", "session_summaries"),
    ("memory_jobs", "session_summaries"), ("session_summaries", "memories"), ("memories", "memory_md"),
    ("memories", "reextracted_facts"), ("memories", "store_backup"), ("memory_jobs", "retention_sweep"),
}


def test_the_lineage_reads_as_the_pipeline_runs_and_each_job_still_runs_its_own_assets(instance):
    nodes = asset_nodes(instance)
    edges = {("/".join(d["path"]), key) for key, n in nodes.items() for d in n["dependencyKeys"]}
    assert FLOW - edges == set()
    assert {upstream for upstream, _ in edges} <= nodes.keys()  # no dependency on an asset nobody defines
    # Only what the API alone writes starts the graph: the queue and the kept transcripts.
    assert sorted(key for key, n in nodes.items() if not n["dependencyKeys"]) == ["memory_jobs", "session_transcripts"]
    tables = {key for key, n in nodes.items() if n["groupName"] == "store"}
    assert tables == {"memories", "embeddings", "entity_graph", "documents", "session_transcripts"}
    assert not any(nodes[key]["isExecutable"] for key in tables | {"memory_jobs"})  # Dagster never writes them
    # Dependencies are lineage only (deps, no inputs): what each job, and so each sensor, runs is unchanged.
    jobs: dict[str, set[str]] = {}
    for key, node in nodes.items():
        for job in node["jobNames"]:
            if not job.startswith("__"):
                jobs.setdefault(job, set()).add(key)
    assert jobs == {
        "process_memories": {"memory_extractions", "memory_decisions", "derived_facts", "entity_structure",
                             "memory_hints"},
        "ingest_documents": {"document_ingest"}, "sync_connectors": {"connector_sync"},
        "summarize_sessions": {"session_summaries"}, "synthesize_memory_md": {"memory_md"},
        "detect_communities": {"entity_communities"}, "refresh_embeddings": {"embedding_refresh"},
        "backfill_embeddings": {"embedding_backfill"}, "project_embeddings": {"embedding_projection"},
        "retention": {"retention_sweep"}, "maintenance": {"maintenance_cycle"}, "backup": {"store_backup"},
    }


# -- the drain runs' observations of memory_jobs ------------------------------------------------------

def test_a_drain_run_records_the_backlog_it_met_and_left_on_memory_jobs(svc, workspace, instance):
    """A burst drained between two ticks of queue_backlog_sensor: no tick saw it, the run did."""
    for i in range(30):
        remember(svc, RememberRequest(content=f"Service number {i} listens on port {3000 + i}."))
    resources = {"signet": SignetStoreResource(workspace=str(workspace), embedder=EmbedderResource()),
                 "llm": LlmResource()}
    run = dg.materialize([memory_pipeline], resources=resources, instance=instance)
    assert run.success
    found = graphql(instance, OBSERVATIONS, {"key": {"path": ["memory_jobs"]}})["assetOrError"]["assetObservations"]
    assert {o["runId"] for o in found} == {run.run_id}

    def values(observation: dict) -> dict:
        return {e["label"]: next((e[k] for k in ("intValue", "floatValue", "text") if k in e), None)
                for e in observation["metadataEntries"]}

    start, end = sorted((values(o) for o in found), key=lambda v: v["observed_by"] != "drain run start")
    assert (start["observed_by"], end["observed_by"]) == ("drain run start", "drain run end")
    assert start["drain_queues"] == "extract+structural_classify+prospective_index"
    assert start["depth"] == start["drain_depth"] == start["due"] == 60  # 30 extract + 30 hint jobs
    assert (start["extract_depth"], start["prospective_index_depth"]) == (30, 30)
    assert (end["depth"], end["drain_depth"], end["drain_start_depth"]) == (0, 0, 60)
    assert end["drain_jobs"] >= 60 and end["drain_stopped"] == "empty"  # with the jobs extraction queued
    assert end["drain_seconds"] > 0 and end["drain_jobs_per_s"] == pytest.approx(
        end["drain_jobs"] / end["drain_seconds"], rel=0.05)
    assert end["drain_rate_per_s"] > 0  # the backlog's own rate, the sensor's plot, now has points


# -- instance config, partitions, warnings --------------------------------------------------------------

def test_the_shipped_instance_shows_no_community_popup(tmp_path, monkeypatch):
    shutil.copy(ROOT / "dagster.yaml", tmp_path / "dagster.yaml")
    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path))
    with dg.DagsterInstance.get() as shipped:
        assert graphql(shipped, "{ shouldShowNux }") == {"shouldShowNux": False}


def test_partitions_start_where_the_stores_data_starts(instance):
    """As this process loaded them: from the days of the environment's workspace store."""
    def first_key(asset: str) -> str | None:
        node = graphql(instance, PARTITIONS, {"key": {"path": [asset]}})["assetNodeOrError"]
        return next(iter(node["partitionKeysByDimension"][0]["partitionKeys"]), None)

    memory_day, store_day = store.data_days()
    assert first_key("reextracted_facts") == first_key("embedding_backfill") == memory_day
    # The day before the store's first: on that first day, the day that ended can be backed up.
    assert first_key("store_backup") == (date.fromisoformat(store_day) - timedelta(days=1)).isoformat()


def test_the_stores_data_days_are_its_oldest_memory_and_its_creation(make_service, workspace, monkeypatch):
    today = datetime.now(UTC).date().isoformat()
    monkeypatch.setenv("SIGNET_WORKSPACE", str(workspace))
    assert store.data_days() == (today, today)  # no store yet
    svc = make_service()
    assert store.data_days() == (today, today)
    remember(svc, RememberRequest(content="An imported memory from last spring", createdAt="2025-03-14T10:00:00Z"))
    assert store.data_days() == ("2025-03-14", today)  # back-dated memories; the store itself is new


def test_the_code_location_loads_without_beta_warnings():
    loaded = subprocess.run([sys.executable, "-W", "always", "-c", "import signet_pipeline.defs.definitions"],
                            capture_output=True, text=True, timeout=120)
    assert loaded.returncode == 0, loaded.stderr
    assert "BetaWarning" not in loaded.stderr
