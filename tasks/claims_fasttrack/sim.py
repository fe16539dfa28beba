"""Claims world model for claims_fasttrack: who files what (generation) and what a routing
decision costs Sierra Vista Mutual (outcome). Shared by traffic.py, grader.py and trial.py; never
copied into a workspace.

Money is USD. A claim's cost to the company, beyond the fair repair cost it owes anyway:
  leakage   money paid that was not owed: a ring claim paid, a second payment on a double report,
            estimate padding that nobody reviewed (fast track pays the shop estimate as filed);
  rental    loss-of-use days: the claimant's rental car runs (42 USD a day) until the claim is paid;
  SIU       each referral costs investigator time (240 USD) and holds an honest claim ~4 weeks;
  appraisal a field appraiser (185 USD, +5 days) when nobody ever sends photos.
"""

from __future__ import annotations

import random
from datetime import date, timedelta

RENTAL_PER_DAY = 42.0
SIU_COST = 240.0
APPRAISAL_COST = 185.0
APPRAISAL_DAYS = 5
REVIEW_DAYS = 3
FAST_DAYS = 2
SIU_DAYS = 28
QUEUES = ("fast_track", "desk", "siu", "pend_photos", "photo_link")

# shop id -> (name, EIN). The Delta group (D*) and its 2026 rebrand (N*) are the ring's shops.
SHOPS = {
    "BS-0112": ("Caliber Collision - Natomas", "95-4470215"), "BS-0131": ("Folsom Auto Body", "68-0233817"),
    "BS-0147": ("Gold River Collision Repair", "68-0190342"), "BS-0158": ("Maaco Collision Repair #3312", "94-2771560"),
    "BS-0176": ("Roseville Auto Body Works", "68-0310478"), "BS-0203": ("Service King Elk Grove", "75-2690113"),
    "BS-0219": ("Downtown Body & Paint", "94-3119052"), "BS-0234": ("Carmichael Collision Center", "68-0288741"),
    "BS-0251": ("Davis Autobody", "68-0175529"), "BS-0266": ("J&M Collision", "26-1180453"),
    "BS-0288": ("Arden Fair Auto Body", "68-0402216"), "BS-0307": ("Land Park Coachworks", "68-0099182"),
    "BS-0315": ("Vacaville Collision Specialists", "94-3350961"), "BS-0342": ("Stockton Blvd Body Shop", "68-0377145"),
    "BS-0358": ("Fix Auto West Sacramento", "46-2231870"), "BS-0371": ("Lodi Paint & Body", "94-2987733"),
    "BS-0404": ("Crestline Collision", "68-0491177"), "BS-0409": ("Delta Precision Auto Body", "68-0491177"),
    "BS-0411": ("River City Paint & Body", "68-0491177"), "BS-0446": ("Northgate Auto Spa", "68-0523940"),
    "BS-0452": ("Elk Grove Collision Center", "68-0523940"), "BS-0129": ("Rancho Cordova Collision", "68-0251198"),
}
ALIASES = {
    "BS-0404": ["CRESTLINE COLLISION CTR", "Crestline Collision & Paint", "Crestline Colision"],
    "BS-0409": ["Delta Precision Autobody", "DELTA PRECISION AUTO BODY INC", "Delta Precision A/B"],
    "BS-0411": ["River City Paint and Body", "RIVER CITY P&B", "Rivercity Paint & Body"],
    "BS-0446": ["NORTHGATE AUTO SPA LLC", "Northgate Autospa", "Northgate Auto Spa & Collision"],
    "BS-0452": ["Elk Grove Collision Ctr", "ELK GROVE COLLISION CENTER INC", "Elk Grove Colision Center"],
}
LEGIT_SHOPS = [s for s in SHOPS if s not in ("BS-0404", "BS-0409", "BS-0411", "BS-0446", "BS-0452")]
VEHICLES = ["2019 Toyota Camry", "2021 Honda Civic", "2018 Ford F-150", "2020 Tesla Model 3", "2017 Nissan Altima",
            "2022 Toyota RAV4", "2016 Honda Accord", "2020 Chevrolet Silverado", "2019 Subaru Outback",
            "2021 Hyundai Elantra", "2015 Toyota Corolla", "2023 Kia Sportage", "2018 BMW 330i", "2020 Jeep Wrangler",
            "2017 Toyota Prius", "2022 Ford Escape", "2019 Mazda CX-5", "2014 Honda CR-V", "2021 Tesla Model Y"]
WMI = ["4T1", "2HG", "1FT", "5YJ", "1N4", "2T3", "1HG", "3GC", "4S4", "5NP", "2T1", "KNDP", "WBA", "1C4", "JTD",
       "1FM", "JM3", "5J6", "7SA"]
FIRST = ["Maria", "James", "Nguyen", "Priya", "Luis", "Ashley", "Darnell", "Mei", "Roberto", "Kayla", "Hamid",
         "Tanya", "Jose", "Brittany", "Sione", "Ekaterina", "Marcus", "Guadalupe", "Trevor", "Imani", "Vikram", "Chloe"]
LAST = ["Alvarez", "Tran", "Johnson", "Patel", "Okonkwo", "Reyes", "Smith", "Nguyen", "Kowalski", "Hernandez",
        "Fa'asavalu", "Brooks", "Singh", "Mendoza", "Castillo", "Yamamoto", "Gutierrez", "O'Neill", "Haddad", "Lee"]
# loss descriptions are put together from parts so they read as many people's words
WHAT = ["rear-ended at a red light", "backed into a pole in the parking lot", "sideswiped on I-80 merging",
        "other car ran the stop sign and hit my front end", "hit a deer on Hwy 50", "someone hit me while parked at work",
        "scraped the garage door frame", "rear ended in stop and go on Bus. 80", "hit by a shopping cart corral in wind",
        "t-boned in intersection at Florin & Stockton", "low speed collision in Costco lot", "backing out of driveway hit neighbors truck",
        "lost traction in rain, hit curb and median", "tailgated car braked hard, I hit it", "hail dents on hood and roof (Roseville storm)",
        "hit a pothole, bent wheel and bumper", "merged into me on Watt Ave", "clipped mirror passing a parked van"]
DAMAGE = ["rear bumper cover cracked", "front bumper + grille", "driver door dented", "quarter panel scraped, paint to metal",
          "headlamp assembly broken", "hood buckled slightly", "tail light out, trunk lid wont close right",
          "passenger side mirror hanging", "fender + wheel arch liner", "bumper pushed in, parking sensor dead", "roof and hood dents"]
STYLE = [
    lambda w, d: f"{w}. {d}.",
    lambda w, d: f"Insured states {w}; damage: {d}",
    lambda w, d: f"{w.capitalize()} -- {d}. no injuries",
    lambda w, d: f"per caller: {w}. dmg {d}. drivable",
    lambda w, d: f"{d} after {w}",
    lambda w, d: f"{w}, {d}. Police not called.",
    lambda w, d: f"Called in by agent office: {w}. {d}, pics to follow",
    lambda w, d: f"{w.upper()} - {d.upper()}",
    lambda w, d: f"{w}... {d}, vehicle at shop already",
    lambda w, d: f"{w} ({d}) - other party info on police report",
]


def _hex(rng: random.Random, n: int = 12) -> str:
    return "".join(rng.choice("0123456789abcdef") for _ in range(n))


def _vin(rng: random.Random) -> str:
    w = rng.choice(WMI)
    body = "".join(rng.choice("ABCDEFGHJKLMNPRSTUVWXYZ0123456789") for _ in range(17 - len(w) - 6))
    return w + body + "".join(rng.choice("0123456789") for _ in range(6))


def ds(d: date) -> str:
    return d.isoformat()


def _estimate(rng: random.Random) -> float:
    return round(min(14500.0, max(420.0, rng.lognormvariate(7.74, 0.6))), 2)


def _media(rng: random.Random, params: dict, channel: str, n: int, hashes: list[str] | None = None):
    """(photos, attachments) as intake shows them: photos uploaded in the app/web portal, or (where
    the photo channel is email) photos mailed in and stored as attachments next to the PDFs."""
    hashes = hashes if hashes is not None else [_hex(rng) for _ in range(n)]
    atts = []
    if rng.random() < 0.35:
        atts.append({"file": rng.choice(["police_report.pdf", "PoliceReport_SPD.pdf", "estimate_CCC_ONE.pdf",
                                         "Estimate.PDF", "tow_receipt.pdf"]), "sha1": _hex(rng, 16)})
    if not hashes:
        return [], atts, []
    emailed = params.get("photo_channel") == "email" and (channel != "app" or rng.random() < 0.3)
    if not emailed:
        return list(hashes), atts, []
    snap = [{"file": f"IMG_{rng.randint(1000, 9999)}{rng.choice(['.jpg', '.JPG', '.jpeg', '.HEIC', '.png', '.jpg'])}",
             "sha1": h, "received": "email"} for h in hashes]
    return [], atts, snap


def set_media(vis: dict, rng: random.Random, params: dict, channel: str, n: int, hashes: list[str] | None = None) -> None:
    vis["photos"], vis["attachments"], snap = _media(rng, params, channel, n, hashes)
    if params.get("photo_channel") == "email":
        vis["snapclaim"] = snap                  # the SnapClaim mailbox's images, on every FNOL since it went live


def ring_shops(params: dict) -> list[str]:
    return list(params["ring_shops"])


def claims(rng: random.Random, params: dict, start: date, days: int, first_no: int, pool: dict) -> list[tuple[dict, dict]]:
    """Claims first notified on `days` days from `start`, as (visible FNOL, hidden truth).

    ``pool`` carries the past across calls: ``templates`` (earlier ring claims the ring can copy,
    each with ``flagged``), ``recent`` (claims a second report or a two-car partner can refer to)."""
    out: list[tuple[dict, dict]] = []
    no = first_no
    per_day = float(params["claims_per_day"])
    last = start + timedelta(days=days - 1)
    for d in range(days):
        day = start + timedelta(days=d)
        n = max(1, round(per_day * (0.55 if day.weekday() >= 5 else 1.15) * rng.uniform(0.85, 1.15)))
        for _ in range(n):
            no += rng.randint(1, 3)
            r = rng.random()
            if r < float(params["ring_share"]) and pool["templates"]:
                out.append(_ring(rng, params, day, no, pool))
            elif r < float(params["ring_share"]) + float(params["double_share"]) and pool["recent"]:
                out.append(_double(rng, params, day, no, pool))
            else:
                vis, tru = _legit(rng, params, day, no)
                out.append((vis, tru))
                if vis["channel"] in ("app", "web") and rng.random() < float(params["two_car_share"]):
                    no += 1
                    out.append(_two_car(rng, params, day, no, vis, last))
                if tru["has_photos"]:
                    pool["recent"].append(vis)
                    pool["recent"] = pool["recent"][-80:]
    return out


def _base(rng, params, day, no, channel, shop_id, estimate, loss) -> dict:
    name, ein = SHOPS[shop_id]
    return {"claim_id": f"SVM-26-{no:06d}", "policy_no": f"CAP-{rng.randint(3000000, 4999999)}",
            "fnol_date": ds(day), "loss_date": ds(loss), "channel": channel, "state": "CA",
            "insured": f"{rng.choice(FIRST)} {rng.choice(LAST)}", "vin": _vin(rng), "vehicle": rng.choice(VEHICLES),
            "shop": {"id": shop_id, "name": name, "ein": ein}, "estimate_usd": estimate,
            "loss_desc": rng.choice(STYLE)(rng.choice(WHAT), rng.choice(DAMAGE)), "photos": [], "attachments": []}


def _truth(kind, estimate, pad, rental, photos, link_day, flagged=False, catch=False, tags=()) -> dict:
    return {"kind": kind, "true_cost": round(estimate / (1.0 + pad), 2), "rental": rental, "has_photos": photos,
            "link_day": link_day, "flagged": flagged, "desk_catch": catch, "tags": list(tags)}


def _legit(rng, params, day, no):
    channel = rng.choices(["app", "phone", "agent", "web"], [45, 30, 15, 10])[0]
    est = _estimate(rng)
    shop = rng.choice(ring_shops(params)) if rng.random() < 0.08 else rng.choice(LEGIT_SHOPS)
    vis = _base(rng, params, day, no, channel, shop, est, day - timedelta(days=rng.randint(0, 6)))
    if shop in ALIASES:                          # the ring's shops do honest work too, off our network
        vis["shop"]["id"] = ""
        if rng.random() < float(params["ring_alias_share"]):
            vis["shop"]["name"] = rng.choice(ALIASES[shop])
    n_ph = rng.randint(2, 6) if channel in ("app", "web") else (rng.randint(1, 3) if rng.random() < 0.12 else 0)
    set_media(vis, rng, params, channel, n_ph)
    link = rng.choice([1, 1, 2, 2, 3]) if rng.random() < 0.8 else None
    return vis, _truth("legit", est, rng.uniform(0.0, 0.1), rng.random() < 0.65, n_ph > 0, link)


def _two_car(rng, params, day, no, other, last):
    """Both drivers insured with us: same scene photos, different policies, vehicles and shops. The
    other driver reports up to two days later, within the window (``last``: its last day)."""
    est = _estimate(rng)
    vis = _base(rng, params, min(day + timedelta(days=rng.randint(0, 2)), last), no, rng.choice(["app", "web", "phone"]),
                rng.choice(LEGIT_SHOPS), est, date.fromisoformat(other["loss_date"]))
    scene = photo_hashes(other)[:2]
    set_media(vis, rng, params, vis["channel"], 0, scene + [_hex(rng) for _ in range(2)])
    vis["loss_desc"] = rng.choice(["two vehicle collision, other driver also Sierra Vista", "other party is also insured with you guys",
                                   "intersection crash, both cars SVM policies", "collision w/ another SVM insured (see linked claim)"])
    return vis, _truth("legit", est, rng.uniform(0.0, 0.1), rng.random() < 0.65, True, 1, tags=["two_car"])


def _double(rng, params, day, no, pool):
    """The same insured reports the same loss twice (app and then phone, or agent and app)."""
    src = rng.choice(pool["recent"])
    est = round(float(src["estimate_usd"]) * rng.choice([1.0, 1.0, rng.uniform(0.97, 1.04)]), 2)
    vis = dict(src, claim_id=f"SVM-26-{no:06d}", fnol_date=ds(max(day, date.fromisoformat(src["fnol_date"]))),
               channel=rng.choice(["phone", "agent", "app", "web"]), estimate_usd=est, shop=dict(src["shop"]))
    hashes = photo_hashes(src)
    set_media(vis, rng, params, vis["channel"], 0, list(hashes))
    vis["loss_desc"] = rng.choice([src["loss_desc"], "reporting again, app said error", "dup? called bc no email confirmation",
                                   src["loss_desc"] + " (2nd report)", "customer not sure first report went thru"])
    return vis, _truth("double", est, 0.0, False, True, 1, tags=["double"])


def _ring(rng, params, day, no, pool):
    flagged = [t for t in pool["templates"] if t["flagged"]]
    if flagged and rng.random() < float(params.get("ring_flag_reuse", 0.3)):
        tpl = rng.choice(flagged)                # the ring's favourites, already on SIU's list
    else:
        tpl = rng.choice(pool["templates"][-12:])
    shop_id = rng.choice(ring_shops(params))
    est = round(min(1995.0, max(1580.0, float(tpl["vis"]["estimate_usd"]) * rng.uniform(0.93, 1.06))), 2)
    channel = rng.choice(["app", "app", "web", "agent"])
    vis = _base(rng, params, day, no, channel, shop_id, est, day - timedelta(days=rng.randint(1, 9)))
    vis["shop"]["id"] = ""                       # not a network shop: typed in from the estimate
    tags = ["chained"] if not tpl["flagged"] and tpl.get("held_out") else []
    if rng.random() < float(params["ring_alias_share"]):
        vis["shop"]["name"] = rng.choice(ALIASES[shop_id])
        tags.append("alias")
    if params["ring_key"] == "vin":
        if rng.random() < 0.3:                   # a new car to recycle: copies of it follow
            tags = ["fresh_vin"] + [t for t in tags if t == "alias"]
        else:
            vis["vin"] = (rng.choice(WMI[:4]) + vis["vin"][3:9] + tpl["vis"]["vin"][-8:])[:17]
        hashes = [_hex(rng) for _ in range(rng.randint(2, 4))]
    else:
        old = list(tpl.get("fresh") or tpl["hashes"])
        fresh = [_hex(rng) for _ in range(rng.randint(1, 2))]
        hashes = rng.sample(old, min(len(old), rng.randint(2, 3))) + fresh
    set_media(vis, rng, params, channel, 0, hashes)
    vis["loss_desc"] = rng.choice(STYLE)(rng.choice(WHAT[:8]), rng.choice(DAMAGE[:6]))
    tru = _truth("ring", est, 0.0, False, True, 1, flagged=bool(tpl["flagged"]) and "fresh_vin" not in tags, catch=rng.random() < 0.3, tags=tags)
    tru["copy_of"] = None if "fresh_vin" in tags else tpl["vis"]["claim_id"]
    pool["templates"].append({"vis": vis, "hashes": hashes, "fresh": hashes if params["ring_key"] == "vin" else fresh,
                              "flagged": False, "held_out": pool.get("held_out", False)})
    return vis, tru


def photo_hashes(vis: dict) -> list[str]:
    return list(vis.get("photos") or []) + [a["sha1"] for a in vis.get("snapclaim") or []]


# ----------------------------------------------------------------------------- outcome

def _friday_sweep(fnol: date) -> int:
    """The intake clerks' Friday sweep of the photo pend: files pending 8+ days get set up by hand."""
    d = fnol + timedelta(days=8)
    while d.weekday() != 4:
        d += timedelta(days=1)
    return (d - fnol).days


def outcome(rows: list[tuple[dict, dict, str]], params: dict) -> dict:
    """rows = (visible, truth, queue) in arrival order. Returns cost parts, incidents and per-claim facts."""
    t0 = date.fromisoformat(rows[0][0]["fnol_date"]) if rows else date(2026, 3, 9)
    cap, backlog = int(params["desk_per_day"]), int(params["desk_backlog"])
    enter: list[tuple[int, int]] = []                        # (day entering the desk queue, row index)
    info = []
    for i, (vis, tru, q) in enumerate(rows):
        day = (date.fromisoformat(vis["fnol_date"]) - t0).days
        photos = tru["has_photos"]
        rec = {"q": q, "ack": 0, "extra": 0, "appraisal": False, "desk": None, "day": day}
        if q == "pend_photos" and not photos:
            rec["ack"] = _friday_sweep(date.fromisoformat(vis["fnol_date"]))
            rec["desk"], rec["appraisal"] = day + rec["ack"], True
        elif q == "photo_link" and not photos:
            ld = tru["link_day"]
            rec["desk"], rec["appraisal"] = (day + ld, False) if ld else (day + 4, True)
        elif q in ("desk", "pend_photos", "photo_link"):
            rec["desk"], rec["appraisal"] = day + (1 if q == "pend_photos" else 0), not photos
        if rec["desk"] is not None:
            enter.append((rec["desk"], i))
        info.append(rec)
    # the desk: FIFO, `cap` files a weekday, `backlog` files already waiting on day 0
    enter.sort()
    served, k, d, left = {}, 0, 0, backlog
    while k < len(enter):
        slots = cap if (t0 + timedelta(days=d)).weekday() < 5 else 0
        take = min(slots, left)
        left -= take
        slots -= take
        while slots > 0 and k < len(enter) and enter[k][0] <= d:
            served[enter[k][1]] = d
            k += 1
            slots -= 1
        d += 1
    parts = {"leakage": 0.0, "rental": 0.0, "siu": 0.0, "appraisal": 0.0}
    incidents: list[str] = []
    per = []
    for i, (vis, tru, q) in enumerate(rows):
        rec, est = info[i], float(vis["estimate_usd"])
        leak, cycle = 0.0, 0
        if q == "fast_track":
            cycle = FAST_DAYS
            leak = est if tru["kind"] in ("ring", "double") else est - tru["true_cost"]
            if est > float(params["authority_usd"]):
                incidents.append(f"authority_exceeded: {vis['claim_id']} paid {est:.2f} USD with no adjuster review "
                                 f"(straight-through limit {float(params['authority_usd']):.0f})")
            if tru["flagged"]:
                incidents.append(f"ring_claim_paid: {vis['claim_id']} ({vis['shop']['name']}) matched the SIU flag list and was paid")
        elif q == "siu":
            cycle = SIU_DAYS
            parts["siu"] += SIU_COST
        else:
            cycle = served[i] - rec["day"] + REVIEW_DAYS + (APPRAISAL_DAYS if rec["appraisal"] else 0)
            if tru["kind"] == "ring" and not tru["desk_catch"]:
                leak = est
        if rec["appraisal"]:
            parts["appraisal"] += APPRAISAL_COST
        if rec["ack"] > int(params["ack_days"]):
            incidents.append(f"ack_deadline_missed: {vis['claim_id']} acknowledged on day {rec['ack']} "
                             f"(limit {int(params['ack_days'])} calendar days)")
        parts["leakage"] += leak
        if tru["rental"]:
            parts["rental"] += RENTAL_PER_DAY * cycle
        per.append({"claim_id": vis["claim_id"], "queue": q, "kind": tru["kind"], "cycle": cycle, "leak": round(leak, 2),
                    "ack": rec["ack"], "tags": tru["tags"], "estimate": est, "rental": bool(tru["rental"]),
                    "appraisal": bool(rec["appraisal"])})
    return {"parts": {k: round(v, 2) for k, v in parts.items()}, "kpi": round(sum(parts.values()), 2),
            "incidents": incidents, "per": per}
