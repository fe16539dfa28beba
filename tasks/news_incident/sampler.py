"""Procedural variants of news_incident (`variant="sample:N"`).

Each sample changes at least one thing that breaks a solution memorised from base (how UKNS or
Kestrel kill stories, Meridian's embargo timezone, the legal scope, the desk's capacity), and
renders the prose that people and briefs say about it (prose(params)).
"""

from __future__ import annotations

import random

from fdegym_env.tasklib.sampling import SamplerContext

CTX = SamplerContext.of(__name__)

STAGE_WORDS = {"arrest": "arrest", "charge": "charge", "court-hearing": "court appearances",
               "trial": "trial", "verdict": "verdict (until sentence)", "sentencing": "sentencing",
               "appeal": "appeals", "inquest": "inquests"}
FREE_WORDS = {"sentencing": "sentencing reports", "appeal": "appeal judgments", "inquest": "inquests"}
TZ = {-4: "New York time (US Eastern, UTC-4 in April)",
      -5: "Chicago time (US Central, UTC-5 in April)",
      -7: "Los Angeles time (US Pacific, UTC-7 in April)"}
# how the field came to be on that clock: one story with the desk's move, whatever the variant
CLOCK = {-4: "New York", -5: "Chicago", -7: "Los Angeles"}
NOTICE = {-5: "CN-2026-06", -7: "CN-2026-07"}


def tz_history(off: int) -> str:
    """Meridian support's account of when the embargo field left UTC (and, where it did, when the desk moved)."""
    told = ("Spec v2 (2019) said UTC; the 2024 platform migration put the field on our embargo desk's local "
            "clock, announced in client notice CN-2024-17")
    if off == -4:
        return told + "."
    return (told + f". The desk was in New York until it moved to {CLOCK[off]} on 2 March this year (client "
            f"notice {NOTICE[off]}); since then the field has been {CLOCK[off]} time.")


def prose(p: dict) -> dict:
    """The sentences people, briefs and docs use for this truth."""
    uk = {"ref": "UKNS sends a kill as a separate advisory (msgtype advisory) headed 'KILL KILL KILL <slug>'; "
                 "its `ref` field carries the guid of the story being killed.",
          "text": "Since UKNS moved us onto their new distribution platform, a kill is an advisory headed "
                  "'MANDATORY KILL - <slug>' with NO ref field; the slug is quoted in the body.",
          "cancel": "UKNS now withdraws a story the NewsML way: the same slug re-sent as a new version with "
                    "pubstatus 'canceled' (headline 'WITHDRAWN: ...')."}[p["ukns_kill"]]
    stages = [STAGE_WORDS[s] for s in ["arrest", "charge", "court-hearing", "trial", "verdict", "sentencing",
                                       "appeal", "inquest"] if s in p["legal_stages"]]
    free = [s for s in ["sentencing", "appeal", "inquest"] if s not in p["legal_stages"]]
    scope = (f"Any report of UK criminal proceedings at the stage of {', '.join(stages[:-1])} or {stages[-1]} "
             + ("that names the suspect or defendant" if p["legal_needs_name"] else "whether or not anyone is named")
             + " must be held for legal review before publication (subjects tag 'crime' plus the stage tag; "
               "country GB). ")
    runs = (["police appeals with no suspect"] + (["stories where nobody is named"] if p["legal_needs_name"] else [])
            + [FREE_WORDS[w] for w in free] + ["foreign cases"])
    scope += "These can run without legal review: " + ", ".join(runs) + "."
    spike = int(p["spike_priority"])
    cap = (f"The desk can clear about {p['desk_capacity']} held stories a day on top of kills; past that they go "
           f"stale in the queue and the day desk bins them. ")
    if spike <= 5:
        cap += (f"With that, legal copy at priority {spike} or lower (priority {spike}-5) will never get looked at: "
                f"spike it (drop it), don't queue it. Only priority 1-{spike - 1} legal copy should come to us.")
    else:
        cap += "That covers everything legal needs to see; don't spike anything, and don't send us anything else."
    off = int(p["mrd_embargo_offset_h"])
    return {"ukns_kill_text": uk, "mrd_tz_text": TZ[off], "mrd_tz_history": tz_history(off),
            "legal_scope_text": scope, "capacity_text": cap}


def sample(rng: random.Random) -> dict:
    """One hidden truth: 1-3 breaking changes from base, drawn from the named kinds."""
    kinds = ["format", "rule", "timezone", "capacity", "people"]
    chosen = rng.sample(kinds, rng.choice([1, 1, 2, 2, 3]))
    p: dict = {}
    if "format" in chosen:
        p["ukns_kill"] = rng.choice(["text", "cancel"])
    if "people" in chosen:
        p["kna_kill_phrase"] = rng.choice(["WITHDRAWN", "MANDATORY KILL", "PLEASE KILL"])
        p["night_editor_gone_after_asks"] = rng.choice([1, 2, 3])
        p["handover_after_hours"] = rng.choice([20, 26, 40])
    if "timezone" in chosen:
        p["mrd_embargo_offset_h"] = rng.choice([-5, -7])
    if "rule" in chosen:
        extra = rng.choice([["sentencing"], ["sentencing", "appeal"], ["inquest", "sentencing"]])
        p["legal_stages"] = CTX.base["legal_stages"] + extra
        p["legal_needs_name"] = rng.choice([True, False])
    if "capacity" in chosen:
        p["desk_capacity"] = rng.choice([4, 5])
        p["spike_priority"] = 3
        p["kna_routine_per_day"] = rng.choice([7, 8, 9])
    return {"angle": "+".join(chosen), "params": {**p, **prose(CTX.params("base", **p))}}
