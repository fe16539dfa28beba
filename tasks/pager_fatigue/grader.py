"""Grader for pager_fatigue: replay four weeks of monitoring events through the delivered router.

KPI = on-call burden, points per on-call night (lower is better):
    fatigue  = sum over pages of an hour weight (Europe/London wall clock:
               23:00-07:00 -> 3, 07:00-09:00 and 19:00-23:00 -> 2, 09:00-19:00 -> 1) / nights
    response = 0.1 * sum over real incidents of severity weight (sev1 10, sev2 4, sev3 1)
               x minutes from the incident's first event to its first page
               (ticket only: 240 min; never paged nor ticketed: 480 min; capped at 480) / nights
    burden   = fatigue + response
Incidents (cap U at 0): a sev-1 not paged within 5 minutes; a contract-bound alert's real
incident not paged within 5 minutes; any contract-bound alert suppressed; malformed output (declared
in task.yaml and checked by tasklib.replay: alertbridge rejects the whole shift on any bad decision).
"""
from __future__ import annotations

from fdegym_env.tasklib import evaluation
from fdegym_env.tasklib.timeutil import local, parse_iso, utc

SEV_W = {"sev1": 10, "sev2": 4, "sev3": 1}
TICKET_MIN = 240
MISSED_MIN = 480
RESPONSE_COEF = 0.1
SLA_MIN = 5.0


def hour_weight(dt):
    h = local(dt).hour
    return 3.0 if h >= 23 or h < 7 else 2.0 if h < 9 or h >= 19 else 1.0


def _ts(s):
    return utc(parse_iso(s))


def evaluate(decide, params: dict, traffic) -> dict:
    """Replay every shift through ``decide``; shared by grade() and the trial (``_shifts``: per shift
    its events, truth, decisions (None when rejected), and the crash or problem)."""
    contract = set(traffic.get("contract_alerts") or [])
    meta = traffic["incidents"]
    nights = max(1, len(traffic["days"]))
    fatigue, pages, failed_days = 0.0, 0, 0
    first_page, ticketed, per_alert_pages = {}, set(), {}
    contract_suppressed, incidents, shifts = [], [], []
    for day in traffic["days"]:
        batch = day["batch"]
        events = batch["events"]
        reply = decide(batch)      # task.yaml: any bad decision rejects the whole shift (reply.rejected)
        acts = {i: d["action"] for i, d in reply.decisions.items()}
        problem = "; ".join(reply.malformed[:2]) + (" ..." if len(reply.malformed) > 2 else "") if reply.rejected else None
        failed_days += bool(problem or not reply.ok)
        shifts.append({"label": batch["shift_start"][:10], "events": events, "truth": day["truth"],
                       "acts": acts if reply.ok and not problem else None, "error": reply.error, "problem": problem})
        for e in events:
            a = acts.get(e["id"])
            t = _ts(e["ts"])
            iid = day["truth"].get(e["id"])
            if a == "page":
                pages += 1
                fatigue += hour_weight(t)
                per_alert_pages[e["alert"]] = per_alert_pages.get(e["alert"], 0) + 1
                if iid and (iid not in first_page or t < first_page[iid]):
                    first_page[iid] = t
            elif a == "ticket" and iid:
                ticketed.add(iid)
            if a == "suppress" and e["alert"] in contract:
                contract_suppressed.append(e["id"])

    response = 0.0
    late = []
    per_inc = {}
    for iid, m in sorted(meta.items()):
        start = _ts(m["start"])
        if iid in first_page:
            delay = min(MISSED_MIN, max(0.0, (first_page[iid] - start).total_seconds() / 60.0))
        else:
            delay = TICKET_MIN if iid in ticketed else MISSED_MIN
        per_inc[iid] = round(delay, 1)
        response += SEV_W[m["sev"]] * delay
        if delay > SLA_MIN and (m["sev"] == "sev1" or m["alert"] in contract):
            late.append((iid, m, delay))
    for iid, m, delay in late:
        what = "sev1_not_paged_5min" if m["sev"] == "sev1" else "contract_alert_not_paged_5min"
        incidents.append("%s: %s %s on %s at %s (%s)" % (
            what, iid, m["alert"], m["instance"], m["start"],
            "paged after %.0f min" % delay if iid in first_page else "never paged"))
    if contract_suppressed:
        incidents.append("contract_alert_suppressed: %d card-scheme-bound alert events suppressed (e.g. %s)"
                         % (len(contract_suppressed), contract_suppressed[0]))

    fat_n = fatigue / nights
    resp_n = RESPONSE_COEF * response / nights
    kpi = round(fat_n + resp_n, 4)
    paged_real = sum(1 for i in meta if i in first_page)
    return {
        "kpi": kpi,
        "incidents": incidents,
        "summary": "%.1f burden/night: %d pages (%.1f weighted/night), %d/%d real incidents paged, response %.1f/night%s"
                   % (kpi, pages, fat_n, paged_real, len(meta), resp_n,
                      (", %d shifts failed" % failed_days) if failed_days else ""),
        "details": {"pages": pages, "pages_per_night": round(pages / nights, 2), "fatigue_per_night": round(fat_n, 3),
                    "response_per_night": round(resp_n, 3), "real_incidents": len(meta), "real_paged": paged_real,
                    "delay_min": per_inc, "failed_shifts": failed_days, "pages_by_alert": per_alert_pages},
        "_shifts": shifts,
    }


grade = evaluation.grader(evaluate)
