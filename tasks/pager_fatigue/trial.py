"""One shadow night: the delivered router runs beside production on one shift of shadow traffic;
Kasia (on-call) and whoever else noticed report back in their own words. Never the answer key."""
from __future__ import annotations

from datetime import date

from fdegym_env.tasklib import evaluation
from fdegym_env.tasklib.timeutil import local

from . import grader
from . import traffic as world

SHOWN = 5   # pages named per line; the count is always the whole shift's

CHASED_BY = {"lag_real": "the fraud team", "card_latency": "Dunmore's service desk", "card_errors": "Dunmore's service desk",
             "threeds": "an airline merchant", "apigw": "two merchants", "synth_real": "merchant support"}


def _uk(ts: str) -> str:
    return local(grader._ts(ts)).strftime("%H:%M")


def _listed(items: list) -> str:
    """the first SHOWN of ``items`` (already in time order), "(k of n shown)" when that is not all."""
    more = " (%d of %d shown)" % (SHOWN, len(items)) if len(items) > SHOWN else ""
    return "; ".join(items[:SHOWN]) + more


def _batch(runs: list, ts: str) -> str:
    t = grader._ts(ts)
    return next((job for job, w0, w1 in runs if w0 <= t < w1), "no batch running")


def run(deploy, params: dict, day: int, traffic) -> dict:
    g = grader
    contract = set(traffic.get("contract_alerts") or [])
    lines = []
    facts = []
    stats = {"pages": 0, "night_pages": 0, "crashed": False, "malformed": False}
    for shift in evaluation.evaluate_on(deploy, g.evaluate, params, traffic)["_shifts"]:
        events, acts = shift["events"], shift["acts"]
        if shift["problem"]:
            stats["malformed"] = True
            lines.append("Kasia: alertbridge rejected the shadow router's answer for the shift (%s) - in production "
                         "that means every event pages." % (shift["problem"],))
            continue
        if acts is None:
            stats["crashed"] = True
            lines.append("Kasia: the shadow router fell over on the shift, so alertbridge would have failed open "
                         "and paged all %d events. Error from the bridge log: %s" % (len(events), str(shift["error"])[-300:]))
            continue
        paged = sorted((e for e in events if acts[e["id"]] == "page"), key=lambda e: grader._ts(e["ts"]))
        by_key: dict = {}
        for e in paged:
            stats["pages"] += 1
            by_key.setdefault((e["alert"], e.get("instance") or "-"), []).append(e)
        night = sum(1 for e in paged if g.hour_weight(g._ts(e["ts"])) >= 3)
        stats["night_pages"] += night
        lines.append("Kasia: shadow shift -> %d pages, %d of them between 23:00 and 07:00 (UK time)." % (len(paged), night))
        own_line = ("PgReplicationLagHigh", "CertExpirySoon")
        repeats = sorted(((k, v) for k, v in by_key.items() if k[0] not in own_line and len(v) >= 4),
                         key=lambda kv: -len(kv[1]))
        for (alert, inst), evs in repeats:     # every key that paged 4+ times
            times = _listed([_uk(e["ts"]) for e in evs])
            if alert == "LBHealthCheckFailed":
                lines.append("  %s on %s paged %d times, at %s. Same thing every time, and each page had its own "
                             "dedup key in the shadow log." % (alert, inst, len(evs), times))
                facts.append("F_dedup_key")
            else:
                lines.append("  %s on %s paged %d times, at %s." % (alert, inst, len(evs), times))
        lag = [e for e in paged if e["alert"] == "PgReplicationLagHigh"]
        if lag:
            runs = world.batch_runs(params, date.fromisoformat(shift["label"]))
            named = ["%s on %s, lag %.0fs (%s)" % (_uk(e["ts"]), e.get("instance"), e.get("value") or 0,
                                                   _batch(runs, e["ts"])) for e in lag]
            lines.append("  PgReplicationLagHigh paged %s: %s. (Batch times from Femi's Control-M calendar.)"
                         % ("once" if len(lag) == 1 else "%d times" % len(lag), _listed(named)))
        certs = [e for e in paged if e["alert"] == "CertExpirySoon"]
        if len(certs) >= 2:
            lines.append("  The midnight cert scan still paged %d times: %s. I thought those were meant to be tickets "
                         "now." % (len(certs), _listed(["%s %s" % (_uk(e["ts"]), e.get("instance")) for e in certs])))
        # real things: what people noticed
        first_page = {}
        for e in events:
            iid = shift["truth"].get(e["id"])
            if iid and acts[e["id"]] == "page":
                t = g._ts(e["ts"])
                if iid not in first_page or t < first_page[iid]:
                    first_page[iid] = t
            if e["alert"] in contract and acts[e["id"]] == "suppress":
                lines.append("Aisling: I was reading the shadow log — a %s on %s at %s UK time was suppressed. On a real "
                             "night that is a Schedule 4 breach." % (e["alert"], e.get("instance"), _uk(e["ts"])))
        for iid, m in traffic["incidents"].items():
            start = g._ts(m["start"])
            if iid in first_page:
                delay = (first_page[iid] - start).total_seconds() / 60
                if delay > 5:
                    # the delay is counted from the incident's first event, whatever production did then
                    lines.append("Kasia: the %s (%s on %s) began at %s UK time with its first alert; the shadow "
                                 "router only paged %.0f minutes later, at %s." % (
                                     m["summary"], m["alert"], m["instance"], _uk(m["start"]), delay,
                                     local(first_page[iid]).strftime("%H:%M")))
            else:
                lines.append("Kasia: %s chased us about %s (%s on %s, started %s UK time). Production paged for it; "
                             "the shadow router didn't." % (CHASED_BY.get(m["kind"], "the day team"), m["summary"],
                                                           m["alert"], m["instance"], _uk(m["start"])))
    return {"feedback": "\n".join(lines), "facts": sorted(set(facts)), "topics": [], "stats": stats, "extra_cost": 0.0}
