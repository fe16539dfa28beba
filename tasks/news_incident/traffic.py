"""Wire traffic for news_incident: Tidewater Media Group's agency feeds, as the wire receiver
hands them to the ingest service (JSON dicts, one per wire item).

Three agencies:
  UKNS  United Kingdom News Service (national wire). Embargoes carry a UTC offset. Kills per
        params["ukns_kill"]: "ref" (advisory whose `ref` names the killed guid), "text" (advisory,
        no ref, slug quoted in the body), "cancel" (new version, pubstatus canceled).
  MRD   Meridian Wire (international). Kills are a new version of the slug with pubstatus
        "canceled". Embargo times are naive wall-clock times at params["mrd_embargo_offset_h"].
  KNA   Kestrel News Agency (south-west court & crime). Kills are emailed advisories whose
        headline starts with params["kna_kill_phrase"]; the slug is quoted in the body.

held_out() returns {"days": [{"date", "items"}], "truth": {...}}; the grader sends only the items.
Every generator uses its own random.Random(seed); dev, held-out and shadow seeds never overlap.
"""

from __future__ import annotations

import datetime as dt
import json
import random
from pathlib import Path

BST = dt.timezone(dt.timedelta(hours=1))
UTC = dt.timezone.utc
DEV_START = dt.date(2026, 4, 6)      # dev week: Mon 6 - Sun 12 April 2026
HELD_START = dt.date(2026, 4, 13)    # held-out: Mon 13 - Sun 26 April 2026
DEV_DAYS, HELD_DAYS = 7, 14
DEV_SEED = 11
SHADOW_BASE = 500_000

FIRST = ["Mark", "Dean", "Paul", "Lee", "Craig", "Gary", "Jason", "Wayne", "Ryan", "Shaun", "Karen", "Tracey",
         "Lisa", "Kelly", "Joanne", "Stacey", "Daniel", "Liam", "Connor", "Jake", "Kieran", "Nathan", "Adam",
         "Bethany", "Chloe", "Jade", "Sian", "Rhys", "Tomasz", "Piotr", "Ionut", "Callum", "Ashley", "Darren"]
LAST = ["Ellery", "Penrose", "Trelawny", "Hocking", "Pascoe", "Vosper", "Chudleigh", "Northcott", "Bickford",
        "Luscombe", "Tremayne", "Rowse", "Kitto", "Mudge", "Heard", "Yeo", "Squance", "Babbage", "Cload",
        "Dymond", "Friend", "Gribble", "Hext", "Jago", "Kellow", "Lobb", "Moyle", "Nance", "Oates", "Polglase",
        "Quick", "Rundle", "Sobey", "Toms", "Uren", "Vivian", "Widdicombe", "Zaremba", "Nowak", "Popescu"]
TOWNS = ["Exeter", "Plymouth", "Truro", "Torquay", "Barnstaple", "Newquay", "Falmouth", "Taunton", "Bideford",
         "Paignton", "Newton Abbot", "Penzance", "St Austell", "Bodmin", "Tiverton", "Exmouth", "Camborne",
         "Redruth", "Okehampton", "Tavistock", "Brixham", "Ilfracombe", "Liskeard", "Bude"]
CROWN = ["Exeter Crown Court", "Plymouth Crown Court", "Truro Crown Court", "Taunton Crown Court"]
MAGS = ["Exeter Magistrates' Court", "Plymouth Magistrates' Court", "Truro Magistrates' Court",
        "Barnstaple Magistrates' Court", "Newton Abbot Magistrates' Court", "Bodmin Magistrates' Court"]
OFFENCES = [("assault", "assault occasioning actual bodily harm"), ("burglary", "burglary"),
            ("drugs", "possession with intent to supply class A drugs"), ("fraud", "fraud by abuse of position"),
            ("stabbing", "wounding with intent"), ("arson", "arson with intent to endanger life"),
            ("theft", "theft from an employer"), ("driving", "causing death by dangerous driving"),
            ("robbery", "robbery"), ("harassment", "stalking involving fear of violence"),
            ("affray", "affray"), ("murder", "murder")]

GENERAL_UKNS = [
    ("POLITICS", "Ministers urged to rethink {x} funding formula for rural councils", ["politics", "government"]),
    ("HEALTH", "A&E waiting times at {town} hospital worst in five years, figures show", ["health"]),
    ("WEATHER", "Yellow weather warning for wind issued for Devon and Cornwall coast", ["weather"]),
    ("TRANSPORT", "Rail passengers face disruption as {town} line closes for engineering works", ["transport"]),
    ("ECONOMY", "Inflation eases to {pct} per cent as fuel prices fall", ["economy", "business"]),
    ("EDUCATION", "Teachers in {town} to ballot on strike action over pay", ["education"]),
    ("HOUSING", "Second homes levy raises {money} million for {town} council", ["housing", "politics"]),
    ("ENVIRONMENT", "Sewage spills into {town} bathing waters rose last year, data shows", ["environment"]),
    ("ROYAL", "Princess to open new lifeboat station in {town}", ["royalty"]),
    ("SPORT", "{town} boss hails 'massive' win in promotion race", ["sport", "football"]),
    ("SPORT", "Cornish Pirates confirm head coach to leave at end of season", ["sport", "rugby"]),
    ("BUSINESS", "Brewery in {town} to create {n} jobs after expansion", ["business"]),
    ("FISHING", "Fishing fleet warns of quota cuts after Brussels talks", ["business", "fishing"]),
    ("TOURISM", "Easter visitor numbers up at {town} attractions, operators say", ["tourism"]),
    ("SHOWBIZ", "TV chef to open seafood restaurant in {town} harbour", ["entertainment"]),
    ("ENERGY", "Tidal project off {town} gets planning green light", ["energy", "environment"]),
    ("NHS", "Ambulance handover delays cost {n} hours a week at {town}", ["health"]),
    ("FARMING", "Farmers protest at {town} over inheritance tax changes", ["farming", "politics"]),
    ("RESCUE", "Coastguard rescues walkers cut off by tide near {town}", ["emergency"]),
    ("COUNCIL", "{town} council approves {pct} per cent tax rise", ["politics", "local-government"]),
    ("WATER", "Hosepipe ban 'unlikely' this summer, says South West Water", ["environment", "utilities"]),
    ("MILITARY", "Royal Marines return to {town} after Arctic exercise", ["defence"]),
]
GENERAL_MRD = [
    ("US-FED", "Fed holds rates steady, signals patience on cuts", ["economy", "markets"], "US"),
    ("US-POLITICS", "Senate passes stopgap spending bill hours before deadline", ["politics"], "US"),
    ("MARKETS-GLOBAL", "Global stocks edge higher as oil slips", ["markets"], "US"),
    ("CHINA-TRADE", "China exports beat forecasts in March", ["economy"], "CN"),
    ("UKRAINE", "Ukraine reports overnight drone attacks on power grid", ["conflict"], "UA"),
    ("MIDEAST", "Ceasefire talks resume in Cairo, officials say", ["conflict", "diplomacy"], "EG"),
    ("TECH-AI", "Chipmaker shares jump on data-centre demand", ["technology", "markets"], "US"),
    ("CLIMATE", "March was warmest on record for oceans, agency says", ["climate", "science"], "CH"),
    ("EU-TRADE", "EU ministers back tariff plan on steel imports", ["economy", "politics"], "BE"),
    ("FRANCE-STRIKE", "French rail strike disrupts cross-Channel services", ["transport"], "FR"),
    ("JAPAN-QUAKE", "Magnitude 6.1 quake strikes off northern Japan, no tsunami warning", ["disaster"], "JP"),
    ("BRAZIL-POLITICS", "Brazil's Congress approves pension overhaul", ["politics"], "BR"),
    ("OIL", "Oil falls as OPEC+ weighs output increase", ["markets", "energy"], "AT"),
    ("TENNIS", "Top seed knocked out in Monte Carlo", ["sport", "tennis"], "MC"),
    ("GOLF", "Leaders tied after second round at Augusta", ["sport", "golf"], "US"),
    ("HEALTH-WHO", "WHO warns of rise in measles cases across Europe", ["health"], "CH"),
]
EMBARGO_MRD = [
    ("HEALTH-STUDY", "Daily walking cuts dementia risk by a third, study finds", ["health", "science"], "US"),
    ("SCIENCE-SPACE", "Astronomers detect water vapour on distant planet", ["science"], "US"),
    ("US-JOBS", "US employers add jobs at fastest pace since January", ["economy"], "US"),
    ("HEALTH-CANCER", "Blood test spots cancers years earlier in trial", ["health", "science"], "US"),
    ("CLIMATE-STUDY", "Atlantic current weakening faster than thought, researchers say", ["climate", "science"], "US"),
]
EMBARGO_UKNS = [
    ("HEALTH", "One in five GP appointments 'wasted' through missed bookings, report says", ["health"]),
    ("EDUCATION", "Exam board unveils overhaul of GCSE English", ["education"]),
    ("ECONOMY", "House prices in South West fall for third month, survey finds", ["economy", "housing"]),
    ("POLITICS", "Ombudsman report criticises council handling of complaints", ["politics"]),
    ("CHARITY", "Coastal communities face 'hidden poverty', charity warns", ["social-affairs"]),
]
US_CRIME = [
    ("US-COURT", "Jury selection begins in trial of former Ohio mayor", ["crime", "trial"], "US"),
    ("US-CRIME", "Texas man charged over warehouse fire that killed three", ["crime", "charge"], "US"),
    ("CANADA-COURT", "Ex-banker convicted of insider trading in Toronto", ["crime", "verdict"], "CA"),
]

STAGE_TPL = {
    "police-appeal": ("Police appeal after {offence} in {town}",
                      "Devon and Cornwall Police are appealing for witnesses after a reported {offence} in {town} "
                      "on {weekday}. Anyone with information is asked to call 101 quoting log {log}."),
    "arrest": ("{who_h} arrested after {offence} in {town}",
               "{who} has been arrested on suspicion of {offence_long} following an incident in {town}. "
               "Police said enquiries were ongoing."),
    "charge": ("{who_h} charged with {offence} after {town} incident",
               "{who} has been charged with {offence_long} and is due to appear at {mags}."),
    "court-hearing": ("{who_h} appears in court accused of {offence}",
                      "{who} appeared at {mags} accused of {offence_long}. No plea was entered and the case was "
                      "sent to {crown}. {pron} was remanded in custody."),
    "trial": ("{who_h} trial: jury hears of {town} {offence}",
              "The trial of {who} continued at {crown}. The prosecution told jurors the defendant denies "
              "{offence_long}. The trial continues."),
    "verdict": ("{who_h} found guilty of {offence}",
                "A jury at {crown} found {who} guilty of {offence_long}. Sentencing was adjourned for reports."),
    "sentencing": ("{who_h} jailed for {offence} in {town}",
                   "{who} was jailed for {years} years at {crown} after admitting {offence_long}."),
    "appeal": ("{who_h} loses appeal against {offence} conviction",
               "{who} has lost an appeal against conviction for {offence_long} at the Court of Appeal."),
    "inquest": ("Inquest opens into death of {town} {victim}",
                "An inquest has opened into the death of {who}, who died in {town} earlier this month. The "
                "hearing was adjourned."),
}
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
CORRECT_REASONS = ["corrects spelling of name in para 3", "corrects age to {n} in para 2",
                   "corrects date of hearing in para 4", "corrects figure in headline and para 1",
                   "recasts, adds quote from council leader", "adds police statement in para 5"]
KILL_REASONS = ["Legal reasons.", "The story contained a factual error that may be defamatory.",
                "A reporting restriction has been imposed by the court.",
                "The story was sent in error.", "The defendant was wrongly named."]


def parse_ts(s: str) -> dt.datetime:
    return dt.datetime.fromisoformat(s)


class _Gen:
    """One stream of wire traffic for a span of days (private to this module)."""

    def __init__(self, params: dict, seed: int, start: dt.date, days: int, tag: str):
        self.p = params
        self.rng = random.Random(seed)
        self.start, self.days, self.tag = start, days, tag
        self.items: list[dict] = []
        self.truth: dict[str, dict] = {}
        self.slugs_used: set[str] = set()
        self.slugs_today: set[str] = set()
        self.counter = {"UKNS": 1000, "MRD": 40000, "KNA": 100}
        self.stories: list[dict] = []      # v1 story items, for picking kill/correction targets

    # --- helpers ------------------------------------------------------------------------------
    def name(self) -> str:
        return f"{self.rng.choice(FIRST)} {self.rng.choice(LAST)}"

    def uniq_slug(self, slug: str, agency: str = "") -> str:
        """Agencies reuse slugs from day to day; within two days they keep them distinct."""
        base, n = slug, 2
        if agency == "MRD" and "/" not in slug:
            base = slug = f"{slug}/{self.rng.choice(['WRAPUP', 'DETAIL', 'FOCUS', 'NEWS', 'LIVE', 'BRIEF', 'URGENT', 'ANALYSIS'])}"
        while slug.upper() in self.slugs_used:
            slug = f"{base} {n}" if agency != "MRD" else f"{base}-{n}"
            n += 1
        self.slugs_used.add(slug.upper())
        self.slugs_today.add(slug.upper())
        return slug

    def guid(self, agency: str, when: dt.datetime) -> str:
        self.counter[agency] += self.rng.randint(1, 7)
        n = self.counter[agency]
        d = when.astimezone(UTC)
        if agency == "UKNS":
            return f"urn:ukns:{d:%Y%m%d}:{n:06d}"
        if agency == "MRD":
            return f"tag:meridianwire.com,{d:%Y}:newsml_L{n}X{self.rng.randint(10, 99)}"
        return f"KNA/{d:%y%m%d}/{n:04d}-{self.rng.choice('ABCDEFGH')}{self.rng.randint(0, 9)}"

    def stamp(self, when: dt.datetime, agency: str) -> str:
        # the receiver stamps in UK local time; KNA's email gateway stamps in UTC with a Z
        if agency == "KNA":
            return when.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        return when.astimezone(BST).isoformat(timespec="seconds")

    def when(self, day: dt.date, lo_h: float = 5.5, hi_h: float = 23.5) -> dt.datetime:
        if self.rng.random() < 0.08:       # a little overnight traffic
            lo_h, hi_h = 0.2, 5.5
        minutes = int(self.rng.uniform(lo_h * 60, hi_h * 60))
        sec = self.rng.randint(0, 59)
        return dt.datetime(day.year, day.month, day.day, tzinfo=BST) + dt.timedelta(minutes=minutes, seconds=sec)

    def add(self, item: dict, when: dt.datetime, truth: dict) -> dict:
        item["received"] = self.stamp(when, item["agency"])
        self.items.append(item)
        t = {"t": when.astimezone(UTC).isoformat(), "agency": item["agency"]}
        t.update(truth)
        self.truth[item["guid"]] = t
        return item

    def messy(self, item: dict) -> dict:
        """Production texture: a few malformed fields the receiver lets through."""
        r = self.rng.random()
        if r < 0.03:
            item["priority"] = str(item["priority"])
        elif r < 0.05:
            item["subjects"] = None if not item.get("subjects") or "crime" not in item["subjects"] else item["subjects"]
        elif r < 0.07:
            item["headline"] = "  " + item["headline"].replace("'", "&#39;") + " "
        elif r < 0.08 and "crime" not in (item.get("subjects") or []):
            item.pop("people", None)
        elif r < 0.09 and not item.get("embargo"):
            item["embargo"] = ""
        return item

    # --- legal truth ----------------------------------------------------------------------------
    def legal_unsafe(self, subjects: list, people: list, country: str) -> bool:
        if "crime" not in (subjects or []) or country != "GB":
            return False
        stages = set(self.p["legal_stages"])
        if not stages & set(subjects):
            return False
        return bool(people) or not self.p["legal_needs_name"]

    # --- story makers -------------------------------------------------------------------------
    def story(self, agency: str, when: dt.datetime, slug: str, headline: str, body: str, subjects: list,
              people: list, country: str, priority: int, embargo: str | None = None,
              embargo_utc: dt.datetime | None = None) -> dict:
        item = {"guid": self.guid(agency, when), "agency": agency, "slug": self.uniq_slug(slug, agency), "version": 1,
                "pubstatus": "usable", "msgtype": "story", "priority": priority, "headline": headline,
                "body": body, "subjects": subjects, "people": people, "country": country,
                "embargo": embargo, "ref": None}
        crime = "crime" in (subjects or [])
        self.add(self.messy(item), when, {
            "kind": "story", "family": item["guid"], "priority": priority, "crime": crime,
            "legal": self.legal_unsafe(subjects, people, country),
            "embargo_utc": embargo_utc.astimezone(UTC).isoformat() if embargo_utc else None})
        self.stories.append(item)
        return item

    def crime_story(self, agency: str, day: dt.date, stage: str, named: bool, priority: int,
                    when: dt.datetime | None = None) -> dict:
        when = when or self.when(day, 8.5, 19.0)
        offence, offence_long = self.rng.choice(OFFENCES)
        town = self.rng.choice(TOWNS)
        person = self.name()
        age = self.rng.randint(19, 67)
        gender_f = person.split()[0] in ("Karen", "Tracey", "Lisa", "Kelly", "Joanne", "Stacey", "Bethany",
                                         "Chloe", "Jade", "Sian")
        noun = "woman" if gender_f else "man"
        if stage == "inquest":
            who = f"{person}, {age}," if named else f"a {age}-year-old {noun}"
            who_h = person.split()[1] if named else f"{noun.capitalize()}"
        else:
            who = f"{person}, {age}, of {town}," if named else f"A {age}-year-old {noun} from {town}"
            who_h = person if named else f"{noun.capitalize()}, {age},"
        f = dict(offence=offence, offence_long=offence_long, town=town, who=who, who_h=who_h,
                 mags=self.rng.choice(MAGS), crown=self.rng.choice(CROWN), years=self.rng.randint(2, 14),
                 pron="She" if gender_f else "He", victim=noun, weekday=self.rng.choice(WEEKDAYS),
                 log=f"50{self.rng.randint(100000000, 999999999)}")
        h_tpl, b_tpl = STAGE_TPL[stage]
        headline = h_tpl.format(**f)
        body = b_tpl.format(**f)
        if stage == "police-appeal" or (not named and stage in ("arrest",)):
            body += " Police have not named the suspect."
        body = body[0].upper() + body[1:]
        if agency == "KNA":
            slug = f"{(person.split()[1] if named else town)} {stage.split('-')[0]}".lower()
            body += f"\n\nKNA court desk - {self.rng.choice(['Jo', 'Rob', 'Mags', 'Kev'])} - 01392 {self.rng.randint(200000, 499999)}"
        else:
            slug = f"COURTS {offence.capitalize()} {town}" if stage not in ("police-appeal", "arrest", "inquest") \
                else f"POLICE {offence.capitalize()} {town}" if stage != "inquest" else f"INQUEST {town}"
        subjects = ["crime", stage]
        if stage in ("court-hearing", "trial", "verdict", "sentencing", "appeal"):
            subjects.append("justice")
        people = [person] if named else []
        return self.story(agency, when, slug, headline, body, subjects, people, "GB", priority)

    # --- control messages -----------------------------------------------------------------------
    def kill(self, target: dict, when: dt.datetime) -> None:
        agency = target["agency"]
        crime = "crime" in (target.get("subjects") or [])
        reason = self.rng.choice(KILL_REASONS if crime else [r for r in KILL_REASONS if "named" not in r
                                                             and "restriction" not in r])
        slug = target["slug"]
        tsent = parse_ts(target["received"]).astimezone(BST).strftime("%H:%M")
        mode = {"UKNS": self.p["ukns_kill"], "MRD": "cancel", "KNA": "phrase"}[agency]
        fam = self.truth[target["guid"]]["family"]
        if mode == "cancel":
            ver = self.latest_version(fam) + 1
            item = {"guid": self.guid(agency, when), "agency": agency, "slug": slug, "version": ver,
                    "pubstatus": "canceled", "msgtype": "story", "priority": target["priority"],
                    "headline": ("WITHDRAWN-" if agency == "MRD" else "WITHDRAWN: ") + str(target["headline"]).strip(),
                    "body": f"{'Meridian Wire' if agency == 'MRD' else 'UKNS'} withdraws the story slugged {slug}. "
                            f"{reason} There will be no substitute story.",
                    "subjects": target.get("subjects"), "people": [], "country": target.get("country"),
                    "embargo": None, "ref": None}
        elif mode == "ref":
            item = {"guid": self.guid(agency, when), "agency": agency, "slug": "ADVISORY Kill", "version": 1,
                    "pubstatus": "usable", "msgtype": "advisory", "priority": 1,
                    "headline": f"KILL KILL KILL {slug}",
                    "body": f"UKNS has withdrawn {slug}, sent at {tsent}. {reason} Please ensure the story is "
                            f"not published and is removed from websites and archives. UKNS Newsdesk",
                    "subjects": [], "people": [], "country": "GB", "embargo": None, "ref": target["guid"]}
        else:   # text advisory: UKNS "text" or KNA phrase
            phrase = "MANDATORY KILL" if agency == "UKNS" else self.p["kna_kill_phrase"]
            if agency == "UKNS":
                body = (f"Editors are asked not to use the story slugged \"{slug}\", sent at {tsent}. {reason} "
                        f"It must be removed from all platforms. UKNS Newsdesk")
                headline = f"{phrase} - {slug}"
            else:
                lead = {"DO NOT USE": "Please do not use", "WITHDRAWN": "We have withdrawn",
                        "MANDATORY KILL": "Mandatory kill on", "PLEASE KILL": "Please kill"}.get(phrase, phrase.capitalize())
                body = (f"{lead} our copy slugged '{slug}' filed at {tsent}. {reason} "
                        f"Apologies for any inconvenience. Kestrel News newsdesk, Exeter")
                headline = f"{phrase}: {slug}"
            item = {"guid": self.guid(agency, when), "agency": agency, "slug": "advisory", "version": 1,
                    "pubstatus": "usable", "msgtype": "advisory", "priority": 1, "headline": headline,
                    "body": body, "subjects": [], "people": [], "country": "GB", "embargo": None, "ref": None}
        self.add(item, when, {"kind": "kill", "family": fam})

    def latest_version(self, fam: str) -> int:
        return max([1] + [t.get("version", 1) for t in self.truth.values() if t.get("family") == fam])

    def correction(self, target: dict, when: dt.datetime) -> None:
        agency = target["agency"]
        fam = self.truth[target["guid"]]["family"]
        ver = self.latest_version(fam) + 1
        reason = self.rng.choice(CORRECT_REASONS).format(n=self.rng.randint(19, 70))
        head = str(target["headline"]).strip()
        if agency == "MRD":
            headline = f"UPDATE {ver - 1}-{head}" if "adds" in reason or "recasts" in reason else f"CORRECTED-{head}"
        else:
            headline = f"CORRECTED: {head}" if "corrects" in reason else f"{head} (updated)"
        item = {"guid": self.guid(agency, when), "agency": agency, "slug": target["slug"], "version": ver,
                "pubstatus": "usable", "msgtype": "story", "priority": target["priority"], "headline": headline,
                "body": f"({reason.capitalize()}) " + str(target["body"]),
                "subjects": target.get("subjects"), "people": target.get("people", []),
                "country": target.get("country"), "embargo": target.get("embargo"), "ref": None}
        self.add(item, when, {"kind": "version", "family": fam, "version": ver})

    def advisory(self, day: dt.date) -> None:
        agency = self.rng.choice(["UKNS", "UKNS", "MRD", "KNA"])
        when = self.when(day, 6, 22)
        recent = [s for s in self.stories if s["agency"] == agency]
        slug = recent[-1]["slug"] if recent else "LATEST"
        if agency == "UKNS":
            headline, body = self.rng.choice([
                ("ADVISORY: Pictures", f"Pictures are now available to accompany {slug}. UKNS Pictures desk"),
                ("ADVISORY: Newslist", "UKNS home news list for today's main stories follows at 10:30."),
                ("ADVISORY: Police killed man", f"Police have now named the man killed in {slug}; a write-through "
                 f"will follow. Please do not kill the original, it stands."),
                ("TEST TEST please ignore", "This is a test of the UKNS distribution system. Please ignore."),
            ])
        elif agency == "MRD":
            headline, body = self.rng.choice([
                ("EDITORS: Coverage advisory", f"Meridian will move a fuller version of {slug} shortly."),
                ("EDITORS: Video", f"Video is available for {slug} on Meridian Connect."),
            ])
        else:
            headline, body = self.rng.choice([
                ("Court list - tomorrow", f"Our reporters will be at {self.rng.choice(CROWN)} and "
                 f"{self.rng.choice(MAGS)} tomorrow. Copy by 4pm. KNA"),
                ("Re: earlier copy", f"Our story '{slug}' stands, legal checked. Pictures to follow. KNA"),
            ])
        item = {"guid": self.guid(agency, when), "agency": agency, "slug": "advisory", "version": 1,
                "pubstatus": "usable", "msgtype": "advisory", "priority": 4, "headline": headline, "body": body,
                "subjects": [], "people": [], "country": "GB", "embargo": None, "ref": None}
        self.add(item, when, {"kind": "advisory", "family": None})

    # --- a day --------------------------------------------------------------------------------
    def day(self, day: dt.date) -> None:
        rng, p = self.rng, self.p
        first_story = len(self.stories)
        self.slugs_used, self.slugs_today = set(self.slugs_today), set()
        # national general copy
        for _ in range(20):
            slug, head, subj = rng.choice(GENERAL_UKNS)
            f = dict(x=rng.choice(["social care", "road", "school", "bus"]), town=rng.choice(TOWNS),
                     pct=rng.choice(["2.8", "3.1", "3.4", "4.9", "2.6"]), money=rng.choice(["4.2", "11", "1.7"]),
                     n=rng.randint(12, 240))
            h = head.format(**f)
            names = [self.name()] if rng.random() < 0.3 else []
            body = f"{h}. " + rng.choice(["Officials said the figures reflected pressures across the region.",
                                           "A spokesperson said: \"We are listening to residents.\"",
                                           "The announcement was welcomed by local MPs.",
                                           "Critics said the move did not go far enough."])
            if names:
                body += f" {names[0]} said the decision was \"long overdue\"."
            self.story("UKNS", self.when(day), f"{slug} {f['town']}" if "{town}" in head else slug, h, body,
                       list(subj), names, "GB", rng.choice([2, 3, 3, 3, 4, 4]))
        for _ in range(14):
            slug, head, subj, cc = rng.choice(GENERAL_MRD)
            self.story("MRD", self.when(day), slug, head, f"{head}. (Reporting by Meridian staff; editing by "
                       f"{self.name()})", list(subj), [], cc, rng.choice([2, 3, 3, 4]))
        for _ in range(2):
            slug, head, subj, cc = rng.choice(US_CRIME)
            self.story("MRD", self.when(day), slug, head, f"{head}. The defendant, {self.name()}, denies the "
                       f"charges. (Meridian)", list(subj), [self.name()], cc, 3)
        # crime & court copy: fixed quotas per stage so every day has the same shape
        plan = [("UKNS", "court-hearing", True, 2), ("UKNS", "trial", True, 3), ("UKNS", "police-appeal", False, 3),
                ("UKNS", "sentencing", True, 3), ("UKNS", rng.choice(["arrest", "charge"]), False, 3),
                ("UKNS", "inquest", rng.random() < 0.5, 3),
                ("KNA", rng.choice(["charge", "trial", "verdict"]), True, 2),
                ("KNA", rng.choice(["trial", "arrest"]), True, 3), ("KNA", "court-hearing", True, 3),
                ("KNA", "sentencing", True, 3), ("KNA", "sentencing", True, 3),
                ("KNA", rng.choice(["appeal", "court-hearing"]), rng.random() < 0.5, 3),
                ("KNA", "police-appeal", False, 3)]
        for i in range(int(p["kna_routine_per_day"])):
            plan.append(("KNA", rng.choice(["charge", "court-hearing"]), True, rng.choice([4, 5])))
        for agency, stage, named, prio in plan:
            self.crime_story(agency, day, stage, named, prio)
        # embargoed copy
        off = dt.timedelta(hours=float(p["mrd_embargo_offset_h"]))
        for _ in range(2):
            slug, head, subj, cc = rng.choice(EMBARGO_MRD)
            when = self.when(day, 7, 17)
            local = (when.astimezone(UTC) + off).replace(tzinfo=None)
            emb_local = (local + dt.timedelta(hours=rng.randint(2, 20))).replace(minute=rng.choice([0, 0, 1, 30]),
                                                                               second=0)
            emb_utc = (emb_local - off).replace(tzinfo=UTC)
            self.story("MRD", when, slug, f"EMBARGOED-{head}", f"{head}. EMBARGOED until {emb_local:%H%M} local "
                       f"time {emb_local:%d %b}. (Meridian)", list(subj), [], cc, 3,
                       embargo=emb_local.strftime("%Y-%m-%dT%H:%M:%S"), embargo_utc=emb_utc)
        for _ in range(2):
            slug, head, subj = rng.choice(EMBARGO_UKNS)
            when = self.when(day, 8, 18)
            nxt = (when.astimezone(BST) + dt.timedelta(days=1)).date()
            emb = dt.datetime(nxt.year, nxt.month, nxt.day, 0, 1, tzinfo=BST)
            self.story("UKNS", when, f"EMBARGOED {slug}", head, f"EMBARGOED TO 0001 {emb:%A %d %B}. {head}.",
                       list(subj), [], "GB", 3, embargo=emb.isoformat(timespec="seconds"), embargo_utc=emb)
        todays = self.stories[first_story:]
        # corrections / write-throughs
        cands = [s for s in todays if s["agency"] in ("UKNS", "MRD") and not s.get("embargo")]
        for target in rng.sample(cands, 3):
            self.truth[target["guid"]]["corrected"] = True
            t0 = parse_ts(target["received"])
            self.correction(target, t0 + dt.timedelta(minutes=rng.randint(25, 240)))
        # kills: one per agency on a rotation, plus a second some days
        agencies = ["UKNS", "MRD", "KNA"]
        todo = [agencies[(day.toordinal()) % 3]]
        if rng.random() < 0.5:
            todo.append(agencies[(day.toordinal() + 1) % 3])
        for ag in todo:
            pool = [s for s in todays if s["agency"] == ag and not s.get("embargo")
                    and not self.truth[s["guid"]].get("killed") and not self.truth[s["guid"]].get("corrected")]
            clean = [s for s in pool if not self.truth[s["guid"]]["legal"]]
            target = rng.choice(clean if (clean and rng.random() < 0.8) else pool)
            self.truth[target["guid"]]["killed"] = True
            t0 = parse_ts(target["received"])
            self.kill(target, t0 + dt.timedelta(minutes=rng.randint(20, 300)))
        # one embargoed story killed before its embargo, every few days
        if rng.random() < 0.25:
            emb = [s for s in todays if s.get("embargo") and s["agency"] == "MRD"]
            if emb:
                target = emb[0]
                self.truth[target["guid"]]["killed"] = True
                self.kill(target, parse_ts(target["received"]) + dt.timedelta(minutes=rng.randint(30, 90)))
        for _ in range(rng.choice([2, 3])):
            self.advisory(day)

    def run(self) -> dict:
        for i in range(self.days):
            self.day(self.start + dt.timedelta(days=i))
        self.items.sort(key=lambda it: (self.truth[it["guid"]]["t"], it["guid"]))
        days: dict[str, list] = {}
        for it in self.items:
            d = parse_ts(self.truth[it["guid"]]["t"]).astimezone(BST).date().isoformat()
            days.setdefault(d, []).append(it)
        return {"days": [{"date": d, "items": days[d]} for d in sorted(days)], "truth": self.truth,
                "params": {k: self.p[k] for k in ("desk_capacity",)}}


def generate(params: dict, seed: int, start: dt.date, days: int, tag: str = "") -> dict:
    return _Gen(params, seed, start, days, tag).run()


def held_out(params: dict, seed: int) -> dict:
    return generate(params, 1_000_003 + int(seed) * 7, HELD_START, HELD_DAYS, "held")


def shadow(params: dict, day: int) -> dict:
    return generate(params, SHADOW_BASE + int(day) * 13, HELD_START, 1, "shadow")


def dev(params: dict, out: Path) -> None:
    """The last week of production traffic, as the wire receiver archived it (data/wire/)."""
    out = Path(out)
    g = generate(params, DEV_SEED, DEV_START, DEV_DAYS, "dev")
    wire = out / "data" / "wire"
    wire.mkdir(parents=True, exist_ok=True)
    for d in g["days"]:
        with open(wire / f"{d['date']}.jsonl", "w", encoding="utf-8") as f:
            for it in d["items"]:
                f.write(json.dumps(it, ensure_ascii=False) + "\n")
    write_incidents(params, out)


def write_incidents(params: dict, out: Path) -> None:
    """Last month's two incident write-ups (docs/incidents/), as the digital team filed them."""
    off = float(params["mrd_embargo_offset_h"])
    feed_time = dt.datetime(2026, 3, 18, 16, 0)
    lifted = feed_time - dt.timedelta(hours=off)          # what Meridian said, in GMT (UK was on GMT then)
    d = Path(out) / "docs" / "incidents"
    d.mkdir(parents=True, exist_ok=True)
    (d / "INC-2026-031-killed-story-live.md").write_text("""# INC-2026-031 — withdrawn court story stayed live for 4h 40m

Filed by: Dana Whitlock (Head of Digital), 12 Mar 2026. Status: **open** (action: "blocklist" — see below)

## What happened
- 11 Mar, 11:42 GMT: Kestrel News Agency (KNA) court copy slugged `penrose court` landed on the wire
  and was auto-published to tidewaterpost.co.uk/news/crime by the ingest at 11:45.
- The copy named the wrong man as the defendant (a Mr Penrose of Newquay, not the Mr Penrose of
  Bodmin who was actually in court). Potentially defamatory.
- KNA say they withdrew it at 12:20 GMT. Nobody on the desk saw anything until the man's solicitor
  rang the newsdesk at 16:55. Story came down 17:00 (manual unpublish by Ashok on the day desk).
- Live for ~4h40m after the agency withdrew it. Solicitor's letter received 13 Mar. Legal handling it.

## Ingest log (extract)
```
2026-03-11T11:45:02Z pipeline  INFO  KNA/260311/0412-C3  slug='penrose court'  -> publish (auto)
2026-03-11T12:20:09Z pipeline  INFO  KNA/260311/0419-F1  msgtype=advisory      -> drop (non-story)
2026-03-11T17:00:41Z cms       INFO  manual unpublish KNA/260311/0412-C3 by a.varma
```

## Why (my view)
Court and crime stories are the risky ones. We should not be auto-publishing them blind. I want a
keyword blocklist (court, police, arrest, alleged, ...) in front of the auto-publisher so anything
risky goes to an editor first. — DW

## Comments
- **T. Wróbel (wire desk):** the 12:20 item was KNA's withdrawal. The ingest throws away every
  advisory, so it never got to anyone. Not sure a blocklist fixes that.
- **N. Corrigan (nights):** agree with Tomasz. Also, if we hold every court story the night queue
  will be unworkable. Talk to me before we do this.
""", encoding="utf-8")
    (d / "INC-2026-034-embargo-break.md").write_text(f"""# INC-2026-034 — Meridian embargo broken (HEALTH-STUDY)

Filed by: Dana Whitlock, 19 Mar 2026. Status: **open**

## What happened
- 18 Mar: Meridian Wire item `HEALTH-STUDY` ("Daily walking cuts dementia risk...") arrived 09:14 GMT
  with `embargo: "{feed_time:%Y-%m-%dT%H:%M:%S}"`.
- Ingest scheduled it and it went live at {feed_time:%H:%M} GMT.
- Meridian Client Services emailed at {(feed_time + dt.timedelta(minutes=38)):%H:%M} GMT: embargo break, the study was
  embargoed until {lifted:%H:%M} GMT. Formal warning from Meridian; a second break in 12 months
  means suspension of their embargoed service under our contract.

## Ingest log (extract)
```
2026-03-18T09:14:51Z pipeline  INFO  tag:meridianwire.com,2026:newsml_L40871X52  slug='HEALTH-STUDY' embargo={feed_time:%Y-%m-%dT%H:%M:%S} -> schedule {feed_time:%Y-%m-%dT%H:%M:%S}+00:00
```

## Notes
- Our handbook says agency times are UTC. The ingest read it exactly as sent. Meridian insist
  their feed was right. Sam (contractor who built the ingest) says "the timestamp is what it is".
- Action: hold anything with "embargo" in it for an editor? (DW)
""", encoding="utf-8")
