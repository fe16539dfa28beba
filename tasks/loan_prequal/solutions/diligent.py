"""Diligent: every key fact found (which intake sends self-employed income in which period, the
committee's appetite, the fair-lending rules, the current reason codes) and shipped as a channel
rule in the engine's income conversion. Misses the subtle cases: applications that finish on the
old form version still state annual figures, and free-text amounts ("$4,250", "4.2k") still parse
to nothing."""

import json
from pathlib import Path

OLD = '''    basis = BASIS.get(app.get("employment", ""), "annual")
'''
NEW = '''    basis = BASIS.get(app.get("employment", ""), "annual")
    if app.get("employment") == "self_employed" and app.get("channel") == "{channel}":
        basis = "{period}"   # {channel} intake asks for a {period} figure
'''


def apply(ws: Path, params: dict) -> None:
    inc = Path(ws) / "system" / "prequal" / "income.py"
    src = inc.read_text(encoding="utf-8")
    src = src.replace('PERIODS_PER_MONTH = {"annual": 1 / 12, "monthly": 1.0}',
                      'PERIODS_PER_MONTH = {"annual": 1 / 12, "monthly": 1.0, "weekly": 52 / 12, "biweekly": 26 / 12, "quarterly": 1 / 3}')
    src = src.replace(OLD, NEW.format(channel=params["quirk_channel"], period=params["se_period"]))
    inc.write_text(src, encoding="utf-8")
    path = Path(ws) / "system" / "config.json"
    cfg = json.loads(path.read_text(encoding="utf-8"))
    cfg["max_dti"] = float(params["appetite_dti"])
    cfg["min_fico"] = int(params["appetite_fico"])
    cfg["reason_codes"] = dict(params["notice_codes"])
    path.write_text(json.dumps(cfg, indent=2) + "\n", encoding="utf-8")
