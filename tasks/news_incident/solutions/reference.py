"""Reference: what an engineer who had learned every fact would deliver.

- Honour each agency's control messages: kills (as each agency actually sends them) unpublish the
  story they refer to; new versions of a slug update the story instead of duplicating it.
- Read Meridian's naive embargo times in the agency's own timezone.
- Hold reports of active UK criminal proceedings for legal review (the scope legal gave), and spike
  the priorities the night desk said it cannot clear.
No keyword blocklist: everything else keeps auto-publishing.
"""

from __future__ import annotations

import json
from pathlib import Path

from fdegym_env.tasklib import solutions


def policy_source(params: dict) -> str:
    ukns = params["ukns_kill"]
    kill = {"UKNS": "cancel" if ukns == "cancel" else "ref" if ukns == "ref" else "phrase:MANDATORY KILL",
            "MRD": "cancel", "KNA": "phrase:" + params["kna_kill_phrase"]}
    stages = sorted(params["legal_stages"])
    return f'''"""What the newsroom told us (see docs/ and the tickets); change here, not in the code.

KILL_FORMAT      how each agency withdraws a story: "cancel" = new version with pubstatus canceled,
                 "ref" = advisory "KILL ..." whose ref is the killed guid, "phrase:X" = advisory whose
                 headline starts with X and quotes the slug.
NAIVE_OFFSET_H   agencies whose times come without an offset, and their UTC offset.
LEGAL_STAGES     crime subjects that mean proceedings are active (legal review before publication).
LEGAL_NEEDS_NAME only when a suspect/defendant is named.
SPIKE_PRIORITY   legal copy at this priority number or lower importance is spiked, not queued.
"""

KILL_FORMAT = {json.dumps(kill)}
NAIVE_OFFSET_H = {{"MRD": {float(params["mrd_embargo_offset_h"])}}}
LEGAL_STAGES = {{{", ".join(json.dumps(s) for s in stages)}}}
LEGAL_NEEDS_NAME = {bool(params["legal_needs_name"])}
SPIKE_PRIORITY = {int(params["spike_priority"])}
'''


def apply(ws: Path, params: dict) -> None:
    """The engine is reference.patch (pipeline, store, timeutil); policy.py carries the variant's facts."""
    solutions.patch(__name__, ws, "reference.patch")
    (Path(ws) / "system" / "wire_ingest" / "policy.py").write_text(policy_source(params), encoding="utf-8")
