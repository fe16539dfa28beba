"""Procedural variants for returns_desk (``variant="sample:N"``).

Each sample takes one non-base structure (two_sizes, nordic_brand, warehouse_knows, plus_members:
the size of the offset, which brand and label system, who knows, what Plus members were promised),
so the solution memorised from base scores <= 0.8, and re-draws the texture: volumes, courier
delays, the share of customers who wear and return, the world seed. Every sample keeps the subtle
cases (the brand's knit lines, flagged returns after the statutory period, the planted boundary
cases).
"""

from __future__ import annotations

import random

from fdegym_env.tasklib.sampling import SamplerContext

CTX = SamplerContext.of(__name__)
STRUCTURES = ["two_sizes", "nordic_brand", "warehouse_knows", "plus_members"]


def sample(rng: random.Random) -> dict:
    name = rng.choice(STRUCTURES)
    params = CTX.params(name, world_seed=rng.randrange(1, 1_000_000), lines_per_week=rng.randint(640, 760),
                        courier_delay_share=round(rng.uniform(0.04, 0.08), 3),
                        wardrober_share=round(rng.uniform(0.026, 0.034), 3))
    return {"angle": CTX.angle(name), "params": params, "right_here": []}
