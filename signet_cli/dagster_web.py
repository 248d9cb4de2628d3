"""The Dagster UI as `signet up` serves it: dagster-webserver's own app (the same one the
`dagster-webserver` command builds) behind a guard that answers only requests addressed to this
machine by a local name, and refuses what a browser sends for another site.

Dagster's GraphQL endpoint launches runs, backfills and wipes, and it answers any Host: a web page
the user visits can rebind its DNS name to 127.0.0.1 and drive it. It also executes a query given
in the URL of a POST of any content type, which a page can send cross-site without a preflight.
So: Host must be a loopback name or one in auth.allowedHosts; a state-changing request, a GraphQL
request and a websocket must not come from another origin (signet_pipeline/auth/origins.py).

Run as `python -m signet_cli.dagster_web --port P` with DAGSTER_HOME set (signet_cli/supervisor.py).
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from starlette.types import ASGIApp, Receive, Scope, Send

from signet_cli.dagster_instance import DAGSTER_MODULE
from signet_pipeline.auth import origins
from signet_pipeline.config import load_settings


class HostGuard:
    """Pure ASGI: refuse (403) a request whose Host is not a local name, and a cross-site one that
    could change something (any method but GET/HEAD/OPTIONS, any GraphQL call, any websocket)."""

    def __init__(self, app: ASGIApp, allowed: frozenset[str]) -> None:
        self.app = app
        self.allowed = allowed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        reason = self.refusal(scope)
        if reason is None:
            await self.app(scope, receive, send)
        elif scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008, "reason": reason[:120]})
        else:
            body = json.dumps({"error": {"code": "host_not_allowed", "message": reason}}).encode()
            await send({"type": "http.response.start", "status": 403,
                        "headers": [(b"content-type", b"application/json"),
                                    (b"content-length", str(len(body)).encode())]})
            await send({"type": "http.response.body", "body": body})

    def refusal(self, scope: Scope) -> str | None:
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        host_header = headers.get("host", "")
        name = origins.hostname(host_header)
        if name not in self.allowed:
            return f"host {name!r} is not a local name; add it to auth.allowedHosts in agent.yaml to serve it"
        risky = (scope["type"] == "websocket" or scope.get("method") not in origins.SAFE_METHODS
                 or scope.get("path", "").rstrip("/").endswith("/graphql"))
        if risky:
            return origins.cross_site(headers.get("origin"), headers.get("sec-fetch-site"), host_header)
        return None


def serve(*, host: str, port: int, allowed: frozenset[str], log_level: str) -> None:
    import uvicorn
    from dagster import DagsterInstance
    from dagster._core.workspace.context import WorkspaceProcessContext
    from dagster._core.workspace.load_target import ModuleTarget
    from dagster_webserver.app import create_app_from_workspace_process_context
    from dagster_webserver.cli import DEFAULT_DB_STATEMENT_TIMEOUT, DEFAULT_POOL_MAX_OVERFLOW, DEFAULT_POOL_RECYCLE
    from dagster_webserver.version import __version__

    instance = DagsterInstance.get()  # DAGSTER_HOME, created and migrated by the supervisor beforehand
    instance.optimize_for_webserver(DEFAULT_DB_STATEMENT_TIMEOUT, DEFAULT_POOL_RECYCLE, DEFAULT_POOL_MAX_OVERFLOW)
    target = ModuleTarget(module_name=DAGSTER_MODULE, attribute=None, working_directory=os.getcwd(),
                          location_name=None)
    with WorkspaceProcessContext(instance, version=__version__, read_only=False,
                                 workspace_load_target=target) as context:
        app = create_app_from_workspace_process_context(context, "")
        uvicorn.run(HostGuard(app, allowed), host=host, port=port, log_level=log_level)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m signet_cli.dagster_web", description=__doc__.split("\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=3000)
    parser.add_argument("--workspace", help="default $SIGNET_WORKSPACE or ~/.agents")
    parser.add_argument("--log-level", default="warning")
    args = parser.parse_args(argv)
    settings = load_settings(args.workspace)
    allowed = origins.local_names([args.host, *settings.auth.allowed_hosts])
    serve(host=args.host, port=args.port, allowed=allowed, log_level=args.log_level)
    return 0


if __name__ == "__main__":
    sys.exit(main())
