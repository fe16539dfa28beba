"""Shortcut: hard-code the history - every ticket the log shows being reassigned to field_ops gets a
rule on its ticket number sending it there directly."""

import json
import re
from pathlib import Path

from fdegym_env.tasklib import solutions


def apply(ws, params: dict) -> None:
    log = (Path(ws) / "logs" / "triage.log").read_text(encoding="utf-8")
    ids = sorted(set(re.findall(r"(INC\d{7}) reassigned \S+ -> field_ops", log)))
    solutions.replace(ws, "system/config.json", '{"id": "R10-outage"', '{"id": "R05-seen", "enabled": true, '
                      f'"field": "id", "match": {json.dumps(ids)}, "queue": "field_ops", "priority": "P2"}},\n'
                      '    {"id": "R10-outage"')
