"""Maintenance cycle: recommendations from diagnostics, observe vs execute, the halt tracker,
and the asset on real Dagster."""

import dagster as dg

from signet_pipeline.defs.maintenance.assets import maintenance_cycle
from signet_pipeline.defs.maintenance.schedules import every_minutes_cron
from signet_pipeline.defs.resources import EmbedderResource, SignetStoreResource
from signet_pipeline.models import RememberRequest
from signet_pipeline.stages.maintenance import CYCLE, HALT_AFTER, run_cycle
from signet_pipeline.write.remember import remember


def break_fts(svc):
    for i in range(5):
        remember(svc, RememberRequest(content=f"Ferry timetable note {i} for the harbour"))
    with svc.db.write() as conn:
        conn.execute("INSERT INTO memories_fts(memories_fts) VALUES ('delete-all')")


def test_observe_lists_and_execute_repairs(make_service):
    observer = make_service(autonomous={"maintenanceMode": "observe"})
    break_fts(observer)
    seen = run_cycle(observer)
    assert seen.recommended == ["check-fts"] and not seen.executed

    executor = make_service()
    fixed = run_cycle(executor)
    assert fixed.executed["check-fts"]["rebuilt"] and fixed.score_after > fixed.score_before
    assert run_cycle(executor).recommended == []  # healthy again


def test_an_action_that_never_helps_is_halted_until_a_clean_cycle(svc):
    with svc.db.write() as conn:  # three earlier maintenance runs that did not raise the score
        for _ in range(HALT_AFTER):
            conn.execute("INSERT INTO repair_runs(action, outcome, actor, result, created_at) VALUES "
                         "('check-fts', 'executed', 'maintenance', '{\"scoreBefore\": 0.9, \"scoreAfter\": 0.9}', "
                         "'2020-01-01T00:00:00.000Z')")
    break_fts(svc)
    cycle = run_cycle(svc)
    assert cycle.halted == ["check-fts"] and not cycle.executed
    with svc.db.write() as conn:  # a later clean cycle resets the tracker
        conn.execute("INSERT INTO repair_runs(action, outcome, actor, result, created_at) VALUES "
                     "(?, 'executed', 'maintenance', '{\"recommended\": [], \"halted\": []}', "
                     "'2020-01-02T00:00:00.000Z')", (CYCLE,))
    assert run_cycle(svc).executed["check-fts"]["rebuilt"]


def test_frozen_skips_and_the_asset_reports(make_service, workspace):
    frozen = make_service(autonomous={"frozen": True})
    break_fts(frozen)
    assert run_cycle(frozen).skipped == "autonomous.frozen"
    with dg.instance_for_test() as instance:
        result = dg.materialize([maintenance_cycle], instance=instance, resources={
            "signet": SignetStoreResource(workspace=str(workspace), embedder=EmbedderResource())})
    assert result.success
    meta = result.asset_materializations_for_node("maintenance_cycle")[0].metadata
    assert meta["mode"].value == "execute" and "check-fts" in meta["executed"].value


def test_cron_from_intervals():
    assert [every_minutes_cron(ms) for ms in (60_000, 1_800_000, 3_600_000, 6 * 3_600_000)] == \
        ["*/1 * * * *", "*/30 * * * *", "0 * * * *", "0 */6 * * *"]


def test_low_embedding_coverage_calls_for_a_reembed(svc):
    for i in range(5):
        remember(svc, RememberRequest(content=f"Ferry timetable note {i} for the harbour"))
    with svc.db.write() as conn:  # a model switch: every vector is of a model no longer configured
        conn.execute("UPDATE embeddings SET model = 'retired-model'")
    cycle = run_cycle(svc)
    assert cycle.recommended == ["re-embed"] and cycle.executed["re-embed"]["refreshed"] == 5
    assert cycle.score_after > cycle.score_before
