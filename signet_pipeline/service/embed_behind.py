"""Write-behind embedding for single remembers (spec memory-system: "The FTS5 index is updated
synchronously. An embedding is generated asynchronously."): remember commits the row and answers;
this writer's thread embeds what was remembered meanwhile in one provider call (a burst of
concurrent remembers shares it) and stores the vectors in one short transaction.

Reads that search vectors first wait for the writer to settle (MemoryService.vector_index), so a
recall right after a remember still finds the new memory by meaning. A crash before the vector is
written leaves the memory without one, which the embedding refresh stage looks for; a failing
provider leaves it keyword-searchable, as a failed synchronous embedding did.
"""

from __future__ import annotations

import logging
import threading

from signet_pipeline import analytics
from signet_pipeline.errors import ProviderError
from signet_pipeline.providers.embeddings import EmbeddingProvider
from signet_pipeline.store import embeddings as emb_store
from signet_pipeline.store import memories as mem_store
from signet_pipeline.store.db import Database
from signet_pipeline.timeutil import now_iso

log = logging.getLogger("signet.embed")
BATCH = 32
SETTLE_TIMEOUT_S = 5.0


class EmbeddingWriter:
    def __init__(self, db: Database, embedder: EmbeddingProvider, *, batch: int = BATCH):
        self.db, self.embedder, self.batch = db, embedder, batch
        self._pending: dict[str, tuple[str, str]] = {}  # content hash -> (storage text, a memory id)
        self._busy = False
        self._closed = False
        self._cond = threading.Condition()
        self._thread = threading.Thread(target=self._run, name="signet-embed-behind", daemon=True)
        self._thread.start()

    def submit(self, items: list[tuple[str, str, str]]) -> None:
        """(memory id, content hash, storage text) of committed memories that need a vector."""
        with self._cond:
            for memory_id, content_hash, text in items:
                self._pending.setdefault(content_hash, (text, memory_id))
            self._cond.notify_all()

    @property
    def pending(self) -> bool:
        """Whether vectors are waiting or being written (a read without the lock: a hint)."""
        return bool(self._pending) or self._busy

    def settle(self, timeout: float = SETTLE_TIMEOUT_S) -> bool:
        """Wait until every submitted vector is written (or given up on); False on timeout."""
        with self._cond:
            return self._cond.wait_for(lambda: not self._pending and not self._busy, timeout)

    def close(self, timeout: float = 30.0) -> None:
        """Write what is pending, then stop the thread."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        self._thread.join(timeout)

    def _run(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._pending or self._closed)
                if not self._pending:
                    return
                hashes = list(self._pending)[:self.batch]
                batch = {h: self._pending.pop(h) for h in hashes}
                self._busy = True
            try:
                self._embed_and_write(batch)
            except Exception:  # noqa: BLE001 - the thread must survive; the refresh stage covers the rows
                log.exception("write-behind embedding of %d memories failed", len(batch))
            finally:
                with self._cond:
                    self._busy = False
                    self._cond.notify_all()

    def _embed_and_write(self, batch: dict[str, tuple[str, str]]) -> None:
        hashes = list(batch)
        try:
            vectors = self.embedder.embed([batch[h][0] for h in hashes])  # outside any transaction
        except ProviderError as exc:
            log.warning("embedding failed for %d memories, kept keyword-only until refreshed: %s", len(hashes), exc)
            analytics.record_errors(self.db, [analytics.embedding_failure(exc, texts=len(hashes))])
            return
        model, now = self.embedder.model, now_iso()
        with self.db.write() as conn:
            live = mem_store.live_hashes(conn, hashes)  # edited or forgotten meanwhile: no vector
            for content_hash, vector in zip(hashes, vectors):
                if content_hash in live:
                    emb_store.upsert(conn, content_hash=content_hash, vector=vector, model=model,
                                     source_id=batch[content_hash][1], now=now)
            mem_store.mark_embedded(conn, sorted(live), model)
