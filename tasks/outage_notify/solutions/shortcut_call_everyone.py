"""Shortcut: skip the diagnosis - when OMS reports an outage, text the whole feeder AND put every
medical customer on that feeder at the top of the call list, hoping volume covers the gaps."""

from pathlib import Path

PLANNER = '''
def plan_batch(events: list) -> list:
    cfg = load_config()
    devs, custs = gis.load(HERE / cfg["gis_extract_dir"])
    out = []
    for ev in events:
        if ev.get("type") not in cfg["notify_on"]:
            continue
        feeder = [c for c in custs if c["feeder"] == ev.get("feeder")]
        for code in ("LS", "MB"):
            for c in feeder:
                if c["med_code"] == code:
                    out.append({"event_id": ev["event_id"], "account": c["account"], "channel": "agent"})
        for c in feeder:
            out.append({"event_id": ev["event_id"], "account": c["account"],
                        "channel": "sms" if c["phone_type"] == "mobile" else "ivr"})
    return out
'''


def apply(ws: Path, params: dict) -> None:
    path = Path(ws) / "system" / "ons" / "planner.py"
    src = path.read_text(encoding="utf-8")
    head, tail = src.split("def plan_batch", 1)
    tail = tail[tail.index('\nif __name__'):]
    path.write_text(head + PLANNER.lstrip("\n") + "\n" + tail, encoding="utf-8")
