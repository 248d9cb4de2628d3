"""`signet serve` runs the API; `signet up` runs the API plus Dagster (webserver + daemon)."""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

from signet_pipeline.config import load_settings
from signet_pipeline.errors import ConfigError


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    from signet_api.app import create_app

    overrides = {k: v for k, v in (("host", args.host), ("port", args.port)) if v is not None}
    settings = load_settings(args.workspace)
    if overrides:
        settings.server = settings.server.model_copy(update=overrides)
    uvicorn.run(create_app(settings), host=settings.server.host, port=settings.server.port,
                log_level=args.log_level, access_log=False)
    return 0


def _up(args: argparse.Namespace) -> int:
    from signet_cli.supervisor import run_stack

    settings = load_settings(args.workspace)
    return run_stack(settings, api_port=args.port or settings.server.port, dagster_port=args.dagster_port,
                     host=args.host or settings.server.host, log_level=args.log_level)


def _eval_locomo(args: argparse.Namespace) -> int:
    from signet_eval.harness import run

    def floats(text: str | None) -> list[float] | None:
        return [float(v) for v in text.split(",")] if text else None

    run(args.file, url=args.url, out=args.out, workers=args.workers, alphas=floats(args.alphas),
        min_scores=floats(args.min_scores), hints=args.hints)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="signet", description="Signet memory service")
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
    locomo.set_defaults(func=_eval_locomo)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        return args.func(args)
    except ConfigError as exc:
        print(f"signet: {exc}", file=sys.stderr)
        return 2
