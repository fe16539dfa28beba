"""Shared by the solutions: install the v2 engine (the menu's change solutions/menu/v2_engine.patch,
kept once) and write rules.json from what the people said."""

from __future__ import annotations

import json
from pathlib import Path

from fdegym_env.tasklib import solutions

CO_TERMINALS = {"LHR": ["LGW"], "LGW": ["LHR"], "CDG": ["ORY"], "ORY": ["CDG"]}


def mct_table(params: dict) -> dict:
    t2, t1, x, us = int(params["mct_t2"]), int(params["mct_t1"]), int(params["mct_cross"]), int(params["mct_us_t2"])
    return {"T2-T2": t2, "T1-T1": t1, "T1-T2": x, "T2-T1": x, "US-from-T2": us,
            "US-from-T1": us + int(params["mct_us_t1_extra"])}


PRM = ["WCHR", "WCHS", "WCHC", "BLND", "DEAF", "DPNA"]


def install(ws: Path, params: dict, *, together: bool = True, coterm: bool = True, prm: bool = True,
            physical: bool = True,
            mct: dict | None = None,
            desk_ssr: list | None = None, exempt: list | None = None, note: str = "") -> None:
    pkg = Path(ws) / "system" / "reaccom"
    solutions.patch(__name__, Path(ws), "menu/v2_engine.patch")
    rules = json.loads((pkg / "rules.json").read_text(encoding="utf-8"))
    rules.update({
        "version": "2.0", "updated": "2026-03-06 " + (note or "v2: whole-journey re-protection"),
        "auto_scope": "all", "desk_if_any_ssr": False, "same_day_only": False,
        "mct": mct if mct is not None else mct_table(params),
        "desk_ssr": desk_ssr if desk_ssr is not None else (["UMNR", "YPTA"] if params["ypta_as_umnr"] else ["UMNR"]),
        "eu261_exempt_origins": list(params["eu261_exempt"]) if exempt is None else exempt,
        "co_terminals": CO_TERMINALS if coterm else {},
        "keep_party_together": together,
        "prm_ssr": PRM if prm else [], "prm_extra_minutes": 15 if prm else 0,
        "physical_seats": physical})
    rules.pop("mct_minutes", None)
    (pkg / "rules.json").write_text(json.dumps(rules, indent=2) + "\n", encoding="utf-8")
