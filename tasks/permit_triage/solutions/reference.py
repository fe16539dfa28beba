"""Reference: read the v3 portal's fields as v3 sends them (floor area in the applicant's unit, the
neighbour acknowledgement as Y/N, a boolean or an HTML "on"), send a case to conservation by the
council's designations (never the applicant's tick, which Imogen only screens back), and write the
statutory deemed-approval date as decide_by (working days from receipt, bank holidays excluded, the
amended householder period where it applies). Everything small and outside an area goes to the
technicians, as the Scheme says; nothing is auto-issued. Written from the facts (params)."""

import json
from pathlib import Path

from fdegym_env.tasklib import solutions

CONFIG = "system/triage_config.json"


def configure(ws: Path, params: dict) -> None:
    """The statutory period and the designated areas, as Legal and Conservation (or Karen) gave them."""
    path = Path(ws) / CONFIG
    cfg = json.loads(path.read_text(encoding="utf-8"))
    cfg["deemed_period"] = {"working_days": int(params["base_days"]), "householder_working_days": int(params["hh_days"]),
                            "householder_from": params["amend_from"]}
    area = params.get("new_area")
    if area and area["name"] not in {a["name"] for a in cfg["conservation_areas"]}:
        cfg["conservation_areas"].append({"name": area["name"], "streets": list(area["streets"])})
    path.write_text(json.dumps(cfg, indent=2) + "\n", encoding="utf-8")


def read_v3(ws: Path, params: dict) -> None:
    """The v3 fields: the floor area in its unit (every release), and the neighbour acknowledgement
    where the variant's portal sends it as a boolean or an HTML checkbox."""
    solutions.patch(__name__, ws, "menu/triage_v3.patch")
    if params["mismatch"] == "consent_checkbox":
        solutions.patch(__name__, ws, "menu/consent_v3.patch")


def apply(ws: Path, params: dict) -> None:
    read_v3(ws, params)
    configure(ws, params)
