"""A scripted OpenAI-compatible HTTP server: a "model" that plays a planned sequence of turns.

It serves ``POST /v1/chat/completions`` (non-streaming) and ``GET /v1/models`` on 127.0.0.1, so the
real ``openai`` client, :class:`~fdegym_env.agents.llm.LLMAgent` and examples can run offline. Each
request gets the next turn of the plan:

* :func:`call` / :func:`raw_call` — one or several structured tool calls (``raw_call`` sends the
  arguments string as given, e.g. broken JSON);
* :func:`text_call` — a tool call written in the content as ``<tool_call>{...}</tool_call>``;
* :func:`say` — plain text (no tool call);
* :func:`http_error` — answer with an HTTP error (e.g. 429 with ``Retry-After: 0``, or 503).

A turn is a list of calls (a multi-call turn) or a single item. When the plan runs out the model
calls ``submit``. Every request body is kept in ``server.requests`` for assertions.

:func:`plan_for` builds the standard plan for a task (written for ``news_incident`` and the
``tiny_task`` fixture, generic for any task with ``solutions/reference.py``): a multi-call look
around, a malformed call, a text-format call, a nudge, task-specific reading and questions, the
reference solution delivered through ``write_file`` calls, a test run, and ``submit``.

Example:
    >>> with FakeLLMServer([call("list_files"), [call("directory"), call("inbox")]]) as srv:   # doctest: +SKIP
    ...     agent = LLMAgent(model=srv.model, base_url=srv.base_url, api_key="x")
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable

FAKE_MODEL = "fdegym-fake"


# --- plan items -------------------------------------------------------------------------------------
def call(name: str, **arguments: Any) -> dict[str, Any]:
    """A structured tool call."""
    return {"kind": "call", "name": name, "arguments": json.dumps(arguments)}


def raw_call(name: str, arguments: str) -> dict[str, Any]:
    """A structured tool call whose arguments string is sent verbatim (e.g. malformed JSON)."""
    return {"kind": "call", "name": name, "arguments": arguments}


def text_call(name: str, **arguments: Any) -> dict[str, Any]:
    """A tool call written inside the message text (``<tool_call>`` format), no structured call."""
    return {"kind": "say", "content": "Checking.\n<tool_call>" + json.dumps({"name": name, "arguments": arguments})
            + "</tool_call>"}


def say(text: str) -> dict[str, Any]:
    """A plain text reply."""
    return {"kind": "say", "content": text}


def http_error(status: int = 429, retry_after: float | None = 0) -> dict[str, Any]:
    """Answer the request with an HTTP error instead of a completion."""
    return {"kind": "error", "status": status, "retry_after": retry_after}


def _approx_tokens(obj: Any) -> int:
    return max(1, len(json.dumps(obj, ensure_ascii=False)) // 4)


# --- the server ---------------------------------------------------------------------------------------
class FakeLLMServer:
    """A scripted chat-completions server on ``127.0.0.1:<port>`` (see the module docstring).

    Args:
        plan: a list of turns (each a plan item or a list of call items), or a function
            ``(request_body, turn_index) -> turn`` for dynamic scripts.
        model: the model name the server reports.
        port: 0 picks a free port.
        usage: fixed ``(prompt, completion, cached)`` token counts for every reply (default: about a
            token per 4 characters, half the prompt cached after the first turn).
    """

    def __init__(self, plan: list[Any] | Callable[[dict, int], Any], model: str = FAKE_MODEL, port: int = 0,
                 usage: tuple[int, int, int] | None = None):
        self.plan = plan
        self.model = model
        self.usage = usage
        self.requests: list[dict[str, Any]] = []
        self.turn = 0
        self.exhausted = 0  # requests answered after the plan ran out
        self._lock = threading.Lock()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", port), self._handler())
        self._httpd.daemon_threads = True
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    def start(self) -> "FakeLLMServer":
        self._thread = threading.Thread(target=self._httpd.serve_forever, name="fake-llm", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> "FakeLLMServer":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    # --- answering --------------------------------------------------------------------------------
    def _next_turn(self, body: dict) -> Any:
        with self._lock:
            self.requests.append(body)
            k = self.turn
            self.turn += 1
        if callable(self.plan):
            return self.plan(body, k)
        if k < len(self.plan):
            return self.plan[k]
        self.exhausted += 1
        return call("submit", note="(scripted plan finished)")

    def _completion(self, body: dict, turn: Any, k: int) -> dict[str, Any]:
        items = turn if isinstance(turn, list) else [turn]
        content = None
        tool_calls = []
        for i, it in enumerate(items):
            if it["kind"] == "say":
                content = (content or "") + it["content"]
            elif it["kind"] == "call":
                tool_calls.append({"id": f"call_{k}_{i}", "type": "function",
                                   "function": {"name": it["name"], "arguments": it["arguments"]}})
        message: dict[str, Any] = {"role": "assistant", "content": content}
        if tool_calls:
            message["tool_calls"] = tool_calls
        prompt = _approx_tokens(body.get("messages", []))
        completion = _approx_tokens(message)
        cached = prompt // 2 if k else 0
        if self.usage is not None:
            prompt, completion, cached = self.usage
        return {"id": f"chatcmpl-fake-{k}", "object": "chat.completion", "created": 1_780_000_000 + k,
                "model": self.model,
                "choices": [{"index": 0, "message": message, "logprobs": None,
                             "finish_reason": "tool_calls" if tool_calls else "stop"}],
                "usage": {"prompt_tokens": prompt, "completion_tokens": completion,
                          "total_tokens": prompt + completion, "prompt_tokens_details": {"cached_tokens": cached}}}

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args) -> None:  # keep test output clean
                pass

            def _send(self, status: int, payload: dict, headers: dict[str, str] | None = None) -> None:
                data = json.dumps(payload).encode("utf-8")
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for k, v in (headers or {}).items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self) -> None:
                if self.path.rstrip("/") == "/v1/models":
                    self._send(200, {"object": "list", "data": [{"id": server.model, "object": "model",
                                                                 "owned_by": "fdegym"}]})
                else:
                    self._send(404, {"error": {"message": f"no route {self.path}", "type": "not_found"}})

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                try:
                    body = json.loads(self.rfile.read(length) or b"{}")
                except json.JSONDecodeError:
                    self._send(400, {"error": {"message": "request body is not JSON", "type": "invalid_request"}})
                    return
                if self.path.rstrip("/") != "/v1/chat/completions":
                    self._send(404, {"error": {"message": f"no route {self.path}", "type": "not_found"}})
                    return
                if body.get("stream"):
                    self._send(400, {"error": {"message": "the fake server does not stream",
                                               "type": "invalid_request"}})
                    return
                if body.get("model") != server.model:
                    self._send(404, {"error": {"message": f"model {body.get('model')!r} not found; this server "
                                               f"serves {server.model!r}", "type": "not_found"}})
                    return
                k = server.turn
                turn = server._next_turn(body)
                if isinstance(turn, dict) and turn.get("kind") == "error":
                    headers = {} if turn.get("retry_after") is None else {"Retry-After": str(turn["retry_after"])}
                    self._send(turn["status"], {"error": {"message": f"scripted HTTP {turn['status']}",
                                                          "type": "scripted"}}, headers)
                    return
                self._send(200, server._completion(body, turn, k))

        return Handler


# --- standard plans --------------------------------------------------------------------------------
# Task-specific look-around: files to read and (person, question) pairs; entries that do not exist in
# the task are skipped, so a plan stays valid while a scenario is being written.
EXPLORE: dict[str, dict[str, list]] = {
    "news_incident": {
        "read": ["docs/desk_handbook.md", "docs/agency_feeds.md", "docs/meridian_feed_spec_v2.md"],
        "ask": [("dana_whitlock", "What happened in last month's incidents with the killed court story and "
                                  "the embargo break?"),
                ("wire_editor", "How does Meridian Wire withdraw or kill a story? Is it a canceled version "
                                "of the same slug?"),
                ("night_editor", "How many held stories can the night desk review and clear per day?")],
    },
    "tiny_task": {
        "read": ["docs/notes.md", "system/app/config.json"],
        "ask": [("ops", "What is the real classification threshold cutoff today?")],
    },
}


def _world_files(task) -> set[str]:
    root = task.path / "world"
    return {p.relative_to(root).as_posix().removesuffix(".tmpl") for p in root.rglob("*") if p.is_file()}


def delivery_calls(task, variant: str = "base", solution: str = "reference") -> list[dict[str, Any]]:
    """``write_file``/``run`` calls that deliver ``solutions/<solution>.py`` on a fresh workspace."""
    from fdegym_env.agents.baselines import _delivery_actions
    from fdegym_env.core import workspace as wsmod
    v = task.variant(variant)
    ws = wsmod.new_workspace(task, v, "")
    try:
        actions = _delivery_actions(task, solution, ws, v.params)
    finally:
        wsmod.remove_workspace(ws)
    return [call(a.pop("tool"), **a) for a in actions]


def plan_for(task_ref: Any, variant: str = "base") -> list[Any]:
    """The standard scripted plan for a task (id, path or loaded Task); see the module docstring.

    Includes a multi-call turn, a malformed call (broken JSON arguments), a ``<tool_call>`` text call,
    a plain-text reply, the reference delivery (multi-call) and ``submit``.
    """
    from fdegym_env.core.registry import load_task
    from fdegym_env.core.task import Task
    task = task_ref if isinstance(task_ref, Task) else load_task(str(task_ref))
    files = _world_files(task)
    people_ids: list[str] = []
    if (task.path / "people.yaml").is_file():
        spec = task.people_spec(task.variant(variant))
        people_ids = [p["id"] for p in spec["people"]]
    explore = EXPLORE.get(task.id, {})
    reads = [f for f in explore.get("read", []) if f in files]
    if not reads:
        reads = sorted(f for f in files if f.startswith("docs/"))[:2]
    asks = [(who, q) for who, q in explore.get("ask", []) if who in people_ids]
    plan: list[Any] = [
        [call("list_files"), call("read_file", path="system/README.md" if "system/README.md" in files else "TASK.md")],
        raw_call("read_file", '{"path": "docs/'),                 # malformed: truncated JSON
        text_call("directory"),                                    # a tool call written as text
        say("Let me think about what the sponsor really needs."),  # no tool call: a nudge
    ]
    plan += [call("read_file", path=f) for f in reads]
    plan += [call("contact", to=who, message=q) for who, q in asks]
    plan.append(delivery_calls(task, variant) or [call("list_files", path="system")])
    plan.append(call("run", command="ls system && echo ready"))
    plan.append(call("submit", note="Delivered the fix; see system/README.md."))
    return plan

