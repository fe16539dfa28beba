"""Reference: ONS v2, written from the facts the way a distribution-ops engineer would.

* connectivity as operated: the control room's standing transfers (switching log) go into
  config.json `abnormal_state` as device positions; SCADA SWITCH events in the OMS feed update the
  positions live and are persisted (the feed's polls only carry new events);
* one notice per customer per OMS incident (escalating lockouts told only the newly-out);
* live calls only for the codes the Life Support program requires, shortest deadline first;
  everyone else a text, or an IVR call on a landline (Twilio 30006 in the delivery log);
* overnight calls to the answering-service line where the outbound team has no night cover.
"""

import json
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
import on_net  # noqa: E402


def config(ws: Path, params: dict) -> dict:
    path = Path(ws) / "system" / "ons" / "config.json"
    cfg = json.loads(path.read_text(encoding="utf-8"))
    cfg["abnormal_state"] = on_net.transfer_state(list(params["transfers"]))
    rules = {"LS": {"deadline_min": int(params["ls_deadline_min"])}}
    if int(params.get("mb_deadline_min") or 0):
        rules["MB"] = {"deadline_min": int(params["mb_deadline_min"])}
    cfg["call_rules"] = rules
    cfg["landline_channel"] = "ivr"
    cfg["night_hours"] = [22, 7]
    night = int(params["agents_night"]) == 0 and params.get("overflow_line")
    cfg["overnight_call_channel"] = "overflow" if night else "agent"
    cfg["updated"] = "2026-12-04 v2: as-operated connectivity, one notice per incident, LS calls first"
    return cfg


def apply(ws: Path, params: dict) -> None:
    ws = Path(ws)
    shutil.copytree(HERE / "files" / "reference", ws, dirs_exist_ok=True)
    cfg = config(ws, params)
    (ws / "system" / "ons" / "config.json").write_text(json.dumps(cfg, indent=2) + "\n", encoding="utf-8")
