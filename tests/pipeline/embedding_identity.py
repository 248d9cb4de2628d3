"""The embedder a service runs, as an import names it: (model, dimensions)."""


def embedding_identity(svc) -> tuple[str, int]:
    return svc.embedder.model, svc.embedder.dimensions
