"""Procedural variants for claims_fasttrack (``variant="sample:N"``).

Each sample takes one of the non-base structures (the named variants ring_vin, authority_1500,
photo_email, siu_handover: what the ring re-uses, the delegated authority, where photos arrive, who
knows the ring's current shops) and re-draws the texture: volumes, ring and double-report shares,
desk capacity, and the world seed. The subtle cases (copies of claims since the nightly extract,
hand-typed shop names, double reports) are kept at every draw.
"""

from __future__ import annotations

import random
from pathlib import Path

import yaml

_VARIANTS = yaml.safe_load((Path(__file__).resolve().parent / "variants.yaml").read_text(encoding="utf-8"))
STRUCTURES = ["ring_vin", "authority_1500", "photo_email", "siu_handover"]


def sample(rng: random.Random) -> dict:
    name = rng.choice(STRUCTURES)
    params = dict(_VARIANTS[name].get("params") or {})
    params["world_seed"] = rng.randrange(1, 1_000_000)
    params["claims_per_day"] = rng.randint(38, 46)
    lo = 0.07 if name in ("ring_vin", "siu_handover") else 0.05     # the ring is what these variants change
    params["ring_share"] = round(rng.uniform(lo, lo + 0.012), 3)
    params["double_share"] = round(rng.uniform(0.035, 0.045), 3)
    params["desk_per_day"] = rng.randint(48, 56)
    params["desk_backlog"] = rng.randint(260, 330)
    return {"angle": _VARIANTS[name].get("angle") or "texture", "params": params, "right_here": []}
