"""What a connector is made of at the API boundary: the request to register one, the filesystem
provider's settings (defaults from the spec), and the views the API answers with."""

from __future__ import annotations

import json
from pathlib import PurePath
from typing import Annotated, Any, Literal

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, field_validator

from signet_pipeline.request_rules import STRICT, Integer, required_in_schema

PROVIDERS = ("filesystem",)
MIB = 1 << 20
FileSize = Annotated[int, Integer(ge=1, le=100 * MIB)]
Glob = Annotated[str, Field(min_length=1, max_length=500)]


class FilesystemSettings(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True, **STRICT)

    root_path: str = Field(min_length=1, max_length=4096, validation_alias=AliasChoices("rootPath", "root_path"),
                           serialization_alias="rootPath", json_schema_extra={"pattern": "^/"},
                           description="an absolute directory inside one of connectors.allowedRoots (the operator's "
                                       "setting; none by default); the workspace, /proc, /dev and /sys are refused "
                                       "(400)")
    patterns: list[Glob] = Field(["**/*.md", "**/*.txt"], min_length=1, max_length=100)
    ignore_patterns: list[Glob] = Field([".git", "node_modules", ".DS_Store"], max_length=100,
                                       validation_alias=AliasChoices("ignorePatterns", "ignore_patterns"),
                                       serialization_alias="ignorePatterns")
    max_file_size: FileSize = Field(MIB, validation_alias=AliasChoices("maxFileSize", "max_file_size"),
                                    serialization_alias="maxFileSize")

    @field_validator("root_path")
    @classmethod
    def _absolute(cls, value: str) -> str:
        if not PurePath(value).is_absolute():
            raise ValueError("rootPath must be an absolute path")
        return str(PurePath(value))

    def as_json(self) -> str:
        return json.dumps(self.model_dump(by_alias=True))


class ConnectorRequest(BaseModel):
    # The service checks provider and settings itself (400 unknown_provider, invalid_settings); the
    # schema says what they take. Whether rootPath is under connectors.allowedRoots no schema can say.
    model_config = ConfigDict(extra="ignore", populate_by_name=True, json_schema_extra=required_in_schema(
        provider={"enum": list(PROVIDERS)}, settings=FilesystemSettings.model_json_schema()))

    provider: str = Field(min_length=1, max_length=50)
    display_name: str = Field(min_length=1, max_length=200,
                              validation_alias=AliasChoices("displayName", "display_name"))
    settings: dict[str, Any] = Field(default_factory=dict)
    # The agent the connector's documents belong to: an operator may name one (else `default`).
    agent_id: str | None = Field(None, min_length=1, max_length=200,
                                 validation_alias=AliasChoices("agentId", "agent_id"))


class SyncRequest(BaseModel):
    """The payload of a `connector_sync` job."""

    connector_id: str = Field(alias="connectorId")
    full: bool = False


class FileError(BaseModel):
    path: str
    error: str


class SyncResult(BaseModel):
    full: bool
    scanned: int = 0
    unchanged: int = 0
    queued: int = 0  # new or changed files sent to document ingest
    removed: int = 0  # documents whose file is gone
    errors: list[FileError] = []
    elapsed_ms: float = 0.0


Status = Literal["idle", "syncing", "error"]


def view(row: dict[str, Any]) -> dict[str, Any]:
    return {"id": row["id"], "provider": row["provider"], "displayName": row["display_name"],
            "agentId": row["agent_id"], "status": row["status"], "lastSyncAt": row["last_sync_at"],
            "lastError": row["last_error"],
            "cursor": json.loads(row["cursor_json"] or "{}"), "settings": json.loads(row["settings"] or "{}"),
            "lastResult": json.loads(row["last_result"]) if row.get("last_result") else None,
            "createdAt": row["created_at"], "updatedAt": row["updated_at"]}
