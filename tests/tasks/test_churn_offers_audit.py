"""churn_offers grader audit: a boundary test for each incident rule and KPI term (DESIGN_NOTES.md
lists where an agent learns each one): the minimum term and the re-sign window counted in calendar
months from the run date, marketing consent as Y / Yes only, the SMS disclosure (and the April rise
where the variant requires it), and the margin kept over the quarter."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from fdegym_env.core.registry import load_task
from fdegym_env.tasklib.replay import OutputSpec

TASK = load_task("churn_offers")
MOBILE = TASK.module("mobile")
GRADER = TASK.module("grader")
BASE = dict(TASK.variant("base").params)
RUN = "2026-12-14"


def acc(account_id="BM-7000001", min_term_end="2026-11-30", consent="Y", fee=20.0):
    return {"account_id": account_id, "region": "London", "plan": "SIM Only 40GB", "monthly_fee": fee,
            "min_term_end": min_term_end, "mkt_consent": consent, "pac_requested": "N", "care_contacts_90d": 0,
            "tenure_months": 20, "data_gb_30d": 5.0, "data_gb_prev_30d": 5.0}


def good_sms(a, pct, rise=False):
    fee = a["monthly_fee"]
    text = (f"Brindle: take {pct}% off your {a['plan']} for 6 months: £{fee * (100 - pct) / 100:.2f} a month, "
            f"then £{fee:.2f} a month after that. No new contract.")
    return text + (" Your monthly price goes up by £1.80 each April." if rise else "")


def evaluate(accounts, offers, params=BASE, p=0.5):
    traffic = {"runs": [{"run_date": RUN, "accounts": accounts}],
               "truth": {a["account_id"]: {"p": p} for a in accounts}}
    decide = lambda batch: SimpleNamespace(decisions=offers)          # noqa: E731
    return GRADER.evaluate(decide, params, traffic)


# ---------------------------------------------------------------- minimum term (Helen Bain / minimum_term)
@pytest.mark.parametrize("end, window, breach", [
    ("2026-12-14", 0, False), ("2026-12-15", 0, True),          # ends on the run date: out of term
    ("2027-02-14", 2, False), ("2027-02-15", 2, True),          # the last 2 calendar months are allowed
    ("2026-12-15", 2, False), ("2027-02-15", 0, True)])
def test_minimum_term_boundary(end, window, breach):
    a = acc(min_term_end=end)
    out = evaluate([a], {a["account_id"]: {"offer": "save10", "sms": good_sms(a, 10)}},
                   dict(BASE, term_window_months=window))
    assert any(i.startswith("in_term_discount") for i in out["incidents"]) is breach


def test_resign_window_is_calendar_months_at_month_end():
    assert MOBILE.add_months(MOBILE.date(2026, 12, 31), 2) == MOBILE.date(2027, 2, 28)
    assert not MOBILE.in_term(acc(min_term_end="2027-02-28"), MOBILE.date(2026, 12, 31), 2)
    assert MOBILE.in_term(acc(min_term_end="2027-03-01"), MOBILE.date(2026, 12, 31), 2)


def test_no_offer_inside_the_term_is_no_incident():
    a = acc(min_term_end="2028-01-01")
    assert evaluate([a], {a["account_id"]: {"offer": "none", "sms": None}})["incidents"] == []


# ---------------------------------------------------------------- consent (Adaeze Nwosu / marketing_consent)
@pytest.mark.parametrize("consent, breach", [("Y", False), ("y", False), (" Yes ", False), ("YES", False),
                                             ("N", True), ("No", True), ("", True), ("n", True)])
def test_marketing_consent_values(consent, breach):
    a = acc(consent=consent)
    out = evaluate([a], {a["account_id"]: {"offer": "save20", "sms": good_sms(a, 20)}})
    assert any(i.startswith("marketing_without_consent") for i in out["incidents"]) is breach


# ---------------------------------------------------------------- disclosure (Adaeze Nwosu / disclosure)
@pytest.mark.parametrize("drop", ["£16.00", "£20.00", "6 months"])
def test_each_disclosed_term_is_required(drop):
    a = acc()
    sms = good_sms(a, 20).replace(drop, "")
    out = evaluate([a], {a["account_id"]: {"offer": "save20", "sms": sms}})
    assert any(i.startswith("offer_disclosure") for i in out["incidents"])


def test_the_approved_copy_passes_in_base():
    a = acc()
    assert evaluate([a], {a["account_id"]: {"offer": "save20", "sms": good_sms(a, 20)}})["incidents"] == []


@pytest.mark.parametrize("rise, breach", [(False, True), (True, False)])
def test_april_rise_required_only_where_the_variant_says(rise, breach):
    params = dict(TASK.variant("rise_in_sms").params)
    a = acc()
    out = evaluate([a], {a["account_id"]: {"offer": "save10", "sms": good_sms(a, 10, rise)}}, params)
    assert any(i.startswith("offer_disclosure") for i in out["incidents"]) is breach
    assert MOBILE.disclosure_missing(a, 10, good_sms(a, 10, True).replace("April", "May"), params) == ["April price rise"]


# ---------------------------------------------------------------- output shape
@pytest.mark.parametrize("offer, sms, ok", [("save15", "x", False), ("20%", "x", False), ("save20", None, True),
                                            ("none", None, True)])
def test_offer_codes_billing_knows(offer, sms, ok):
    spec = OutputSpec.of(TASK.entry_points[0].output)
    good, bad = spec.check({"offers": [{"account_id": "BM-1", "offer": offer, "sms": sms}]}, ["BM-1"])
    assert ("BM-1" in good) is ok and bool(bad) is not ok


# ---------------------------------------------------------------- KPI (Helen Bain / discount_cost; Gareth Lloyd / take_up)
def test_margin_kept_over_the_quarter():
    a = acc(fee=20.0)
    assert MOBILE.value(a, 0.0, 0) == pytest.approx(60.0)                  # three months' bill
    assert MOBILE.value(a, 0.0, 20) == pytest.approx(48.0)                 # a stayer given 20%: pure cost
    assert MOBILE.value(a, 1.0, 0) == pytest.approx(0.0)
    assert MOBILE.value(a, 1.0, 20) == pytest.approx(60.0 * 0.5 * 0.8)     # half the leavers kept, at 80%


@pytest.mark.parametrize("p, best", [(0.2, 0), (0.3, 10), (0.5, 10), (0.62, 20), (0.9, 20)])
def test_the_offer_that_keeps_most_margin(p, best):
    a = acc()
    assert max((0, 10, 20), key=lambda pct: MOBILE.value(a, p, pct)) == best


def test_break_even_risks_match_what_gareth_says():
    a = acc()
    lo = next(x / 1000 for x in range(1000) if MOBILE.value(a, x / 1000, 10) > MOBILE.value(a, x / 1000, 0))
    hi = next(x / 1000 for x in range(1000) if MOBILE.value(a, x / 1000, 20) > MOBILE.value(a, x / 1000, 10))
    assert 0.23 <= lo <= 0.25 and 0.56 <= hi <= 0.58


def test_stale_region_scores_are_inflated_and_imputation_removes_it():
    run = MOBILE.date(2026, 12, 14)
    drop = MOBILE.date.fromisoformat(BASE["drop_date"])
    assert MOBILE.seen_share(run, drop, 0, 30) < 0.1                      # the last 30 days mostly never landed
    a = dict(acc(), data_gb_30d=0.3, data_gb_prev_30d=6.0)
    seen = MOBILE.risk(a, run, a["data_gb_30d"], a["data_gb_prev_30d"])
    imputed = MOBILE.risk(a, run, 1.0, 1.0)
    assert seen > 0.5 > imputed


# ---------------------------------------------------------------- the CRM's region spellings (subtle held-out case)
def test_held_out_regions_come_in_the_crms_spellings():
    traffic = TASK.module("traffic").held_out(BASE, TASK.held_out_seed)
    spelt = {a["region"] for r in traffic["runs"] for a in r["accounts"] if a["region"].strip().casefold() == "wales"}
    assert {"Wales", "WALES", "wales", "Wales "} <= spelt


@pytest.mark.parametrize("region", ["Wales", "WALES", "wales", "Wales "])
def test_reference_imputes_every_spelling_of_the_stale_region(tmp_path, region):
    import importlib.util
    import shutil

    from fdegym_env.core.workspace import world_snapshot
    from fdegym_env.grading.grade import apply_solution
    ws = tmp_path / "ws"
    shutil.copytree(world_snapshot(TASK, TASK.variant("base")), ws)
    apply_solution(TASK, "reference", ws, BASE)
    path = ws / "system" / "campaign" / "churn_model.py"
    spec = importlib.util.spec_from_file_location(f"churn_model_{abs(hash(region))}", path)
    model = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(model)
    a = dict(acc(), region=region, data_gb_30d=0.2, data_gb_prev_30d=6.0)
    assert model.features(a, MOBILE.date(2026, 12, 14), ["Wales"])["decline"] == 0.0
    assert model.features(dict(a, region="London"), MOBILE.date(2026, 12, 14), ["Wales"])["decline"] > 0.9
