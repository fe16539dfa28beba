"""Client for the company LLM gateway (written into system/ by fdegym for this case).

    from llm_client import chat
    text = chat([{"role": "user", "content": "..."}], max_tokens=300)

The endpoint is read from config/llm.json next to this file; production points that file at the
production gateway, so do not hard-code the URL anywhere else. Usage is metered: see budget().
"""
import json
import os
import urllib.error
import urllib.request

_CFG = os.path.join(os.path.dirname(os.path.abspath(__file__)), "config", "llm.json")
_OPEN = urllib.request.build_opener(urllib.request.ProxyHandler({})).open


class LLMError(RuntimeError):
    pass


def _url():
    with open(_CFG) as f:
        return json.load(f)["url"]


def chat(messages, max_tokens=400, temperature=0.0, json_mode=False, timeout=120):
    body = json.dumps({"messages": messages, "max_tokens": max_tokens, "temperature": temperature,
                       "json_mode": json_mode}).encode("utf-8")
    req = urllib.request.Request(_url(), data=body, headers={"Content-Type": "application/json"})
    try:
        with _OPEN(req, timeout=timeout) as r:
            d = json.loads(r.read().decode("utf-8"))
    except urllib.error.HTTPError as e:
        raise LLMError("gateway %d: %s" % (e.code, e.read().decode("utf-8", "replace")[:200])) from None
    except (urllib.error.URLError, OSError, ValueError) as e:
        raise LLMError("gateway unreachable: %s" % e) from None
    if "error" in d:
        raise LLMError(d["error"])
    return d["text"]


def budget():
    with _OPEN(_url(), timeout=30) as r:
        return json.loads(r.read().decode("utf-8"))
