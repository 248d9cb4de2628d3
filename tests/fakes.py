"""Fake provider servers on loopback that speak the real wire formats."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

Handler = Callable[[str, dict], tuple[int, object]]  # (path, json body) -> (status, json, raw str or EventStream)


class EventStream(list):
    """A server-sent event stream answer: (event name, JSON data) pairs."""

    def encode(self) -> bytes:
        return "".join(f"event: {name}\ndata: {json.dumps(data)}\n\n" for name, data in self).encode()


class FakeServer:
    def __init__(self, handler: Handler):
        self.requests: list[tuple[str, dict, dict]] = []
        outer = self

        class _H(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def _reply(self, status: int, payload: object) -> None:
                stream = isinstance(payload, EventStream)
                body = payload.encode() if isinstance(payload, str | EventStream) else json.dumps(payload).encode()
                try:
                    self.send_response(status)
                    self.send_header("content-type", "text/event-stream" if stream else "application/json")
                    self.send_header("content-length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up first (timeout tests)

            def do_POST(self):
                raw = self.rfile.read(int(self.headers.get("content-length", 0)))
                body = json.loads(raw or b"{}")
                outer.requests.append((self.path, body, dict(self.headers)))
                self._reply(*handler(self.path, body))

            do_GET = do_POST

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _H)
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self) -> FakeServer:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()


def fake_vector(text: str, dims: int) -> list[float]:
    """Deterministic, non-normalized vector so tests can check normalization."""
    seed = sum(map(ord, text))
    return [float((seed * (i + 7)) % 13 + 1) for i in range(dims)]


class RulesModel:
    """A fake chat model for the pipeline's prompts (extraction, decisions, hints, classification):
    it answers what the offline rules provider would, after `latency_s`, in the shape the prompts
    ask a model for, and counts the calls in flight at once. Use `handler(wire)` as a FakeServer
    handler; `wire` is "openai" (/v1/chat/completions) or "ollama" (/api/chat)."""

    def __init__(self, latency_s: float = 0.0, check: Callable[[str], None] | None = None):
        from signet_pipeline.providers.llm.rules import RulesLlm

        self.rules, self.latency_s, self.check = RulesLlm(), latency_s, check
        self.calls: dict[str, int] = {}
        self.in_flight = self.max_in_flight = 0
        self._lock = threading.Lock()

    def answer(self, prompt: str) -> dict:
        import re
        import time

        with self._lock:
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            kind = ("extract" if prompt.startswith("Extract durable knowledge") else
                    "decide" if prompt.startswith("New facts were extracted") else
                    "hints" if prompt.startswith("A memory was saved") else
                    "classify" if prompt.startswith("Organize facts") else "other")
            if self.check is not None:
                self.check(kind)
            time.sleep(self.latency_s)
            with self._lock:
                self.calls[kind] = self.calls.get(kind, 0) + 1
            if kind == "extract":
                return self.rules.extract(prompt.rsplit("Memory:\n", 1)[1].strip())
            if kind == "decide":
                return {"decisions": [{"fact": int(n), "action": "add", "confidence": 0.8, "reason": "new"}
                                      for n in re.findall(r"^Fact (\d+) ", prompt, re.MULTILINE)]}
            if kind == "hints":
                content = prompt.split("\n\n", 2)[1]
                return self.rules.hints(content, 5)
            if kind == "classify":
                facts = re.findall(r"^\d+\. (.+)$", prompt, re.MULTILINE)
                return self.rules.classify("entity", "extracted", facts, [])
            return {}
        finally:
            with self._lock:
                self.in_flight -= 1

    def handler(self, wire: str = "openai") -> Handler:
        def reply(path: str, body: dict) -> tuple[int, object]:
            prompt = body["messages"][0]["content"] if "messages" in body else body.get("prompt", "")
            content = json.dumps(self.answer(prompt))
            if wire == "ollama":
                return 200, {"message": {"role": "assistant", "content": content}, "done": True}
            return 200, {"choices": [{"message": {"role": "assistant", "content": content}}]}

        return reply


def anthropic_message(text: str | None = None, tool: tuple[str, dict] | None = None) -> EventStream:
    """One assistant turn as the Anthropic Messages API streams it: text, or one tool call."""
    block = ({"type": "text", "text": ""} if tool is None else
             {"type": "tool_use", "id": "toolu_01", "name": tool[0], "input": {}})
    delta = ({"type": "text_delta", "text": text or ""} if tool is None else
             {"type": "input_json_delta", "partial_json": json.dumps(tool[1])})
    return EventStream([
        ("message_start", {"type": "message_start", "message": {
            "id": "msg_01", "type": "message", "role": "assistant", "model": "claude-test", "content": [],
            "stop_reason": None, "stop_sequence": None, "usage": {"input_tokens": 10, "output_tokens": 1}}}),
        ("content_block_start", {"type": "content_block_start", "index": 0, "content_block": block}),
        ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta}),
        ("content_block_stop", {"type": "content_block_stop", "index": 0}),
        ("message_delta", {"type": "message_delta", "delta": {"stop_reason": "end_turn" if tool is None else "tool_use",
                                                               "stop_sequence": None}, "usage": {"output_tokens": 5}}),
        ("message_stop", {"type": "message_stop"})])


def responses_message(text: str) -> EventStream:
    """One assistant message as the OpenAI Responses API streams it (what Codex reads)."""
    item = {"type": "message", "id": "msg_01", "role": "assistant", "status": "completed",
            "content": [{"type": "output_text", "text": text, "annotations": []}]}
    usage = {"input_tokens": 10, "input_tokens_details": {"cached_tokens": 0}, "output_tokens": 5,
             "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 15}
    events = [
        {"type": "response.created", "response": {"id": "resp_01", "status": "in_progress", "output": []}},
        {"type": "response.output_item.added", "output_index": 0,
         "item": {**item, "status": "in_progress", "content": []}},
        {"type": "response.output_text.delta", "item_id": "msg_01", "output_index": 0, "content_index": 0,
         "delta": text},
        {"type": "response.output_item.done", "output_index": 0, "item": item},
        {"type": "response.completed",
         "response": {"id": "resp_01", "status": "completed", "output": [], "usage": usage}}]
    return EventStream((event["type"], event) for event in events)
