"""The ``llm`` router end to end: a local OpenAI-compatible server started here, the real `openai`
client, scripted JSON verdicts, and the on-disk cache (a second identical run makes no HTTP call)."""

from __future__ import annotations

import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

pytest.importorskip("openai", reason="the llm router test needs the `openai` client (pip install 'fdegym[test]')")

from fdegym_env.people import People, make_router  # noqa: E402
from fdegym_env.people.llm_router import LLMRouter  # noqa: E402
from fdegym_env.people.spec import validate_people  # noqa: E402

TINY = str(Path(__file__).resolve().parents[1] / "fixtures" / "tiny_task")

SPEC = {
    "clock": {"start": "2026-03-02T09:00", "ask_minutes": 60},
    "people": [{
        "id": "fin", "name": "Fay Inance", "role": "Billing lead", "blurb": "Knows invoices.",
        "fallback": "Not my area.", "cost": 0.01,
        "topics": [
            {"id": "refunds", "about": "how refunds of disputed invoices are approved",
             "gate": "the message cites a concrete invoice number (INV-...)",
             "gate_miss": "Which invoice? Give me the number.", "answer": "Refunds over 500 need two approvals.",
             "facts": ["F_refund_rule"]},
            {"id": "cycle", "about": "when the monthly billing cycle closes", "answer": "We close on the 25th.",
             "facts": ["F_cycle"], "triggers": ["\\bclose"]},
        ]}],
}


class _Scripted(BaseHTTPRequestHandler):
    """Answers /v1/chat/completions like a tiny, predictable model."""

    calls: list[str] = []
    broken = False

    def do_POST(self):  # noqa: N802
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        prompt = body["messages"][-1]["content"]
        type(self).calls.append(prompt)
        msg = prompt.rsplit("Message: ", 1)[-1].split("\n\nAnswer with JSON", 1)[0].lower()
        if self.path != "/v1/chat/completions":
            self.send_error(404)
            return
        if type(self).broken:
            content = "sorry, I cannot help with that"
        elif '"topics"' in prompt:
            topics = [t for t, words in (("refunds", ("refund", "money back")), ("cycle", ("cycle", "close")))
                      if any(w in msg for w in words)]
            content = json.dumps({"topics": topics, "gates_met": {"refunds": bool(re.search(r"inv-\d+", prompt.lower()))}})
        elif '"met"' in prompt:
            content = json.dumps({"met": bool(re.search(r"inv-\d+", prompt.lower()))})
        else:
            content = "```json\n" + json.dumps({"asks": "reimburse" in msg and "cycle" not in prompt}) + "\n```"
        out = json.dumps({"id": "c1", "object": "chat.completion", "created": 0, "model": body["model"],
                          "choices": [{"index": 0, "finish_reason": "stop",
                                       "message": {"role": "assistant", "content": content}}],
                          "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(out)))
        self.end_headers()
        self.wfile.write(out)

    def log_message(self, *a):
        pass


@pytest.fixture()
def server():
    _Scripted.calls, _Scripted.broken = [], False
    srv = ThreadingHTTPServer(("127.0.0.1", 0), _Scripted)
    th = threading.Thread(target=srv.serve_forever, daemon=True)
    th.start()
    yield f"http://127.0.0.1:{srv.server_address[1]}/v1"
    srv.shutdown()
    srv.server_close()


SCRIPT = [
    ("fin", "Can I get a refund approved?"),                         # topic picked, gate unmet
    ("fin", "It's INV-2041, can the refund go through?"),           # gate met
    ("fin", "When does the cycle close?"),
    ("fin", "Could the customer be reimbursed somehow?"),            # nothing picked -> per-topic check
    ("fin", "Tell me everything."),                                  # fishing: nothing
]


def _run(base_url, cache_dir):
    spec = validate_people(json.loads(json.dumps(SPEC)), "spec")
    router = make_router("llm", spec["people"], base_url=base_url, model="scripted-1", cache_dir=cache_dir)
    people = People(spec, router)
    out = [people.contact(to, m) for to, m in SCRIPT]
    return router, people, [(r.tags, r.facts, r.reply) for r in out]


def test_llm_router_end_to_end_and_cache(server, tmp_path):
    router, people, got = _run(server, tmp_path)
    assert isinstance(router, LLMRouter) and router.deterministic is False and people.deterministic is False
    assert got[0][0] == ["refunds:gated"] and got[0][1] == [] and got[0][2] == "Which invoice? Give me the number."
    assert got[1][0] == ["refunds"] and got[1][1] == ["F_refund_rule"]
    assert got[2][0] == ["cycle"] and got[2][1] == ["F_cycle"]
    assert got[3][0] == ["refunds"]          # found by the yes/no fallback; INV-2041 was given earlier
    assert got[4] == ([], [], "Not my area.")
    first = len(_Scripted.calls)
    assert first == router.http_calls and first >= 7

    router2, _, got2 = _run(server, tmp_path)
    assert got2 == got
    assert len(_Scripted.calls) == first, "a second identical run must be served from the cache"
    assert router2.http_calls == 0 and router2.cache_hits == first


def test_llm_router_evidence_given_earlier_counts(server, tmp_path):
    spec = validate_people(json.loads(json.dumps(SPEC)), "spec")
    people = People(spec, LLMRouter(base_url=server, model="scripted-1", cache_dir=tmp_path))
    people.contact("fin", "About INV-77: the customer disputes it.")
    assert people.contact("fin", "So can the refund be approved?").facts == ["F_refund_rule"]


def test_llm_router_falls_back_to_regex_on_bad_replies(server, tmp_path):
    _Scripted.broken = True
    spec = validate_people(json.loads(json.dumps(SPEC)), "spec")
    router = LLMRouter(base_url=server, model="scripted-1", cache_dir=tmp_path)
    res = People(spec, router).contact("fin", "When do you close the books?")
    assert res.tags == ["cycle"]                      # regex trigger "\bclose"
    assert not list(tmp_path.rglob("*.json")), "failed verdicts must not be cached"


def test_llm_router_config_errors_name_the_fix(tmp_path, monkeypatch):
    monkeypatch.delenv("FDEGYM_LLM_MODEL", raising=False)
    with pytest.raises(ValueError, match="needs a model name.*fix"):
        LLMRouter(base_url="http://127.0.0.1:9/v1", cache_dir=tmp_path)
    with pytest.raises(ValueError, match="api_key_file: expected a readable file"):
        LLMRouter(base_url="http://127.0.0.1:9/v1", model="m", api_key_file=tmp_path / "nope", cache_dir=tmp_path)
    key = tmp_path / "key"
    key.write_text("sk-test\n")
    assert LLMRouter(model="m", api_key_file=key, cache_dir=tmp_path)._endpoint.api_key == "sk-test"


def test_env_marks_itself_nondeterministic_with_llm_router(server, tmp_path):
    from fdegym_env.core.env import FDEGymEnv

    env = FDEGymEnv(task=TINY, router="llm", sandbox="none",
                    router_kwargs={"base_url": server, "model": "scripted-1", "cache_dir": str(tmp_path)})
    try:
        assert env.unwrapped.deterministic is False
        env.reset(seed=0)
        assert env.people.deterministic is False
        _, r, _, _, info = env.step({"tool": "contact", "to": "ops", "message": "What is the threshold?"})
        assert info["contact"]["to"] == "ops" and len(_Scripted.calls) >= 1
    finally:
        env.close()
    lex = FDEGymEnv(task=TINY, router="lexical", sandbox="none")
    assert lex.unwrapped.deterministic is True
    lex.close()
