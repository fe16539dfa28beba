"""Shared model of the Brackenridge Foods service desk (grader side only, never in a workspace).

* ``tickets(...)``: synthetic tickets with production texture; each comes as (visible, truth).
  ``visible`` is what the intake hands the triage router; ``truth`` is what really happened on the
  floor: what kind of fault it was, how many people it stopped, which team can actually fix it and
  whether it justified paging the on-call (P1).
* ``resolve(...)``: how long a ticket took, given where the router put it. Queues work their own
  calendars; P1 pages the owning team's on-call (30 min) but only when the router sets it at
  creation: a reassigned P1 does not page anybody, it just lands in the next queue. A ticket in the
  wrong queue waits for that queue, costs a look (30 min), and is reassigned; the receiving team
  re-triages it and it joins their queue at P3 (the desk's handover rule).
  Capacity is finite: each queue answers only so many P2s (and its on-call so many pages) a day;
  past that, urgent tickets wait like P3s. Inflating priorities therefore buys nothing.
* ``kpi``: lost user-hours plus 10 hours for every wasted page (P1 to a team that cannot fix it, or
  for a fault that did not justify it). Lost user-hours = users x share of their work stopped x
  hours until fixed, capped: a dead handheld stops a picker completely but only for the rest of the
  shift (8 h); a slow laptop costs a fifth of someone's time, for up to a working week.

Deterministic: every random draw comes from a ``random.Random`` seeded by the caller.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from functools import lru_cache

from fdegym_env.tasklib.timeutil import Calendar

QUEUES = ("service_desk", "network", "apps", "field_ops", "vendor_korvex")
PRIORITIES = ("P1", "P2", "P3", "P4")
# queue -> (working weekdays, opens, closes), local time (Europe/London, GMT in Feb/Mar)
CAL = {
    "service_desk": Calendar({0, 1, 2, 3, 4}, 8, 18),
    "network": Calendar({0, 1, 2, 3, 4}, 8, 18),
    "apps": Calendar({0, 1, 2, 3, 4}, 9, 17),
    "field_ops": Calendar({0, 1, 2, 3, 4, 5}, 6, 22),       # Depot IT works days + back shift, Mon-Sat
    "vendor_korvex": Calendar({0, 1, 2, 3, 4, 5}, 7, 20),   # Korvex managed service, extended hours
}
# per queue and day: how many P1/P2 arrivals get urgent handling before the rest wait like P3s
CAP_P2 = {"service_desk": 8, "network": 8, "apps": 10, "field_ops": 7, "vendor_korvex": 7}
CAP_P1 = {"service_desk": 3, "network": 4, "apps": 2, "field_ops": 6, "vendor_korvex": 0}
# business hours until somebody in the queue picks the ticket up
RESPONSE = {"P2": 2.0, "P3": 8.0, "P4": 20.0}
VENDOR_RESPONSE = {"P2": 3.0, "P3": 12.0, "P4": 30.0}    # Korvex managed-service schedule
ONCALL = {"service_desk", "network", "apps", "field_ops"}  # Korvex has no out-of-hours cover
WORK_H = {"scanner": 0.75, "password": 0.25, "email": 0.5, "labels": 1.0, "wms": 1.0, "network": 1.0,
          "outage": 1.5, "mfp": 0.5, "starter": 1.0, "laptop": 1.5}
CAP_H = 8.0
# kind -> (share of the users' work stopped while it is open, cap on the hours that count)
IMPACT = {"scanner": (1.0, 8.0), "outage": (1.0, 8.0), "password": (0.5, 24.0), "labels": (0.5, 16.0),
          "wms": (0.5, 16.0), "email": (0.2, 40.0), "laptop": (0.2, 40.0), "mfp": (0.1, 40.0),
          "network": (0.2, 40.0), "starter": (0.1, 40.0)}
PAGE_COST_H = 10.0

SITES = {"CRB": "Carrbridge DC", "HLN": "Hollins Lane DC", "WMR": "Westmoor DC", "HO": "Brackenridge House"}
DEPOTS = ("CRB", "HLN", "WMR")
VIPS = ["g.ostler", "f.brackenridge"]


@lru_cache(maxsize=1 << 15)   # pure: every grading replays the same opening times (speed, issue 21)
def add_business_hours(t: datetime, hours: float, queue: str) -> datetime:
    return CAL[queue].add_hours(t, hours)


def _take(load: dict | None, key: tuple, cap: int) -> bool:
    """Count one arrival against a per-day capacity; False once the day is full."""
    if load is None:
        return True
    load[key] = load.get(key, 0) + 1
    return load[key] <= cap


def _pickup(t: datetime, queue: str, prio: str, paged: bool, load: dict | None = None) -> datetime:
    day = t.date().isoformat()
    if prio == "P1" and paged and queue in ONCALL and _take(load, (queue, day, "P1"), CAP_P1[queue]):
        return t + timedelta(minutes=30)
    p = "P2" if prio == "P1" else prio
    if p == "P2" and not _take(load, (queue, day, "P2"), CAP_P2[queue]):
        p = "P3"
    table = VENDOR_RESPONSE if queue == "vendor_korvex" else RESPONSE
    return add_business_hours(t, table[p], queue)


def resolve(opened: datetime, queue: str, prio: str, truth: dict, load: dict | None = None) -> tuple[float, bool]:
    """(hours until fixed, wasted page?) for one ticket routed to (queue, prio). ``load`` holds the
    per-day capacity counters of one replay (tickets must be resolved in the order they were opened)."""
    owner = truth["owner"]
    t = _pickup(opened, queue, prio, True, load)
    wasted = prio == "P1" and (queue != owner or not truth["p1_ok"] or queue not in ONCALL)
    if queue != owner:
        t = t + timedelta(minutes=30)                  # the wrong team looks, then reassigns
        t = _pickup(t, owner, "P3", False, load)       # handed over at P3; nobody is paged
    t = t + timedelta(hours=WORK_H[truth["kind"]])
    return (t - opened).total_seconds() / 3600.0, wasted


@lru_cache(maxsize=1 << 14)
def parse_ts(s: str) -> datetime:
    """Local wall-clock time of an ISO timestamp (offset dropped: the site's clock is what counts)."""
    return datetime.fromisoformat(s).replace(tzinfo=None)


# ------------------------------------------------------------------------------------------------
# ticket generation
def _title(s: str) -> str:
    return s[:1].upper() + s[1:]


def _typo(rng: random.Random, s: str, p: float = 0.25) -> str:
    """Swap two neighbouring letters now and then; some people never use capitals."""
    if rng.random() < p and len(s) > 12:
        i = rng.randrange(3, len(s) - 3)
        if s[i].isalpha() and s[i + 1].isalpha():
            s = s[:i] + s[i + 1] + s[i] + s[i + 2:]
    if rng.random() < 0.2:
        s = s.lower()
    return s


def _pick(rng: random.Random, options) -> str:
    return rng.choice(options)


# who writes in: first and last names, roles per kind of site
FIRST = ["Aileen", "Callum", "Dev", "Eilidh", "Fraser", "Gosia", "Hamish", "Iwona", "Jamie", "Kerry", "Lewis",
         "Mairi", "Niall", "Oksana", "Paddy", "Rhona", "Sandeep", "Tam", "Una", "Vytautas", "Wendy", "Yusuf",
         "Bozena", "Craig", "Dawn", "Grzegorz", "Leanne", "Marek", "Shaun", "Toni", "Ewan", "Agnieszka"]
LAST = ["McAllister", "Boyd", "Kowalczyk", "Reid", "Ahmed", "Fraser", "Nowak", "Campbell", "Petrauskas", "Shaw",
        "Mackenzie", "Dunn", "Okafor", "Grant", "Lindsay", "Baird", "Hughes", "Singh", "Wisniewski", "Muir",
        "Rafferty", "Donnelly", "Kaur", "Sutherland"]
DEPOT_ROLES = ["Team Leader, Goods In", "Shift Manager", "Team Leader - Chilled", "Despatch Supervisor",
               "Transport Planner", "Stock Control", "Team Leader (Ambient)", "Shift Manager, Nights", "Picker",
               "Inventory Controller", "Yard Supervisor"]
HO_ROLES = ["Finance Assistant", "Buyer - Ambient", "HR Advisor", "Category Analyst", "Payroll", "Credit Control",
            "PA to the MD", "Commercial Manager", "Customer Services", "Management Accountant"]
AREAS = ["pick line 2", "chilled", "ambient aisle 14", "goods in", "despatch", "frozen", "the mezz", "bay {n}",
         "loading door {n}", "returns"]
L1_NAMES = ["Sandeep", "Kerry", "Sam", "Jo", "Priya", "Kev"]


class _Who:
    def __init__(self, rng: random.Random, site: str):
        self.first, self.last = rng.choice(FIRST), rng.choice(LAST)
        self.site = site
        self.role = rng.choice(HO_ROLES if site == "HO" else DEPOT_ROLES)
        self.user = f"{self.first[0].lower()}.{self.last.lower()}" + ("" if site == "HO" else f".{site.lower()}")

    def sign(self, rng: random.Random) -> str:
        where = SITES[self.site]
        return _pick(rng, [
            f"\n\nThanks\n{self.first} {self.last}\n{self.role}\n{where}",
            f"\n\nCheers, {self.first}",
            f"\n\n{self.first}",
            f"\n\nMany thanks,\n{self.first} {self.last} | {self.role} | Brackenridge Foods, {where}",
            f"\n\nta\n{self.first.lower()}",
            f"\n\nKind regards\n\n{self.first} {self.last}\n{self.role}",
            f"\n\n{self.first}\n\n" + rng.choice(["Sent from my iPhone", "Sent from Outlook for Android",
                                                "Get Outlook for iOS", "Sent from my Galaxy"]),
            f"\n\n{self.first[0]}{self.last[0]}",
            f"\n\nThank you\n{self.first}",
            "",
        ])


def _area(rng: random.Random) -> str:
    return rng.choice(AREAS).format(n=rng.randrange(1, 30))


def _hm(rng: random.Random) -> str:
    return f"{rng.choice([5, 6, 7, 8, 9, 10, 11, 13, 14, 15, 16, 19, 20, 22, 23, 1, 2, 3])}:{rng.choice(['00', '15', '30', '45', '10', '40'])}"


# ---- handheld (RT7) tickets ----------------------------------------------------------------------
# What depot staff call the RT7 in tickets. The parked R15 list covers the first group only;
# the floor (and Depot IT's own notes) also say HHT, RF gun, RT-7 ...
DEVICE_NAMED = ["RT7", "rt7", "RT7", "scanner", "handheld", "scan gun", "RT7 scanner", "handheld scanner", "scanner"]
DEVICE_OTHER = ["HHT", "hht", "RF gun", "rf gun", "RT-7", "RT 7", "hand held", "hand-held"]
HH_SYMPTOMS = [
    "says profile missing after a reboot", "is stuck on the enrolment screen", "keeps logging me out every few minutes",
    "is asking for a device password nobody knows", "shows certificate expired and wont join the wifi",
    "is frozen on the sign in screen", "wont log on, tried twice now", "shows Enrolment failed 0x2F",
    "boots to the Korvex logo and just sits there", "says device not compliant", "lost its profile overnight",
    "wont get past the login even after a battery swap", "keeps throwing a cert error", "has gone back to the setup wizard",
    "logs in then drops straight back out", "says 'MDM policy not applied'", "wont take anyone's PIN",
]
HH_SHORT = ["profile missing", "stuck on enrolment", "cert error", "enrolment failed 0x2F", "frozen at sign in",
            "asking for a device password", "keeps logging out", "not compliant message", "back to setup screen"]
HH_SUBJ = ["{d} wont log in", "{d} not logging on", "{d} problem", "{d} issue - {site}", "URGENT {d} down",
           "{d} enrolment", "{d} {serial}", "{d} keeps logging out", "cert error on {d}", "{d} frozen",
           "{d} at {area}", "{n} x {d} down", "{d} not working", "{d} - profile", "Problem with {d}s on {area}"]
HH_EXTRA_DAY = ["Tried a reboot.", "Rebooted it {k} times.", "Team leader aware.", "{tl} knows.",
                "Using a spare for now.", "On a spare meantime.", "Swapped for one out the cage meantime.",
                "Took one from the cage for now.", "Picker doubled up with someone else for now.",
                "{first} is sharing with {first2} till it's sorted.", "Second time this week.", "Third one today.",
                "Battery is fine.", "Tried another battery.", "Can someone look asap please.", "asap pls",
                "It was fine yesterday.", "Worked first thing.", "Same thing happened at {hm} last week.",
                "Same as the one {first2} had on {day}."]
HH_EXTRA_NIGHT = ["On nights, no spares in the cage.", "No spares on nights.", "Nights - {n} pickers stood waiting.",
                  "{n} pickers waiting on nights.", "Cage is locked and no Depot IT till 6.", "cage locked till 6",
                  "Cant pick chilled without it.", "chilled pick stopped", "night shift, pick line stood down",
                  "{n} of us on nights and this is the second one gone.", "Nobody on site to swap it.",
                  "Nights. Please ring the shift phone.", "Ring {first} on the shift phone.",
                  "Nights at {site} - nothing we can do till someone's in.", "Night shift, {n} down now."]
VAGUE_SUBJ = ["cant log in", "device wont log on", "keeps logging me out", "password?", "no wifi on device", "frozen",
              "not working", "help", "login", "wont let me in", "broken", "profile", "error", "stuck", "sign in"]
VAGUE_BODY = ["says profile missing", "enrolment failed {code} on my device", "enrolment failed {code}",
              "kicks me out every few minutes", "keeps kicking me out", "asking for a password i dont have",
              "wants a password??", "cert error then no wifi", "certificate error", "stuck on sign in screen rebooted x{r}",
              "stuck on sign in", "", "", "white screen", "wont take my pin", "not compliant??", "same as yesterday",
              "doesnt work", "error {code}", "logged out again", "profile gone again", "says contact administrator"]


def _handheld_text(rng, who: _Who, channel: str, named: str, night: bool) -> tuple[str, str]:
    """(subject, body) of one handheld fault. named: 'kw' (a name R15's parked list knows),
    'other' (another name for the same device) or 'vague' (no device named at all)."""
    if named == "vague":
        subj = rng.choice(VAGUE_SUBJ)
        body = rng.choice(VAGUE_BODY).format(code=rng.choice(["0x2F", "0x2f", "0x2E", "0x1A", "2F"]), r=rng.randrange(2, 5))
        note = rng.choice(HH_EXTRA_NIGHT[:10]) if night and rng.random() < 0.7 else ""
        note = note.format(n=rng.randrange(2, 7))
        return _typo(rng, subj, 0.4), " ".join(x for x in (body, note) if x)
    dev = rng.choice(DEVICE_NAMED if named == "kw" else DEVICE_OTHER)
    serial = f"KX7-{rng.randrange(10000, 99999)}"
    area = _area(rng)
    n = rng.randrange(2, 7)
    subj = rng.choice(HH_SUBJ).format(d=dev, site=who.site, serial=serial, area=area, n=n)
    sym = rng.choice(HH_SYMPTOMS)
    core = rng.choice([
        f"my {dev} {sym}",
        f"the {dev} on {area} {sym}",
        f"{dev} {serial} {sym}",
        f"got a {dev} at {area} that {sym}",
        f"{n} {dev}s on {area} have gone the same way since {_hm(rng)} - {rng.choice(HH_SHORT)}",
        f"{who.first}'s {dev} {sym}",
        f"{dev} {sym}",
    ])
    extras = HH_EXTRA_NIGHT if night else HH_EXTRA_DAY
    extra = " ".join(rng.sample(extras, rng.choice([0, 1, 1, 2]))).format(
        n=n, hm=_hm(rng), k=rng.choice(["two", "3", "a few", "2"]), tl=rng.choice(FIRST), first=who.first,
        first2=rng.choice(FIRST), day=rng.choice(["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"]),
        site=who.site)
    if channel == "phone":   # logged by an L1 analyst while the caller is on the line
        body = rng.choice([
            f"Caller ({who.first} {who.last}, {who.role}) reports {core}. {extra}",
            f"{who.first} rang from {SITES[who.site]}: {core}. {extra}",
            f"User called - {core}. {extra} " + rng.choice(["Advised will pass on.", "Told them we'd pass it on.",
                                                              "Advised to use a spare.", "Logged for follow-up.", ""]),
            f"{_title(core)}. {extra} Call taken by {rng.choice(L1_NAMES)}.",
            f"ph call {who.site} - {core}. {extra}",
        ])
    elif channel == "kiosk":
        body = f"{core}. {extra}" if extra else core
    else:
        body = rng.choice(["", "Hi, ", "Hiya\n\n", "Morning IT,\n\n", "Hello desk, ", "Evening - "]) + \
            _title(core) + ". " + extra + who.sign(rng)
    return _typo(rng, subj), body.strip()


# ---- everything else ---------------------------------------------------------------------------
def _other_text(rng, kind: str, who: _Who, channel: str) -> tuple[str, str]:
    day = rng.choice(["Monday", "Tuesday", "yesterday", "this morning", "the weekend", "Friday", "last night"])
    app = rng.choice(["Outlook", "Teams", "Stockwise", "the VPN", "Sage", "the payroll portal", "SharePoint"])
    if kind == "password":
        subj, core = rng.choice([
            ("MFA - new phone", f"Got a new phone {day} and the authenticator isnt set up on it, so I cant log in to {app}"),
            ("Authenticator", "new phone, authenticator app still on the old one, can't approve the sign in"),
            ("cant sign in", f"Changed my mobile {day} - MFA prompts still go to the old handset. {rng.choice(['Can you reset it?', 'Can it be reset?', 'can you reset please', 'How do I move it over?'])}"),
            ("MFA reset please", f"Lost my phone {day}, need the authenticator re-registered. Using my partner's to email this"),
            ("new mobile", f"i have a new mobile and {app} wants the code from the authenticator which isnt on it"),
            ("Locked out", f"Locked out of my account after changing the password {day}, need a reset pls"),
            ("password expired", "Password expired and the reset link in the email doesnt work"),
            ("account locked", f"tried 3 times and now it says my account is locked. need to get into {app}"),
            ("Stockwise login", "can't log in to Stockwise, says account locked"),
            ("SSPR not working", "Self service reset says my security answers are wrong - I haven't changed them"),
            ("password", f"forgot my password over {day}, please reset"),
            ("login problem", f"It keeps saying my password is wrong for {app} but it works on the laptop"),
            ("Can't log on", f"cant log on since {day}, it says contact your administrator"),
            ("MFA", f"authenticator stopped sending the number match after I restored my phone {day}"),
        ])
    elif kind == "email":
        subj, core = rng.choice([
            ("Outlook not syncing", f"Outlook stuck on 'updating folder' since {day}"),
            ("shared mailbox", f"Can I get access to the {rng.choice(['transport@', 'credit.control@', 'orders@', 'goodsin@'])} shared mailbox please, my manager has OK'd it"),
            ("Teams calls dropping", f"Teams calls drop after about {rng.randrange(3, 12)} minutes on the laptop"),
            ("calendar", "Can't see my manager's calendar any more, it just says no permissions"),
            ("out of office", "Out of office won't turn on from Outlook - greyed out"),
            ("emails bouncing", f"emails to {rng.choice(['Tesco', 'Booker', 'our haulier', 'the bank'])} bouncing back undeliverable since {day}"),
            ("distribution list", "please add me to the depot managers distribution list"),
            ("Teams", f"Teams won't open, just spins, since {day}"),
        ])
    elif kind == "labels":
        subj, core = rng.choice([
            ("Label printer jam", f"Zebra on despatch {rng.randrange(1, 9)} jamming every {rng.randrange(5, 20)} labels"),
            ("labels printing blank", f"despatch labels coming out blank on bay {rng.randrange(1, 30)}"),
            ("Zebra offline", f"The Zebra at {_area(rng)} shows offline, paper and ribbon fine"),
            ("labels off the edge", "pallet labels printing half off the edge, barcodes won't read"),
            ("label printer", f"label printer at goods in keeps printing two labels for every one since {day}"),
            ("Ribbon?", "zebra says ribbon out but we put a new one in"),
        ])
    elif kind == "wms":
        subj, core = rng.choice([
            ("Pick list not dropping", f"Stockwise pick lists not dropping for wave {rng.randrange(1, 9)}"),
            ("replen tasks missing", "WMS replen tasks missing for chilled, team leader asking"),
            ("Stockwise slow", f"Stockwise taking {rng.randrange(20, 90)} seconds per screen at {_area(rng)}"),
            ("wave stuck", f"wave {rng.randrange(1, 9)} stuck in released, nothing coming through to the pickers"),
            ("stock adjustment", "Stockwise wont let me post a stock adjustment, says period closed"),
        ])
    elif kind == "network":
        subj, core = rng.choice([
            ("VPN keeps dropping", "VPN drops every hour when working from home"),
            ("office wifi slow", f"Wifi in the {rng.choice(['2nd floor meeting room', 'canteen', 'transport office', 'training room'])} really slow"),
            ("no internet in transport office", "PC in the transport office says no internet, the others are OK"),
            ("VPN", "can't connect to the VPN from the hotel, tried two different wifis"),
            ("network drive", "Can't see the S: drive since the weekend"),
        ])
    elif kind == "mfp":
        subj, core = rng.choice([
            ("scanner on copier", f"The scanner on the {rng.choice(['2nd', '3rd', 'ground'])} floor copier wont scan to email"),
            ("scan to email broken", "MFP scan to email not arriving"),
            ("Copier scanner", f"Ricoh by {rng.choice(['finance', 'HR', 'the post room'])} - scanner bit jams on every sheet"),
            ("copier", f"photocopier scanner says SC-{rng.randrange(100, 999)} error, printing still works"),
            ("Scanning not working", "Can't scan to my email from the Ricoh since the password change"),
            ("scanner", "the copier scanner puts a black line down every page"),
            ("scan-to-email", "scan-to-email from the MFP by reception goes nowhere"),
        ])
    elif kind == "starter":
        subj, core = rng.choice([
            ("New starter Monday", f"New starter in {rng.choice(['finance', 'transport', 'buying', 'credit control'])} on Monday, needs laptop + accounts"),
            ("Leaver - disable account", "Leaver on Friday, please disable accounts and forward email to me"),
            ("new starter", f"{rng.choice(FIRST)} {rng.choice(LAST)} starts {rng.choice(['Monday', 'the 16th', 'next week'])}, can we get them set up"),
            ("Leaver", "Please remove access for a leaver, last day today"),
            ("Onboarding - agency staff", "3 agency starting next week need Stockwise logins"),
        ])
    else:  # laptop
        subj, core = rng.choice([
            ("laptop very slow", f"Laptop takes {rng.randrange(5, 20)} min to boot since the update"),
            ("Excel crashing", "Excel crashes when I open the weekly margin file"),
            ("docking station", "2nd screen not detected on the dock"),
            ("keyboard", "a few keys stopped working on my laptop"),
            ("Laptop battery", "laptop dies after an hour off charge"),
            ("blue screen", f"blue screen twice {day}, something about a driver"),
            ("Adobe", "can't open PDFs, Adobe says licence expired"),
        ])
    older = f"INC00{rng.randrange(40100, 41790)}"
    extra = rng.choice(["", "", "", "", "", "",
                        f" Need it for a {rng.choice(['2pm', '10am', '3:30', '9 oclock', '4pm', '11:30'])} "
                        f"{rng.choice(['call', 'meeting', 'Teams call', 'review', 'supplier call'])}.",
                        f" {rng.choice(['Thanks in advance', 'Thanks for your help', 'Appreciate it', 'Cheers in advance', 'Thanks v much', 'Many thanks for looking'])}{rng.choice(['.', '!', ''])}",
                        f" I'm at {rng.choice(list(SITES.values()))} {rng.choice(['today', 'till Thursday', 'all week', 'this afternoon'])}.",
                        rng.choice([" Not urgent.", " not urgent tbh", " Bit urgent please.", " Quite urgent!", " URGENT"]),
                        f" Raised this {rng.choice(['before', 'last week', 'on ' + day, 'twice'])} ({older}) but "
                        f"{rng.choice(['no reply', 'nobody came back to me', 'it got closed', 'still waiting'])}.",
                        f" My number is 07{rng.randrange(100, 999)} {rng.randrange(100000, 999999)} if easier.",
                        f" ext {rng.randrange(4100, 4999)}"])
    opener = rng.choice(["", "", "", "Hi, ", "Hi team\n\n", "Morning, ", "Hello,\n\n", "Hi - ", "hiya ", "Quick one - ",
                         "Sorry to bother you but ", "Not sure who to ask but ", "Afternoon, ", "Hi IT\n\n", "Dear IT, "])
    if opener and not opener.endswith("\n"):
        core = core[:1].lower() + core[1:]
    body = opener + core + ("" if core[-1] in ".?!" else ".") + extra
    if channel == "email":
        body += who.sign(rng)
    body = body.strip()
    if kind != "mfp" and rng.random() < 0.5:     # (copier tickets keep the word that says copier)
        body = _typo(rng, body, 0.15)
    if rng.random() < 0.3:
        subj = rng.choice(GENERIC_SUBJ[kind])
    return _typo(rng, subj), body


GENERIC_SUBJ = {
    "password": ["login", "cant get in", "help - locked out", "account", "sign in issue", "Password reset", "access",
                 "MFA", "authenticator", "can't access email"],
    "email": ["Outlook", "email", "Teams issue", "mailbox", "email problem", "O365"],
    "labels": ["printer", "labels", "Zebra", "despatch printer", "label issue"],
    "wms": ["Stockwise", "WMS", "stockwise problem", "pick lists", "urgent - stockwise"],
    "network": ["wifi", "VPN", "internet", "connection", "network issue"],
    "mfp": ["copier", "scanning", "MFP", "printer/copier", "scan to email"],
    "starter": ["new starter", "leaver", "Starter/leaver", "HR request", "access request"],
    "laptop": ["laptop", "PC issue", "computer problem", "IT problem", "slow laptop", "help"],
}

OUTAGE_CORE = ["no network across the whole depot", "site down, nothing connects", "outage - goods in and despatch down",
               "whole depot offline", "all tills and phones dead", "everything is down for everyone",
               "whole site lost connection", "all scanners offline and the Stockwise PCs too",
               "total outage, BT router lights red"]


def _forward(rng, subj: str, body: str, who: _Who, when: datetime) -> tuple[str, str]:
    """Wrap a ticket as a forwarded email: a colleague or manager sends it on to the desk."""
    fwd = _Who(rng, who.site)
    sent = (when - timedelta(minutes=rng.randrange(5, 600))).strftime("%A, %d %B %Y %H:%M")
    top = rng.choice(["FYI - see below, can someone pick this up", "Forwarding on behalf of " + who.first,
                      "Please see below. This keeps happening.", "fwd - no answer on 4400", "Can IT look at this pls",
                      f"{who.first} has asked me to send this on", "see below - who deals with this?",
                      f"Sending on for {who.first}, they can't get through on the phone"])
    body = (f"{top}\n\n{fwd.first}\n\n-----Original Message-----\nFrom: {who.first} {who.last}\nSent: {sent}\n"
            f"To: {fwd.first} {fwd.last}\nSubject: {subj}\n\n{body}")
    return rng.choice(["FW: ", "Fw: ", "FWD: "]) + subj, body


# kind: (owner, p1_ok, sites, weight, channels)
OTHER = {
    "password": ("service_desk", False, "any", 26, ("email", "portal", "phone")),
    "email": ("service_desk", False, "any", 16, ("email", "portal")),
    "labels": ("field_ops", False, "depot", 9, ("phone", "email")),
    "wms": ("apps", False, "depot", 8, ("phone", "portal")),
    "network": ("network", False, "any", 7, ("portal", "email")),
    "mfp": ("service_desk", False, "ho", 5, ("portal", "email")),
    "starter": ("service_desk", False, "any", 6, ("portal",)),
    "laptop": ("service_desk", False, "any", 9, ("portal", "email", "phone")),
}
CATS = {"password": "Account/Password", "email": "Email/Teams", "labels": "Printer/Label", "wms": "Other",
        "network": "Other", "mfp": "Other", "starter": "Other", "laptop": "Other"}
PERSONAL = ["gmail.com", "hotmail.co.uk", "outlook.com", "icloud.com", "yahoo.co.uk"]


def _when(rng: random.Random, day0: datetime, days: int, depot: bool, night: bool) -> datetime:
    for _ in range(100):
        d = day0 + timedelta(days=rng.randrange(days))
        wd = d.weekday()
        if night:
            hour = rng.choice([22, 23, 0, 1, 2, 3, 4, 5])
            if wd == 6 and hour >= 22:      # no Sunday night shift start
                continue
        elif depot:
            if wd == 6:
                continue
            hour = rng.randrange(6, 22)
        else:
            if wd >= 5:
                continue
            hour = rng.randrange(7, 18)
        return d.replace(hour=hour, minute=rng.randrange(60), second=rng.randrange(60))
    return day0.replace(hour=10)


def tickets(rng: random.Random, params: dict, day0: datetime, days: int, id_start: int,
            n_scanner: int, n_other: int, n_outage: int) -> list[tuple[dict, dict]]:
    """Tickets opened in [day0, day0+days), sorted by time. Returns [(visible, truth)].

    Handheld tickets: where pickers raise them at the kiosks (match_on category) a share
    ``phone_share`` still comes from supervisors by phone or email, naming the device; elsewhere
    they come by phone/email and name the device with probability ``kw_share``. A named device is
    called something outside the parked R15 list (HHT, RF gun, RT-7 ...) with probability
    ``alias_share``."""
    kiosk = params["match_on"] == "category"
    kw_share = float(params["kw_share"])
    night_share = float(params["night_share"])
    alias_share = float(params.get("alias_share", 0.0))
    phone_share = float(params.get("phone_share", 0.0)) if kiosk else 1.0
    out = []
    # how each handheld ticket arrives and what it calls the device, in the stated proportions
    # (a week's mix, shuffled): kiosk or not, then vague / another name / a parked-list name
    n_kiosk = round(n_scanner * (1.0 - phone_share)) if kiosk else 0
    ways = []
    for at_kiosk, n in ((True, n_kiosk), (False, n_scanner - n_kiosk)):
        named_share = kw_share if (at_kiosk or not kiosk) else 1.0   # supervisors who ring in say what it is
        n_named = round(n * named_share)
        n_alias = round(n_named * alias_share)
        ways += [(at_kiosk, "vague")] * (n - n_named) + [(at_kiosk, "other")] * n_alias + \
            [(at_kiosk, "kw")] * (n_named - n_alias)
    rng.shuffle(ways)
    for at_kiosk, named in ways:
        site = rng.choice(DEPOTS)
        night = rng.random() < night_share
        when = _when(rng, day0, days, True, night)
        who = _Who(rng, site)
        if at_kiosk:
            channel, category, req = "kiosk", "Device/Handheld", f"kiosk-{site.lower()}-0{rng.randrange(1, 4)}"
        else:
            channel, category, req = rng.choice(["phone", "phone", "email"]), "", who.user
        subj, body = _handheld_text(rng, who, channel, named, night)
        users = rng.choice([1, 1, 1, 1, 2, 2, 3, 3, 4, 5, 6])
        vis = {"channel": channel, "category": category, "site": site, "requester": req,
               "subject": subj, "body": body, "opened": when}
        truth = {"kind": "scanner", "users": users, "owner": params["owner_queue"],
                 "p1_ok": params["scanner_priority"] == "P1"}
        out.append((vis, truth))
    kinds = list(OTHER)
    weights = [OTHER[k][3] for k in kinds]
    for _ in range(n_other):
        kind = rng.choices(kinds, weights)[0]
        owner, p1_ok, where, _w, channels = OTHER[kind]
        if where == "depot":
            site = rng.choice(DEPOTS)
        elif where == "ho":
            site = "HO"
        else:
            site = rng.choice(["HO", "HO", "HO"] + list(DEPOTS))
        when = _when(rng, day0, days, site != "HO", False)
        who = _Who(rng, site)
        channel = rng.choice(channels)
        subj, body = _other_text(rng, kind, who, channel)
        req, vis_site = who.user, site
        if site == "HO" and rng.random() < 0.04:
            req = rng.choice(VIPS)
        if channel == "email" and site != "HO" and rng.random() < 0.2:
            # locked out / no work phone: they mail from their own address; the connector cannot map
            # a personal address to a site, so the site is only in the signature
            req = f"{who.first.lower()}{rng.choice(['.', '_', ''])}{who.last.lower()}{rng.randrange(70, 99)}@{rng.choice(PERSONAL)}"
            vis_site = ""
            body = body.rstrip() + f"\n\n{who.first} {who.last}, {who.role}, {SITES[site]}"
        category = CATS[kind] if channel in ("portal", "kiosk") else ""
        if kiosk and site != "HO" and kind in ("password", "labels") and rng.random() < 0.5:
            channel, category, req = "kiosk", CATS[kind], f"kiosk-{site.lower()}-0{rng.randrange(1, 4)}"
            vis_site = site
        if category and rng.random() < 0.15:
            category = "Other"                      # users pick the wrong box
        if channel == "email" and rng.random() < 0.15:
            subj, body = _forward(rng, subj, body, who, when)
        vis = {"channel": channel, "category": category, "site": vis_site, "requester": req,
               "subject": subj, "body": body, "opened": when}
        users = rng.choice([2, 3, 4]) if kind in ("labels", "wms") else 1
        out.append((vis, {"kind": kind, "users": users, "owner": owner, "p1_ok": p1_ok}))
    for _ in range(n_outage):
        site = rng.choice(DEPOTS)
        when = _when(rng, day0, days, True, rng.random() < 0.3)
        who = _Who(rng, site)
        core = rng.choice(OUTAGE_CORE)
        subj = rng.choice([f"{site} down", "OUTAGE", f"Whole depot down - {SITES[site]}", f"site down - {site}",
                           "urgent - nothing working", f"{SITES[site]} - no network"])
        body = rng.choice([f"{who.first} rang from {SITES[site]}: {core}. Since about {when:%H:%M}.",
                           f"Caller reports {core}. {rng.choice(['BT router lights red.', 'Tried power cycling the switch.', 'Loading is stopped.', ''])}",
                           f"{_title(core)}. {who.first} {who.last}, {who.role}."])
        vis = {"channel": "phone", "category": "", "site": site, "requester": who.user,
               "subject": subj, "body": body.strip(), "opened": when}
        out.append((vis, {"kind": "outage", "users": rng.randrange(15, 41), "owner": "network", "p1_ok": True}))
    out.sort(key=lambda vt: vt[0]["opened"])
    last = id_start                                # other intake (HR, facilities) shares the counter
    for vis, _t in out:
        last += rng.choice([1, 1, 2, 3, 5])
        vis["id"] = f"INC{last:07d}"
        vis["opened"] = vis["opened"].strftime("%Y-%m-%dT%H:%M:%S") + "+00:00"
    return [({k: vis[k] for k in ("id", "opened", "channel", "site", "requester", "category", "subject", "body")},
             truth) for vis, truth in out]


def loss_of(vis: dict, truth: dict, queue: str, prio: str, load: dict | None = None) -> tuple[float, bool, float]:
    """(lost user-hours, wasted page?, hours to fix) for one routed ticket."""
    hours, wasted = resolve(parse_ts(vis["opened"]), queue, prio, truth, load)
    rate, cap = IMPACT[truth["kind"]]
    return truth["users"] * rate * min(cap, hours), wasted, hours
