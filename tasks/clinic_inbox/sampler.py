"""Procedural variants of clinic_inbox (`variant="sample:N"`).

Each sample changes one or two of the hidden truths the named variants already vary, so a router
memorised from base breaks on it, and renders what people, briefs and the policy folder say about it
(the _*_prose functions below):

- red-flag list (people / rule): 1-3 extra categories on top of v3 (maternity, sudden headache,
  infant fever, cauda equina, meningitis signs, sudden sight loss, testicular pain, diabetic
  emergency); the list is either now Nadia's (handed over in February) or still Dr Okafor's as a
  v4 - whoever owns it is the only one who gives the full list.
- controlled drugs (rule_scope): Sch 2-3 plus part of Schedule 4 - all benzodiazepines and
  Z-drugs, benzodiazepines only, or Z-drugs only - after a named audit/SEA.
- pharmacy capacity (capacity): the desk takes 20-35 repeats a day (about 50-75% of a weekday's
  repeats, rounded to 5), for a reason that does not contradict the March rota.
- opening hours (hours): 1-2 weekday evenings to 19:30/20:00, maybe a 07:00/07:30 early start on
  one day, maybe Saturday morning at one site (at least one extension, always a nurse on the line).
- out-of-hours wording (stale_doc): a v4 safety-netting text (one of four) approved after the v3
  in the policy folder; only Kerry has the text (the folder's v3 is stamped superseded, with v4's date).

Texture re-drawn every time: world_seed (dev export, held-out and shadow traffic), weekday volume
135-165 and weekend volume 42-58 messages a day, red-flag share x0.85-1.15, repeat share x0.9-1.1.
The texture is re-drawn (same structure) while the held-out weeks would pile so many red flags into
one closed stretch that a single duty nurse, taking red flags first, could not open them all within
the 60-minute standard with 10 minutes to spare (reference_can_meet_sla; ~25% of draws).
Not drawn: the SLA (Dr Okafor's 60 minutes is fixed text), nurse-line staffing, the templates, and
the base truth itself (every sample must break a base-memorised router).
"""

from __future__ import annotations

import datetime as dt
import random

from fdegym_env.tasklib.sampling import SamplerContext, redraw_until

from . import grader as G
from . import traffic as T

CTX = SamplerContext.of(__name__)
BASE = CTX.base

# ------------------------------------------------------------------------------ red flags
CAT_LABEL = {"chest": "CHEST", "breathing": "BREATHING", "stroke": "STROKE", "bleeding": "BLEEDING",
             "anaphylaxis": "ANAPHYLAXIS", "collapse": "COLLAPSE", "mental_health_crisis": "MENTAL HEALTH CRISIS",
             "sepsis": "SEPSIS", "maternity": "MATERNITY", "headache": "HEADACHE", "infant_fever": "INFANT FEVER",
             "cauda_equina": "CAUDA EQUINA", "meningitis": "MENINGITIS SIGNS", "sight_loss": "SUDDEN SIGHT LOSS",
             "testicular": "TESTICULAR PAIN", "diabetic": "DIABETIC EMERGENCY"}
CAT_WORDS = {"maternity": "maternity", "headache": "sudden headache", "infant_fever": "infant fever",
             "cauda_equina": "cauda equina", "meningitis": "meningitis signs", "sight_loss": "sudden sight loss",
             "testicular": "testicular pain", "diabetic": "diabetic emergencies"}
EXTRA_FLAGS = {
    "maternity": ["bleeding in pregnancy", "pregnant and bleeding", "baby isn't moving as much", "reduced movements"],
    "headache": ["worst headache of my life", "sudden severe headache", "thunderclap headache"],
    "infant_fever": ["baby has a temperature", "baby is really hot"],
    "cauda_equina": ["numb around my bottom", "can't control my bladder", "saddle numbness"],
    "meningitis": ["stiff neck and a rash", "can't bear the light", "neck is really stiff"],
    "sight_loss": ["sudden loss of vision", "lost the sight in one eye", "curtain coming down over my eye"],
    "testicular": ["sudden pain in my testicle", "testicle is swollen"],
    "diabetic": ["ketones are high", "blood sugar is over 20", "being sick and can't keep fluids down"],
}
WHY_ADDED = {
    "maternity": "the maternity audit", "headache": "the subarachnoid case the coroner wrote to us about",
    "infant_fever": "the health visitors' feedback", "cauda_equina": "the LMC's cauda equina alert",
    "meningitis": "the UKHSA meningitis letter", "sight_loss": "the eye-casualty near miss",
    "testicular": "the torsion case in the urology audit", "diabetic": "the DKA admission in January",
}
V3_SHORT = ("chest pain/tightness/crushing/heavy chest; breathlessness incl. lips gone blue; stroke signs; "
            "coughing/vomiting blood, black tarry poo, bleeding that won't stop; anaphylaxis; collapse/fit/seizure; "
            "mental-health crisis; sepsis signs")


# how patients write the list (traffic.INFLECT): the owner says so, with the one wording that is not
# the list's own words with a plural or -ing ending ("coughing up bloody phlegm" is coughing up blood)
GENEROUS_OKAFOR = ("Match generously - patients don't write it word for word: 'chest pains', 'cant breathe', "
                   "'coughing up bloody phlegm' all count. A false alarm costs Nadia five minutes, a miss costs a patient.")
GENEROUS_NADIA = ("Match generously - patients don't write my list word for word: 'chest pains', 'cant breath properly', "
                  "'coughing up bloody phlegm' all count. A false red banner costs me five minutes, a miss costs a patient.")


def _and(xs: list) -> str:
    return xs[0] if len(xs) == 1 else ", ".join(xs[:-1]) + " and " + xs[-1]


def _cat_line(cat: str, phrases: list) -> str:
    return f"{CAT_LABEL[cat]} - {', '.join(phrases)}."


def _rf_prose(p: dict) -> dict:
    flags = p["red_flags"]
    extras = [c for c in flags if c not in BASE["red_flags"]]
    listing = " ".join(_cat_line(c, flags[c]) for c in BASE["red_flags"])
    added = " ".join(_cat_line(c, flags[c]) for c in extras)
    why = _and(sorted({WHY_ADDED[c] for c in extras}))
    month = p["rf_added_month"]
    extra_text = "; ".join(f"{CAT_WORDS[c]} ({', '.join(flags[c])})" for c in extras)
    out = {"red_flag_text": f"the v3 list ({V3_SHORT}) PLUS the {month} 2026 additions: {extra_text}"}
    if p["rf_owner_id"] == "nadia":
        out["rf_owner"] = f"Nadia Brennan (lead practice nurse), who took over the list in {month} 2026"
        out["rf_answer_okafor"] = (
            "Thanks for the examples - yes, those should never have sat in the admin queue. But the red-flag list "
            f"isn't mine any more: Nadia took it over in {month} when she became nurse lead for triage, and she's "
            "added to it since. Get the current version from her, not from me and not from the v2 sheet in the folder.")
        out["rf_answer_nadia"] = (
            f"It's mine since {month} - Funmi handed it over. Current list, anything in the subject OR the body: "
            f"{listing} And what I added in {month} after {why}: {added} {GENEROUS_NADIA}")
    else:
        out["rf_owner"] = "Dr Funmilayo Okafor (GP partner, clinical lead)"
        out["rf_answer_okafor"] = (
            "Right, I've looked at those - that's exactly what the SEA was about. The current list is v4: the v3 "
            f"one from SEA-2025-14 plus what we added at governance in {month} after {why}. It's what the care "
            "navigators are trained on, and it applies to anything in the message, subject or body: "
            f"{listing} {added} The v2 sheet in the policy folder is two versions out of date. {GENEROUS_OKAFOR}")
        out["rf_answer_nadia"] = (
            "We work off Funmi's list - chest pain, can't breathe, stroke signs, bleeding, swelling lips/throat, "
            f"collapse, the mental-health and sepsis ones from the SEA, and she added {_and([CAT_WORDS[c] for c in extras])} "
            f"in {month}. I wouldn't build anything off my memory of it though; the exact wording is hers, ask her for v4.")
    return out


# ------------------------------------------------------------------------------ controlled drugs
SCH2 = ["morphine", "oxycodone", "fentanyl", "methylphenidate", "lisdexamfetamine"]
SCH3 = ["pregabalin", "gabapentin", "tramadol", "temazepam", "buprenorphine"]
BENZOS = ["diazepam", "lorazepam", "nitrazepam"]
ZDRUGS = ["zopiclone", "zolpidem"]
CD_GROUPS = {"benzos_z": (BENZOS + ZDRUGS, "the benzodiazepines and Z-drugs"),
             "benzos": (BENZOS, "the benzodiazepines"), "z": (ZDRUGS, "the Z-drugs")}
CD_WHY = ["the benzodiazepine SEA in January", "the ICB hypnotics audit in February",
          "the CD accountable officer's visit in February"]


def _cd_prose(p: dict) -> dict:
    sch4 = [d for d in BENZOS + ZDRUGS if d in p["cd_drugs"]]
    free = [d for d in BENZOS + ZDRUGS if d not in p["cd_drugs"]]
    label = p["cd_group_label"]
    out = {"cd_scope_text": (f"Schedule 2 and 3 controlled drugs ({', '.join(SCH2)}; {', '.join(SCH3)}) AND, from "
                             f"Schedule 4 part 1, {label}: {', '.join(sch4)}")}
    ans = (f"Since {p['cd_why']} it's Schedules 2 and 3 plus {label} from Schedule 4 - all of them go to a GP. "
           "So morphine, oxycodone, fentanyl patches, methylphenidate, lisdexamfetamine; pregabalin, gabapentin, "
           f"tramadol, temazepam, buprenorphine patches; and now {', '.join(sch4[:-1])} and {sch4[-1]} too. "
           "The 2021 protocol in the folder says Schedule 2 only - ignore it. ")
    if free:
        ans += f"{' and '.join(d.capitalize() for d in free)} I can still do under protocol. "
    ans += "Co-codamol 30/500 is Schedule 5, that one we still do."
    out["cd_answer_hamza"] = ans
    return out


# ------------------------------------------------------------------------------ pharmacy desk
CAP_WHY = {
    "care_homes": "the PCN has put me on the care-home medication reviews two days a week from this month, and "
                  "Becca can't sign anything off on her own",
    "discharge": "the ICB's discharge-medicines scheme started this month - every hospital discharge letter now "
                 "comes to the desk for med rec first, and that eats most of our day",
    "cd_audit": "the CD audit and the valproate reviews the ICB wants by April are eating half our week, me and "
                "Becca both",
}


def _cap_prose(p: dict) -> dict:
    return {"pharm_answer_hamza": (
        f"Honestly? Less than you'd think right now: {CAP_WHY[p['cap_why']]}. About {p['pharm_cap']} repeat "
        "requests a day is what we can do properly - counted by the day they come in, weekend ones land on "
        "Monday's pile. Anything over that has to stay with the duty nurse, like now. Don't send me the lot: "
        "a repeat that sits a day is a patient running out.")}


# ------------------------------------------------------------------------------ opening hours
DAYS = ["mon", "tue", "wed", "thu", "fri"]
DAY_NAME = {"mon": "Monday", "tue": "Tuesday", "wed": "Wednesday", "thu": "Thursday", "fri": "Friday",
            "sat": "Saturday"}
DAY_PL = {k: v + "s" for k, v in DAY_NAME.items()}


def _hours_prose(p: dict) -> dict:
    h = p["hours"]
    late = [d for d in DAYS if h[d][1] != "18:30"]
    early = [d for d in DAYS if h[d][0] != "08:00"]
    sat = h.get("sat")
    site = p.get("sat_site", "Oakbridge")
    bits, kerry = [], []
    for d in early:
        bits.append(f"{DAY_NAME[d]} from {h[d][0]} (early clinic)")
        kerry.append(f"{DAY_PL[d]} we open at {h[d][0]} for the early commuter clinic")
    if late:
        close = h[late[0]][1]
        bits.append(f"{_and([DAY_NAME[d] for d in late])} until {close} (late clinics)")
        kerry.append(f"{_and([DAY_PL[d] for d in late])} we run to {close}")
    if sat:
        bits.append(f"Saturday {sat[0]}-{sat[1]} at {site} (enhanced access)")
        kerry.append(f"Saturday mornings {sat[0]} to {sat[1]} at {site}")
    since = p["hours_since"]
    out = {"hours_text": ("Monday-Friday 08:00-18:30, " + ", ".join(bits) +
                          " - a nurse covers the portal in all of those hours; closed "
                          + ("Sundays" if sat else "at weekends") + " and on bank holidays")}
    sessions = "; ".join(b.split(" (")[0] for b in bits)
    out["hours_rota_note"] = (f"From {since} 2026 we deliver our own enhanced access: {sessions}. Duty nurse "
                              "covers the portal nurse line in those sessions.")
    out["hours_answer_kerry"] = (
        f"Since {since} it's 08:00-18:30 weekdays, but {'; '.join(kerry)} - that's our enhanced-access contract, "
        "we took it back from the PCN hub. There's a duty nurse on the portal line in all those sessions. The "
        "system still thinks we're 08:00 to 18:00 weekdays only, so patients in those sessions get told we're closed.")
    extra = []
    if early:
        extra.append(f"the early {_and([DAY_NAME[d] for d in early])} clinic")
    if late:
        extra.append(f"the late {_and([DAY_NAME[d] for d in late])} clinics")
    if sat:
        extra.append(f"Saturday mornings at {site}")
    out["hours_answer_dawn"] = (f"Eight till half six weekdays. Oh - and {_and(extra)} since the new "
                                "enhanced-access contract, Kerry did the rota.")
    return out


# ------------------------------------------------------------------------------ out-of-hours wording
OOH_V4 = [
    "Harrowfield Medical Partnership is closed and this inbox is not monitored until we reopen. If you need "
    "medical help now, call NHS 111 or go to 111.nhs.uk. If you have chest pain, difficulty breathing or think "
    "someone's life is at risk, call 999 now.",
    "Our surgeries are closed and nobody will read your message until we reopen. If you need medical help now, "
    "go to 111.nhs.uk or call NHS 111. If someone is seriously ill or injured, or their life is at risk, call 999.",
    "Harrowfield Medical Partnership is closed and this message will not be read until we reopen. For urgent "
    "medical help call NHS 111 or use 111.nhs.uk, and choose the mental health option if you are in crisis. In an "
    "emergency, such as chest pain, severe difficulty breathing or heavy bleeding, call 999 now.",
    "You have contacted Harrowfield Medical Partnership while we are closed. Messages are not monitored until we "
    "reopen. If you need medical help now, call NHS 111 or visit 111.nhs.uk. If you think someone's life is at "
    "risk, call 999 immediately.",
]
OOH_WHY = ["the ICB safety-netting letter", "the LMC's guidance on portal auto-replies",
           "the CQC inspector's feedback on the portal"]


def _ooh_prose(p: dict) -> dict:
    date, why, text = p["ooh_v4_date"], p["ooh_why"], p["ooh_reply"]
    return {
        "ooh_doc_header": ("Version 3 - approved by Clinical Governance 13 January 2026\n\n"
                           f"**SUPERSEDED (policy register, {date} 2026):** Clinical Governance approved v4 of this "
                           f"wording on {date} 2026, after {why}. The v4 text has not been uploaded to this folder "
                           "yet - K. Ashdown (Operations) holds it. Do not put the v3 wording below live.\n"),
        "ooh_answer_kerry": (f"Careful - the v3 one in the policy folder is already out of date. Governance approved "
                             f"v4 on {date} after {why}; I haven't uploaded it yet. v4, word for word: \"{text}\""),
        "ooh_inbox_kerry": (f"Before I go - the out-of-hours wording in the policy folder (v3) is NOT the live one any "
                            f"more: governance approved v4 on {date} and I never uploaded it. Ask me for it if you "
                            "need it, I'm here till Tuesday evening. K"),
    }


# ------------------------------------------------------------------------------ drawing
AXES = ["red_flags", "cd_scope", "capacity", "hours", "ooh"]
ANGLE = {"red_flags": "people", "cd_scope": "rule_scope", "capacity": "capacity", "hours": "hours",
         "ooh": "stale_doc"}


def reference_can_meet_sla(params: dict) -> bool:
    """True when one duty nurse taking red flags first can open every held-out red flag within the
    SLA with 10 minutes to spare (for the routine message already in hand). Guards the texture: an
    unlucky seed can pile more red flags into one weekend than any router could clear in an hour."""
    full = {**BASE, **params}
    traffic = T.held_out(full, CTX.task.held_out_seed)
    first = dt.date.fromisoformat(traffic["days"][0]["date"])
    wins = G.windows(full, first - dt.timedelta(days=3), len(traffic["days"]) + 10)
    items = [(G.local(m["msg"]["received_at"]), True, G.RIGHT_MIN["red_flag"], m["msg"]["id"])
             for day in traffic["days"] for m in day["messages"] if m["truth"]["kind"] == "red_flag"]
    starts = G.nurse_sim(items, wins, int(full.get("nurse_line_staff", 1)))
    limit = float(full["sla_minutes"]) - 10
    return all(starts.get(mid) is not None and G.open_minutes(wins, at, starts[mid]) <= limit
               for at, _, _, mid in items)


def sample(rng: random.Random) -> dict:
    """One hidden truth: 1-2 breaking changes from base, plus re-drawn texture."""
    chosen = sorted(rng.sample(AXES, rng.choice([1, 1, 2])), key=AXES.index)
    p: dict = {}
    prose: dict = {}
    if "red_flags" in chosen:
        extras = sorted(rng.sample(sorted(EXTRA_FLAGS), rng.choice([1, 2, 2, 3])))
        flags = {c: list(v) for c, v in BASE["red_flags"].items()}
        for c in extras:
            flags[c] = list(EXTRA_FLAGS[c])
        p["red_flags"] = flags
        q = {"red_flags": flags, "rf_owner_id": rng.choice(["nadia", "okafor"]),
             "rf_added_month": "February"}
        prose.update(_rf_prose(q))
    if "cd_scope" in chosen:
        group = rng.choice(sorted(CD_GROUPS))
        drugs, label = CD_GROUPS[group]
        p["cd_drugs"] = SCH2 + SCH3 + list(drugs)
        prose.update(_cd_prose({"cd_drugs": p["cd_drugs"], "cd_group_label": label, "cd_why": rng.choice(CD_WHY)}))
    if "hours" in chosen:
        hours = {d: ["08:00", "18:30"] for d in DAYS}
        hours.update(sat=None, sun=None)
        late = rng.sample(DAYS, rng.choice([0, 1, 2, 2]))
        close = rng.choice(["19:30", "20:00", "20:00"])
        for d in late:
            hours[d] = ["08:00", close]
        if rng.random() < 0.3:
            d = rng.choice(DAYS)
            hours[d] = [rng.choice(["07:00", "07:30"]), hours[d][1]]
        if not late or rng.random() < 0.6:
            hours["sat"] = rng.choice([["08:00", "12:00"], ["08:30", "12:30"], ["09:00", "13:00"]])
        p["hours"] = hours
        prose.update(_hours_prose({"hours": hours, "sat_site": rng.choice(["Oakbridge", "Mill Lane",
                                                                          "Harrowfield Health Centre"]),
                                   "hours_since": rng.choice(["2 February", "16 February", "2 March"])}))
    if "ooh" in chosen:
        p["ooh_reply"] = rng.choice(OOH_V4)
        prose.update(_ooh_prose({"ooh_reply": p["ooh_reply"], "ooh_v4_date": rng.choice(
            ["23 February", "26 February", "2 March"]), "ooh_why": rng.choice(OOH_WHY)}))
    cap_why = rng.choice(sorted(CAP_WHY))

    def texture(r: random.Random) -> dict:
        t = dict(world_seed=r.randrange(1, 30_000), weekday_volume=r.randint(135, 165),
                 weekend_volume=r.randint(42, 58), rf_scale=round(r.uniform(0.85, 1.15), 2),
                 rx_scale=round(r.uniform(0.9, 1.1), 2))
        if "capacity" in chosen:   # a weekday brings ~27% of the day's messages as ordinary repeats (traffic.KIND_MIX)
            t["pharm_cap"] = max(20, min(35, 5 * round(t["weekday_volume"] * 0.27 * t["rx_scale"] * r.uniform(0.5, 0.75) / 5)))
        return {**p, **t}
    # texture re-drawn while a red-flag pile-up would beat even a perfect router
    p = redraw_until(reference_can_meet_sla, texture, rng, tries=40, what="texture a reference router can serve")
    if "capacity" in chosen:
        prose.update(_cap_prose({"pharm_cap": p["pharm_cap"], "cap_why": cap_why}))
    p.update(prose)
    return {"angle": "+".join(ANGLE[a] for a in chosen), "params": p, "right_here": []}
