"""Traffic for loan_prequal: the dev extract and logs in the workspace, held-out and shadow batches.

Seeds live in separate string namespaces ("dev:", "heldout:", "shadow:"); application numbers are
disjoint (dev BCB-2602xxx, shadow BCB-2603xxx, held-out BCB-2604xxx). No clock, no global RNG.
"""

from __future__ import annotations

import csv
import importlib
import io
import json
import logging
import math
import random
import sys
from datetime import datetime, timedelta
from pathlib import Path

from . import lending

DEV_START = datetime(2026, 2, 9)         # two weeks after the OLA 2.0 relaunch (2 Feb)
DEV_LAST_DAY = datetime(2026, 2, 22)     # the extract's last day: the engagement starts Mon 23 Feb 09:00
SHADOW_START = datetime(2026, 2, 24)
HELD_OUT_START = datetime(2026, 3, 2)
FORMS_OLD_ONLINE = lending.FORMS["online"][1]
COLUMNS = ["app_id", "received", "channel", "form", "first_name", "last_name", "title", "marital_status", "age",
           "zip", "employment", "employer", "income_amount", "fico", "monthly_debt", "requested_amount",
           "term_months", "purpose", "bankruptcy_24m", "decision", "reasons", "monthly_income_used", "dti_used"]


def _world_engine(build: Path):
    root = str(build / "system")
    saved = {k: v for k, v in sys.modules.items() if k == "prequal" or k.startswith("prequal.")}
    for k in saved:
        del sys.modules[k]
    sys.path.insert(0, root)
    try:
        mod = importlib.import_module("prequal.engine")
        return mod.decide_batch
    finally:
        sys.path.remove(root)
        for k in [k for k in sys.modules if k == "prequal" or k.startswith("prequal.")]:
            del sys.modules[k]
        sys.modules.update(saved)


NOTE_OPENERS = ["", "", "", "cust called back - ", "Recon req via branch. ", "email from applicant: ", "walk-in at Edgewood br, ",
                "voicemail {vm} - ", "per Marisol: ", "2nd call. "]
PERIOD_WORDS = {"monthly": ["a month", "per month", "monthly", "/mo"], "weekly": ["a week", "per week", "weekly", "/wk"],
                "quarterly": ["a quarter", "per quarter", "quarterly (1040-ES)", "each quarter"],
                "biweekly": ["every 2 weeks", "biweekly", "per paycheck", "every other week"]}


def policy_view(truth: dict, params: dict) -> str:
    """How the file looks to an underwriter with the return in hand: "clears" the credit policy on its real
    income (FICO at or above the floor, DTI within the committee's appetite and the engine's 43%, no recent
    bankruptcy, enough income, amount within the program), "fails" it, or sits too close to the DTI limit
    for a note to call it either way (a rounded figure in a note never lands on the wrong side of a limit)."""
    max_dti = min(float(params["appetite_dti"]), 0.43)
    if (truth["fico"] < int(params["appetite_fico"]) or truth["bankruptcy"] or truth["dti"] > max_dti
            or truth["income"] < 1530 or truth["amount"] > 35000):
        return "fails"
    return "clears" if truth["dti"] <= max_dti - 0.005 else "borderline"


def _note(rng: random.Random, app: dict, truth: dict, params: dict) -> str:
    """An underwriter's note on a reconsideration. Only a file that clears the policy on its real income
    gets a note saying it was (or would be) approved; one that fails on score, DTI or a bankruptcy gets the
    reason it still fails."""
    per = params["se_period"]
    inc = truth["income"]
    stated = app["income_amount"]
    if isinstance(stated, float) and stated.is_integer():
        stated = int(stated)
    why = "/".join(app["_reasons"]) or "n/a"
    yr = round(inc * 12, -2)
    w = rng.choice(PERIOD_WORDS.get(per, ["a month"]))
    # a voicemail was left between the application and the day the underwriter wrote the note
    received = datetime.strptime(app["received"][:10], "%Y-%m-%d")
    vm = received + timedelta(days=rng.randint(0, max(0, (app["_day"] - received).days)))
    op = rng.choice(NOTE_OPENERS).replace("{vm}", f"{vm.month}/{vm.day}")
    if app["channel"] == "partner" and rng.random() < 0.5:
        op = rng.choice(["FW from LendCompass support: ", "LendCompass ticket LC-{0}: ".format(rng.randint(40000, 49999))])
    view = policy_view(truth, params)
    if truth["kind"] == "se_inflight" and not app["_reasons"]:
        said = [f"{op}applicant asked why her friend was declined and she wasn't. hers went in on {app['form']} (old screen, yearly figure). no issue"]
        if view == "clears":
            said.append(f"{op}checked - {app['form']} app, {stated} is last year's net profit, annual. engine got it right. approved, cust just wanted the rate explained")
        return rng.choice(said)
    if truth["kind"] == "se_inflight":
        return rng.choice([
            f"{op}started app in Jan, finished after the relaunch. {stated} is their Sched C net for 2025. engine income looks right, decline stands ({why})",
            f"{op}says decline is wrong but the {stated} figure IS annual (2025 return). Reran by hand, engine income is right. {why} stands",
            f"{op}{app['form']} app, {stated} is yearly. Nothing to fix here. -KO",
        ])
    k = app["_k"]
    where = "LendCompass apps" if app["channel"] == "partner" else "online apps"
    check = {code: name for name, code in app["_codes"].items()}      # reason code -> the check that failed
    income_decline = any(check.get(c) in ("income", "dti") for c in app["_reasons"])
    # what any underwriter might write about a self-employed decline, whatever the file's credit
    said = [
        f"{op}applicant says {stated} is what the {app['employer'] or 'business'} clears {w}, not a year. Sched C 2025 shows ~${yr:,.0f}. prequal had ${app['_inc']:,.0f}/mo?? can't override",
        f"{op}self employed ({app['employer']}), 2 yrs of returns avg about {yr / 1000:.0f}k/yr. Engine used way less than that. 3rd one this week",
        f"{op}{app['form']} - self-emp decline, DTI on the engine {min(99, app['_dti']) * 100:.0f}%, my calc off the 1040 is more like {truth['dti']:.0%}",
        f"{op}{app['employer']}. prequal shows monthly income ${app['_inc']:,.2f}. Her 2024+2025 returns avg ${yr:,.0f}. That's not a rounding problem",
        f"{op}I keep seeing this w/ the self employed. engine income ${app['_inc']:,.0f}/mo, roughly 1/12th of what I'd use? or less. escalating to Marisol + Tom",
        f"{op}what did the app screen ask him? he swears he put his {per} number in. LO to pull screenshot",
    ]
    if income_decline:
        said.append(f"{op}customer v. upset, has been w/ us 9 yrs, business checking here. says the form asked how much she makes {w}. we declined for income")
    if view == "clears":
        said += [
            f"{op}Bank stmts (12 mo) deposits support the {stated} {w} figure. decline reason {why} - doesnt make sense",
            f"{op}Pls look at this one, {app['employer']} owner, good credit ({app['fico']}), declined {why}. income per tax return ~{yr:,.0f}. something is off w/ {where}",
            f"{op}sent to Marisol. form says {stated}; if thats {w} they qualify easy",
            f"{op}reapplied at branch, LO keyed annual {yr:,.0f} -> approved same day. same person, same numbers",
            f"{op}another one. self-employed ({app['employer'] or 'sole prop'}), declined {why}. brought in 1099s + Sched C, clearly fine",
            f"{op}approved manually at Marion branch after recon, same file. credit {app['fico']}, DTI ~{truth['dti']:.0%} on real income",
            f"{op}Reviewed. Income verified via 4506-C transcript ~{yr:,.0f}/yr. Would approve. No override path in LOS - reapply",
        ]
    elif view == "fails":
        # the income is wrong on the engine, but the file fails the policy on its real income too
        floor = int(params["appetite_fico"])
        if truth["fico"] < floor:
            fail = f"score {truth['fico']} is under our {floor} floor"
        elif truth["bankruptcy"]:
            fail = "there's a BK in the last 24 mo"
        elif truth["income"] < 1530 or truth["amount"] > 35000:
            fail = "the ask is too big for what the business makes"
        else:
            # the limit a branch underwriter works to: the credit committee's appetite when it is tighter
            # than the engine's 43% (a note saying "over our limit" under 43% must say which limit)
            limit = min(float(params["appetite_dti"]), 0.43)
            fail = (f"DTI is still {math.ceil(truth['dti'] * 1000) / 10:.1f}% on the real income, over our "
                    f"{limit * 100:g}% limit")
        said += [
            f"{op}reran it off the Sched C (~${yr:,.0f}/yr): income's right now but {fail}. decline stands, explained to cust",
            f"{op}engine income is way off (${app['_inc']:,.0f}/mo) but even on the 1040 {fail}. wouldn't approve at branch either",
            f"{op}{app['employer'] or 'self-employed'} - wants a recon. returns say ~{yr / 1000:.0f}k/yr, fine, but {fail}. no",
        ]
    return said[k % len(said)]


def dev(params: dict, out: Path) -> None:
    """data/applications_2026-02.csv (what the engine decided), data/reconsiderations.csv (appeals
    the underwriters looked at), logs/prequal_intake.log."""
    seed = int(params.get("world_seed", 0))
    rng = random.Random(f"dev:{seed}")
    pairs = lending.batch(rng, params, DEV_START, 14, 2602000, int(params["apps_per_week"]), "dev")
    decide = _world_engine(out)
    codes = json.loads((out / "system" / "config.json").read_text(encoding="utf-8"))["reason_codes"]
    logging.disable(logging.WARNING)           # the engine's own WARN lines are rebuilt below
    try:
        decisions = {d["app_id"]: d for d in decide([a for a, _ in pairs])}
    finally:
        logging.disable(logging.NOTSET)
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(COLUMNS)
    for app, _t in pairs:
        d = decisions[app["app_id"]]
        row = dict(app, decision=d["decision"], reasons=";".join(d["reasons"]), monthly_income_used=d["monthly_income"],
                   dti_used=d["dti"])
        row["bankruptcy_24m"] = "Y" if app["bankruptcy_24m"] else ("N" if rng.random() < 0.8 else "")
        w.writerow([row[c] for c in COLUMNS])
    (out / "data").mkdir(parents=True, exist_ok=True)
    (out / "data" / "applications_2026-02.csv").write_text(buf.getvalue(), encoding="utf-8")

    # reconsiderations: declined self-employed on the quirky channel, plus a few in-flight ones
    auth = ["k.ostrowski", "l.feeney", "t.adeyemi", "k.ostrowski", "m.hruska (Edgewood)", "d.voss (Marion br)", "l.feeney"]
    rec = io.StringIO()
    rw = csv.writer(rec)
    rw.writerow(["date", "app_id", "by", "note", "outcome"])
    quirky = [(a, t) for a, t in pairs if t["kind"] in ("se_new_form", "se_messy") and decisions[a["app_id"]]["decision"] == "decline"]
    inflight = [(a, t) for a, t in pairs if t["kind"] == "se_inflight"]
    pick = rng.sample(quirky, min(16, len(quirky))) + rng.sample(inflight, min(4, len(inflight)))
    order = list(range(14))
    rng.shuffle(order)
    seen: set[str] = set()
    for i, (app, t) in enumerate(sorted(pick, key=lambda x: x[0]["received"])):
        d = decisions[app["app_id"]]
        received = datetime.strptime(app["received"][:10], "%Y-%m-%d")
        # looked at 1-4 days after the application, but never after the extract was taken
        day = max(received, min(received + timedelta(days=rng.randint(1, 4)), DEV_LAST_DAY))
        app = dict(app, _dti=d["dti"], _inc=d["monthly_income"], _k=order[i % 14], _reasons=d["reasons"], _day=day,
                   _codes=codes)
        note = _note(rng, app, t, params)
        for k in range(1, 14):                # two underwriters never write the same line about two files
            if note not in seen:
                break
            note = _note(rng, dict(app, _k=app["_k"] + k), t, params)
        if note in seen:
            note = f"{note} (re {app['app_id']})"
        seen.add(note)
        if t["kind"] == "se_inflight":
            outcome = rng.choice(["declined stands", "no action"]) if app["_reasons"] else rng.choice(["no action", "explained to cust", ""])
        elif policy_view(t, params) == "clears":
            outcome = rng.choice(["told to reapply at branch", "declined stands", "reapplied br - approved", "no action",
                                  "referred to ops", ""])
        else:
            outcome = rng.choice(["declined stands", "no action", "explained to cust", ""])
        rw.writerow([day.strftime(rng.choice(["%m/%d/%Y", "%Y-%m-%d", "%m/%d"])), app["app_id"], rng.choice(auth),
                     note, outcome])
    (out / "data" / "reconsiderations.csv").write_text(rec.getvalue(), encoding="utf-8")

    lines = []
    day_batches: dict = {}
    for app, _t in pairs:
        slot = app["received"][:14] + ("00" if int(app["received"][14:16]) < 30 else "30")
        day_batches.setdefault(slot, []).append(app)
    for slot in sorted(day_batches):
        apps = day_batches[slot]
        ds = [decisions[a["app_id"]] for a in apps]
        ts = slot.replace("T", " ") + f":{rng.randint(1, 59):02d}"
        for a in apps:
            raw = a["income_amount"]
            if isinstance(raw, str):
                try:
                    float(raw.replace(",", "").strip())
                except ValueError:
                    lines.append(f"{ts} WARN  prequal.income  income_amount unparseable: {raw!r} (app {a['app_id']}, {a['form']})")
        appr = sum(d["decision"] == "approve" for d in ds)
        lines.append(f"{ts} INFO  prequal.engine  batch n={len(ds)} approved={appr} declined={len(ds) - appr} policy=CC-2025-11")
    noise = [
        "2026-02-09 06:00:04 INFO  los.intake      scheduler start, interval=15m, engine=prequal (config CC-2025-11)",
        "2026-02-11 13:47:22 ERROR los.intake      LendCompass webhook 502 Bad Gateway, 3 apps queued for retry",
        "2026-02-11 14:02:09 INFO  los.intake      LendCompass retry ok (3)",
        "2026-02-16 00:00:01 INFO  los.intake      log rotated",
        "2026-02-18 09:31:40 WARN  los.intake      app BCB-26021?? duplicate submission (double click) dropped",
        "2026-02-21 02:14:55 ERROR prequal.engine  Traceback (most recent call last): ... json.decoder.JSONDecodeError: Expecting ',' delimiter: line 31 column 5 (char 702)  <- config.json edit reverted 02:20 RD",
    ]
    lines.extend(noise)
    for monday in (DEV_START, DEV_START + timedelta(days=7)):      # the Friday 17:05 OLA summary, Mon 00:00 to then
        stamp = monday + timedelta(days=4, hours=17, minutes=5)
        week = [a for a, _t in pairs if a["channel"] == "online"
                and monday <= datetime.strptime(a["received"], "%Y-%m-%dT%H:%M") <= stamp]
        old = sum(a["form"] == FORMS_OLD_ONLINE for a in week)
        lines.append(f"{stamp:%Y-%m-%d %H:%M:%S} INFO  los.intake      OLA: {len(week)} submissions this week "
                     f"(OLA-2.0 {len(week) - old}, OLA-1.9 {old} resumed)")
    lines.sort()
    (out / "logs").mkdir(parents=True, exist_ok=True)
    (out / "logs" / "prequal_intake.log").write_text("\n".join(lines) + "\n", encoding="utf-8")


def held_out(params: dict, seed: int) -> dict:
    """Four weeks of applications after hand-over, one batch per fortnight; truth stays grader-side."""
    rng = random.Random(f"heldout:{seed}:{int(params.get('world_seed', 0))}")
    weeks, truth = [], {}
    first = 2604000
    for wk in range(2):
        pairs = lending.batch(rng, params, HELD_OUT_START + timedelta(days=14 * wk), 14, first,
                              int(params["apps_per_week"]), "heldout", twins=12)
        weeks.append([a for a, _ in pairs])
        truth.update({a["app_id"]: t for a, t in pairs})
        first += len(pairs) + 17
    return {"weeks": weeks, "truth": truth}


def shadow(params: dict, day: int) -> dict:
    """One trial day of live intake, mirrored (24 Feb onward)."""
    rng = random.Random(f"shadow:{day}:{int(params.get('world_seed', 0))}")
    d0 = SHADOW_START + timedelta(days=day)
    pairs = lending.batch(rng, params, d0, 1, 2603000 + 200 * day, max(150, int(params["apps_per_week"])), "heldout", twins=4)
    return {"weeks": [[a for a, _ in pairs]], "truth": {a["app_id"]: t for a, t in pairs}, "day": d0.strftime("%a %d %b")}
