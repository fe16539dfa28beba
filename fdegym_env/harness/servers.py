"""Host-side helpers a harness case needs while an episode or a grading runs.

- :class:`PeopleServer`: the harness's stakeholder HTTP protocol (``/who``, ``/ask``, ``/inbox``,
  ``/now``, ``/wait``, ``/pilot``) answered by the episode's in-process
  :class:`~fdegym_env.people.People`, so ``bin/ask`` and ``bin/pilot`` inside the workspace and the
  env's ``contact``/``trial`` tools share one state, one clock and one ledger.
- :class:`Gateway`: the company LLM gateway (``POST /chat``, ``GET`` = allowance) forwarding to an
  OpenAI-compatible endpoint, with the call and spend caps the case declares.
- :func:`start_services`: a case's simulated services, one process each, in ``dev`` or ``prod`` mode.

Everything listens on ``127.0.0.1`` of the host; the sandbox reaches exactly the ports the episode
grants (:class:`~fdegym_env.sandbox.executor.PortBridge`), because the sandbox has no network.

Example:
    >>> srv = PeopleServer(lambda: episode)        # doctest: +SKIP
    >>> srv.port                                    # doctest: +SKIP
    41873
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import IO, Any, cast

from fdegym_env.llm import Endpoint
from fdegym_env.llm.prices import cost_usd, env_price
from fdegym_env.llm.retry import DEFAULT_RETRY, Retry, RetryPolicy, call_with_retries, refused, retry_after, retryable
from fdegym_env.sandbox.inside import source


def free_port() -> int:
    """A free TCP port on 127.0.0.1 (from the OS's ephemeral range: always five digits)."""
    for _ in range(50):
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
        s.close()
        if port >= 10000:
            return port
    return port


def wait_port(port: int, timeout: float = 15.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return True
        except OSError:
            time.sleep(0.1)
    return False


class _JSONHandler(BaseHTTPRequestHandler):
    server_version = "fdegym-compat"

    def _send(self, obj: Any, code: int = 200) -> None:
        body = json.dumps(obj, ensure_ascii=False).encode("utf-8")
        self.send_response(code)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _body(self) -> Any:
        n = int(self.headers.get("Content-Length", 0) or 0)
        return json.loads(self.rfile.read(n).decode("utf-8") or "{}")

    def log_message(self, *args: Any) -> None:
        pass


class _Server:
    """A threaded HTTP server on a free host port, stopped by :meth:`close`."""

    def __init__(self, handler: type) -> None:
        # bound to port 0 and kept bound: the OS picks the port, nobody can take it in between
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.port = self.httpd.server_address[1]
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.2}, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


class PeopleServer(_Server):
    """The stakeholder server of one episode.

    Args:
        episode: a :class:`~fdegym_env.harness.episode.CaseEpisode`; its env's ``people`` answers,
            its ``trial()`` runs a pilot day. Calls are serialised by the episode's lock.
    """

    def __init__(self, episode: Any) -> None:
        ep = episode

        class H(_JSONHandler):
            def do_GET(self):
                if self.path == "/who":
                    return self._send(ep.who())
                if self.path == "/inbox":
                    return self._send(ep.inbox())
                if self.path == "/now":
                    return self._send({"at": ep.stamp()})
                return self._send({"error": "not found"}, 404)

            def do_POST(self):
                try:
                    req = self._body()
                    if self.path == "/ask":
                        return self._send(ep.ask(req["to"], req["question"]))
                    if self.path == "/wait":
                        return self._send(ep.wait(req["hours"]))
                    if self.path == "/pilot":
                        return self._send(ep.pilot())
                except (ValueError, KeyError, TypeError) as e:
                    return self._send({"error": "bad request: %s" % e}, 400)
                return self._send({"error": "not found"}, 404)

        super().__init__(H)


# --- the company LLM gateway ------------------------------------------------------------------------
MAX_TOKENS_CAP = 800
MAX_INPUT_CHARS = 60000


def llm_endpoint() -> dict[str, Any]:
    """The OpenAI-compatible endpoint the user configured for gateways and LLM graders.

    ``FDEGYM_LLM_BASE_URL`` (e.g. ``http://127.0.0.1:8000/v1``), ``FDEGYM_LLM_MODEL``, the key from
    ``FDEGYM_LLM_API_KEY_FILE`` or ``FDEGYM_LLM_API_KEY``. Calls are priced by the model's entry in
    :data:`fdegym_env.llm.prices.PRICES`, or by ``FDEGYM_LLM_PRICE="in,out[,cached]"`` (USD per million
    tokens) when set; that makes the ``*_llm_usd`` allowances bind (an unpriced model: only the call caps).
    """
    try:
        ep = Endpoint.resolve("env", default_model="gpt-4o-mini")
    except ValueError:      # no key configured: calls go out without one (local servers accept that)
        ep = Endpoint.resolve("env", default_model="gpt-4o-mini", need_key=False)
    price = env_price(ep.model)
    return {"base_url": ep.base_url or "", "api_key": ep.api_key, "model": ep.model, "price": price,
            "price_in": price[0] if price else 0.0, "price_out": price[1] if price else 0.0}


def _classify(e: Exception) -> Retry | None:
    """The retry rule (:mod:`fdegym_env.llm.retry`) for urllib's errors."""
    if isinstance(e, urllib.error.HTTPError):
        return Retry(retry_after(e.headers)) if retryable(e.code) else None
    if isinstance(e, (urllib.error.URLError, OSError)):     # timeouts, dropped connections
        return None if refused(e) else Retry()
    return None


def chat(messages: list[dict], max_tokens: int = 400, temperature: float = 0.0, json_mode: bool = False,
         log_path: str | None = None, tag: str = "", timeout: float = 120.0,
         retry: RetryPolicy = DEFAULT_RETRY) -> tuple[str, dict[str, Any]]:
    """One chat completion on the configured endpoint -> (text, usage with ``usd``). Raises RuntimeError.

    A stdlib client (the ``openai`` extra need not be installed), retried by ``retry``."""
    ep = llm_endpoint()
    if not ep["base_url"]:
        raise RuntimeError("no LLM endpoint configured: set FDEGYM_LLM_BASE_URL (an OpenAI-compatible /v1 URL) "
                           "and FDEGYM_LLM_MODEL, and FDEGYM_LLM_API_KEY_FILE if it needs a key")
    body: dict[str, Any] = {"model": ep["model"], "messages": messages, "max_tokens": int(max_tokens),
                            "temperature": float(temperature)}
    if json_mode:
        body["response_format"] = {"type": "json_object"}
    req = urllib.request.Request(ep["base_url"] + "/chat/completions", data=json.dumps(body).encode("utf-8"),
                                 headers={"Content-Type": "application/json",
                                          "Authorization": "Bearer " + (ep["api_key"] or "none")})
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))

    def once() -> dict[str, Any]:
        with opener.open(req, timeout=timeout) as r:
            return json.loads(r.read().decode("utf-8"))

    try:
        d = call_with_retries(once, _classify, policy=retry)
        text = d["choices"][0]["message"].get("content") or ""
    except (urllib.error.URLError, OSError, RuntimeError, ValueError, KeyError, IndexError) as e:
        raise RuntimeError("LLM endpoint %s failed: %s" % (ep["base_url"], e)) from None
    u = d.get("usage") or {}
    cached = int((u.get("prompt_tokens_details") or {}).get("cached_tokens") or 0)
    usage: dict[str, Any] = {"in": int(u.get("prompt_tokens") or 0), "out": int(u.get("completion_tokens") or 0)}
    usage["usd"] = cost_usd(ep["price"], usage["in"], usage["out"], cached)
    if log_path:
        os.makedirs(os.path.dirname(log_path) or ".", exist_ok=True)
        with open(log_path, "a", encoding="utf-8") as f:
            f.write(json.dumps({"ts": time.time(), "tag": tag, "model": ep["model"], **usage}) + "\n")
    return text, usage


class Gateway(_Server):
    """The company LLM gateway of one episode (``dev``) or one grading (``prod``).

    Args:
        max_calls, max_usd: the allowance (``engagement.json``: ``dev_llm_calls``/``dev_llm_usd``,
            ``prod_llm_calls``/``prod_llm_usd``); past it every call gets HTTP 429.
        log: JSONL of every call (tokens, cost).
    """

    def __init__(self, max_calls: int, max_usd: float, log: str, tag: str) -> None:
        state = {"calls": 0, "usd": 0.0}
        lock = threading.Lock()
        self.state = state

        class H(_JSONHandler):
            def do_GET(self):
                self._send({"calls": state["calls"], "max_calls": max_calls, "usd": round(state["usd"], 5),
                            "max_usd": max_usd, "model": llm_endpoint()["model"]})

            def do_POST(self):
                try:
                    req = self._body()
                    messages = req["messages"]
                except (ValueError, KeyError) as e:
                    return self._send({"error": "bad request: %s" % e}, 400)
                if sum(len(str(m.get("content", ""))) for m in messages) > MAX_INPUT_CHARS:
                    return self._send({"error": "request too large (max %d chars)" % MAX_INPUT_CHARS}, 413)
                with lock:
                    if state["calls"] >= max_calls or state["usd"] >= max_usd:
                        return self._send({"error": "LLM budget exhausted"}, 429)
                    state["calls"] += 1
                try:
                    text, usage = chat(messages, max_tokens=min(int(req.get("max_tokens", 400)), MAX_TOKENS_CAP),
                                       temperature=float(req.get("temperature", 0.0)),
                                       json_mode=bool(req.get("json_mode")), log_path=log, tag=tag)
                except RuntimeError as e:
                    return self._send({"error": str(e)}, 502)
                with lock:
                    state["usd"] += usage["usd"]
                self._send({"text": text})

        super().__init__(H)


# The client written into system/: fdegym_env/sandbox/inside/llm_client.py.
LLM_CLIENT = source("llm_client")


def wire_llm(ws: Path, port: int) -> None:
    """Give ``ws/system`` the gateway client and point ``config/llm.json`` at ``port``."""
    cfg = Path(ws) / "system" / "config"
    cfg.mkdir(parents=True, exist_ok=True)
    (Path(ws) / "system" / "llm_client.py").write_text(LLM_CLIENT, encoding="utf-8")
    (cfg / "llm.json").write_text(json.dumps({"url": "http://127.0.0.1:%d/chat" % port}), encoding="utf-8")


def wire_services(ws: Path, ports: dict[str, int]) -> None:
    """Write ``system/config/services.json``: ``{name: {"url": "http://127.0.0.1:P"}}``."""
    cfg = Path(ws) / "system" / "config"
    cfg.mkdir(parents=True, exist_ok=True)
    (cfg / "services.json").write_text(json.dumps({n: {"url": "http://127.0.0.1:%d" % p} for n, p in ports.items()}),
                                       encoding="utf-8")


class Services:
    """A case's simulated services: ``python3 <case>/<script> --port P --mode M --state-dir D --log L``."""

    def __init__(self, case_dir: Path, specs: list[dict], mode: str, state_root: Path, log_dir: Path,
                 env: dict[str, str], log_prefix: str = "", python: str = sys.executable) -> None:
        self.procs: list[subprocess.Popen] = []
        self.ports = {s["name"]: free_port() for s in specs}
        self.info: dict[str, dict[str, str]] = {}
        log_dir.mkdir(parents=True, exist_ok=True)
        try:
            for s in specs:
                state = state_root / s["name"]
                state.mkdir(parents=True, exist_ok=True)
                log = log_dir / f"{log_prefix}{s['name']}.jsonl"
                script = (case_dir / s["script"]).resolve()
                self.procs.append(subprocess.Popen(
                    [python, str(script), "--port", str(self.ports[s["name"]]), "--mode", mode,
                     "--state-dir", str(state), "--log", str(log)], env=env, cwd=str(script.parent),
                    stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                    start_new_session=True))
                self.info[s["name"]] = {"url": "http://127.0.0.1:%d" % self.ports[s["name"]],
                                        "state_dir": str(state), "log": str(log)}
            for (name, port), proc in zip(self.ports.items(), self.procs):
                if not wait_port(port):
                    stderr = cast(IO[bytes], proc.stderr)   # stderr=PIPE: never None
                    err = stderr.read().decode("utf-8", "replace")[-800:] if proc.poll() is not None else ""
                    raise RuntimeError(f"service {name!r} ({mode}) did not come up on port {port}: {err or 'no output'}"
                                       f" (fix: check {case_dir}/engagement.json 'services' and the script)")
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        for p in self.procs:
            if p.poll() is None:
                p.terminate()
        for p in self.procs:
            try:
                p.wait(timeout=5)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
            if p.stderr:
                p.stderr.close()
        self.procs = []
