"""Traffic for cold_chain: a week of logger traces in the workspace, a held-out fortnight for
grading, one shadow day per trial. Seeds live in separate string namespaces ("dev:", "heldout:",
"shadow:"); load ids carry their date. No clock, no global RNG."""

from __future__ import annotations

import json
import random
from datetime import date, timedelta
from pathlib import Path

from . import coldchain

DEV_START = date(2026, 7, 20)          # the week before the engagement: Mon 20 - Fri 24 July
HELD_OUT_START = date(2026, 8, 3)      # a fortnight of working days from Mon 3 August
SHADOW_START = date(2026, 7, 27)          # trial day 1 is the first day of the engagement


def _working_days(start: date, n: int) -> list[date]:
    out, d = [], start
    while len(out) < n:
        if d.weekday() < 5:
            out.append(d)
        d += timedelta(days=1)
    return out


def _days(params: dict, ns: str, seed, start: date, n: int) -> list[dict]:
    out = []
    for d in _working_days(start, n):
        rng = random.Random(f"{ns}:{seed}:{params['world_seed']}:{d.isoformat()}")
        out.append({"date": d.isoformat(), "loads": coldchain.day(rng, d.strftime("%m%d"), params)})
    return out


QA_STAFF = ["A. Mistry", "H. Brook", "hbrook", "K. Okoro", "K Okoro"]
QP_SAYS = {
    True: ["QP: excursion confirmed, destroy. {m} min over {hi}.", "destroyed per QP - trace {m} min above {hi}C",
           "QP rejected ({m} min > {hi}). Stock to destruction cage.", "Excursion upheld by Halden QP; {m}min above limit"],
    False: ["QP released - {m} min above {hi}, within SOP. Peak {w}.", "Released by QP after trace review ({m} min over, max {w})",
            "QP: release. door opening blip only ({w}C, {m}min)", "released back to stock, QP ok'd. {m} min above {hi}, worst {w}",
            "QP release - trace fine apart from {m} min (peak {w}). Re-delivered next day.", "rel. by QP ({m} min, {w}). Pharmacy chased"],
    "ambient": ["QP released - ambient line (label: below {hi}C), {w} is normal for it", "not a fridge item?? QP released. {w}C",
                "Released. QP asks why an ambient product was held at {w}C", "QP release - label says do not store above {hi}. worst {w}",
                "released, ambient stock flagged at {w}C. Raised with Lucy re master", "QP: fine, store-below-{hi} product. rel."],
}


def _as_found_range(code: str) -> tuple:
    """The range coldwatch holds for a product (the June import's reading of its label)."""
    kind = coldchain.BY_CODE[code][6]
    return (2, 8) if kind in ("fridge", "dnr", "odd") else coldchain.true_range(code)


def _register(rng: random.Random, days: list[dict], params: dict) -> str:
    """QA's quarantine register for the week: every line the drop check held back, and what the QP said."""
    rows = ["qr_no,date,load_id,van,product_code,worst_c,logged_by,qp_outcome,notes"]
    n = 2611
    for d in days:
        for x in d["loads"]:
            lo, hi = _as_found_range(x["product_code"])
            bad = [t for t in x["temps"] if t > hi or (lo is not None and t < lo)]
            if not bad:
                continue
            n += rng.randint(1, 2)
            exc = coldchain.excursion(x, params)
            real = coldchain.celsius(x, params)
            m = coldchain.minutes_above(real, coldchain.true_range(x["product_code"])[1], x["interval_min"])
            if rng.random() < 0.12:
                outcome, note = "pending", rng.choice(["awaiting QP", "with Halden QA", "", "trace sent to QP"])
            else:
                outcome = "destroyed" if exc else "released"
                worst = max(bad)
                says = "ambient" if not exc and coldchain.BY_CODE[x["product_code"]][6] in ("dnr", "odd") else exc
                note = rng.choice(QP_SAYS[says]).format(m=m, hi=coldchain.true_range(x["product_code"])[1], w=worst)
            worst = max(bad)
            rows.append(f"QR-26-{n:04d},{d['date']},{x['load_id']},{x['van']},{x['product_code']},{worst},"
                        f"{rng.choice(QA_STAFF)},{outcome},\"{note}\"")
    return "\n".join(rows) + "\n"


def _handheld_log(rng: random.Random, day: dict) -> str:
    """The handhelds' log for one day as coldwatch saw it: a line per drop check, some Bluetooth noise."""
    lines = []
    for x in day["loads"]:
        lo, hi = _as_found_range(x["product_code"])
        bad = [t for t in x["temps"] if t > hi or (lo is not None and t < lo)]
        minute = (len(x["temps"]) - 1) * x["interval_min"] + 330 + rng.randint(0, 1)
        stamp = f"{day['date']} {minute // 60:02d}:{minute % 60:02d}:{rng.randint(0, 59):02d}"
        shown = (None if lo is None else float(lo), float(hi))          # as coldwatch reads the master
        verdict = (f"QUARANTINE {len(bad)} reading(s) outside {shown[0]}-{shown[1]} C, worst {max(bad)}" if bad else "RELEASE")
        lines.append(f"{stamp} {x['van']} drop={x['drop_seq']:02d} {x['product_code']} {x['load_id']} {verdict}")
        if rng.random() < 0.03:
            lines.append(f"{stamp} {x['van']} WARN logger {x['logger']} BT link dropped, {rng.randint(2, 9)} readings backfilled")
    return "\n".join(sorted(lines)) + "\n"


def dev(params: dict, out: Path) -> None:
    """data/logger_traces/<date>.jsonl: what coldwatch was sent each day of the week before; and
    data/quarantine_register.csv: what it held back, with the QP's outcome."""
    folder = Path(out) / "data" / "logger_traces"
    folder.mkdir(parents=True, exist_ok=True)
    days = _days(params, "dev", 5, DEV_START, 5)
    for d in days:
        (folder / f"{d['date']}.jsonl").write_text("".join(json.dumps(x) + "\n" for x in d["loads"]), encoding="utf-8")
    reg = _register(random.Random(f"register:{params['world_seed']}"), days, params)
    logs = Path(out) / "data" / "logs"
    logs.mkdir(exist_ok=True)
    for d in days[-2:]:
        (logs / f"handheld_{d['date']}.log").write_text(_handheld_log(random.Random(f"log:{d['date']}"), d), encoding="utf-8")
    (Path(out) / "data" / "quarantine_register.csv").write_text(reg, encoding="utf-8")


def held_out(params: dict, seed: int) -> dict:
    return {"days": _days(params, "heldout", seed, HELD_OUT_START, 10)}


def shadow(params: dict, day: int) -> dict:
    return {"days": _days(params, "shadow", day, SHADOW_START + timedelta(days=day - 1), 1)}
