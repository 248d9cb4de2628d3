"""Dagster assets: thin shells over the pipeline steps, one module per asset family."""
