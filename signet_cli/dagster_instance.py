"""Dagster's instance under $SIGNET_WORKSPACE/dagster (DAGSTER_HOME): created and migrated once,
before any Dagster process starts (`signet dagster prepare`, run by `signet up`), and set aside
when it cannot be used (`signet dagster reset`).

Why: on a fresh home dagster-webserver and dagster-daemon, started together, both create the SQLite
storages and stamp their schema version. Under load the two race: a storage ends with two rows in
alembic_version ("more than one head") or a failed insert, its code location then fails to load
while the daemon stays up, and nothing drains. Preparing first leaves nothing to race over.

A storage stamped twice (by such a race) is repaired the way Dagster recovers an unstamped one: the
stamps go, opening the instance stamps the last revision its guarded migrations start from, and
`instance.upgrade()` brings it to head. A storage this Dagster cannot open or upgrade (from a newer
Dagster, or damaged) is named in one line with the command that fixes it.
"""

from __future__ import annotations

import logging
import os
import shutil
import sqlite3
import time
from pathlib import Path

from signet_pipeline.config import Settings
from signet_pipeline.errors import ConfigError
from signet_pipeline.ops.pipeline_health import stop_marker

DAGSTER_MODULE = "signet_pipeline.defs.definitions"  # the code location (workspace.yaml names it too)
# The SQLite files of Dagster's default storage (DagsterInstance.local_temp / dagster.yaml without
# a `storage:` key): run storage, the event log's index shard, schedule storage.
SQLITE_STORAGES = ("history/runs.db", "history/runs/index.db", "schedules/schedules.db")
KEEP = ("dagster.yaml",)  # what reset leaves in place


class DagsterStorageError(ConfigError):
    code = "dagster_storage"


def instance_file(name: str) -> Path:
    """dagster.yaml / workspace.yaml: the checkout's top-level file, or the copy in the wheel."""
    import signet_pipeline

    package = Path(signet_pipeline.__file__).resolve().parent
    for candidate in (package.parent / name, package / "_instance" / name):
        if candidate.is_file():
            return candidate
    raise FileNotFoundError(f"{name} not found next to the signet_pipeline package")


def write_config(settings: Settings) -> Path:
    """DAGSTER_HOME with this build's dagster.yaml in it."""
    home = settings.dagster_home
    home.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(instance_file("dagster.yaml"), home / "dagster.yaml")
    return home


def _fix(home: Path) -> str:
    return (f"run `signet dagster reset --workspace {home.parent}` to set it aside (Dagster's run history only; "
            "memories are untouched), then start again")


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
    try:
        repaired = repair_stamps(home)
        with DagsterInstance.from_config(str(home)) as instance:
            behind = _behind(instance)
            if behind:
                instance.upgrade()
                still = _behind(instance)
                if still:
                    raise DagsterStorageError(f"Dagster's storage in {home} did not migrate ({'; '.join(still)}): "
                                              + _fix(home))
    except DagsterStorageError:
        raise
    except Exception as exc:  # noqa: BLE001 - whatever Dagster raises, the operator gets one line and the fix
        first = str(exc).strip().splitlines()[0][:200] if str(exc).strip() else type(exc).__name__
        raise DagsterStorageError(f"Dagster's storage in {home} cannot be used ({first}): {_fix(home)}") from exc
    did = ", ".join(filter(None, [f"repaired double stamps in {', '.join(repaired)}" if repaired else "",
                                  f"migrated {'; '.join(behind)}" if behind else ""]))
    return f"Dagster storage ready in {time.monotonic() - started:.1f} s{': ' + did if did else ''}"


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
        aside = reset(home)
        print(f"moved Dagster's storage to {aside}" if aside else f"nothing to reset in {home}")
        return 0
    write_config(settings)
    os.environ["DAGSTER_HOME"] = str(home)
    print(f"signet: {prepare(home)}", flush=True)
    return 0
