"""Benchmark suite for Signet: bulk ingest, recall latency against a brute-force floor,
the sqlite-vec backend, single remember() calls and the HTTP API.

Run it with `.venv/bin/python -m bench` (see `--help`). Results are written up in
docs/BENCHMARKS.md.
"""
