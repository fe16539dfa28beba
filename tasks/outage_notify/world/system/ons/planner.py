"""ONS planner: OMS events in, notifications out.

Production: `oms-bridge` polls the OMS event table every 60 s and calls

    plan_batch(events) -> list of {"event_id", "account", "channel"}

with the events since the last poll, oldest first. The dispatcher (`ons-dispatch`, not in this
repo) sends `sms` / `ivr` through Twilio and pushes `agent` rows, in the order returned, to the
Genesys outbound campaign the call centre works.

An event is a dict: event_id, incident (OMS incident no.), ts (ISO 8601, local time with
offset), type (LOCKOUT | MOMENTARY | RESTORE | SWITCH), device, source (SCADA | AMI | TCC),
state ('open'/'closed', SWITCH only), feeder (as OMS knows it).
"""

from __future__ import annotations

import json
from pathlib import Path

from ons import gis

HERE = Path(__file__).resolve().parent


def load_config() -> dict:
    return json.loads((HERE / "config.json").read_text(encoding="utf-8"))


def affected_accounts(device: str, sec_paths: dict, custs: list[dict]) -> list[dict]:
    """Customers whose supply path runs through `device`."""
    out_secs = {s for s, p in sec_paths.items() if device in p}
    return [c for c in custs if c["section"] in out_secs]


def plan_batch(events: list) -> list:
    cfg = load_config()
    devs, custs = gis.load(HERE / cfg["gis_extract_dir"])
    sec_paths = gis.paths(devs, cfg.get("abnormal_state") or {})
    out = []
    for ev in events:
        if ev.get("type") not in cfg["notify_on"]:
            # SWITCH: logged by oms-bridge only. GIS is the source of truth for connectivity.
            continue
        hit = affected_accounts(ev["device"], sec_paths, custs)
        calls = [c for c in hit if c["med_code"] in cfg["call_med_codes"]]
        if cfg.get("call_order") == "account":
            calls.sort(key=lambda c: int(c["account"]))
        for c in calls:
            out.append({"event_id": ev["event_id"], "account": c["account"], "channel": "agent"})
        if cfg.get("sms_all_affected"):
            for c in hit:
                out.append({"event_id": ev["event_id"], "account": c["account"], "channel": "sms"})
    return out


if __name__ == "__main__":  # replay a saved OMS batch: python3 -m ons.planner < batch.json
    import sys

    rows = plan_batch(json.load(sys.stdin))
    json.dump(rows, sys.stdout, indent=1)
