"""Dagster resources: how assets reach the memory store (thin; the domain does the work)."""

from __future__ import annotations

import dagster as dg

from signet_pipeline.config import Settings, load_settings


class SignetStoreResource(dg.ConfigurableResource):
    """The Signet workspace whose memories.db the pipeline reads and writes.

    Empty `workspace` means SIGNET_WORKSPACE (or ~/.agents), as for the API process.
    """

    workspace: str = ""

    def settings(self) -> Settings:
        return load_settings(self.workspace or None)
