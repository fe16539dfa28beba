"""Reference: state each intake form's income basis explicitly and convert from it, keep the
credit committee's appetite, and decline only with reason codes from the current list. Written from
the facts (params) and from what the workspace shows, not from any held-out application:

* the quirky intake (OLA 2.0 online, or LendCompass API v3) sends self-employed income in another
  period (monthly / weekly / quarterly) - the engine's "self-employed is annual Schedule C" holds
  only for the branch screens, the other channel, and the *old* form version: applications
  started before the relaunch finish on it (form OLA-1.9 / LC-API-v2, annual figures; intake log
  "resumed", reconsiderations noting the figure "IS annual"), so the basis goes by form version,
  not by channel;
* the new form's income box is free text: "$4,250", "4.2k", "3,100/mo", "4,250.00 USD" reach the
  engine as strings the legacy parser turned into 0 (intake log WARN lines) - parse them;
* nothing about ZIP, age beyond legal capacity, title or marital status enters a decision;
  reason codes come from config and are the current list; max DTI is the committee's.
"""

import json
from pathlib import Path

INCOME = '''"""Stated income -> gross monthly income, the figure every affordability check uses.

Each intake form states income on its own basis (docs/intake_mapping.md is out of date):
branch screens (LOS-BR), OLA 1.9 and LendCompass v2 give annual figures; {form} asks
self-employed applicants for a {period} figure. The basis goes by form version, not channel:
applications started before a relaunch finish on the old form.
"""

from __future__ import annotations

import logging
import re

log = logging.getLogger("prequal.income")

PERIODS_PER_MONTH = {{"annual": 1 / 12, "monthly": 1.0, "weekly": 52 / 12, "biweekly": 26 / 12, "quarterly": 1 / 3}}
BASIS = {{"employed": "annual", "self_employed": "annual", "retired": "annual"}}
# (form, employment) -> basis where a form differs from the default
FORM_BASIS = {{("{form}", "self_employed"): "{period}"}}

_NUM = re.compile(r"(\\d+(?:\\.\\d+)?)\\s*(k)?\\b", re.I)


def parse_amount(raw) -> float:
    """Numbers pass through; free text such as "$4,250", "4.2k", "3,100/mo", "USD 4,250.00" is parsed."""
    if isinstance(raw, bool) or raw is None:
        return 0.0
    if isinstance(raw, (int, float)):
        return float(raw)
    text = str(raw).replace(",", "").replace("$", " ").strip()
    m = _NUM.search(text)
    if not m:
        log.warning("income_amount unparseable: %r", raw)
        return 0.0
    value = float(m.group(1))
    return value * 1000 if m.group(2) else value


def monthly_income(app: dict) -> float:
    amount = parse_amount(app.get("income_amount"))
    emp = app.get("employment", "")
    basis = FORM_BASIS.get((app.get("form", ""), emp), BASIS.get(emp, "annual"))
    return amount * PERIODS_PER_MONTH[basis]
'''


def apply(ws: Path, params: dict) -> None:
    (Path(ws) / "system" / "prequal" / "income.py").write_text(
        INCOME.format(form=params["quirk_form"], period=params["se_period"]), encoding="utf-8")
    set_config(ws, params)


def set_config(ws: Path, params: dict) -> None:
    """The committee's appetite and the current reason codes into system/config.json."""
    path = Path(ws) / "system" / "config.json"
    cfg = json.loads(path.read_text(encoding="utf-8"))
    cfg["max_dti"] = float(params["appetite_dti"])
    cfg["min_fico"] = int(params["appetite_fico"])
    cfg["reason_codes"] = dict(params["notice_codes"])
    path.write_text(json.dumps(cfg, indent=2) + "\n", encoding="utf-8")
