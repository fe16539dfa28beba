"""Patient-portal traffic for Harrowfield Medical Partnership.

dev()       one week of last month's portal export (with production outcomes) into world/data/
held_out()  two weeks of March messages, each with its hidden truth, for grading (seed from task.yaml)
shadow()    one trial day of messages (seed range disjoint from both)

Every generator owns a random.Random(seed); no global RNG, no clock.
"""

from __future__ import annotations

import datetime as dt
import json
import random
from pathlib import Path

DEV_START = dt.date(2026, 2, 16)          # Monday; one week
HELD_START = dt.date(2026, 3, 9)          # Monday; two weeks
SHADOW_START = dt.date(2026, 3, 3)        # Tuesday; trial days walk forward from here
DEV_SEED = 11_017
SHADOW_SEED = 55_000

SITES = ["HFD", "HFD", "HFD", "MLL", "MLL", "OKB"]
CATEGORIES = ["Admin query", "Medical question", "Repeat prescription", "Test results",
              "Appointment request", "Fit note", "Other"]

# (kind, weight on a weekday, weight at a weekend)
KIND_MIX = [
    ("rx", 27, 30), ("rx_cd", 5, 5), ("clinical", 18, 22), ("faq", 12, 12), ("admin_other", 11, 8),
    ("appointment", 12, 9), ("results", 7, 5), ("fit_note", 4, 3), ("red_flag", 3.2, 3.6),
]

HOUR_W_WEEKDAY = [2, 1, 1, 1, 1, 2, 4, 9, 14, 13, 11, 10, 10, 9, 9, 8, 8, 8, 8, 8, 7, 6, 5, 3]
HOUR_W_WEEKEND = [2, 1, 1, 1, 1, 1, 2, 4, 7, 9, 10, 9, 8, 7, 7, 6, 6, 6, 6, 6, 6, 5, 4, 3]

# every red-flag phrase any variant may use -> grammar of the sentence that carries it
# 'n': a noun phrase ("I've had X"), 'c': a full clause ("X")
PHRASE_GRAMMAR = {
    "chest pain": "n", "tightness in my chest": "n", "pain in my chest": "n",
    "crushing feeling in my chest": "n", "chest feels heavy": "c",
    "short of breath": "c_be", "struggling to breathe": "c_be", "can't catch my breath": "c",
    "lips have gone blue": "c_my", "can't breathe properly": "c",
    "face has dropped": "c_my", "slurred speech": "n", "speech is slurred": "c_my",
    "arm went weak": "c_my", "can't lift my arm": "c",
    "coughing up blood": "c_be", "vomiting blood": "c_be", "black tarry poo": "n",
    "bleeding that won't stop": "n",
    "lips are swelling": "c_my", "tongue is swollen": "c_my", "throat feels like it's closing": "c_my",
    "swelling in my throat": "n",
    "collapsed": "c_i", "passed out": "c_i", "blacked out": "c_i", "had a fit": "c_i", "seizure": "n_a",
    "suicidal": "c_feel", "end my life": "c_want", "kill myself": "c_want",
    "don't want to be here anymore": "c", "self-harm": "n_been", "self harm": "n_been",
    "hurting myself": "c_be",
    "mottled skin": "n", "not passed urine": "c_hasnt", "rash that doesn't fade": "n",
    "confused and very hot": "c_be",
    "bleeding in pregnancy": "n", "pregnant and bleeding": "c_be", "baby isn't moving as much": "c",
    "reduced movements": "n",
    "worst headache of my life": "n", "sudden severe headache": "n_a", "thunderclap headache": "n_a",
    "baby has a temperature": "c_my", "baby is really hot": "c_my",
    "numb around my bottom": "c_be", "can't control my bladder": "c", "saddle numbness": "n",
    # further categories a sampled list may add (sampler.py); 'c_pre': "my <phrase>"
    "stiff neck and a rash": "n_a", "can't bear the light": "c", "neck is really stiff": "c_pre",
    "sudden loss of vision": "n_a", "lost the sight in one eye": "c_i", "curtain coming down over my eye": "n_a",
    "sudden pain in my testicle": "n_a", "testicle is swollen": "c_pre",
    "ketones are high": "c_pre", "blood sugar is over 20": "c_pre", "being sick and can't keep fluids down": "c_be",
}

WHO = ["", "", "", "my husband ", "my wife ", "my son ", "my daughter ", "my mum ", "my dad ", "my partner "]
WHEN = ["since last night", "since this morning", "on and off since Sunday", "for the last couple of days",
        "since yesterday", "today", "again this week", "since about 4am"]


def rf_sentence(rng: random.Random, phrase: str) -> str:
    g = PHRASE_GRAMMAR.get(phrase, "n")
    when = rng.choice(WHEN)
    p = phrase
    if g == "n":
        s = rng.choice([f"I've had {p} {when}", f"been getting {p} {when}", f"having {p} {when}",
                        f"there's {p} {when}"])
    elif g == "n_a":
        s = rng.choice([f"I had a {p} {when}", f"had what I think was a {p} {when}"])
    elif g == "n_been":
        s = rng.choice([f"I've been doing {p} again {when}", f"struggling with {p} {when}"])
    elif g == "c_be":
        s = rng.choice([f"I'm {p} {when}", f"I've been {p} {when}", f"been {p} {when}"])
    elif g == "c_my":
        s = rng.choice([f"{p} {when}".replace("lips", "my lips").replace("face", "my face").replace(
            "arm went", "my arm went").replace("tongue", "my tongue").replace("throat feels", "my throat feels").replace(
            "speech is", "my speech is").replace("baby", "my baby"), f"{when} {p}"])
    elif g == "c_i":
        s = rng.choice([f"I {p} {when}", f"{rng.choice(['my husband', 'my mum', 'I'])} {p} {when}"])
    elif g == "c_feel":
        s = rng.choice([f"I've been feeling {p} {when}", f"honestly I feel {p} {when}"])
    elif g == "c_want":
        s = rng.choice([f"sometimes I think I want to {p}", f"I keep thinking I might {p}"])
    elif g == "c_pre":
        s = rng.choice([f"my {p} {when}", f"{when} my {p}"])
    elif g == "c_hasnt":
        s = rng.choice([f"my dad has {p} {when}", f"he has {p} {when}", f"I've {p} {when}"])
    else:
        s = f"{p} {when}"
    if rng.random() < 0.15:
        s = s.upper() if rng.random() < 0.3 else s.capitalize()
    return s


DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
STREETS = ["Clover Rd", "Mill Lane", "Tanner's Yard", "Oak Bridge Close", "Station Road", "Lammas Way",
           "Harrow Field Drive", "St Aldate's Court", "Brook St", "Kiln Gardens"]
SIGNOFFS = ["", "", "", " Thanks", " thank you", " Many thanks", " x", " Sent from my iPhone", " Cheers",
            " Kind regards"]

FAQ_TEXT = {
    "opening": ["What time do you open on {day}?", "are you open over the weekend",
                "Is the Mill Lane surgery open on {day} afternoon?", "what are your opening times please",
                "What time does reception close today", "Are you open on bank holiday Monday?"],
    "address": ["I've moved house, new address is {n} {street}. Please update my records.",
                "Change of address: {n} {street}, Harrowfield", "new mobile number 07700 9{n3} please update",
                "Please update my details, I've moved to {n} {street}", "I have a new phone number, how do I change it"],
    "repeat_howto": ["How do I order my repeat prescription online? I have the NHS App but can't see it",
                     "how do I get set up to order repeats online", "Can I order my repeats through the NHS App?",
                     "what's the best way to order repeat medication online"],
    "fees": ["Do you charge for a letter for my holiday insurance?",
             "I need a travel insurance form filled in, how much is it",
             "How much is a private letter for my firearms licence", "Is there a fee for a fitness to drive letter?",
             "how much do you charge for an HGV medical form"],
    "registration": ["How do I register my newborn son?", "I want to register my partner at the practice",
                     "We've just moved to the area, how do we register as new patients",
                     "How do I register my baby with the surgery", "Can my daughter register with you, she is 17"],
}
FAQ_SUBJECTS = {"opening": ["opening times", "open?", "question", "weekend"],
                "address": ["change of address", "new address", "update details", "phone number"],
                "repeat_howto": ["online ordering", "NHS app", "repeats online", "question"],
                "fees": ["letter", "insurance form", "fees", "form"],
                "registration": ["registration", "new patient", "register baby", "question"]}

ADMIN_OTHER = ["Can you send me a copy of the letter from the hospital about my scan",
               "I had a missed call from the surgery this morning, who was it?",
               "Please cancel my appointment on {day}, I can't make it",
               "Chasing my medical records request from January", "Can I have a copy of my vaccination record for work",
               "Complaint about the phone queue on {day}, was on hold 40 mins",
               "Please can you confirm my NHS number", "I need my records transferred to my new practice in Leeds",
               "Can you fax the referral to the Nuffield? They say they haven't got it",
               "My parking ticket from the Mill Lane car park, I was at an appointment"]
APPOINTMENT = ["Can I book a smear test please", "need a blood test appointment for my annual review",
               "can I see Dr Okafor next week about my knee", "My asthma review is due, can I book it",
               "I need a B12 injection booking", "Can I get an appointment for my son's baby jabs",
               "Is there a nurse appointment for my ear syringing? Drops done", "need my blood pressure checked"]
APPT_SUBJECTS = ["appointment", "booking", "smear", "review", "blood test", "jabs", "BP check"]
CLINICAL = ["I've had a cough for 3 weeks, should I be seen?", "my son has an itchy rash on his arm",
            "is it ok to take my blood pressure tablets at night instead of the morning",
            "knee pain after running, swelling a bit", "ear has been blocked for a week",
            "burning when I wee again, think it's another UTI", "mole on my back has changed shape",
            "still getting heartburn even on the omeprazole", "my periods have been really heavy the last 3 months",
            "Side effects from the sertraline, feeling sick in the mornings", "sore throat 5 days, no better",
            "can my daughter have the chickenpox vaccine privately", "lump under my arm, noticed it last week"]
CLIN_SUBJECTS = ["question", "advice please", "cough", "rash", "medication query", "follow up", "query",
                 "re: my tablets", "not sure who to ask"]
RESULTS = ["Have my blood results come back from last Tuesday?", "Can I have my cholesterol result please",
           "Waiting for the urine sample result", "Did my x-ray report come through from the hospital",
           "what did my HbA1c come back as"]
FITNOTE = ["I need a fit note extension, still off with my back", "Fit note ran out Friday, still not able to work",
           "Employer needs a fit note from the 2nd, I'm signed off with stress"]
RX_ITEMS = ["Amlodipine 5mg tablets", "Atorvastatin 20mg tablets", "Salbutamol 100micrograms/dose inhaler",
            "Sertraline 50mg tablets", "Levothyroxine sodium 50microgram tablets",
            "Omeprazole 20mg gastro-resistant capsules", "Metformin 500mg tablets", "Ramipril 2.5mg capsules",
            "Bisoprolol fumarate 2.5mg tablets", "Fostair 100micrograms/dose / 6micrograms/dose inhaler",
            "Mirtazapine 15mg tablets", "Citalopram 20mg tablets", "Lansoprazole 30mg capsules",
            "Co-codamol 30mg/500mg tablets", "Naproxen 500mg tablets", "Propranolol 40mg tablets",
            "Folic acid 5mg tablets", "Adcal-D3 chewable tablets", "Microgynon 30 tablets",
            "Beclometasone 100micrograms/dose nasal spray"]
CD_ITEMS = {
    "morphine": "Morphine sulfate 10mg modified-release tablets", "oxycodone": "Oxycodone 5mg capsules",
    "fentanyl": "Fentanyl 25micrograms/hour transdermal patches",
    "methylphenidate": "Methylphenidate 18mg modified-release tablets",
    "lisdexamfetamine": "Lisdexamfetamine 30mg capsules",
    "pregabalin": "Pregabalin 75mg capsules", "gabapentin": "Gabapentin 300mg capsules",
    "tramadol": "Tramadol 50mg capsules", "temazepam": "Temazepam 10mg tablets",
    "buprenorphine": "Buprenorphine 10micrograms/hour transdermal patches (Butec)",
    "diazepam": "Diazepam 5mg tablets", "zopiclone": "Zopiclone 7.5mg tablets", "lorazepam": "Lorazepam 1mg tablets",
    "zolpidem": "Zolpidem 10mg tablets", "nitrazepam": "Nitrazepam 5mg tablets",
}
# all controlled-drug names any variant may put in scope; those out of scope are ordinary repeats
ALL_CD = list(CD_ITEMS)
RX_BODIES = ["", "", "", "Please can I have my usual", "running low", "need these before holiday on the {d}th",
             "Thanks", "Pharmacy: Boots Harrowfield please", "can it go to Lloyds at Mill Lane", "last one on the app",
             "ordered on the app but it says rejected?", "urgent please only 2 days left"]


def _pick(rng: random.Random, pairs, idx):
    total = sum(p[idx] for p in pairs)
    x = rng.random() * total
    for p in pairs:
        x -= p[idx]
        if x <= 0:
            return p[0]
    return pairs[-1][0]


def _hour(rng: random.Random, weekend: bool) -> int:
    w = HOUR_W_WEEKEND if weekend else HOUR_W_WEEKDAY
    x = rng.random() * sum(w)
    for h, wi in enumerate(w):
        x -= wi
        if x <= 0:
            return h
    return 23


def _fill(rng: random.Random, s: str) -> str:
    return s.format(day=rng.choice(DAYS), n=rng.randint(2, 148), street=rng.choice(STREETS),
                    n3=rng.randint(100000, 999999), d=rng.randint(10, 28))


def _patient(rng: random.Random) -> str:
    return "P-" + "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(5))


def _cd_scope(params) -> set:
    return {d.lower() for d in params["cd_drugs"]}


def _rf_phrases(params) -> list:
    out = []
    for cat, phrases in params["red_flags"].items():
        for p in phrases:
            out.append((cat, p))
    return out


def make_message(rng: random.Random, params: dict, when: dt.datetime, seq: int, kind: str) -> dict:
    """One message dict plus its hidden truth ({'msg': ..., 'truth': ...})."""
    truth = {"kind": kind}
    items: list = []
    subject_rf = False
    if kind == "faq":
        faq = rng.choice(sorted(FAQ_TEXT))
        truth["faq"] = faq
        cat, subj, body = "Admin query", rng.choice(FAQ_SUBJECTS[faq]), _fill(rng, rng.choice(FAQ_TEXT[faq]))
    elif kind == "admin_other":
        cat, subj, body = rng.choice(["Admin query"] * 4 + ["Other"]), rng.choice(
            ["query", "admin", "letter", "records", "question", "complaint", ""]), _fill(rng, rng.choice(ADMIN_OTHER))
    elif kind == "appointment":
        cat, subj, body = "Appointment request", rng.choice(APPT_SUBJECTS), rng.choice(APPOINTMENT)
    elif kind == "clinical":
        cat, subj, body = "Medical question", rng.choice(CLIN_SUBJECTS), rng.choice(CLINICAL)
    elif kind == "results":
        cat, subj, body = "Test results", rng.choice(["results", "blood test", "test results", ""]), rng.choice(RESULTS)
    elif kind == "fit_note":
        cat, subj, body = "Fit note", rng.choice(["fit note", "sick note", "fitnote extension"]), rng.choice(FITNOTE)
    elif kind in ("rx", "rx_cd"):
        cat, subj = "Repeat prescription", rng.choice(["repeat", "Repeat prescription", "meds", "repeat request", ""])
        scope = _cd_scope(params)
        n = rng.choice([1, 1, 1, 2, 2, 3])
        items = rng.sample(RX_ITEMS, n)
        if kind == "rx" and rng.random() < 0.18:
            # a controlled drug that is NOT in this practice's scope (e.g. schedule 4 when scope is 2-3)
            out_scope = [d for d in ALL_CD if d not in scope]
            if out_scope:
                items[-1] = CD_ITEMS[rng.choice(out_scope)]
        if kind == "rx_cd":
            drug = rng.choice(sorted(scope))
            truth["cd"] = drug
            items[rng.randrange(len(items))] = CD_ITEMS[drug]
        body = _fill(rng, rng.choice(RX_BODIES))
    elif kind == "red_flag":
        rf_cat, phrase = rng.choice(_rf_phrases(params))
        truth.update(rf_category=rf_cat, phrase=phrase)
        host = rng.choice(["admin", "admin", "admin", "clinical", "clinical", "appointment", "rx", "other"])
        sent = rf_sentence(rng, phrase)
        if host == "admin":
            cat = "Admin query"
            h = rng.choice(FAQ_TEXT["address"] + FAQ_TEXT["opening"] + ADMIN_OTHER[:6])
            subj = rng.choice(["change of address", "query", "letter", "admin", "question", "opening times"])
        elif host == "clinical":
            cat, h = "Medical question", rng.choice(CLINICAL[:6] + ["question about my tablets"])
            subject_rf = rng.random() < 0.3
            subj = phrase if subject_rf else rng.choice(CLIN_SUBJECTS)
        elif host == "appointment":
            cat, h, subj = "Appointment request", rng.choice(APPOINTMENT), rng.choice(APPT_SUBJECTS)
        elif host == "rx":
            cat, subj = "Repeat prescription", "repeat"
            items = rng.sample(RX_ITEMS, 1)
            h = "Please can I have my usual"
        else:
            cat, h, subj = "Other", rng.choice(["Not sure which option to pick", "sorry if wrong place",
                                                "couldn't get through on the phone"]), ""
        h = _fill(rng, h)
        body = rng.choice([f"{h}. Also {sent}, not sure if I should mention it.",
                           f"Hi, sorry to bother you. {sent[0].upper() + sent[1:]}. {h}",
                           f"{h} -- p.s. {rng.choice(WHO)}{'says I should tell you ' if rng.random() < .5 else ''}{sent}",
                           f"{sent[0].upper() + sent[1:]}. {h}?"])
        truth["host"] = host
    else:
        raise ValueError(kind)
    body = (body + rng.choice(SIGNOFFS)).strip()
    if rng.random() < 0.07:
        body = body.lower()
    ts = when.strftime("%Y-%m-%dT%H:%M:%S") + rng.choice(["Z", "Z", "+00:00"])
    msg = {"id": f"PM-{when:%y%m%d}-{seq:04d}", "received_at": ts, "site": rng.choice(SITES),
           "patient": _patient(rng), "category": cat, "subject": subj, "body": body, "items": items}
    return {"msg": msg, "truth": truth}


def _mix(params: dict) -> list:
    """KIND_MIX, with the red-flag and repeat weights scaled when a sampled variant says so."""
    rf, rx = float(params.get("rf_scale", 1.0)), float(params.get("rx_scale", 1.0))
    if rf == 1.0 and rx == 1.0:
        return KIND_MIX
    scale = {"red_flag": rf, "rx": rx, "rx_cd": rx}
    return [(k, wd * scale.get(k, 1.0), we * scale.get(k, 1.0)) for k, wd, we in KIND_MIX]


def _seed(params: dict, base: int, offset: int, stride: int = 1) -> int:
    """A sampled variant's world_seed (1..29_999) moves each generator onto its own seed range:
    dev 100_001.., shadow 20_001_000.. (+101 per day), held-out 1_000_000+seed+world_seed (x7919)."""
    w = params.get("world_seed")
    return base if w is None else offset + stride * int(w)


def gen_day(rng: random.Random, params: dict, day: dt.date, volume_scale: float = 1.0) -> list:
    weekend = day.weekday() >= 5
    wk, we = float(params.get("weekday_volume", 150)), float(params.get("weekend_volume", 50))
    n = int(round((rng.gauss(we, we / 10) if weekend else rng.gauss(wk, wk / 15)) * volume_scale))
    mix = _mix(params)
    times = []
    for _ in range(n):
        h = _hour(rng, weekend)
        times.append(dt.datetime(day.year, day.month, day.day, h, rng.randrange(60), rng.randrange(60)))
    times.sort()
    out = []
    for i, t in enumerate(times):
        kind = _pick(rng, mix, 2 if weekend else 1)
        out.append(make_message(rng, params, t, i + 1, kind))
    return out


def held_out(params: dict, seed: int) -> dict:
    rng = random.Random(_seed(params, seed, 1_000_000 + seed) * 7919 + 3)
    days = []
    for d in range(14):
        day = HELD_START + dt.timedelta(days=d)
        days.append({"date": day.isoformat(), "messages": gen_day(rng, params, day)})
    return {"days": days}


def shadow(params: dict, day: int) -> dict:
    rng = random.Random(_seed(params, SHADOW_SEED, 20_000_000, 1000) + 101 * int(day))
    date = SHADOW_START + dt.timedelta(days=int(day) % 4)     # Tue-Fri of the engagement week
    return {"days": [{"date": date.isoformat(), "messages": gen_day(rng, params, date)}]}


# ---------------------------------------------------------------------------------------- dev data
NURSE_NOTES = ["RF - rang pt, advised 999", "RF - same-day with duty dr", "red flag, escalated to duty doc",
               "rang pt back, booked urgent", "RF: spoke to pt, sent to A&E"]


def _dev_outcome(rng: random.Random, m: dict, t: dict) -> dict:
    """What production did last month: the old router's queue and what staff later did."""
    cat = m["category"]
    q = {"Admin query": "front_desk", "Medical question": "nurse_line", "Repeat prescription": "nurse_line",
         "Test results": "doctor", "Appointment request": "front_desk", "Fit note": "doctor",
         "Other": "front_desk"}[cat]
    prio = "routine"
    if t["kind"] == "red_flag" and t.get("host") == "clinical" and m["subject"] == t.get("phrase"):
        q, prio = "nurse_line", "urgent"
    rec = dict(m)
    rec["queue"] = q
    rec["priority"] = prio
    first = {"front_desk": rng.uniform(14, 30), "nurse_line": rng.uniform(0.3, 5.5),
             "doctor": rng.uniform(3, 26)}[q]
    if prio == "urgent":
        first = rng.uniform(0.05, 0.5)
    rec["first_action_hrs"] = round(first, 1)
    note = ""
    if t["kind"] == "red_flag":
        note = rng.choice(NURSE_NOTES) if q == "nurse_line" else "passed to nurse line - clinical content"
    elif t["kind"] in ("rx", "rx_cd") and q == "nurse_line":
        note = rng.choice(["repeat issued", "issued", "repeat issued, review due", "fwd to duty dr - CD",
                           "issued"]) if t["kind"] == "rx" else "fwd to duty dr - CD"
    elif t["kind"] == "faq":
        note = rng.choice(["sent template", "sent opening times", "replied", "sent link", ""])
    rec["staff_note"] = note
    return rec


def dev(params: dict, out: Path) -> None:
    """Write last month's export to world/data (fixed seed; same phrasing pool as any week)."""
    rng = random.Random(_seed(params, DEV_SEED, 100_000))
    data = Path(out) / "data"
    data.mkdir(parents=True, exist_ok=True)
    lines = []
    for d in range(7):
        day = DEV_START + dt.timedelta(days=d)
        for item in gen_day(rng, params, day, volume_scale=0.8):
            lines.append(_dev_outcome(rng, item["msg"], item["truth"]))
    # production texture: a re-sent duplicate, a row the portal exported half-empty, an old-format timestamp
    dup = dict(lines[37]); dup["staff_note"] = "dup of earlier msg - closed"
    lines.insert(38, dup)
    broken = dict(lines[120]); broken["body"] = None; broken["subject"] = None; broken["staff_note"] = "blank msg - portal bug INC-2231"
    lines[120] = broken
    odd = dict(lines[305]); odd["received_at"] = odd["received_at"].replace("T", " ").replace("Z", "").replace("+00:00", "")
    lines[305] = odd
    with open(data / "portal_messages_2026-02-16_to_22.jsonl", "w", encoding="utf-8") as f:
        for r in lines:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
