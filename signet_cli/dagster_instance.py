"""Dagster's instance under $SIGNET_WORKSPACE/dagster (DAGSTER_HOME): created and migrated once,
before any Dagster process starts (`signet dagster prepare`, run by `signet up`), and set aside
when it cannot be used (`signet dagster reset`). Preparing first leaves the webserver and daemon
nothing to race over; a storage stamped twice is repaired, one this Dagster cannot open is named
with the command that fixes it. The same holds for a PostgreSQL schema, which reset never touches
(docs/internals.md; docs/decisions.md, "Dagster's storage is prepared once")."""

from __future__ import annotations

import logging
import os
import shutil
import sqlite3
import time
from pathlib import Path

import yaml

from signet_cli.dagster_config import (
    DagsterStorageError,
    check_reachable,
    dagster_env,
    instance_file,
    masked,
    postgres_url_of,
    render,
    scrub,
)
from signet_pipeline.config import Settings
from signet_pipeline.errors import ConfigError
from signet_pipeline.ops.pipeline_health import stop_marker

DAGSTER_MODULE = "signet_pipeline.defs.definitions"  # the code location (workspace.yaml names it too)
# The SQLite files of Dagster's default storage (DagsterInstance.local_temp / dagster.yaml without
# a `storage:` key): run storage, the event log's index shard, schedule storage.
SQLITE_STORAGES = ("history/runs.db", "history/runs/index.db", "schedules/schedules.db")
KEEP = ("dagster.yaml",)  # what reset leaves in place


# DagsterStorageError and instance_file live in dagster_config; callers import them from here as before.
__all__ = ["DagsterStorageError", "instance_file", "main", "prepare", "repair_stamps", "reset", "write_config"]


def write_config(settings: Settings) -> Path:
    """DAGSTER_HOME with this build's dagster.yaml, rendered from the dagster.* settings, in it."""
    home = settings.dagster_home
    home.mkdir(parents=True, exist_ok=True)
    text = render(settings)
    partial = home / f"dagster.yaml.{os.getpid()}.partial"  # replaced whole: no process reads half a file
    partial.write_text(text, encoding="utf-8")
    os.replace(partial, home / "dagster.yaml")
    return home


def _fix(home: Path, url: str | None = None) -> str:
    if url:
        return ("stop every Dagster process that uses it, then point dagster.postgresUrl at a new database or drop "
                "and recreate this one (Dagster's run history only; memories are untouched), then start again")
    return (f"run `signet dagster reset --workspace {home.parent}` to set it aside (Dagster's run history only; "
            "memories are untouched), then start again")


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0][:200] if text else type(exc).__name__


def _check_launcher(instance, home: Path) -> None:
    """Load the run launcher now: a wrong module, class or config is one line here, not a daemon
    that fails at its first run."""
    try:
        instance.run_launcher  # noqa: B018 - loading it is the check
    except Exception as exc:  # noqa: BLE001 - whatever the launcher raises, one line and the fix
        config = yaml.safe_load((home / "dagster.yaml").read_text(encoding="utf-8")) or {}
        named = config.get("run_launcher") or {}
        raise ConfigError(f"Dagster's run launcher {named.get('module')}.{named.get('class')} cannot be loaded "
                          f"({_first_line(exc)}): fix dagster.runLauncher (module, class, config) or install its "
                          "package (dagster-docker, dagster-k8s)") from exc


def repair_stamps(home: Path) -> list[str]:
    """Remove the schema stamps of SQLite storages stamped more than once. Returns the repaired files."""
    repaired = []
    for relative in SQLITE_STORAGES:
        path = home / relative
        if not path.is_file():
            continue
        with sqlite3.connect(path) as conn:
            try:
                stamps = conn.execute("SELECT count(*) FROM alembic_version").fetchone()[0]
            except sqlite3.DatabaseError:
                continue  # no version table yet (opening the instance stamps it) or not a database (upgrade says)
            if stamps > 1:
                conn.execute("DELETE FROM alembic_version")
                repaired.append(relative)
    return repaired


def _behind(instance) -> list[str]:
    storages = {"run": instance.run_storage, "event log": instance.event_log_storage,
                "schedule": instance.schedule_storage}
    behind = []
    for name, storage in storages.items():
        current, latest = storage.alembic_version() if storage is not None else (None, None)
        if current != latest:
            behind.append(f"{name} storage at {current or 'no revision'} (this Dagster: {latest})")
    return behind


def prepare(home: Path) -> str:
    """Create or migrate the instance in `home` (dagster.yaml already there). Returns a one-line
    summary; raises DagsterStorageError naming the fix when the storage cannot be used."""
    from dagster import DagsterInstance

    stop_marker(home).unlink(missing_ok=True)  # a stop marker left by a stack that was killed
    logging.getLogger("alembic").setLevel(logging.WARNING)  # a dozen INFO lines per storage otherwise
    started = time.monotonic()
    url = postgres_url_of(home)
    where = f"PostgreSQL at {masked(url)}" if url else str(home)
    if url:
        check_reachable(url)
    try:
        repaired = repair_stamps(home)
        with DagsterInstance.from_config(str(home)) as instance:
            behind = _behind(instance)
            if behind:
                instance.upgrade()
                still = _behind(instance)
                if still:
                    raise DagsterStorageError(f"Dagster's storage in {where} did not migrate ({'; '.join(still)}): "
                                              + _fix(home, url))
            _check_launcher(instance, home)
    except ConfigError:
        raise
    except Exception as exc:  # noqa: BLE001 - whatever Dagster raises, the operator gets one line and the fix
        first = scrub(_first_line(exc), url) if url else _first_line(exc)
        raise DagsterStorageError(f"Dagster's storage in {where} cannot be used ({first}): {_fix(home, url)}") from exc
    did = ", ".join(filter(None, [f"repaired double stamps in {', '.join(repaired)}" if repaired else "",
                                  f"migrated {'; '.join(behind)}" if behind else ""]))
    return (f"Dagster storage ready in {time.monotonic() - started:.1f} s{' (' + where + ')' if url else ''}"
            f"{': ' + did if did else ''}")


def reset(home: Path) -> Path | None:
    """Move everything but dagster.yaml into home/broken-<time>/. Returns that folder (None: nothing to move)."""
    entries = [p for p in home.iterdir() if p.name not in KEEP and not p.name.startswith("broken-")] \
        if home.is_dir() else []
    if not entries:
        return None
    aside = home / f"broken-{time.strftime('%Y%m%d-%H%M%S')}"
    aside.mkdir()
    for entry in entries:
        shutil.move(str(entry), aside / entry.name)
    return aside


def main(settings: Settings, action: str) -> int:
    """`signet dagster prepare|reset` (signet_cli/main.py)."""
    home = settings.dagster_home
    if action == "reset":
        # The files here are logs then; the storage is a database others may share.
        if settings.dagster.storage == "postgres":
            secret = settings.dagster.postgres_url
            at = f" at {masked(secret.get_secret_value())}" if secret is not None else ""
            raise DagsterStorageError(
                f"signet dagster reset sets aside SQLite storage only; Dagster's storage here is the PostgreSQL "
                f"database{at}, which signet never drops: to start it over, stop every Dagster process that uses "
                "it, drop and recreate the database (dropdb, createdb), then run `signet dagster prepare`")
        aside = reset(home)
        print(f"moved Dagster's storage to {aside}" if aside else f"nothing to reset in {home}")
        return 0
    write_config(settings)
    os.environ.update(dagster_env(settings))  # what dagster.yaml refers to, whether from env or agent.yaml
    os.environ["DAGSTER_HOME"] = str(home)
    print(f"signet: {prepare(home)}", flush=True)
    return 0
