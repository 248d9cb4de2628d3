"""`signet serve` runs the API; `signet up` runs the API plus Dagster (webserver + daemon); `signet mcp`
serves the MCP tools on stdio against a running API; `signet hook` and `signet connect` wire an agent
harness to it. Commands import what they need when they run: `signet hook` starts on every prompt."""

from __future__ import annotations

import argparse
import sys


def _settings(workspace: str | None):
    from signet_pipeline.config import load_settings

    return load_settings(workspace)


def _check_bind(settings, host: str) -> None:
    """Auth mode local trusts every caller, so it serves this machine only."""
    import ipaddress

    from signet_pipeline.errors import ConfigError

    try:
        loopback = host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = False
    if settings.auth.mode == "local" and not loopback:
        raise ConfigError(f"auth.mode local trusts every caller and only binds to localhost, not {host}: "
                          "set auth.mode (or SIGNET_AUTH_MODE) to team or hybrid")


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    from signet_api.app import create_app

    overrides = {k: v for k, v in (("host", args.host), ("port", args.port)) if v is not None}
    settings = _settings(args.workspace)
    if overrides:
        settings.server = settings.server.model_copy(update=overrides)
    _check_bind(settings, settings.server.host)
    uvicorn.run(create_app(settings), host=settings.server.host, port=settings.server.port,
                log_level=args.log_level, access_log=False)
    return 0


def _up(args: argparse.Namespace) -> int:
    from signet_cli.supervisor import run_stack

    settings = _settings(args.workspace)
    _check_bind(settings, args.host or settings.server.host)
    return run_stack(settings, api_port=args.port or settings.server.port, dagster_port=args.dagster_port,
                     host=args.host or settings.server.host, log_level=args.log_level)


def _eval_locomo(args: argparse.Namespace) -> int:
    from signet_eval.harness import run

    def floats(text: str | None) -> list[float] | None:
        return [float(v) for v in text.split(",")] if text else None

    from signet_cli.progress import ProgressBar

    run(args.file, url=args.url, out=args.out, workers=args.workers, alphas=floats(args.alphas),
        min_scores=floats(args.min_scores), hints=args.hints, pipeline=args.pipeline, progress=ProgressBar())
    return 0


def _open_store(settings):
    from signet_pipeline.store.db import Database
    from signet_pipeline.store.migrate import migrate

    db = Database(settings.db_path)
    migrate(db)
    return db


def _export(args: argparse.Namespace) -> int:
    from signet_cli.progress import ProgressBar
    from signet_pipeline.snapshots.export import export_snapshot

    db = _open_store(_settings(args.workspace))
    try:
        manifest = export_snapshot(db, args.path, fmt=args.format, agent=args.agent, progress=ProgressBar())
    finally:
        db.close()
    vectors = f", vectors {manifest.embedding.model} ({manifest.embedding.dimensions})" if manifest.embedding else ""
    print(f"exported {manifest.total_rows:,} rows in {len(manifest.tables)} tables to {args.path}{vectors}")
    return 0


def _import(args: argparse.Namespace) -> int:
    from signet_cli.progress import ProgressBar
    from signet_pipeline.snapshots.restore import import_snapshot, store_embedding

    settings = _settings(args.workspace)
    db = _open_store(settings)
    try:
        report = import_snapshot(db, args.path, embedding=store_embedding(db, settings.embedding), agent=args.agent,
                                 bulk=False if args.no_bulk else None, progress=ProgressBar())
    finally:
        db.close()
    present = sum(t.unchanged for t in report.tables.values())
    who = f" as agent {report.agent}" if report.agent else ""
    print(f"imported {args.path}{who}: {report.written:,} of {report.rows:,} rows written ({present:,} already present"
          + (f", {report.left_out:,} other agents' rows left out" if report.left_out else "")
          + f") in {report.seconds:.1f} s; vectors {report.vectors}")
    if report.refused:
        tables = ", ".join(f"{name} {t.refused:,}" for name, t in report.tables.items() if t.refused)
        print(f"refused {report.refused:,} rows that this store holds for another agent, or that refer to "
              f"another agent's rows ({tables})")
    return 0


def _dagster(args: argparse.Namespace) -> int:
    from signet_cli import dagster_instance

    return dagster_instance.main(_settings(args.workspace), args.action)


def _mcp(args: argparse.Namespace) -> int:
    from signet_api.mcp.stdio import run

    return run(url=args.url)


def _token_create(args: argparse.Namespace) -> int:
    from signet_pipeline.auth.tokens import TokenScope, issue, load_or_create_secret

    settings = _settings(args.workspace)
    days = args.ttl if args.ttl is not None else settings.auth.default_token_ttl_days
    scope = TokenScope(agent=args.agent, project=args.project)
    token, _ = issue(load_or_create_secret(settings.auth_secret_path), sub=args.sub, role=args.role, scope=scope,
                     ttl_s=int(days * 86400))
    print(token)
    return 0


def build_parser() -> argparse.ArgumentParser:
    from pathlib import Path

    from signet_pipeline import __version__

    parser = argparse.ArgumentParser(prog="signet", description="Signet memory service")
    parser.add_argument("--version", action="version", version=f"signet {__version__}")
    parser.add_argument("--workspace", help="workspace directory (default: $SIGNET_WORKSPACE or ~/.agents)")
    parser.add_argument("--log-level", default="info", choices=["critical", "error", "warning", "info", "debug"])
    sub = parser.add_subparsers(dest="command", required=True)

    serve = sub.add_parser("serve", help="run the HTTP API only")
    serve.add_argument("--host", help="bind address (default 127.0.0.1)")
    serve.add_argument("--port", type=int, help="port (default 3850)")
    serve.set_defaults(func=_serve)

    up = sub.add_parser("up", help="run the API plus the Dagster webserver and daemon")
    up.add_argument("--host", help="API bind address (default 127.0.0.1)")
    up.add_argument("--port", type=int, help="API port (default 3850)")
    up.add_argument("--dagster-port", type=int, default=3000, help="Dagster UI port (default 3000)")
    up.set_defaults(func=_up)

    dagster = sub.add_parser("dagster", help="Dagster's storage in $SIGNET_WORKSPACE/dagster")
    dagster.add_argument("action", choices=["prepare", "reset"],
                         help="prepare: create or migrate it (`signet up` does this first); reset: move it aside "
                              "(run history only, memories untouched) when prepare says it cannot be used")
    dagster.set_defaults(func=_dagster)

    mcp = sub.add_parser("mcp", help="MCP server on stdio (tools call the running API over HTTP)")
    mcp.add_argument("--url", help="the API (default $SIGNET_DAEMON_URL, else http://$SIGNET_HOST:$SIGNET_PORT, "
                                   "else http://localhost:3850); token from $SIGNET_API_KEY or $SIGNET_TOKEN")
    mcp.set_defaults(func=_mcp)

    token = sub.add_parser("token", help="API tokens signed with the workspace secret")
    tokens = token.add_subparsers(dest="action", required=True)
    create = tokens.add_parser("create", help="print a new token")
    create.add_argument("--role", required=True, choices=["admin", "operator", "agent", "readonly"])
    create.add_argument("--sub", required=True, help="who the token stands for (actor name)")
    create.add_argument("--agent", help="scope: the only agent it acts as")
    create.add_argument("--project", help="scope: the only project it may change")
    create.add_argument("--ttl", type=float, help="days until it expires (default auth.defaultTokenTtlDays)")
    create.set_defaults(func=_token_create)

    export = sub.add_parser("export", help="write a snapshot of the memories (Parquet or JSON Lines + manifest)")
    export.add_argument("path", type=Path, help="a new (or empty) directory for the snapshot")
    export.add_argument("--format", choices=["parquet", "jsonl"], default="parquet")
    export.add_argument("--agent", help="only this agent's memories, graph, documents and sessions")
    export.set_defaults(func=_export)

    restore = sub.add_parser("import", help="import a snapshot into the workspace (new or live; run twice, no change)")
    restore.add_argument("path", type=Path, help="a snapshot directory written by `signet export`")
    restore.add_argument("--agent", help="import only this agent's rows (refuse another agent's snapshot)")
    restore.add_argument("--no-bulk", action="store_true",
                         help="write row by row in short transactions, never in one long one (slower; a running "
                              "service's writes never wait on the import)")
    restore.set_defaults(func=_import)

    from signet_cli import client_commands
    from signet_cli.harness import connect, hook

    client_commands.add_parsers(sub)
    hook.add_parser(sub)
    connect.add_parsers(sub)

    evaluate = sub.add_parser("eval", help="retrieval evaluation")
    datasets = evaluate.add_subparsers(dest="dataset", required=True)
    locomo = datasets.add_parser("locomo", help="evidence recall on LoCoMo-format data vs plain baselines")
    locomo.add_argument("file", type=Path, help="LoCoMo JSON (a list of samples)")
    locomo.add_argument("--url", help="a running Signet API (default: start one on a throw-away workspace)")
    locomo.add_argument("--out", type=Path, help="also write the results as JSON")
    locomo.add_argument("--workers", type=int, default=4, help="parallel remember calls (default 4)")
    locomo.add_argument("--alphas", help="extra recall passes with these alpha values, e.g. 0.3,0.5,0.9")
    locomo.add_argument("--min-scores", help="extra recall passes with these min_score values, e.g. 0.1,0.3")
    locomo.add_argument("--hints", action="store_true",
                        help="turn prospective hints on and generate them (extraction provider) before recalling")
    locomo.add_argument("--pipeline", action="store_true",
                        help="run `signet up` (API + Dagster) and recall once the pipeline has drained its queue")
    locomo.set_defaults(func=_eval_locomo)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["hook"]:  # the harness waits on it: no settings, logging or parser of the rest
        from signet_cli.harness import hook

        return hook.main(argv[1:])
    from signet_pipeline.errors import ConfigError, SnapshotError
    from signet_pipeline.telemetry.logs import configure_logging

    args = build_parser().parse_args(argv)
    configure_logging(args.log_level)
    try:
        return args.func(args)
    except (ConfigError, SnapshotError) as exc:
        print(f"signet: {exc}", file=sys.stderr)
        return 2
