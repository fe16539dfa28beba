"""Diligent: every key fact found and used - the control room's transfers in config.json
`abnormal_state`, live calls for the codes the program requires (shortest deadline first), texts
for everyone else, night calls where the night cover is - in the v1 planner's shape: one pass
per batch over the GIS-plus-overrides network. Misses what the history shows in passing: SCADA
switching in the feed, customers already told earlier in the same incident, and landline numbers
that a text never reaches."""

import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
from .. import on_net

PLANNER = '''
def plan_batch(events: list) -> list:
    cfg = load_config()
    devs, custs = gis.load(HERE / cfg["gis_extract_dir"])
    sec_paths = gis.paths(devs, cfg.get("abnormal_state") or {})
    codes = cfg["call_med_codes"]
    out = []
    for ev in events:
        if ev.get("type") not in cfg["notify_on"]:
            continue
        hit = affected_accounts(ev["device"], sec_paths, custs)
        hour = int(ev["ts"][11:13])
        ch = cfg.get("night_channel", "agent") if (hour >= 22 or hour < 7) else "agent"
        calls = sorted((c for c in hit if c["med_code"] in codes),
                       key=lambda c: (codes.index(c["med_code"]), int(c["account"])))
        for c in calls:
            out.append({"event_id": ev["event_id"], "account": c["account"], "channel": ch})
        for c in hit:
            if c["med_code"] not in codes:
                out.append({"event_id": ev["event_id"], "account": c["account"], "channel": "sms"})
    return out
'''


def apply(ws: Path, params: dict) -> None:
    sysd = Path(ws) / "system" / "ons"
    cfg = json.loads((sysd / "config.json").read_text(encoding="utf-8"))
    cfg["abnormal_state"] = on_net.transfer_state(list(params["transfers"]))
    cfg["call_med_codes"] = ["LS", "MB"] if int(params.get("mb_deadline_min") or 0) else ["LS"]
    if int(params["agents_night"]) == 0 and params.get("overflow_line"):
        cfg["night_channel"] = "overflow"
    (sysd / "config.json").write_text(json.dumps(cfg, indent=2) + "\n", encoding="utf-8")
    src = (sysd / "planner.py").read_text(encoding="utf-8")
    head, tail = src.split("def plan_batch", 1)
    tail = tail[tail.index('\nif __name__'):]
    (sysd / "planner.py").write_text(head + PLANNER.lstrip("\n") + "\n" + tail, encoding="utf-8")
