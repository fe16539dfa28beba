"""``fdegym cases``: list harness cases (``$FDEGYM_CASES`` and ``--path``) with their ids.

    fdegym cases --path /data/fde-gym-cases [--json]

``fdegym run`` and ``fdegym validate`` take a case folder's path or its registered id directly.
"""

from __future__ import annotations

import json
from typing import Any


def _setup(p) -> None:
    p.add_argument("--path", action="append", default=[], help="a folder of harness cases (repeatable)")
    p.add_argument("--json", action="store_true")


def cmd_cases(a) -> int:
    """List harness-format cases (FDEGYM_CASES, --path) and their Gymnasium ids."""
    from fdegym_env.harness import _CASES, register_cases, register_from_env
    register_from_env()
    for p in a.path:
        register_cases(p)
    rows: list[dict[str, Any]] = [{"id": gid, "case": c.id, "path": str(c.path), "title": c.title, "variants": sorted(c.variants),
             "services": [s["name"] for s in c.cfg.get("services") or []], "llm": bool(c.cfg.get("llm")),
             "pilot": c.has_module("trial")} for gid, c in sorted(_CASES.items())]
    if a.json:
        print(json.dumps(rows, indent=2))
    elif not rows:
        print("No harness cases registered: set FDEGYM_CASES=/path/to/cases or pass --path (docs/official_cases.md).")
    for r in rows if not a.json else []:
        print(f"{r['id']:<40} {r['title']}")
        print(f"{'':<40} variants: {', '.join(r['variants'])}; {r['path']}")
    return 0
