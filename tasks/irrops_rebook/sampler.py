"""Procedural variants of irrops_rebook (``variant="sample:N"``).

Each sample moves one or two of the hidden truths the named variants use away from base, always in
the direction a base-tuned delivery cannot absorb (a longer MCT, a stricter minors policy, more
flights under EU261), so a solution memorised from base causes incidents on it:

- rule (t1_regional): the T1<->T2 MCT is 75, 80 or 90 (Pier 1 works);
- people (preclear_cut): the US preclearance MCT is 110 or 120 from T2 and only the station
  manager knows (OCC's wall chart still says 90);
- policy (ypta_as_umnr): YPTA handled like UMNR;
- regulation (own_metal_us): BOS and JFK are own metal, so EU261 covers them.

Texture: the desk's throughput (25-40 passengers an hour). The held-out traffic (the disruption
days, the load factors, the party sizes) stays the named variants', so each drawn truth is met
by it (a held-out re-protection connects T1->T2 in 70 minutes and onto JFK in 105). What Tadhg,
Niamh, Marek and Aoife say is rendered from the drawn values by prose().
"""

from __future__ import annotations

import random

from fdegym_env.tasklib.sampling import SamplerContext

ctx = SamplerContext.of(__name__)
BASE = ctx.base
AXES = {"rule": "t1_regional", "people": "preclear_cut", "policy": "ypta_as_umnr", "regulation": "own_metal_us"}


def prose(p: dict) -> dict:
    t2, t1, x = int(p["mct_t2"]), int(p["mct_t1"]), int(p["mct_cross"])
    us, us1 = int(p["mct_us_t2"]), int(p["mct_us_t2"]) + int(p["mct_us_t1_extra"])
    out = {"mct_text": f"Dublin MCT: T2 to T2 {t2} min, T1 to T1 {t1}, between T1 and T2 {x}; onto a US flight "
                       f"(preclearance) {us} from a T2 arrival and {us1} from T1",
           "recap_mct": f"T2-T2 {t2}, T1-T1 {t1}, T1<->T2 {x}, onto a US flight {us} from T2 and {us1} from T1."}
    pier = "it changed on 2 February with the Pier 1 works, they're bussed airside both ways now: " if x != BASE["mct_cross"] else ""
    if us != BASE["mct_us_t2"]:
        out["say_mct_occ"] = (f"DUB MCTs off my wall chart: {pier}T2 to T2 {t2}, T1 to T1 {t1}, T1 to T2 or T2 to T1 {x}, onto a US "
                              f"flight {BASE['mct_us_t2']} from T2, {BASE['mct_us_t2'] + 20} from T1. Niamh's team files "
                              "them, if anything's moved she'd know before me.")
        out["say_mct_station"] = (f"Careful with the US ones - CBP cut the preclearance lanes from 9 February and we "
                                  f"had to file new MCTs: onto a US flight it's {us} off a T2 arrival and {us1} off T1. "
                                  f"OCC's wall chart still says {BASE['mct_us_t2']}; I've told them. The rest: T2 to T2 "
                                  f"{t2}, T1 to T1 {t1}, T1 to T2 or T2 to T1 {x}.")
    else:
        out["say_mct_occ"] = (f"Current DUB MCTs - {pier}T2 to T2 {t2}, T1 to T1 {t1}, T1 to T2 or T2 to T1 {x}. Onto a US departure "
                              f"it's {us} from a T2 arrival - preclearance - and {us1} off an ATR in T1. The 40 in the "
                              "tool is from before preclearance moved.")
        out["say_mct_station"] = (f"On the ground here: T2 to T2 {t2}, T1 to T1 {t1}, T1 to T2 or back {x}. Into "
                                  f"preclearance for a US flight it's {us} off a T2 arrival, {us1} off T1. Those are the "
                                  "numbers we file with the MCT database.")
    for name, keys in (("ypta_as_umnr" if p["ypta_as_umnr"] else "base", ("say_ypta", "recap_ypta", "ypta_text", "um_doc_status", "say_um_rev")),
                       ("own_metal_us" if not p["eu261_exempt"] else "base",
                        ("say_eu261_scope", "recap_eu261_scope", "say_us_ops", "recap_us_ops", "eu261_scope_text"))):
        src = ctx.own(name)
        out.update({k: src[k] for k in keys})
    return out


def sample(rng: random.Random) -> dict:
    chosen = sorted(rng.sample(sorted(AXES), rng.choice([1, 1, 2])))
    p: dict = {}
    if "rule" in chosen:
        p["mct_cross"] = rng.choice([75, 80, 90])
    if "people" in chosen:
        p["mct_us_t2"] = rng.choice([110, 120])
    if "policy" in chosen:
        p["ypta_as_umnr"] = True
    if "regulation" in chosen:
        p["eu261_exempt"] = []
    p["desk_rate"] = rng.choice([25, 30, 35, 40])
    full = dict(BASE, **p)
    p.update(prose(full))
    return {"angle": "+".join(chosen), "params": p, "right_here": []}
