"""dagster.yaml as this workspace's Dagster processes read it: the shipped file (run queue, monitoring,
retention) plus what the `dagster.*` settings choose: where Dagster keeps runs, events and schedules
(`storage: sqlite | postgres`) and what starts each run (`runLauncher`). docs/SCALING.md says when to
choose what.

The PostgreSQL URL carries a password, so it is never written: dagster.yaml reads it from the
environment variable POSTGRES_URL_ENV (Dagster resolves `{env: VAR}` itself), and every Dagster
process `signet up` starts gets that variable (`dagster_env`). Messages show the URL masked.
`dagster_env` also points NUMBA_CACHE_DIR into the workspace, so UMAP's compiled code outlives a run.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import yaml

from signet_pipeline.config import Settings
from signet_pipeline.errors import ConfigError

# The variable Settings reads `dagster.postgresUrl` from, so one name works for signet and for Dagster.
POSTGRES_URL_ENV = "SIGNET_DAGSTER__POSTGRES_URL"
SCHEMES = ("postgresql", "postgresql+psycopg2")
# SQLAlchemy 2.1 reads a bare postgresql:// as psycopg 3, which dagster-postgres does not install (it
# needs psycopg2): the URL Dagster's processes get names the driver.
ENGINE_SCHEME = "postgresql+psycopg2"
TEAM_EXTRA = "install the team extra: pip install 'signet-memory[team]' (dagster-postgres, psycopg2)"
RENDERED = ("storage", "run_launcher")  # keys the settings own; the shipped file must not set them
# Without a cache every projection run compiled UMAP's numba code again (~15 s of each run).
NUMBA_CACHE_ENV = "NUMBA_CACHE_DIR"


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


def masked(url: str) -> str:
    """The URL with its password replaced, fit for a log line."""
    try:
        parts = urlsplit(url)
        if parts.password is None:
            # no password, or one urlsplit cannot see ("user:pw@host" without a scheme): show none of it then
            return url if "@" not in url or parts.username is not None else "<the configured URL>"
        host = f"[{parts.hostname}]" if ":" in (parts.hostname or "") else parts.hostname or ""  # IPv6
        netloc = f"{parts.username or ''}:***@{host}" + (f":{parts.port}" if parts.port else "")
        return urlunsplit(parts._replace(netloc=netloc))
    except ValueError:  # a malformed port, say: show nothing of it rather than risk the password
        return "<the configured URL>"


def scrub(text: str, url: str) -> str:
    """`text` (an error message) without the URL's password, should a driver have quoted it."""
    password = _password(url)
    text = text.replace(url, masked(url))
    return text.replace(password, "***") if password else text


def _password(url: str) -> str | None:
    try:
        return urlsplit(url).password
    except ValueError:
        return None


def postgres_url(settings: Settings) -> str | None:
    """The PostgreSQL URL when `dagster.storage` is postgres (None for sqlite); a missing or unusable
    URL, or dagster-postgres not installed, is one line naming the fix."""
    if settings.dagster.storage != "postgres":
        return None
    secret = settings.dagster.postgres_url
    url = secret.get_secret_value().strip() if secret is not None else ""
    if not url:
        raise DagsterStorageError(f"dagster.storage is postgres but no URL is set: export {POSTGRES_URL_ENV}="
                                  "postgresql://USER:PASSWORD@HOST:5432/DATABASE (or set dagster.postgresUrl)")
    try:
        parts = urlsplit(url)
        ok = parts.scheme in SCHEMES and bool(parts.hostname) and bool(parts.path.strip("/"))
    except ValueError:
        ok = False
    if not ok:
        raise DagsterStorageError(f"dagster.postgresUrl {masked(url)} is not a PostgreSQL URL: write it as "
                                  "postgresql://USER:PASSWORD@HOST:5432/DATABASE")
    if importlib.util.find_spec("dagster_postgres") is None:
        raise DagsterStorageError(f"dagster.storage postgres needs dagster-postgres: {TEAM_EXTRA}")
    return url


def dagster_env(settings: Settings) -> dict[str, str]:
    """Environment every Dagster process of this workspace needs beyond DAGSTER_HOME: the URL that
    dagster.yaml refers to (it may come from agent.yaml, which Dagster does not read), with its driver,
    and where numba keeps UMAP's compiled code across runs (stages/umap_jit.py; unless set already)."""
    env = {NUMBA_CACHE_ENV: os.environ.get(NUMBA_CACHE_ENV) or str(settings.workspace / "cache" / "numba")}
    url = postgres_url(settings)
    if url:
        env[POSTGRES_URL_ENV] = ENGINE_SCHEME + url[url.index("://"):]
    return env


def rendered_keys(settings: Settings) -> dict[str, Any]:
    """The dagster.yaml keys the settings decide. SQLite is Dagster's default storage (files in
    DAGSTER_HOME), so it needs no key and the file layout stays what it always was."""
    launcher = settings.dagster.run_launcher
    keys: dict[str, Any] = {"run_launcher": {"module": launcher.module, "class": launcher.class_name}}
    if launcher.config:
        keys["run_launcher"]["config"] = launcher.config
    if postgres_url(settings):
        keys["storage"] = {"postgres": {"postgres_url": {"env": POSTGRES_URL_ENV}}}
    return keys


def render(settings: Settings) -> str:
    """dagster.yaml: the shipped file as written (its comments say why), then the rendered keys."""
    shipped = instance_file("dagster.yaml").read_text(encoding="utf-8")
    clash = sorted(set(RENDERED) & set(yaml.safe_load(shipped) or {}))
    if clash:  # YAML would let the later key win silently
        raise ConfigError(f"the shipped dagster.yaml sets {', '.join(clash)}: the dagster.* settings own them")
    return (shipped.rstrip("\n") + "\n# From the dagster.* settings (signet_cli/dagster_config.py, docs/SCALING.md).\n"
            + yaml.safe_dump(rendered_keys(settings), sort_keys=False, default_flow_style=False))


def postgres_url_of(home: Path) -> str | None:
    """The PostgreSQL URL the instance in `home` will connect to (None: not PostgreSQL storage), read
    the way Dagster reads it: from the variable dagster.yaml names."""
    config = yaml.safe_load((home / "dagster.yaml").read_text(encoding="utf-8")) or {}
    source = ((config.get("storage") or {}).get("postgres") or {}).get("postgres_url")
    if isinstance(source, dict) and "env" in source:
        value = os.environ.get(source["env"], "")
        if not value:
            raise DagsterStorageError(f"{source['env']} is not set: {home / 'dagster.yaml'} reads Dagster's "
                                      "PostgreSQL URL from it")
        return value
    return source if isinstance(source, str) else None


def check_reachable(url: str, timeout_s: int = 5) -> None:
    """Connect once, so an unreachable or refusing server is one line with its fix, not the
    traceback Dagster's retries end in."""
    try:
        import psycopg2
    except ImportError as exc:
        raise DagsterStorageError(f"dagster.storage postgres needs psycopg2: {TEAM_EXTRA}") from exc
    if "://" not in url:
        raise DagsterStorageError(f"Dagster's PostgreSQL URL {masked(url)} is not a URL: write it as "
                                  "postgresql://USER:PASSWORD@HOST:5432/DATABASE")
    libpq = "postgresql" + url[url.index("://"):]  # libpq knows no "+driver" suffix
    try:
        psycopg2.connect(libpq, connect_timeout=timeout_s).close()
    except psycopg2.Error as exc:
        reason = " ".join(str(exc).split()) or type(exc).__name__
        raise DagsterStorageError(
            f"Dagster's PostgreSQL at {masked(url)} cannot be reached ({scrub(reason, url)[:300]}): start it, or fix "
            f"{POSTGRES_URL_ENV} / dagster.postgresUrl (host, port, user, password, database)") from exc
