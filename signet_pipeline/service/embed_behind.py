"""Write-behind embedding for single remembers (spec memory-system: "The FTS5 index is updated
synchronously. An embedding is generated asynchronously."): remember commits the row and answers;
this writer's thread embeds what was remembered meanwhile in one provider call (a burst of
concurrent remembers shares it) and stores the vectors in one short transaction.

Reads that search vectors first wait until the vectors submitted before they started are written
(MemoryService.vector_index, settle): a read right after a remember still finds the new memory by
meaning, and under a steady stream of remembers it waits for the batches before it, not for the
stream to stop. Recall does not wait at all: it embeds its agent's own unwritten memories with the
query in one provider call (unwritten; recall/search.py), so the writer of a memory finds it by
meaning at once while everyone else's recall costs what it costs unloaded. A crash before the vector is
written leaves the memory without one, which the embedding refresh stage looks for; a failing
provider leaves it keyword-searchable, as a failed synchronous embedding did.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from contextlib import nullcontext
from contextvars import ContextVar

from signet_pipeline import analytics
from signet_pipeline.errors import ProviderError
from signet_pipeline.providers.embeddings import EmbeddingProvider
from signet_pipeline.service.reads_first import ReadsFirst
from signet_pipeline.store import embeddings as emb_store
from signet_pipeline.store import memories as mem_store
from signet_pipeline.store.db import Database
from signet_pipeline.timeutil import now_iso

log = logging.getLogger("signet.embed")
# The submission sequence number at which the current read began (EmbeddingWriter.begin_read).
_read_started_at: ContextVar[int | None] = ContextVar("signet_read_started_at", default=None)
BATCH = 32
SETTLE_TIMEOUT_S = 5.0
# More unwritten memories of one agent than this (a bulk load) and its recall waits for the writer
# instead of embedding them itself.
UNWRITTEN_MAX = 4


@dataclass(frozen=True)
class _Item:
    text: str  # what is embedded (the memory's storage text)
    memory_id: str
    agent_id: str
    seq: int  # the submission's sequence number


class EmbeddingWriter:
    def __init__(self, db: Database, embedder: EmbeddingProvider, *, batch: int = BATCH,
                 reads_first: ReadsFirst | None = None):
        self.db, self.embedder, self.batch, self.reads_first = db, embedder, batch, reads_first
        self._pending: dict[str, _Item] = {}  # by content hash, in submission order
        self._writing: dict[str, _Item] = {}  # the batch being embedded and written
        self._submitted = 0  # sequence number of the latest submission
        self._written = 0  # every submission up to this one is written (or given up on)
        self._busy = False
        self._closed = False
        self._cond = threading.Condition()
        self._thread = threading.Thread(target=self._run, name="signet-embed-behind", daemon=True)
        self._thread.start()

    def submit(self, items: list[tuple[str, str, str, str]]) -> None:
        """(memory id, content hash, storage text, agent id) of committed memories that need a vector."""
        with self._cond:
            self._submitted += 1
            for memory_id, content_hash, text, agent_id in items:
                # A hash already waiting keeps its earlier number: written then, it covers this one.
                self._pending.setdefault(content_hash, _Item(text, memory_id, agent_id, self._submitted))
            if not self._pending and not self._busy:
                self._written = self._submitted  # nothing new to write (every item already waiting)
            self._cond.notify_all()

    @property
    def pending(self) -> bool:
        """Whether vectors are waiting or being written (a read without the lock: a hint)."""
        return bool(self._pending) or self._busy

    def unwritten(self, agent_id: str) -> dict[str, str] | None:
        """The agent's memories whose vectors are not written yet (content hash -> text), or None
        when there are more than UNWRITTEN_MAX (then settle instead)."""
        with self._cond:
            own = {h: item.text for items in (self._writing, self._pending) for h, item in items.items()
                   if item.agent_id == agent_id}
        return own if len(own) <= UNWRITTEN_MAX else None

    def begin_read(self) -> None:
        """Mark the start of a read (an API request): its settles in this context wait only for
        what was submitted by now, however long the read takes."""
        _read_started_at.set(self._submitted)

    def settle(self, timeout: float = SETTLE_TIMEOUT_S) -> bool:
        """Wait until every vector submitted before this call (or before begin_read in this context)
        is written or given up on; later submissions are not waited for. False on timeout."""
        target = _read_started_at.get()
        if target is None:
            target = self._submitted
        with self._cond:
            if self._written >= target:
                return True
        # A recall in flight waiting here must not hold this writer back (reads_first).
        with self.reads_first.settling() if self.reads_first is not None else nullcontext(), self._cond:
            return self._cond.wait_for(lambda: self._written >= target, timeout)

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
            if self.reads_first is not None:
                self.reads_first.yield_to_reads(embedder=True)  # a batch can wait for the recall in flight
            with self._cond:
                hashes = list(self._pending)[:self.batch]
                self._writing = {h: self._pending.pop(h) for h in hashes}
                self._busy = True
            try:
                self._embed_and_write(self._writing)
            except Exception:  # noqa: BLE001 - the thread must survive; the refresh stage covers the rows
                log.exception("write-behind embedding of %d memories failed", len(self._writing))
            finally:
                with self._cond:
                    self._busy, self._writing = False, {}
                    # Batches leave in submission order: everything before the oldest still waiting is done.
                    self._written = min((item.seq for item in self._pending.values()), default=self._submitted + 1) - 1
                    self._cond.notify_all()

    def _embed_and_write(self, batch: dict[str, _Item]) -> None:
        hashes = list(batch)
        try:
            vectors = self.embedder.embed([batch[h].text for h in hashes])  # outside any transaction
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
                                     source_id=batch[content_hash].memory_id, now=now)
            mem_store.mark_embedded(conn, sorted(live), model)
