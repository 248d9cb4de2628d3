"""Schemathesis hooks for tests/api/test_openapi_fuzz.py (loaded through SCHEMATHESIS_HOOKS).

Two rules of the request models compare one field with another, which no JSON schema can state
(the schema says them in the fields' descriptions): validUntil after validFrom (remember), and
time.end after time.start (recall). The API answers 422 to a request breaking them; generated
bodies that break them are left out, so that "a valid request is accepted" is tested on the rest.

Also: CPython 3.11 before 3.11.8 keeps the AST constructor's recursion depth in one state shared
by all threads (python/cpython#106905), so two schemathesis workers describing hypothesis lambdas
at once (through ast.parse) can fail a run with "SystemError: AST constructor recursion depth
mismatch" that says nothing of the API. ast.parse is serialized in this process."""

import ast
import threading
from typing import Any

import schemathesis

from signet_pipeline.request_rules import iso_or_none

_parse, _parsing = ast.parse, threading.RLock()


def _serialized_parse(*args: Any, **kwargs: Any) -> Any:
    with _parsing:
        return _parse(*args, **kwargs)


ast.parse = _serialized_parse

PAIRS = ((("validFrom", "valid_from"), ("validUntil", "valid_until")), (("start",), ("end",)))


def _stamp(obj: dict[str, Any], names: tuple[str, ...]) -> str | None:
    for name in names:
        try:
            return iso_or_none(obj.get(name))
        except ValueError:  # not a timestamp: the request is refused for that
            return None
    return None


def _inverted(obj: Any) -> bool:
    if not isinstance(obj, dict):
        return False
    for first, then in PAIRS:
        start, end = _stamp(obj, first), _stamp(obj, then)
        if start and end and end <= start:
            return True
    return _inverted(obj.get("time"))


@schemathesis.hook
def filter_case(context, case) -> bool:  # case-level: the coverage phase applies no body filter
    return not _inverted(case.body)
