"""Reference: ONS v2, written from the facts the way a distribution-ops engineer would.

* connectivity as operated: the control room's standing transfers (switching log, or the GIS
  redline when Ray is away) go into config.json `abnormal_state` as device positions; SCADA SWITCH
  events in the OMS feed move devices live and are persisted in system/ons/state/ (oms-bridge only
  sends new events per poll and restarts the planner at will);
* one notice per customer per OMS incident (an escalating lockout tells only the newly-out);
* live calls only for the codes the program standard requires, shortest deadline first; everyone
  else a text, or an IVR call on a landline (Twilio 30006 in the log never reaches anyone);
* overnight calls to the answering-service line where the outbound team has no night cover.

The planner change is solutions/menu/planner_v2.patch and the config edits are the menu's own
items: the reference is the menu plan for its variant (tasklib.menu.apply), so each change is stored once.
"""

from pathlib import Path

from fdegym_env.core.task import task_of_module
from fdegym_env.tasklib import menu

TRANSFER_ITEM = {("T-101:R-2101B",): "transfer_slv2101",
                 ("T-101:R-2101B", "T-102:SW-3101-06"): "transfer_slv2101_and_mbk3101_tail",
                 ("T-102:R-3101B",): "transfer_mbk3101",
                 ("T-102:R-2102B",): "transfer_slv2102"}


def items_for(params: dict) -> list[str]:
    out = ["apply_planner_v2"]
    if params.get("transfers"):
        out.append(TRANSFER_ITEM[tuple(params["transfers"])])
    if int(params.get("mb_deadline_min") or 0):
        out.append("mb_live_calls")
    if int(params["agents_night"]) == 0 and params.get("overflow_line"):
        out.append("nights_to_overflow")
    return out


def apply(ws: Path, params: dict) -> None:
    menu.apply(task_of_module(__name__), items_for(params), Path(ws))
