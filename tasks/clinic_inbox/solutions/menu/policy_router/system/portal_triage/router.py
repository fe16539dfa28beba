"""Entry point production calls: route_batch(batch).

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
    try:
        t = dt.datetime.fromisoformat(str(value or "").strip().replace(" ", "T").replace("Z", "+00:00"))
    except ValueError:
        return None                       # no time: treated as closed, so the patient is safety-netted
    if t.tzinfo is None:
        return t                          # naive stamps (old MLL connector) are UK wall-clock already
    t = t.astimezone(dt.timezone.utc).replace(tzinfo=None)
    return t + uk_offset(t) if uk_time else t   # UTC instant -> UK wall-clock time


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
