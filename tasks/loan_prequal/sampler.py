"""Procedural variants for loan_prequal (``variant="sample:N"``).

Each sample takes one structure the menu can fix - which intake mis-states self-employed income
and in what period, the committee's max DTI, the reason-code list, who knows the quirk - always
changing at least one of intake/period/appetite/codes relative to base (so the solution memorised
from base scores <= 0.8), and re-draws the texture: volumes, the share of old-form and free-text
applications, the world seed. Every sample keeps both subtle cases.
"""

from __future__ import annotations

import random

from fdegym_env.tasklib.sampling import SamplerContext

CTX = SamplerContext.of(__name__)
STRUCTURES = ["weekly_gig", "partner_feed", "tight_appetite", "new_codes", "underwriter_knows"]
# structure -> (inflight_share, messy_share) ranges
SHARES = {
    "tight_appetite": ((0.12, 0.16), (0.6, 0.66)),    # the appetite gain is large: the subtle cases need more weight
    "partner_feed": ((0.05, 0.07), (0.24, 0.28)),     # a smaller channel: fewer old-form referrals keep the loss in scale
}


def sample(rng: random.Random) -> dict:
    name = rng.choice(STRUCTURES)
    params = CTX.params(name, world_seed=rng.randrange(1, 1_000_000), apps_per_week=rng.randint(440, 540))
    inflight, messy = SHARES.get(name, ((0.06, 0.08), (0.27, 0.33)))
    params["inflight_share"] = round(rng.uniform(*inflight), 2)
    params["messy_share"] = round(rng.uniform(*messy), 2)
    return {"angle": CTX.angle(name), "params": params, "right_here": []}
