"""Procedural variants of pager_fatigue (`variant="sample:N"`).

Each sample changes one or two of the hidden truths the named variants already vary, so a router
memorised from base is wrong on it:

- contract  (rule_scope): the 3-D Secure addendum puts ThreeDSAcsErrorRate under Schedule 4 clause
  4.3 (the addendum's signing date is drawn);
- lb        (dedup_key):  lb-healthd appends a #g<generation> to the member label since its 4.2
  upgrade, so the dedup key must strip it;
- calendar  (format / calendar_trust): either the CAB feed is the iCalendar export (CONFIRMED only;
  which of CANCELLED / TENTATIVE the slot hiding a real outage carries is drawn), or the JSON feed
  is block-booked and only 'Implement' means work is happening;
- batch     (people):     the settlement batch moved earlier for the scheme cut-off (new window
  drawn from 21:30-00:00, 22:00-00:30, 22:30-01:00, 23:00-01:00 UK time; the date of the first
  run on the new slot drawn 5-12 March); February's history still shows 01:00-03:30. Dev (DBA) is
  usually on paternity leave from 2, 3 or 4 March.

Texture re-drawn on every sample: world_seed (events, ids, timings, calendar, pager log; 1..999999),
lb_flap_p (share of nights with an LB member flapping, 0.75-0.95; base 0.85) and misc_per_day (daily
warning-noise volume, low 7-9, high 14-18; base 8-16). Dev's leave is also drawn as people texture
when the batch axis is not (20%, schedule unchanged). Prose the people, briefs and the rota state is
rendered from the drawn params (prose()).

The lb axis is never drawn alone: with only the #g suffix changed, a router memorised from base
keeps ~0.7 of the uplift (named variant lb_generation), too close to the 0.8 bar once the flap
volume is re-drawn; paired with any other axis it is capped.

Not drawn: the base truth, and the hand-silence list (it is the same everywhere). The held-out
edge cases (flapping members that die, the Easter bank holidays without a batch run, certscan 3
payloads, APAC edge errors seen by the Sydney probe) are in every draw's traffic whatever the
params; the batch axis's moved windows also skip the bank holidays.
"""

from __future__ import annotations

import random
from datetime import date

from fdegym_env.tasklib.sampling import SamplerContext

CTX = SamplerContext.of(__name__)
BASE = CTX.base

SETTLEMENT_SLOTS = [("21:30", "00:00"), ("22:00", "00:30"), ("22:30", "01:00"), ("23:00", "01:00")]
CLEARING = ("05:00", "05:45")
ADDENDUM = [("1 February", "1 Feb"), ("26 January", "26 Jan"), ("16 February", "16 Feb")]
LEAVE = {2: ("2026-03-02T08:00", "2 March"), 3: ("2026-03-02T17:30", "3 March"),
         4: ("2026-03-03T17:30", "4 March")}


def _windows_text(windows: list) -> str:
    (a, b), (c, d) = windows
    return (f"{a}-{b} (settlement batch) and {c}-{d} (clearing file ingest), UK local time, "
            f"so they move with the clocks on 29 March")


def _calendar_text(windows: list, before, moved_on: str) -> str:
    """Femi's Control-M run calendar, night by night, from now to Easter."""
    (a, b), (c, d) = windows
    tail = ("Nothing runs on a bank holiday; the next are Good Friday 3 April and Easter Monday 6 April. All UK local "
            "time, so it moves with the clocks on 29 March.")
    if not before:
        return (f"settlement runs every night, weekends included, {a}-{b}, and the clearing ingest {c}-{d} every "
                f"morning; no change to the schedule this quarter. The night of 2–3 March was February's month-end "
                f"run: same slot, busier, and it finished inside it. {tail}")
    (oa, ob), day = before[0], int(moved_on.split()[0])
    first = date(2026, 3, day).strftime("%a %-d March")
    return (f"settlement runs every night, weekends included. It is in the old {oa}-{ob} slot up to the night of "
            f"{day - 1}–{day} March (the last one starts {oa} {first}); from the {day} March run it is {a}-{b}, for "
            f"the scheme's earlier cut-off, the first one starting {a} {first}. The clearing ingest is {c}-{d} every "
            f"morning, unchanged. The night of 2–3 March was February's month-end run, in the old {oa}-{ob} slot: "
            f"busier, and it finished inside it. {tail}")


def prose(p: dict) -> dict:
    """The sentences people, briefs and the rota use for this truth (p: a complete param set)."""
    out: dict = {}
    if "ThreeDSAcsErrorRate" in p["contract_alerts"]:
        long, short = p.get("addendum_signed", ADDENDUM[0])
        out["contract_alerts_text"] = ("CardAuthLatencyP99High, CardAuthErrorRate and, since the 3-D Secure addendum "
                                       f"signed on {long}, ThreeDSAcsErrorRate")
        out["contract_extra_text"] = (f" The 3DS addendum (Schedule 4A, signed {short}) put ACS challenge errors under "
                                      "the same five-minute clause.")
    else:
        out["contract_alerts_text"] = BASE["contract_alerts_text"]
        out["contract_extra_text"] = BASE["contract_extra_text"]
    out["lb_text"] = (CTX.own("lb_generation")["lb_text"] if p["lb_generation_suffix"]
                      else BASE["lb_text"])
    if p["calendar_format"] == "ics":
        out["calendar_text"] = CTX.own("calendar_ics")["calendar_text"]
    elif p["calendar_real_state"] == "Implement":
        out["calendar_text"] = CTX.own("calendar_untrusted")["calendar_text"]
    else:
        out["calendar_text"] = BASE["calendar_text"]
    out["batch_windows_text"] = _windows_text(p["batch_windows"])
    before = p.get("batch_windows_before")
    if before and [list(w) for w in before] != [list(w) for w in p["batch_windows"]]:
        (a, b), (oa, ob) = p["batch_windows"][0], before[0]
        moved = p.get("batch_moved_on") or "9 March"
        day = int(moved.split()[0])
        out["batch_change_text"] = (f"Settlement moves to {a}-{b} UK time from the {moved} run, for the scheme's "
                                    f"earlier cut-off: the night of {day - 1}–{day} March is the last in the old "
                                    f"{oa}-{ob} slot, and February's pager history shows that slot.")
        out["batch_calendar_text"] = _calendar_text(p["batch_windows"], before, moved)
    else:
        out["batch_change_text"] = BASE["batch_change_text"]
        out["batch_calendar_text"] = _calendar_text(p["batch_windows"], None, "")
    day = p.get("dba_leave_day")
    if day:
        out["dba_gone_at"], first = LEAVE[day]
        out["dba_leave_text"] = f"Dev Raghunathan is on paternity leave from {first} to 23 March."
    else:
        out["dba_gone_at"], out["dba_leave_text"] = BASE["dba_gone_at"], BASE["dba_leave_text"]
    return out


def sample(rng: random.Random) -> dict:
    """One hidden truth: 1-2 breaking changes from base, drawn from the named kinds, plus texture."""
    axes = ["contract", "lb", "calendar", "batch"]
    chosen = rng.sample(axes, rng.choice([1, 2, 2]))
    if chosen == ["lb"]:  # alone, a base router only loses the LB flap grouping (~0.7 of the uplift): pair it
        chosen.append(rng.choice(["contract", "calendar", "batch"]))
    p: dict = {}
    angles = []
    if "contract" in chosen:
        p["contract_alerts"] = ["CardAuthLatencyP99High", "CardAuthErrorRate", "ThreeDSAcsErrorRate"]
        p["addendum_signed"] = list(rng.choice(ADDENDUM))
        angles.append("rule_scope")
    if "lb" in chosen:
        p["lb_generation_suffix"] = True
        angles.append("dedup_key")
    if "calendar" in chosen:
        if rng.random() < 0.5:
            p.update({"calendar_format": "ics", "calendar_real_state": "CONFIRMED",
                      "calendar_phantom_states": rng.choice([["CANCELLED", "TENTATIVE"], ["TENTATIVE", "CANCELLED"]]),
                      "calendar_trusted_states": ["CONFIRMED"]})
            angles.append("format")
        else:
            p.update({"calendar_real_state": "Implement", "calendar_phantom_states": ["Scheduled", "Scheduled", "Cancelled"],
                      "calendar_trusted_states": ["Implement"]})
            angles.append("calendar_trust")
    if "batch" in chosen:
        p["batch_windows"] = [list(rng.choice(SETTLEMENT_SLOTS)), list(CLEARING)]
        p["batch_windows_before"] = [list(w) for w in BASE["batch_windows"]]
        p["batch_moved_on"] = "%d March" % rng.randint(5, 12)
        p["dba_leave_day"] = rng.choice([2, 2, 3, 4, None])
        angles.append("people")
    elif rng.random() < 0.2:
        p["dba_leave_day"] = rng.choice([2, 3, 4])
    # texture
    p["world_seed"] = rng.randrange(1, 1_000_000)
    p["lb_flap_p"] = round(rng.uniform(0.75, 0.95), 2)
    p["misc_per_day"] = [rng.randint(7, 9), rng.randint(14, 18)]
    full = dict(BASE)
    full.update(p)
    p.update(prose(full))
    return {"angle": "+".join(angles), "params": p, "right_here": []}
