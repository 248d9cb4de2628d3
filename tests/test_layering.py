"""Architecture rules that code review alone would let slip."""

import subprocess
import sys


def test_the_api_never_imports_dagster_or_umap():
    code = (
        "import sys, signet_api.app, signet_api.routes.memory;"
        "from signet_api.app import create_app; create_app();"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('dagster', 'umap', 'numba'));"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr


def test_domain_modules_import_neither_dagster_nor_fastapi():
    code = (
        "import sys, signet_pipeline.memory.recall, signet_pipeline.memory.remember, signet_pipeline.memory.reads,"
        " signet_pipeline.memory.status, signet_pipeline.store.migrate;"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('dagster', 'fastapi', 'starlette'));"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
