"""Procedural variants for loan_prequal (``variant="sample:N"``).

Each sample takes one structure the menu can fix - which intake mis-states self-employed income
and in what period, the committee's max DTI, the reason-code list, who knows the quirk - always
changing at least one of intake/period/appetite/codes relative to base (so the solution memorised
from base scores <= 0.8), and re-draws the texture: volumes, the share of old-form and free-text
applications, the world seed. Every sample keeps both subtle cases.
"""

from __future__ import annotations

import random
from pathlib import Path

import yaml

_VARIANTS = yaml.safe_load((Path(__file__).resolve().parent / "variants.yaml").read_text(encoding="utf-8"))
STRUCTURES = ["weekly_gig", "partner_feed", "tight_appetite", "new_codes", "underwriter_knows"]


def sample(rng: random.Random) -> dict:
    name = rng.choice(STRUCTURES)
    params = dict(_VARIANTS["base"]["params"])
    params.update(_VARIANTS[name].get("params") or {})
    params["world_seed"] = rng.randrange(1, 1_000_000)
    params["apps_per_week"] = rng.randint(440, 540)
    if name == "tight_appetite":     # the appetite gain is large: the subtle cases need more weight
        params["inflight_share"] = round(rng.uniform(0.12, 0.16), 2)
        params["messy_share"] = round(rng.uniform(0.6, 0.66), 2)
    elif name == "partner_feed":     # a smaller channel: fewer old-form referrals keep the loss in scale
        params["inflight_share"] = round(rng.uniform(0.05, 0.07), 2)
        params["messy_share"] = round(rng.uniform(0.24, 0.28), 2)
    else:
        params["inflight_share"] = round(rng.uniform(0.06, 0.08), 2)
        params["messy_share"] = round(rng.uniform(0.27, 0.33), 2)
    return {"angle": _VARIANTS[name].get("angle") or "texture", "params": params, "right_here": []}
