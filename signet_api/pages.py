"""What a person opens in a browser: the API docs and the dashboard, all from files installed with
the packages, so nothing is fetched from another host.

- `/docs` (Swagger UI) and `/redoc` use the asset files the `fastapi-offline` package ships
  (swagger-ui-dist, Apache-2.0; ReDoc, MIT), served under `/docs-assets/`.
- `/` is the dashboard (`signet_api/static/`: plain HTML, CSS and two scripts, no build step; the
  graph views draw with cytoscape.js, MIT, vendored in `static/vendor/` with its licence), which
  calls the same REST API as any client, with the token a person pastes in outside local mode.
"""

from __future__ import annotations

from pathlib import Path

import fastapi_offline
from fastapi import FastAPI
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.staticfiles import StaticFiles
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse

DOCS_ASSETS = Path(fastapi_offline.__file__).parent / "static"
DASHBOARD = Path(__file__).parent / "static"


def install(app: FastAPI, *, docs: bool) -> None:
    if docs and app.openapi_url:
        title = app.title
        openapi_url = app.openapi_url

        async def swagger(_: Request) -> HTMLResponse:
            return get_swagger_ui_html(openapi_url=openapi_url, title=f"{title} - docs",
                                       swagger_js_url="/docs-assets/swagger-ui-bundle.js",
                                       swagger_css_url="/docs-assets/swagger-ui.css",
                                       swagger_favicon_url="/docs-assets/favicon.png")

        async def redoc(_: Request) -> HTMLResponse:
            return get_redoc_html(openapi_url=openapi_url, title=f"{title} - ReDoc",
                                  redoc_js_url="/docs-assets/redoc.standalone.js",
                                  redoc_favicon_url="/docs-assets/favicon.png", with_google_fonts=False)

        app.mount("/docs-assets", StaticFiles(directory=DOCS_ASSETS), name="docs-assets")
        app.add_route("/docs", swagger, include_in_schema=False)
        app.add_route("/redoc", redoc, include_in_schema=False)

    async def home(_: Request) -> RedirectResponse:
        return RedirectResponse("/ui/")

    app.mount("/ui", StaticFiles(directory=DASHBOARD, html=True), name="dashboard")
    app.add_route("/", home, include_in_schema=False)
