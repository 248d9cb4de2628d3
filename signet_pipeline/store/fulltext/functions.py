"""The terms FTS5 indexes for a text or a query word, and the SQL functions built on them that every
store connection carries (store/db.py registers them):

- `signet_terms(text)`: the distinct terms FTS5 indexes for a text, as a JSON array. The triggers of
  migration 0034 count them per agent in `agent_terms`, in the transaction that writes the row.
- `agent_bm25(memories_fts, weights)`: BM25 (k1 1.2, b 0.75, FTS5's own constants) with the IDF of
  each query phrase given by the caller (a JSON array in phrase order), so recall can rank an agent's
  rows by that agent's document frequencies instead of the whole store's (store/fulltext/agent_terms.py).
  Document lengths and their average stay the index's.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import cast

import apsw

# Must match `tokenize` of memories_fts in the migrations: query words are stemmed the same way.
FTS_TOKENIZER = ("porter", ["unicode61", "remove_diacritics", "2"])
K1, B = 1.2, 0.75


def _agent_bm25(api: apsw.FTS5ExtensionApi, weights: str) -> float:
    state = api.aux_data  # per statement: the weights parsed and the length norm's constants, once
    if state is None:
        avgdl = api.column_total_size(0) / max(api.row_count, 1)
        state = api.aux_data = (tuple(enumerate(json.loads(weights))), K1 * (1 - B), K1 * B / max(avgdl, 1e-9))
    phrases, flat, per_token = state
    norm = flat + per_token * api.column_size(0)
    locations = api.phrase_locations
    score = 0.0
    for i, idf in phrases:
        tf = len(locations(i)[0])
        if tf:
            score += idf * tf * (K1 + 1) / (tf + norm)
    return -score  # as bm25(): lower is better


def _terms(tokenize: apsw.FTS5Tokenizer, text: str, reason: int) -> list[str]:
    """The terms of a text in order. Without offsets and colocated tokens apsw answers with the
    bare strings (its annotation covers every shape it can return)."""
    return cast(list[str], tokenize(text.encode("utf-8"), reason, None, include_offsets=False,
                                    include_colocated=False))


def stem_words(conn: apsw.Connection, words: list[str]) -> dict[str, str]:
    """Each query word as FTS5 indexes it (same tokenizer and stemmer)."""
    tokenize = conn.fts5_tokenizer(*FTS_TOKENIZER)
    out = {}
    for word in words:
        tokens = _terms(tokenize, word, apsw.FTS5_TOKENIZE_QUERY)
        out[word] = tokens[0] if tokens else word
    return out


def text_stemmer(conn: apsw.Connection) -> Callable[[str], set[str]]:
    """A function giving the indexed terms of a text (one tokenizer for many texts)."""
    tokenize = conn.fts5_tokenizer(*FTS_TOKENIZER)

    def stems(text: str) -> set[str]:
        return set(_terms(tokenize, text, apsw.FTS5_TOKENIZE_DOCUMENT))

    return stems


def register(conn: apsw.Connection) -> None:
    stems = text_stemmer(conn)

    def signet_terms(text: apsw.SQLiteValue) -> str:
        return json.dumps(list(stems(str(text or ""))))

    # apsw types SQL function callbacks as variadic; registered with a fixed arity they take that many.
    conn.create_scalar_function("signet_terms", signet_terms, 1, deterministic=True)  # type: ignore[arg-type]
    conn.register_fts5_function("agent_bm25", _agent_bm25)  # type: ignore[arg-type]
