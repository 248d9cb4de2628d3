"""Domain errors: one small hierarchy. The API maps each to an HTTP status in one handler."""

from __future__ import annotations


class SignetError(Exception):
    """Base of every error the service raises on purpose. `code` is stable for clients."""

    code = "signet_error"
    status = 500

    def __init__(self, message: str, *, code: str | None = None, details: dict | None = None,
                 status: int | None = None):
        super().__init__(message)
        self.message = message
        if code:
            self.code = code
        if status:
            self.status = status
        self.details = details or {}


class ConfigError(SignetError):
    code = "invalid_config"


class InvalidRequest(SignetError):
    code = "invalid_request"
    status = 400


class NotFound(SignetError):
    code = "not_found"
    status = 404


class QueryTimeout(SignetError):
    """A read ran past limits.query_time_ms and was interrupted. 408, not 503: the service is
    fine, this request cost too much, and the same query retried would cost as much again."""

    code = "query_timeout"
    status = 408


class MutationsFrozen(SignetError):
    code = "mutations_frozen"
    status = 503


class MutationRejected(SignetError):
    """A mutation the memory's current state refuses; `code` is the spec's status value
    (version_conflict, deleted, pinned_requires_force, ...), `details` carry id and version."""

    code = "mutation_rejected"
    status = 409


class SessionTaken(SignetError):
    """A session key another agent's session holds: its transcript, its end and its feedback are
    that agent's (use a key of your own)."""

    code = "session_taken"
    status = 409


class StoreError(SignetError):
    code = "store_error"
    status = 500


class MigrationError(StoreError):
    code = "migration_error"


class SnapshotError(SignetError):
    """A snapshot that cannot be exported or imported (incomplete, modified, from a newer schema)."""

    code = "snapshot_invalid"
    status = 400


class ProviderError(SignetError):
    """An embedding or LLM provider failed (network, HTTP status, bad payload)."""

    code = "provider_error"
    status = 502


class RepairDenied(SignetError):
    """The repair policy gate refused an action (frozen, not allowed for the caller, cooldown, budget)."""

    code = "repair_denied"
    status = 429


class Unauthorized(SignetError):
    """No valid token where one is needed (missing, malformed, forged, expired)."""

    code = "unauthorized"
    status = 401


class Forbidden(SignetError):
    """The caller is known but may not do this (role, scope, ownership, host)."""

    code = "forbidden"
    status = 403


class RateLimited(SignetError):
    """Too many calls of one operation by one actor; `retryAfterS` says when to try again."""

    code = "rate_limited"
    status = 429


class FetchError(SignetError):
    """A document URL could not be fetched (network, status, type, size, blocked address)."""

    code = "fetch_failed"
    status = 502


class FileRefused(SignetError):
    """A local file or directory the service will not read: outside the operator's allowed roots or
    in a tree never read (`root_not_allowed`, `path_not_allowed`), a link (`file_symlink`,
    `file_hard_linked`), not a regular file (`file_not_regular`) or over its size limit (`file_too_large`)."""

    code = "file_refused"
    status = 400
