"""Procedural variants for cold_chain (``variant="sample:N"``).

Each sample takes one non-base structure (the SOP's window after rev 7, a peak cap, the K2 loggers'
tenths export, the RP on leave, the vaccines' own allowance) so the solution memorised from base scores <= 0.8, and re-draws the
texture: how often a unit trips or struggles on a hot afternoon, the vans out each day, the world seed.
"""

from __future__ import annotations

import random

from fdegym_env.tasklib.sampling import SamplerContext

CTX = SamplerContext.of(__name__)
STRUCTURES = ["sop_rev7", "peak_cap", "tenths_loggers", "qa_on_leave", "vaccine_window"]


def sample(rng: random.Random) -> dict:
    name = rng.choice(STRUCTURES)
    params = CTX.params(name, world_seed=rng.randrange(1, 1_000_000), vans_per_day=rng.randint(8, 10),
                        trip_rate=round(rng.uniform(0.08, 0.12), 3), struggle_rate=round(rng.uniform(0.1, 0.14), 3))
    return {"angle": CTX.angle(name), "params": params, "right_here": []}
