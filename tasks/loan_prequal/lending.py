"""Shared model of loan_prequal (task side, never in a workspace): who applies, what the intake
forms say about their income, and what an approved loan is worth.

value of an approved loan = amount x (MARGIN - PD x LGD), PD from the FICO band, the *true* DTI
against the credit committee's appetite, true income below the floor, and a recent bankruptcy.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta

MARGIN, LGD = 0.12, 0.70
PRICING = [(740, 0.0899), (700, 0.1149), (660, 0.1399), (640, 0.1649), (0, 0.1899)]
PD_BY_FICO = [(740, 0.02), (700, 0.035), (660, 0.06), (640, 0.09), (600, 0.175), (0, 0.30)]
FORMS = {"online": ("OLA-2.0", "OLA-1.9"), "partner": ("LC-API-v3", "LC-API-v2"), "branch": ("LOS-BR", "LOS-BR")}
PER_MONTH = {"annual": 1 / 12, "monthly": 1.0, "weekly": 52 / 12, "biweekly": 26 / 12, "quarterly": 1 / 3}
UNIT = {"monthly": ["/mo", " per month", " a month", " monthly"], "weekly": ["/wk", " per week", " a week", " weekly"],
        "quarterly": ["/qtr", " per quarter", " a quarter", " quarterly"], "biweekly": ["/2wks", " every 2 weeks"]}
ZIPS_LOW = ["52402", "52403", "52404", "52241", "52245", "52302", "52722", "52807", "50266", "50322", "61265", "61244"]
ZIPS_HIGH = ["52405", "52801", "52802", "52803", "61201", "61104", "50314", "50316", "52501", "52601"]
FIRST = {"Mr": ["James", "Marcus", "Luis", "Tyler", "DeShawn", "Nguyen", "Ryan", "Abdi", "Cody", "Jorge", "Kyle", "Dwayne"],
         "Ms": ["Ashley", "Maria", "Keisha", "Emily", "Sofia", "Hannah", "Amina", "Lauren", "Brittany", "Mai", "Rosa", "Jess"]}
LAST = ["Miller", "Hernandez", "Johnson", "Nguyen", "Schmidt", "Okafor", "Larson", "Washington", "Kowalski", "Patel",
        "Garcia", "Olson", "Brown", "Hassan", "Peterson", "Ramirez", "Jensen", "Moore", "Vang", "Novak"]
PURPOSES = ["debt consolidation", "home improvement", "auto repair", "medical", "moving", "wedding", "equipment",
            "vacation", "major purchase", "other"]
BUSINESSES = ["landscaping", "hair salon (booth rent)", "trucking (owner-operator)", "rideshare / delivery", "HVAC",
              "bookkeeping", "photography", "cleaning service", "roofing", "daycare (home)", "real estate agent",
              "tattoo studio", "farm custom work", "food truck", "IT consulting", "handyman", "Uber/Lyft", "DoorDash",
              "nail tech", "plumbing LLC", "snow removal + lawn", "insurance agent (1099)", "dog grooming",
              "auto detailing", "electrician", "massage therapist", "Etsy shop", "tax prep (seasonal)", "carpentry",
              "personal trainer", "painting contractor", "barber", "hog farm", "welding", "Amazon Flex", "consulting",
              "construction sub", "notary / signing agent", "music lessons", "cattle", "catering"]


def apr(fico: int) -> float:
    return next(a for lo, a in PRICING if fico >= lo)


def payment(amount: float, rate: float, term: int) -> float:
    r = rate / 12
    return amount * r / (1 - (1 + r) ** -term)


def value(t: dict, params: dict) -> float:
    """USD value of booking this application (truth side)."""
    pd = next(p for lo, p in PD_BY_FICO if t["fico"] >= lo)
    if t["dti"] > float(params["appetite_dti"]):
        pd += 0.20 + 2.0 * (t["dti"] - float(params["appetite_dti"]))
    if t["fico"] < int(params["appetite_fico"]) and pd < 0.2:
        pd = 0.2
    if t["income"] < 1500:
        pd += 0.10
    if t["bankruptcy"]:
        pd += 0.25
    if t["self_employed"]:
        pd += 0.01
    return round(t["amount"] * (MARGIN - min(pd, 0.55) * LGD), 2)


def _messy(amount: float, period: str, channel: str, rng: random.Random) -> str:
    if channel == "partner":
        return rng.choice([f"{amount:,.2f} USD", f"USD {amount:,.2f}", f"{amount:.2f}USD"])
    k = rng.random()
    if k < 0.3:
        return f"${amount:,.0f}"
    if k < 0.5 and amount >= 1000:
        return f"{amount / 1000:.1f}k".replace(".0k", "k")
    if k < 0.75:
        return f"{amount:,.0f}{rng.choice(UNIT.get(period, ['']))}"
    return f"$ {amount:,.2f}"


def application(rng: random.Random, params: dict, app_id: str, when: datetime, window: str) -> tuple[dict, dict]:
    """One application as the LOS sends it, and its truth. window: dev | heldout | shadow."""
    weights = [0.30, 0.40, 0.30] if params["quirk_channel"] == "partner" else [0.33, 0.47, 0.20]
    ch = rng.choices(["branch", "online", "partner"], weights)[0]
    quirky = ch == params["quirk_channel"]
    se_p = 0.30 if quirky else 0.15
    emp = rng.choices(["employed", "self_employed", "retired"], [0.82 - se_p, se_p, 0.18 - 0.0])[0]
    base = {"employed": 5200, "self_employed": 6300, "retired": 3600}[emp]
    income = round(max(900.0, rng.lognormvariate(0, 0.38) * base), 2)
    fico = max(520, min(845, int(rng.gauss(664, 60))))
    amount = float(min(35000, max(2000, round(rng.lognormvariate(0, 0.6) * 11000 / 500) * 500)))
    term = rng.choice([24, 36, 36, 48, 60, 60])
    debt = round(income * rng.uniform(0.04, 0.46), 2)
    bk = rng.random() < 0.03
    pay = payment(amount, apr(fico), term)
    dti = (debt + pay) / income
    new_form, old_form = FORMS[ch]
    form = new_form
    stated_period = "annual"
    messy = False
    if emp == "self_employed" and quirky:
        inflight = float(params["inflight_share_dev" if window == "dev" else "inflight_share"])
        if rng.random() < inflight:
            form = old_form
        else:
            stated_period = params["se_period"]
    elif ch != "branch" and rng.random() < (0.25 if window == "dev" else 0.08) and ch == "online":
        form = old_form                          # in-flight online apps of any kind (harmless: annual)
    if ch == "partner" and params["quirk_channel"] != "partner":
        form = old_form                          # LendCompass still on v2
    stated = income / PER_MONTH[stated_period]
    stated = round(stated, -1) if stated_period == "annual" else round(stated, 0)
    if stated_period == "annual" and rng.random() < 0.6:
        stated = round(stated, -3)
    raw: object = int(stated) if rng.random() < 0.7 else float(stated)
    if emp == "self_employed" and quirky and form == new_form and rng.random() < float(params["messy_share"]):
        raw = _messy(stated, stated_period, ch, rng)
        messy = True
    title = rng.choice(["Mr", "Ms"])
    app = {"app_id": app_id, "received": when.strftime("%Y-%m-%dT%H:%M"), "channel": ch, "form": form,
           "first_name": rng.choice(FIRST[title]), "last_name": rng.choice(LAST), "title": title if rng.random() > 0.2 else ("Mrs" if title == "Ms" else "Dr"),
           "marital_status": rng.choice(["married", "unmarried", "separated", ""]),
           "age": rng.randint(21, 72), "zip": rng.choice(ZIPS_LOW + ZIPS_HIGH),
           "employment": emp, "employer": rng.choice(BUSINESSES) if emp == "self_employed" else "",
           "income_amount": raw, "fico": fico, "monthly_debt": debt, "requested_amount": amount,
           "term_months": term, "purpose": rng.choice(PURPOSES), "bankruptcy_24m": bk}
    truth = {"income": income, "fico": fico, "dti": round(dti, 4), "amount": amount, "bankruptcy": bk,
             "self_employed": emp == "self_employed", "kind": _kind(emp, quirky, form == new_form, messy),
             "twin_of": None}
    return app, truth


def _kind(emp: str, quirky: bool, new_form: bool, messy: bool) -> str:
    if emp != "self_employed" or not quirky:
        return "other_se" if emp == "self_employed" else emp
    if not new_form:
        return "se_inflight"
    return "se_messy" if messy else "se_new_form"


def twin(rng: random.Random, app: dict, truth: dict, app_id: str) -> tuple[dict, dict]:
    """Same finances, different ZIP (across the risk team's ZIP3 split), age, title, marital status."""
    a = dict(app, app_id=app_id)
    t0 = datetime.strptime(app["received"], "%Y-%m-%dT%H:%M") + timedelta(minutes=rng.randint(40, 3000))
    a["received"] = t0.strftime("%Y-%m-%dT%H:%M")
    a["last_name"] = rng.choice(LAST)
    a["zip"] = rng.choice(ZIPS_HIGH if app["zip"] in ZIPS_LOW else ZIPS_LOW)
    a["age"] = rng.randint(58, 70) if app["age"] < 45 else rng.randint(24, 34)
    a["title"] = "Ms" if app["title"] in ("Mr", "Dr") else "Mr"
    a["first_name"] = rng.choice(FIRST[a["title"]])
    a["marital_status"] = rng.choice([m for m in ("married", "unmarried", "separated") if m != app["marital_status"]])
    return a, dict(truth, twin_of=app["app_id"])


def batch(rng: random.Random, params: dict, start: datetime, days: int, first_id: int, per_week: int,
          window: str, twins: int = 0) -> list[tuple[dict, dict]]:
    """Applications in arrival order, numbered as the LOS numbers them (in arrival order)."""
    n = round(per_week * days / 7)
    out = []
    for i in range(n):
        when = start + timedelta(minutes=int(rng.uniform(0, days * 24 * 60)))
        out.append(application(rng, params, f"tmp-{i}", when, window))
    out.sort(key=lambda x: x[0]["received"])
    if window != "dev":          # every batch has a few applications finishing on the old form
        inflight = [x for x in out if x[1]["kind"] == "se_inflight"]
        fresh = [x for x in out if x[1]["kind"] == "se_new_form"]
        for app, truth in rng.sample(fresh, max(0, min(len(fresh), 2 - len(inflight)))):
            app["form"] = FORMS[params["quirk_channel"]][1]
            app["income_amount"] = int(round(truth["income"] * 12, -2))
            truth["kind"] = "se_inflight"
    cands = [x for x in out if x[1]["kind"] == "employed" and x[0]["channel"] != "partner"]
    for j, (app, truth) in enumerate(rng.sample(cands, min(twins, len(cands)))):
        out.append(twin(rng, app, truth, f"tmp-t{j}"))
    out.sort(key=lambda x: (x[0]["received"], x[0]["app_id"]))
    ids = {a["app_id"]: f"BCB-{first_id + k}" for k, (a, _t) in enumerate(out)}
    res = []
    for a, t in out:
        res.append((dict(a, app_id=ids[a["app_id"]]), dict(t, twin_of=ids[t["twin_of"]] if t["twin_of"] else None)))
    return res
