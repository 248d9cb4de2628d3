"""Schemathesis over the OpenAPI schema: generated requests (valid and invalid) against a real
`signet serve` on loopback must never get a 5xx. Bounded: a few examples per operation.
(Driven through Hypothesis directly: schemathesis' pytest plugin does not load on this pytest.)"""

import os
from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error

from signet_eval.server import ApiServer

EXAMPLES = 25


@pytest.fixture(scope="module")
def api(tmp_path_factory):
    workspace = tmp_path_factory.mktemp("fuzz-ws")
    # Codex notes are files in the user's home: the server under test writes them here instead.
    saved = os.environ.get("CODEX_HOME")
    os.environ["CODEX_HOME"] = str(workspace / "codex")
    server = ApiServer(workspace, Path(workspace) / "serve.log")
    server.start()
    try:
        yield server
    finally:
        server.stop()
        if saved is None:
            os.environ.pop("CODEX_HOME", None)
        else:
            os.environ["CODEX_HOME"] = saved


def test_no_generated_request_gets_a_server_error(api):
    schema = schemathesis.openapi.from_url(f"{api.base_url}/openapi.json")
    failures: dict[str, str] = {}
    calls: list[str] = []
    operations = 0
    for result in schema.get_all_operations():
        operation = result.ok()
        operations += 1

        @given(case=operation.as_strategy())
        @settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
                  suppress_health_check=list(HealthCheck))
        def run(case):
            calls.append(case.operation.label)
            if case.operation.path == "/api/logs/stream":  # an event stream: bounded so the call returns
                case.query = {**(case.query or {}), "maxSeconds": 1}
            case.call_and_validate(checks=[not_a_server_error], timeout=30)

        try:
            run()
        except (Exception, BaseExceptionGroup) as exc:  # collect every failing operation, then report them
            failures[operation.label] = str(exc)[:600]
    assert operations >= 40 and len(calls) >= 3 * operations  # every operation got several requests
    assert failures == {}, "\n\n".join(f"{label}: {error}" for label, error in failures.items())
