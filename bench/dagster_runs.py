"""What Dagster did during a benchmark, read from the webserver's GraphQL API: the runs with their
creation, start and end times (launch cost = creation -> start), and whether any is in flight."""

from __future__ import annotations

from dataclasses import dataclass

import httpx

_RUNS = """{ runsOrError(limit: 100000) { ... on Runs { results {
    runId jobName status creationTime startTime endTime } } } }"""
IN_FLIGHT = {"QUEUED", "NOT_STARTED", "STARTING", "STARTED", "CANCELING"}


@dataclass(frozen=True)
class RunInfo:
    run_id: str
    job: str
    status: str
    created: float
    started: float | None
    ended: float | None

    @property
    def launch_s(self) -> float | None:
        """Queue wait + process launch: run created -> run worker started."""
        return self.started - self.created if self.started else None

    @property
    def body_s(self) -> float | None:
        return self.ended - self.started if self.started and self.ended else None


def runs(dagster_url: str) -> list[RunInfo]:
    data = httpx.post(dagster_url + "/graphql", json={"query": _RUNS}, timeout=60).json()
    return [RunInfo(r["runId"], r["jobName"], r["status"], r["creationTime"], r["startTime"], r["endTime"])
            for r in data["data"]["runsOrError"]["results"]]


def in_flight(dagster_url: str) -> int:
    return sum(r.status in IN_FLIGHT for r in runs(dagster_url))
