"""Signet memory pipeline: storage, domain logic and providers (no dagster or fastapi imports
outside `assets/` and the Dagster definition modules)."""

__version__ = "0.1.0"
