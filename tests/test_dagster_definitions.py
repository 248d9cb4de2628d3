import dagster as dg

from signet_pipeline.definitions import defs
from signet_pipeline.resources import SignetStoreResource


def test_definitions_load_and_validate():
    assert isinstance(defs, dg.Definitions)
    dg.Definitions.validate_loadable(defs)


def test_store_resource_resolves_the_workspace(tmp_path):
    resource = SignetStoreResource(workspace=str(tmp_path))
    assert resource.settings().db_path == tmp_path / "memory" / "memories.db"
