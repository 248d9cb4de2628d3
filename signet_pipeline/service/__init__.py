"""MemoryService: the process-wide handle the API and the pipeline work through. It owns the
database, the embedder (loaded once per process), what it keeps in memory for search — the vector
matrix mirrored from the embeddings table (vectors), FTS document frequencies (doc_freq), batched
access counters (access) — the write-behind embedder (embed_behind) and the gate that lets
recalls go first (reads_first). May import: analytics,
providers, models, store, text and the base modules; every domain package above builds on it.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from functools import partial

import numpy as np
from threadpoolctl import threadpool_limits

from signet_pipeline import limits
from signet_pipeline.config import Settings
from signet_pipeline.providers.embeddings import EmbeddingProvider, load_embedder
from signet_pipeline.service import index_snapshot
from signet_pipeline.service.access import AccessTracker
from signet_pipeline.service.doc_freq import DocFreqCache
from signet_pipeline.service.embed_behind import EmbeddingWriter
from signet_pipeline.service.reads_first import ReadsFirst
from signet_pipeline.service.vectors import MatrixIndex, SqliteVecIndex
from signet_pipeline.store import agents as agents_store
from signet_pipeline.store import embeddings as emb_store
from signet_pipeline.store import hints as hints_store
from signet_pipeline.store import memories as mem_store
from signet_pipeline.store.db import Database
from signet_pipeline.store.migrate import migrate
from signet_pipeline.telemetry.logs import attach_store, detach_store
from signet_pipeline.telemetry.sink import TelemetrySink
from signet_pipeline.telemetry.sink import install as install_telemetry
from signet_pipeline.telemetry.sink import uninstall as uninstall_telemetry
from signet_pipeline.timeutil import now_iso

QUERY_CACHE_SIZE = 512


class MemoryService:
    def __init__(self, settings: Settings, *, embedder: EmbeddingProvider | None = None, process: str = "service"):
        self.settings = settings
        self.started_at = time.time()
        limits.apply(settings.limits)  # the request models of this process validate against them
        self.db = Database(settings.db_path)
        migrate(self.db)
        if settings.agents.roster:
            with self.db.write() as conn:
                agents_store.sync_roster(conn, [(a.name, a.read_policy, a.group) for a in settings.agents.roster],
                                         now_iso())
        self.db.optimize()
        # This process's `signet.*` log and its telemetry go to the store (bounded rings).
        self.log_handler = attach_store(self.db, process)
        self.telemetry = TelemetrySink(self.db, enabled=settings.pipeline.telemetry_enabled)
        install_telemetry(self.telemetry)
        self.embedder = embedder if embedder is not None else load_embedder(settings.embedding)
        if settings.search.blas_threads:
            # Process-wide: the vector search runs beside FTS5 and beside other requests, so one
            # BLAS thread per search beats two threads fighting over the same cores (bench/).
            threadpool_limits(limits=settings.search.blas_threads, user_api="blas")
        self._index: MatrixIndex | SqliteVecIndex | None = None
        self._index_lock = threading.Lock()
        self.access = AccessTracker(self.db)
        self.doc_freqs = DocFreqCache()
        self.hint_doc_freqs = DocFreqCache(partial(mem_store.stem_doc_counts, table="memory_hints_fts"),
                                           hints_store.documents)
        self.pool = ThreadPoolExecutor(max_workers=4, thread_name_prefix="signet-vector-leg")
        self.reads_first = ReadsFirst(settings.search.reads_first_max_wait_ms)
        self.embed_behind = EmbeddingWriter(self.db, self.embedder, reads_first=self.reads_first) \
            if settings.embedding.write_behind and self.embedder.enabled else None
        self._query_cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._query_cache_lock = threading.Lock()
        self.vector_index()  # create the vec table and warm the matrix now, not on the first recall

    def vector_index(self, *, settle: bool = True) -> MatrixIndex | SqliteVecIndex | None:
        """The index for the current embedder, or None until its dimension is known; vectors
        remembered a moment ago are written first (read your writes) unless `settle` is False
        (recall, which scores its agent's unwritten vectors itself)."""
        if settle and self.embed_behind is not None:
            self.embed_behind.settle()
        if self._index is not None:
            return self._index
        dims = self.embedder.dimensions
        if not dims:
            return None
        with self._index_lock:
            if self._index is None:
                search = self.settings.search
                with self.db.write() as conn:  # vec0 holds sign bits, or float32 copies for its own backend
                    emb_store.ensure_vec_table(conn, dims, self.embedder.model,
                                               "bit" if search.vector_backend == "numpy" else "float")
                index: MatrixIndex | SqliteVecIndex
                if search.vector_backend == "numpy":
                    index = MatrixIndex(self.db, model=self.embedder.model, dimensions=dims,
                                        prefilter_min=search.vector_prefilter_min,
                                        prefilter_candidates=search.vector_prefilter_candidates,
                                        snapshot=index_snapshot.path_for(self.db.path))
                else:
                    index = SqliteVecIndex(self.db, model=self.embedder.model, dimensions=dims)
                index.sync()
                self._index = index
        return self._index

    def cache_query_vector(self, text: str, vector: np.ndarray) -> None:
        """Seed the query cache with a vector computed in a batch (the pipeline embeds all facts
        of a run in one call, then searches with each)."""
        vector.setflags(write=False)
        with self._query_cache_lock:
            self._query_cache[text] = vector
            self._query_cache.move_to_end(text)
            if len(self._query_cache) > QUERY_CACHE_SIZE:
                self._query_cache.popitem(last=False)

    def embed_query(self, text: str) -> np.ndarray:
        """Query vector with a small LRU cache (agents repeat queries). Raises ProviderError."""
        with self._query_cache_lock:
            cached = self._query_cache.get(text)
            if cached is not None:
                self._query_cache.move_to_end(text)
                return cached
        vector = self.embedder.embed_queries([text])[0]
        self.cache_query_vector(text, vector)
        return vector

    def close(self) -> None:
        if self.embed_behind is not None:
            self.embed_behind.close()
        if self._index is not None:
            self._index.close()  # a rebuild in progress stops before the store closes
        self.access.close()
        self.pool.shutdown(wait=True)
        self.embedder.close()
        self.telemetry.close()
        uninstall_telemetry(self.telemetry)
        detach_store(db=self.db)
        self.db.close()
