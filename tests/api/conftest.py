"""Fixtures shared by the API's test modules."""

import pytest
from fastapi.testclient import TestClient

from signet_api.app import create_app
from signet_pipeline.auth.tokens import TokenScope, issue, load_or_create_secret
from tests.conftest import remember
from tests.live_server import LiveServer

NOTES = ["critical: [home]: The spare key hangs behind the garage door",
         "[work, db]: We decided to use Postgres over MySQL for the billing service",
         "Priya Sharma maintains the billing service", "Priya Sharma prefers dark mode in every editor",
         "The staging cluster lives in Frankfurt", "Standup meetings happen at 9:30 every weekday",
         "Alice is allergic to peanuts", "Release notes are written in the CHANGELOG file"]


@pytest.fixture
def site(client, svc):
    for note in NOTES:
        remember(client, note)
    with LiveServer(create_app(service=svc)) as server:
        yield server.url


@pytest.fixture
def team(make_service, workspace):
    """A team-mode service's client, and a token maker: token(role, sub=..., **scope) -> headers."""
    svc = make_service(auth={"mode": "team"}, connectors={"allowedRoots": ["/tmp"]})  # the matrix registers /tmp
    secret = load_or_create_secret(svc.settings.auth_secret_path)

    def token(role, sub="tester", **scope):
        return {"authorization": f"Bearer {issue(secret, sub=sub, role=role, scope=TokenScope(**scope), ttl_s=600)[0]}"}

    with TestClient(create_app(service=svc)) as client:
        yield client, token
