"""Patient-portal traffic for Harrowfield Medical Partnership.

dev()       one week of last month's portal export (with production outcomes) into world/data/
held_out()  two weeks after go-live (23 March - 5 April 2026), each message with its hidden truth,
            for grading (seed from task.yaml). The window holds the clocks going forward (Sun 29
            March, 01:00 UTC) and Good Friday (3 April, a bank holiday).
shadow()    one trial day of messages (seed range disjoint from both)

Messages are written by many kinds of patient (older and formal, young and terse, carers, people who
struggle with spelling, people who paste whole letters in) from parts drawn per message, so no
free-text sentence repeats more than a handful of times in a file. Times are drawn as UK wall-clock
time and sent the way the connector sends them: a UTC instant with `Z` (or `+00:00`), except the old
Mill Lane connector build, which sends naive UK wall-clock time (TRIAGE-123).

Every generator owns a random.Random(seed); no global RNG, no clock.
"""

from __future__ import annotations

import datetime as dt
import json
import random
from pathlib import Path

from fdegym_env.tasklib import timeutil

DEV_START = dt.date(2026, 2, 16)          # Monday; one week
HELD_START = dt.date(2026, 3, 23)         # Monday; two weeks (clocks change Sun 29 Mar; Good Friday 3 Apr)
HELD_DAYS = 14
SHADOW_START = dt.date(2026, 3, 2)        # Monday, the engagement's first day: trial day n is the portal day
                                          # 2 Mar + (n - 1), never later than the day the trial is run on
# Portal messages of the shadow days that the workspace or people already name: the shadow portal mirrors
# the live one, so the same id is the same kind of message (Nadia's chest pain under a change of address).
KNOWN_SHADOW_MESSAGES = {"PM-260302-0117": "red_flag"}   # on GMT days only (see shadow)
DEV_SEED = 11_017
SHADOW_SEED = 55_000
# England and Wales bank holidays around the engagement (gov.uk/bank-holidays)
BANK_HOLIDAYS = {dt.date(2025, 12, 25), dt.date(2025, 12, 26), dt.date(2026, 1, 1), dt.date(2026, 4, 3),
                 dt.date(2026, 4, 6), dt.date(2026, 5, 4), dt.date(2026, 5, 25)}

SITES = ["HFD", "HFD", "HFD", "MLL", "MLL", "OKB"]

# (kind, weight on a weekday, weight at a weekend or bank holiday)
# 'mixed': an admin question with a second ask (a repeat, a booking, a result) in the same message
# 'proxy': a carer or relative ordering someone's repeats in free text under Admin query / Other
KIND_MIX = [
    ("rx", 24, 27), ("rx_cd", 5, 5), ("clinical", 18, 22), ("faq", 11, 11), ("admin_other", 11, 8),
    ("appointment", 12, 9), ("results", 7, 5), ("fit_note", 4, 3), ("red_flag", 3.2, 3.6),
    ("mixed", 6, 6), ("proxy", 2.5, 2.5),
]

HOUR_W_WEEKDAY = [2, 1, 1, 1, 1, 2, 4, 9, 14, 13, 11, 10, 10, 9, 9, 8, 8, 8, 8, 8, 7, 6, 5, 3]
HOUR_W_WEEKEND = [2, 1, 1, 1, 1, 1, 2, 4, 7, 9, 10, 9, 8, 7, 7, 6, 6, 6, 6, 6, 6, 5, 4, 3]


# ------------------------------------------------------------------------------------ UK time
def uk_offset(utc: dt.datetime) -> dt.timedelta:
    """UK civil time minus UTC at a naive UTC instant (zoneinfo's Europe/London)."""
    return timeutil.local(utc).utcoffset()


def uk_to_utc(local: dt.datetime) -> dt.datetime:
    guess = local - dt.timedelta(hours=1)
    return guess if uk_offset(guess) else local


def stamp(rng: random.Random, local: dt.datetime, site: str) -> str:
    """received_at as the connector sends it."""
    if site == "MLL" and rng.random() < 0.06:
        return local.strftime("%Y-%m-%d %H:%M:%S")          # old MLL build: naive UK wall-clock
    utc = uk_to_utc(local)
    return utc.strftime("%Y-%m-%dT%H:%M:%S") + rng.choice(["Z", "Z", "Z", "+00:00"])


# ------------------------------------------------------------------------------------ red flags
# every red-flag phrase any variant may use -> grammar of the sentence that carries it
# 'n': a noun phrase ("I've had X"), 'c': a full clause ("X")
PHRASE_GRAMMAR = {
    "chest pain": "n", "tightness in my chest": "n", "pain in my chest": "n",
    "crushing feeling in my chest": "n", "chest feels heavy": "c_pre",
    "short of breath": "c_be", "struggling to breathe": "c_be", "can't catch my breath": "c",
    "lips have gone blue": "c_pre", "can't breathe properly": "c",
    "face has dropped": "c_pre", "slurred speech": "n", "speech is slurred": "c_pre",
    "arm went weak": "c_pre", "can't lift my arm": "c",
    "coughing up blood": "c_be", "vomiting blood": "c_be", "black tarry poo": "n",
    "bleeding that won't stop": "n",
    "lips are swelling": "c_pre", "tongue is swollen": "c_pre", "throat feels like it's closing": "c_pre",
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
    "baby has a temperature": "c_pre", "baby is really hot": "c_pre",
    "numb around my bottom": "c_be", "can't control my bladder": "c", "saddle numbness": "n",
    # further categories a sampled list may add (sampler.py); 'c_pre': "my <phrase>"
    "stiff neck and a rash": "n_a", "can't bear the light": "c", "neck is really stiff": "c_pre",
    "sudden loss of vision": "n_a", "lost the sight in one eye": "c_i", "curtain coming down over my eye": "n_a",
    "sudden pain in my testicle": "n_a", "testicle is swollen": "c_pre",
    "ketones are high": "c_pre", "blood sugar is over 20": "c_pre", "being sick and can't keep fluids down": "c_be",
}
# how patients actually write a listed phrase: plurals, dropped apostrophes, -ing forms. The list
# wording is the clinical lead's; "match generously" (v2 sheet: "read the whole message").
INFLECT = {"chest pain": ["chest pains"], "seizure": ["seizures"], "self-harm": ["self-harming", "self harming"],
           "self harm": ["self harming"], "sudden severe headache": ["sudden severe headaches"],
           "thunderclap headache": ["thunderclap headaches"], "black tarry poo": ["black tarry poos"],
           "coughing up blood": ["coughing up bloody phlegm", "coughing up blood clots"],
           "vomiting blood": ["vomiting blood clots"], "bleeding in pregnancy": ["bleeding in pregnancy again"]}

WHEN = ["since last night", "since this morning", "on and off since Sunday", "for the last couple of days",
        "since yesterday teatime", "today", "again this week", "since about 4am", "since I got up",
        "after tea last night", "twice now since Friday", "since we got back from Tesco", "for an hour or so",
        "overnight", "on the bus this morning", "at work yesterday", "this afternoon", "since the weekend"]


def _drop_apostrophes(s: str) -> str:
    return s.replace("'", "").replace("\u2019", "")


def written_phrase(rng: random.Random, phrase: str) -> str:
    p = phrase
    if p in INFLECT and rng.random() < 0.5:
        p = rng.choice(INFLECT[p])
    if "'" in p and rng.random() < 0.45:
        p = _drop_apostrophes(p)
    return p


def rf_sentence(rng: random.Random, phrase: str) -> str:
    """A first-person sentence carrying `phrase` as the patient might write it."""
    g = PHRASE_GRAMMAR.get(phrase, "n")
    when = rng.choice(WHEN)
    p = written_phrase(rng, phrase)
    if g == "n":
        s = rng.choice([f"I've had {p} {when}", f"been getting {p} {when}", f"having {p} {when}",
                        f"there's been {p} {when}", f"I keep getting {p}", f"{p} {when} as well"])
    elif g == "n_a":
        s = rng.choice([f"I had a {p} {when}", f"had what I think was a {p} {when}", f"I think I had a {p}"])
    elif g == "n_been":
        s = rng.choice([f"I've been doing {p} again {when}", f"struggling with {p} {when}",
                        f"the {p} has started again"])
    elif g == "c_be":
        s = rng.choice([f"I'm {p} {when}", f"I've been {p} {when}", f"been {p} {when}", f"still {p}"])
    elif g == "c_pre":
        s = rng.choice([f"my {p} {when}", f"{when} my {p}", f"and my {p}"])
    elif g == "c_i":
        past = rng.choice(["last night", "this morning", "yesterday", "on Sunday", "at work on Friday", "in Tesco earlier",
                           "twice this week", "in the night", "after my shower"])
        s = rng.choice([f"I {p} {past}", f"I {p} in the kitchen {past}", f"I think I {p} {past}"])
    elif g == "c_feel":
        s = rng.choice([f"I've been feeling {p} {when}", f"honestly I feel {p} {when}", f"feeling {p} again"])
    elif g == "c_want":
        s = rng.choice([f"sometimes I think I want to {p}", f"I keep thinking I might {p}",
                        f"some nights I think about how I'd {p}"])
    elif g == "c_hasnt":
        s = rng.choice([f"my dad has {p} {when}", f"he has {p} {when}", f"I've {p} {when}"])
    else:
        s = f"{p} {when}"
    return s


def carer_sentence(rng: random.Random, phrase: str, who: str):
    """The same, written by a relative or carer about `who` ("my mum"); None if the phrase only reads
    in the first person ("hurting myself")."""
    g = PHRASE_GRAMMAR.get(phrase, "n")
    if "my" in phrase.split() or "myself" in phrase:
        return None
    when = rng.choice(WHEN)
    p = written_phrase(rng, phrase)
    if g == "c_pre":
        return rng.choice([f"{who}'s {p} {when}", f"{when} {who}'s {p}"])
    if g == "c_i":
        past = rng.choice(["last night", "this morning", "yesterday", "on Sunday", "in the night", "at the shops"])
        return rng.choice([f"{who} {p} {past}", f"{who} {p} in the bathroom {past}"])
    if g == "c_be":
        return rng.choice([f"{who} is {p} {when}", f"{who}'s been {p} {when}"])
    if g in ("n", "n_a"):
        a = "a " if g == "n_a" else ""
        return rng.choice([f"{who} has had {a}{p} {when}", f"{who}'s had {a}{p} {when}"])
    return None


# ------------------------------------------------------------------------------------ people and places
FIRST = ["Jean", "Margaret", "Pat", "Dave", "Steve", "Kerry-Ann", "Priya", "Mohammed", "Aisha", "Tom", "Chloe",
         "Brian", "Sandra", "Wayne", "Lisa", "Gary", "Irene", "Ken", "Joyce", "Bilal", "Sophie", "Jordan", "Niamh",
         "Olu", "Grace", "Les", "Hazel", "Tariq", "Zofia", "Kieran", "Amy", "Ray", "Mandy", "Ruth", "Callum"]
SURN = ["Walsh", "Hughes", "Patel", "Khan", "Barker", "Smith", "O'Neill", "Nowak", "Okoro", "Thompson", "Bailey",
        "Hussain", "Green", "Lloyd", "Ashworth", "Clegg", "Begum", "Kowalski", "Pearson", "Dunn", "Ali", "Marsh"]
RELS = ["mum", "dad", "husband", "wife", "son", "daughter", "nan", "grandad", "partner", "brother", "mother-in-law"]
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
STREETS = ["Clover Rd", "Mill Lane", "Tanner's Yard", "Oak Bridge Close", "Station Road", "Lammas Way",
           "Harrow Field Drive", "St Aldate's Court", "Brook St", "Kiln Gardens", "Weavers Row", "Calder View",
           "Beckside", "Chapel Fold", "Holme Terrace", "Linden Ave", "Moorend Rd", "Sycamore Cl"]
PHARMACIES = ["Boots Harrowfield", "Boots in town", "Lloyds at Mill Lane", "the Well pharmacy on Station Rd",
              "Oakbridge Pharmacy", "the Co-op chemist", "Superdrug", "Asda pharmacy", "the one by the Co-op",
              "Pharmacy2U (online)", "Harrowfield Late Night Chemist"]


def _name(rng):
    return rng.choice(FIRST), rng.choice(SURN)


def signoff(rng: random.Random, style: str) -> str:
    f, s = _name(rng)
    if style == "formal":
        return rng.choice([f"\n\nYours sincerely,\n{f} {s}", f"\n\nKind regards\n{f[0]}. {s}", f"\n\nYours faithfully\n{f} {s}",
                           f"\n\nMany thanks,\n{f} {s}"])
    if style == "casual":
        return rng.choice(["", "", " x", " thx", " ta", f" {f.lower()}", " cheers", " xx", " ty"])
    if style == "lowlit":
        return rng.choice(["", " thankyou", " thank u", f" {f}", " thanks", " thank you x"])
    if style == "carer":
        return rng.choice([f"\n{f} ({rng.choice(RELS)})", f"\nThanks, {f} {s}", f"\n{f} - carer", "\nThank you"])
    if rng.random() < 0.06:
        return "\n\n" + rng.choice(DEVICES)
    return rng.choice(["", "", " Thanks", " Thank you", " Many thanks", f"\n{f}", f"\nThanks {f}", " Kind regards",
                       f" - {f} {s}", f"\nThanks, {f[0]}", " ta", f"\n{f} {s[0]}"])


DEVICES = ["Sent from my iPhone", "Sent from my Galaxy", "Get Outlook for Android", "Sent from my iPad", "Sent from Yahoo Mail on Android",
           "Sent from my Huawei phone", "Sent from Mail for Windows", "Sent from my Samsung Galaxy smartphone.",
           "Sent via the NHS App", "Sent from my BT Mail", "Sent from my Sky Broadband mail", "Sent from my Moto g(8)"]


OPEN = {"formal": ["Dear Sir/Madam,\n\n", "Dear Doctor,\n\n", "Good morning,\n\n", "Dear Practice,\n\n", "Hello,\n\n"],
        "casual": ["", "", "hiya ", "hi ", "hey ", "morning "],
        "lowlit": ["", "hello ", "hi ", "to the docters "],
        "plain": ["", "", "Hi, ", "Hello, ", "Hi there, ", "Good afternoon. ", "Morning - "],
        "carer": ["Hello, ", "Hi, ", "", "Good morning, "]}
MISSPELL = {"prescription": "perscription", "appointment": "appointmant", "because": "becuase", "doctor": "docter",
            "please": "plz", "tablets": "tablits", "thank you": "thankyou", "received": "recieved",
            "definitely": "definatly", "surgery": "surgury", "letter": "leter", "results": "resluts", "I'm": "im",
            "address": "adress", "tomorrow": "tomoz", "registration": "registraton"}


def styled(rng: random.Random, style: str, core: str) -> str:
    """Wrap a message core in a writer's voice. Red-flag phrases and medicine names are never respelt."""
    body = rng.choice(OPEN.get(style, OPEN["plain"])) + core
    if style == "casual":
        body = body.lower().replace(". ", " ").replace("please", rng.choice(["pls", "please", "plz"]))
        if rng.random() < 0.6:
            body = _drop_apostrophes(body)
    elif style == "lowlit":
        for a, b in MISSPELL.items():
            if a in body and rng.random() < 0.6:
                body = body.replace(a, b)
        body = body.replace(". ", rng.choice([" ", ", ", " and "])).replace("?", "")
        if rng.random() < 0.5:
            body = body.lower()
    elif style == "shouty":
        body = body.upper()
    return (body + signoff(rng, style)).strip()


def pick_style(rng: random.Random) -> str:
    return rng.choices(["plain", "formal", "casual", "lowlit", "shouty"], [46, 16, 24, 12, 2])[0]


def _fill(rng: random.Random, s: str) -> str:
    f, sur = _name(rng)
    return s.format(day=rng.choice(DAYS), n=rng.randint(2, 148), street=rng.choice(STREETS),
                    n3=rng.randint(100000, 999999), d=rng.randint(10, 28), rel=rng.choice(RELS),
                    pharm=rng.choice(PHARMACIES), first=f, sur=sur, left=rng.choice(["2", "3", "two", "a few", "4"]),
                    wk=rng.randint(1, 5))


# ------------------------------------------------------------------------------------ FAQ / admin
# each FAQ wording carries one of the phrases the approved templates are written for
FAQ_TEXT = {
    "opening": ["What time do you open on {day}?", "are you open over the weekend", "Is the Mill Lane surgery open on {day} afternoon?",
                "what are your opening times please", "What time does reception close today", "Are you open on bank holiday Monday?",
                "Are you open Easter weekend or is it 111?", "what time does the Oakbridge surgery open on {day}",
                "Can you tell me your opening hours at Harrowfield Health Centre", "is the surgery open on {day} morning, I work shifts",
                "What time do you open? The website and the sign on the door say different things",
                "are you open on good friday"],
    "address": ["I've moved house, new address is {n} {street}. Please update my records.", "Change of address: {n} {street}, Harrowfield",
                "new mobile number 07700 9{n3} please update", "Please update my details, I've moved to {n} {street}",
                "I have a new phone number, how do I change it", "we have moved house to {n} {street} (me and the two kids)",
                "My new address is Flat {wk}, {n} {street} from the 1st", "new mobile 07700 9{n3} - old one was stolen",
                "Just to let you know I've moved to {n} {street}, same phone number",
                "can you update my records, new address {n} {street} HF{wk} {d}QT"],
    "repeat_howto": ["How do I order my repeat prescription online? I have the NHS App but can't see it",
                     "how do I get set up to order repeats online", "Can I order my repeats through the NHS App?",
                     "what's the best way to order repeat medication online",
                     "My son set me up on the NHS App - how do I order repeats online with it?",
                     "is there a way to order repeats online instead of bringing the slip in"],
    "fees": ["Do you charge for a letter for my holiday insurance?", "I need a travel insurance form filled in, how much is it",
             "How much is a private letter for my firearms licence", "Is there a fee for a fitness to drive letter?",
             "how much do you charge for an HGV medical form", "How much is a letter for the council about my {rel}'s housing?",
             "the insurance company want a form from you for my cancelled holiday, is there a charge",
             "how much do you charge for a taxi licence medical"],
    "registration": ["How do I register my newborn son?", "I want to register my partner at the practice",
                     "We've just moved to the area, how do we register as new patients", "How do I register my baby with the surgery",
                     "Can my daughter register with you, she is 17", "my {rel} is moving in with us, can she register with you",
                     "Just moved to {street}, how do we register as new patients? 2 adults 1 child",
                     "how do I register my baby, she was born on the {d}th"],
}
FAQ_SUBJECTS = {"opening": ["opening times", "open?", "question", "weekend", "hours", "Easter", ""],
                "address": ["change of address", "new address", "update details", "phone number", "moved", ""],
                "repeat_howto": ["online ordering", "NHS app", "repeats online", "question", "app"],
                "fees": ["letter", "insurance form", "fees", "form", "cost?"],
                "registration": ["registration", "new patient", "register baby", "question", "registering"]}

ADMIN_OTHER = ["Can you send me a copy of the letter from the hospital about my scan",
               "I had a missed call from the surgery this morning, who was it?",
               "Please cancel my appointment on {day}, I can't make it now",
               "Chasing my medical records request from January, it's been {wk} weeks",
               "Can I have a copy of my vaccination record for work", "Complaint about the phone queue on {day}, was on hold 40 mins",
               "Please can you confirm my NHS number", "I need my records transferred to my new practice in Leeds",
               "Can you send the referral to the Nuffield again? They say they haven't got it",
               "My parking ticket from the Mill Lane car park, I was at an appointment",
               "The hospital say you need to sign the form for my {rel}'s blue badge",
               "I got a text about a review but it didn't say what for",
               "Who do I speak to about a subject access request", "Can I change my named GP to Dr Achterberg",
               "I got a letter addressed to someone else in my envelope, what shall I do with it",
               "Lost my hospital appointment letter for the {d}th, can you tell me the time"]
APPOINTMENT = ["Can I book a smear test please", "need a blood test appointment for my annual review",
               "can I see Dr Okafor next week about my knee", "My asthma review is due, can I book it",
               "I need a B12 injection booking, last one was {wk} months ago", "Can I get an appointment for my son's baby jabs",
               "Is there a nurse appointment for my ear syringing? Drops done", "need my blood pressure checked",
               "Can I book my diabetic foot check", "could I have a phone call rather than coming in, I work in Leeds",
               "need a smear, letter says I'm overdue", "Can I have a late appointment on {day}, after work",
               "my {rel} needs a flu jab appointment if there are any left"]
APPT_SUBJECTS = ["appointment", "booking", "smear", "review", "blood test", "jabs", "BP check", "appt", ""]
CLINICAL = ["I've had a cough for 3 weeks, should I be seen?", "my son has an itchy rash on his arm",
            "is it ok to take my blood pressure tablets at night instead of the morning",
            "knee pain after running, swelling a bit", "ear has been blocked for a week",
            "burning when I wee again, think it's another UTI", "mole on my back has changed shape",
            "still getting heartburn even on the omeprazole", "my periods have been really heavy the last 3 months",
            "Side effects from the sertraline, feeling sick in the mornings", "sore throat {wk} days, no better",
            "can my daughter have the chickenpox vaccine privately", "lump under my arm, noticed it last week",
            "my ankle is still swollen from when I went over on it on {day}", "the cream for my eczema isn't doing anything",
            "I think the new tablets are making me dizzy", "hay fever is awful this year, is there anything stronger",
            "my toddler has had diarrhoea since {day}, she's drinking ok", "wax in both ears, can't hear the telly"]
CLIN_SUBJECTS = ["question", "advice please", "cough", "rash", "medication query", "follow up", "query",
                 "re: my tablets", "", "help", "worried", "quick question", "nurse please",
                 "Dr?", "please read", "need advice", "symptoms", "re: last week", "query for nurse", "?", "asap"]
RESULTS = ["Have my blood results come back from last {day}?", "Can I have my cholesterol result please",
           "Waiting for the urine sample result", "Did my x-ray report come through from the hospital",
           "what did my HbA1c come back as", "The NHS App says my results are in but I can't see them",
           "was my smear result normal", "Did the ultrasound report come through from the Royal"]
FITNOTE = ["I need a fit note extension, still off with my back", "Fit note ran out {day}, still not able to work",
           "Employer needs a fit note from the {d}th, I'm signed off with stress",
           "can I have a sick note backdated to the {d}th, HR are chasing", "need my fit note extending {wk} more weeks"]
# kind -> (category or categories, subjects, texts): one line of each, in the writer's style
PLAIN_KINDS = {
    "admin_other": (["Admin query"] * 4 + ["Other"], ["query", "admin", "letter", "records", "question", "complaint", "",
                                                      "re: letter", "form"], ADMIN_OTHER),
    "appointment": ("Appointment request", APPT_SUBJECTS, APPOINTMENT),
    "clinical": ("Medical question", CLIN_SUBJECTS, CLINICAL),
    "results": ("Test results", ["results", "blood test", "test results", "", "bloods"], RESULTS),
    "fit_note": ("Fit note", ["fit note", "sick note", "fitnote extension", "fit note pls"], FITNOTE),
}

# ------------------------------------------------------------------------------------ medicines
# (generic, [strengths], form, [directions], [quantities]) -> an EMIS repeat-template line such as
# "Amlodipine 5mg tablets - ONE to be taken each day - 28 tablet"
DAILY = ["ONE to be taken each day", "one daily", "take ONE each morning", "ONE at night", "1 od", "take one a day"]
RX_FORMS = [
    ("Amlodipine", ["5mg", "10mg"], "tablets", DAILY, ["28 tablet", "56 tablet"]),
    ("Atorvastatin", ["20mg", "40mg", "80mg"], "tablets", DAILY[3:] + ["ONE at night"], ["28 tablet", "56 tablet"]),
    ("Salbutamol", ["100micrograms/dose"], "inhaler CFC free", ["TWO puffs when required", "2 puffs prn", "1-2 puffs up to four times a day when required"], ["1 inhaler", "2 inhaler"]),
    ("Sertraline", ["50mg", "100mg"], "tablets", DAILY, ["28 tablet", "56 tablet"]),
    ("Levothyroxine", ["25microgram", "50microgram", "75microgram", "100microgram"], "tablets", ["ONE each morning before food", "one daily", "take as directed"], ["28 tablet", "56 tablet"]),
    ("Omeprazole", ["20mg", "40mg"], "gastro-resistant capsules", DAILY + ["ONE twice a day"], ["28 capsule", "56 capsule"]),
    ("Metformin", ["500mg", "850mg"], "tablets", ["ONE twice a day with food", "1 bd", "TWO twice a day", "one three times a day"], ["56 tablet", "112 tablet", "84 tablet"]),
    ("Ramipril", ["2.5mg", "5mg", "10mg"], "capsules", DAILY, ["28 capsule", "56 capsule"]),
    ("Bisoprolol", ["1.25mg", "2.5mg", "5mg"], "tablets", DAILY, ["28 tablet"]),
    ("Fostair", ["100/6", "200/6"], "inhaler", ["TWO puffs twice a day", "1 puff bd", "2 puffs twice daily, rinse mouth after"], ["1 inhaler", "2 inhaler"]),
    ("Mirtazapine", ["15mg", "30mg", "45mg"], "tablets", ["ONE at night", "one nocte", "take one at bedtime"], ["28 tablet"]),
    ("Citalopram", ["10mg", "20mg"], "tablets", DAILY, ["28 tablet"]),
    ("Lansoprazole", ["15mg", "30mg"], "capsules", DAILY, ["28 capsule"]),
    ("Co-codamol", ["30mg/500mg", "8mg/500mg"], "tablets", ["ONE or TWO up to four times a day", "2 qds prn", "two when required, max 8 in 24 hours"], ["100 tablet", "30 tablet", "60 tablet"]),
    ("Naproxen", ["250mg", "500mg"], "tablets", ["ONE twice a day with food", "1 bd pc", "take one twice daily after food"], ["56 tablet", "28 tablet"]),
    ("Propranolol", ["10mg", "40mg"], "tablets", ["ONE twice a day", "one three times a day when required", "1 bd"], ["28 tablet", "56 tablet"]),
    ("Folic acid", ["5mg", "400microgram"], "tablets", DAILY, ["28 tablet", "90 tablet"]),
    ("Adcal-D3", ["chewable", "caplets"], "tablets", ["ONE twice a day", "chew one twice daily", "1 bd"], ["112 tablet", "56 tablet"]),
    ("Microgynon 30", ["", "ED"], "tablets", ["as directed", "one daily for 21 days then 7 day break", "take as per packet"], ["63 tablet", "84 tablet"]),
    ("Beclometasone", ["50micrograms/dose"], "nasal spray", ["TWO sprays each nostril twice a day", "2 sprays bd", "1 spray each nostril daily"], ["1 spray", "2 spray"]),
    ("Losartan", ["25mg", "50mg", "100mg"], "tablets", DAILY, ["28 tablet"]),
    ("Apixaban", ["2.5mg", "5mg"], "tablets", ["ONE twice a day", "1 bd", "one morning and one evening"], ["56 tablet"]),
    ("Gaviscon Advance", ["aniseed", "peppermint"], "oral suspension", ["5-10ml after meals and at bedtime", "10ml qds", "as directed"], ["500 ml", "250 ml", "1000 ml"]),
    ("Doublebase", ["", "Dayleve"], "emollient gel", ["apply as often as needed", "use as soap substitute", "apply twice daily"], ["500 g", "100 g"]),
]
# controlled drugs: generic -> (EMIS generic item, [brand items patients also tick/type])
CD_FORMS = {
    "morphine": ("Morphine sulfate 10mg modified-release tablets", ["Zomorph 30mg capsules", "MST Continus 10mg tablets"]),
    "oxycodone": ("Oxycodone 5mg capsules", ["OxyContin 10mg tablets", "Shortec 5mg capsules"]),
    "fentanyl": ("Fentanyl 25micrograms/hour patches", ["Matrifen 25 patches", "Durogesic DTrans 12 patches"]),
    "methylphenidate": ("Methylphenidate 18mg modified-release tablets", ["Concerta XL 36mg tablets", "Equasym XL 20mg capsules"]),
    "lisdexamfetamine": ("Lisdexamfetamine 30mg capsules", ["Elvanse 50mg capsules"]),
    "pregabalin": ("Pregabalin 75mg capsules", ["Lyrica 150mg capsules", "Alzain 75mg capsules"]),
    "gabapentin": ("Gabapentin 300mg capsules", ["Neurontin 300mg capsules"]),
    "tramadol": ("Tramadol 50mg capsules", ["Zydol 50mg capsules", "Marol 100mg MR tablets"]),
    "temazepam": ("Temazepam 10mg tablets", ["Temazepam 20mg tablets"]),
    "buprenorphine": ("Buprenorphine 10micrograms/hour patches", ["BuTrans 5 patches", "Butec 10 patches"]),
    "diazepam": ("Diazepam 5mg tablets", ["Diazepam 2mg tablets"]),
    "zopiclone": ("Zopiclone 7.5mg tablets", ["Zimovane 7.5mg tablets"]),
    "lorazepam": ("Lorazepam 1mg tablets", ["Ativan 1mg tablets"]),
    "zolpidem": ("Zolpidem 10mg tablets", ["Stilnoct 10mg tablets"]),
    "nitrazepam": ("Nitrazepam 5mg tablets", ["Mogadon 5mg tablets"]),
}
ALL_CD = list(CD_FORMS)


def rx_item(rng: random.Random, form=None) -> str:
    g, strengths, f, directions, qty = form or rng.choice(RX_FORMS)
    name = " ".join(x for x in [g, rng.choice(strengths), f] if x)
    return rng.choice([f"{name} - {rng.choice(directions)} - {rng.choice(qty)}", f"{name} ({rng.choice(qty)})",
                       f"{name} {rng.choice(qty)}s, {rng.choice(directions)}"])


def cd_item(rng: random.Random, drug: str, brand_p: float) -> tuple:
    generic, brands = CD_FORMS[drug]
    if rng.random() < brand_p:
        item = rng.choice(brands)
        return item, not item.lower().startswith(drug)
    return generic, False


RX_BODIES = ["", "", "", "", "Please can I have my usual", "running low", "need these before I go away on the {d}th",
             "Pharmacy: {pharm} please", "can it go to {pharm}", "last one on the app", "urgent please only {left} days left",
             "ordered on the app on {day} but it says rejected?", "the app says 'request rejected' - why?",
             "I tried the NHS app and it went round in circles so doing it here", "same as last month",
             "the chemist said you hadn't sent it", "could you send to {pharm} not the usual one", "for my {rel} (I'm her carer)",
             "sorry it's late, been in hospital", "I'm going to my daughter's for Easter so need it by Thursday",
             "nearly out", "the inhaler one is most urgent", "Can I have 2 months as I'm away"]


def _weighted(rng: random.Random, keys: list, weights: list):
    x = rng.random() * sum(weights)
    for k, w in zip(keys, weights):
        x -= w
        if x <= 0:
            return k
    return keys[-1]


def _patient(rng: random.Random) -> str:
    return "P-" + "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(5))


def _cd_scope(params) -> set:
    return {d.lower() for d in params["cd_drugs"]}


def _rf_phrases(params) -> list:
    return [(cat, p) for cat, phrases in params["red_flags"].items() for p in phrases]


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:] if s else s


SECOND_RX = ["can I also order my {med} please", "and while I'm on, my {med} is due", "oh and can you do my {med} repeat",
             "also I need my {med}, nearly out", "Also could you put through my {med}, the app won't let me",
             "and my {rel}'s {med} please, same address", "can I order the {med} at the same time"]
SECOND_APPT = ["Also can I book in for my {what}", "and can I get a {what} appointment", "while I'm here - is there a {what} slot next week",
               "also need to book my {what} please"]
SECOND_RES = ["Also have my {what} results come back?", "and did my {what} come back ok", "also any news on my {what}"]
APPT_WHAT = ["smear", "asthma review", "BP check", "diabetic review", "B12 jab", "flu jab", "ear syringing", "pill check"]
RES_WHAT = ["blood test", "cholesterol", "urine test", "x-ray", "scan"]
MED_SPOKEN = ["inhaler", "blue inhaler", "Fostair", "omeprazole", "levothyroxine", "amlodipine", "sertraline",
              "atorvastatin", "statins", "metformin", "ramipril", "lansoprazole", "propranolol", "Microgynon", "Doublebase",
              "Gaviscon", "losartan", "apixaban", "citalopram", "folic acid", "Adcal"]


def make_message(rng: random.Random, params: dict, when: dt.datetime, seq: int, kind: str) -> dict:
    """One message dict plus its hidden truth ({'msg': ..., 'truth': ...}). `when` is UK wall-clock time."""
    truth = {"kind": kind}
    items: list = []
    style = pick_style(rng)
    site = rng.choice(SITES)
    if kind == "faq":
        faq = rng.choice(sorted(FAQ_TEXT))
        truth["faq"] = faq
        cat, subj = rng.choice(["Admin query"] * 5 + ["Other"]), rng.choice(FAQ_SUBJECTS[faq])
        body = styled(rng, style, _fill(rng, rng.choice(FAQ_TEXT[faq])))
    elif kind == "mixed":
        faq = rng.choice(["opening", "address", "address", "fees", "registration", "repeat_howto"])
        second = rng.choices(["rx", "appointment", "results"], [6, 3, 1.5])[0]
        truth.update(kind=second, host="mixed", faq=faq)
        if second == "rx":
            ask = rng.choice(SECOND_RX).format(med=rng.choice(MED_SPOKEN), rel=rng.choice(RELS))
        elif second == "appointment":
            ask = rng.choice(SECOND_APPT).format(what=rng.choice(APPT_WHAT))
        else:
            ask = rng.choice(SECOND_RES).format(what=rng.choice(RES_WHAT))
        first = _fill(rng, rng.choice(FAQ_TEXT[faq]))
        core = rng.choice([f"{first}. {_cap(ask)}.", f"{first} - {ask}", f"{_cap(ask)}. {first}?", f"{first}\n\n{_cap(ask)}"])
        cat, subj = rng.choice(["Admin query"] * 4 + ["Other"]), rng.choice(FAQ_SUBJECTS[faq])
        body = styled(rng, style, core)
    elif kind == "proxy":
        scope = _cd_scope(params)
        f, _ = _name(rng)
        rel = rng.choice(["mum", "dad", "nan", "husband", "wife", "grandad", "mother-in-law", "brother"])
        meds = rng.sample(MED_SPOKEN, rng.choice([1, 2, 2, 3]))
        if rng.random() < 0.25 and scope:
            drug = rng.choice(sorted(scope))
            generic, brands = CD_FORMS[drug]
            meds[-1] = rng.choice([drug, brands[0].split()[0]])
            truth.update(kind="rx_cd", cd=drug)
        else:
            truth["kind"] = "rx"
        truth["host"] = "proxy"
        medlist = meds[0] if len(meds) == 1 else ", ".join(meds[:-1]) + " and " + meds[-1]
        she, her = ("she", "her") if rel in ("mum", "nan", "wife", "mother-in-law") else ("he", "his")
        core = rng.choice([
            f"I'm writing for my {rel} {f} (DOB on file) - can {she} have {her} {medlist}, down to the last few",
            f"ordering for my {rel} who doesn't do computers: {medlist}. To {rng.choice(PHARMACIES)} please",
            f"My {rel} is running out of {medlist}. I'm {her} main carer, can you sort it",
            f"Please can {f} have {medlist} again, I've put {her} name in the subject. Thank you",
            f"{_cap(rel)}'s tablets - {medlist}. The carers say there's only {rng.choice(['2', '3', 'a couple of'])} days left in the blister pack"])
        cat, subj = rng.choice(["Admin query", "Admin query", "Other"]), rng.choice(
            [f"{rel}'s meds", f"for {f}", "medication", "on behalf of", "carer", "", f"{f} {rng.choice(SURN)}"])
        body = styled(rng, rng.choice(["plain", "plain", "formal", "lowlit", "casual"]), core)
    elif kind in PLAIN_KINDS:
        cats, subjects, texts = PLAIN_KINDS[kind]
        cat = cats if isinstance(cats, str) else rng.choice(cats)
        subj = rng.choice(subjects)
        body = styled(rng, style, _fill(rng, rng.choice(texts)))
    elif kind in ("rx", "rx_cd"):
        cat, subj = "Repeat prescription", rng.choice(["repeat", "Repeat prescription", "meds", "repeat request", "",
                                                        "repeats", "prescription", "medication"])
        scope = _cd_scope(params)
        n = rng.choice([1, 1, 1, 2, 2, 3])
        items = [rx_item(rng, f) for f in rng.sample(RX_FORMS, n)]
        if kind == "rx" and rng.random() < 0.18:
            # a controlled drug that is NOT in this practice's scope (e.g. schedule 4 when scope is 2-3)
            out_scope = [d for d in ALL_CD if d not in scope]
            if out_scope:
                items[-1] = cd_item(rng, rng.choice(out_scope), 0.3)[0]
        if kind == "rx_cd":
            drug = rng.choice(sorted(scope))
            truth["cd"] = drug
            item, brand = cd_item(rng, drug, float(params.get("cd_brand_share", 0.3)))
            truth["brand"] = brand
            items[rng.randrange(len(items))] = item
        body = _fill(rng, rng.choice(RX_BODIES))
        body = styled(rng, style, body) if body else body
    elif kind == "red_flag":
        rf_cat, phrase = rng.choice(_rf_phrases(params))
        truth.update(rf_category=rf_cat, phrase=phrase)
        host = rng.choice(["admin", "admin", "admin", "clinical", "clinical", "appointment", "rx", "other", "carer"])
        sent = None
        if host == "carer":
            who = "my " + rng.choice(["mum", "dad", "husband", "wife", "nan", "grandad"])
            sent = carer_sentence(rng, phrase, who)
            truth["about"] = who
        if sent is None:
            host = "admin" if host == "carer" else host
            sent = rf_sentence(rng, phrase)
        if host in ("admin", "carer"):
            cat = "Admin query" if host == "admin" else rng.choice(["Admin query", "Other"])
            h = _fill(rng, rng.choice(FAQ_TEXT["address"] + FAQ_TEXT["opening"] + ADMIN_OTHER[:6]))
            subj = rng.choice(["change of address", "query", "letter", "admin", "question", "opening times", "", "records"])
        elif host == "clinical":
            cat, h = "Medical question", _fill(rng, rng.choice(CLINICAL[:8] + ["question about my tablets"]))
            subj = rng.choice(CLIN_SUBJECTS)
            if rng.random() < 0.3:
                subj = written_phrase(rng, phrase)
                truth["subject_rf"] = True
        elif host == "appointment":
            cat, h, subj = "Appointment request", _fill(rng, rng.choice(APPOINTMENT)), rng.choice(APPT_SUBJECTS)
        elif host == "rx":
            cat, subj = "Repeat prescription", rng.choice(["repeat", "", "meds"])
            items = [rx_item(rng)]
            h = rng.choice(["Please can I have my usual", "usual please", "repeat as normal thanks", "can I have this again"])
        else:
            cat, h, subj = "Other", rng.choice(["Not sure which option to pick", "sorry if this is the wrong place",
                                                "couldn't get through on the phone", "tried ringing at 8, 40th in the queue",
                                                "the website sent me here"]), ""
        ending = rng.choice(["not sure if I should mention it", "probably nothing", "is that normal?",
                             "thought I'd better say", "don't want to waste anyone's time", "", "", "my daughter said to tell you"])
        sent_c = _cap(sent)
        core = rng.choice([f"{h}. Also {sent}{', ' + ending if ending else ''}.",
                           f"Sorry to bother you. {sent_c}. {h}",
                           f"{h}\n\nPS {sent}",
                           f"{sent_c}{' - ' + ending if ending else ''}. Anyway {h[:1].lower() + h[1:]}?",
                           f"{h}. I should say {sent} as well",
                           f"{h}, oh and {sent}",
                           f"{h}.\n\n{sent_c}. {_cap(ending) + '.' if ending else ''}"])
        if host == "carer":
            core = rng.choice([f"I'm writing on behalf of {truth['about']}. {core}", f"(I'm the main carer for {truth['about']}) {core}", core])
        body = styled(rng, style if style != "lowlit" else "plain", core)
        truth["host"] = host
    else:
        raise ValueError(kind)
    if rng.random() < 0.025 and body:
        # pasted in from an email a relative sent them first
        f, s = _name(rng)
        addr = (f"{f.lower()}.{s.lower().replace(chr(39), '')}{rng.randint(1, 99)}@"
                f"{rng.choice(['gmail.com', 'hotmail.co.uk', 'btinternet.com', 'outlook.com', 'yahoo.co.uk'])}")
        head = rng.choice(["---------- Forwarded message ---------", "-----Original Message-----", "Begin forwarded message:",
                           "________________________________", "FW:"])
        body = f"{head}\nFrom: {f} {s} <{addr}>\nSubject: {subj or 'portal'}\n\n{body}"
    body = body.replace("?.", "?").replace(" a asthma", " an asthma")
    msg = {"id": f"PM-{when:%y%m%d}-{seq:04d}", "received_at": stamp(rng, when, site), "site": site,
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
    quiet = day.weekday() >= 5 or day in BANK_HOLIDAYS
    wk, we = float(params.get("weekday_volume", 150)), float(params.get("weekend_volume", 50))
    n = int(round((rng.gauss(we, we / 10) if quiet else rng.gauss(wk, wk / 15)) * volume_scale))
    mix = _mix(params)
    times = []
    for _ in range(n):
        h = _weighted(rng, range(24), HOUR_W_WEEKEND if quiet else HOUR_W_WEEKDAY)
        times.append(dt.datetime(day.year, day.month, day.day, h, rng.randrange(60), rng.randrange(60)))
    times.sort()
    out = []
    for i, t in enumerate(times):
        kind = _weighted(rng, [k[0] for k in mix], [k[2 if quiet else 1] for k in mix])
        out.append(make_message(rng, params, t, i + 1, kind))
    return out


def held_out(params: dict, seed: int) -> dict:
    rng = random.Random(_seed(params, seed, 1_000_000 + seed) * 7919 + 3)
    days = []
    for d in range(HELD_DAYS):
        day = HELD_START + dt.timedelta(days=d)
        days.append({"date": day.isoformat(), "messages": gen_day(rng, params, day)})
    return {"days": days}


def shadow(params: dict, day: int) -> dict:
    """Trial day ``day`` (1, 2, 3) mirrors the live portal for one day: Monday 2 March, then Tuesday, then
    Wednesday. Each trial day takes a day of customer time (people.yaml ``trial.advance_hours``), so day n
    is run on 2 March + (n - 1) at the earliest and its report arrives after that day is over."""
    rng = random.Random(_seed(params, SHADOW_SEED, 20_000_000, 1000) + 101 * int(day))
    date = SHADOW_START + dt.timedelta(days=(int(day) - 1) % 4)     # Mon-Thu of the engagement week
    msgs = gen_day(rng, params, date)
    for i, item in enumerate(msgs):
        kind = KNOWN_SHADOW_MESSAGES.get(item["msg"]["id"])
        if kind and item["truth"]["kind"] != kind:
            # 2 March is GMT: the UK wall clock is the UTC instant's
            when = dt.datetime.fromisoformat(item["msg"]["received_at"].replace("Z", "+00:00")).replace(tzinfo=None)
            msgs[i] = make_message(random.Random(item["msg"]["id"]), params, when, i + 1, kind)
    return {"days": [{"date": date.isoformat(), "messages": msgs}]}


# ---------------------------------------------------------------------------------------- dev data
STAFF = ["AT", "NB", "JW", "MD", "LP", "HQ", "BR", "SA"]
RECEPTION = ["AT", "JW", "MD", "LP", "BR", "SA"]           # who works the front desk's admin queue
T_CODE = {"opening": "T01", "address": "T02", "repeat_howto": "T03", "fees": "T04", "registration": "T05"}
T_SENT = {"opening": "sent opening times", "address": "sent change of details link", "repeat_howto": "sent NHS App repeats info",
          "fees": "sent fees link", "registration": "sent registration link"}


def _note(rng: random.Random, kind: str, q: str, t: dict, m: dict) -> str:
    """What the member of staff typed in the EMIS note field - short, their own shorthand."""
    who = rng.choice(STAFF)
    if kind == "red_flag":
        if q != "nurse_line":
            return rng.choice([f"passed to nurse line - clinical content ({who})", f"clinical content - sent to duty nurse {who}",
                               f"found at {rng.randint(10, 12)}:{rng.choice(['05', '20', '40', '55'])} - to NB, RF",
                               f"pt mentions symptoms at the end!! passed to nurses - {who}", "to duty nurse ASAP (RF in body)",
                               f"RF in msg body - escalated {who}"])
        return rng.choice([f"RF - rang pt, advised 999 ({who})", "RF - same-day with duty dr", f"red flag, escalated to duty doc {who}",
                           "rang pt back, booked urgent", "RF: spoke to pt, sent to A&E", f"RF - 111 already involved, f/u tmrw {who}",
                           f"spoke to {rng.choice(['pt', 'daughter', 'husband', 'wife'])} - ambulance called", "RF - seen in hot clinic"])
    if kind == "rx_cd":
        drug = t.get("cd", "CD")
        if t.get("brand"):
            return rng.choice([f"{drug} (brand on template) = CD - fwd duty dr {who}", f"NB brand name - it's {drug}, CD, to GP",
                               f"{drug} - CD - to Dr A", f"careful: {drug} by brand. GP to authorise {who}"])
        if t.get("host") == "proxy":
            return rng.choice([f"carer ordering {drug} - CD, to duty GP {who}", f"{drug} for relative, CD - GP"])
        return rng.choice([f"CD ({drug}) - fwd duty dr {who}", f"{drug} - GP to sign", f"CD to GP {who}", f"fwd GP - {drug}",
                           f"{drug}, 28d, GP auth needed"])
    desk = who if who in RECEPTION else RECEPTION[STAFF.index(who) % len(RECEPTION)]   # the front desk answered it
    if kind == "rx":
        if t.get("host") == "proxy":
            return rng.choice([f"carer order - passed to pharm desk {who}", "daughter ordering for mum - to HQ",
                               f"proxy request, no items ticked - keyed in by {who}", "relative ordering - pharm desk pls"])
        if t.get("host") == "mixed":
            t_code = T_CODE.get(t.get("faq"), "T02")
            return rng.choice([f"sent {t_code} + repeat bit to pharm desk {desk}", f"answered the {t.get('faq', 'admin')} q, passed the repeat on",
                               f"2 things in 1 msg - {t_code} + rx to HQ ({desk})", f"{t_code} sent; repeat request forwarded - {desk}",
                               f"{desk}: {t_code} + keyed repeat in for desk"])
        if q == "nurse_line":
            first = (m.get("items") or ["item"])[0].split(" ")[0].lower()
            return rng.choice(["repeat issued", "issued", f"issued {first} 28d", f"repeat issued, review due {rng.choice(['Apr', 'May', 'June'])}",
                               f"issued - med review booked {who}", f"{first} issued {who}", f"issued, pt asked for {rng.choice([56, 84])}d - gave 28 ({who})",
                               "", "issued x1", f"rejected - not on template, told pt ({who})"])
        return ""
    if kind in ("appointment", "results") and t.get("host") == "mixed":
        return rng.choice([f"template sent + booked {desk}", f"answered both q's {desk}", f"sent template, {kind} bit passed on ({desk})",
                           f"{desk} - 2 asks, both done"])
    if kind == "faq":
        # the template code and what was sent match the question asked; the desk sends templates, not the
        # pharmacist or the nurses (the draw is kept as it was so the rest of the export does not move)
        rng.randint(1, 5)
        return rng.choice(["sent template", T_SENT[t["faq"]], "replied", "sent link", "", "", f"{T_CODE[t['faq']]} {desk}",
                           "pasted template", "done"])
    return rng.choice(["", "", "", "done", f"actioned {who}", "replied", f"{who}"])


def _dev_outcome(rng: random.Random, m: dict, t: dict) -> dict:
    """What production did last month: the old router's queue and what staff later did."""
    cat = m["category"]
    q = {"Admin query": "front_desk", "Medical question": "nurse_line", "Repeat prescription": "nurse_line",
         "Test results": "doctor", "Appointment request": "front_desk", "Fit note": "doctor",
         "Other": "front_desk"}[cat]
    prio = "routine"
    if t["kind"] == "red_flag" and t.get("subject_rf"):
        q, prio = "nurse_line", "urgent"
    rec = dict(m)
    rec["queue"] = q
    rec["priority"] = prio
    first = {"front_desk": rng.uniform(14, 30), "nurse_line": rng.uniform(0.3, 5.5),
             "doctor": rng.uniform(3, 26)}[q]
    if prio == "urgent":
        first = rng.uniform(0.05, 0.5)
    rec["first_action_hrs"] = round(first, 1)
    rec["staff_note"] = _note(rng, t["kind"], q, t, m)
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
    # production texture: a re-sent duplicate, a row the portal exported half-empty
    dup = dict(lines[37]); dup["staff_note"] = "dup of earlier msg - closed"
    lines.insert(38, dup)
    broken = dict(lines[120]); broken["body"] = None; broken["subject"] = None; broken["staff_note"] = "blank msg - portal bug INC-2231"
    lines[120] = broken
    with open(data / "portal_messages_2026-02-16_to_22.jsonl", "w", encoding="utf-8") as f:
        for r in lines:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
