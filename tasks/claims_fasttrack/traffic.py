"""Traffic for claims_fasttrack: six weeks of claim history (the workspace's claims.db, intake log
and SIU sheet), two held-out weeks of first notices, and shadow days for trials.

Seeds are strings in separate namespaces ("hist:", "heldout:", "shadow:"); claim numbers are
disjoint (history 1xxxxx, shadow 4xxxxx, held-out 5xxxxx). The held-out stream continues the same
history (the ring copies claims the workspace's database holds), regenerated in memory.
"""

from __future__ import annotations

import csv
import io
import random
import sqlite3
import statistics
from datetime import date, timedelta
from pathlib import Path

from . import sim

HIST_START = date(2026, 1, 19)
HIST_DAYS = 42                       # to Sun 1 March
HELD_OUT_START = date(2026, 3, 9)    # the two weeks after go-live
SHADOW_START = date(2026, 3, 3)
ADJUSTERS = ["k.whitfield", "r.santos", "d.oyelaran", "m.cheng", "t.brennan", "a.kaur", "j.pulido", "s.morrow"]
SIU_PEOPLE = {"renata_okafor": "R. Okafor", "marcus_lindqvist": "M. Lindqvist"}


def _history(params: dict):
    """(claims, pool) for the six weeks before hand-over; ring claims found by SIU carry flags."""
    rng = random.Random(f"hist:{int(params.get('world_seed', 0))}:{params['ring_key']}:{params['photo_channel']}")
    pool: dict = {"templates": [], "recent": []}
    out = []
    # the ring's first wave (early January): originals at its shops, fresh photos and VINs
    for i in range(10):
        day = HIST_START - timedelta(days=14 - i)
        shop = rng.choice(sim.ring_shops(params))
        vis = sim._base(rng, params, day, 100100 + i * 7, "app", shop, round(rng.uniform(1640, 1990), 2),
                        day - timedelta(days=rng.randint(1, 5)))
        vis["shop"]["id"] = ""
        sim.set_media(vis, rng, params, "app", rng.randint(3, 4))
        out.append((vis, sim._truth("ring", vis["estimate_usd"], 0.0, False, True, 1)))
        pool["templates"].append({"vis": vis, "hashes": sim.photo_hashes(vis), "flagged": False})
    out += sim.claims(rng, params, HIST_START, HIST_DAYS, 100400, pool)
    cutoff = HIST_START + timedelta(days=30)      # SIU has worked the file up to mid-February
    for tpl in pool["templates"]:
        if date.fromisoformat(tpl["vis"]["fnol_date"]) < cutoff and rng.random() < 0.75:
            tpl["flagged"] = True
    return out, pool, rng


def _decided(rng, vis, tru, params, backlog) -> date:
    """The day the desk decides the file, as the grader's model has it (sim.outcome) under the intake
    in production: a file without photos waits in PEND_PHOTO for the Friday sweep and then a field
    appraisal; emailed pictures (photos empty) pend a day; then the desk queue (FIFO, desk_per_day a
    weekday, the week's backlog on the dashboard ahead of it) and the review, which for some files runs
    on for days (a supplement, a second picture, a claimant who doesn't call back)."""
    fnol = date.fromisoformat(vis["fnol_date"])
    extra = 0
    if not tru["has_photos"]:
        enter, extra = fnol + timedelta(days=sim._friday_sweep(fnol)), sim.APPRAISAL_DAYS
    else:
        enter = fnol + timedelta(days=0 if vis["photos"] else 1)
    left, d = backlog(enter) * rng.uniform(0.85, 1.1), enter
    while True:
        if d.weekday() < 5:
            left -= int(params["desk_per_day"])
            if left < 0:
                break
        d += timedelta(days=1)
    longer = rng.randint(1, 5) if rng.random() < 0.35 else rng.choice([-1, 0, 0])
    return d + timedelta(days=sim.REVIEW_DAYS + extra + longer)


def _status(rng, vis, tru, decided, hist_end):
    """How the file stands in claims.db: the desk paid or denied it, or it is still open."""
    if decided >= hist_end:
        return "OPEN", None, None, ""
    closed = decided.isoformat()
    if tru["kind"] == "double":
        return "CLOSED_DUP", 0.0, closed, rng.choice(["dup of earlier rpt - merged", "DUPLICATE FNOL, merged w/ prior",
                                                      "same loss reported twice, closed", "dupe - see prior claim", ""])
    if tru["kind"] == "ring" and tru["desk_catch"]:
        prior = tru.get("copy_of") or "an older file"
        return "DENIED", 0.0, closed, rng.choice([f"photos look reused (cf {prior})?? sent to SIU",
                                                  "estimate doesnt match photos, denied",
                                                  f"damage inconsistent w/ loss desc, pics like {prior}"])
    note = rng.choice(["", "", "", "pd per est", "paid per shop estimate", "supplement $112 approved", "ok to pay",
                       "rental ext 3 days approved", "waiting on 2nd pic of rear", "pd - total under ded?? no, over",
                       "cust called x3 re status", "R&R bumper cover, blend adj panels", "two-car, see linked claim"])
    note = _vary(note, vis, tru)
    return "PAID", round(tru["true_cost"] if tru["kind"] != "ring" else float(vis["estimate_usd"]), 2), closed, note


PANELS = ["bumper cover", "rear bumper", "LF fender", "RF door skin", "tail lamp", "hood", "grille + bumper",
          "LR quarter panel", "RR door", "front bumper + fog lamp", "mirror housing"]


BLENDS = ["blend adj panels", "blend adj", "blend into adjacent panel", "blend both sides", "no blend needed per shop"]


def _vary(note: str, vis: dict, tru: dict) -> str:
    """The stock notes on a PAID file as adjusters actually write them: the part, the amount over the
    deductible. A note never contradicts the file: a paid claim is never "under ded, closed no pay"
    (an estimate under the deductible reads as paid per estimate), and "two-car, see linked claim"
    sits only on a claim that has a linked two-car partner. Uses no randomness (the draw stays as it was)."""
    n = int(vis["claim_id"][-4:])
    if note.startswith("two-car") and "two_car" not in tru["tags"]:
        return ""
    if note.startswith("R&R"):
        blend = BLENDS[(n // len(PANELS)) % len(BLENDS)]
        return f"R&R {PANELS[n % len(PANELS)]}" + ("" if n % 3 else f", {blend}")
    if note.startswith("pd - total under ded"):
        over = float(vis["estimate_usd"]) - (500 if n % 2 else 1000)
        return f"pd - total under ded?? no, over by ${over:,.0f}" if over > 0 else "pd per est"
    return note


def ds_add(d: str, n: int) -> str:
    return (date.fromisoformat(d) + timedelta(days=n)).isoformat()


def dev(params: dict, out: Path) -> None:
    hist, pool, rng = _history(params)
    hist_end = HIST_START + timedelta(days=HIST_DAYS)
    db = out / "system" / "data" / "claims.db"
    db.parent.mkdir(parents=True, exist_ok=True)
    if db.exists():
        db.unlink()
    con = sqlite3.connect(db)
    con.executescript((out / "system" / "data" / "schema.sql").read_text(encoding="utf-8"))
    backlog = _desk_backlog(out / "data" / "cycle_time_weekly.csv")
    for vis, tru in hist:
        st, paid, closed, note = _status(rng, vis, tru, _decided(rng, vis, tru, params, backlog), hist_end)
        con.execute("INSERT INTO claims VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                    (vis["claim_id"], vis["policy_no"], vis["fnol_date"], vis["loss_date"], vis["channel"], vis["state"],
                     vis["insured"], vis["vin"], vis["vehicle"], vis["shop"]["id"], vis["shop"]["name"], vis["shop"]["ein"],
                     vis["estimate_usd"], st, paid, closed, rng.choice(ADJUSTERS) if st != "OPEN" else None, note))
        for h in vis["photos"]:
            con.execute("INSERT INTO photos VALUES (?,?,?)", (vis["claim_id"], h, "app"))
        for a in vis.get("snapclaim") or []:
            con.execute("INSERT INTO photos VALUES (?,?,?)", (vis["claim_id"], a["sha1"], "snapclaim:" + a["file"]))
    holder = SIU_PEOPLE.get(params["siu_holder"], "R. Okafor")
    last = hist_end - timedelta(days=1)           # the nightly extract holds nothing after Sun 1 March
    for tpl in pool["templates"]:
        if not tpl["flagged"]:
            continue
        keys = [("vin8", tpl["vis"]["vin"][-8:])] if params["ring_key"] == "vin" else [("photo", h) for h in tpl["hashes"]]
        for kt, kv in keys:
            n = rng.randint(9, 20)
            n = min(n, (last - date.fromisoformat(tpl["vis"]["fnol_date"])).days - n % 3)
            con.execute("INSERT INTO siu_flags VALUES (?,?,?,?,?,?)",
                        (kt, kv, tpl["vis"]["claim_id"], ds_add(tpl["vis"]["fnol_date"], n),
                         rng.choice([holder, holder, "siu.intake"]),
                         rng.choice(["Delta grp", "ring - see case file", "reused pics", "DPAB/Crestline", "", "pending EUO"])))
    con.commit()
    _dashboard(out / "data" / "cycle_time_weekly.csv", con, hist_end, params)
    con.close()
    _intake_log(params, hist, out, rng)
    _siu_sheet(params, hist, pool, out, rng)


def _desk_backlog(path: Path):
    """The desk backlog the ops dashboard shows for the week a day falls in (its last week after that)."""
    rows = csv.DictReader(path.open(encoding="utf-8"))
    weeks = [(date.fromisoformat(r["week_ending"]), int(r["desk_backlog"])) for r in rows]

    def on(day: date) -> int:
        return next((n for end, n in weeks if end >= day), weeks[-1][1])
    return on


def _pending(day: date, fnol: date) -> bool:
    """A photo-less file first notified on `fnol` is still in PEND_PHOTO at the end of `day`."""
    return fnol <= day < fnol + timedelta(days=sim._friday_sweep(fnol))


def _dashboard(path: Path, con, hist_end: date, params: dict) -> None:
    """The ops dashboard at this variant's volume, and as the extract has it for the weeks it covers:
    FNOLs for every week from its first (HIST_START), the open photo pend from its third, and
    payments (count, median and p90 days FNOL to payment, average paid under 2k) for weeks whose
    payments are nearly all on files first notified inside the extract."""
    rows = list(csv.reader(path.open(encoding="utf-8")))
    col = {c: i for i, c in enumerate(rows[0])}
    claims = con.execute("SELECT fnol_date, closed_date, status, paid_usd FROM claims").fetchall()
    nophoto = [date.fromisoformat(f) for (f,) in con.execute(
        "SELECT fnol_date FROM claims WHERE claim_id NOT IN (SELECT claim_id FROM photos)")]
    scale = float(params["claims_per_day"]) / 42
    for r in rows[1:]:
        end = date.fromisoformat(r[0])
        start = end - timedelta(days=6)
        for c in ("fnols", "paid", "pend_photo_open", "rental_spend_usd"):
            r[col[c]] = str(round(int(r[col[c]]) * scale))
        if start < HIST_START or end >= hist_end:
            continue
        r[col["fnols"]] = str(sum(start.isoformat() <= f <= end.isoformat() for f, *_ in claims))
        if (end - HIST_START).days >= 14:
            r[col["pend_photo_open"]] = str(sum(_pending(end, f) for f in nophoto))
        if (start - HIST_START).days < 28:
            continue
        paid = [(date.fromisoformat(c), date.fromisoformat(f), u) for f, c, st, u in claims
                if st == "PAID" and start.isoformat() <= c <= end.isoformat()]
        days = [(c - f).days for c, f, _u in paid]
        small = [u for _c, _f, u in paid if u < 2000]
        r[col["paid"]] = str(len(paid))
        r[col["median_days_fnol_to_pay"]] = f"{statistics.median(days):.1f}"
        r[col["p90_days"]] = f"{statistics.quantiles(days, n=10)[-1]:.1f}"
        r[col["avg_paid_under_2k"]] = f"{sum(small) / len(small):.2f}"
    path.write_text("".join(",".join(r) + "\n" for r in rows), encoding="utf-8")


def _intake_log(params, hist, out: Path, rng):
    lines = []
    last = [c for c in hist if date.fromisoformat(c[0]["fnol_date"]) >= HIST_START + timedelta(days=HIST_DAYS - 14)]
    for vis, _tru in last:
        ph = len(sim.photo_hashes(vis))
        q = "desk" if vis["photos"] else "pend_photos"
        t = f"{vis['fnol_date']}T{rng.randint(6, 21):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}-08:00"
        lines.append((t, f"{t} INFO  claimdesk.intake  {vis['claim_id']} ch={vis['channel']} est={vis['estimate_usd']:.2f} "
                         f"photos={len(vis['photos'])} att={len(vis['attachments'])}"
                         + (f" snap={len(vis['snapclaim'])}" if "snapclaim" in vis else "") + f" shop=\"{vis['shop']['name']}\" -> {q}"
                         + ("" if q == "desk" else " (no photos: claim not set up, ack held)")))
        if q == "pend_photos" and ph and params["photo_channel"] == "email":
            lines.append((t + "z", f"{t} WARN  claimdesk.intake  {vis['claim_id']} snapclaim has {ph} image(s) but photos=[] - pended"))
    nophoto = [date.fromisoformat(v["fnol_date"]) for v, _t in hist if not sim.photo_hashes(v)]
    for d in range(HIST_DAYS - 14, HIST_DAYS):
        day = HIST_START + timedelta(days=d)
        if day.weekday() == 4:                  # the files without photos whose sweep is today
            ages = [(day - f).days for f in nophoto if f + timedelta(days=sim._friday_sweep(f)) == day]
            t = f"{day.isoformat()}T16:{rng.randint(10, 50)}:00-08:00"
            lines.append((t, f"{t} INFO  pend.sweep        {len(ages)} PEND_PHOTO files aged 8+ days set up by hand "
                             f"(ack letters queued), oldest {max(ages)} days - {rng.choice(['D. Ferreira', 'L. Vu', 'dferreira'])}"))
    noise = [("2026-02-17T02:00:01", "2026-02-17T02:00:01-08:00 ERROR claimdesk.corresp  print vendor SFTP timeout, 212 letters retried 02:30"),
             ("2026-02-20T11:04:00", "2026-02-20T11:04:00-08:00 INFO  claimdesk.intake  config reloaded (fast_track.enabled=false)"),
             ("2026-02-24T09:12:44", "2026-02-24T09:12:44-08:00 WARN  claimdesk.intake  SVM-26-1?????: shop name blank, estimate pdf unreadable"),
             ("2026-02-26T15:30:00", "2026-02-26T15:30:00-08:00 INFO  desk.queue        backlog 318 files, oldest unassigned 11 days")]
    lines += noise
    extract = (HIST_START + timedelta(days=HIST_DAYS)).isoformat()      # the log as copied on the morning of 2 March
    lines = sorted(x for x in lines if x[0][:10] < extract)
    (out / "logs").mkdir(parents=True, exist_ok=True)
    (out / "logs" / "intake.log").write_text("\n".join(x[1] for x in lines) + "\n", encoding="utf-8")


def _siu_sheet(params, hist, pool, out: Path, rng):
    """SIU's referral spreadsheet, as exported on Mon 2 March: many hands, inconsistent notes; a claim
    whose referral would fall after the export is not on it yet."""
    exported = (HIST_START + timedelta(days=HIST_DAYS - 1)).isoformat()
    rows: list[list] = []
    rings = [c for c in hist if c[1]["kind"] == "ring" and (c[1]["desk_catch"] or rng.random() < 0.5)]
    dup_notes = (["same front bumper pics as {p} - diff policy", "photos = {p} (exif stripped)", "pics reused from {p}!!",
                  "2 of 3 images identical to {p}", "IMG hashes match {p}"] if params["ring_key"] == "photo" else
                 ["VIN tail matches {p}, diff policy/insured", "last 8 of VIN same as {p}", "vin ...{v} also on {p}",
                  "same car as {p}?? VIN 1st chars differ", "VIN fragment = {p}"])
    by_vin = {}
    for vis, _t in hist:
        by_vin.setdefault(vis["vin"][-8:], vis["claim_id"])
    for vis, tru in rings:
        prev = tru.get("copy_of") or by_vin.get(vis["vin"][-8:])
        if not prev or prev == vis["claim_id"]:
            continue
        note = rng.choice(dup_notes).format(p=prev, v=vis["vin"][-8:])
        rows.append([ds_add(vis["fnol_date"], rng.randint(3, 12)), vis["claim_id"], rng.choice(ADJUSTERS + ["siu.intake"]),
                    vis["shop"]["name"], f"{vis['estimate_usd']:.2f}" if rng.random() < 0.7 else f"${vis['estimate_usd']:,.0f}",
                    note + rng.choice(["", "", " EIN same as other Delta shops", " - Delta grp", " under 2k again"]),
                    rng.choice(["open", "OPEN", "denied", "EUO sched", "closed-denied"])])
    doubles = [c for c in hist if c[1]["kind"] == "double"][:6]
    for vis, _t in doubles:
        rows.append([ds_add(vis["fnol_date"], 2), vis["claim_id"], rng.choice(ADJUSTERS), vis["shop"]["name"],
                    f"{vis['estimate_usd']:.2f}", rng.choice(["NOT ring - {i} reported it twice, merged. pls dont refer dups",
                                                            "dup FNOL, same policy {p} + loss date. returned to desk",
                                                            "same pics but SAME policy ({p}) = double report, not fraud"]
                                                           ).format(i=vis["insured"].split()[-1], p=vis["policy_no"]),
                    "returned"])
    twos = [c for c in hist if "two_car" in c[1]["tags"]][:4]
    for vis, _t in twos:
        rows.append([ds_add(vis["fnol_date"], 4), vis["claim_id"], rng.choice(ADJUSTERS), vis["shop"]["name"],
                    f"{vis['estimate_usd']:.2f}", rng.choice(["shared scene photos w/ other SVM insured ({p}) - legit 2-car, no action",
                                                            "both drivers ours ({p}), same photos of intersection. closed no fraud"]
                                                           ).format(p=vis["policy_no"]),
                    "no action"])
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(["ref_date", "claim_no", "referred_by", "shop (as written)", "amt", "reason / notes", "status"])
    w.writerows(r for r in rows if r[0] <= exported)
    (out / "data").mkdir(parents=True, exist_ok=True)
    (out / "data" / "siu_referrals_2026.csv").write_text(buf.getvalue(), encoding="utf-8")


def _continue(params: dict, seed_ns: str, start: date, days: int, first_no: int, weeks: int):
    _hist, pool, _ = _history(params)
    rng = random.Random(seed_ns)
    pool["held_out"] = True
    batches, truth = [], {}
    no = first_no
    for w in range(weeks):
        rows = sim.claims(rng, params, start + timedelta(days=days * w), days, no, pool)
        batches.append([v for v, _t in rows])
        truth.update({v["claim_id"]: t for v, t in rows})
        no = int(rows[-1][0]["claim_id"][-6:]) + 5
    return {"batches": batches, "truth": truth}


def held_out(params: dict, seed: int) -> dict:
    """Two weeks of first notices after go-live, one batch a week; truth stays grader-side."""
    return _continue(params, f"heldout:{seed}:{int(params.get('world_seed', 0))}", HELD_OUT_START, 7, 500100, 2)


def shadow(params: dict, day: int) -> dict:
    """One trial day of mirrored intake."""
    tr = _continue(params, f"shadow:{day}:{int(params.get('world_seed', 0))}", SHADOW_START + timedelta(days=day), 1,
                   400100 + 400 * day, 1)
    tr["day"] = (SHADOW_START + timedelta(days=day)).strftime("%a %d %b")
    return tr
