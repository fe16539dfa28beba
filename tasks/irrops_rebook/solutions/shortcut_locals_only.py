"""Shortcut: skip the connection problem - keep every connecting passenger at the desk, auto-rebook
the local ones (any SSR but UMNR/YPTA allowed), overnight EU261 cases to the desk."""

from pathlib import Path

from ..solkit import install

SHIM = '''

_v2 = reaccommodate


def reaccommodate(plan: dict) -> dict:  # noqa: F811  (shortcut)
    out = _v2(plan)
    local = {p["pax_id"] for p in plan["passengers"] if p["segments"][-1]["key"] == p["disrupted"]}
    for d in out["decisions"]:
        if d["pax_id"] not in local and d["action"] == "rebook":
            pid = d["pax_id"]
            d.clear()
            d.update(pax_id=pid, action="desk", reason="connecting passenger")
    return out
'''


def apply(ws: Path, params: dict) -> None:
    install(ws, params, together=False, coterm=False, prm=False, physical=False,
            desk_ssr=["UMNR", "YPTA"], note="locals only")
    path = Path(ws) / "system" / "reaccom" / "engine.py"
    path.write_text(path.read_text(encoding="utf-8").split('if __name__ == "__main__"')[0] + SHIM, encoding="utf-8")
