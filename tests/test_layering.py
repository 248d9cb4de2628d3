"""Architecture rules that code review alone would let slip."""

import subprocess
import sys


def imported_roots(setup: str, forbidden: tuple[str, ...]) -> list[str]:
    """Run `setup` in a fresh interpreter; return the forbidden top-level packages it loaded."""
    code = f"import sys\n{setup}\nprint(','.join(sorted({{m.split('.')[0] for m in sys.modules}} & {set(forbidden)!r})))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return [name for name in result.stdout.strip().split(",") if name]


def test_the_api_never_imports_dagster_or_heavy_pipeline_libraries():
    setup = "from signet_api.app import create_app\ncreate_app()"
    assert imported_roots(setup, ("dagster", "umap", "numba", "igraph")) == []


def test_domain_modules_import_neither_dagster_nor_fastapi():
    setup = ("import signet_pipeline.memory.recall, signet_pipeline.memory.remember, signet_pipeline.memory.reads,"
             " signet_pipeline.memory.status, signet_pipeline.store.migrate, signet_pipeline.memory.knowledge,"
             " signet_pipeline.pipeline.extraction, signet_pipeline.stages.communities")
    assert imported_roots(setup, ("dagster", "fastapi", "starlette")) == []


def test_the_check_detects_a_forbidden_import():
    assert imported_roots("import json", ("json", "dagster")) == ["json"]
