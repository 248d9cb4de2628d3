"""Structural classification: facts of an entity get aspects and kinds, entities get types."""

import json

import dagster as dg
import pytest

from signet_pipeline.defs.extraction.assets import memory_pipeline
from signet_pipeline.defs.extraction.sensors import memory_jobs_sensor
from signet_pipeline.defs.resources import LlmResource, SignetStoreResource
from signet_pipeline.models import RememberRequest
from signet_pipeline.providers.llm.http import OpenAICompatibleLlm
from signet_pipeline.providers.llm.rules import RulesLlm
from signet_pipeline.stages.extraction.batch import run_jobs
from signet_pipeline.stages.structural import parse_classification, run_structural_jobs
from signet_pipeline.store.queue import JobQueue
from signet_pipeline.write.remember import remember
from tests.fakes import FakeServer

RULES = RulesLlm()
TEXT = "Priya Sharma decided to use Rust for Zephyr. Priya Sharma prefers quiet mornings."


@pytest.mark.parametrize("reply, expected, entity_type, warned", [
    ({"items": [{"i": 0, "aspect": "Decisions", "kind": "constraint"}], "entityType": "person"},
     {0: ("decisions", "constraint")}, "person", 0),
    (json.dumps([{"i": 0, "aspect": "stack", "kind": "attribute"}]), {0: ("stack", "attribute")}, None, 0),
    ({"items": [{"i": 7, "aspect": "x"}, {"i": 0, "aspect": ""}, {"i": 1, "aspect": "a", "kind": "rule"}]},
     {}, None, 3),
    ({"items": [], "entityType": "planet"}, {}, None, 1),
    ("not json at all", {}, None, 1),
])
def test_classification_replies_are_validated(reply, expected, entity_type, warned):
    assigned, inferred, warnings = parse_classification(reply, 2)
    assert (assigned, inferred, len(warnings)) == (expected, entity_type, warned)


def extract_then_classify(svc, llm=RULES):
    remember(svc, RememberRequest(content=TEXT))
    run_jobs(svc, JobQueue(svc.db), RULES, 10)
    return run_structural_jobs(svc, JobQueue(svc.db), llm, 10)


def test_pipeline_facts_become_classified_attributes_of_their_entities(svc):
    batch = extract_then_classify(svc)
    priya = next(r for r in batch.reports if r.type_set == "person")
    assert priya.classified == 2 and priya.constraints == 1
    rows = svc.db.reader().execute(
        "SELECT a.name, t.kind, m.who FROM entity_attributes t JOIN entities e ON e.id = t.entity_id "
        "JOIN entity_aspects a ON a.id = t.aspect_id JOIN memories m ON m.id = t.memory_id "
        "WHERE e.canonical_name = 'priya sharma' AND m.who = 'pipeline-v2' ORDER BY a.name").fetchall()
    assert rows == [("decisions", "constraint", "pipeline-v2"), ("preferences", "attribute", "pipeline-v2")]
    assert svc.db.reader().execute("SELECT count(*) FROM entity_attributes WHERE aspect_id IS NULL").fetchone()[0] == 0
    assert JobQueue(svc.db).due_count("structural_classify") == 0


def test_an_llm_classification_with_a_bad_item_keeps_the_good_ones(svc):
    def reply(path, body):
        content = {"items": [{"i": 0, "aspect": "languages", "kind": "constraint"}, {"i": 9, "aspect": "x"}],
                   "entityType": "person"}
        return 200, {"choices": [{"message": {"role": "assistant", "content": json.dumps(content)}}]}

    with FakeServer(reply) as server:
        batch = extract_then_classify(svc, OpenAICompatibleLlm(base_url=server.url, model="m"))
    assert any(r.warnings for r in batch.reports)
    assert all(r.classified >= 1 or r.type_set for r in batch.reports)  # facts classified, or a name typed


def test_sensor_and_asset_run_the_structural_queue(svc, workspace):
    remember(svc, RememberRequest(content=TEXT))
    run_jobs(svc, JobQueue(svc.db), RULES, 10)
    signet = SignetStoreResource(workspace=str(workspace))
    with dg.instance_for_test() as instance, dg.build_sensor_context(instance=instance,
                                                                     resources={"signet": signet}) as ctx:
        result = memory_jobs_sensor(ctx)
    assert len(result.run_requests) == 1 and result.run_requests[0].run_key == "memory-drain-1"
    done = dg.materialize([memory_pipeline], resources={"signet": signet, "llm": LlmResource()})
    meta = next(m.metadata for e in done.get_asset_materialization_events()
                for m in [e.event_specific_data.materialization] if m.asset_key.path[-1] == "entity_structure")
    assert meta["facts_classified"].value >= 2 and meta["constraints"].value >= 1
    assert "Zephyr" in meta["types_inferred"].value  # named, not a bare id


def test_a_name_the_linker_met_without_a_type_is_typed_by_the_structural_stage(svc):
    """The inline linker classifies what it attaches, so only remember's own job types its untyped names;
    "unknown" (nothing said) gives way to a later mention's cue."""
    remember(svc, RememberRequest(content="Priya Sharma maintains the billing service. The Lisbon numbers look fine."))
    queue = JobQueue(svc.db)
    assert queue.due_count("structural_classify") >= 2
    batch = run_structural_jobs(svc, queue, RULES, 10)
    types = dict(svc.db.reader().execute("SELECT name, entity_type FROM entities").fetchall())
    assert types["Priya Sharma"] == "person" and types["Lisbon"] == "unknown"
    assert {r.entity_name: r.type_set for r in batch.reports} == {"Priya Sharma": "person", "Lisbon": "unknown"}
    remember(svc, RememberRequest(content="Omar just moved to Lisbon!"))
    assert dict(svc.db.reader().execute("SELECT name, entity_type FROM entities").fetchall())["Lisbon"] == "place"
    asked = svc.db.reader().execute("SELECT e.name FROM memory_jobs j JOIN entities e ON e.id = j.entity_id "
                                    "WHERE j.job_type = 'structural_classify' AND j.status = 'pending'").fetchall()
    assert asked == [("Omar",)]  # the new name only: typed names are not asked again
