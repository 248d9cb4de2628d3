"""Ending a session as a harness does: a transcript of user turns, the session-end hook call, and
an OpenAI-compatible model (for a FakeServer) that answers a summary's statements."""

import json


def line(kind: str, role: str, content) -> str:
    """One record of a Claude Code transcript."""
    return json.dumps({"type": kind, "message": {"role": role, "content": content}})


def user_turns(*texts: str) -> str:
    """A Claude Code transcript of these user turns."""
    return "\n".join(line("user", "user", t) for t in texts)


def end(client, key: str, transcript: str, **fields):
    response = client.post("/api/hooks/session-end", json={"harness": "claude-code", "sessionKey": key,
                                                           "transcript": transcript, **fields})
    assert response.status_code == 200, response.text
    return response.json()


def openai(statements: list[str] | None, status: int = 200):
    def handler(path, body):
        if status != 200:
            return status, {"error": {"message": "overloaded"}}
        reply = json.dumps({"statements": statements})
        return 200, {"id": "c1", "object": "chat.completion", "model": body["model"],
                     "choices": [{"index": 0, "finish_reason": "stop",
                                  "message": {"role": "assistant", "content": reply}}],
                     "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}
    return handler
