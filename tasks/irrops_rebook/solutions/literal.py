"""Literal: what Deirdre asked for - everyone on a cancelled flight goes on the next flight, no
desk: the parked 'all' scope switched on, the SSR and same-day brakes off."""

import json
from pathlib import Path


def apply(ws: Path, params: dict) -> None:
    path = Path(ws) / "system" / "reaccom" / "rules.json"
    rules = json.loads(path.read_text(encoding="utf-8"))
    rules.update(auto_scope="all", desk_if_any_ssr=False, same_day_only=False,
                 updated="2026-03-06 auto-rebook everyone onto the next flight (D. Kinsella)")
    path.write_text(json.dumps(rules, indent=2) + "\n", encoding="utf-8")
