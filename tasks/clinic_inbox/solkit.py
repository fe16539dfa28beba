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
  2. repeat requests: controlled drugs -> doctor; others -> pharmacy desk up to its daily capacity
     (counted per pharmacy working day, weekend requests count against Monday), then the nurse line
  3. pure admin questions matching an approved template (and nothing clinical) -> auto_reply
  4. everything else by portal category (config/routing_rules.json)
Out of hours, every message also gets the current safety-netting reply, word for word.
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
    s = str(s or "").lower().replace("\u2019", "'")
    return " " + " ".join(re.sub(r"[^a-z0-9]+", " ", s).split()) + " "


def parse_ts(value):
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
        t = t.astimezone(dt.timezone.utc).replace(tzinfo=None)   # UK winter time = UTC
    return t


def is_open(policy, t):
    if t is None:
        return False          # unknown time: treat as closed, so the patient is safety-netted
    span = policy["hours"].get(DAYKEYS[t.weekday()])
    if not span:
        return False
    return span[0] <= t.strftime("%H:%M") < span[1]


def _has_any(text, phrases):
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


def pharmacy_day(t):
    d = (t or dt.datetime(2000, 1, 3)).date()
    while d.weekday() >= 5:
        d += dt.timedelta(days=1)
    return d.isoformat()


def route_message(msg, policy, rules, state):
    mid = msg.get("id")
    category = (msg.get("category") or "Other").strip()
    items = msg.get("items") or []
    text = norm(" ".join([msg.get("subject") or "", msg.get("body") or ""] + [str(i) for i in items]))
    t = parse_ts(msg.get("received_at"))
    reply = None
    priority = "routine"

    if policy.get("everything_to"):
        queue = policy["everything_to"]
        if category in policy.get("urgent_categories", []):
            priority = "urgent"
    elif policy.get("red_flags") is not None and _has_any(text, policy["red_flags"]):
        queue, priority = "nurse_line", "urgent"
    elif classifier.is_urgent(msg.get("subject") or ""):
        queue, priority = "nurse_line", "urgent"          # legacy subject-line score, kept
    elif policy.get("subject_keywords") and any(norm(k) in norm(msg.get("subject")) for k in policy["subject_keywords"]):
        queue, priority = "nurse_line", "urgent"
    elif policy.get("route_repeats") and (items or category == "Repeat prescription"):
        cds = policy.get("cd_drugs")
        if cds is not None and _has_any(text, cds):
            queue = "doctor"
        else:
            prior = state.seen(mid)
            if prior:
                queue = prior
            elif state.take_pharmacy_slot(pharmacy_day(t), policy.get("pharm_cap")):
                queue = "pharmacy_desk"
            else:
                queue = policy.get("overflow_queue", "nurse_line")
    else:
        queue = rules["categories"].get(category, rules["categories"]["Other"])["queue"]
        if (policy.get("auto_reply_admin") and category in ("Admin query", "Other") and not items
                and not _has_any(text, policy.get("clinical_words", []))):
            for code, tpl in policy.get("templates", {}).items():
                if _has_any(text, tpl["use_when"]):
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


def reference_policy(params: dict) -> dict:
    phrases = [p for ps in params["red_flags"].values() for p in ps]
    return {
        "hours": params["hours"],
        "ooh_reply": params["ooh_reply"],
        "red_flags": phrases,
        "route_repeats": True,
        "cd_drugs": list(params["cd_drugs"]),
        "pharm_cap": int(params["pharm_cap"]),
        "overflow_queue": "nurse_line",
        "auto_reply_admin": True,
        "templates": TEMPLATES,
        "clinical_words": CLINICAL_WORDS,
    }


SECTIONS = {  # config/policy/<file>: the keys it holds
    "10_red_flags.json": ["red_flags"],
    "20_controlled_drugs.json": ["cd_drugs"],
    "25_pharmacy_desk.json": ["route_repeats", "pharm_cap", "overflow_queue"],
    "30_hours.json": ["hours"],
    "40_ooh_reply.json": ["ooh_reply"],
    "50_admin_templates.json": ["auto_reply_admin", "templates", "clinical_words"],
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
