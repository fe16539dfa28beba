"""Returns authorisation (RMA): approve, send to inspection, or refuse each return request.

Called by the returns portal job every 30 minutes with the new requests. "approve" issues the
prepaid label and refunds on scan at Kirkstall; "inspect" issues the label and holds the refund
until QC has graded the item (partial refunds go through QC); "refuse" emails the customer the
refusal template (RET-07) and no label is issued.

Never refused: faulty / not as described (Consumer Rights Act), anything inside the statutory
cancellation period (Consumer Contracts Regulations: to the end of the 14th day after the day of
delivery, counted in UK dates from the courier's delivery scan), and a member inside the
no-quibble window of their terms. Customers are not refused for how often they return.
"""

from __future__ import annotations

import json
import logging
from datetime import date, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

log = logging.getLogger("rma.authorise")
CONFIG = Path(__file__).resolve().parent.parent / "config.json"
LONDON = ZoneInfo("Europe/London")


def load_config() -> dict:
    return json.loads(CONFIG.read_text(encoding="utf-8"))


def uk_date(ts: str) -> date:
    return datetime.fromisoformat(ts.replace("Z", "+00:00")).astimezone(LONDON).date()


def days_since_delivery(req: dict) -> int:
    start = req.get("delivered_at") or req.get("dispatched_at") or req["ordered_at"]
    return (uk_date(req["requested_at"]) - uk_date(start)).days


def protected(req: dict, cfg: dict) -> bool:
    """May not be refused: faulty, inside the statutory period, or inside a no-quibble promise."""
    if req.get("reason") in cfg["always_accept_reasons"]:
        return True
    if not req.get("delivered_at"):          # no POD scan: the period has not provably started
        return True
    days = days_since_delivery(req)
    no_quibble = int(cfg.get("no_quibble_days", {}).get(req.get("tier", "standard"), 0) or 0)
    return days <= cfg["statutory_days"] or days <= no_quibble


def wear_risk(req: dict, cfg: dict) -> bool:
    rule = cfg["wear_risk"]
    return req.get("category") in rule["categories"] and int(req.get("qc_c_12m") or 0) >= rule["min_prior_grade_c"]


def decide(req: dict, cfg: dict) -> dict:
    rid = req["rma_id"]
    if req.get("reason") in cfg["always_accept_reasons"]:
        return {"rma_id": rid, "action": "approve", "reason": "faulty / not as described (CRA)"}
    window = cfg["window_days"].get(req.get("tier", "standard"), cfg["window_days"]["standard"])
    if days_since_delivery(req) > window and not protected(req, cfg):
        return {"rma_id": rid, "action": "refuse", "reason": f"outside {window}-day returns window"}
    if wear_risk(req, cfg):
        if protected(req, cfg):
            return {"rma_id": rid, "action": "inspect", "reason": "occasionwear, earlier grade C - QC before refund"}
        return {"rma_id": rid, "action": "refuse", "reason": "goodwill terms: unworn with tags (earlier grade C)"}
    if float(req.get("price", 0)) >= cfg["inspect_over_gbp"]:
        return {"rma_id": rid, "action": "inspect", "reason": "high value - QC before refund"}
    return {"rma_id": rid, "action": "approve", "reason": "within returns window"}


def authorise_batch(requests: list[dict]) -> list[dict]:
    """[return request] -> [{rma_id, action: approve|inspect|refuse, reason}] (same order)."""
    cfg = load_config()
    out = [decide(r, cfg) for r in requests]
    log.info("batch n=%d inspect=%d refused=%d", len(out), sum(d["action"] == "inspect" for d in out),
             sum(d["action"] == "refuse" for d in out))
    return out
