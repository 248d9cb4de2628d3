"""Dagster code location for the Signet pipeline (referenced by workspace.yaml and `signet up`).

Gathers each domain's Definitions (defs/<domain>/__init__.py) with the store's tables (store.py) and
the shared resources.
Every run executes in one process (in-process executor): the memory service (embedder, vector
index) loads once per run. Queue-driven runs drain their queue batch after batch
(stages/drain/loop.py); the sensors launch one when jobs are due and none is in flight.
"""

from __future__ import annotations

import dagster as dg

from signet_pipeline.defs import (
    diagnostics,
    documents,
    embeddings,
    extraction,
    graph,
    maintenance,
    queue,
    sessions,
)
from signet_pipeline.defs.resources import EmbedderResource, LlmResource, SignetStoreResource
from signet_pipeline.defs.store import TABLES

defs = dg.Definitions.merge(
    queue.defs, extraction.defs, documents.defs, sessions.defs, graph.defs, embeddings.defs, maintenance.defs,
    diagnostics.defs,
    dg.Definitions(
        assets=TABLES,  # the store's tables: where the assets' data comes from (store.py)
        resources={"signet": SignetStoreResource(embedder=EmbedderResource()), "llm": LlmResource()},
        executor=dg.in_process_executor,
    ),
)
