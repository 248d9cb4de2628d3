"""What an MCP tool is: its name, the description an agent reads, its arguments (a pydantic model;
the input schema is generated from it) and the REST call it turns into. The tool tables are
tools.py (memories) and knowledge_tools.py (the graph and session history)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from pydantic import AliasChoices, BaseModel, ConfigDict, Field

MAX_QUERY_CHARS = 10_000
MAX_ID_CHARS = 100


def both(name: str, other: str, default: Any = None, **kw: Any) -> Any:
    """A field shown as `name` in the schema that also accepts `other`, sent to the API as `name`."""
    return Field(default, validation_alias=AliasChoices(name, other), serialization_alias=name, **kw)


class Args(BaseModel):
    # A misspelt argument fails loudly (-32602) rather than being dropped without a word.
    model_config = ConfigDict(extra="forbid")


@dataclass(frozen=True)
class ApiRequest:
    """One REST call: what a tool call turns into."""

    method: str
    path: str
    params: dict[str, Any] | None = None
    json: dict[str, Any] | None = None


@dataclass(frozen=True)
class Tool:
    name: str
    title: str
    description: str
    args: type[BaseModel]
    method: str
    path: str  # `{name}` segments are filled from the argument of that name
    read_only: bool

    def input_schema(self) -> dict[str, Any]:
        """A plain object schema every model API takes for a tool (Anthropic, OpenAI, Gemini refuse a
        top-level oneOf / allOf / anyOf, and Gemini's subset has no $ref): rules across fields are
        checked when the tool is called, and nested models are written out in place."""
        raw = self.args.model_json_schema(by_alias=True)
        schema = _clean(_inline(raw, raw.pop("$defs", {})))
        schema.pop("description", None)  # the model's docstring is for us; the tool's description is for the agent
        return schema

    def describe(self) -> dict[str, Any]:
        """The tools/list entry."""
        return {"name": self.name, "title": self.title, "description": self.description,
                "inputSchema": self.input_schema(),
                "annotations": {"readOnlyHint": self.read_only, "destructiveHint": self.method == "DELETE",
                                "openWorldHint": False}}

    def request(self, args: BaseModel) -> ApiRequest:
        values = args.model_dump(by_alias=True, exclude_none=True)
        path = self.path
        for name in [n for n in values if "{" + n + "}" in path]:
            path = path.replace("{" + name + "}", quote(str(values.pop(name)), safe=""))
        if self.method in ("GET", "DELETE"):
            return ApiRequest(self.method, path, params=values or None)
        return ApiRequest(self.method, path, json=values)


def _inline(schema: Any, defs: dict[str, Any]) -> Any:
    """`schema` with each {"$ref": "#/$defs/Name"} replaced by that definition (tool arguments nest,
    never recurse)."""
    if isinstance(schema, list):
        return [_inline(item, defs) for item in schema]
    if not isinstance(schema, dict):
        return schema
    if "$ref" in schema:
        target = defs[schema["$ref"].rsplit("/", 1)[-1]]
        return _inline({**target, **{k: v for k, v in schema.items() if k != "$ref"}}, defs)
    return {k: _inline(v, defs) for k, v in schema.items()}


def _clean(schema: Any) -> Any:
    """Pydantic's schema, made plainer for the agent reading it: optional fields are the type
    itself (not anyOf with null, not default null), and no generated titles."""
    if isinstance(schema, list):
        return [_clean(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: _clean(v) for k, v in schema.items() if k != "title" and not (k == "default" and v is None)}
    if "properties" in schema:  # property names, not schema keywords: keep a field called "title"
        out["properties"] = {name: _clean(prop) for name, prop in schema["properties"].items()}
    options = [o for o in out.get("anyOf", []) if o != {"type": "null"}]
    if "anyOf" in out and len(options) == 1:
        del out["anyOf"]
        out = {**options[0], **out}
    elif "anyOf" in out:
        out["anyOf"] = options
    return out
