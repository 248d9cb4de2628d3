"""LLM providers for the pipeline stages: one `generate(prompt, json=..., timeout=...)` interface."""
