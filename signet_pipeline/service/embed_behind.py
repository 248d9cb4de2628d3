"""Write-behind embedding for single remembers (spec: FTS5 synchronous, the embedding async):
remember commits the row and answers; this writer's thread embeds what came meanwhile in one
provider call and stores the vectors in one short transaction. Vector reads wait only for batches
submitted before them, and recall embeds its agent's unwritten memories with the query, so a new
memory is found by meaning at once. A crash or a failing provider leaves the memory for the
embedding refresh stage. Design: docs/internals.md.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from contextlib import nullcontext
from contextvars import ContextVar
from dataclasses import dataclass

import numpy as np

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
# Up to this many unwritten memories of its agent a recall embeds with its query, whatever their state;
# with more (one agent for many writers) it takes only the queued ones (embed_with_unwritten).
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
        self._claimed: dict[str, _Item] = {}  # taken by recalls, which embed them with their query
        self._ready: dict[str, tuple[_Item, np.ndarray]] = {}  # what those recalls embedded, to write
        self._writing: dict[str, _Item] = {}  # the batch being embedded and written
        self._embedded: dict[str, np.ndarray] = {}  # that batch's vectors once embedded, until committed
        self._submitted = 0  # sequence number of the latest submission
        self._written = 0  # every submission up to this one is written (or given up on)
        self._embedded_upto = 0  # every submission up to this one is embedded (or given up on)
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
            self._progressed()

    @property
    def pending(self) -> bool:
        """Whether vectors are waiting or being written (a read without the lock: a hint)."""
        return bool(self._pending or self._claimed or self._ready or self._writing)

    def unwritten(self, agent_id: str) -> dict[str, str] | None:
        """The agent's memories whose vectors are not written yet (content hash -> text), or None
        when there are more than UNWRITTEN_MAX (then embed_with_unwritten)."""
        with self._cond:
            own = {h: item.text for items in (self._writing, self._pending, self._claimed) for h, item in items.items()
                   if item.agent_id == agent_id}
            own.update((h, item.text) for h, (item, _) in self._ready.items() if item.agent_id == agent_id)
        return own if len(own) <= UNWRITTEN_MAX else None

    def begin_read(self) -> None:
        """Mark the start of a read (an API request): its settles in this context wait only for
        what was submitted by now, however long the read takes."""
        _read_started_at.set(self._submitted)

    def settle(self, timeout: float = SETTLE_TIMEOUT_S) -> bool:
        """Wait until every vector submitted before this call (or before begin_read in this context)
        is written or given up on; later submissions are not waited for. False on timeout."""
        return self._wait_for(lambda: self._written, timeout)

    def embed_with_unwritten(self, text: str, embed_alone: Callable[[str], np.ndarray],
                             timeout: float = SETTLE_TIMEOUT_S) -> tuple[np.ndarray, dict[str, np.ndarray]]:
        """Embed `text` (a recall's query), and every vector submitted before this read began and
        not yet written, without waiting for their commit, which can queue behind another process's
        write transaction: those still waiting for this writer (up to a batch) are taken from it and
        embedded in the same provider call, then handed back to be written; the batch in hand is
        waited for until it is embedded. With none to take, `embed_alone` embeds the text (the
        service's query cache). Returns the text's vector and every vector embedded and not
        committed yet (content hash -> vector, any agent's: the caller filters). Whatever was
        committed before is in the store, where the index finds it."""
        target = self._target()
        with self._cond:
            mine = {h: item for h, item in self._pending.items() if item.seq <= target}
            if len(mine) > self.batch:  # a bulk load: its batches are the writer's
                mine = {}
            for h in mine:
                self._claimed[h] = self._pending.pop(h)
        vector = self._embed_taken(text, mine, embed_alone) if mine else embed_alone(text)
        self._wait_for(lambda: self._embedded_upto, timeout)
        with self._cond:
            return vector, {**self._embedded, **{h: v for h, (_, v) in self._ready.items()}}

    def _embed_taken(self, text: str, taken: dict[str, _Item], embed_alone: Callable[[str], np.ndarray]) -> np.ndarray:
        """`text`'s vector, embedded in one call with the items a read took (two when the model reads
        a query unlike stored texts); theirs go to be written."""
        try:
            if self.embedder.asymmetric:
                vector, vectors = embed_alone(text), list(self.embedder.embed([item.text for item in taken.values()]))
            else:
                vector, *vectors = self.embedder.embed([text, *(item.text for item in taken.values())])
        except BaseException:
            with self._cond:  # back to the writer, which will try them itself
                for h, item in taken.items():
                    self._pending.setdefault(h, self._claimed.pop(h, item))
                self._progressed()
            raise
        with self._cond:
            for (h, item), v in zip(taken.items(), vectors):
                self._claimed.pop(h, None)
                self._ready[h] = (item, v)
            self._progressed()
        return vector

    def _target(self) -> int:
        target = _read_started_at.get()
        return self._submitted if target is None else target

    def _wait_for(self, progress: Callable[[], int], timeout: float) -> bool:
        target = self._target()
        with self._cond:
            if progress() >= target:
                return True
        # A recall in flight waiting here must not hold this writer back (reads_first).
        with self.reads_first.settling() if self.reads_first is not None else nullcontext(), self._cond:
            return self._cond.wait_for(lambda: progress() >= target, timeout)

    def _progressed(self) -> None:
        """After any change of state, under the lock: how far submissions are embedded and written,
        and wake whoever waits on it."""
        def oldest(*groups) -> int:
            seqs = [item.seq for group in groups for item in group]
            return min(seqs) - 1 if seqs else self._submitted
        unembedded = [] if self._embedded else self._writing.values()
        self._embedded_upto = oldest(self._pending.values(), self._claimed.values(), unembedded)
        self._written = oldest(self._pending.values(), self._claimed.values(), self._writing.values(),
                               (item for item, _ in self._ready.values()))
        self._cond.notify_all()

    def close(self, timeout: float = 30.0) -> None:
        """Write what is pending, then stop the thread."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        self._thread.join(timeout)

    def _run(self) -> None:
        while True:
            with self._cond:
                # Vectors a recall is embedding are written when it hands them back, even at close.
                self._cond.wait_for(lambda: self._pending or self._ready or (self._closed and not self._claimed))
                if not (self._pending or self._ready):
                    return
            if self.reads_first is not None and not self._ready:
                self.reads_first.yield_to_reads(embedder=True)  # a batch can wait for the recall in flight
            with self._cond:
                if self._ready:  # embedded by recalls: only the write is left
                    self._writing = {h: item for h, (item, _) in self._ready.items()}
                    self._embedded = {h: v for h, (_, v) in self._ready.items()}
                    self._ready = {}
                else:
                    self._writing = {h: self._pending.pop(h) for h in list(self._pending)[:self.batch]}
                if not self._writing:  # recalls took what was pending meanwhile
                    continue
            try:
                self._embed_and_write(self._writing)
            except Exception:  # noqa: BLE001 - the thread must survive; the refresh stage covers the rows
                log.exception("write-behind embedding of %d memories failed", len(self._writing))
            finally:
                with self._cond:
                    self._writing, self._embedded = {}, {}
                    self._progressed()

    def _embed_and_write(self, batch: dict[str, _Item]) -> None:
        hashes = list(batch)
        vectors: list[np.ndarray] | np.ndarray
        if self._embedded:  # a recall embedded them
            vectors = [self._embedded[h] for h in hashes]
        else:
            try:
                vectors = self.embedder.embed([batch[h].text for h in hashes])  # outside any transaction
            except ProviderError as exc:
                log.warning("embedding failed for %d memories, kept keyword-only until refreshed: %s", len(hashes), exc)
                analytics.record_errors(self.db, [analytics.embedding_failure(exc, texts=len(hashes))])
                return
            with self._cond:  # recalls may score these before the commit below gets the write lock
                self._embedded = dict(zip(hashes, vectors))
                self._progressed()
        model, now = self.embedder.model, now_iso()
        with self.db.write() as conn:
            live = mem_store.live_hashes(conn, hashes)  # edited or forgotten meanwhile: no vector
            for content_hash, vector in zip(hashes, vectors):
                if content_hash in live:
                    emb_store.upsert(conn, content_hash=content_hash, vector=vector, model=model,
                                     source_id=batch[content_hash].memory_id, now=now)
            mem_store.mark_embedded(conn, sorted(live), model)
