"""Dagster code location for the Signet pipeline.

Assets, sensors, schedules and checks arrive with the pipeline issues; until then the location
carries the store resource so the Dagster UI starts, shows the location and stops cleanly.
"""

from __future__ import annotations

import dagster as dg

from signet_pipeline.resources import SignetStoreResource

defs = dg.Definitions(resources={"signet": SignetStoreResource()})
