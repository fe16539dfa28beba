"""Procedural variants for claims_fasttrack (``variant="sample:N"``).

Each sample takes one of the non-base structures (the named variants ring_vin, authority_1500,
photo_email, siu_handover: what the ring re-uses, the delegated authority, where photos arrive, who
knows the ring's current shops) and re-draws the texture: volumes, ring and double-report shares,
desk capacity, and the world seed. The subtle cases (copies of claims since the nightly extract,
hand-typed shop names, double reports) are kept at every draw.
"""

from __future__ import annotations

import random

from fdegym_env.tasklib.sampling import SamplerContext

CTX = SamplerContext.of(__name__)
STRUCTURES = ["ring_vin", "authority_1500", "photo_email", "siu_handover"]


def sample(rng: random.Random) -> dict:
    name = rng.choice(STRUCTURES)
    params = CTX.own(name)
    params["world_seed"] = rng.randrange(1, 1_000_000)
    params["claims_per_day"] = rng.randint(38, 46)
    # the ring is what these variants change; after the SIU handover the ring is re-registered, and at
    # a share under 0.085 the base solution (old shops, generic photo reuse) still lands within a few
    # points of 0.8 uplift (measured: 0.07 -> 0.76, 0.073 -> 0.79, 0.08 -> 0.78), so the draw starts above that
    lo = {"ring_vin": 0.07, "siu_handover": 0.085}.get(name, 0.05)
    params["ring_share"] = round(rng.uniform(lo, lo + 0.012), 3)
    params["double_share"] = round(rng.uniform(0.035, 0.045), 3)
    params["desk_per_day"] = rng.randint(48, 56)
    params["desk_backlog"] = rng.randint(260, 330)
    return {"angle": CTX.angle(name), "params": params, "right_here": []}
