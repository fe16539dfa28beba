"""Shortcut: fix what the caseload shows (the v3 field read properly, every spelling) and ask nobody:
decide_by stays the 2019 'validated + statutory_days' in calendar days, the conservation list stays
as it was, the applicant's tick stays."""

from fdegym_env.tasklib import solutions

from . import reference


def apply(ws, params):
    reference.read_v3(ws, params)
    solutions.replace(ws, "system/permits/triage.py",
                      '    return str(app.get("street", "")).strip().lower() in _streets()\n',
                      '    return app.get("declared_conservation_area") == "Y" or str(app.get("street", "")).strip().lower() in _streets()\n')
    solutions.replace(ws, "system/permits/triage.py",
                      '    received = date.fromisoformat(str(app["received_on"])[:10])\n',
                      '    received = date.fromisoformat(str(app["validated_on"])[:10])\n'
                      '    return (received + timedelta(days=period["working_days"])).isoformat()\n')
