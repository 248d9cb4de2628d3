"""create_app() + lifespan: one MemoryService per process, opened at start, closed at stop."""

from __future__ import annotations

import logging
from contextlib import asynccontextmanager

from fastapi import FastAPI

from signet_api import openapi, pages
from signet_api.auth import Auth
from signet_api.errors import install_error_handlers
from signet_api.middleware import AnalyticsMiddleware, RequestLimitMiddleware
from signet_api.routes import (
    agents,
    analytics,
    auth,
    checkpoints,
    connectors,
    diagnostics,
    documents,
    embeddings,
    feedback,
    hooks,
    knowledge,
    lineage,
    mcp,
    memory,
    mutations,
    projection,
    repair,
    sessions,
    synthesis,
    system,
    telemetry,
    timeline,
)
from signet_pipeline import __version__
from signet_pipeline.analytics import Analytics
from signet_pipeline.config import Settings, load_settings
from signet_pipeline.service import MemoryService

log = logging.getLogger("signet.api")


def create_app(settings: Settings | None = None, *, service: MemoryService | None = None) -> FastAPI:
    """Build the API. Pass `service` to share one (tests, benchmarks); otherwise the lifespan
    opens one from `settings` (default: load_settings())."""

    settings = service.settings if service is not None else settings or load_settings()
    # Team mode serves nothing without a token: the interactive docs and the schema go too.
    team = settings.auth.mode == "team"

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        owned = service is None
        svc = service or MemoryService(settings, process="api")
        app.state.service = svc
        app.state.auth = Auth(svc.settings)
        app.state.shutting_down = False
        log.info("signet API ready: db=%s embedder=%s/%s", svc.settings.db_path, svc.embedder.name, svc.embedder.model)
        try:
            yield
        finally:
            app.state.shutting_down = True
            if owned:
                svc.close()

    app = FastAPI(
        title="Signet memory API",
        version=__version__,
        summary="Long-term memory for AI agents: remember and recall over a local SQLite store.",
        lifespan=lifespan,
        # The docs pages are served from local assets (pages.py), never FastAPI's CDN-backed defaults.
        docs_url=None,
        redoc_url=None,
        openapi_url=None if team else "/openapi.json",  # FastAPI's default
    )
    install_error_handlers(app)
    openapi.install(app)  # the schema says what the routes answer (errors, auth, bodies)
    app.state.analytics = Analytics()  # this process's request counters (routes/analytics.py reads them)
    # Every route authorizes before its body is read (signet_api/auth.py AuthorizedRoute); the body
    # limit sits inside analytics, so refused bodies are counted too.
    app.add_middleware(RequestLimitMiddleware, limits=settings.limits)
    app.add_middleware(AnalyticsMiddleware, analytics=app.state.analytics)
    app.include_router(system.router)
    app.include_router(auth.router)
    app.include_router(memory.router)
    app.include_router(mutations.router)
    app.include_router(feedback.router)
    app.include_router(documents.router)
    app.include_router(connectors.router)
    app.include_router(knowledge.router)
    app.include_router(lineage.router)
    hooks.install(app)  # the router and its no-op answers
    app.include_router(checkpoints.router)
    app.include_router(sessions.router)
    app.include_router(diagnostics.router)
    app.include_router(repair.router)
    app.include_router(agents.router)
    app.include_router(embeddings.router)
    app.include_router(projection.router)
    app.include_router(analytics.router)
    app.include_router(telemetry.router)
    app.include_router(timeline.router)
    app.include_router(synthesis.router)
    app.include_router(mcp.router)
    pages.install(app, docs=not team)
    return app
