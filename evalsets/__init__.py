"""Generators of evaluation sets: conversations with their questions, each designed apart.

Not part of the installed service: they run from a checkout (`python -m evalsets.<generator>`) and feed
`signet eval locomo` and the benchmarks in bench/. See the package table in docs/architecture.md.
"""
