"""Shortcut: skip the connection problem - keep every connecting passenger at the desk, auto-rebook
the local ones (any SSR but UMNR/YPTA allowed), overnight EU261 cases to the desk."""

from fdegym_env.tasklib import solutions

from ..solkit import install


def apply(ws, params):
    install(ws, params, together=False, coterm=False, prm=False, physical=False,
            desk_ssr=["UMNR", "YPTA"], note="locals only")
    solutions.wrap_entry_points(__name__, ws, """
plan = args[0]
out = _orig(*args, **kwargs)
local = {p["pax_id"] for p in plan["passengers"] if p["segments"][-1]["key"] == p["disrupted"]}
for d in out["decisions"]:
    if d["pax_id"] not in local and d["action"] == "rebook":
        pid = d["pax_id"]
        d.clear()
        d.update(pax_id=pid, action="desk", reason="connecting passenger")
return out
""")
