"""The OpenAPI schema says what the API does: schemathesis with every check (CONFIG) over every
operation, against a real `signet serve` on loopback, through its CLI as CI runs it
(schemathesis' pytest plugin does not load on this pytest). A failure prints schemathesis' report:
each failing request as curl, the response, and the check it broke.

Phases: coverage (every parameter's boundaries, missing and wrong-typed values, undeclared
methods), fuzzing (random valid and invalid requests) and stateful (sequences along the links
schemathesis infers: create, then read, change, delete what was created). Every check applies to
this server; two find nothing to test on it and pass: ignored_auth (the schema says a token is
optional: local mode and loopback callers in hybrid mode need none) and object_level_authorization
(it needs two configured identities).

On loopback in local mode no request is refused for its token or for frozen writes: two more runs,
in-process, send valid requests of every operation to a store with mutations frozen and to a
team-mode app without a token, and check that each answer (503, 401) is one the schema documents."""

import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
import schemathesis
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, Phase, given, settings
from schemathesis.checks import content_type_conformance, response_schema_conformance, status_code_conformance

from signet_api.app import create_app
from signet_eval.server import ApiServer
from tests.conftest import TESTS

SCHEMATHESIS = Path(sys.executable).parent / "schemathesis"
HOOKS = TESTS / "openapi_fuzz_hooks.py"  # leaves out bodies breaking a cross-field rule
CONFIG = """
# Every check (as `--checks all`, which would also override the per-operation settings below).
[checks]
enabled = true

# A body over its byte limit is refused with 413, and a request target over its bound with 414, valid
# or not: a JSON schema counts characters, not bytes (a character is 1 to 12 bytes once encoded).
[checks.negative_data_rejection]
expected-statuses = ["400", "401", "403", "404", "405", "406", "409", "413", "414", "415", "422", "428", "429", "5xx"]
[checks.positive_data_acceptance]
expected-statuses = ["2xx", "3xx", "401", "403", "404", "409", "413", "414", "429", "5xx"]

# The log stream stays open until the client leaves: read its first event (`connected`) and hang up.
[[operations]]
include-name = "GET /api/logs/stream"
max-stream-events = 1

# A connector's rootPath must lie under connectors.allowedRoots, the operator's setting, which no
# schema states (nor should: it names directories of the server): a valid-looking one is refused.
[[operations]]
include-name = "POST /api/connectors"
checks.positive_data_acceptance.enabled = false
"""


@pytest.fixture(scope="module")
def api(tmp_path_factory):
    workspace = tmp_path_factory.mktemp("fuzz-ws")
    # Codex notes are files in the user's home: the server under test writes them here instead.
    server = ApiServer(workspace, Path(workspace) / "serve.log", env={"CODEX_HOME": str(workspace / "codex")})
    server.start()
    try:
        yield server
    finally:
        server.stop()


def run_schemathesis(api: ApiServer, tmp_path: Path, *, examples: int) -> subprocess.CompletedProcess:
    config = tmp_path / "schemathesis.toml"
    config.write_text(CONFIG)
    command = [str(SCHEMATHESIS), "--no-color", "--config-file", str(config), "run", f"{api.base_url}/openapi.json",
               "--phases", "coverage,fuzzing,stateful", "--max-examples", str(examples),
               "--seed", "23", "--workers", "2", "--request-timeout", "20", "--continue-on-failure",
               "--generation-database", "none", "--suppress-health-check", "all"]
    env = {**os.environ, "SCHEMATHESIS_HOOKS": str(HOOKS)}
    return subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=900)


def report(run: subprocess.CompletedProcess) -> str:
    """The failures and the summary (the progress lines before them say nothing)."""
    out = run.stdout + run.stderr
    start = out.find("FAILURES")
    return out[start - 40:] if start >= 0 else out[-6000:]


def test_the_schema_says_what_the_api_does(api, tmp_path):
    run = run_schemathesis(api, tmp_path, examples=20)
    summary = re.search(r"Operations:\s+(\d+) selected / (\d+) total", run.stdout)
    assert summary and int(summary[1]) >= 70 and summary[1] == summary[2], run.stdout[-3000:]
    assert run.returncode == 0, report(run)


@pytest.mark.slow
def test_the_schema_says_what_the_api_does_at_length(api, tmp_path):
    run = run_schemathesis(api, tmp_path, examples=100)
    assert run.returncode == 0, report(run)


def documented_answers(app: FastAPI, schema: dict, examples: int = 2) -> Counter:
    """Valid requests of every operation of `schema` sent to `app` in-process: each answer's status,
    media type and body must be the schema's. Returns how often each status came back."""
    statuses: Counter = Counter()
    checks = [status_code_conformance, content_type_conformance, response_schema_conformance]
    api = schemathesis.openapi.from_dict(schema)
    api.app = app
    with TestClient(app):  # the lifespan: app.state (service, auth)
        for result in api.get_all_operations():
            operation = result.ok()

            @given(case=operation.as_strategy())
            @settings(max_examples=examples, deadline=None, derandomize=True, database=None, phases=[Phase.generate],
                      suppress_health_check=list(HealthCheck))
            def call(case):
                if case.operation.path == "/api/logs/stream":  # an event stream: ended by its own bound
                    case.query = {**(case.query or {}), "maxSeconds": 0.1}
                statuses[case.call_and_validate(checks=checks).status_code] += 1

            call()
    return statuses


def test_frozen_writes_and_missing_tokens_answer_as_documented(make_service):
    local = make_service()
    schema = create_app(service=local).openapi()
    frozen = make_service(memory={"pipelineV2": {"mutationsFrozen": True}})
    assert documented_answers(create_app(service=frozen), schema)[503] >= 20  # every write route refuses
    team = make_service(auth={"mode": "team"})
    answers = documented_answers(create_app(service=team), schema)
    assert answers[401] >= 100 and sum(answers.values()) - answers[401] < 20  # the routes open to all answer


AST_RACE = """
import ast, gc, runpy, sys, threading
if sys.argv[1] == "hooks":
    runpy.run_path(sys.argv[2])
sys.setswitchinterval(1e-6)
gc.set_threshold(10)

class Cycle:  # collected by the GC, whose finalizer lets the other thread run mid-parse
    def __del__(self):
        [i for i in range(3)]

source = "\\n".join(f"def g{i}(a):\\n    return [a for a in range({i})]" for i in range(200))
errors = []

def parse():
    try:
        for _ in range(400):
            for _ in range(200):
                a, b = Cycle(), Cycle()
                a.b, b.a = b, a
            ast.parse(source)
    except SystemError as error:
        errors.append(error)

threads = [threading.Thread(target=parse) for _ in range(2)]
[t.start() for t in threads]
[t.join() for t in threads]
print(len(errors), *errors)
"""


def test_the_hooks_keep_two_workers_from_racing_in_ast_parse():
    """Python 3.11.7's ast.parse shares its recursion depth across threads (python/cpython#106905):
    without the hooks two threads parsing at once can fail; with them, never."""
    run = subprocess.run([sys.executable, "-c", AST_RACE, "hooks", str(HOOKS)], capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 0 and run.stdout.split()[0] == "0", run.stdout + run.stderr
