"""Reference: turn on R15-handheld ahead of the login/network rules, pointed at the team that can
actually fix RT7 faults, recognising the tickets the way they really arrive, at the priority the
depots' shift pattern justifies. Written from the facts (params) and from what the world shows,
not from any held-out ticket:

* the floor has more names for an RT7 than the parked list knows: the reassignment trail in
  logs/triage.log has handheld tickets that say HHT, RF gun, RT-7 or "hand held" (Tomasz: the
  pickers call them all sorts), so R15 matches those too;
* "scanner" also means the copiers at head office (MFP scan-to-email tickets in the log, resolved by
  L1; the handbook gives MFPs to the desk): a rule ahead of R15 keeps them with the service desk,
  so a P1 R15 never pages Depot IT for a Ricoh;
* where pickers raise handheld faults at the kiosks (category Device/Handheld), supervisors still
  phone or email them in, naming the device (log: ch=phone RT7 tickets reassigned to the fixer),
  so a text rule with the same target follows the category rule.
"""

import json
from pathlib import Path

KEYWORDS = ["rt7", "rt-7", "rt 7", "scanner", "handheld", "hand held", "hand-held", "scan gun", "rf gun", "hht"]
COPIERS = {"id": "R12-copiers", "enabled": True, "field": "text",
           "match": ["copier", "mfp", "ricoh", "scan to email", "scan-to-email"],
           "queue": "service_desk", "priority": "P3"}


def apply(ws: Path, params: dict) -> None:
    path = Path(ws) / "system" / "config.json"
    cfg = json.loads(path.read_text(encoding="utf-8"))
    rules = []
    for rule in cfg["rules"]:
        if rule["id"] == "R15-handheld":
            text_rule = dict(rule, enabled=True, field="text", match=list(KEYWORDS),
                             queue=params["owner_queue"], priority=params["scanner_priority"])
            rules.append(dict(COPIERS))
            if params["match_on"] == "category":
                rules.append(dict(text_rule, id="R14-handheld-kiosk", field="category", match=["device/handheld"]))
            rules.append(text_rule)
        else:
            rules.append(rule)
    cfg["rules"] = rules
    cfg["updated"] = "2026-03-06 R15 enabled: handheld faults to their owner; copiers stay with L1"
    path.write_text(json.dumps(cfg, indent=2) + "\n", encoding="utf-8")
