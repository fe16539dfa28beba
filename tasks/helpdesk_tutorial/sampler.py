"""Procedural variants for helpdesk_tutorial (``variant="sample:N"``).

Each sample takes one of the non-base structures the menu can fix (the named variants
vendor_desk, kiosk_form, night_pick: who owns the RT7s, how their tickets arrive, what a dead
handheld justifies) and re-draws the texture: traffic volumes, shares, and the world seed (ticket
numbers, texts and timings in the log and the held-out traffic). Every sample keeps the subtle
cases (other names for the device; phoned-in handheld faults where the kiosks are live), at shares
the menu's tidy-up item handles.

Not drawn: the base structure (a sample must change what the right code is - the base-memorised
solution has to score <= 0.8 on every sample) and structures outside the menu (e.g. kiosk tickets
*and* a vendor owner), so a menu policy can always reach the reference.
"""

from __future__ import annotations

import random

from fdegym_env.tasklib.sampling import SamplerContext

CTX = SamplerContext.of(__name__)
STRUCTURES = ["vendor_desk", "kiosk_form", "night_pick"]


def sample(rng: random.Random) -> dict:
    name = rng.choice(STRUCTURES)
    params = CTX.own(name)
    params["world_seed"] = rng.randrange(1, 1_000_000)
    params["scanners_per_week"] = rng.randint(18, 28)
    params["others_per_week"] = rng.randint(95, 125)
    if name == "kiosk_form":
        params["kw_share"] = round(rng.uniform(0.2, 0.4), 2)
    else:
        params["kw_share"] = round(rng.uniform(0.85, 0.95), 2)
    # the subtle cases the held-out traffic always has: other names for the RT7, and (kiosks)
    # supervisors who still phone handheld faults in
    lo, hi = {"vendor_desk": (0.26, 0.33), "kiosk_form": (0.35, 0.45), "night_pick": (0.18, 0.25)}[name]
    params["alias_share"] = round(rng.uniform(lo, hi), 2)
    params["phone_share"] = round(rng.uniform(0.25, 0.35), 2) if name == "kiosk_form" else 0.0
    if name == "night_pick":
        params["night_share"] = round(rng.uniform(0.75, 0.9), 2)
    else:
        params["night_share"] = round(rng.uniform(0.05, 0.15), 2)
    return {"angle": CTX.angle(name), "params": params, "right_here": []}
