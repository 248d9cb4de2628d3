"""The knowledge graph and session history tools (the reference's names and arguments): list and
walk the graph (entity -> aspect -> group -> claim -> attributes, or the tree at once), expand an
entity or its sessions, expand a session summary's lineage, search transcripts. Every one reads
as the caller: the graph and the memories of the caller's agent, under its read policy."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, Field

from signet_api.mcp.tool import MAX_QUERY_CHARS, ApiRequest, Args, Tool
from signet_pipeline.models import MAX_PROJECT_CHARS

Name = Field(..., min_length=1, max_length=200, description="the entity's name (exact, prefix or substring match)")
AspectName = Field(..., min_length=1, max_length=100,
                   description="the aspect's name, e.g. food (knowledge_list_aspects)")
GroupKey = Field(..., min_length=1, max_length=200, description="the group key (knowledge_list_groups; `general`: "
                                                                "attributes without a group)")
ENTITIES = "/api/knowledge/navigation/entities"


class AgentArgs(Args):
    agent_id: str | None = Field(None, min_length=1, max_length=200, serialization_alias="agentId",
                                 description="whose graph (default: yours; a token scoped to an agent always reads "
                                             "its own)")


class EntitiesArgs(AgentArgs):
    query: str | None = Field(None, max_length=200, serialization_alias="q", description="substring of the name")
    type: str | None = Field(None, max_length=50, description="only this entity type (person, project, tool, ...)")
    limit: int = Field(50, ge=1, le=500, description="page size")
    offset: int = Field(0, ge=0, le=10_000_000, description="entities to skip")


class GetEntityArgs(AgentArgs):
    name: str = Name


class EntityArgs(AgentArgs):
    entity: str = Name


class AspectArgs(EntityArgs):
    aspect: str = AspectName


class GroupArgs(AspectArgs):
    group: str = GroupKey
    limit: int = Field(50, ge=1, le=200, description="max claims")
    offset: int = Field(0, ge=0, le=10_000_000, description="claims to skip")


class ClaimArgs(AspectArgs):
    group: str = GroupKey
    claim: str = Field(..., min_length=1, max_length=200, description="the claim key (knowledge_list_claims)")
    status: Literal["active", "superseded", "deleted", "all"] = Field(
        "active", description="active (default): what holds now; all: with the superseded history")
    kind: Literal["attribute", "constraint"] | None = Field(None, description="only this kind")
    limit: int = Field(50, ge=1, le=200, description="max attributes")
    offset: int = Field(0, ge=0, le=10_000_000, description="attributes to skip")


class TreeArgs(AgentArgs):
    entity: str | None = Field(None, min_length=1, max_length=200,
                               description="the entity's name; omit it to list the entities first")
    depth: int = Field(3, ge=1, le=3, description="1: aspects, 2: their groups, 3: the groups' claims")
    max_aspects: int = Field(20, ge=1, le=100, description="max aspects (without entity: max entities)")
    max_groups: int = Field(20, ge=1, le=100, description="max groups per aspect")
    max_claims: int = Field(50, ge=1, le=200, description="max claims per group")


class ExpandArgs(AgentArgs):
    entity_name: str = Field(..., min_length=1, max_length=200, serialization_alias="entity",
                             description="the entity's name, e.g. a person, project or tool")
    aspect_filter: str | None = Field(None, min_length=1, max_length=100, serialization_alias="aspect",
                                      description="only aspects whose name contains this")
    question: str | None = Field(None, max_length=2000, exclude=True,
                                 description="what you want to know about it (for your own context; not sent)")
    max_tokens: int = Field(2000, ge=1, le=10_000, serialization_alias="maxTokens",
                            description="budget for the memories' text")


class EntitySessionsArgs(AgentArgs):
    entity_name: str = Field(..., min_length=1, max_length=200, serialization_alias="entityName",
                             description="the entity's name")
    session_id: str | None = Field(None, min_length=1, max_length=500, serialization_alias="sessionId",
                                   description="only this session's summaries")
    time_range: str | None = Field(None, max_length=64, serialization_alias="timeRange",
                                   description="last_week, last_month, or an ISO 8601 date: only summaries since")
    max_results: int = Field(10, ge=1, le=50, serialization_alias="maxResults", description="max summaries")


class LineageArgs(AgentArgs):
    id: str = Field(..., min_length=1, max_length=500,
                    description="a session summary's memory id (or of a fact extracted from one), or a session key")
    include_transcript: bool = Field(True, serialization_alias="includeTranscript",
                                     description="include the session's transcript (yours only)")
    transcript_char_limit: int = Field(2000, ge=200, le=12_000, serialization_alias="transcriptCharLimit",
                                       description="max transcript characters")


class SessionSearchArgs(Args):
    query: str = Field(..., min_length=1, max_length=MAX_QUERY_CHARS, description="words, or a session key")
    limit: int = Field(10, ge=1, le=50, description="max sessions")
    project: str | None = Field(None, max_length=MAX_PROJECT_CHARS, description="only sessions of this project")


@dataclass(frozen=True)
class TreeTool(Tool):
    """knowledge_tree without an entity lists the entities, as the reference's does."""

    def request(self, args: BaseModel) -> ApiRequest:
        assert isinstance(args, TreeArgs)
        if args.entity is not None:
            return super().request(args)
        return ApiRequest("GET", ENTITIES, params={"limit": args.max_aspects,
                                                   **({"agentId": args.agent_id} if args.agent_id else {})})


KNOWLEDGE_TOOLS = (
    Tool("knowledge_entities", "List knowledge entities",
         "List the entities (people, projects, tools, ...) of the knowledge graph built from memories: pinned "
         "first, then the most mentioned. Filter by a name substring or a type.",
         EntitiesArgs, "GET", "/api/knowledge/entities", read_only=True),
    Tool("knowledge_constellation", "Knowledge graph overview",
         "The whole knowledge graph at once: each entity with its aspects and their attributes (facts and "
         "constraints), and the dependencies between entities.",
         AgentArgs, "GET", "/api/knowledge/constellation", read_only=True),
    TreeTool("knowledge_tree", "Knowledge tree",
             "A compact outline of one entity: its aspects (rooms), their groups (dressers) and claims (drawers) "
             "with counts and a preview of what each holds now. Use it first when you know an entity, to see "
             "what there is before reading it. Without entity: the entities.",
             TreeArgs, "GET", "/api/knowledge/navigation/tree", read_only=True),
    Tool("knowledge_list_entities", "Knowledge: list entities",
         "List entities with how many aspects, attributes, constraints and dependencies each has. Use it first "
         "when you do not know an entity's exact name.",
         EntitiesArgs, "GET", ENTITIES, read_only=True),
    Tool("knowledge_get_entity", "Knowledge: get entity",
         "Resolve one entity by name and return it with its structural counts. Then knowledge_tree shows "
         "what it holds.",
         GetEntityArgs, "GET", "/api/knowledge/navigation/entity", read_only=True),
    Tool("knowledge_list_aspects", "Knowledge: list aspects",
         "List an entity's aspects (broad rooms like food or work), heaviest first, with attribute and "
         "constraint counts.",
         EntityArgs, "GET", "/api/knowledge/navigation/aspects", read_only=True),
    Tool("knowledge_list_groups", "Knowledge: list groups",
         "List the groups inside one aspect of an entity (subdivisions, like dressers in a room), with counts.",
         AspectArgs, "GET", "/api/knowledge/navigation/groups", read_only=True),
    Tool("knowledge_list_claims", "Knowledge: list claims",
         "List the claims of one group (drawers: one updatable fact slot each) with how many current and "
         "superseded observations they hold and a preview of the current one.",
         GroupArgs, "GET", "/api/knowledge/navigation/claims", read_only=True),
    Tool("knowledge_list_attributes", "Knowledge: list attributes",
         "List the saved observations of one entity/aspect/group/claim path, newest first: the current ones, "
         "or status=all for the superseded history too.",
         ClaimArgs, "GET", "/api/knowledge/navigation/attributes", read_only=True),
    Tool("knowledge_expand", "Expand an entity",
         "Everything known about one entity (person, project, system, ...): its constraints (always to be "
         "respected), aspects with their main attributes, what it depends on, and the memories about it, "
         "within a token budget.",
         ExpandArgs, "POST", "/api/knowledge/expand", read_only=True),
    Tool("knowledge_expand_session", "Sessions about an entity",
         "The summaries of earlier sessions that dealt with an entity, newest first. Follow one with "
         "lcm_expand for its details and transcript.",
         EntitySessionsArgs, "POST", "/api/knowledge/expand/session", read_only=True),
    Tool("lcm_expand", "Expand a session summary",
         "Drill into a session summary (or a fact extracted from one, or a session key): what it came from, "
         "the facts extracted from it, the session's other summaries and, for your own sessions, the "
         "transcript.",
         LineageArgs, "POST", "/api/sessions/summaries/expand", read_only=True),
    Tool("session_search", "Search session transcripts",
         "Search the transcripts of your earlier sessions for words or a question; returns each matching "
         "session's key, project, last update and an excerpt (expand one with lcm_expand).",
         SessionSearchArgs, "POST", "/api/sessions/search", read_only=True),
)
