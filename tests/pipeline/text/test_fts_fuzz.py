"""User text with FTS5 syntax never raises, whatever it holds."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from signet_pipeline.models import RecallRequest
from signet_pipeline.recall.reads import legacy_search
from signet_pipeline.recall.search import recall_memories
from signet_pipeline.store.memories import MemoryFilter
from signet_pipeline.text.fts_query import build_match, query_tokens

FTS_SYNTAX = ['"', "AND (", "OR", "NOT", "*", "NEAR", "NEAR(", "-", "^", ":", "content:", "(", ")", "{", "}",
              "'", "+", "\\", "\x00", "AND", "near/3", "🙂", "ß", "İ", "_", "%", ";", "--", "/*"]

fts_text = st.lists(st.one_of(st.sampled_from(FTS_SYNTAX), st.text(max_size=12)), max_size=12).map(" ".join)


@pytest.fixture(scope="module")
def fuzz_service(tmp_path_factory, embedder):
    from signet_pipeline.config import load_settings
    from signet_pipeline.models import RememberRequest
    from signet_pipeline.service import MemoryService
    from signet_pipeline.write.remember import remember_many

    svc = MemoryService(load_settings(tmp_path_factory.mktemp("fuzz")), embedder=embedder)
    remember_many(svc, [RememberRequest(content=c) for c in [
        'The "quoted" NEAR operator AND (parentheses) are plain words here',
        "café résumé naïve — unicode words",
        "snake_case and kebab-case identifiers: foo_bar baz-qux",
        "A * star and a - minus",
    ]])
    yield svc
    svc.close()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=fts_text)
def test_recall_never_raises_on_fts_syntax(fuzz_service, text):
    out = recall_memories(fuzz_service, RecallRequest(query=text))
    assert out.meta["totalReturned"] == len(out.results)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=fts_text)
def test_legacy_search_never_raises_on_fts_syntax(fuzz_service, text):
    legacy_search(fuzz_service, text, MemoryFilter(), 10)


@given(text=st.text())
def test_match_expression_is_always_quoted_words(text):
    match = build_match(text)
    if match is None:
        assert query_tokens(text) == []
    else:
        for part in match.split(" OR "):
            assert part.startswith('"') and part.endswith('"') and '"' not in part[1:-1]


def test_operators_in_user_text_are_searched_as_words(fuzz_service):
    out = recall_memories(fuzz_service, RecallRequest(query='NEAR AND (parentheses)', alpha=0.0))
    assert out.results and "parentheses" in out.results[0].content


def test_fuzz_through_the_api(client):
    for text in ['"', 'AND (', '*', 'NEAR(a b)', '-x', 'content: foo', '"unbalanced', "a OR", ")))"]:
        assert client.post("/api/memory/recall", json={"query": text}).status_code == 200
        assert client.get("/memory/search", params={"q": text}).status_code == 200
        assert client.get("/api/memory/search", params={"q": text}).status_code == 200


def test_frequent_words_are_left_out_only_above_the_budget():
    from signet_pipeline.text.fts_query import within_budget

    df = {"project": 40_000, "meeting": 30_000, "kettle": 12, "cupboard": 300}
    tokens = ["project", "kettle", "meeting", "cupboard"]
    assert within_budget(tokens, df, 20_000) == ["kettle", "cupboard"]
    assert within_budget(tokens, df, 0) == tokens
    assert within_budget(tokens, df, 10**9) == tokens
    assert within_budget(["project", "meeting"], df, 20_000) == ["meeting"]  # the rarest always stays


def test_doc_counts_follow_the_fts_stemmer(fuzz_service):
    from signet_pipeline.store.fulltext.functions import stem_words, text_stemmer
    from signet_pipeline.store.memories import stem_doc_counts

    conn = fuzz_service.db.reader()
    stems = stem_words(conn, ["operators", "words", "unicode", "nothinghere"])
    assert stems["operators"] == "oper" and stems["words"] == "word"
    counts = stem_doc_counts(conn, set(stems.values()))
    assert {w: counts[s] for w, s in stems.items()} == {"operators": 1, "words": 2, "unicode": 1, "nothinghere": 0}
    assert {"oper", "word", "plain"} <= text_stemmer(conn)("Operators are plain words")


def test_coverage_weighs_query_words_by_rarity():
    from signet_pipeline.text.fts_query import QueryTerms

    terms = QueryTerms.build(["simon", "bicycle"], {"simon": "simon", "bicycle": "bicycl"},
                             {"simon": 500, "bicycl": 3}, rows=1000)
    assert terms.coverage({"simon", "bicycl", "red"}) == 1.0
    assert terms.coverage(set()) == 0.0
    name_only = terms.coverage({"simon", "yep"})
    assert 0 < name_only < 0.2 < terms.coverage({"bicycl"})
