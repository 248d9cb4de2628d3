"""Pipeline stages: plain functions over the store and providers (Dagster assets wrap them)."""
