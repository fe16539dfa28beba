"""Traffic for churn_offers: the workspace's extracts and logs, held-out and shadow campaign runs.

Seeds live in separate string namespaces ("dev:", "heldout:", "shadow:"); account numbers are
disjoint (dev BM-1xxxxxx, shadow BM-6xxxxxx, held-out BM-7xxxxxx). No clock, no global RNG.
"""

from __future__ import annotations

import random
from datetime import date, timedelta

from . import mobile

HELD_OUT_RUNS = [date(2026, 12, 14) + timedelta(days=7 * k) for k in range(4)]
SHADOW_RUN = date(2026, 12, 7)


def _run(rng: random.Random, params: dict, run: date, n: int, first: int) -> tuple[dict, dict]:
    accs, truth = mobile.accounts(rng, params, run, n, first)
    return {"run_date": run.isoformat(), "accounts": accs}, truth


def held_out(params: dict, seed: int) -> dict:
    """Four weekly save-campaign runs after hand-over (14 Dec 2026 - 4 Jan 2027)."""
    rng = random.Random(f"heldout:{seed}:{int(params.get('world_seed', 0))}")
    runs, truth = [], {}
    n = int(params["accounts_per_run"])
    for k, run in enumerate(HELD_OUT_RUNS):
        r, t = _run(rng, params, run, n, 7_000_000 + 100_000 * k)
        runs.append(r)
        truth.update(t)
    return {"runs": runs, "truth": truth}


def shadow(params: dict, day: int) -> dict:
    """One trial day: this Monday's run replayed through a shadow copy (nothing is sent)."""
    rng = random.Random(f"shadow:{day}:{int(params.get('world_seed', 0))}")
    r, t = _run(rng, params, SHADOW_RUN + timedelta(days=day), int(params["accounts_per_run"]), 6_000_000 + 50_000 * day)
    return {"runs": [r], "truth": t}


# ---------------------------------------------------------------- the workspace (dev data, logs, tickets)
CODES = {"London": "LDN", "South East": "SEA", "South West": "SWE", "Wales": "WLS", "Midlands": "MID",
         "North West": "NWE", "North East": "NEA", "Yorkshire": "YRK", "Scotland": "SCO"}
DEV_RUN = date(2026, 11, 30)
FIELDS = ["account_id", "region", "plan", "monthly_fee", "min_term_end", "mkt_consent", "pac_requested",
          "care_contacts_90d", "tenure_months", "data_gb_30d", "data_gb_prev_30d"]


def _legacy(acc: dict, run: date) -> tuple[float, str]:
    p = mobile.risk(acc, run, float(acc["data_gb_30d"]), float(acc["data_gb_prev_30d"]))
    ok = mobile.consented(acc) and date.fromisoformat(acc["min_term_end"]) <= run
    return p, ("save10" if ok and p >= 0.5 else "")


def _scored_base(rng: random.Random, params: dict) -> tuple[str, list[dict]]:
    import csv
    import io
    accs, _ = mobile.accounts(rng, params, DEV_RUN, 2400, 1_000_000)
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(FIELDS + ["churn_score", "flag", "offer_sent"])
    for a in accs:
        p, offer = _legacy(a, DEV_RUN)
        w.writerow([a[k] for k in FIELDS] + [f"{p:.4f}", "Y" if p >= 0.5 else "N", offer])
    return buf.getvalue(), accs


def _campaign_log(rng: random.Random, params: dict, last: list[dict]) -> str:
    """Weekly run summaries (save-campaign job), flagged share by region from a sample of each run; the
    last run's sample is the scored base in data/ (``last``), so the log and the file agree."""
    lines = []
    for k in range(13):
        run = date(2026, 9, 7) + timedelta(days=7 * k)
        accs = last if run == DEV_RUN else mobile.accounts(
            random.Random(f"log:{run}:{params.get('world_seed', 0)}"), params, run, 3000, 9_000_000)[0]
        by: dict[str, list[int]] = {}
        offers = 0
        for a in accs:
            p, offer = _legacy(a, run)
            by.setdefault(" ".join(a["region"].split()).title(), []).append(p >= 0.5)
            offers += bool(offer)
        scored = 412_000 + rng.randint(-3000, 3000) + 350 * k
        flagged = sum(sum(v) for v in by.values()) / len(accs)
        lines.append(f"{run} 07:0{rng.randint(0, 9)}:{rng.randint(10, 59)} INFO save-campaign run={run} scored={scored} "
                     f"flagged={round(scored * flagged)} ({flagged:.1%}) offers={round(scored * offers / len(accs))} pct=10")
        lines.append(f"{run} 07:1{rng.randint(0, 9)}:{rng.randint(10, 59)} INFO save-campaign flagged_by_region "
                     + " ".join(f"{CODES[r]}={sum(v) / len(v):.1%}" for r, v in sorted(by.items())))
        if k in (3, 8):
            lines.append(f"{run} 07:2{rng.randint(0, 9)}:{rng.randint(10, 59)} WARN tyntec gateway: "
                         f"{rng.randint(40, 120)} messages undelivered (handset off / barred)")
    return "\n".join(lines) + "\n"


def _ingest_log(rng: random.Random, params: dict) -> str:
    """The mediation feed's nightly landing, per region; the stale region stops after the drop."""
    drop = date.fromisoformat(params["drop_date"])
    stale = CODES[params["stale_region"]]
    out = []
    day = date(2026, 10, 19)
    while day <= date(2026, 12, 7):
        for region, code in CODES.items():
            t = f"{day} 03:{rng.randint(0, 5)}{rng.randint(0, 9)}:{rng.randint(10, 59)}"
            if code == stale and day > drop:
                out.append(f"{t} WARN mediation.ingest region={code} files=0 records=0 "
                           f"(no files in /landing/usage/{code.lower()}/ - skipped)")
            else:
                files = 24 if rng.random() > 0.03 else rng.randint(21, 23)
                recs = int(mobile.REGIONS[region] * rng.uniform(128_000, 134_000))
                out.append(f"{t} INFO mediation.ingest region={code} files={files} records={recs} ok")
                if files < 24:
                    out.append(f"{t} INFO mediation.ingest region={code} late files will be picked up next run")
        day += timedelta(days=1)
    return "\n".join(out) + "\n"


def _tickets(params: dict) -> str:
    import csv
    import io
    drop = date.fromisoformat(params["drop_date"])
    code = CODES[params["stale_region"]]
    region = params["stale_region"]
    rows = [
        ["RET-371", "2026-08-14", "leanne.price", "Closed", "Save desk: customers quoting 20% from Lyca/Smarty, our 10% text is getting laughed at. Can we test 20?"],
        ["RET-379", "2026-08-28", "g.lloyd", "Closed", "Q3 save test cells set up: control / save10 / save20 on flagged out-of-term, 6 wk. results in data/save_test_cells_q3.csv once matured"],
        ["RET-398", "2026-10-02", "kerry-cs", "Resolved", "cust complaint - replied STOP in Aug and still got the save text. consent field had 'No' not 'N' after CRM migration. Fixed in campaign 5/10 (hywel)"],
        ["DATA-1187", (drop - timedelta(days=1)).isoformat(), "callum.reid", "Done",
         f"Mediation vendor rotating SFTP keys for the {code} landing zone tonight. New key installed on our side. No action expected."],
        ["RET-412", (drop + timedelta(days=8)).isoformat(), "s.akhtar", "Closed - won't fix",
         (f"{region} flagged % way up on this week's run. Real?" if (DEV_RUN - drop).days >= 7 else
          f"{region} data usage down in the warehouse since the weekend - customers going quiet before they leave?")
         + f" Checked: PAC requests in {region} are flat. Rhian says it's the Black Friday switching season, closing."],
        ["RA-233", "2026-09-09", "helen.bain", "Open", "RA exceptions: 14 save-desk discounts on in-term accounts in Aug. Reminder sent to Newport. Campaign is clean."],
        ["COMP-41", "2026-04-11", "adaeze.n", "Closed", "Save SMS re-approved after the April price-rise wording change. Copy in docs/sms_copy_approval.md"],
        ["RET-420", "2026-12-01", "rhian.cadogan", "Open", "Go to 20% for everyone flagged from the 7th or 14th Dec run. Config change only?"],
    ]
    if params.get("rise_in_copy"):
        rows.append(["COMP-58", "2026-11-24", "adaeze.n", "Open",
                     "Ofcom bulletin on in-life offers: an offer that changes what a customer pays must also state the annual April rise in pounds and pence. Applies to the save SMS. Copy change needed before next send."])
    if int(params["term_window_months"]):
        rows.append(["RA-241", "2026-11-18", "helen.bain", "Closed",
                     f"Policy change agreed with Finance: save discounts allowed in the last {int(params['term_window_months'])} months of the minimum term (ECN window). Same plan. Earlier than that still no."])
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(["key", "created", "reporter", "status", "summary"])
    w.writerows(rows)
    return buf.getvalue()


def dev(params: dict, out) -> None:
    """data/scored_base_2026-11-30.csv, data/save_test_cells_q3.csv, data/tickets_export.csv,
    logs/save_campaign.log, logs/mediation_ingest.log."""
    rng = random.Random(f"dev:{int(params.get('world_seed', 0))}")
    (out / "data").mkdir(exist_ok=True)
    (out / "logs").mkdir(exist_ok=True)
    scored, accs = _scored_base(rng, params)
    (out / "data" / "scored_base_2026-11-30.csv").write_text(scored, encoding="utf-8")
    (out / "data" / "tickets_export.csv").write_text(_tickets(params), encoding="utf-8")
    (out / "logs" / "save_campaign.log").write_text(_campaign_log(rng, params, accs), encoding="utf-8")
    (out / "logs" / "mediation_ingest.log").write_text(_ingest_log(rng, params), encoding="utf-8")
