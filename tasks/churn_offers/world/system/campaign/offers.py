"""Weekly save campaign: pick which scored accounts get a retention discount, and the SMS that offers it.

Called by the `save-campaign` job every Monday 07:00 with the week's scored base:
    select_offers({"run_date": "YYYY-MM-DD", "accounts": [...]}) -> {"offers": [{account_id, offer, sms}]}
offer is one of none / save10 / save20 (the discount codes the billing system knows); sms is the
text the SMS gateway sends (null when there is no offer).
"""
import json
from datetime import date, timedelta
from pathlib import Path

from campaign import churn_model

CONFIG = json.loads((Path(__file__).parent / "config.json").read_text())


def consented(acc):
    return str(acc.get("mkt_consent") or "").strip().upper() in ("Y", "YES")


def out_of_term(acc, run_date):
    return date.fromisoformat(acc["min_term_end"]) <= run_date


def sms(acc, pct, run_date):
    fee = float(acc["monthly_fee"])
    return CONFIG["sms_template"].format(
        pct=pct, plan=acc["plan"], months=CONFIG["discount_months"],
        new_price=f"£{fee * (100 - pct) / 100:.2f}", full_price=f"£{fee:.2f}",
        reply_by=(run_date + timedelta(days=CONFIG["reply_days"])).strftime("%d %b"))


def select_offers(batch):
    run_date = date.fromisoformat(batch["run_date"])
    pct = int(CONFIG["discount_pct"])
    out = []
    for acc in batch["accounts"]:
        offer = None
        if consented(acc) and out_of_term(acc, run_date) and churn_model.score(acc, run_date) >= CONFIG["flag_at"]:
            offer = pct
        out.append({"account_id": acc["account_id"], "offer": f"save{offer}" if offer else "none",
                    "sms": sms(acc, offer, run_date) if offer else None})
    return {"offers": out}
