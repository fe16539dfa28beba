"""Procedural variants for line_changeover (``variant="sample:N"``).

Each sample takes one non-base structure (celery_wash, egg_wash, line1_filler, twilight_shift,
hopper_recall: which allergens QA needs a wash-down for, which line has the new filler, a line's hours,
the new filler's times) so the solution memorised from base scores <= 0.8, and redraws the texture: the
world seed and the share of chunky products in the order books.
"""

from __future__ import annotations

import random

from fdegym_env.tasklib.sampling import SamplerContext

CTX = SamplerContext.of(__name__)
STRUCTURES = ["celery_wash", "egg_wash", "line1_filler", "twilight_shift", "hopper_recall"]


def sample(rng: random.Random) -> dict:
    name = rng.choice(STRUCTURES)
    params = CTX.params(name, world_seed=rng.randrange(1, 1_000_000),
                        chunky_share=round(rng.uniform(0.32, 0.38), 3))
    return {"angle": CTX.angle(name), "params": params, "right_here": []}
