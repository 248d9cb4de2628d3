"""Retrieval evaluation: LoCoMo-format data through the REST API, against plain baselines."""
