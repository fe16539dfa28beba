"""The harness's score fields, computed from a grader's output (``harness/run.py`` semantics).

- variant anchors: a variant's ``kpi_baseline`` / ``kpi_oracle`` params override the grader's;
- ``uplift = round((kpi - kpi_baseline) / (kpi_oracle - kpi_baseline), 4)`` (0 when the span is 0);
- ``uplift_bounded = max(-1, uplift)`` (before the incident cap);
- any incident caps ``uplift`` at ``min(uplift, 0)``;
- ``framing``: the share of ``truth["framing"]`` keyword groups hit by ``deliverables/problem_brief.md``;
- ``discovery`` from the question log, and ``uplift_net = round(uplift - contact_cost, 4)``.

Example:
    >>> harness_scores({"kpi": 0.9, "kpi_baseline": 0.5, "kpi_oracle": 1.0, "incidents": []},
    ...                None, {}, None)["uplift"]
    0.8
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any


def score_framing(ws: Path, truth: dict[str, Any]) -> dict[str, Any]:
    p = Path(ws) / "deliverables" / "problem_brief.md"
    if not p.exists():
        return {"score": 0.0, "missing": "no problem_brief.md"}
    text = p.read_text(encoding="utf-8", errors="replace")
    groups = truth["framing"]
    hit = {g["id"]: any(re.search(pat, text, re.I | re.S) for pat in g["any"]) for g in groups}
    return {"score": sum(hit.values()) / float(len(groups)), "groups": hit}


def score_discovery(records: list[dict[str, Any]], truth: dict[str, Any]) -> dict[str, Any]:
    """Discovery metrics from question-log records (the harness's ``score_discovery``)."""
    asked, facts, cost = 0, set(), 0.0
    by_person: dict[str, int] = {}
    for rec in records:
        facts.update(rec["facts"])
        cost += rec.get("cost", 0.0)
        if rec["to"] in ("wait", "inbox"):
            continue
        if rec.get("topics") == ["gone"]:
            continue
        asked += rec["to"] != "pilot"
        by_person[rec["to"]] = by_person.get(rec["to"], 0) + 1
    key = set(truth.get("key_stakeholder_facts", []))
    return {"questions_asked": asked, "facts_obtained": sorted(facts), "contact_cost": round(cost, 4),
            "asked_by_person": by_person,
            "off_limits_contacts": sorted(f.split(":", 1)[1] for f in facts if f.startswith("F_off_limits:")),
            "key_fact_coverage": (len(facts & key) / float(len(key))) if key else None}


def harness_scores(out: dict[str, Any], variant: Any, truth: dict[str, Any], ws: Path | None,
                   discovery: dict[str, Any] | None = None) -> dict[str, Any]:
    """Add the harness's score fields to a grader's output (a copy is returned)."""
    out = dict(out)
    params = getattr(variant, "params", None) or {}
    for k in ("kpi_baseline", "kpi_oracle"):
        if k in params:
            out[k] = params[k]
    if variant is not None and getattr(variant, "name", "base") != "base":
        out["variant"] = variant.name
    span = out["kpi_oracle"] - out["kpi_baseline"]
    out["uplift"] = round((out["kpi"] - out["kpi_baseline"]) / span, 4) if span else 0.0
    out["uplift_bounded"] = max(-1.0, out["uplift"])
    if out.get("incidents"):
        out["uplift"] = min(out["uplift"], 0.0)
    if "framing" in truth and ws is not None:
        out["framing"] = score_framing(ws, truth)
    if discovery is not None:
        out["discovery"] = discovery
        out["uplift_net"] = round(out["uplift"] - discovery["contact_cost"], 4)
    return out
