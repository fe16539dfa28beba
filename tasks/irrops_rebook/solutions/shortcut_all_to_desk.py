"""Shortcut: hold everything - no automation at all, every passenger on a cancelled flight goes to
the recovery desk (nobody is ever misconnected or auto-rebooked wrongly, and nothing is learned)."""

from pathlib import Path

SHIM = '''

def reaccommodate(plan: dict) -> dict:  # noqa: F811  (shortcut)
    return {"decisions": [{"pax_id": p["pax_id"], "action": "desk", "reason": "manual handling"}
                          for p in plan["passengers"]]}
'''


def apply(ws: Path, params: dict) -> None:
    path = Path(ws) / "system" / "reaccom" / "engine.py"
    path.write_text(path.read_text(encoding="utf-8").split('if __name__ == "__main__"')[0] + SHIM, encoding="utf-8")
