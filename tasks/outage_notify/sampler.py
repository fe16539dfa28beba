"""Procedural variants for outage_notify (``variant="sample:N"``).

Each sample takes one named non-base structure (which feeder sections the control room carries on
another feeder, what the program standard requires, who covers nights) and re-draws texture: the
world seed (customers, phones, medical codes, event timing), lockout volume, escalation and
landline shares, and each transfer's switching order number (wherever people or the brief quote
it). Every sample keeps the subtle cases (escalating incidents, landlines, the SCADA transfer), at
shares the reference handles and the diligent answer misses.

Not drawn: the base structure itself (the base-memorised reference must score <= 0.8 on a sample).
"""

from __future__ import annotations

import random
import re

from fdegym_env.tasklib.sampling import SamplerContext

CTX = SamplerContext.of(__name__)
STRUCTURES = ["two_transfers", "mbk_transfer", "mb_calls", "overnight_overflow", "gis_redline"]


def sample(rng: random.Random) -> dict:
    name = rng.choice(STRUCTURES)
    params = CTX.own(name)
    params["world_seed"] = rng.randrange(1, 1_000_000)
    params["lockouts_per_week"] = rng.randint(19, 25)
    params["escalation_share"] = round(rng.uniform(0.13, 0.17), 3)
    params["landline_share"] = round(rng.uniform(0.022, 0.028), 3)
    params["night_share"] = round(rng.uniform(0.25, 0.35), 3)
    params.update(_renumber_orders({**CTX.base, **params}, rng))
    return {"angle": CTX.angle(name), "params": params, "right_here": []}


def _renumber_orders(params: dict, rng: random.Random) -> dict:
    """A fresh sequence number (SO-YY-MMDD-NN) for each transfer's switching order, and every text
    param that quotes an order rewritten to match."""
    old = params["switching_orders"]
    new = {tr: f"{so.rsplit('-', 1)[0]}-{rng.randint(1, 12):02d}" for tr, so in old.items()}
    swap = {old[tr]: new[tr] for tr in old}
    pattern = re.compile("|".join(re.escape(so) for so in swap))
    out: dict = {"switching_orders": new}
    for k, v in params.items():
        if isinstance(v, str) and pattern.search(v):
            out[k] = pattern.sub(lambda m: swap[m.group(0)], v)
    return out
