"""Procedural variants for line_changeover (``variant="sample:N"``).

Each sample takes one non-base structure (celery_wash, egg_wash, line1_filler, twilight_shift,
hopper_recall: which allergens QA needs a wash-down for, which line has the new filler, a line's hours,
the new filler's times) so the solution memorised from base scores <= 0.8, and redraws the share of chunky products in the
order books (the world seed stays the base's: the held-out weeks are the task's, the mix of products
in them moves).
"""

from __future__ import annotations

import random

from fdegym_env.tasklib.sampling import SamplerContext

CTX = SamplerContext.of(__name__)
STRUCTURES = ["celery_wash", "egg_wash", "line1_filler", "twilight_shift", "hopper_recall"]


def sample(rng: random.Random) -> dict:
    name = rng.choice(STRUCTURES)
    params = CTX.params(name, chunky_share=round(rng.uniform(0.31, 0.37), 3))
    return {"angle": CTX.angle(name), "params": params, "right_here": []}
