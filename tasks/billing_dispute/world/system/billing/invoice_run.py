"""Monthly invoice run. Production: cron `0 3 1 * *` on billing-worker-01 calls run_cycle with
the cycle extract (accounts, plan changes, usage, contracts) built by the warehouse job.

    python3 -m billing.invoice_run ../data/cycles/2025-12.json      # local dry run
"""
import json
import sys

from . import rating
from .money import cents


def invoice_number(period: str, seq: int) -> str:
    return f"INV-{period.replace('-', '')}-{seq:05d}"


def run_cycle(cycle: dict) -> dict:
    """Entry point. cycle = {"period", "run_id", "accounts", "plan_changes", "usage", "contracts"}.
    Returns {"run_id", "period", "invoices": [{"invoice_no", "account_id", "period", "lines", "total_usd"}]}."""
    period = cycle["period"]
    changes, usage, contracts = {}, {}, {}
    for ch in cycle.get("plan_changes", []):
        changes.setdefault(ch["account_id"], []).append(ch)
    for u in cycle.get("usage", []):
        usage[u["account_id"]] = u.get("credits_used", 0)
    for c in cycle.get("contracts", []):
        contracts[c["account_id"]] = c
    invoices = []
    for seq, acc in enumerate(cycle.get("accounts", []), start=1):
        aid = acc["account_id"]
        lines = rating.rate_account(acc, changes.get(aid, []), usage.get(aid, 0), contracts.get(aid), period)
        invoices.append({"invoice_no": invoice_number(period, seq), "account_id": aid, "period": period,
                         "lines": lines, "total_usd": cents(sum(l["amount_usd"] for l in lines))})
    return {"run_id": cycle.get("run_id"), "period": period, "invoices": invoices}


if __name__ == "__main__":
    with open(sys.argv[1]) as f:
        out = run_cycle(json.load(f))
    total = sum(i["total_usd"] for i in out["invoices"])
    print(f"{out['period']}: {len(out['invoices'])} invoices, billed {total:,.2f}")
