"""Providers: what the service calls out to — embedders (onnx in process, ollama, openai-compatible),
LLMs (rules offline, ollama, openai-compatible), the document fetcher. May import: config, errors,
timeutil, text (the rules provider reads text the way the linker does). No store."""
