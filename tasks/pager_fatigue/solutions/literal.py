"""Literal delivery: what the sponsor asked for, done carefully. Every page threshold in
rules.json is made 50% less sensitive (x1.5 for 'value >= page_at' rules, /1.5 for the one
'value <= page_at' rule, CertExpirySoon). Nothing else changes."""
import json
import pathlib


def apply(ws: pathlib.Path, params: dict) -> None:
    p = pathlib.Path(ws) / "system" / "alertrouter" / "rules.json"
    rules = json.loads(p.read_text())
    for name, r in rules["alerts"].items():
        if r.get("page_at") is None:
            continue
        if r.get("cmp", ">=") == "<=":
            r["page_at"] = round(r["page_at"] / 1.5, 3)
        else:
            r["page_at"] = round(r["page_at"] * 1.5, 3)
    rules["_comment"] = "Thresholds raised 50% per G. Tulloch (OPS-1240)."
    p.write_text(json.dumps(rules, indent=2) + "\n")
