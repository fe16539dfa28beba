"""Shared writer for the clinic_inbox solutions (not a solution itself).

`write_router(ws, policy)` replaces system/portal_triage/router.py with a policy-driven router and
writes the policy to system/config/policy/*.json. Each solution decides the policy.
"""

from __future__ import annotations

import json
from pathlib import Path

# the approved admin auto-reply templates (world/docs/templates/auto_reply_templates.md)
TEMPLATES = {
    "HMP-T01": {
        "use_when": ["opening times", "opening hours", "what time do you open", "what time does reception close",
                     "are you open", "open over the weekend", "open on bank holiday", "surgery open on"],
        "text": "Thank you for your message. Opening times for all three of our surgeries are on "
                "www.harrowfieldmedical.nhs.uk/opening-times and on the noticeboard at each site. "
                "This is an automated reply; no further reply will follow. [HMP-T01]"},
    "HMP-T02": {
        "use_when": ["change of address", "new address", "moved house", "i've moved to", "new mobile",
                     "new phone number", "update my details", "update my records"],
        "text": "Thank you for letting us know. Please update your address, phone number or email using the "
                "Change of Details form at www.harrowfieldmedical.nhs.uk/change-of-details so that we can "
                "verify your identity. This is an automated reply; no further reply will follow. [HMP-T02]"},
    "HMP-T03": {
        "use_when": ["order my repeat prescription online", "order repeats online", "repeats through the nhs app",
                     "order repeat medication online", "set up to order repeats"],
        "text": "Thank you for your message. You can order your repeat items in the NHS App under "
                "Prescriptions > Order a repeat prescription. If you cannot see your repeat items there, "
                "please ask at reception for online access to be switched on. Please allow 3 working days. "
                "This is an automated reply; no further reply will follow. [HMP-T03]"},
    "HMP-T04": {
        "use_when": ["insurance", "private letter", "fee for", "how much do you charge", "how much is",
                     "hgv medical", "firearms"],
        "text": "Thank you for your message. Some letters and forms are not covered by the NHS and a fee "
                "applies. The current list of fees is at www.harrowfieldmedical.nhs.uk/fees. Please send the "
                "form to reception with payment details. This is an automated reply; no further reply will "
                "follow. [HMP-T04]"},
    "HMP-T05": {
        "use_when": ["register my", "register as new patients", "register with you", "new patient registration"],
        "text": "Thank you for your message. You can register with us online at "
                "www.harrowfieldmedical.nhs.uk/register (for babies, please bring the red book to reception "
                "as well). This is an automated reply; no further reply will follow. [HMP-T05]"},
}

# words that mean a human should read it, whatever the template match says
CLINICAL_WORDS = ["pain", "ache", "rash", "cough", "bleed", "blood", "tablet", "medication", "symptom", "sick",
                  "fever", "temperature", "dizzy", "swollen", "swelling", "lump", "infection", "breath",
                  "unwell", "hurt", "injur", "vomit", "worried", "depress", "anxious"]

ROUTER = r'''"""Entry point production calls: route_batch(batch).

Policy-driven router: config/policy/*.json (merged in name order) over config/practice.json.
Order of checks per message:
  1. red flags anywhere in subject, body or items (clinical lead's list) -> nurse_line, urgent
  2. repeat requests: controlled drugs (generic or brand) -> doctor; others -> pharmacy desk up to
     its daily capacity (counted per pharmacy working day: weekend and bank-holiday requests count
     against the next working day), then the nurse line
  3. pure admin questions matching an approved template (nothing clinical, no second ask) -> auto_reply
  4. everything else by portal category (config/routing_rules.json)
Out of hours (UK time: received_at is a UTC instant, BST from the last Sunday in March; bank
holidays closed), every message also gets the current safety-netting reply, word for word.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import sqlite3

from . import classifier

_HERE = os.path.dirname(os.path.abspath(__file__))
_CONFIG = os.path.join(_HERE, "..", "config")
_STATE = os.path.join(_HERE, "..", "state")
DAYKEYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
QUEUES = ("nurse_line", "front_desk", "doctor", "pharmacy_desk", "auto_reply")


def _json(name):
    with open(os.path.join(_CONFIG, name), encoding="utf-8") as f:
        return json.load(f)


def norm(s):
    s = str(s or "").lower().replace("\u2019", "'").replace("'", "")
    return " " + " ".join(re.sub(r"[^a-z0-9]+", " ", s).split()) + " "


def _last_sunday(year, month):
    d = dt.date(year, month + 1, 1) - dt.timedelta(days=1)
    return d - dt.timedelta(days=(d.weekday() + 1) % 7)


def uk_offset(utc):
    """BST (UTC+1) from 01:00 UTC on the last Sunday of March to 01:00 UTC on the last Sunday of October."""
    start = dt.datetime.combine(_last_sunday(utc.year, 3), dt.time(1))
    end = dt.datetime.combine(_last_sunday(utc.year, 10), dt.time(1))
    return dt.timedelta(hours=1) if start <= utc < end else dt.timedelta(0)


def parse_ts(value, uk_time=False):
    if not value:
        return None
    s = str(value).strip().replace(" ", "T")
    if s.endswith("Z"):
        s = s[:-1] + "+00:00"
    try:
        t = dt.datetime.fromisoformat(s)
    except ValueError:
        return None
    if t.tzinfo is not None:
        t = t.astimezone(dt.timezone.utc).replace(tzinfo=None)
        if uk_time:
            t = t + uk_offset(t)          # UTC instant -> UK wall-clock time
    return t                              # naive stamps (old MLL connector) are UK wall-clock already


def is_open(policy, t):
    if t is None:
        return False          # unknown time: treat as closed, so the patient is safety-netted
    if t.date().isoformat() in set(policy.get("closed_dates") or []):
        return False
    span = policy["hours"].get(DAYKEYS[t.weekday()])
    if not span:
        return False
    return span[0] <= t.strftime("%H:%M") < span[1]


def _has_any(text, phrases, generous=False):
    if generous:      # word start only: "chest pains", "self-harming", "seizures" still match
        return any(" " + norm(p).strip() in text for p in phrases if norm(p).strip())
    return any(norm(p) in text for p in phrases)


class State:
    """Pharmacy-desk counts per working day; survives between connector calls."""

    def __init__(self):
        os.makedirs(_STATE, exist_ok=True)
        self.db = sqlite3.connect(os.path.join(_STATE, "triage_state.db"))
        self.db.execute("CREATE TABLE IF NOT EXISTS pharmacy_day (day TEXT PRIMARY KEY, n INTEGER)")
        self.db.execute("CREATE TABLE IF NOT EXISTS routed (id TEXT PRIMARY KEY, queue TEXT)")

    def seen(self, mid):
        r = self.db.execute("SELECT queue FROM routed WHERE id=?", (mid,)).fetchone()
        return r[0] if r else None

    def remember(self, mid, queue):
        self.db.execute("INSERT OR IGNORE INTO routed VALUES (?, ?)", (mid, queue))

    def take_pharmacy_slot(self, day, cap):
        r = self.db.execute("SELECT n FROM pharmacy_day WHERE day=?", (day,)).fetchone()
        n = r[0] if r else 0
        if cap is not None and n >= cap:
            return False
        self.db.execute("INSERT OR REPLACE INTO pharmacy_day VALUES (?, ?)", (day, n + 1))
        return True

    def close(self):
        self.db.commit()
        self.db.close()


def pharmacy_day(t, closed=()):
    d = (t or dt.datetime(2000, 1, 3)).date()
    while d.weekday() >= 5 or d.isoformat() in closed:
        d += dt.timedelta(days=1)
    return d.isoformat()


def route_message(msg, policy, rules, state):
    mid = msg.get("id")
    category = (msg.get("category") or "Other").strip()
    items = msg.get("items") or []
    text = norm(" ".join([msg.get("subject") or "", msg.get("body") or ""] + [str(i) for i in items]))
    t = parse_ts(msg.get("received_at"), policy.get("uk_time"))
    reply = None
    priority = "routine"
    generous = policy.get("match") == "generous"
    admin_cat = category in ("Admin query", "Other")
    typed_repeat = (policy.get("repeat_in_body") and admin_cat and not items
                    and _has_any(text, policy.get("medicine_words", []), generous))

    if policy.get("everything_to"):
        queue = policy["everything_to"]
        if category in policy.get("urgent_categories", []):
            priority = "urgent"
    elif policy.get("red_flags") is not None and _has_any(text, policy["red_flags"], generous):
        queue, priority = "nurse_line", "urgent"
    elif classifier.is_urgent(msg.get("subject") or ""):
        queue, priority = "nurse_line", "urgent"          # legacy subject-line score, kept
    elif policy.get("subject_keywords") and any(norm(k) in norm(msg.get("subject")) for k in policy["subject_keywords"]):
        queue, priority = "nurse_line", "urgent"
    elif policy.get("route_repeats") and (items or category == "Repeat prescription" or typed_repeat):
        cds = policy.get("cd_drugs")
        if cds is not None and _has_any(text, cds, generous):
            queue = "doctor"
        else:
            prior = state.seen(mid)
            if prior:
                queue = prior
            elif state.take_pharmacy_slot(pharmacy_day(t, policy.get("desk_closed_dates") or ()),
                                          policy.get("pharm_cap")):
                queue = "pharmacy_desk"
            else:
                queue = policy.get("overflow_queue", "nurse_line")
    else:
        queue = rules["categories"].get(category, rules["categories"]["Other"])["queue"]
        if (policy.get("auto_reply_admin") and admin_cat and not items
                and not _has_any(text, policy.get("clinical_words", []), generous)):
            for code, tpl in policy.get("templates", {}).items():
                hit = [p for p in tpl["use_when"] if norm(p) in text]
                if not hit:
                    continue
                rest = text
                for p in hit:                  # what is left once the template's own question is taken out
                    rest = rest.replace(norm(p), " ")
                if _has_any(rest, policy.get("second_ask_words", []), generous):
                    break                      # asks for something else as well: a human reads it
                queue, reply = "auto_reply", tpl["text"]
                break

    if not is_open(policy, t) and policy.get("ooh_reply"):
        reply = policy["ooh_reply"] if reply is None else reply + "\n\n" + policy["ooh_reply"]
    state.remember(mid, queue)
    return {"id": mid, "queue": queue, "priority": priority, "reply": reply}


def load_policy():
    """config/policy/*.json merged in name order, on top of the legacy config/practice.json."""
    practice = _json("practice.json")
    policy = {"hours": practice["opening_hours"], "ooh_reply": practice["ooh_reply"]}
    pdir = os.path.join(_CONFIG, "policy")
    if os.path.isdir(pdir):
        for name in sorted(os.listdir(pdir)):
            if name.endswith(".json"):
                with open(os.path.join(pdir, name), encoding="utf-8") as f:
                    policy.update(json.load(f))
    return policy


def route_batch(batch):
    """batch = {"batch_id", "messages": [...]} -> {"decisions": [{"id", "queue", "priority", "reply"}]}"""
    policy = load_policy()
    rules = _json("routing_rules.json")
    state = State()
    try:
        decisions = [route_message(m, policy, rules, state) for m in batch.get("messages", [])]
    finally:
        state.close()
    return {"decisions": decisions}
'''


# brand names patients tick or type for each controlled drug (the pharmacist's list)
CD_BRANDS = {
    "morphine": ["Zomorph", "MST Continus", "MST", "Oramorph"], "oxycodone": ["OxyContin", "Shortec", "OxyNorm", "Longtec"],
    "fentanyl": ["Matrifen", "Durogesic", "Fencino"], "methylphenidate": ["Concerta", "Equasym", "Medikinet", "Ritalin"],
    "lisdexamfetamine": ["Elvanse"], "pregabalin": ["Lyrica", "Alzain", "Lecaent"], "gabapentin": ["Neurontin"],
    "tramadol": ["Zydol", "Marol", "Zamadol"], "temazepam": [], "buprenorphine": ["BuTrans", "Butec", "Transtec", "Subutex"],
    "diazepam": [], "zopiclone": ["Zimovane"], "lorazepam": ["Ativan"], "zolpidem": ["Stilnoct"], "nitrazepam": ["Mogadon"],
}
# repeat items seen on last month's export and the way patients name them in free text
MEDICINE_WORDS = ["amlodipine", "atorvastatin", "statin", "salbutamol", "inhaler", "sertraline", "levothyroxine",
                  "omeprazole", "metformin", "ramipril", "bisoprolol", "fostair", "mirtazapine", "citalopram",
                  "lansoprazole", "co-codamol", "naproxen", "propranolol", "folic acid", "adcal", "microgynon",
                  "beclometasone", "losartan", "apixaban", "gaviscon", "doublebase", "tablets", "meds", "medication",
                  "repeat", "prescription"]
# a second ask inside an admin question: a repeat, a booking or a result - not "purely admin"
SECOND_ASK_WORDS = MEDICINE_WORDS + ["appointment", "book", "booking", "slot", "review", "jab", "smear", "check",
                                     "result", "come back", "came back", "blood test", "scan", "x-ray", "x ray",
                                     "also", "as well", "oh and", "while im"]
BANK_HOLIDAYS_2026 = ["2026-04-03", "2026-04-06", "2026-05-04", "2026-05-25", "2026-08-31", "2026-12-25", "2026-12-28"]


def reference_policy(params: dict) -> dict:
    phrases = [p for ps in params["red_flags"].values() for p in ps]
    cds = list(params["cd_drugs"])
    return {
        "hours": params["hours"],
        "uk_time": True,
        "closed_dates": BANK_HOLIDAYS_2026,
        "ooh_reply": params["ooh_reply"],
        "match": "generous",
        "red_flags": phrases,
        "route_repeats": True,
        "cd_drugs": cds + [b for d in cds for b in CD_BRANDS.get(d.lower(), [])],
        "pharm_cap": int(params["pharm_cap"]),
        "overflow_queue": "nurse_line",
        "desk_closed_dates": BANK_HOLIDAYS_2026,
        "repeat_in_body": True,
        "medicine_words": MEDICINE_WORDS,
        "auto_reply_admin": True,
        "templates": TEMPLATES,
        "clinical_words": CLINICAL_WORDS,
        "second_ask_words": SECOND_ASK_WORDS,
    }


SECTIONS = {  # config/policy/<file>: the keys it holds
    "10_red_flags.json": ["red_flags", "match"],
    "20_controlled_drugs.json": ["cd_drugs"],
    "25_pharmacy_desk.json": ["route_repeats", "pharm_cap", "overflow_queue", "desk_closed_dates", "repeat_in_body",
                              "medicine_words"],
    "30_hours.json": ["hours", "uk_time", "closed_dates"],
    "40_ooh_reply.json": ["ooh_reply"],
    "50_admin_templates.json": ["auto_reply_admin", "templates", "clinical_words", "second_ask_words"],
    "90_overrides.json": ["everything_to", "urgent_categories", "subject_keywords"],
}


def policy_files(policy: dict) -> dict:
    out = {}
    for name, keys in SECTIONS.items():
        part = {k: policy[k] for k in keys if k in policy}
        if part:
            out[name] = json.dumps(part, indent=2, ensure_ascii=False) + "\n"
    return out


def write_router(ws: Path, policy: dict, note: str = "") -> None:
    sysdir = Path(ws) / "system"
    (sysdir / "portal_triage" / "router.py").write_text(ROUTER, encoding="utf-8")
    pdir = sysdir / "config" / "policy"
    pdir.mkdir(parents=True, exist_ok=True)
    for name, text in policy_files(policy).items():
        (pdir / name).write_text(text, encoding="utf-8")
    if note:
        with open(sysdir / "CHANGELOG.md", "a", encoding="utf-8") as f:
            f.write("\n" + note + "\n")
