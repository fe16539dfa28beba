"""Shared model of returns_desk (task side, never in a workspace): the catalogue, who shops, what a
size label really fits, who returns what, and what each outcome costs Loomhouse.

A shopper of true UK size s buys the size the site lists as UK s. The supplier label's true UK
size is label - true offset; the site shows label - the offset in the delivered size charts. If the
two differ the garment does not fit and usually comes back "too small" / "too big".
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone

# brand -> (label system, offset the catalogue uses, categories)
BRANDS = {
    "Marisa Conti": ("IT", 32, ["dresses", "tailoring", "occasionwear", "knitwear", "jersey"]),
    "Solveig Studio": ("EU", 28, ["dresses", "tailoring", "knitwear", "jersey"]),
    "Harlow & Pike": ("UK", 0, ["tailoring", "dresses", "knitwear", "jersey"]),
    "Loomhouse": ("UK", 0, ["dresses", "jersey", "knitwear", "denim", "tailoring"]),
    "Vesper": ("UK", 0, ["occasionwear", "dresses"]),
    "Brightwater": ("US", -4, ["denim", "jersey"]),
}
WOVEN = {"dresses", "tailoring", "occasionwear"}
PRICE = {"dresses": (45, 140), "tailoring": (60, 190), "occasionwear": (85, 320), "knitwear": (35, 120),
         "jersey": (18, 45), "denim": (40, 95)}
BASE_RETURN = {"dresses": 0.24, "tailoring": 0.2, "occasionwear": 0.3, "knitwear": 0.15, "jersey": 0.12, "denim": 0.26}
BRAND_WEIGHT = {"Marisa Conti": 16, "Solveig Studio": 14, "Harlow & Pike": 14, "Loomhouse": 30, "Vesper": 10,
                "Brightwater": 10}
SIZES = [6, 8, 10, 12, 14, 16, 18]
SIZE_W = [4, 12, 22, 24, 18, 12, 6]
OTHER_REASONS = [("doesnt_suit", 34), ("changed_mind", 22), ("not_as_described", 6), ("faulty", 8),
                 ("arrived_late", 3), ("too_small", 13), ("too_big", 14)]
HANDLE, QC, RESALE, WORN_RESALE, DEDUCT, FIT_CLV, DELAY_CLV, MARGIN, LOST_CLV = \
    7.5, 2.5, 0.12, 0.80, 0.50, 9.0, 4.0, 0.45, 5.0
STATUTORY_DAYS = 14
LONDON = None


def london():
    global LONDON
    if LONDON is None:
        from zoneinfo import ZoneInfo
        LONDON = ZoneInfo("Europe/London")
    return LONDON


def local_day(iso: str):
    return datetime.fromisoformat(iso.replace("Z", "+00:00")).astimezone(london()).date()


def _dt(iso: str) -> datetime:
    return datetime.fromisoformat(iso.replace("Z", "+00:00"))


def z(dt: datetime) -> str:
    return dt.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def true_offset(brand: str, category: str, params: dict) -> int:
    off = BRANDS[brand][1]
    if brand == params["problem_brand"] and category in WOVEN:
        off += int(params["shift"])
    return off


def catalogue(rng: random.Random, n: int, first: int) -> list[dict]:
    """Products with their supplier size labels (one sku_size per label); each brand's range has
    its categories in fixed proportions (woven lines twice as deep as knit)."""
    prods = []
    total = sum(BRAND_WEIGHT.values())
    for brand, weight in BRAND_WEIGHT.items():
        system, off, cats = BRANDS[brand]
        cycle = [c for c in cats for _ in range(2 if c in WOVEN else 1)]
        for i in range(round(n * weight / total)):
            cat = cycle[i % len(cycle)]
            lo, hi = PRICE[cat]
            price = round(rng.uniform(lo, hi)) - 0.01
            pid = f"{brand[:2].upper().replace(' ', '')}-{first + len(prods)}"
            labels = [u + off for u in [4] + SIZES + [20, 22]]
            prods.append({"pid": pid, "brand": brand, "category": cat, "price": price,
                          "sizes": [{"sku_size": f"{pid}-{lab}", "size_label": f"{system} {lab}"} for lab in labels]})
    rng.shuffle(prods)
    return prods


def label_number(label: str) -> int:
    return int(label.split()[-1])


def orders(rng: random.Random, params: dict, prods: list[dict], start: datetime, days: int, n: int, first: int,
           customers: list[dict]) -> list[dict]:
    """Order lines with everything pre-drawn: who, what, their size, delivery, and the dice."""
    lines = []
    for i in range(n):
        c = rng.choice(customers)
        p = rng.choice(prods)
        if c["kind"] == "wardrober" and rng.random() < 0.7:
            occ = [q for q in prods if q["category"] == "occasionwear"]
            p = rng.choice(occ)
        t0 = start + timedelta(days=rng.uniform(0, days))
        t0 = t0.replace(hour=rng.choice([7, 9, 12, 13, 19, 20, 21, 22]), minute=rng.randint(0, 59))
        disp = t0 + timedelta(hours=rng.choice([4, 14, 20, 28]))
        late = rng.random() < float(params["courier_delay_share"])
        deliv = disp + timedelta(days=rng.randint(6, 10) if late else rng.randint(1, 3))
        deliv = deliv.replace(hour=rng.choice([8, 10, 11, 13, 15, 17, 19, 21]), minute=rng.randint(0, 59))
        if rng.random() < 0.12:
            deliv = deliv.replace(hour=22, minute=rng.randint(5, 58))      # evening drop (UTC)
        lines.append({"line_id": f"LH{first + i}", "order_id": f"LH-{(first + i) // 2 * 3 + 7}",
                      "customer": c, "pid": p["pid"], "size": c["size"],
                      "ordered": z(t0), "dispatched": z(disp), "delivered": z(deliv),
                      "u_fit": rng.random(), "u_base": rng.random(), "u_reason": rng.random(),
                      "delay_days": rng.choices([2, 4, 6, 9, 12, 13, 14, 16, 19, 23, 27, 33],
                                                [10, 16, 16, 12, 8, 5, 4, 6, 7, 6, 4, 3])[0],
                      "req_hour": rng.randint(7, 23)})
    return lines


def customers(rng: random.Random, n: int, first: int, params: dict) -> list[dict]:
    out = []
    for i in range(n):
        kind = "wardrober" if rng.random() < float(params["wardrober_share"]) else "honest"
        tier = "plus" if rng.random() < (0.45 if kind == "wardrober" else 0.25) else "standard"
        clv = round(rng.uniform(15, 60)) if kind == "wardrober" else round(rng.lognormvariate(5.2, 0.45))
        r90 = rng.choices(range(10), [30, 18, 12, 9, 8, 7, 6, 4, 3, 3])[0] if kind == "honest" else rng.randint(3, 9)
        out.append({"customer_id": f"C{first + i:07d}", "kind": kind, "tier": tier, "clv": clv,
                    "size": rng.choices(SIZES, SIZE_W)[0], "returns_90d": r90,
                    "qc_c_12m": rng.randint(1, 4) if kind == "wardrober" and rng.random() < 0.85 else 0})
    return out


def _reason(u: float) -> str:
    tot = sum(w for _, w in OTHER_REASONS)
    acc = 0.0
    for r, w in OTHER_REASONS:
        acc += w / tot
        if u < acc:
            return r
    return OTHER_REASONS[-1][0]


def shop(lines: list[dict], prods: dict, listed: dict, params: dict) -> tuple[list[dict], dict, float, int]:
    """Replay the order lines against the listed UK sizes: returns (return requests, truth by rma,
    cost of fit experience and lost sales, lost sales)."""
    reqs, truth, cost, lost = [], {}, 0.0, 0
    for ln in lines:
        p = prods[ln["pid"]]
        c = ln["customer"]
        pick = next((s for s in p["sizes"] if listed.get(s["sku_size"]) == ln["size"]), None)
        if pick is None:
            cost += MARGIN * p["price"] + LOST_CLV
            lost += 1
            continue
        true_uk = label_number(pick["size_label"]) - true_offset(p["brand"], p["category"], params)
        diff = true_uk - ln["size"]
        worn = False
        if diff != 0:
            if ln["u_fit"] >= 0.75:
                continue
            reason = "too_small" if diff < 0 else "too_big"
            cost += FIT_CLV
        elif c["kind"] == "wardrober" and p["category"] == "occasionwear":
            if ln["u_base"] >= 0.9:
                continue
            reason, worn = ("doesnt_suit" if ln["u_reason"] < 0.6 else "changed_mind"), True
        else:
            if ln["u_base"] >= BASE_RETURN[p["category"]]:
                continue
            reason = _reason(ln["u_reason"])
        req_t = _dt(ln["delivered"]) + timedelta(days=ln["delay_days"])
        req_t = req_t.replace(hour=ln["req_hour"] % 24, minute=int(ln["line_id"][-2:]) % 60)
        rma = f"RMA-{ln['line_id'][2:]}"
        reqs.append({"rma_id": rma, "order_id": ln["order_id"], "customer_id": c["customer_id"], "tier": c["tier"],
                     "sku_size": pick["sku_size"], "brand": p["brand"], "category": p["category"],
                     "size_label": pick["size_label"], "uk_size": listed[pick["sku_size"]], "price": p["price"],
                     "ordered_at": ln["ordered"], "dispatched_at": ln["dispatched"],
                     "delivered_at": ln["delivered"], "requested_at": z(req_t), "reason": reason,
                     "returns_90d": c["returns_90d"], "qc_c_12m": c["qc_c_12m"]})
        truth[rma] = {"worn": worn, "clv": c["clv"], "kind": c["kind"], "fit": diff}
    return reqs, truth, cost, lost


def days(req: dict) -> int:
    """Whole UK days from the delivery scan to the request."""
    return (local_day(req["requested_at"]) - local_day(req["delivered_at"])).days


def statutory(req: dict) -> bool:
    return req["reason"] in ("faulty", "not_as_described") or days(req) <= STATUTORY_DAYS


def protected(req: dict, params: dict) -> bool:
    limit = int(params.get("plus_days") or 0)
    return req["tier"] == "plus" and limit > 0 and days(req) <= limit


def outcome(req: dict, t: dict, action: str) -> float:
    p = req["price"]
    if action == "refuse":
        return 0.0 if t["worn"] else 0.5 * t["clv"]
    loss = (WORN_RESALE if t["worn"] else RESALE) * p
    if action == "inspect":
        return HANDLE + QC + (loss - DEDUCT * p if t["worn"] else loss + DELAY_CLV)
    return HANDLE + loss
