"""Reference: what an engineer who had every fact would deliver.

- red flags (the list's current owner's version) anywhere in the message -> nurse line, urgent;
  matched generously (plurals, -ing forms, missing apostrophes), as the clinical lead asked
- repeats: controlled drugs in the practice's scope, by generic or brand name -> doctor; the rest ->
  pharmacy desk up to its daily capacity (weekend and bank-holiday requests count against the next
  working day), overflow stays with the duty nurse; a carer's repeat typed into an Admin query is a
  repeat too
- pure admin questions -> approved templates only (nothing clinical, and no second ask - a repeat,
  a booking or a result - in the same message)
- out of hours (the practice's real hours, UK time - received_at is a UTC instant and the clocks go
  forward on 29 March - and closed on bank holidays) -> the current safety-netting text, word for word

The changes are kept once in solutions/menu/ (shared with menu.yaml's items): policy_router/ (the
policy-driven router and the repeat-request defaults) and admin_templates/; policy() writes the rest
from the variant's params. Other solutions are the reference plus write_policy(ws, {"90_overrides.json":
{...}}) (policy files merge in name order) or another menu folder.
"""
import json
from pathlib import Path

from fdegym_env.tasklib import solutions

MENU = Path(__file__).resolve().parent / "menu"

BANK_HOLIDAYS_2026 = ["2026-04-03", "2026-04-06", "2026-05-04", "2026-05-25", "2026-08-31", "2026-12-25", "2026-12-28"]
# brand names patients tick or type for each controlled drug (the pharmacist's list)
CD_BRANDS = {
    "morphine": ["Zomorph", "MST Continus", "MST", "Oramorph"], "oxycodone": ["OxyContin", "Shortec", "OxyNorm", "Longtec"],
    "fentanyl": ["Matrifen", "Durogesic", "Fencino"], "methylphenidate": ["Concerta", "Equasym", "Medikinet", "Ritalin"],
    "lisdexamfetamine": ["Elvanse"], "pregabalin": ["Lyrica", "Alzain", "Lecaent"], "gabapentin": ["Neurontin"],
    "tramadol": ["Zydol", "Marol", "Zamadol"], "temazepam": [], "buprenorphine": ["BuTrans", "Butec", "Transtec", "Subutex"],
    "diazepam": [], "zopiclone": ["Zimovane"], "lorazepam": ["Ativan"], "zolpidem": ["Stilnoct"], "nitrazepam": ["Mogadon"],
}
NOTE = ("\n## 3.0.0\n- Red flags read from subject AND body (generous match); repeat requests to the pharmacy desk with "
        "the CD rule (generic and brand names) and daily capacity; approved admin templates only for single-question "
        "admin messages; UK local time (BST) and bank holidays; current OOH wording.\n")


def policy(params: dict) -> dict:
    """config/policy/<file> -> its keys, from what the people said (the variant's params)."""
    cds = list(params["cd_drugs"])
    return {"10_red_flags.json": {"red_flags": [p for ps in params["red_flags"].values() for p in ps], "match": "generous"},
            "20_controlled_drugs.json": {"cd_drugs": cds + [b for d in cds for b in CD_BRANDS.get(d.lower(), [])]},
            "25_pharmacy_desk.json": {"route_repeats": True, "pharm_cap": int(params["pharm_cap"])},
            "30_hours.json": {"hours": params["hours"], "uk_time": True, "closed_dates": BANK_HOLIDAYS_2026},
            "40_ooh_reply.json": {"ooh_reply": params["ooh_reply"]}}


def write_policy(ws: Path, files: dict) -> None:
    for name, part in files.items():
        p = Path(ws) / "system" / "config" / "policy" / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(json.dumps(part, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def apply(ws: Path, params: dict) -> None:
    for change in ("policy_router", "admin_templates"):
        solutions.overlay(MENU / change, ws, params)
    write_policy(ws, policy(params))
    with open(Path(ws) / "system" / "CHANGELOG.md", "a", encoding="utf-8") as f:
        f.write(NOTE)
