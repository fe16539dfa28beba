"""Traffic for returns_desk: the dev extracts and logs in the workspace, held-out and shadow traffic.

Seeds live in separate string namespaces ("dev:", "heldout:", "shadow:"); line numbers are disjoint
(dev LH5xxxxx, shadow LH6xxxxx, held-out LH7xxxxx). No clock, no global RNG.
"""

from __future__ import annotations

import csv
import io
import json
import random
from datetime import datetime, timedelta, timezone
from pathlib import Path

from . import shop

UTC = timezone.utc
DEV_START = datetime(2026, 2, 9, tzinfo=UTC)
SHADOW_START = datetime(2026, 3, 10, tzinfo=UTC)
HELD_OUT_START = datetime(2026, 3, 16, tzinfo=UTC)


def _items(prods: list[dict]) -> list[dict]:
    return [dict(s, brand=p["brand"], category=p["category"]) for p in prods for s in p["sizes"]]


def _legacy_listing(prods: list[dict]) -> dict:
    listed = {}
    for p in prods:
        off = shop.BRANDS[p["brand"]][1]
        for s in p["sizes"]:
            listed[s["sku_size"]] = shop.label_number(s["size_label"]) - off
    return listed


def _plant(rng: random.Random, params: dict, prods: list[dict], custs: list[dict], n: int, first: int) -> list[dict]:
    """Flagged customers' occasionwear delivered late in the evening (BST) or by a delayed courier,
    asked back on the last statutory day or just inside it."""
    occ = [p for p in prods if p["brand"] == "Vesper" and p["category"] == "occasionwear"]
    flagged = [c for c in custs if c["kind"] == "wardrober" and c["qc_c_12m"]]
    out = []
    for i in range(n):
        c = rng.choice(flagged)
        p = rng.choice(occ)
        if i % 2 == 0:      # delivered 23:xx UTC after the clocks change = next day in London
            deliv = datetime(2026, 3, 29, 23, rng.randint(5, 55), tzinfo=UTC) + timedelta(days=rng.randint(0, 12))
            disp = deliv - timedelta(days=rng.randint(1, 2), hours=3)
            delay = 15
        else:               # courier delay: delivered 8-10 days after dispatch, asked 10-14 days later
            disp = HELD_OUT_START + timedelta(days=rng.randint(0, 18), hours=14)
            deliv = disp + timedelta(days=rng.randint(8, 10), hours=2)
            delay = rng.randint(10, 14)
        t0 = disp - timedelta(hours=rng.choice([5, 16]))
        out.append({"line_id": f"LH{first + i}", "order_id": f"LH-{first + i + 3}", "customer": c, "pid": p["pid"],
                    "size": c["size"], "ordered": shop.z(t0), "dispatched": shop.z(disp), "delivered": shop.z(deliv),
                    "u_fit": 0.5, "u_base": 0.05, "u_reason": rng.random(), "delay_days": delay,
                    "req_hour": rng.choice([8, 10, 14, 17, 20])})
    return out


def _traffic(rng: random.Random, params: dict, start: datetime, days: int, n_lines: int, first: int,
             plant: int) -> dict:
    custs = shop.customers(rng, max(300, n_lines // 2), first, params)
    prods = shop.catalogue(rng, 220, first // 10)
    lines = shop.orders(rng, params, prods, start, days, n_lines, first, custs)
    if plant:
        lines += _plant(rng, params, prods, custs, plant, first + n_lines + 50)
    return {"items": _items(prods), "prods": {p["pid"]: p for p in prods}, "lines": lines}


def held_out(params: dict, seed: int) -> dict:
    """Four weeks of orders after hand-over (16 Mar - 12 Apr 2026, across the clock change)."""
    rng = random.Random(f"heldout:{seed}:{int(params.get('world_seed', 0))}")
    return _traffic(rng, params, HELD_OUT_START, 28, int(params["lines_per_week"]) * 4, 7000000, 12)


def shadow(params: dict, day: int) -> dict:
    """One trial day: a week of orders replayed against the delivered catalogue and RMA service."""
    rng = random.Random(f"shadow:{day}:{int(params.get('world_seed', 0))}")
    out = _traffic(rng, params, SHADOW_START + timedelta(days=day), 7, int(params["lines_per_week"]), 6000000 + 5000 * day, 4)
    return out


COMMENTS = {
    "too_small": ["too small", "Too small!! I'm always a {s}", "way too small on the bust", "couldn't zip it up",
                  "tiny. normally a {s} in everything", "ordered {s} and {s2}, keeping the {s2}", "sleeves too short",
                  "came up really small", "smaller than my other {s}s", "size up next time i guess", "tight across shoulders",
                  ""],
    "too_big": ["too big", "huge on me", "swamped me", "too long", "gaping at the waist", "ordered {s0} and {s}, sending back the {s}",
                ""],
    "doesnt_suit": ["not for me", "colour not as expected", "doesn't suit me", "didn't like the fabric", "",
                    "looked better on the model", "Not my style after all"],
    "changed_mind": ["changed my mind", "found something else", "", "bought for an event, cancelled", "no longer needed"],
    "not_as_described": ["colour totally different to photos", "says 100% cotton, label says {pct}% polyester", "wrong item sent"],
    "faulty": ["seam split first wear", "zip broken", "hole by the pocket", "button missing", "sequins falling off",
               "stain on the front when it arrived"],
    "arrived_late": ["arrived after my holiday", "came too late for the wedding", "took 11 days to arrive"],
}
QC_BY = ["shaun.w", "dee.k", "marek", "jo (temp)", "dee.k", "Priti S", "marek", "kirkstall-2"]
QC_NOTES = {"A": ["", "", "A", "ok", "repack", "bagged", "fine - back to stock"],
            "B": ["needs steam", "tag off, re-tagged", "creased, steam", "missing swing tag", "smell of perfume - steam"],
            "C": ["worn - fake tan on neckline", "deodorant marks, tags reattached w safety pin", "WORN. make up inside collar",
                  "sequins missing + smells of smoke", "tag re-attached with a plastic loop, not ours", "worn, heel marks on hem",
                  "sweat marks underarm. worn", "glitter everywhere, worn to a do"],
            "D": ["faulty - RTV", "zip broken -> RTV", "seam split, RTV to supplier", "faulty, raise with buyer"]}


START_CLOCK = "2026-03-12T09:00"           # the episode starts here: nothing in the workspace is later


def _in_their_words(rng: random.Random, com: str) -> str:
    """A longer comment as one customer types it: their own opening, ending or case."""
    if len(com.split()) < 5:
        return com
    r = rng.random()
    if r < 0.2:
        return com.lower()
    if r < 0.45:
        return rng.choice(["Hi, ", "Sorry but ", "honestly ", "Hello - ", "tbh "]) + com[0].lower() + com[1:]
    if r < 0.7:
        return com + rng.choice([" :(", " - gutted", ". thanks", "!!", " x", ", refund please", " - shame"])
    return com


def _fmt_date(rng: random.Random, iso: str) -> str:
    d = shop._dt(iso)
    return d.strftime(rng.choice(["%d/%m/%Y", "%Y-%m-%d", "%d/%m/%Y %H:%M", "%d-%b-%y"]))


def dev(params: dict, out: Path) -> None:
    """data/returns_extract.csv, data/qc_log.csv, data/top_returners_90d.csv, logs/rma_portal.log."""
    seed = int(params.get("world_seed", 0))
    rng = random.Random(f"dev:{seed}")
    tr = _traffic(rng, params, DEV_START, 28, int(params["lines_per_week"]) * 4, 5000000, 0)
    prods = tr["prods"]
    listed = _legacy_listing(list(prods.values()))
    reqs, truth, _cost, _lost = shop.shop(tr["lines"], prods, listed, params)
    reqs = sorted((r for r in reqs if r["requested_at"] < "2026-03-12T08:00"), key=lambda r: r["requested_at"])
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(["rma_id", "requested", "order_id", "customer_id", "tier", "brand", "category", "sku_size", "size_label",
                "uk_size", "price_gbp", "delivered", "reason", "customer_comment", "decision", "qc_grade"])
    qbuf = io.StringIO()
    qw = csv.writer(qbuf)
    qw.writerow(["received_at_kirkstall", "rma", "sku", "grade", "graded_by", "note"])
    decided: list[tuple[str, str]] = []          # (requested_at, decision) as the extract has them
    for r in reqs:
        t = truth[r["rma_id"]]
        s = r["uk_size"]
        com = rng.choice(COMMENTS[r["reason"]]).format(s=s, s2=s + 2, s0=s - 2, pct=rng.choice([60, 65, 80, 95, 100]))
        if "sequins" in com and r["category"] != "occasionwear":
            com = rng.choice(["seam split first wear", "zip broken", "hole by the pocket", "bobbled after one wash"])
        if r["reason"] == "too_small" and r["brand"] == params["problem_brand"] and rng.random() < 0.3:
            com = rng.choice([f"I'm a {s} in everything else {rng.choice(['you sell', 'from you', 'I own', 'on your site', 'in my wardrobe'])}", f"{params['brand_short']} sizing is way off",
                              f"{rng.choice(['Second', 'Third', '3rd', 'Fourth'])} {params['brand_short']} {r['category']} "
                              f"I've sent back in a {s}. all too small", "runs at least a size small",
                              f"ordered my usual {s}, could barely get it on", f"bought {s} and {s + 2}, even the {s + 2} is snug"])
        com = _in_their_words(rng, com)
        days = (shop.local_day(r["requested_at"]) - shop.local_day(r["delivered_at"])).days
        if r["reason"] in ("faulty", "not_as_described"):
            dec = "approve"
        elif days > 28:
            dec = "refuse"
        else:
            dec = "inspect" if r["price"] >= 250 else "approve"
        grade = ""
        if dec != "refuse":
            grade = "C" if t["worn"] and rng.random() < 0.9 else ("D" if r["reason"] == "faulty" else
                                                                  rng.choices("AB", [80, 20])[0])
            if rng.random() < 0.1 or r["requested_at"] > "2026-03-08":
                grade = ""                       # not received yet / never sent
        recv = shop._dt(r["requested_at"]) + timedelta(days=rng.randint(2, 6))
        if grade and shop.z(recv) >= START_CLOCK:
            grade = ""                           # still in the courier's van on the morning of the 12th
        decided.append((r["requested_at"], dec))
        req_s = r["requested_at"] if rng.random() < 0.7 else _fmt_date(rng, r["requested_at"])
        w.writerow([r["rma_id"], req_s, r["order_id"], r["customer_id"], r["tier"], r["brand"], r["category"],
                    r["sku_size"], r["size_label"], s, f"{r['price']:.2f}", r["delivered_at"], r["reason"], com, dec,
                    grade])
        if grade:
            note = rng.choice(QC_NOTES[grade])
            if grade == "A" and r["reason"] == "too_small" and r["brand"] == params["problem_brand"] and rng.random() < 0.25:
                note = rng.choice(["nothing wrong w/ it",
                                   f"another {params['brand_short']} {r['sku_size']} - perfect cond, 'too small'",
                                   f"measured {r['sku_size']}: bust {rng.choice([1.5, 2, 2.5, 3])}cm under spec for the size?",
                                   f"A. these {params['brand_short']} all come back mint ({r['sku_size']})"])
            qw.writerow([_fmt_date(rng, shop.z(recv)), r["rma_id"].replace("RMA-", rng.choice(["RMA-", "rma ", "RMA"])),
                         r["sku_size"], grade, rng.choice(QC_BY), note])
    (out / "data").mkdir(parents=True, exist_ok=True)
    (out / "data" / "returns_extract.csv").write_text(buf.getvalue(), encoding="utf-8")
    (out / "data" / "qc_log.csv").write_text(qbuf.getvalue(), encoding="utf-8")

    # the analyst's 90-day returner extract (customers over the proposed threshold)
    per: dict = {}
    for r in reqs:
        per.setdefault(r["customer_id"], []).append(r)
    cb = io.StringIO()
    cw = csv.writer(cb)
    cw.writerow(["customer_id", "tier", "returns_90d", "orders_90d", "brands_returned", "net_spend_12m_gbp", "qc_c_12m"])
    seen = {ln["customer"]["customer_id"]: ln["customer"] for ln in tr["lines"]}
    for cid, c in sorted(seen.items()):
        if c["returns_90d"] <= 3:
            continue
        brands = {r["brand"] for r in per.get(cid, [])}
        if c["kind"] == "honest" and rng.random() < 0.7:      # 90 days reach back before this extract
            brands.add(params["problem_brand"])
        brands = sorted(brands)
        spend = c["clv"] * rng.uniform(1.4, 1.9) if c["kind"] == "honest" else rng.uniform(40, 160)
        cw.writerow([cid, c["tier"], c["returns_90d"], c["returns_90d"] + rng.randint(1, 6), "; ".join(brands) or "-",
                     f"{spend:.0f}", c["qc_c_12m"]])
    (out / "data" / "top_returners_90d.csv").write_text(cb.getvalue(), encoding="utf-8")

    # the portal job runs every 30 minutes and logs each batch it authorised: the same requests and
    # decisions as the extract (a half-hour with no request logs nothing)
    batches: dict[datetime, list[str]] = {}
    for at, dec in decided:
        t = shop._dt(at)
        slot = t.replace(minute=30 * (t.minute // 30), second=0, microsecond=0) + timedelta(minutes=30)
        batches.setdefault(slot, []).append(dec)
    lines = [f"{slot:%Y-%m-%d %H:%M}:{rng.randint(1, 9):02d} INFO  rma.authorise batch n={len(decs)} "
             f"refused={decs.count('refuse')}" for slot, decs in sorted(batches.items())]
    noise = ["2026-02-11 03:00:12 WARN  catalogue.sizing no conversion for 'Brightwater' 'W28' (denim)",
             "2026-02-14 10:41:07 ERROR portal.job  Evri label API timeout (3 retries) - 14 labels queued",
             "2026-02-14 10:52:30 INFO  portal.job  Evri label API recovered, 14 labels issued",
             "2026-02-23 02:00:03 INFO  catalogue.feed nightly feed: 1,904 sku_sizes published",
             "2026-03-01 09:12:44 WARN  rma.authorise request RMA-50011?? missing delivered_at, used dispatched_at",
             "2026-03-02 16:20:10 INFO  portal.job  config reloaded (LH-RET-2024-03)",
             "2026-03-09 02:00:04 INFO  catalogue.feed nightly feed: 1,977 sku_sizes published (SS26 drop 2)"]
    lines = sorted(lines + noise)
    (out / "logs").mkdir(parents=True, exist_ok=True)
    (out / "logs" / "rma_portal.log").write_text("\n".join(lines) + "\n", encoding="utf-8")
    sample = reqs[:6]
    (out / "data" / "sample_requests.json").write_text(json.dumps(sample, indent=1) + "\n", encoding="utf-8")
