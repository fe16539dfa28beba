"""Diligent: every key fact found - the misread field, the deemed-approval date, the designated areas,
how the officers work their list - and shipped with the spellings seen on the web form only ('sqft',
a JSON true; the agents' 'ft2' and the embedded council form's 'on' still bounce to the officers) and
the applicant's conservation tick kept as 'belt and braces' (ticked cases in no area wait for
Imogen's screening). The reference, then this."""

import json
from pathlib import Path

from fdegym_env.tasklib import solutions

from . import reference


def apply(ws, params):
    reference.apply(ws, params)
    path = Path(ws) / reference.CONFIG
    cfg = json.loads(path.read_text(encoding="utf-8"))
    cfg["area_units"] = {"sqm": 1, "m2": 1, "sqft": 10.7639}
    if "consent_ticked" in cfg:
        cfg["consent_ticked"] = ["y", "yes", "true"]
    path.write_text(json.dumps(cfg, indent=2) + "\n", encoding="utf-8")
    solutions.replace(ws, "system/permits/triage.py",
                      '    return str(app.get("street", "")).strip().lower() in _streets()\n',
                      '    return app.get("declared_conservation_area") == "Y" or str(app.get("street", "")).strip().lower() in _streets()\n')
