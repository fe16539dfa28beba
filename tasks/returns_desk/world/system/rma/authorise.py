"""Returns authorisation (RMA): approve, send to inspection, or refuse each return request.

Called by the returns portal job every 30 minutes with the new requests. "approve" issues the
prepaid label and refunds on scan at Kirkstall; "inspect" issues the label and holds the refund
until QC has graded the item (partial refunds go through QC); "refuse" emails the customer the
refusal template (RET-07) and no label is issued.
"""

from __future__ import annotations

import json
import logging
from datetime import date
from pathlib import Path

log = logging.getLogger("rma.authorise")
CONFIG = Path(__file__).resolve().parent.parent / "config.json"


def load_config() -> dict:
    return json.loads(CONFIG.read_text(encoding="utf-8"))


def _day(ts: str) -> date:
    return date.fromisoformat(ts[:10])


def days_since_delivery(req: dict) -> int:
    start = req.get("delivered_at") or req.get("dispatched_at") or req["ordered_at"]
    return (_day(req["requested_at"]) - _day(start)).days


def decide(req: dict, cfg: dict) -> dict:
    rid = req["rma_id"]
    if req.get("reason") in cfg["always_accept_reasons"]:
        return {"rma_id": rid, "action": "approve", "reason": "faulty / not as described (CRA)"}
    window = cfg["window_days"].get(req.get("tier", "standard"), cfg["window_days"]["standard"])
    if days_since_delivery(req) > window:
        return {"rma_id": rid, "action": "refuse", "reason": f"outside {window}-day returns window"}
    for rule in cfg.get("block_rules", []):
        if req.get(rule["field"], 0) > rule["max"]:
            return {"rma_id": rid, "action": "refuse", "reason": rule.get("message", "blocked")}
    if float(req.get("price", 0)) >= cfg["inspect_over_gbp"]:
        return {"rma_id": rid, "action": "inspect", "reason": "high value - QC before refund"}
    return {"rma_id": rid, "action": "approve", "reason": "within returns window"}


def authorise_batch(requests: list[dict]) -> list[dict]:
    """[return request] -> [{rma_id, action: approve|inspect|refuse, reason}] (same order)."""
    cfg = load_config()
    out = [decide(r, cfg) for r in requests]
    log.info("batch n=%d refused=%d", len(out), sum(d["action"] == "refuse" for d in out))
    return out
