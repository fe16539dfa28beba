"""Literal: what Marisol asked for - when OMS reports an outage, text every customer on that
feeder (the feeder OMS names, as GIS maps customers to feeders). The call list is left as it is."""

from pathlib import Path

PLANNER = '''
def plan_batch(events: list) -> list:
    cfg = load_config()
    devs, custs = gis.load(HERE / cfg["gis_extract_dir"])
    sec_paths = gis.paths(devs, cfg.get("abnormal_state") or {})
    out = []
    for ev in events:
        if ev.get("type") not in cfg["notify_on"]:
            continue
        hit = affected_accounts(ev["device"], sec_paths, custs)
        calls = sorted((c for c in hit if c["med_code"] in cfg["call_med_codes"]), key=lambda c: int(c["account"]))
        for c in calls:
            out.append({"event_id": ev["event_id"], "account": c["account"], "channel": "agent"})
        for c in custs:                                   # the whole feeder, not just downstream
            if c["feeder"] == ev.get("feeder"):
                out.append({"event_id": ev["event_id"], "account": c["account"], "channel": "sms"})
    return out
'''


def apply(ws: Path, params: dict) -> None:
    path = Path(ws) / "system" / "ons" / "planner.py"
    src = path.read_text(encoding="utf-8")
    head, tail = src.split("def plan_batch", 1)
    tail = tail[tail.index('\nif __name__'):]
    path.write_text(head + PLANNER.lstrip("\n") + "\n" + tail, encoding="utf-8")
