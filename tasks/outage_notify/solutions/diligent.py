"""Diligent: every key fact found and used - the control room's transfers in config.json
`abnormal_state`, live calls for the codes the program requires (shortest deadline first), texts
for everyone else, night calls where the night cover is - in the v1 planner's shape: one pass
per batch over the GIS-plus-overrides network. Misses what the history shows in passing: SCADA
switching in the feed, customers already told earlier in the same incident, and landline numbers
that a text never reaches."""

import json
from pathlib import Path

from fdegym_env.tasklib import solutions

from .. import on_net


def apply(ws: Path, params: dict) -> None:
    sysd = Path(ws) / "system" / "ons"
    cfg = json.loads((sysd / "config.json").read_text(encoding="utf-8"))
    cfg["abnormal_state"] = on_net.transfer_state(list(params["transfers"]))
    cfg["call_med_codes"] = ["LS", "MB"] if int(params.get("mb_deadline_min") or 0) else ["LS"]
    if int(params["agents_night"]) == 0 and params.get("overflow_line"):
        cfg["night_channel"] = "overflow"
    (sysd / "config.json").write_text(json.dumps(cfg, indent=2) + "\n", encoding="utf-8")
    solutions.patch(__name__, ws, "diligent.patch")
