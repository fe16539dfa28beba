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
import re
from pathlib import Path

from fdegym_env.tasklib.timeutil import LONDON, parse_iso, utc, zone

UK = zone(LONDON)                    # the wire receiver's clock (BST in April)
UTC = dt.timezone.utc
DEV_START = dt.date(2026, 4, 6)      # dev week: Mon 6 - Sun 12 April 2026
HELD_START = dt.date(2026, 4, 13)    # held-out: Mon 13 - Sun 26 April 2026
DEV_DAYS, HELD_DAYS = 7, 14
DEV_SEED = 11
SHADOW_BASE = 500_000
SHADOW_GUIDS_PER_DAY = 300      # each agency's guid counter on a trial day starts this much a day past the
                                # archive's (a day moves it ~140 on, 7 an item at most), so it never runs back

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

# --- agency copy ------------------------------------------------------------------------------------
# Copy is assembled per agency house style from slot-filled parts, so no sentence recurs verbatim more
# than a few times a fortnight: UKNS (national, PA-like: lead, context, quotes, "UKNS" style sign-off),
# Meridian (Reuters-like datelines and reporting credits), Kestrel (emailed court copy, typed in a hurry).

UKNS_DESKS = {
    "HEALTH": (["A&E waits at {hosp} longest for {n} years, figures show",
                "{hosp} misses four-hour A&E target for {nth} month running",
                "Patients at {hosp} waited up to {h} hours for a bed in March"],
               ["Patients arriving at {hosp} waited an average of {h} hours {m} minutes in March, NHS England "
                "figures published on {weekday} show.",
                "Only {pct} per cent of patients at {hosp} were seen within four hours last month, against a "
                "national target of 78 per cent.",
                "Figures released by NHS England on {weekday} show {n2} patients at {hosp} spent more than 12 "
                "hours in the emergency department in March."],
               ["health"]),
    "TRANSPORT": (["Rail passengers face {n}-day closure of {town} line",
                   "Buses replace trains between {town} and {town2} for engineering work",
                   "{town} station footbridge shut for repairs until {month}"],
                  ["Network Rail will close the line between {town} and {town2} from {weekday} while "
                   "{work} is carried out, with rail replacement buses running every {mins} minutes.",
                   "Passengers travelling between {town} and {town2} face {n} days of disruption after "
                   "engineers found {fault}.",
                   "GWR said services through {town} would be reduced until {month} while {work} is finished."],
                  ["transport"]),
    "ECONOMY": (["Inflation eases to {pct1} per cent as fuel prices fall",
                 "South West wages lag national average, ONS data shows",
                 "Shop price inflation slows to {pct1} per cent, retailers say"],
                ["Consumer prices rose by {pct1} per cent in the year to March, down from {pct2} per cent in "
                 "February, the Office for National Statistics said on {weekday}.",
                 "Median weekly pay in Devon and Cornwall was {money_small} pounds below the UK figure last "
                 "year, according to the ONS.",
                 "The British Retail Consortium said shop prices were {pct1} per cent higher than a year "
                 "earlier, with fresh food the biggest driver."],
                ["economy", "business"]),
    "EDUCATION": (["Teachers at {n} {town} schools to ballot on strike action",
                   "{town} academy trust to close sixth form over funding gap",
                   "Parents protest at plan to merge {town} primary schools"],
                  ["Members of the NEU at {n} schools in {town} will be balloted over {issue}, the union said.",
                   "The {trust} Trust said falling rolls had left a shortfall of {money_k} thousand pounds at its "
                   "{town} site.",
                   "Around {n2} parents gathered outside County Hall on {weekday} to oppose {issue}."],
                  ["education"]),
    "HOUSING": (["Second homes premium raises {money} million for {council}",
                 "{council} to buy {n} homes for families in temporary housing",
                 "Holiday lets outnumber homes for rent in {town}, survey finds"],
                ["{council} collected {money} million pounds from the second homes council tax premium in its "
                 "first year, a report to the cabinet shows.",
                 "The council will spend {money} million pounds buying {n} properties after its temporary "
                 "accommodation bill rose by {pct} per cent.",
                 "A survey by {charity} counted {n2} active holiday lets in {town} against {n} homes "
                 "advertised for long-term rent."],
                ["housing", "politics"]),
    "ENVIRONMENT": (["Sewage spills into {town} bathing waters up {pct} per cent",
                     "Storm overflow at {beach} discharged for {h} hours in a day",
                     "Campaigners test water quality at {beach} after spill alerts"],
                    ["South West Water storm overflows near {town} discharged {n} times last year, Environment "
                     "Agency data published on {weekday} shows.",
                     "An overflow at {beach} released sewage for a total of {n2} hours in 2025, the data shows.",
                     "Surfers Against Sewage said alerts had been issued for {beach} on {n} days since January."],
                    ["environment"]),
    "SPORT": (["{club} boss hails 'massive' win in promotion race",
               "{club} sign {pos} on {n}-month loan",
               "{club} fined after pitch invasion, FA confirms"],
              ["{club} moved to within {n} points of the play-off places with a {score} win on {weekday}.",
               "The {age}-year-old {pos} joins {club} until the end of the season, the club said.",
               "The FA said {club} had accepted the charge and would pay {money_k} thousand pounds."],
              ["sport", "football"]),
    "BUSINESS": (["Brewery in {town} to create {n} jobs after expansion",
                  "{town} boatyard wins {money} million pound order",
                  "Food processor in {town} consults on {n} redundancies"],
                 ["The {biz} said the investment would take its workforce to {n2} by the end of next year.",
                  "The yard will build {n} vessels for {buyer} over the next three years.",
                  "Union officials said they had been told of the proposals at a meeting on {weekday}."],
                 ["business"]),
    "FISHING": (["Newlyn fleet warns of quota cuts after talks",
                 "Crab landings at {port} fall by a {frac}, figures show",
                 "Fishermen at {port} call for help with fuel costs"],
                ["Skippers landing at {port} say the agreed quotas would cut their catch by {pct} per cent.",
                 "Marine Management Organisation figures show {n} tonnes of crab landed at {port} last year.",
                 "The Cornish Fish Producers' Organisation said {n} boats had been tied up since January."],
                ["business", "fishing"]),
    "RESCUE": (["Coastguard rescues walkers cut off by tide near {town}",
                "Lifeboat crews called to {n} incidents in a day at {beach}",
                "Kayaker airlifted after getting into difficulty off {beach}"],
               ["{lifeboat} lifeboat was launched at {clock} after a member of the public raised the alarm.",
                "HM Coastguard said {n} people were brought to safety and nobody was hurt.",
                "The coastguard helicopter from Newquay took the {age}-year-old to {hosp} as a precaution."],
               ["emergency"]),
    "COUNCIL": (["{council} approves {pct} per cent council tax rise",
                 "{council} cabinet backs {money} million pound budget gap plan",
                 "Councillors reject {town} car park charges"],
                ["Members voted {v1} to {v2} in favour of the rise, which adds about {money_small} pounds a year "
                 "to a Band D bill.",
                 "The plan includes {n} job cuts and the closure of {n3} libraries, the report says.",
                 "The proposal would have raised an estimated {money_k} thousand pounds a year."],
                ["politics", "local-government"]),
    "WEATHER": (["Yellow warning for wind issued for Devon and Cornwall coast",
                 "Met Office warns of heavy rain across the South West on {weekday}",
                 "Fog warning for Dartmoor roads overnight"],
                ["Gusts of up to {mph}mph are possible on exposed coasts from {clock} until {clock2}, the Met "
                 "Office said.",
                 "Up to {mm}mm of rain could fall on higher ground, with a risk of flooding on the {road}.",
                 "Drivers on the {road} are advised to allow extra time, with visibility below {n} metres in places."],
                ["weather"]),
    "FARMING": (["Farmers rally in {town} over inheritance tax changes",
                 "Bovine TB cases in Devon herds fall for {nth} year",
                 "Dairy farmers warn milk price cut will force sales"],
                ["Around {n2} tractors drove through {town} on {weekday} in protest at the changes.",
                 "Defra figures show {n} new herd breakdowns in Devon in the year to December.",
                 "The NFU said {n} dairy farms in the county had sold their herds in the past year."],
                ["farming", "politics"]),
    "ENERGY": (["Tidal project off {town} gets planning green light",
                "Floating wind farm in Celtic Sea delayed by a year",
                "Solar farm near {town} refused after objections"],
               ["The scheme could power about {n2} homes and create {n} jobs during construction, developers say.",
                "Developers blamed grid connection delays and said first power was now expected in {year2}.",
                "Planners received {n} objections, mostly about the loss of farmland."],
               ["energy", "environment"]),
}
UKNS_QUOTES = [
    "This is something people in {town} have been asking about for years.",
    "We know families in {town} are feeling this and we are not going to pretend otherwise.",
    "Frankly, {n} is not a number anyone should be comfortable with.",
    "Nobody wants to be back here in {month} having the same conversation.",
    "Staff have worked incredibly hard, but the pressure on {hosp} has not let up.",
    "It's good news, but it has taken far too long to get here.",
    "We will be looking very carefully at what this means for {town}.",
    "I've lived here {n3} years and I've never seen it this bad.",
    "The money has to come from somewhere, and we have tried to protect the front line.",
    "We're pleased, obviously, but there's a lot of work still to do before {month}.",
    "There was no consultation at all - we found out from the papers.",
    "Our members are angry and they are tired of being ignored.",
    "It was a proper team performance and the lads deserved that.",
    "The crew did a brilliant job in very difficult conditions.",
    "We'd ask people to check the tide times before they set out.",
    "We are disappointed but we respect the decision of the committee.",
    "I think people in {town} will see through this.",
    "This is a real vote of confidence in the area.",
    "We are talking to the families affected and will support them in any way we can.",
    "It's a drop in the ocean compared to what has been lost since {year}.",
    "The figures speak for themselves.",
    "We simply cannot carry on like this.",
]
UKNS_SPEAKERS = ["{name}, who chairs the {town} residents' association", "Councillor {name}",
                 "{name}, the local MP", "{name}, regional secretary of the union", "{name}, a spokesman for {org}",
                 "{name}, a spokeswoman for {org}", "{name}, chief executive of {org}", "{name}, from {town}",
                 "Cllr {name}", "{name}, the club's manager", "{name}, who runs a business in {town}"]
UKNS_CLOSERS = ["", "", "", "", "More follows.", "MORE", "Pictures available.", "ENDS", "ends", "More to follow.",
                "Quotes to follow.", "UKNS will have more on {town} shortly.", "Further quotes from {name} to come."]
ORGS = ["the Royal Cornwall Hospitals Trust", "University Hospitals Plymouth", "Devon County Council",
        "Cornwall Council", "South West Water", "the RNLI", "the NFU", "the Environment Agency", "GWR",
        "Network Rail", "Plymouth City Council", "Torbay Council", "the Met Office", "Citizens Advice Cornwall"]
HOSPS = ["Derriford Hospital", "the Royal Cornwall Hospital", "the Royal Devon and Exeter Hospital",
         "Torbay Hospital", "North Devon District Hospital", "Musgrove Park Hospital"]
BEACHES = ["Polzeath", "Woolacombe", "Perranporth", "Croyde", "Sennen", "Fistral", "Bude's Summerleaze beach",
           "Saunton Sands", "Gyllyngvase", "Porthtowan"]
CLUBS = ["Plymouth Argyle", "Exeter City", "Torquay United", "Truro City", "Yeovil Town", "Taunton Town"]
COUNCILS = ["Cornwall Council", "Devon County Council", "Plymouth City Council", "Torbay Council",
            "Teignbridge District Council", "North Devon Council", "East Devon District Council"]
PORTS = ["Newlyn", "Brixham", "Looe", "Padstow", "Mevagissey", "Appledore"]
ROADS = ["A30", "A38", "A39", "A386", "A361", "A380", "B3212"]

MRD_DESKS = [
    ("US-FED", "WASHINGTON", ["Fed holds rates steady, signals patience on cuts",
                              "Fed's {who} says no rush to cut rates as inflation sticks"],
     ["economy", "markets"], "US"),
    ("US-POLITICS", "WASHINGTON", ["Senate passes stopgap spending bill hours before deadline",
                                   "House Republicans unveil {money} billion dollar border package"],
     ["politics"], "US"),
    ("MARKETS-GLOBAL", "NEW YORK", ["Global stocks edge higher as oil slips",
                                    "Wall St ends lower as tech shares retreat"], ["markets"], "US"),
    ("CHINA-TRADE", "BEIJING", ["China's March exports beat forecasts",
                                "China trade surplus narrows as imports recover"], ["economy"], "CN"),
    ("UKRAINE-CRISIS", "KYIV", ["Ukraine reports overnight drone attacks on power grid",
                                "Russian strikes cut power in {ua_city}, officials say"], ["conflict"], "UA"),
    ("MIDEAST-TALKS", "CAIRO", ["Ceasefire talks resume in Cairo, officials say",
                                "Mediators press for hostage deal as talks enter {nth} day"],
     ["conflict", "diplomacy"], "EG"),
    ("TECH-CHIPS", "SAN FRANCISCO", ["Chipmaker shares jump on data-centre demand",
                                     "AI chip startup raises {money} billion dollars in funding round"],
     ["technology", "markets"], "US"),
    ("CLIMATE-OCEANS", "GENEVA", ["March was warmest on record for oceans, agency says",
                                  "Sea ice at record low for time of year, monitors say"], ["climate", "science"], "CH"),
    ("EU-STEEL", "BRUSSELS", ["EU ministers back tariff plan on steel imports",
                              "EU proposes quota cut for steel imports from {nth} quarter"], ["economy", "politics"], "BE"),
    ("FRANCE-STRIKE", "PARIS", ["French rail strike disrupts cross-Channel services",
                                "French air traffic controllers call {n}-day strike"], ["transport"], "FR"),
    ("JAPAN-QUAKE", "TOKYO", ["Magnitude {mag} quake strikes off northern Japan, no tsunami warning",
                              "Strong quake shakes {jp_pref}, no immediate reports of damage"], ["disaster"], "JP"),
    ("BRAZIL-POLITICS", "BRASILIA", ["Brazil's Congress approves pension overhaul",
                                     "Brazil's Senate delays vote on tax reform"], ["politics"], "BR"),
    ("OIL-OPEC", "VIENNA", ["Oil falls as OPEC+ weighs output increase",
                            "Brent edges up after surprise draw in US stocks"], ["markets", "energy"], "AT"),
    ("TENNIS-MONTECARLO", "MONACO", ["Top seed knocked out in Monte Carlo",
                                     "{player} battles into Monte Carlo quarter-finals"], ["sport", "tennis"], "MC"),
    ("HEALTH-MEASLES", "GENEVA", ["WHO warns of rise in measles cases across Europe",
                                  "Measles cases in Europe highest since {year}, WHO says"], ["health"], "CH"),
]
MRD_EMBARGO = [
    ("HEALTH-DEMENTIA", ["Daily walking cuts dementia risk by a third, study finds",
                         "Brisk walking linked to lower dementia risk in large study"], ["health", "science"], "US",
     "a study of {n2} adults published in {journal}"),
    ("SCIENCE-EXOPLANET", ["Astronomers detect water vapour on distant planet",
                           "Telescope finds signs of steam in atmosphere of {n}-light-year-away world"], ["science"], "US",
     "research published in {journal}"),
    ("US-JOBS", ["US employers add jobs at fastest pace since January",
                 "US payrolls beat forecasts; unemployment steady at {pct1} percent"], ["economy"], "US",
     "Labor Department data due at 8:30 a.m. EDT"),
    ("HEALTH-CANCER", ["Blood test spots cancers years earlier in trial",
                       "Experimental blood test flags {n} cancer types before symptoms"], ["health", "science"], "US",
     "trial results published in {journal}"),
    ("CLIMATE-AMOC", ["Atlantic current weakening faster than thought, researchers say",
                      "Key Atlantic current could slow sharply by {year2}, study warns"], ["climate", "science"], "US",
     "a paper in {journal}"),
]
MRD_SECOND = ["The figures come as officials face pressure over {issue_us}.",
              "{pct1} percent of those surveyed said they expected conditions to worsen.",
              "Analysts polled by Meridian had expected {n} on average.",
              "Officials did not give a timeline for {plan}.", "The figures were in line with a {nth}-quarter slowdown.",
              "{who_role} declined to comment on {weekday}.", "Shares were down {pct1} percent in early trade.",
              "It was not immediately clear how many people were affected in {region}.",
              "The move had been widely expected by {n} of {n2b} economists polled by Meridian.",
              "Talks are due to resume on {weekday_next}.", "{who_role} did not respond to a request for comment.",
              "A spokesperson for {who_role_l} said more details would follow \"in due course\".",
              "{name}, an analyst at {bank}, said the numbers were \"{adj}\".",
              "The {index} index was {updown} {pct1} percent at {clock_us} ET.",
              "It was the {nth} such {event} this year.", "Meridian could not independently verify reports from {region}.",
              "{pct1} percent of respondents in a {month_prev} poll said the issue was their main concern.",
              "The {weekday} statement gave no figures for {region}.", "{name} contributed to this report from {city}."]
MRD_CITY_WRITERS = ["{name} in {city}", "{name}", "{name} and {name2}", "{name} in {city}; additional reporting by {name2}"]
JOURNALS = ["the Lancet", "JAMA", "Nature", "the BMJ", "Science", "Nature Medicine", "the New England Journal of Medicine"]

KNA_SIGNOFF = ["Kestrel court desk - {rep} - 01392 {tel}", "KNA - {rep}", "{rep} @ Kestrel, {court_short}",
               "Kestrel News Agency (Exeter) - copy by {rep}", "ends / {rep} / KNA", "Kestrel - {rep} - mob 07{mob}",
               "-- {rep}, Kestrel News", "KNA court copy. Queries {rep} 01392 {tel}"]
KNA_REPORTERS = ["Jo Pascoe", "Rob Ellery", "Mags Trevail", "Kev Hocking", "Jo P", "Rob E", "mags", "Kev"]
KNA_EXTRA = ["{Pron} spoke only to confirm {poss} name, age and address.",
             "The case was adjourned until {weekday_next}.",
             "{Pron} was granted conditional bail not to contact the complainant.",
             "{Pron} was remanded in custody.", "Prosecutor {name2} said the incident happened at about {clock}.",
             "The court heard it happened outside a pub in {street}.",
             "{Pron} was represented by {name2}.", "No application for bail was made.",
             "District Judge {judge} said the case was too serious for magistrates.",
             "{Poss} next appearance will be on {date_next}.", "{Pron} wore a {colour} and stood with {poss} head bowed.",
             "The charge relates to an incident on {date_prev}."]
UKNS_COURT_EXTRA = ["The court heard the incident took place at an address in {street}, {town}, on {date_prev}.",
                    "{Pron} is due to appear again on {date_next}.", "The hearing lasted {n} minutes.",
                    "Prosecuting, {name2} said the offence was captured on CCTV.",
                    "Mr Justice {judge} warned jurors not to research the case online.",
                    "{name2}, defending, said {poss} client would be entering a not guilty plea.",
                    "Recorder {judge} adjourned sentence for the preparation of reports.",
                    "Police were called at about {clock} and found a {age2}-year-old man with injuries."]
JUDGES = ["Linford", "Carr", "Mayne", "Haddow", "Ellison", "Treharne", "Oakes", "Fenwick", "Bishop", "Rowe"]
STREETS = ["Fore Street", "Union Street", "Lemon Street", "Sidwell Street", "Market Jew Street", "Station Road",
           "Victoria Road", "Mutley Plain", "Cowick Street", "Higher Market Street", "Trelowarren Street"]
PRON = {True: ("She", "her", "Her"), False: ("He", "his", "His")}

STAGE_TPL = {
    "police-appeal": [("Police appeal after {offence} in {town}",
                       "Devon and Cornwall Police are appealing for witnesses after a reported {offence} in {town} on "
                       "{weekday}. Anyone with information is asked to call 101 quoting log {log}."),
                      ("{town}: {offence} - police want to hear from witnesses",
                       "Police were called to {street}, {town}, at about {clock2} on {weekday} following reports of a "
                       "{offence}. A {age2}-year-old {victim} was treated for minor injuries."),
                      ("Witnesses sought after {offence} in {street}, {town}",
                       "Officers want to speak to anyone who was in {street}, {town}, between {clock} and {clock2} on "
                       "{weekday}, when a {offence} was reported. Call 101, quoting log {log}."),
                      ("CCTV appeal after {town} {offence}",
                       "Police have released CCTV images of a man they want to trace after a {offence} in {town}. "
                       "Information can also be given to Crimestoppers, quoting {log}.")],
    "arrest": [("{who_h} arrested after {offence} in {town}",
                "{who} has been arrested on suspicion of {offence_long} following an incident in {town} on "
                "{weekday}."),
               ("Arrest after {offence} in {town}",
                "{who} was arrested on {weekday} on suspicion of {offence_long}, Devon and Cornwall Police said. "
                "{Pron_s} remains in custody.")],
    "charge": [("{who_h} charged with {offence} after {town} incident",
                "{who} has been charged with {offence_long} and is due to appear at {mags} on {weekday_next}."),
               ("Charge after {offence} in {town}",
                "Police have charged {who} with {offence_long} after an incident in {street} on {date_prev}. "
                "{Pron_s} was remanded to appear before {mags}.")],
    "court-hearing": [("{who_h} appears in court accused of {offence}",
                       "{who} appeared at {mags} accused of {offence_long}. No plea was entered and the case was sent "
                       "to {crown}, where {pron} will next appear on {date_next}."),
                      ("{who_h} denies {offence} at first hearing",
                       "{who} indicated a not guilty plea to {offence_long} when {pron} appeared before magistrates in "
                       "{mags_town}."),
                      ("Case of {who_h} sent to crown court",
                       "The case against {who}, accused of {offence_long}, was sent to {crown} by magistrates "
                       "in {mags_town}.")],
    "trial": [("{who_h} trial: jury hears of {town} {offence}",
               "The trial of {who} continued at {crown}. The prosecution told jurors the defendant denies {offence_long}."),
              ("Jury sworn in {who_h} trial",
               "A jury was sworn at {crown} in the trial of {who}, who denies {offence_long}. The trial, expected to "
               "last {n} days, continues."),
              ("{who_h} tells jury he acted in self-defence",
               "Giving evidence at {crown}, {who} denied {offence_long}. The trial continues.")],
    "verdict": [("{who_h} found guilty of {offence}",
                 "A jury at {crown} found {who} guilty of {offence_long}. Sentencing was adjourned for reports."),
                ("{who_h} convicted after {n}-day trial",
                 "{who} was convicted of {offence_long} at {crown} after the jury deliberated for {h} hours. "
                 "{Pron_s} will be sentenced on {date_next}.")],
    "sentencing": [("{who_h} jailed for {offence} in {town}",
                    "{who} was jailed for {years} years at {crown} after admitting {offence_long}."),
                   ("{who_h} sentenced for {town} {offence}",
                    "{who} was given a {months}-month sentence, suspended for two years, at {crown} for {offence_long}."),
                   ("Jail for {who_h} after {offence}",
                    "{who} was sent to prison for {years} years and {months2} months by a judge at {crown} for "
                    "{offence_long}.")],
    "appeal": [("{who_h} loses appeal against {offence} conviction",
                "{who} has lost an appeal against conviction for {offence_long} at the Court of Appeal."),
               ("Appeal judges uphold {who_h} sentence",
                "Three judges at the Court of Appeal refused {who}'s application to appeal against {poss} sentence for "
                "{offence_long}.")],
    "inquest": [("Inquest opens into death of {town} {victim}",
                 "An inquest has opened into the death of {who}, who died in {town} earlier this month. The hearing "
                 "was adjourned until {date_next}."),
                ("Coroner opens inquest into {town} death",
                 "The senior coroner for {coroner_area} opened an inquest into the death of {who}, who was found at "
                 "a property in {street}. A full hearing will take place on {date_next}.")],
}
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
CORRECT_REASONS = ["corrects spelling of name in para 3", "corrects age to {n} in para 2",
                   "corrects date of hearing in para 4", "corrects figure in headline and para 1",
                   "recasts, adds quote from council leader", "adds police statement in para 5",
                   "corrects name of court in para 1", "fixes typo in headline", "adds byline",
                   "updates with comment from {org}", "corrects attribution of quote in para 6",
                   "writethru, new top", "adds detail from report in para 7", "corrects spelling of {town} in para 2"]
HELD_CORRECT_REASONS = ["corrects spelling of defendant's surname throughout",
                        "corrects defendant's age to {n} in para 1", "corrects defendant's address in para 1",
                        "corrects the charge in para 2 (not {offence2})", "corrects court to {mags_town}",
                        "removes name of complainant in para 3 (automatic anonymity)",
                        "corrects date of next hearing to {date_next}"]
KILL_REASONS = ["Legal reasons.", "The story contained a factual error that may be defamatory.",
                "A reporting restriction has been imposed by the court.",
                "The story was sent in error.", "The defendant was wrongly named.",
                "The court has made a section 4(2) order postponing reports.", "The complainant is identifiable.",
                "It duplicates a story already sent.", "Incorrect details of the charge.", "Sent to wrong service."]
KNA_CORRECT_HEADS = ["CORRECTED: {h}", "CORRECTION - {h}", "Corrected version - {h}", "RE-SEND (corrected): {h}",
                     "corrected - {h}", "NEW VERSION: {h}"]
KNA_CORRECT_LEADS = ["Corrected version, {why}. Replaces our copy filed at {t}.",
                     "CORRECTION: {why}. Please use this version, it replaces the {t} copy.",
                     "Sorry - {why}. Corrected copy below, replaces earlier (filed {t}).",
                     "Please use this version ({why}). Replaces {t} copy.",
                     "New version - {why}. Our {t} story should not be used."]
KNA_WHY = ["wrong age in para 1", "defendant's name misspelt", "wrong court in first par", "typo in surname",
           "wrong date for next hearing", "offence was {offence2} not {offence3}", "town was wrong in intro",
           "sentence length corrected"]


US_CRIME = [
    ("US-COURT", "CLEVELAND", "Jury selection begins in trial of former Ohio mayor {who}", ["crime", "trial"], "US",
     "{sur} has pleaded not guilty to bribery and fraud charges."),
    ("US-CRIME", "HOUSTON", "Texas man {who} charged over warehouse fire that killed three", ["crime", "charge"], "US",
     "{sur}'s lawyer said he would plead not guilty."),
    ("CANADA-COURT", "TORONTO", "Ex-banker {who} convicted of insider trading in Toronto", ["crime", "verdict"], "CA",
     "{sur}, who faces up to 10 years in prison, plans to appeal, his lawyer said."),
]
EMBARGO_UKNS = [
    ("HEALTH", "One in {frac_n} GP appointments 'wasted' through missed bookings, report says", ["health"]),
    ("EDUCATION", "Exam board unveils overhaul of GCSE English after {n3}-year review", ["education"]),
    ("ECONOMY", "House prices in South West fall for {nth} month, survey finds", ["economy", "housing"]),
    ("POLITICS", "Ombudsman criticises {council} handling of complaints", ["politics"]),
    ("CHARITY", "Coastal communities face 'hidden poverty', {charity} warns", ["social-affairs"]),
]
NTH = ["second", "third", "fourth", "fifth", "sixth"]
MONTHS = ["May", "June", "July", "September", "the autumn", "the end of the year"]


# slots drawn from a list or a range (r.choice / r.randint); the rest are computed in _Slots
SLOT_PICK = {"town": TOWNS, "town2": TOWNS, "hosp": HOSPS, "month": MONTHS, "mins": [15, 20, 30, 40, 60],
            "work": ["track renewal", "bridge strengthening", "signalling upgrades", "cliff stabilisation",
                     "drainage work", "platform extension work"],
            "fault": ["a crack in a viaduct pier", "flood damage to the embankment", "a failed culvert",
                      "a landslip near the tunnel mouth"],
            "issue": ["pay", "workload", "the proposed merger", "cuts to support staff",
                      "the closure of the sixth form", "changes to the school day"],
            "trust": ["Atlantic", "Dartmoor", "Tamar", "Kernow", "Exe Valley", "Westcountry"], "council": COUNCILS,
            "charity": ["Shelter", "Citizens Advice", "the Trussell Trust", "Generation Rent",
                        "Cornwall Community Foundation"],
            "beach": BEACHES, "club": CLUBS, "pos": ["striker", "defender", "goalkeeper", "winger", "midfielder"],
            "biz": ["brewery", "company", "family firm", "business"],
            "buyer": ["the Ministry of Defence", "a Norwegian ferry operator", "the RNLI",
                      "a Scottish fish farm group"],
            "port": PORTS, "frac": ["third", "quarter", "fifth"], "frac_n": ["five", "six", "eight", "ten"],
            "lifeboat": ["The Padstow", "Falmouth's", "The Appledore", "Torbay's", "The St Ives", "Plymouth's inshore"],
            "mph": [50, 55, 60, 65, 70], "mm": [20, 25, 30, 40, 50], "road": ROADS, "nth": NTH, "org": ORGS,
            "who_role": ["The White House", "The central bank", "The company", "The ministry", "The union"],
            "issue_us": ["tariffs", "the budget deadline", "rising prices", "the strike"],
            "ua_city": ["Kharkiv", "Odesa", "Dnipro", "Zaporizhzhia"],
            "jp_pref": ["Aomori", "Iwate", "Hokkaido", "Miyagi"],
            "player": ["Sinner", "Alcaraz", "Rune", "Draper", "Zverev", "Fritz"], "journal": JOURNALS,
            "street": STREETS, "judge": JUDGES, "rep": KNA_REPORTERS,
            "court_short": ["Exeter", "Plymouth", "Truro", "Bodmin"],
            "mags_town": ["Exeter", "Plymouth", "Truro", "Barnstaple", "Newton Abbot", "Bodmin"],
            "coroner_area": ["Cornwall and the Isles of Scilly", "Exeter and Greater Devon",
                             "Plymouth, Torbay and South Devon"],
            "city": ["Washington", "New York", "London", "Brussels", "Chicago"],
            "colour": ["grey tracksuit", "dark suit", "black hoodie", "white shirt", "navy jumper"],
            "plan": ["the talks", "a decision", "the review", "repairs", "the vote", "new measures"],
            "region": ["the east", "the capital", "outlying districts", "the border area", "the north"],
            "who_role_l": ["the ministry", "the company", "the agency", "the union", "the central bank"],
            "bank": ["Capital Economics", "ING", "Nomura", "Barclays", "Oxford Economics", "Pantheon"],
            "adj": ["a mixed bag", "stronger than feared", "hard to read", "a warning sign", "encouraging"],
            "index": ["S&P 500", "Nasdaq", "Dow Jones Industrial Average", "STOXX 600", "Nikkei"],
            "updown": ["up", "down", "off", "higher by"],
            "event": ["attack", "walkout", "outage", "downgrade", "tremor"],
            "month_prev": ["January", "February", "March"]}
SLOT_INT = {"n": (3, 60), "n2": (120, 4800), "n3": (2, 40), "h": (4, 19), "m": (2, 58), "pct": (3, 61),
           "money_small": (14, 390), "money_k": (12, 950), "age": (17, 71), "age2": (18, 64), "v1": (38, 61),
           "v2": (11, 37), "year": (2004, 2019), "year2": (2027, 2034), "tel": (200000, 499999),
           "mob": (700000000, 999999999), "months": (6, 23), "months2": (1, 11), "years": (2, 14), "n2b": (61, 90)}


class _Slots(dict):
    """Template slots filled on first use from the generator's rng (one value per story)."""

    def __init__(self, gen: "_Gen", **fixed):
        super().__init__(**fixed)
        self.g = gen

    def __missing__(self, key):
        r, g, day = self.g.rng, self.g, self.g.today
        if key in SLOT_PICK:
            self[key] = r.choice(SLOT_PICK[key])
        elif key in SLOT_INT:
            self[key] = r.randint(*SLOT_INT[key])
        else:
            make = {
                "pct1": lambda: f"{r.randint(1, 6)}.{r.randint(0, 9)}", "pct2": lambda: f"{r.randint(2, 7)}.{r.randint(0, 9)}",
                "money": lambda: f"{r.randint(1, 48)}.{r.randint(1, 9)}", "weekday": lambda: WEEKDAYS[day.weekday()],
                "weekday_next": lambda: WEEKDAYS[(day.weekday() + r.randint(1, 6)) % 7],
                "score": lambda: f"{r.randint(1, 4)}-{r.randint(0, 2)}",
                "clock": lambda: f"{r.randint(5, 11)}.{r.choice(['05', '15', '20', '30', '45', '50'])}am",
                "clock2": lambda: f"{r.randint(1, 11)}.{r.choice(['00', '15', '30', '45'])}pm",
                "name": g.name, "name2": g.name, "who": g.name, "mag": lambda: f"{r.randint(5, 6)}.{r.randint(0, 9)}",
                "date_next": lambda: (day + dt.timedelta(days=r.randint(7, 60))).strftime("%-d %B"),
                "date_prev": lambda: (day - dt.timedelta(days=r.randint(1, 200))).strftime("%-d %B"),
                "offence2": lambda: r.choice(OFFENCES)[0], "offence3": lambda: r.choice(OFFENCES)[0],
                "clock_us": lambda: f"{r.randint(9, 15)}:{r.choice(['05', '12', '30', '41', '55'])}"}
            if key not in make:
                raise KeyError(f"traffic template slot {{{key}}} has no generator; add it to SLOT_PICK, SLOT_INT "
                               "or _Slots")
            self[key] = make[key]()
        return self[key]

    def fmt(self, template: str) -> str:
        return template.format_map(self)


class _Gen:
    """One stream of wire traffic for a span of days (private to this module).

    ``tag`` is "dev" (the archived week in data/wire), "held" (grading) or "shadow" (trial days). Agency
    behaviour is the same in all three; rare happenings (a correction to copy that is still held or
    embargoed, a Kestrel re-send) are rarer in the archived week than in a busy fortnight.
    """

    RATES = {"dev": (0.08, 0.15, 0.2), "held": (0.85, 0.8, 1.0), "shadow": (0.85, 0.8, 1.0)}

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
        self.today = start
        self.rate_held_fix, self.rate_emb_fix, self.rate_kna_fix = self.RATES.get(tag, self.RATES["held"])

    # --- helpers ------------------------------------------------------------------------------
    def name(self) -> str:
        return f"{self.rng.choice(FIRST)} {self.rng.choice(LAST)}"

    def slots(self, **fixed) -> _Slots:
        return _Slots(self, **fixed)

    def typo(self, text: str, p: float) -> str:
        """Kestrel's copy is typed in a hurry: now and then two letters swap or one doubles."""
        if self.rng.random() >= p:
            return text
        words = text.split(" ")
        cands = [i for i, w in enumerate(words) if len(w) > 5 and w.isalpha() and w.islower()]
        if not cands:
            return text
        i = self.rng.choice(cands)
        w = words[i]
        j = self.rng.randint(1, len(w) - 3)
        words[i] = (w[:j] + w[j + 1] + w[j] + w[j + 2:]) if self.rng.random() < 0.6 else (w[:j] + w[j] + w[j:])
        return " ".join(words)

    def uniq_slug(self, slug: str, agency: str = "") -> str:
        """UKNS and Meridian keep a slug distinct for two days; Kestrel type slugs by hand and only
        avoid a clash within the same day ('exeter court' comes round most days)."""
        base, n = slug, 2
        if agency == "MRD" and "/" not in slug:
            base = slug = f"{slug}/{self.rng.choice(['WRAPUP', 'DETAIL', 'FOCUS', 'NEWS', 'LIVE', 'BRIEF', 'URGENT', 'ANALYSIS'])}"
        used = self.slugs_today if agency == "KNA" else self.slugs_used
        while slug.upper() in used:
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
        return when.astimezone(UK).isoformat(timespec="seconds")

    def when(self, day: dt.date, lo_h: float = 5.5, hi_h: float = 23.5) -> dt.datetime:
        if self.rng.random() < 0.08:       # a little overnight traffic
            lo_h, hi_h = 0.2, 5.5
        minutes = int(self.rng.uniform(lo_h * 60, hi_h * 60))
        sec = self.rng.randint(0, 59)
        return dt.datetime(day.year, day.month, day.day, tzinfo=UK) + dt.timedelta(minutes=minutes, seconds=sec)

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

    def item(self, agency: str, when: dt.datetime, slug: str, headline: str, body, subjects, people, country,
             version: int = 1, pubstatus: str = "usable", msgtype: str = "story", priority=1, embargo=None,
             ref=None) -> dict:
        """A wire item, fields in the receiver's order; its guid is the first draw."""
        return {"guid": self.guid(agency, when), "agency": agency, "slug": slug, "version": version,
                "pubstatus": pubstatus, "msgtype": msgtype, "priority": priority, "headline": headline, "body": body,
                "subjects": subjects, "people": people, "country": country, "embargo": embargo, "ref": ref}

    def notice(self, agency: str, when: dt.datetime, slug: str, headline: str, body: str, priority: int = 1,
               ref=None) -> dict:
        """An advisory (kill notices, newslists, tests): no subjects, nobody named."""
        return self.item(agency, when, slug, headline, body, [], [], "GB", msgtype="advisory", priority=priority, ref=ref)

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
        item = self.item(agency, when, slug, headline, body, subjects, people, country, priority=priority, embargo=embargo)
        item["slug"] = self.uniq_slug(slug, agency)       # drawn after the guid
        crime = "crime" in (subjects or [])
        self.add(self.messy(item), when, {
            "kind": "story", "family": item["guid"], "priority": priority, "crime": crime,
            "legal": self.legal_unsafe(subjects, people, country),
            "embargo_utc": embargo_utc.astimezone(UTC).isoformat() if embargo_utc else None})
        self.stories.append(item)
        return item

    def crime_story(self, agency: str, day: dt.date, stage: str, named: bool, priority: int,
                    when: dt.datetime | None = None) -> dict:
        r = self.rng
        when = when or self.when(day, 8.5, 19.0)
        offence, offence_long = r.choice(OFFENCES)
        town = r.choice(TOWNS)
        person = self.name()
        age = r.randint(19, 67)
        female = person.split()[0] in ("Karen", "Tracey", "Lisa", "Kelly", "Joanne", "Stacey", "Bethany",
                                        "Chloe", "Jade", "Sian")
        noun = "woman" if female else "man"
        pron_s, poss, poss_c = PRON[female]
        if stage == "inquest":
            who = f"{person}, {age}," if named else f"a {age}-year-old {noun}"
            who_h = person.split()[1] if named else noun.capitalize()
        else:
            street_or_town = town if r.random() < 0.7 else f"{r.choice(STREETS)}, {town}"
            who = f"{person}, {age}, of {street_or_town}," if named else f"a {age}-year-old {noun} from {town}"
            who_h = person if named else (f"{noun.capitalize()}, {age}," if r.random() < 0.5 else f"{town} {noun}")
        s = self.slots(offence=offence, offence_long=offence_long, town=town, who=who, who_h=who_h,
                       mags=r.choice(MAGS), crown=r.choice(CROWN), pron=pron_s.lower(), Pron_s=pron_s, Pron=pron_s,
                       poss=poss, Poss=poss_c, victim=noun, log=f"50{r.randint(100000000, 999999999)}")
        h_tpl, b_tpl = r.choice(STAGE_TPL[stage])
        headline = s.fmt(h_tpl)
        if stage == "trial" and "self-defence" in headline and female:
            headline = headline.replace(" he ", " she ")
        body = s.fmt(b_tpl)
        body = body[0].upper() + body[1:]
        extra = KNA_EXTRA if agency == "KNA" else UKNS_COURT_EXTRA
        if stage not in ("police-appeal", "inquest"):
            for tpl in r.sample(extra, r.choice([0, 1, 1, 2])):
                body += " " + s.fmt(tpl)
        if stage == "police-appeal" or (not named and stage == "arrest"):
            body += r.choice([" Police have not named the suspect.", " Nobody has been arrested.",
                              " Officers have not released the name of the person arrested.", "", "",
                              f" Police said their {r.choice(['inquiries', 'enquiries'])} were continuing.",
                              " Detectives are keen to hear from anyone with dashcam footage."])
        if agency == "KNA":
            slug = f"{(person.split()[1] if named else town)} {stage.split('-')[0]}".lower()
            body = self.typo(body, 0.35)
            if r.random() < 0.3:
                body = body.replace(". ", ".  ", 1)
            body += "\n\n" + s.fmt(r.choice(KNA_SIGNOFF))
        else:
            slug = f"COURTS {offence.capitalize()} {town}" if stage not in ("police-appeal", "arrest", "inquest") \
                else f"POLICE {offence.capitalize()} {town}" if stage != "inquest" else f"INQUEST {town}"
            if r.random() < 0.4:
                body = f"By {self.name()}, UKNS {r.choice(['Crime', 'Courts', 'South West'])} Correspondent\n\n" + body
        subjects = ["crime", stage]
        if stage in ("court-hearing", "trial", "verdict", "sentencing", "appeal"):
            subjects.append("justice")
        people = [person] if named else []
        return self.story(agency, when, slug, headline, body, subjects, people, "GB", priority)

    def ukns_general(self, day: dt.date) -> None:
        r = self.rng
        desk = r.choice(list(UKNS_DESKS))
        heads, leads, subj = UKNS_DESKS[desk]
        s = self.slots()
        h = s.fmt(r.choice(heads))
        paras = [s.fmt(p) for p in r.sample(leads, r.choice([1, 2, 2, 3]))]
        names = []
        if r.random() < 0.6:
            spk = s.fmt(r.choice(UKNS_SPEAKERS))
            q = s.fmt(r.choice(UKNS_QUOTES))
            if r.random() < 0.5:
                paras.append(f"{spk} said: \"{q}\"")
            else:
                paras.append(f"\"{q}\" said {spk}.")
            names.append(s["name"])
        if r.random() < 0.35:
            paras.insert(0, f"By {self.name()}, UKNS {r.choice(['South West', 'Health', 'Transport', 'Political', 'Environment'])} Correspondent")
        close = s.fmt(r.choice(UKNS_CLOSERS))
        if close:
            paras.append(close)
        key = s.get("town") or s.get("hosp", "").replace("the ", "").split(" ")[0] or s.get("club", "") or s.get("council", "").split(" ")[0]
        slug = f"{desk} {key}".strip() if key else desk
        self.story("UKNS", self.when(day), slug, h, "\n\n".join(paras), list(subj), names, "GB",
                   r.choice([2, 3, 3, 3, 4, 4]))

    def mrd_general(self, day: dt.date, desk: tuple) -> None:
        r = self.rng
        slug, city, heads, subj, cc = desk
        s = self.slots()
        h = s.fmt(r.choice(heads))
        when = self.when(day)
        lead = f"{city}, {when.astimezone(UTC):%B} {when.astimezone(UTC).day} (Meridian) - {h}" + \
            r.choice([", officials said on {weekday}.", ".", ", according to people familiar with the matter.",
                      ", data showed on {weekday}.", ", a spokesperson said."])
        paras = [s.fmt(lead)] + [s.fmt(p) for p in r.sample(MRD_SECOND, r.choice([1, 2]))]
        credit = f"(Reporting by {s.fmt(r.choice(MRD_CITY_WRITERS))}; Editing by {self.name()})"
        paras.append(credit)
        self.story("MRD", when, slug, h, "\n".join(paras), list(subj), [], cc, r.choice([2, 3, 3, 4]))

    # --- control messages -----------------------------------------------------------------------
    def kill(self, target: dict, when: dt.datetime) -> None:
        r = self.rng
        agency = target["agency"]
        crime = "crime" in (target.get("subjects") or [])
        reason = r.choice(KILL_REASONS if crime else [k for k in KILL_REASONS if "named" not in k and "restriction" not in k
                                                      and "4(2)" not in k and "complainant" not in k])
        slug = target["slug"]
        tsent = parse_iso(target["received"]).astimezone(UK).strftime("%H:%M")
        mode = {"UKNS": self.p["ukns_kill"], "MRD": "cancel", "KNA": "phrase"}[agency]
        fam = self.truth[target["guid"]]["family"]
        if mode == "cancel":
            ver = self.latest_version(fam) + 1
            who = "Meridian Wire" if agency == "MRD" else "UKNS"
            body = r.choice([f"{who} withdraws the story slugged {slug}. {reason} There will be no substitute story.",
                             f"{slug} is withdrawn. {reason} No substitute story will be sent.",
                             f"Please withdraw {slug}, moved at {tsent} BST. {reason} There will be no replacement."])
            item = self.item(agency, when, slug, ("WITHDRAWN-" if agency == "MRD" else "WITHDRAWN: ")
                             + str(target["headline"]).strip(), body, target.get("subjects"), [], target.get("country"),
                             version=ver, pubstatus="canceled", priority=target["priority"])
        elif mode == "ref":
            body = r.choice([f"UKNS has withdrawn {slug}, sent at {tsent}. {reason} Please ensure the story is not "
                             f"published and is removed from websites and archives. UKNS Newsdesk",
                             f"MANDATORY. {slug} (sent {tsent}) is killed. {reason} Remove from all platforms, "
                             f"including archives and apps. Newsdesk",
                             f"Kill {slug}, timed {tsent}. {reason} It must not be used. UKNS Newsdesk, London"])
            item = self.notice(agency, when, "ADVISORY Kill", f"KILL KILL KILL {slug}", body, ref=target["guid"])
        else:   # text advisory: UKNS "text" or KNA phrase
            phrase = "MANDATORY KILL" if agency == "UKNS" else self.p["kna_kill_phrase"]
            if agency == "UKNS":
                body = r.choice([f"Editors are asked not to use the story slugged \"{slug}\", sent at {tsent}. {reason} "
                                 f"It must be removed from all platforms. UKNS Newsdesk",
                                 f"The story \"{slug}\" ({tsent}) is killed. {reason} Please remove it from websites, "
                                 f"apps and archives immediately. UKNS Newsdesk"])
                headline = f"{phrase} - {slug}"
            else:
                lead = {"DO NOT USE": "Please do not use", "WITHDRAWN": "We have withdrawn",
                        "MANDATORY KILL": "Mandatory kill on", "PLEASE KILL": "Please kill"}.get(phrase, phrase.capitalize())
                rep = r.choice(KNA_REPORTERS)
                body = r.choice([f"{lead} our copy slugged '{slug}' filed at {tsent}. {reason} "
                                 f"Apologies for any inconvenience. Kestrel News newsdesk, Exeter",
                                 f"{lead} '{slug}' ({tsent}). {reason} Sorry all. {rep}, KNA",
                                 f"{lead} our {tsent} story '{slug}' - {reason.lower().rstrip('.')}. "
                                 f"Please take down if used. Kestrel newsdesk 01392 {r.randint(200000, 499999)}"])
                body = self.typo(body, 0.3)
                headline = f"{phrase}: {slug}" if r.random() < 0.7 else f"{phrase} - {slug}"
            item = self.notice(agency, when, "advisory", headline, body)
        self.add(item, when, {"kind": "kill", "family": fam})

    def latest_version(self, fam: str) -> int:
        return max([1] + [t.get("version", 1) for t in self.truth.values() if t.get("family") == fam])

    def correction(self, target: dict, when: dt.datetime, reasons: list | None = None) -> None:
        """A new version of an agency story. UKNS and Meridian send the same slug with a higher
        version; Kestrel's email gateway knows no versions, so Kestrel re-send the whole story under
        the same slug (version 1) with the correction flagged in the subject line and first par."""
        r = self.rng
        agency = target["agency"]
        fam = self.truth[target["guid"]]["family"]
        ver = self.latest_version(fam) + 1
        s = self.slots(town=r.choice(TOWNS))
        head = str(target["headline"]).strip()
        body = str(target["body"])
        if agency == "KNA":
            t0 = parse_iso(target["received"]).astimezone(UK).strftime("%H:%M")
            why = s.fmt(r.choice(KNA_WHY))
            headline = r.choice(KNA_CORRECT_HEADS).format(h=head)
            lead = r.choice(KNA_CORRECT_LEADS).format(why=why, t=t0)
            item = self.item(agency, when, target["slug"], headline, None, target.get("subjects"),
                             target.get("people", []), target.get("country"), priority=target["priority"])
            item["body"] = self.typo(lead, 0.3) + "\n\n" + body     # drawn after the guid
        else:
            reason = s.fmt(r.choice(reasons or CORRECT_REASONS))
            if agency == "MRD":
                headline = f"UPDATE {ver - 1}-{head}" if not reason.startswith("corrects") else f"CORRECTED-{head}"
                note = r.choice([f"(Corrects {reason[9:]})" if reason.startswith("corrects") else f"({reason.capitalize()})",
                                 f"(Adds detail, {reason})", f"({reason.capitalize()})"])
            else:
                headline = f"CORRECTED: {head}" if "corrects" in reason else r.choice([f"{head} (updated)", f"{head} - WRITETHRU",
                                                                                      f"UPDATED: {head}"])
                note = r.choice([f"({reason.capitalize()})", f"EDS: {reason}.", f"Ednote: {reason}; recasts.",
                                 f"({reason.capitalize()}; further versions may follow)"])
            item = self.item(agency, when, target["slug"], headline, f"{note} {body}", target.get("subjects"),
                             target.get("people", []), target.get("country"), version=ver, priority=target["priority"],
                             embargo=target.get("embargo"))
        self.add(item, when, {"kind": "version", "family": fam, "version": ver})

    def advisory(self, day: dt.date) -> None:
        r = self.rng
        agency = r.choice(["UKNS", "UKNS", "MRD", "KNA"])
        when = self.when(day, 6, 22)
        recent = [s for s in self.stories if s["agency"] == agency]
        slug = recent[-1]["slug"] if recent else "LATEST"
        hh = when.astimezone(UK)
        if agency == "UKNS":
            headline, body = r.choice([
                ("ADVISORY: Pictures", f"Pictures are now available to accompany {slug}. UKNS Pictures desk"),
                ("ADVISORY: Newslist", f"UKNS home news list for {hh:%A}'s main stories follows at "
                 f"{r.choice(['10:30', '11:00', '15:30', '18:00'])}."),
                ("ADVISORY: Police name man", f"Police have now named the man in {slug}; a write-through will "
                 f"follow. Please do not kill the original, it stands."),
                ("TEST TEST please ignore", f"This is a test of the UKNS distribution system at {hh:%H:%M}. Please ignore."),
                ("ADVISORY: Embargo reminder", f"A reminder that {slug} is embargoed as stated. UKNS Newsdesk"),
                ("ADVISORY: Coverage", f"UKNS will be covering {r.choice(['PMQs', 'the Budget', 'the by-election count'])} "
                 f"live from {r.randint(11, 14)}:00. Copy will move as urgents."),
            ])
        elif agency == "MRD":
            headline, body = r.choice([
                ("EDITORS: Coverage advisory", f"Meridian will move a fuller version of {slug} shortly."),
                ("EDITORS: Video", f"Video is available for {slug} on Meridian Connect."),
                ("EDITORS: Schedule", f"Meridian's {r.choice(['markets', 'world', 'science'])} schedule for "
                 f"{hh:%A} will move at {r.randint(9, 15)}:00 GMT."),
            ])
        else:
            headline, body = r.choice([
                ("Court list - tomorrow", f"Our reporters will be at {r.choice(CROWN)} and {r.choice(MAGS)} tomorrow. "
                 f"Copy by {r.choice(['4pm', '5pm', 'half 4'])}. {r.choice(KNA_REPORTERS)}, KNA"),
                ("Re: earlier copy", f"Our story '{slug}' stands, legal checked. Pictures to follow. KNA"),
                ("pics", f"pics of {slug} outside court available on request, {r.choice(KNA_REPORTERS)}"),
                ("FW: court list", f"forwarding list for {r.choice(MAGS)} - {r.randint(14, 40)} cases, we'll cover "
                 f"the ones marked. KNA"),
            ])
        item = self.notice(agency, when, "advisory", headline, body, priority=4)
        self.add(item, when, {"kind": "advisory", "family": None})

    def tr(self, item: dict) -> dict:
        return self.truth[item["guid"]]

    def embargo_gap(self, item: dict) -> float:
        """Minutes from receipt to the embargo lifting."""
        return (utc(parse_iso(self.tr(item)["embargo_utc"])) - parse_iso(item["received"])).total_seconds() / 60

    def fix(self, target: dict, minutes: int, reasons: list | None = None) -> None:
        """Mark ``target`` corrected and send its new version ``minutes`` after it."""
        self.tr(target)["corrected"] = True
        self.correction(target, parse_iso(target["received"]) + dt.timedelta(minutes=minutes), reasons)

    def withdraw(self, target: dict, minutes: int) -> None:
        """Mark ``target`` killed and send the agency's kill ``minutes`` after it."""
        self.tr(target)["killed"] = True
        self.kill(target, parse_iso(target["received"]) + dt.timedelta(minutes=minutes))

    # --- a day --------------------------------------------------------------------------------
    def day(self, day: dt.date) -> None:
        rng, p = self.rng, self.p
        self.today = day
        first_story = len(self.stories)
        self.slugs_used, self.slugs_today = set(self.slugs_today), set()
        for _ in range(20):
            self.ukns_general(day)
        desks = rng.sample(MRD_DESKS, 14)
        for desk in desks:
            self.mrd_general(day, desk)
        for _ in range(2):
            slug, city, head, subj, cc, tail = rng.choice(US_CRIME)
            who = self.name()
            when = self.when(day)
            h = head.format(who=who)
            self.story("MRD", when, slug, h,
                       f"{city}, {when.astimezone(UTC):%B} {when.astimezone(UTC).day} (Meridian) - {h}. "
                       + tail.format(sur=who.split()[1])
                       + f"\n(Reporting by {self.name()}; Editing by {self.name()})", list(subj), [who], cc, 3)
        # crime & court copy: fixed quotas per stage so every day has the same shape
        plan = [("UKNS", "court-hearing", True, 2), ("UKNS", "trial", True, 3), ("UKNS", "police-appeal", False, 3),
                ("UKNS", "sentencing", True, 3), ("UKNS", rng.choice(["arrest", "charge"]), False, 3),
                ("UKNS", "inquest", rng.random() < 0.5, 3),
                ("KNA", rng.choice(["charge", "trial", "verdict"]), True, 2),
                ("KNA", rng.choice(["trial", "arrest"]), True, 3), ("KNA", "court-hearing", True, 3),
                ("KNA", "sentencing", True, 3), ("KNA", "sentencing", True, 3),
                ("KNA", rng.choice(["appeal", "court-hearing"]), rng.random() < 0.5, 3),
                ("KNA", "police-appeal", False, 3)]
        for _ in range(int(p["kna_routine_per_day"])):
            plan.append(("KNA", rng.choice(["charge", "court-hearing"]), True, rng.choice([4, 5])))
        for agency, stage, named, prio in plan:
            self.crime_story(agency, day, stage, named, prio)
        # embargoed copy
        off = dt.timedelta(hours=float(p["mrd_embargo_offset_h"]))
        for _ in range(2):
            slug, heads, subj, cc, src = rng.choice(MRD_EMBARGO)
            s = self.slots()
            head = s.fmt(rng.choice(heads))
            when = self.when(day, 7, 17)
            local = (when.astimezone(UTC) + off).replace(tzinfo=None)
            emb_local = (local + dt.timedelta(hours=rng.randint(2, 20))).replace(minute=rng.choice([0, 0, 1, 30]),
                                                                               second=0)
            emb_utc = (emb_local - off).replace(tzinfo=UTC)
            body = rng.choice([f"EMBARGOED until {emb_local:%H%M} local time {emb_local:%d %b}. {head}, according to {s.fmt(src)}.",
                               f"***EMBARGOED - NOT FOR PUBLICATION BEFORE {emb_local:%H%M} {emb_local:%d %b}***\n{head}. "
                               f"The results come from {s.fmt(src)}.",
                               f"(Embargoed to {emb_local:%-I:%M %p} {emb_local:%A}) {head}, {s.fmt(src)} showed."])
            self.story("MRD", when, slug, f"EMBARGOED-{head}", body + f"\n(Reporting by {self.name()}; Editing by "
                       f"{self.name()})", list(subj), [], cc, 3,
                       embargo=emb_local.strftime("%Y-%m-%dT%H:%M:%S"), embargo_utc=emb_utc)
        for _ in range(2):
            slug, head, subj = rng.choice(EMBARGO_UKNS)
            s = self.slots()
            head = s.fmt(head)
            when = self.when(day, 8, 18)
            nxt = (when.astimezone(UK) + dt.timedelta(days=1)).date()
            emb = dt.datetime(nxt.year, nxt.month, nxt.day, 0, 1, tzinfo=UK)
            self.story("UKNS", when, f"EMBARGOED {slug}", head,
                       rng.choice([f"EMBARGOED TO 0001 {emb:%A %d %B}. {head}.",
                                   f"Embargoed to 00.01 {emb:%A %-d %B}\n\n{head}, according to {s.fmt('{charity}')}.",
                                   f"EMBARGO: 0001 BST {emb:%a %d %b}. {head}. By {self.name()}, UKNS"]),
                       list(subj), [], "GB", 3, embargo=emb.isoformat(timespec="seconds"), embargo_utc=emb)
        todays = self.stories[first_story:]
        # corrections / write-throughs
        cands = [s for s in todays if s["agency"] in ("UKNS", "MRD") and not s.get("embargo")]
        for target in rng.sample(cands, 3):
            self.fix(target, rng.randint(25, 240))
        # a correction to court copy that legal has not cleared yet (still in the Held queue)
        for _ in range(2):
            if rng.random() >= self.rate_held_fix:
                continue
            pool = [s for s in todays if s["agency"] == "UKNS" and self.tr(s)["legal"] and not self.tr(s).get("corrected")]
            urgent = [s for s in pool if int(str(s["priority"]).strip()) <= 2]   # first appearances: names, addresses
            if urgent and rng.random() < 0.75:
                pool = urgent
            if pool:
                target = rng.choice(pool)
                self.fix(target, rng.randint(20, 150), HELD_CORRECT_REASONS)
        # a correction to embargoed copy before the embargo lifts
        if rng.random() < self.rate_emb_fix:
            pool = [s for s in todays if s.get("embargo") and not self.tr(s).get("corrected")
                    and self.embargo_gap(s) > 90]
            if pool:
                target = rng.choice(pool)
                self.fix(target, rng.randint(20, int(min(self.embargo_gap(target) - 30, 300))))
        # Kestrel re-sends a corrected story (no versions on their gateway)
        n_kna = (1 if rng.random() < self.rate_kna_fix else 0) + (1 if rng.random() < self.rate_kna_fix * 0.7 else 0)
        pool = [s for s in todays if s["agency"] == "KNA" and not self.tr(s).get("corrected")]
        if rng.random() < 0.85:    # routine magistrates' lists rarely get a re-send
            pool = [s for s in pool if int(str(s["priority"]).strip()) <= 3 and not self.tr(s)["legal"]] or pool
        for target in rng.sample(pool, min(n_kna, len(pool))):
            self.fix(target, rng.randint(30, 200))
        # kills: one per agency on a rotation, plus a second some days
        agencies = ["UKNS", "MRD", "KNA"]
        todo = [agencies[(day.toordinal()) % 3]]
        if rng.random() < 0.5:
            todo.append(agencies[(day.toordinal() + 1) % 3])
        for ag in todo:
            pool = [s for s in todays if s["agency"] == ag and not s.get("embargo")
                    and not self.tr(s).get("killed") and not self.tr(s).get("corrected")]
            clean = [s for s in pool if not self.tr(s)["legal"]]
            self.withdraw(rng.choice(clean if (clean and rng.random() < 0.8) else pool), rng.randint(20, 300))
        # one embargoed story killed before its embargo, every few days
        if rng.random() < 0.25:
            emb = [s for s in todays if s.get("embargo") and s["agency"] == "MRD" and not self.tr(s).get("corrected")]
            if emb:
                self.withdraw(emb[0], rng.randint(30, 90))
        for _ in range(rng.choice([2, 3, 3, 4])):
            self.advisory(day)

    def run(self) -> dict:
        for i in range(self.days):
            self.day(self.start + dt.timedelta(days=i))
        self.items.sort(key=lambda it: (self.truth[it["guid"]]["t"], it["guid"]))
        days: dict[str, list] = {}
        for it in self.items:
            d = parse_iso(self.truth[it["guid"]]["t"]).astimezone(UK).date().isoformat()
            days.setdefault(d, []).append(it)
        return {"days": [{"date": d, "items": days[d]} for d in sorted(days)], "truth": self.truth,
                "params": {k: self.p[k] for k in ("desk_capacity",)}}


def generate(params: dict, seed: int, start: dt.date, days: int, tag: str = "") -> dict:
    return _Gen(params, seed, start, days, tag).run()


def held_out(params: dict, seed: int) -> dict:
    return generate(params, 1_000_003 + int(seed) * 7, HELD_START, HELD_DAYS, "held")


def shadow(params: dict, day: int) -> dict:
    """Trial day ``day`` (1, 2, ...): the live wire of Mon 13 April, then of each day after. A trial
    takes a day of customer time, so trials run back to back from the first morning each report on a
    day that began before the trial was run and has ended when its report arrives. The agencies'
    counters run on from the archived week, day by day, so no two trial days share a guid."""
    date = HELD_START + dt.timedelta(days=int(day) - 1)
    gen = _Gen(params, SHADOW_BASE + int(day) * 13, date, 1, "shadow")
    gen.counter = {k: v + SHADOW_GUIDS_PER_DAY * (date - DEV_START).days for k, v in gen.counter.items()}
    return gen.run()


def dev(params: dict, out: Path) -> None:
    """The last week of production traffic, as the wire receiver archived it (data/wire/)."""
    out = Path(out)
    g = generate(params, DEV_SEED, DEV_START, DEV_DAYS, "dev")
    wire = out / "data" / "wire"
    wire.mkdir(parents=True, exist_ok=True)
    for d in g["days"]:
        _tidy_archived_day(d["items"])
        with open(wire / f"{d['date']}.jsonl", "w", encoding="utf-8") as f:
            for it in d["items"]:
                f.write(json.dumps(it, ensure_ascii=False) + "\n")
    write_incidents(params, out)


COURT_ONLY_REASONS = {"date of hearing": "date", "name of court": "spelling of place name"}


def _tidy_archived_day(items: list[dict]) -> None:
    """What the archive shows for one day, edited in place after generation (no draws, so held-out and shadow
    traffic are untouched): a correction note on non-court copy names no hearing or court, and two different
    stories never carry the same headline (the later one reads as its own story: its lead figure is added)."""
    for it in items:
        if "crime" not in (it.get("subjects") or []) and isinstance(it.get("body"), str):
            for court, plain in COURT_ONLY_REASONS.items():
                it["body"] = it["body"].replace(court, plain)
    first_slug: dict[str, str] = {}
    renamed: dict[str, tuple[str, str]] = {}
    for it in items:
        if it.get("msgtype") != "story" or int(it.get("version") or 1) != 1 or not isinstance(it.get("headline"), str):
            continue
        head, slug = it["headline"], it.get("slug")
        if first_slug.setdefault(head, slug) != slug and slug not in renamed:
            body = str(it.get("body") or "").strip()
            clause, sentence = re.split(r"[,.;]", body, maxsplit=1)[0].strip(), body.split(". ")[0].rstrip(".")
            for lead in (clause, sentence, f"{sentence}, {it.get('agency', '')} reports"):
                new = f"{head}: {lead[:1].lower()}{lead[1:]}"
                if lead and new not in first_slug:
                    first_slug[new] = slug
                    renamed[slug] = (head, new)
                    break
    for it in items:
        if it.get("slug") in renamed and isinstance(it.get("headline"), str):
            old, new = renamed[it["slug"]]
            it["headline"] = it["headline"].replace(old, new)


def write_incidents(params: dict, out: Path) -> None:
    """Last month's Meridian incident write-up (docs/incidents/; INC-2026-031 is in world/), as the digital
    team filed it: the embargo times follow the variant's Meridian offset."""
    off = float(params["mrd_embargo_offset_h"])
    feed_time = dt.datetime(2026, 3, 18, 16, 0)
    lifted = feed_time - dt.timedelta(hours=off)          # what Meridian said, in GMT (UK was on GMT then)
    d = Path(out) / "docs" / "incidents"
    d.mkdir(parents=True, exist_ok=True)
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
