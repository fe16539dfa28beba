"""Reference: turn on R15-handheld, pointed at the team that can actually fix RT7 faults, recognising
the tickets the way they really arrive, at the priority the depots' shift pattern justifies. Written
from the facts (params) and from what the world shows, not from any held-out ticket:

* the floor has more names for an RT7 than the parked list knows: the reassignment trail in
  logs/triage.log has handheld tickets that say HHT, RF gun, RT-7 or "hand held" (Tomasz: the
  pickers call them all sorts), so R15 matches those too;
* a share of handheld faults never name the device ("enrolment failed 2F", "says profile missing");
  the faults only an RT7 has (enrolment failed 0x2F, profile missing / lost its profile, not
  compliant, MDM policy, device password, certificate errors, KX7- asset tags, the Korvex boot logo)
  are all over the handheld tickets in the log, and the vague ones among them were reassigned to the
  fixer, so R15 matches those symptoms too (no other kind of ticket uses them);
* "scanner" also means the copiers at head office (MFP scan-to-email tickets in the log, resolved by
  L1; the handbook gives MFPs to the desk): a rule ahead of R15 keeps them with the service desk,
  so a P1 R15 never pages Depot IT for a Ricoh;
* where pickers raise handheld faults at the kiosks (category Device/Handheld), supervisors still
  phone or email them in, naming the device (log: ch=phone RT7 tickets reassigned to the fixer),
  so a text rule with the same target follows the category rule.

Those first three are the menu's tidy-up item, applied from menu.yaml (kept once).
"""

from fdegym_env.core.task import task_of_module
from fdegym_env.tasklib import menu, solutions

PARKED = '"id": "R15-handheld", "enabled": false, "queue": "service_desk", "priority": "P3"'


def apply(ws, params: dict) -> None:
    menu.apply(task_of_module(__name__), ["tidy_handheld_matching"], ws)
    target = f'"queue": "{params["owner_queue"]}", "priority": "{params["scanner_priority"]}"'
    r15 = f'"id": "R15-handheld", "enabled": true, {target}'
    if params["match_on"] == "category":
        r15 = (f'"id": "R14-handheld-kiosk", "enabled": true, {target}, "field": "category", '
               f'"match": ["device/handheld"]}},\n    {{{r15}')
    solutions.replace(ws, "system/config.json", PARKED, r15)
