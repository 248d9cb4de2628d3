"""The agent roster through the API (`signet agent list | add | info | remove | purge`). Agents
come from agent.yaml's roster, from first writes and from this API (`source`); the roster wins
(409 agent_in_roster) and the API never writes agent.yaml. Remove archives an agent's memories,
purge deletes them as forget does; both run in short transactions of BATCH and are refused while
mutations are frozen. Design: docs/internals.md."""

from __future__ import annotations

from typing import Literal

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, model_validator

from signet_pipeline.errors import MutationRejected, NotFound
from signet_pipeline.request_rules import STRICT, required_when
from signet_pipeline.service import MemoryService
from signet_pipeline.store import agents as agents_store
from signet_pipeline.store import history as history_store
from signet_pipeline.store import memory_writes as writes
from signet_pipeline.store.db import Row
from signet_pipeline.timeutil import now_iso
from signet_pipeline.write.remember import Actor, ensure_writable

NAME = r"^[A-Za-z0-9][A-Za-z0-9._:-]*$"
GROUP = {"type": "string", "minLength": 1, "maxLength": 200}
BATCH = 500
DEFAULT_AGENT = "default"
Policy = Literal["isolated", "shared", "group"]


class AgentCreate(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True, **STRICT,
                              json_schema_extra=required_when("read_policy", "group", policy_group=GROUP))

    name: str = Field(min_length=1, max_length=200, pattern=NAME)
    read_policy: Policy = Field("isolated", validation_alias=AliasChoices("read_policy", "readPolicy"),
                                description="isolated: its own memories only; shared: every global one; "
                                            "group: the global ones of its policy_group's agents")
    policy_group: str | None = Field(None, min_length=1, max_length=200,
                                     validation_alias=AliasChoices("policy_group", "policyGroup"),
                                     description="required with read_policy group; ignored otherwise")

    @model_validator(mode="after")
    def _group(self) -> AgentCreate:
        if self.read_policy == "group" and not self.policy_group:
            raise ValueError("policy_group is required when read_policy is group")
        return self


class AgentView(BaseModel):
    id: str
    name: str
    read_policy: Policy
    policy_group: str | None
    source: Literal["roster", "seen", "api"]
    created_at: str
    updated_at: str


class AgentDetail(AgentView):
    memory_count: int  # its live memories (archived ones included)


class AgentList(BaseModel):
    agents: list[AgentView]
    count: int


class AgentRemoved(BaseModel):
    success: bool
    purged: bool
    archived: int  # memories archived (remove)
    deleted: int  # memories deleted (purge)


def _view(row: Row) -> AgentView:
    return AgentView(id=row["id"], name=row["id"], read_policy=row["read_policy"], policy_group=row["policy_group"],
                     source=row["source"], created_at=row["created_at"], updated_at=row["updated_at"])


def _roster_check(svc: MemoryService, name: str) -> None:
    if name in {a.name for a in svc.settings.agents.roster}:
        raise MutationRejected(f"agent {name!r} is in agents.roster of agent.yaml: change it there",
                               code="agent_in_roster", details={"name": name})


def list_agents(svc: MemoryService) -> AgentList:
    agents = [_view(r) for r in agents_store.all_agents(svc.db.reader())]
    return AgentList(agents=agents, count=len(agents))


def get_agent(svc: MemoryService, name: str, reader: str | None = None) -> AgentDetail:
    """`reader`: the agent asking (a token's), whose count holds only what it may read; None: all."""
    conn = svc.db.reader()
    row = agents_store.get(conn, name)
    if row is None:
        raise NotFound(f"agent {name!r} not found", code="agent_not_found")
    return AgentDetail(**_view(row).model_dump(), memory_count=agents_store.memory_count(conn, name, reader))


def create_agent(svc: MemoryService, req: AgentCreate) -> tuple[AgentView, bool]:
    """(the agent, whether it is new). A first-seen or API agent of that name takes this policy."""
    ensure_writable(svc)
    _roster_check(svc, req.name)
    group = req.policy_group if req.read_policy == "group" else None
    with svc.db.write() as conn:
        created = agents_store.get(conn, req.name) is None
        agents_store.register_api(conn, req.name, req.read_policy, group, now_iso())
        row = agents_store.get(conn, req.name)
    assert row is not None  # registered above, in this transaction
    return _view(row), created


def remove_agent(svc: MemoryService, name: str, *, purge: bool, actor: Actor) -> AgentRemoved:
    ensure_writable(svc)
    if name == DEFAULT_AGENT:
        raise MutationRejected("the default agent cannot be removed", code="default_agent", details={"name": name})
    _roster_check(svc, name)
    if agents_store.get(svc.db.reader(), name) is None:
        raise NotFound(f"agent {name!r} not found", code="agent_not_found")
    reason = f"agent {name} {'purged' if purge else 'removed'}"
    changed = 0
    while True:  # one short transaction per batch: writers are not held up by a large agent
        with svc.db.write() as conn:
            now = now_iso()
            found = agents_store.owned_memories(conn, name, archived=purge, limit=BATCH)
            ids = [r["id"] for r in found]
            versions = (writes.soft_delete_many if purge else writes.archive_many)(conn, ids, now=now,
                                                                                    actor=actor.name)
            for row in found:
                if row["id"] in versions:
                    history_store.record(
                        conn, memory_id=row["id"], event="deleted" if purge else "updated", now=now,
                        old_content=row["content"] if purge else None, changed_by=actor.name,
                        actor_type=actor.type, reason=reason, request_id=actor.request_id,
                        metadata={"force": True} if purge else {"fields": ["visibility"], "visibility": "archived"})
            changed += len(versions)
            if len(found) < BATCH:
                agents_store.delete(conn, name)
                break
    return AgentRemoved(success=True, purged=purge, archived=0 if purge else changed, deleted=changed if purge else 0)
