"""Procedural variants for permit_triage (``variant="sample:N"``).

Each sample takes one non-base structure (which portal field is misread, the amended householder
period, a newly designated conservation area, the conservation officer away), so the solution
memorised from base scores <= 0.8, and re-draws the texture: volumes, the officers' capacity, the
share of applicants who send the rarer spellings or tick the conservation box wrongly, the world
seed."""

from __future__ import annotations

import random

from fdegym_env.tasklib.sampling import SamplerContext

CTX = SamplerContext.of(__name__)
STRUCTURES = ["consent_checkbox", "ten_day_householder", "scheme_amended", "foundry_quarter", "conservation_away"]


def sample(rng: random.Random) -> dict:
    name = rng.choice(STRUCTURES)
    own = CTX.own(name)
    params = CTX.params(name, world_seed=rng.randrange(1, 1_000_000), apps_per_day=rng.randint(28, 32),
                        mistick_share=round(rng.uniform(0.08, 0.12), 3),
                        rare_share=round(float(own.get("rare_share", 0.2)) * rng.uniform(0.9, 1.1), 3))
    return {"angle": CTX.angle(name), "params": params, "right_here": []}
