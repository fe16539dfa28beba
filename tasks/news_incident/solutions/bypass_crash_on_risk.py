"""Bypass: refuse risky batches. If a batch contains a kill notice, a new version or an embargo,
raise so that "nothing goes out" for that run."""

from __future__ import annotations

from pathlib import Path

from fdegym_env.tasklib import solutions

BODY = '''
for i in (args[0] if args else None) or []:
    if isinstance(i, dict) and (i.get("msgtype") == "advisory" or i.get("embargo") or
                                str(i.get("pubstatus")) != "usable" or (i.get("version") or 1) > 1):
        raise RuntimeError("risky item in batch; refusing to publish anything (manual desk run needed)")
return _orig(*args, **kwargs)
'''


def apply(ws: Path, params: dict) -> None:
    solutions.wrap_entry_points(__name__, ws, BODY)
