"""Threshold rules (rules.json): page when the value crosses the alert's page_at, otherwise open a
ticket. Alerts without a rule fall back to the severity default."""
from __future__ import annotations

import json
import os

_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "rules.json")
_RULES = None


def load() -> dict:
    global _RULES
    if _RULES is None:
        with open(_PATH) as f:
            _RULES = json.load(f)
    return _RULES


def decide(ev: dict):
    r = load()
    rule = r["alerts"].get(ev.get("alert"))
    v = ev.get("value")
    if rule and rule.get("page_at") is not None and isinstance(v, (int, float)) and not isinstance(v, bool):
        if rule.get("cmp", ">=") == "<=":
            hit = v <= rule["page_at"]
        else:
            hit = v >= rule["page_at"]
        return ("page", "threshold") if hit else ("ticket", "below page threshold")
    sev = str(ev.get("severity") or "warning").lower()
    return r["defaults"].get(sev, "ticket"), "severity default"
