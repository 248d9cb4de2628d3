"""Signet memory pipeline: storage, domain logic, providers and pipeline stages, layered from the
bottom up (tests/project/layers.py holds the order): base modules (config, errors, timeutil) <
store, text, auth < analytics, providers, models < service < graph < recall, write < mutations,
sessions < ops < stages < defs. A package imports only from layers below it (or within itself);
only defs/ imports dagster, and nothing here imports fastapi."""

__version__ = "0.9.1"  # moves with every release; CHANGELOG.md has its entry (tests/pipeline/store/test_upgrade.py)
