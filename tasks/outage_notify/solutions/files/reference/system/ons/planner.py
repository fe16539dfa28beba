"""ONS planner: OMS events in, notifications out.

Production: `oms-bridge` polls the OMS event table every 60 s and calls

    plan_batch(events) -> list of {"event_id", "account", "channel"}

with the events since the last poll, oldest first. The dispatcher sends `sms` / `ivr` through
Twilio, and pushes `agent` rows, in the order returned, to the Genesys outbound campaign (and
`overflow` rows to the answering service, where that line is contracted).

v2 (as operated):
- connectivity = the GIS normal state + `abnormal_state` in config.json (the control room's
  standing transfers, from the switching log) + every SCADA SWITCH event OMS sends us; SWITCH
  positions are kept in state/ons_state.json, because polls only carry the new events;
- one notice per customer per OMS incident: when a lockout grows (recloser, then the breaker
  upstream), only the customers newly out are told;
- live calls only for the med codes the program requires (`call_rules`), most urgent code first;
  everybody else gets a text, or an IVR call when the number on file is a landline (a text to a
  landline fails with Twilio 30006 and reaches nobody);
- overnight, calls go to `overnight_call_channel` (the outbound team's night cover).
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

from ons import gis

HERE = Path(__file__).resolve().parent
STATE = HERE / "state" / "ons_state.json"


def load_config() -> dict:
    return json.loads((HERE / "config.json").read_text(encoding="utf-8"))


def _load_state() -> dict:
    try:
        st = json.loads(STATE.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        st = {}
    st.setdefault("switch", {})
    st.setdefault("told", {})
    return st


def _save_state(st: dict) -> None:
    STATE.parent.mkdir(parents=True, exist_ok=True)
    if len(st["told"]) > 500:                        # incidents are hours long; keep the recent ones
        for inc in sorted(st["told"])[:-500]:
            del st["told"][inc]
    tmp = STATE.with_suffix(".tmp")
    tmp.write_text(json.dumps(st), encoding="utf-8")
    tmp.replace(STATE)


def affected_accounts(device: str, sec_paths: dict, custs: list[dict]) -> list[dict]:
    """Customers whose supply path runs through `device`."""
    out_secs = {s for s, p in sec_paths.items() if device in p}
    return [c for c in custs if c["section"] in out_secs]


def _night(ts: str, cfg: dict) -> bool:
    hour = datetime.fromisoformat(ts).hour
    lo, hi = cfg.get("night_hours", [22, 7])
    return hour >= lo or hour < hi


def plan_batch(events: list) -> list:
    cfg = load_config()
    devs, custs = gis.load(HERE / cfg["gis_extract_dir"])
    known = {d["id"] for d in devs}
    st = _load_state()
    state = dict(cfg.get("abnormal_state") or {})
    state.update(st["switch"])
    sec_paths = gis.paths(devs, state)
    rules = cfg.get("call_rules") or {}
    rank = {code: i for i, code in enumerate(sorted(rules, key=lambda c: rules[c]["deadline_min"]))}
    out = []
    for ev in events:
        kind = ev.get("type")
        if kind == "SWITCH" and ev.get("device") in known and ev.get("state") in ("open", "closed"):
            st["switch"][ev["device"]] = ev["state"]
            state[ev["device"]] = ev["state"]
            sec_paths = gis.paths(devs, state)
            continue
        if kind not in cfg["notify_on"]:
            continue
        told = set(st["told"].get(ev.get("incident") or ev["event_id"], []))
        new = [c for c in affected_accounts(ev["device"], sec_paths, custs) if c["account"] not in told]
        call_ch = cfg.get("overnight_call_channel", "agent") if _night(ev["ts"], cfg) else "agent"
        calls = sorted((c for c in new if c["med_code"] in rules), key=lambda c: (rank[c["med_code"]], int(c["account"])))
        for c in calls:
            out.append({"event_id": ev["event_id"], "account": c["account"], "channel": call_ch})
        for c in new:
            if c["med_code"] in rules:
                continue
            ch = "sms" if c["phone_type"] == "mobile" else cfg.get("landline_channel", "ivr")
            out.append({"event_id": ev["event_id"], "account": c["account"], "channel": ch})
        st["told"][ev.get("incident") or ev["event_id"]] = sorted(told | {c["account"] for c in new})
    _save_state(st)
    return out


if __name__ == "__main__":  # replay a saved OMS batch: python3 -m ons.planner < batch.json
    import sys

    rows = plan_batch(json.load(sys.stdin))
    json.dump(rows, sys.stdout, indent=1)
