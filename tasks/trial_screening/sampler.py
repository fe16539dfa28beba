"""Procedural variants for trial_screening (``variant="sample:N"``).

Each sample takes one non-base structure (which criterion the amendment changes - an exclusion, or
the HbA1c inclusion -, when the site is activated, what the referral lab reports in SI units, who has
the date), so the solution memorised from base scores <= 0.8, and re-draws the texture: volumes, the
share of renal-borderline patients, redraws, the world seed. Every sample keeps the subtle case
(redraws that count).
"""

from __future__ import annotations

import random

from fdegym_env.tasklib.sampling import SamplerContext

CTX = SamplerContext.of(__name__)
STRUCTURES = ["amend_glucose", "late_activation", "ifcc_hba1c", "monitor_away", "amend_hba1c"]


def sample(rng: random.Random) -> dict:
    name = rng.choice(STRUCTURES)
    params = CTX.params(name, world_seed=rng.randrange(1, 1_000_000), visits_per_week=rng.randint(74, 86),
                        creat_band=round(rng.uniform(0.2, 0.24), 3), retest_share=round(rng.uniform(0.13, 0.15), 3))
    return {"angle": CTX.angle(name), "params": params, "right_here": []}
