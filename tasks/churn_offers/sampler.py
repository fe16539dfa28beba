"""Procedural variants for churn_offers (``variant="sample:N"``).

Each sample moves the stale feed to another region (with that variant's drop date and who knows) -
so the solution memorised from base scores <= 0.8 - and may also change the disclosure rule (the
April rise). The texture (world seed, volume) is re-drawn. The re-sign window stays a named variant
only: with it, holding the stale region outright comes too close to the reference. Every sample keeps the subtle cases: the region's real
decliners, the moderate-risk accounts where 10% beats 20%.
"""

from __future__ import annotations

import random

from fdegym_env.tasklib.sampling import SamplerContext

CTX = SamplerContext.of(__name__)
REGIONS = {"Scotland": "scotland_feed", "Midlands": "midlands_recent", "North East": "callum_away"}


def sample(rng: random.Random) -> dict:
    region = rng.choice(sorted(REGIONS))
    name = REGIONS[region]
    extra = rng.choice(["none", "rise_in_sms"])
    params = CTX.params(name, world_seed=rng.randrange(1, 1_000_000), accounts_per_run=rng.randint(1300, 1700))
    if extra != "none":
        params.update(CTX.own(extra))
    return {"angle": CTX.angle(name) if extra == "none" else f"{CTX.angle(name)}+{CTX.angle(extra)}",
            "params": params, "right_here": []}
