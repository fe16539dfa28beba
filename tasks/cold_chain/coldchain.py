"""The cold-chain model of cold_chain: Halden's products, the vans' compartment traces, the client
SOP's verdict on a load, and what each decision costs Calder Vale.

A load is one product line on one van, handed over at its drop. Its logger trace runs from loading
to the moment the doors open at its own drop: every earlier drop's door opening is in it.
"""

from __future__ import annotations

import random

QP_REVIEW = 38.0        # GBP: Halden's QP review of one quarantined load
REDELIVERY = 64.0       # GBP: a same-day replacement run to the pharmacy or clinic
HELD_LOSS = 0.15        # share of a wrongly quarantined load's value lost (short-dated stock not reissued)
RECALL = 450.0          # GBP: recalling an excursion load from a pharmacy, on top of the stock

# code, description, true storage text (Halden's PIM), true (min_c, max_c), value range GBP, weight,
# and how the June import read it: "fridge" (correct), "ambient" (correct), "dnr" (a 'do not
# refrigerate' wording read as 2-8) or "odd" (another wording read as 2-8)
PRODUCTS = [
    ("HAL-INS-GLA", "Insulin glargine 100u/ml 3ml pen x5", "Store in a refrigerator (2°C - 8°C). Do not freeze.", (2, 8), (38, 62), 9, "fridge"),
    ("HAL-INS-ASP", "Insulin aspart FlexPen 100u/ml x5", "Store in a refrigerator (2°C to 8°C). Do not freeze.", (2, 8), (26, 40), 8, "fridge"),
    ("HAL-ADA-40", "Adalimumab 40mg/0.4ml pre-filled pen x2", "Store in a refrigerator 2-8°C. Keep in outer carton.", (2, 8), (560, 720), 4, "fridge"),
    ("HAL-ETN-50", "Etanercept 50mg pre-filled pen x4", "Store in a refrigerator (2 °C - 8 °C). Do not freeze.", (2, 8), (640, 760), 3, "fridge"),
    ("HAL-QIV-05", "Influenza vaccine (QIV) 0.5ml PFS x10", "Store in a refrigerator (2°C-8°C). Do not freeze. Protect from light.", (2, 8), (80, 120), 6, "fridge"),
    ("HAL-RZV-01", "Recombinant zoster vaccine vial x1", "Store in a refrigerator (2°C - 8°C).", (2, 8), (150, 190), 3, "fridge"),
    ("HAL-LAT-25", "Latanoprost 50mcg/ml eye drops 2.5ml x3", "Before opening: store in a refrigerator (2°C-8°C).", (2, 8), (7, 14), 5, "fridge"),
    ("HAL-EPO-4K", "Epoetin alfa 4000IU PFS x6", "Store and transport refrigerated (2°C - 8°C).", (2, 8), (160, 220), 3, "fridge"),
    ("HAL-SEM-10", "Semaglutide 1mg pen", "Before first use: store in a refrigerator (2°C - 8°C).", (2, 8), (65, 85), 6, "fridge"),
    ("HAL-MET-500", "Metformin 500mg tablets x84", "This medicine does not require any special storage conditions.", (None, 30), (3, 6), 6, "ambient"),
    ("HAL-AML-05", "Amlodipine 5mg tablets x28", "Do not store above 25°C.", (None, 25), (2, 4), 5, "ambient"),
    ("HAL-ATO-20", "Atorvastatin 20mg tablets x28", "Do not store above 30°C.", (None, 30), (2, 5), 5, "ambient"),
    ("HAL-OME-20", "Omeprazole 20mg capsules x28", "Do not store above 25°C. Store in the original package.", (None, 25), (2, 4), 4, "ambient"),
    ("HAL-SAL-100", "Salbutamol 100mcg inhaler x1", "Store below 30°C. Do not refrigerate or freeze.", (None, 30), (3, 8), 6, "dnr"),
    ("HAL-BEC-100", "Beclometasone 100mcg inhaler x1", "Do not store above 25°C. Do not refrigerate.", (None, 25), (8, 18), 4, "dnr"),
    ("HAL-GTN-400", "Glyceryl trinitrate 400mcg spray x1", "Do not refrigerate or freeze. Store below 25 °C.", (None, 25), (4, 9), 3, "dnr"),
    ("HAL-LEV-OS", "Levetiracetam 100mg/ml oral solution 300ml", "Do not refrigerate. Store below 25C.", (None, 25), (18, 40), 2, "dnr"),
    ("HAL-FUS-CR", "Fusidic acid 2% cream 30g", "Do not store above 25°C. Do not refrigerate.", (None, 25), (3, 6), 3, "dnr"),
    ("HAL-FLU-SP", "Fluticasone 50mcg nasal spray x1", "DO NOT REFRIGERATE. Store below 30°C.", (None, 30), (4, 9), 3, "dnr"),
    ("HAL-AMX-OS", "Amoxicillin 250mg/5ml powder for oral suspension 100ml",
     "Dry powder: store below 25°C. After reconstitution store in a refrigerator (2°C-8°C) and use within 7 days.", (None, 25), (2, 5), 7, "odd"),
    ("HAL-EST-PT", "Estradiol 50mcg patches x8", "Do not store in a refrigerator or freezer. Store below 25°C.", (None, 25), (6, 12), 6, "odd"),
    ("HAL-BUD-TH", "Budesonide 200mcg Turbohaler x1", "Not to be refrigerated. Store below 30°C.", (None, 30), (14, 24), 6, "odd"),
]
BY_CODE = {p[0]: p for p in PRODUCTS}
FLEET = [f"CV{n:02d}" for n in range(1, 25)]          # 24 dual-temp vans; CV17-CV24 carry Kelvo K2 loggers
K2_VANS = set(FLEET[16:])
VACCINES = {"HAL-QIV-05", "HAL-RZV-01"}              # where the SOP has a vaccine allowance (`vaccine_min`)


def true_range(code: str) -> tuple:
    return BY_CODE[code][3]


def is_fridge(code: str) -> bool:
    return BY_CODE[code][6] == "fridge"


def celsius(load: dict, params: dict) -> list[float]:
    """The load's readings in °C (the K2 export is in tenths of a degree where the variant says so)."""
    if load["logger"] == "K2" and params["k2_tenths"]:
        return [t / 10 for t in load["temps"]]
    return list(load["temps"])


def minutes_above(temps: list[float], limit: float, interval_min: int) -> int:
    return sum(interval_min for t in temps if t > limit)


def allowance(code: str, params: dict) -> int:
    """The SOP's cumulative minutes for this product: `window_min`, or `vaccine_min` for a vaccine
    where the SOP sets one (0 = none)."""
    return (params.get("vaccine_min") or params["window_min"]) if code in VACCINES else params["window_min"]


def excursion(load: dict, params: dict) -> bool:
    """The client SOP: more than the product's allowance (`window_min`; `vaccine_min` for a vaccine
    where the SOP has one) in cumulative minutes above its upper limit (and, where the SOP has one,
    any reading above `peak_c` for a 2-8 line) is an excursion."""
    lo, hi = true_range(load["product_code"])
    temps = celsius(load, params)
    if minutes_above(temps, hi, load["interval_min"]) > allowance(load["product_code"], params):
        return True
    return bool(params["peak_c"]) and lo is not None and max(temps) > params["peak_c"]


def cost(load: dict, exc: bool, action: str) -> float:
    value = load["value_gbp"]
    if action == "quarantine":
        return value + QP_REVIEW + REDELIVERY if exc else QP_REVIEW + REDELIVERY + HELD_LOSS * value
    return value + RECALL + REDELIVERY if exc else 0.0


# ---------------------------------------------------------------- traces

def _chill_trace(rng: random.Random, stops: list[int], end: int, iv: int, trip: tuple | None,
                 struggle_from: int | None) -> list[float]:
    """The chilled compartment, one reading every `iv` minutes from loading to `end`: 3.5-5.6 °C and a
    door-open spike at every stop that is back under 8 °C within minutes. From `struggle_from` on (a
    unit losing the fight on a hot afternoon) each opening runs 8.5-11 °C for 5-12 minutes. `trip` =
    (start, minutes, peak): a compressor trip, a rise to 9-15.5 °C held until it is reset."""
    base = rng.uniform(3.6, 5.6)
    spikes = {}
    for s in stops:
        if struggle_from is not None and s >= struggle_from:
            spikes[s] = (rng.uniform(8.5, 11.0), rng.randint(5, 12))
        else:
            spikes[s] = (min(11.0, 5.4 + rng.expovariate(1 / 1.1)), rng.choice([1, 2, 2, 3, 4]))
    out = []
    for m in range(0, end, iv):
        t = base + rng.gauss(0, 0.25)
        for s, (peak, dur) in spikes.items():
            if s <= m < s + dur:
                t = max(t, peak - (m - s) * 0.1)
            elif s + dur <= m < s + dur + 8:
                t = max(t, base + (7.6 - base) * (1 - (m - s - dur) / 8))
        if trip and trip[0] <= m < trip[0] + trip[1] + 12:
            k = m - trip[0]
            rise = min(1.0, k / 6) if k < trip[1] else max(0.0, 1 - (k - trip[1]) / 12)
            t = max(t, base + (trip[2] - base) * rise)
        out.append(round(t, 1))
    return out


def _ambient_trace(rng: random.Random, stops: list[int], end: int, iv: int, fail: tuple | None) -> list[float]:
    base = rng.uniform(18.0, 22.5)
    spikes = {s: (base + rng.uniform(1.0, 4.8), rng.choice([2, 4, 6])) for s in stops}
    out = []
    for m in range(0, end, iv):
        t = base + rng.gauss(0, 0.3) + 1.2 * (m / max(end, 1))
        for s, (peak, dur) in spikes.items():
            if s <= m < s + dur:
                t = max(t, peak)
        if fail and fail[0] <= m < fail[0] + fail[1]:
            t = max(t, fail[2] + rng.gauss(0, 0.3))
        out.append(round(t, 1))
    return out


def van_day(rng: random.Random, van: str, day_tag: str, params: dict, first_id: int) -> list[dict]:
    """One van's run: 8-15 drops, each 1-3 product lines; every line a load with its trace."""
    k2 = van in K2_VANS
    iv = 1 if k2 else 2
    n_drops = rng.randint(8, 15)
    t, stops = 35, []
    for _ in range(n_drops):
        t += rng.randint(14, 38)
        stops.append(t)
    end = stops[-1] + 2
    trip = None
    if rng.random() < params["trip_rate"]:
        trip = (rng.randint(30, max(31, end - 60)), rng.choice([6, 10, 14, 18, 24, 28, 34, 45, 60, 90]),
                rng.uniform(9.0, 15.5))
    fail = None
    if rng.random() < 0.05:
        fail = (rng.randint(60, max(61, end - 60)), rng.choice([20, 40, 70, 110]), rng.uniform(25.6, 28.4))
    struggle = stops[rng.randint(1, len(stops) - 2)] if rng.random() < params["struggle_rate"] else None
    chill = _chill_trace(rng, stops[:-1], end, iv, trip, struggle)
    amb = _ambient_trace(rng, stops[:-1], end, iv, fail)
    codes = [p[0] for p in PRODUCTS]
    weights = [p[5] for p in PRODUCTS]
    loads = []
    for seq, stop in enumerate(stops, 1):
        for _ in range(rng.choice([1, 1, 2, 2, 3])):
            code = rng.choices(codes, weights)[0]
            cut = stop // iv + 1
            temps = (chill if is_fridge(code) else amb)[:cut]
            if k2 and params["k2_tenths"]:
                temps = [int(round(x * 10)) for x in temps]
            lo_v, hi_v = BY_CODE[code][4]
            loads.append({"load_id": f"L{day_tag}-{van}-{first_id + len(loads):03d}", "van": van, "drop_seq": seq,
                          "product_code": code, "qty": rng.randint(1, 6), "logger": "K2" if k2 else "T3",
                          "interval_min": iv, "temps": temps,
                          "value_gbp": round(rng.uniform(lo_v, hi_v) * rng.randint(1, 4), 2)})
    return loads


def day(rng: random.Random, day_tag: str, params: dict) -> list[dict]:
    vans = rng.sample(FLEET, params["vans_per_day"])
    out = []
    for v in sorted(vans):
        out += van_day(rng, v, day_tag, params, 1)
    return out
