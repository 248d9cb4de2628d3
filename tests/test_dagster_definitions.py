import dagster as dg

from signet_pipeline.defs.definitions import defs
from signet_pipeline.defs.resources import SignetStoreResource


def test_definitions_load_and_validate():
    assert isinstance(defs, dg.Definitions)
    dg.Definitions.validate_loadable(defs)


def test_store_resource_resolves_the_workspace(tmp_path):
    resource = SignetStoreResource(workspace=str(tmp_path))
    assert resource.settings().db_path == tmp_path / "memory" / "memories.db"


def test_the_shipped_instance_config_loads(tmp_path, monkeypatch):
    import shutil
    from pathlib import Path

    shutil.copy(Path(__file__).parents[1] / "dagster.yaml", tmp_path / "dagster.yaml")
    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path))
    instance = dg.DagsterInstance.get()
    try:
        assert instance.run_coordinator.dequeue_interval_seconds == 1
        assert not instance.telemetry_enabled
    finally:
        instance.dispose()


def test_every_definition_is_described_and_grouped():
    specs = defs.resolve_all_asset_specs()
    assert len(specs) >= 4
    for spec in specs:
        assert spec.description, spec.key
        assert spec.group_name and spec.group_name != "default", spec.key
    graph = defs.resolve_asset_graph()
    checks = [graph.get_check_spec(key) for key in graph.asset_check_keys]
    assert len(checks) >= 2 and all(c.description for c in checks)
    repo = defs.get_repository_def()
    assert repo.sensor_defs and all(s.description for s in repo.sensor_defs)
    assert repo.schedule_defs and all(s.description for s in repo.schedule_defs)
    for job in repo.get_all_jobs():
        if not job.name.startswith("__"):
            assert job.description, job.name
