"""billing_dispute: Dev scopes his Charter's small-dispute promise as the grader does (every ticket,
per ticket, no netting of earlier credits); Inés answers one named contract's fee; the trial's
price-lock line says what "allows" is made of and who to ask for the cause."""

from __future__ import annotations

import pytest

from fdegym_env.core.registry import load_task
from fdegym_env.people import People
from tests.tasks.people_of import people_of

TASK = load_task("billing_dispute")
T = TASK.module("traffic")


def people(variant: str) -> People:
    return people_of("billing_dispute", variant)


SCOPE = [
    "Dev - FIN-301: the dispute handler will follow the Charter's small-dispute promise (claim of $250 or less -> "
    "credit as claimed, automatically). One scoping question so it does exactly what the Charter means: does the "
    "promise cover every billing_dispute ticket with a claim <= $250, including ones that aren't really about an "
    "amount (add a PO / cost centre, remit-to address, tax-exempt cert, 'we cancelled', 'duplicate invoice'), and is "
    "it once per invoice (a repeat ticket on an invoice we already credited gets nothing more) or per ticket?",
    "If a customer opens a second small ticket on an invoice we've already credited once, does the Charter mean we "
    "credit that one as claimed too, or net the earlier credit note off it? And do PO-number tickets count?",
]


@pytest.mark.parametrize("variant", ["charter_de_minimis", "sample:3539"])
@pytest.mark.parametrize("message", SCOPE)
def test_dev_scopes_the_small_dispute_promise_as_the_grader_counts_it(variant, message):
    r = people(variant).contact("dev_malhotra", message)
    assert "charter_scope" in r.tags, (r.tags, r.reply)
    d = int(TASK.variant(variant).params["de_minimis_usd"])
    assert f"${d:,} or less" in r.reply and "'we cancelled'" in r.reply, r.reply
    assert "per ticket, not once per invoice" in r.reply and "not netted against the credit notes" in r.reply


@pytest.mark.parametrize("message", SCOPE)
def test_dev_says_there_is_no_small_dispute_promise_where_there_is_none(message):
    r = people("base").contact("dev_malhotra", message)
    assert "charter_scope" in r.tags, (r.tags, r.reply)
    assert "no small-dispute promise" in r.reply, r.reply


TESSEL = [
    "Ines - one contract question. Tessel Holdings, Q-2024-0965 (Team, annual, 2024-05-01 to 2026-04-30): what "
    "monthly Team fee is contractually due for February 2026, and where is that recorded? The register row we bill "
    "from says price_lock_usd 1,005.00, lock_until 2026-04-30, note 'renewal uplift capped', and the billing feed "
    "shows no amendment - but the AE says the contracted fee is 1,090.00. If 'renewal uplift capped' means the "
    "locked fee steps up by a capped % at each contract anniversary, what is the cap?",
    "For Tessel's Q-2024-0965, which monthly fee do we bill in March 2026 - the register's 1,005 or the 1,090 the "
    "AE quotes? Does the 'renewal uplift capped' note raise it at the anniversary?",
]


@pytest.mark.parametrize("variant", ["base", "order_form_locks", "sample:3539"])
@pytest.mark.parametrize("message", TESSEL)
def test_ines_gives_tessels_fee_and_reads_the_uplift_note(variant, message):
    r = people(variant).contact("ines_caldera", message)
    assert r.tags == ["tessel_fee"], (r.tags, r.reply)
    assert "$1,005.00 a month, fixed through 30 April 2026" in r.reply, r.reply
    assert "doesn't step up at the anniversary" in r.reply and "renewal from 1 May" in r.reply, r.reply


def test_ines_reads_any_named_contracts_row():
    r = people("base").contact("ines_caldera", "Q-2025-0702's register row says price_lock_usd 2,450.00, lock_plan "
                               "scale, note 'renewal uplift capped'. What monthly fee is due for March 2026, and does "
                               "the lock step up at the anniversary?")
    assert "contract_fee" in r.tags, (r.tags, r.reply)
    assert "Nothing steps up at the anniversary" in r.reply and "'renewal uplift capped' means" in r.reply, r.reply


class _WrongConvention:
    """run_cycle bills every account by the other BP-3 convention (daily where the month is mid-month)."""

    def __init__(self, params):
        self.task, self.params = TASK, params

    def call(self, module, function, arg, timeout_s=None):
        if function == "run_cycle":
            wrong = T.rate_cycle(arg, dict(self.params, proration="daily"), "truth")
            value = {"invoices": [{"account_id": aid, "invoice_no": f"INV-{arg['period']}-{i:05d}",
                                   "total_usd": r["total_usd"], "lines": []}
                                  for i, (aid, r) in enumerate(sorted(wrong.items()))]}
        else:
            value = {"decisions": [{"dispute_id": p["dispute_id"], "action": "review"} for p in arg["disputes"]]}
        return type("R", (), {"ok": True, "value": value, "error": None})()


def test_trial_lock_line_points_a_plan_change_breach_at_bp3_not_only_deal_desk():
    params = dict(TASK.variant("mid_month").params)
    traffic = T.shadow(params, 1)
    lines = TASK.module("trial").run(_WrongConvention(params), params, 1, traffic)["feedback"].splitlines()
    lock = next(x for x in lines if "price-protected" in x)
    assert "for the month (the contracted fee on the days Billing Policy BP-3 bills as the protected plan" in lock
    assert "Hana" in lock and "Deal Desk would know" not in lock, lock
