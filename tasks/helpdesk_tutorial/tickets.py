"""Synthetic Brackenridge Foods tickets with production texture (grader side only).

``tickets(...)`` returns [(visible, truth)]: ``visible`` is what the intake hands the triage router;
``truth`` is what really happened on the floor (what kind of fault, how many people it stopped,
which team can fix it, whether it justified paging the on-call). The wording lives in tables of
templates rendered by ``say``; every random draw comes from the ``random.Random`` the caller seeds.
"""

from __future__ import annotations

import random
import re
from datetime import datetime, timedelta
from functools import lru_cache

SITES = {"CRB": "Carrbridge DC", "HLN": "Hollins Lane DC", "WMR": "Westmoor DC", "HO": "Brackenridge House"}
DEPOTS = ("CRB", "HLN", "WMR")
VIPS = ["g.ostler", "f.brackenridge"]
PERSONAL = ["gmail.com", "hotmail.co.uk", "outlook.com", "icloud.com", "yahoo.co.uk"]


@lru_cache(maxsize=None)
def _tokens(text: str) -> tuple[str, ...]:
    return tuple(re.findall(r"[{}|]|[^{}|]+", text))


def say(rng: random.Random, text: str | list, **v) -> str:
    """Render wording the way Python evaluates a list of f-strings. ``{a|b|c}`` renders every
    alternative (left to right, with their own draws), then picks one; ``{5-20}`` draws
    ``rng.randrange(5, 20)``; ``{name}`` inserts ``v[name]``: a string is rendered like wording, a
    list is picked from like ``{a|b|c}``, a callable is called (each use draws anew). A list
    ``text`` is picked from the same way; outside braces ``|`` is just a character.

    >>> say(random.Random(3), "Zebra on despatch {1-9} {jams|is offline} at {area}", area=["goods in", "bay {1-30}"])
    'Zebra on despatch 4 jams at bay 12'
    """
    if isinstance(text, list):
        return rng.choice([say(rng, t, **v) for t in text])
    stack = [[[]]]                      # open groups, each a list of alternatives, each a list of parts
    for tok in _tokens(text):
        if tok == "{":
            stack.append([[]])
        elif tok == "|" and len(stack) > 1:
            stack[-1].append([])
        elif tok == "}":
            alts = ["".join(a) for a in stack.pop()]
            stack[-1][-1].append(rng.choice(alts) if len(alts) > 1 else _value(rng, alts[0], text, v))
        else:
            stack[-1][-1].append(tok)
    return "".join(stack[0][0])


def _value(rng: random.Random, key: str, text: str, v: dict) -> str:
    if m := re.fullmatch(r"(\d+)-(\d+)", key):
        return str(rng.randrange(int(m[1]), int(m[2])))
    if key not in v:
        raise KeyError(f"wording {text!r}: no value for {{{key}}}; pass it to say()")
    val = v[key]() if callable(v[key]) else v[key]
    return say(rng, val, **v) if isinstance(val, (str, list)) else str(val)


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


# ---- what time of day people say it is ------------------------------------------------------------
# A greeting or a "this afternoon" agrees with the clock of the ticket that carries it: Morning 05:00-
# 11:59, Afternoon 12:00-16:59, Evening 17:00-23:59; between midnight and 05:00 people just say Hi. The
# wording tables draw greetings freely; the functions below put the right one in after the draw, so
# the random stream (ticket numbers, times, texts) is the same as without them.
GREETING = re.compile(r"^(morning|afternoon|evening|hi)\b", re.I)
SINCE = re.compile(r"\bsince (\d{1,2}):(\d\d)\b")


def part_of_day(t: datetime) -> str:
    """The greeting that fits ``t``."""
    return "Morning" if 5 <= t.hour < 12 else "Afternoon" if 12 <= t.hour < 17 else "Evening" if t.hour >= 17 \
        else "Hi"


def _cased(new: str, old: str) -> str:
    return new.lower() if old == old.lower() else new


def _at_time(text: str, t: datetime) -> str:
    """``text`` with its opening greeting and any "this afternoon" put right for the time ``t``."""
    m = GREETING.match(text)
    if m and m[1].lower() != "hi":
        text = _cased(part_of_day(t), m[1]) + text[m.end():]
    if t.hour >= 17:
        text = re.sub(r"this afternoon", lambda m: _cased("this evening", m[0]), text, flags=re.I)
    return text


def _since_before(text: str, t: datetime) -> str:
    """A "since 13:10" in a ticket raised at ``t`` names a time at most 12 hours before it; a drawn
    time that is later than ``t`` (or longer ago) becomes a quarter hour shortly before ``t``."""
    def fix(m: re.Match) -> str:
        ago = (t.hour * 60 + t.minute - int(m[1]) * 60 - int(m[2])) % (24 * 60)
        if 0 < ago <= 12 * 60:
            return m[0]
        s = t - timedelta(minutes=15 + (int(m[1]) * 7 + int(m[2])) % 90)
        return f"since {s.hour}:{s.minute - s.minute % 15:02d}"
    return SINCE.sub(fix, text)


def _typo_at_time(rng: random.Random, drawn: str, t: datetime, p: float) -> str:
    """``_typo`` of ``drawn`` (same draws), then its time words put right for ``t``; a typo that
    landed in a greeting or "this afternoon" is left out (the right word replaces it)."""
    typoed = _typo(rng, drawn, p)
    spans = [m.span() for m in re.finditer(r"this afternoon", drawn)]
    if (m := GREETING.match(drawn)) is not None:
        spans.append(m.span())
    if any(typoed[max(0, a - 1):b + 1].lower() != drawn[max(0, a - 1):b + 1].lower() for a, b in spans):
        typoed = drawn.lower() if typoed == typoed.lower() else drawn
    return _at_time(typoed, t)


# ---- who writes in ---------------------------------------------------------------------------------
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
SIGN = ["\n\nThanks\n{first} {last}\n{role}\n{where}", "\n\nCheers, {first}", "\n\n{first}",
        "\n\nMany thanks,\n{first} {last} | {role} | Brackenridge Foods, {where}", "\n\nta\n{lfirst}",
        "\n\nKind regards\n\n{first} {last}\n{role}",
        "\n\n{first}\n\n{Sent from my iPhone|Sent from Outlook for Android|Get Outlook for iOS|Sent from my Galaxy}",
        "\n\n{initials}", "\n\nThank you\n{first}", ""]


def _who(rng: random.Random, site: str) -> dict:
    first, last = rng.choice(FIRST), rng.choice(LAST)
    return {"first": first, "last": last, "site": site, "where": SITES[site], "lfirst": first.lower(),
            "role": rng.choice(HO_ROLES if site == "HO" else DEPOT_ROLES), "initials": first[0] + last[0],
            "user": f"{first[0].lower()}.{last.lower()}" + ("" if site == "HO" else f".{site.lower()}")}


AREAS = ["pick line 2", "chilled", "ambient aisle 14", "goods in", "despatch", "frozen", "the mezz", "bay {n}",
         "loading door {n}", "returns"]
HM = "{5|6|7|8|9|10|11|13|14|15|16|19|20|22|23|1|2|3}:{00|15|30|45|10|40}"   # a time someone remembers


def _area(rng: random.Random) -> str:
    return rng.choice(AREAS).format(n=rng.randrange(1, 30))


# ---- handheld (RT7) tickets ----------------------------------------------------------------------
# What depot staff call the RT7 in tickets. The parked R15 list covers the first group only;
# the floor (and Depot IT's own notes) also say HHT, RF gun, RT-7 ...
DEVICE_NAMED = ["RT7", "rt7", "RT7", "scanner", "handheld", "scan gun", "RT7 scanner", "handheld scanner", "scanner"]
DEVICE_OTHER = ["HHT", "hht", "RF gun", "rf gun", "RT-7", "RT 7", "hand held", "hand-held"]
HH_SYMPTOMS = [  # what a faulty RT7 does
    "says profile missing after a reboot", "is stuck on the enrolment screen", "keeps logging me out every few minutes",
    "is asking for a device password nobody knows", "shows certificate expired and wont join the wifi",
    "is frozen on the sign in screen", "wont log on, tried twice now", "shows Enrolment failed 0x2F",
    "boots to the Korvex logo and just sits there", "says device not compliant", "lost its profile overnight",
    "wont get past the login even after a battery swap", "keeps throwing a cert error",
    "has gone back to the setup wizard", "logs in then drops straight back out", "says 'MDM policy not applied'",
    "wont take anyone's PIN"]
HH_SHORT = ["profile missing", "stuck on enrolment", "cert error", "enrolment failed 0x2F", "frozen at sign in",
            "asking for a device password", "keeps logging out", "not compliant message", "back to setup screen"]
HH_SUBJ = ["{d} wont log in", "{d} not logging on", "{d} problem", "{d} issue - {site}", "URGENT {d} down",
           "{d} enrolment", "{d} {serial}", "{d} keeps logging out", "cert error on {d}", "{d} frozen",
           "{d} at {area}", "{n} x {d} down", "{d} not working", "{d} - profile", "Problem with {d}s on {area}"]
HH_CORE = ["my {d} {sym}", "the {d} on {area} {sym}", "{d} {serial} {sym}", "got a {d} at {area} that {sym}",
           "{n} {d}s on {area} have gone the same way since {hm} - {short}", "{first}'s {d} {sym}", "{d} {sym}"]
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
HH_PHONE = ["Caller ({first} {last}, {role}) reports {core}. {extra}", "{first} rang from {where}: {core}. {extra}",
            "User called - {core}. {extra} "
            "{Advised will pass on.|Told them we'd pass it on.|Advised to use a spare.|Logged for follow-up.|}",
            "{Core}. {extra} Call taken by {Sandeep|Kerry|Sam|Jo|Priya|Kev}.", "ph call {site} - {core}. {extra}"]
HH_EMAIL = "{|Hi, |Hiya\n\n|Morning IT,\n\n|Hello desk, |Evening - }{Core}. {extra}{sign}"
VAGUE_SUBJ = ["cant log in", "device wont log on", "keeps logging me out", "password?", "no wifi on device", "frozen",
              "not working", "help", "login", "wont let me in", "broken", "profile", "error", "stuck", "sign in"]
VAGUE_BODY = ["says profile missing", "enrolment failed {code} on my device", "enrolment failed {code}",
              "kicks me out every few minutes", "keeps kicking me out", "asking for a password i dont have",
              "wants a password??", "cert error then no wifi", "certificate error", "stuck on sign in screen rebooted x{r}",
              "stuck on sign in", "", "", "white screen", "wont take my pin", "not compliant??", "same as yesterday",
              "doesnt work", "error {code}", "logged out again", "profile gone again", "says contact administrator"]


def _handheld_text(rng: random.Random, who: dict, channel: str, named: str, night: bool,
                   when: datetime) -> tuple[str, str]:
    """(subject, body) of one handheld fault. named: 'kw' (a name R15's parked list knows),
    'other' (another name for the same device) or 'vague' (no device named at all)."""
    if named == "vague":
        subj = rng.choice(VAGUE_SUBJ)
        body = say(rng, rng.choice(VAGUE_BODY), code=rng.choice(["0x2F", "0x2f", "0x2E", "0x1A", "2F"]),
                   r=rng.randrange(2, 5))
        note = rng.choice(HH_EXTRA_NIGHT[:10]) if night and rng.random() < 0.7 else ""
        note = say(rng, note, n=rng.randrange(2, 7))
        return _typo(rng, subj, 0.4), " ".join(x for x in (body, note) if x)
    v = dict(who, d=rng.choice(DEVICE_NAMED if named == "kw" else DEVICE_OTHER),
             serial=f"KX7-{rng.randrange(10000, 99999)}", area=_area(rng), n=rng.randrange(2, 7))
    subj = say(rng, rng.choice(HH_SUBJ), **v)
    core = say(rng, HH_CORE, sym=rng.choice(HH_SYMPTOMS), hm=HM, short=HH_SHORT, **v)
    extra = " ".join(rng.sample(HH_EXTRA_NIGHT if night else HH_EXTRA_DAY, rng.choice([0, 1, 1, 2])))
    extra = say(rng, extra, n=v["n"], hm=say(rng, HM), k=rng.choice(["two", "3", "a few", "2"]),
                tl=rng.choice(FIRST), first=who["first"], first2=rng.choice(FIRST),
                day=rng.choice(["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"]), site=who["site"])
    v.update(core=core, Core=_title(core), extra=extra)
    if channel == "phone":   # logged by an L1 analyst while the caller is on the line
        body = say(rng, HH_PHONE, **v)
    elif channel == "kiosk":
        body = f"{core}. {extra}" if extra else core
    else:
        body = say(rng, HH_EMAIL, sign=SIGN, **v)
    return _typo(rng, subj), _since_before(_at_time(body.strip(), when), when)


# ---- everything else: kind -> [(subject, body)] --------------------------------------------------
OTHER_TEXT = {
    "password": [
        ("MFA - new phone", "Got a new phone {day} and the authenticator isnt set up on it, so I cant log in to {app}"),
        ("Authenticator", "new phone, authenticator app still on the old one, can't approve the sign in"),
        ("cant sign in", "Changed my mobile {day} - MFA prompts still go to the old handset. "
                         "{Can you reset it?|Can it be reset?|can you reset please|How do I move it over?}"),
        ("MFA reset please",
         "Lost my phone {day}, need the authenticator re-registered. Using my partner's to email this"),
        ("new mobile", "i have a new mobile and {app} wants the code from the authenticator which isnt on it"),
        ("Locked out", "Locked out of my account after changing the password {day}, need a reset pls"),
        ("password expired", "Password expired and the reset link in the email doesnt work"),
        ("account locked", "tried 3 times and now it says my account is locked. need to get into {app}"),
        ("Stockwise login", "can't log in to Stockwise, says account locked"),
        ("SSPR not working", "Self service reset says my security answers are wrong - I haven't changed them"),
        ("password", "forgot my password over {day}, please reset"),
        ("login problem", "It keeps saying my password is wrong for {app} but it works on the laptop"),
        ("Can't log on", "cant log on since {day}, it says contact your administrator"),
        ("MFA", "authenticator stopped sending the number match after I restored my phone {day}")],
    "email": [
        ("Outlook not syncing", "Outlook stuck on 'updating folder' since {day}"),
        ("shared mailbox", "Can I get access to the {transport@|credit.control@|orders@|goodsin@} shared mailbox "
                           "please, my manager has OK'd it"),
        ("Teams calls dropping", "Teams calls drop after about {3-12} minutes on the laptop"),
        ("calendar", "Can't see my manager's calendar any more, it just says no permissions"),
        ("out of office", "Out of office won't turn on from Outlook - greyed out"),
        ("emails bouncing", "emails to {Tesco|Booker|our haulier|the bank} bouncing back undeliverable since {day}"),
        ("distribution list", "please add me to the depot managers distribution list"),
        ("Teams", "Teams won't open, just spins, since {day}")],
    "labels": [
        ("Label printer jam", "Zebra on despatch {1-9} jamming every {5-20} labels"),
        ("labels printing blank", "despatch labels coming out blank on bay {1-30}"),
        ("Zebra offline", "The Zebra at {area} shows offline, paper and ribbon fine"),
        ("labels off the edge", "pallet labels printing half off the edge, barcodes won't read"),
        ("label printer", "label printer at goods in keeps printing two labels for every one since {day}"),
        ("Ribbon?", "zebra says ribbon out but we put a new one in")],
    "wms": [
        ("Pick list not dropping", "Stockwise pick lists not dropping for wave {1-9}"),
        ("replen tasks missing", "WMS replen tasks missing for chilled, team leader asking"),
        ("Stockwise slow", "Stockwise taking {20-90} seconds per screen at {area}"),
        ("wave stuck", "wave {1-9} stuck in released, nothing coming through to the pickers"),
        ("stock adjustment", "Stockwise wont let me post a stock adjustment, says period closed")],
    "network": [
        ("VPN keeps dropping", "VPN drops every hour when working from home"),
        ("office wifi slow", "Wifi in the {2nd floor meeting room|canteen|transport office|training room} really slow"),
        ("no internet in transport office", "PC in the transport office says no internet, the others are OK"),
        ("VPN", "can't connect to the VPN from the hotel, tried two different wifis"),
        ("network drive", "Can't see the S: drive since the weekend")],
    "mfp": [
        ("scanner on copier", "The scanner on the {2nd|3rd|ground} floor copier wont scan to email"),
        ("scan to email broken", "MFP scan to email not arriving"),
        ("Copier scanner", "Ricoh by {finance|HR|the post room} - scanner bit jams on every sheet"),
        ("copier", "photocopier scanner says SC-{100-999} error, printing still works"),
        ("Scanning not working", "Can't scan to my email from the Ricoh since the password change"),
        ("scanner", "the copier scanner puts a black line down every page"),
        ("scan-to-email", "scan-to-email from the MFP by reception goes nowhere")],
    "starter": [
        ("New starter Monday", "New starter in {finance|transport|buying|credit control} on Monday, needs laptop + "
                               "accounts"),
        ("Leaver - disable account", "Leaver on Friday, please disable accounts and forward email to me"),
        ("new starter", "{first_any} {last_any} starts {Monday|the 16th|next week}, can we get them set up"),
        ("Leaver", "Please remove access for a leaver, last day today"),
        ("Onboarding - agency staff", "3 agency starting next week need Stockwise logins")],
    "laptop": [
        ("laptop very slow", "Laptop takes {5-20} min to boot since the update"),
        ("Excel crashing", "Excel crashes when I open the weekly margin file"),
        ("docking station", "2nd screen not detected on the dock"),
        ("keyboard", "a few keys stopped working on my laptop"),
        ("Laptop battery", "laptop dies after an hour off charge"),
        ("blue screen", "blue screen twice {day}, something about a driver"),
        ("Adobe", "can't open PDFs, Adobe says licence expired")],
}
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
OTHER_EXTRA = [""] * 6 + [
    " Need it for a {2pm|10am|3:30|9 oclock|4pm|11:30} {call|meeting|Teams call|review|supplier call}.",
    " {Thanks in advance|Thanks for your help|Appreciate it|Cheers in advance|Thanks v much|Many thanks for looking}"
    "{.|!|}",
    " I'm at {Carrbridge DC|Hollins Lane DC|Westmoor DC|Brackenridge House} "
    "{today|till Thursday|all week|this afternoon}.",
    "{ Not urgent.| not urgent tbh| Bit urgent please.| Quite urgent!| URGENT}",
    " Raised this {before|last week|on {day}|twice} ({older}) but {no reply|nobody came back to me|it got closed"
    "|still waiting}.",
    " My number is 07{100-999} {100000-999999} if easier.", " ext {4100-4999}"]
OPENERS = ["", "", "", "Hi, ", "Hi team\n\n", "Morning, ", "Hello,\n\n", "Hi - ", "hiya ", "Quick one - ",
           "Sorry to bother you but ", "Not sure who to ask but ", "Afternoon, ", "Hi IT\n\n", "Dear IT, "]


def _other_text(rng: random.Random, kind: str, who: dict, channel: str, when: datetime) -> tuple[str, str]:
    v = dict(who, day=rng.choice(["Monday", "Tuesday", "yesterday", "this morning", "the weekend", "Friday",
                                  "last night"]),
             app=rng.choice(["Outlook", "Teams", "Stockwise", "the VPN", "Sage", "the payroll portal", "SharePoint"]),
             area=lambda: _area(rng), first_any=FIRST, last_any=LAST)
    subj, core = rng.choice([(s, say(rng, c, **v)) for s, c in OTHER_TEXT[kind]])
    extra = say(rng, OTHER_EXTRA, older=f"INC00{rng.randrange(40100, 41790)}", **v)
    opener = rng.choice(OPENERS)
    if opener and not opener.endswith("\n"):
        core = core[:1].lower() + core[1:]
    body = opener + core + ("" if core[-1] in ".?!" else ".") + extra
    if channel == "email":
        body += say(rng, SIGN, **who)
    body = body.strip()
    if kind != "mfp" and rng.random() < 0.5:     # (copier tickets keep the word that says copier)
        body = _typo_at_time(rng, body, when, 0.15)
    else:
        body = _at_time(body, when)
    if rng.random() < 0.3:
        subj = rng.choice(GENERIC_SUBJ[kind])
    return _typo(rng, subj), body


FORWARD_TOP = ["FYI - see below, can someone pick this up", "Forwarding on behalf of {first}",
               "Please see below. This keeps happening.", "fwd - no answer on 4400", "Can IT look at this pls",
               "{first} has asked me to send this on", "see below - who deals with this?",
               "Sending on for {first}, they can't get through on the phone"]


def _forward(rng: random.Random, subj: str, body: str, who: dict, when: datetime) -> tuple[str, str]:
    """Wrap a ticket as a forwarded email: a colleague or manager sends it on to the desk."""
    fwd = _who(rng, who["site"])
    sent_at = when - timedelta(minutes=rng.randrange(5, 600))
    sent, body = sent_at.strftime("%A, %d %B %Y %H:%M"), _at_time(body, sent_at)
    body = (f"{say(rng, FORWARD_TOP, **who)}\n\n{fwd['first']}\n\n-----Original Message-----\nFrom: {who['first']} "
            f"{who['last']}\nSent: {sent}\nTo: {fwd['first']} {fwd['last']}\nSubject: {subj}\n\n{body}")
    return rng.choice(["FW: ", "Fw: ", "FWD: "]) + subj, body


OUTAGE_CORE = ["no network across the whole depot", "site down, nothing connects", "outage - goods in and despatch down",
               "whole depot offline", "all tills and phones dead", "everything is down for everyone",
               "whole site lost connection", "all scanners offline and the Stockwise PCs too",
               "total outage, BT router lights red"]
OUTAGE_SUBJ = ("{{site} down|OUTAGE|Whole depot down - {where}|site down - {site}|urgent - nothing working"
               "|{where} - no network}")
OUTAGE_BODY = ["{first} rang from {where}: {core}. Since about {hm}.",
               "Caller reports {core}. {BT router lights red.|Tried power cycling the switch.|Loading is stopped.|}",
               "{Core}. {first} {last}, {role}."]

# kind: (owner, sites, weight, channels, category picked on the portal/kiosk); none of them justifies a P1
OTHER = {
    "password": ("service_desk", "any", 26, ("email", "portal", "phone"), "Account/Password"),
    "email": ("service_desk", "any", 16, ("email", "portal"), "Email/Teams"),
    "labels": ("field_ops", "depot", 9, ("phone", "email"), "Printer/Label"),
    "wms": ("apps", "depot", 8, ("phone", "portal"), "Other"),
    "network": ("network", "any", 7, ("portal", "email"), "Other"),
    "mfp": ("service_desk", "ho", 5, ("portal", "email"), "Other"),
    "starter": ("service_desk", "any", 6, ("portal",), "Other"),
    "laptop": ("service_desk", "any", 9, ("portal", "email", "phone"), "Other"),
}


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


def _kiosk(rng: random.Random, site: str) -> str:
    return f"kiosk-{site.lower()}-0{rng.randrange(1, 4)}"


def tickets(rng: random.Random, params: dict, day0: datetime, days: int, id_start: int,
            n_scanner: int, n_other: int, n_outage: int) -> list[tuple[dict, dict]]:
    """Tickets opened in [day0, day0+days), sorted by time. Returns [(visible, truth)].

    Handheld tickets: where pickers raise them at the kiosks (match_on category) a share
    ``phone_share`` still comes from supervisors by phone or email, naming the device; elsewhere
    they come by phone/email and name the device with probability ``kw_share``. A named device is
    called something outside the parked R15 list (HHT, RF gun, RT-7 ...) with probability
    ``alias_share``."""
    kiosk = params["match_on"] == "category"
    kw_share, alias_share = float(params["kw_share"]), float(params.get("alias_share", 0.0))
    phone_share = float(params.get("phone_share", 0.0)) if kiosk else 1.0
    out = []
    # how each handheld ticket arrives and what it calls the device, in the stated proportions
    # (a week's mix, shuffled): kiosk or not, then vague / another name / a parked-list name
    n_kiosk = round(n_scanner * (1.0 - phone_share)) if kiosk else 0
    ways = []
    for at_kiosk, n in ((True, n_kiosk), (False, n_scanner - n_kiosk)):
        n_named = round(n * (kw_share if (at_kiosk or not kiosk) else 1.0))   # supervisors who ring in say what it is
        n_alias = round(n_named * alias_share)
        ways += [(at_kiosk, "vague")] * (n - n_named) + [(at_kiosk, "other")] * n_alias + \
            [(at_kiosk, "kw")] * (n_named - n_alias)
    rng.shuffle(ways)
    for at_kiosk, named in ways:
        site = rng.choice(DEPOTS)
        night = rng.random() < float(params["night_share"])
        when = _when(rng, day0, days, True, night)
        who = _who(rng, site)
        if at_kiosk:
            channel, category, req = "kiosk", "Device/Handheld", _kiosk(rng, site)
        else:
            channel, category, req = rng.choice(["phone", "phone", "email"]), "", who["user"]
        subj, body = _handheld_text(rng, who, channel, named, night, when)
        vis = {"channel": channel, "category": category, "site": site, "requester": req,
               "subject": subj, "body": body, "opened": when}
        out.append((vis, {"kind": "scanner", "users": rng.choice([1, 1, 1, 1, 2, 2, 3, 3, 4, 5, 6]),
                          "owner": params["owner_queue"], "p1_ok": params["scanner_priority"] == "P1"}))
    kinds = list(OTHER)
    for _ in range(n_other):
        kind = rng.choices(kinds, [OTHER[k][2] for k in kinds])[0]
        owner, where, _w, channels, cat = OTHER[kind]
        site = "HO" if where == "ho" else rng.choice(DEPOTS if where == "depot" else ["HO", "HO", "HO", *DEPOTS])
        when = _when(rng, day0, days, site != "HO", False)
        who = _who(rng, site)
        channel = rng.choice(channels)
        subj, body = _other_text(rng, kind, who, channel, when)
        req, vis_site = who["user"], site
        if site == "HO" and rng.random() < 0.04:
            req = rng.choice(VIPS)
        if channel == "email" and site != "HO" and rng.random() < 0.2:
            # locked out / no work phone: they mail from their own address; the connector cannot map
            # a personal address to a site, so the site is only in the signature
            req = f"{who['lfirst']}{rng.choice(['.', '_', ''])}{who['last'].lower()}{rng.randrange(70, 99)}" \
                  f"@{rng.choice(PERSONAL)}"
            vis_site = ""
            body = body.rstrip() + f"\n\n{who['first']} {who['last']}, {who['role']}, {SITES[site]}"
        category = cat if channel in ("portal", "kiosk") else ""
        if kiosk and site != "HO" and kind in ("password", "labels") and rng.random() < 0.5:
            channel, category, req, vis_site = "kiosk", cat, _kiosk(rng, site), site
        if category and rng.random() < 0.15:
            category = "Other"                      # users pick the wrong box
        if channel == "email" and rng.random() < 0.15:
            subj, body = _forward(rng, subj, body, who, when)
        vis = {"channel": channel, "category": category, "site": vis_site, "requester": req,
               "subject": subj, "body": body, "opened": when}
        users = rng.choice([2, 3, 4]) if kind in ("labels", "wms") else 1
        out.append((vis, {"kind": kind, "users": users, "owner": owner, "p1_ok": False}))
    for _ in range(n_outage):
        site = rng.choice(DEPOTS)
        when = _when(rng, day0, days, True, rng.random() < 0.3)
        who = _who(rng, site)
        core = rng.choice(OUTAGE_CORE)
        subj = say(rng, OUTAGE_SUBJ, **who)
        body = say(rng, OUTAGE_BODY, core=core, Core=_title(core), hm=f"{when:%H:%M}", **who)
        vis = {"channel": "phone", "category": "", "site": site, "requester": who["user"],
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
