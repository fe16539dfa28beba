"""November's history for the outage_notify workspace: what ONS v1 did with the OMS feed, what the
call centre heard back, and the mail that started the engagement. Written by traffic.dev; every
line comes from replaying the dev events through the v1 behaviour against the network as it was
really operated (the variant's transfers plus the storm's SCADA switching)."""

from __future__ import annotations

import random
from datetime import timedelta
from pathlib import Path

from . import on_net
from . import traffic as tr

AGENTS_IN = ["tnguyen", "rcastillo", "jwhitfield", "kamari", "dlutz", "sbegay", "mpoole"]
AGENTS_OUT = ["R. Castillo", "K. Amari", "D. Lutz", "M. Poole", "L. Ferreira"]


def _v1(ev: dict, custs: list[dict]) -> tuple[list[dict], list[dict]]:
    """What ONS v1 does with a lockout: GIS normal state, texts everyone, calls MB+LS by account."""
    hit = on_net.gis_affected(ev["device"], custs)
    calls = sorted((c for c in hit if c["med_code"] in ("LS", "MB")), key=lambda c: int(c["account"]))
    return hit, calls


def _ts_variants(rng: random.Random, t) -> str:
    return rng.choice([t.strftime("%m/%d/%Y %H:%M"), t.strftime("%Y-%m-%d %H:%M:%S"), t.strftime("%m/%d/%y %I:%M %p"),
                       t.strftime("%d-%b-%Y %H:%M")])


OPEN_MISSED = ["cust says power out since {h}", "Caller reports outage", "called in - out since approx {h}",
               "CUST UPSET", "out on {st}", "pwr out at premise", "customer rang re outage", "Lights out on {st}, neighbors too",
               "she's been out since {h}", "outage reported by tenant", "caller (son of acct holder) says out since {h}"]
MID_MISSED = ["never got text", "did not receive any msg", "no txt", "no notification of any kind", "no alert",
              "nothing from us, no text no call", "says signed up for alerts yrs ago, got nothing", "no msg rcvd",
              "asked why we didnt tell him", "outage map shows nothing for the address??", "map says no outage"]
END_MISSED = ["verified # on file ok", "phone # confirmed {ll}", "created trouble tkt", "told her we'd look into it",
              "escalated to sup", "", "", "gave ETR from OMS", "no ETR available", "apologized", "logged for ONS team"]
WR_OPEN = ["got outage text but power is ON at {st}", "cust rec'd outage alert", "says we texted him about an outage",
           "rcvd text re outage on {fd}??", "false alarm text", "lights on, got outage msg at {h}", "NOT OUT. received alert",
           "Power on at premise", "text said outage in your area", "she's fine, got our outage text"]
WR_MID = ["no outage at premise", "everything on", "2nd time this month", "asked if it was a scam", "confused",
          "neighbors on {st} same", "just wanted to check", "wants explanation", "tv on the whole time"]
WR_END = ["explained", "asked to remove from list", "told him we'd check the map", "", "", "apologized",
          "logged for ONS team", "sent to sup"]
NOTES_DUP = [
    "got 2 texts 15 min apart for same outage, thinks it's a new outage",
    "received same outage msg twice. asked us to stop double texting",
    "Cust got duplicate alerts ({n}), wanted to know if it got worse",
    "3 texts in half an hour, no ETR in any of them. annoyed",
    "duplicate outage text, same wording. was it a second outage? (no, same OMS inc)",
    "2nd text re same outage woke the baby. not happy",
]
DUP_END = ["explained ONS sends an update per OMS change", "", "apologized", "told her it's one outage", "logged for ONS team",
           "asked to only get one text", "gave ETR from OMS", "sent to sup", "", "cust ok after explanation"]
LL_OPEN = ["no txt", "never gets the texts", "didn't get the outage msg", "no alert again", "says we never tell her",
           "out since {h}, nothing from us"]
LL_MID = ["# on file is a home landline", "landline only, no cell", "number is a landline (checked CIS)",
          "only has the house phone", "elderly cust, landline", "cust has no mobile - landline", "landline #"]
LL_END = ["offered to update, has no cell", "asked for a phone call instead", "updated notes", "", "asked if we can call",
          "son will give us his cell maybe", "told him texts can't reach a landline"]


def write(out: Path, params: dict, custs: list[dict], evs: list[dict], rng: random.Random) -> None:
    by_acct = {c["account"]: c for c in custs}
    truth = {ev["event_id"]: {c["account"] for c in hit} for ev, hit in on_net.replay(evs, params, custs)}
    log: list[tuple] = []
    inbound: list[dict] = []
    outbound: list[dict] = []
    queue = on_net.CallQueue(params)
    told: dict[str, set] = {}
    near_miss = None
    log.append((tr.parse(evs[0]["ts"]) - timedelta(hours=3), "INFO  ons.gis        gis_extract loaded: "
                f"{len(custs)} service points, {len(on_net.devices())} devices (extract 2026-11-01 02:15)"))
    for ev in evs:
        t = tr.parse(ev["ts"])
        if ev["type"] == "SWITCH":
            log.append((t, f"INFO  oms-bridge     {ev['event_id']} SWITCH {ev['device']} {ev['state']} ({ev['source']}) "
                           "- not applied, GIS is master"))
            continue
        if ev["type"] == "MOMENTARY":
            if rng.random() < 0.4:
                log.append((t, f"DEBUG ons.planner    {ev['event_id']} MOMENTARY {ev['device']} ignored"))
            continue
        if ev["type"] == "RESTORE":
            if rng.random() < 0.3:
                log.append((t, f"INFO  oms-bridge     {ev['event_id']} RESTORE {ev['device']} inc={ev['incident']} "
                               "(no restoration msg configured)"))
            continue
        hit, calls = _v1(ev, custs)
        really = truth[ev["event_id"]]
        sent = {c["account"] for c in hit}
        log.append((t + timedelta(seconds=rng.randint(40, 95)),
                    f"INFO  ons.planner    {ev['event_id']} LOCKOUT {ev['device']} ({ev['feeder']}) inc={ev['incident']} "
                    f"src={ev['source']} -> {len(hit)} sms, {len(calls)} agent"))
        failed = [c for c in hit if c["phone_type"] == "landline"]
        for c in failed[:6]:
            log.append((t + timedelta(seconds=rng.randint(100, 400)),
                        f"WARN  twilio.status  SM{rng.getrandbits(64):016x} to=+1{c['phone'].replace('-', '')} "
                        "status=undelivered ErrorCode=30006"))
        if len(failed) > 6:
            log.append((t + timedelta(seconds=401), f"WARN  twilio.status  ... {len(failed) - 6} more 30006 for "
                                                    f"{ev['event_id']} suppressed"))
        for c in calls:
            start = queue.start(t)
            wait = int((start - t).total_seconds() // 60)
            outbound.append({"campaign": "OB-OUTAGE", "oms_incident": ev["incident"], "account": c["account"],
                             "med_code": c["med_code"], "queued": t.strftime("%Y-%m-%d %H:%M"),
                             "dialled": start.strftime("%Y-%m-%d %H:%M"), "wait_min": wait,
                             "agent": rng.choice(AGENTS_OUT[:2] if on_net.is_night(start.hour, params) else AGENTS_OUT),
                             "outcome": rng.choice(["REACHED", "REACHED", "REACHED", "VOICEMAIL", "NO ANSWER"])})
        prior = told.setdefault(ev["incident"], set())
        # the call centre hears about it
        for a in sorted(really - sent):
            c = by_acct[a]
            if rng.random() < 0.1:
                inbound.append(_call(rng, t, c, "NO_NOTIFY", None, ev))
            if c["med_code"] == "LS" and near_miss is None and t.day >= 8:
                near_miss = (ev, c, t)
        for a in sorted(sent - really - prior):
            if rng.random() < 0.05:
                inbound.append(_call(rng, t, by_acct[a], "FALSE_ALERT", "wrong", ev))
        for a in sorted(sent & prior):
            if rng.random() < 0.03:
                inbound.append(_call(rng, t, by_acct[a], "DUP_MSG", NOTES_DUP, ev))
        for c in failed:
            if c["account"] in really and rng.random() < 0.12:
                inbound.append(_call(rng, t, c, "NO_NOTIFY", "landline", ev))
        prior |= sent
    log += [(tr.DEV_START + timedelta(days=4, hours=2, minutes=15), "INFO  ons.gis        gis_extract reloaded: "
             "no change (extract 2026-11-06 02:15)"),
            (tr.DEV_START + timedelta(days=9, hours=11, minutes=3), "ERROR ons-dispatch   Genesys OB API 503, retry 1/5"),
            (tr.DEV_START + timedelta(days=9, hours=11, minutes=4), "INFO  ons-dispatch   Genesys OB API ok, 14 rows pushed"),
            (tr.DEV_START + timedelta(days=17, hours=16, minutes=20), "WARN  twilio         429 Too Many Requests "
             "(short code 73377 throughput 30 msg/s), backing off 2s"),
            (tr.DEV_START + timedelta(days=21, hours=2, minutes=15), "INFO  ons.gis        gis_extract reloaded: "
             "3 service points changed (new connects), devices unchanged (extract 2026-11-23 02:15)")]
    log.sort(key=lambda x: x[0])
    (out / "logs").mkdir(parents=True, exist_ok=True)
    (out / "logs" / "ons.log").write_text("".join(f"{t.strftime('%Y-%m-%dT%H:%M:%S')}-08:00 {m}\n" for t, m in log),
                                          encoding="utf-8")
    cc = out / "data" / "call_centre"
    cc.mkdir(parents=True, exist_ok=True)
    inbound.sort(key=lambda r: r["_t"])
    for i, r in enumerate(inbound):
        r["call_id"] = f"IC{2611000 + i * 7 + rng.randrange(7)}"
    _distinct_notes(inbound)
    (cc / "inbound_outage_calls_2026-11.csv").write_text(
        tr._csv(inbound, ["call_id", "received", "agent", "account", "premise", "reason", "oms_ref", "notes"]), encoding="utf-8")
    (cc / "ob_outage_campaign_2026-11.csv").write_text(
        tr._csv(outbound, ["campaign", "oms_incident", "account", "med_code", "queued", "dialled", "wait_min", "agent", "outcome"]),
        encoding="utf-8")
    _near_miss_mail(out, near_miss, params)


def _with_ending(note: str, rng: random.Random, endings: list[str]) -> str:
    end = rng.choice(endings)
    return f"{note}{rng.choice([', ', '. ', ' - ', '; '])}{end}" if end else note


def _distinct_notes(rows: list[dict]) -> None:
    """Two agents never log the very same words about two calls: a repeat gets the street, then the OMS ref."""
    seen: set[str] = set()
    for r in rows:
        note, street = r["notes"], r["premise"].split(" ", 1)[1]
        for cand in (note, f"{note} ({street})", f"{note} ({street}, {r['oms_ref'] or 'no OMS ref'})",
                     f"{note} ({street}, {r['call_id']})"):
            if cand.lower() not in seen:
                break
        seen.add(cand.lower())
        r["notes"] = cand


def _call(rng: random.Random, t, c: dict, reason: str, notes: list[str], ev: dict) -> dict:
    when = t + timedelta(minutes=rng.randint(6, 95))
    st = c["premise"].split(" ", 1)[1]
    if notes is None or isinstance(notes, str):
        lists = {None: (OPEN_MISSED, MID_MISSED, END_MISSED), "landline": (LL_OPEN, LL_MID, LL_END),
                 "wrong": (WR_OPEN, WR_MID, WR_END)}[notes]
        parts = [rng.choice(x) for x in lists]
        pick = rng.choice([", ", ". ", " - ", "; "])
        note = pick.join(p for p in parts if p)
    else:
        note = rng.choice(notes)
        # how the agent finished the note: a separate draw, so the call log's own sequence is unchanged
        note = _with_ending(note, random.Random(f"{c['account']}|{when.isoformat()}"), DUP_END)
    note = note.format(h=(t - timedelta(minutes=rng.randint(0, 10))).strftime("%-I:%M"), st=st,
                                    fd=ev["feeder"], n=rng.choice(["2", "two", "3"]),
                                    ll="landline" if c["phone_type"] == "landline" else "cell")
    if rng.random() < 0.15:
        note = note.upper() if rng.random() < 0.3 else note.replace("cust", "customer")
    return {"_t": when, "received": _ts_variants(rng, when), "agent": rng.choice(AGENTS_IN), "account": c["account"],
            "premise": c["premise"], "reason": reason if rng.random() > 0.08 else "OTHER",
            "oms_ref": ev["incident"] if rng.random() < 0.6 else "", "notes": note}


def _near_miss_mail(out: Path, near: tuple | None, params: dict) -> None:
    if near is None:
        return
    ev, c, t = near
    st = c["premise"]
    body = f"""From: Marisol Vance <mvance@sierrafoothillpower.com>
Sent: {(t + timedelta(days=2)).strftime('%A, %B %-d, %Y')} 8:52 AM
To: ONS Project <ons-project@sierrafoothillpower.com>
Subject: FW: Life support customer - no call during outage {ev['incident']}

Adding this to the pile for whoever picks up the ONS work. This is exactly why I want every customer on
the feeder texted. We cannot have this happen again.

Marisol

-----Original Message-----
From: Wendell Pruitt
Sent: {(t + timedelta(days=2)).strftime('%A, %B %-d, %Y')} 7:05 AM
To: Annette Lindqvist; Marisol Vance
Subject: RE: Life support customer - no call during outage {ev['incident']}

Campaign wasn't down, my night team worked every row ONS gave us for {ev['incident']}. Her account
was not on it. I can't call who I'm not given. Marisol can you get IT to look at why.

W.

-----Original Message-----
From: Annette Lindqvist
Sent: {(t + timedelta(days=1)).strftime('%A, %B %-d, %Y')} 4:31 PM
To: Marisol Vance; Wendell Pruitt
Cc: Customer Programs
Subject: RE: Life support customer - no call during outage {ev['incident']}

Marisol, Wendell -

The daughter of our customer at {st} (acct {c['account']}, certified life support, oxygen concentrator)
rang the Programs line this afternoon. Her mother was without power from about {t.strftime('%-I:%M %p')} on
{t.strftime('%A')} the {t.day}th and nobody called. She had a backup cylinder, thankfully. Our records show no outbound call,
no text, nothing. The outage map showed her area as ON the whole time.

This is a reportable near miss under our own program standard. I need to know why she wasn't on the call
list. Was the campaign down?

Annette
"""
    (out / "docs" / "mail").mkdir(parents=True, exist_ok=True)
    (out / "docs" / "mail" / "FW_life_support_no_call.txt").write_text(body, encoding="utf-8")
