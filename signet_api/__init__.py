"""Signet HTTP API (FastAPI). Thin routes over signet_pipeline's domain; never imports dagster."""
