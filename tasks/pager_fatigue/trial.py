"""One shadow night: the delivered router runs beside production on one shift of shadow traffic;
Kasia (on-call) and whoever else noticed report back in their own words. Never the answer key."""
from __future__ import annotations

from collections import Counter

from fdegym_env.tasklib import evaluation

from . import grader

CHASED_BY = {"lag_real": "the fraud team", "card_latency": "Dunmore's service desk", "card_errors": "Dunmore's service desk",
             "threeds": "an airline merchant", "apigw": "two merchants", "synth_real": "merchant support"}


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
        by_key = Counter()
        night = 0
        for e in events:
            if acts[e["id"]] == "page":
                stats["pages"] += 1
                if g.hour_weight(g._ts(e["ts"])) >= 3:
                    night += 1
                by_key[(e["alert"], e.get("instance") or "-")] += 1
        stats["night_pages"] += night
        lines.append("Kasia: shadow shift -> %d pages, %d of them between 23:00 and 07:00."
                     % (sum(by_key.values()), night))
        for (alert, inst), n in by_key.most_common(3):
            if n >= 4:
                lines.append("  %s on %s paged %d times. Same thing every time, and each page had its own dedup key "
                             "in the shadow log." % (alert, inst, n) if alert == "LBHealthCheckFailed" else
                             "  %s on %s paged %d times." % (alert, inst, n))
                if alert == "LBHealthCheckFailed":
                    facts.append("F_dedup_key")
        lag_pages = sum(n for (a, i), n in by_key.items() if a == "PgReplicationLagHigh")
        if lag_pages >= 3:
            lines.append("  The usual overnight replica lag paged %d times. Femi says the settlement batch was running." % lag_pages)
        cert_pages = sum(n for (a, i), n in by_key.items() if a == "CertExpirySoon")
        if cert_pages >= 2:
            lines.append("  The midnight cert scan still paged %d times; I thought those were meant to be tickets now." % cert_pages)
        # real things: what people noticed
        first_page = {}
        for e in events:
            iid = shift["truth"].get(e["id"])
            if iid and acts[e["id"]] == "page":
                t = g._ts(e["ts"])
                if iid not in first_page or t < first_page[iid]:
                    first_page[iid] = t
            if e["alert"] in contract and acts[e["id"]] == "suppress":
                lines.append("Aisling: I was reading the shadow log — a %s at %s UTC was suppressed. On a real night that "
                             "is a Schedule 4 breach." % (e["alert"], e["ts"][11:16]))
        for iid, m in traffic["incidents"].items():
            start = g._ts(m["start"])
            if iid in first_page:
                delay = (first_page[iid] - start).total_seconds() / 60
                if delay > 5:
                    lines.append("Kasia: production caught the %s at %s UTC straight away; the shadow router only paged "
                                 "%.0f minutes later." % (m["summary"], m["start"][11:16], delay))
            else:
                lines.append("Kasia: %s chased us about %s (started %s UTC). Production paged for it; the shadow "
                             "router didn't." % (CHASED_BY.get(m["kind"], "the day team"), m["summary"], m["start"][11:16]))
    return {"feedback": "\n".join(lines), "facts": sorted(set(facts)), "topics": [], "stats": stats, "extra_cost": 0.0}
