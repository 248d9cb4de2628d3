"""Whose a snapshot's rows are, read from the snapshot itself: a row names its agent, or its parent
row does (`SnapshotTable.owner` / `parent`, the same chain an agent export filters on).

Import uses it three ways: an agent's snapshot holding anyone else's row is refused whole (it lies
about itself: `signet export --agent` never writes one); importing as one agent keeps that agent's
rows of a full snapshot; and every row carries its agent (`OWNER`) to the store's check that it
touches no other agent's rows (snapshot_tables.refused).
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from signet_pipeline.errors import SnapshotError
from signet_pipeline.snapshots.manifest import Manifest, scan
from signet_pipeline.store.snapshot_tables import BY_NAME, TABLES, SnapshotTable

OWNER = "_owner"
_KEY = "_key"


def _owners(root: Path, manifest: Manifest, table: SnapshotTable, by: str) -> pl.LazyFrame:
    """(_key, _owner) for the snapshot's rows of `table`, keyed by its column `by`."""
    entry = manifest.table(table.name)
    if entry is None:
        return pl.LazyFrame(schema={_KEY: pl.String, OWNER: pl.String})
    if table.parent is None:
        return scan(root, entry, manifest).select(pl.col(by).alias(_KEY), pl.col(table.owner).alias(OWNER))
    parent, column = table.parent
    via = _owners(root, manifest, BY_NAME[parent], column).rename({_KEY: "_via"})
    return (scan(root, entry, manifest).select(pl.col(by).alias(_KEY), pl.col(table.owner).alias("_via"))
            .join(via, on="_via", how="left").select(_KEY, OWNER))


def with_owner(frame: pl.LazyFrame, root: Path, manifest: Manifest, table: SnapshotTable) -> pl.LazyFrame:
    """The frame's rows with their agent in the snapshot as OWNER (null when their parent is not in it)."""
    if table.parent is None:
        return frame.with_columns(pl.col(table.owner).alias(OWNER))
    parent, column = table.parent
    # A key repeated with another agent (a forged file) takes either: the store's check refuses
    # the row whenever the store holds the parent for another agent.
    owners = _owners(root, manifest, BY_NAME[parent], column).unique(_KEY, keep="any")
    return frame.join(owners, left_on=table.owner, right_on=_KEY, how="left")


def agent_rows(frame: pl.LazyFrame, root: Path, manifest: Manifest, table: SnapshotTable, agent: str, *,
               theirs: bool = True) -> pl.LazyFrame:
    """The frame's rows of `agent` (theirs=False: every other row, rows of no agent included)."""
    if table.parent is None:
        mine = pl.col(table.owner).eq_missing(agent)
        return frame.filter(mine if theirs else ~mine)
    parent, column = table.parent
    owned = _owners(root, manifest, BY_NAME[parent], column).filter(pl.col(OWNER) == agent).select(_KEY)
    return frame.join(owned, left_on=table.owner, right_on=_KEY, how="semi" if theirs else "anti")


def check_agent(root: Path, manifest: Manifest, agent: str) -> None:
    """Refuse a snapshot of `agent` that holds a row of anyone else, before anything is written."""
    for table in TABLES:
        entry = manifest.table(table.name)
        if entry is None:
            continue
        shown = list(dict.fromkeys((*table.key, table.owner)))
        foreign = agent_rows(scan(root, entry, manifest), root, manifest, table, agent, theirs=False)
        found = foreign.select(shown).head(1).collect()
        if found.height:
            row = ", ".join(f"{k}={v!r}" for k, v in found.row(0, named=True).items())
            raise SnapshotError(f"{entry.file} holds a row that is not agent {agent}'s ({row}): a snapshot of "
                                f"agent {agent} holds only that agent's rows; it was refused, nothing was imported",
                                code="snapshot_foreign_rows")
