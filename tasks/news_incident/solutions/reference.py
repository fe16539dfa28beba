"""Reference: what an engineer who had learned every fact would deliver.

- Honour each agency's control messages: kills (as each agency actually sends them) unpublish the
  story they refer to; new versions of a slug update the story instead of duplicating it.
- Read Meridian's naive embargo times in the agency's own timezone.
- Hold reports of active UK criminal proceedings for legal review (the scope legal gave), and spike
  the priorities the night desk said it cannot clear.
No keyword blocklist: everything else keeps auto-publishing.

The change is kept once in solutions/menu/engine.patch (menu.yaml's engine item): pipeline, store,
timeutil, and policy.py with base's facts; policy() sets this variant's facts in it.
"""

import json
import re
from pathlib import Path

from fdegym_env.tasklib import solutions


def policy(params: dict) -> dict:
    """policy.py's settings for the variant's truth."""
    ukns = {"ref": "ref", "cancel": "cancel"}.get(params["ukns_kill"], "phrase:MANDATORY KILL")
    kill = {"UKNS": ukns, "MRD": "cancel", "KNA": "phrase:" + params["kna_kill_phrase"]}
    return {"KILL_FORMAT": json.dumps(kill), "NAIVE_OFFSET_H": f'{{"MRD": {float(params["mrd_embargo_offset_h"])}}}',
            "LEGAL_STAGES": "{" + ", ".join(json.dumps(s) for s in sorted(params["legal_stages"])) + "}",
            "LEGAL_NEEDS_NAME": str(bool(params["legal_needs_name"])), "SPIKE_PRIORITY": str(int(params["spike_priority"]))}


def apply(ws, params):
    solutions.patch(__name__, ws, "menu/engine.patch")
    path = Path(ws) / "system" / "wire_ingest" / "policy.py"
    text = path.read_text(encoding="utf-8")
    for name, value in policy(params).items():
        text = re.sub(rf"^{name} = .*$", lambda _m, line=f"{name} = {value}": line, text, count=1, flags=re.M)
    path.write_text(text, encoding="utf-8")
