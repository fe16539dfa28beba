"""billing_dispute people: Beatriz's "tomorrow" pays off by inbox, and her queue answers which disputes
an automated handler may close itself and which must always reach AR-REVIEW (as the grader scores it)."""

from __future__ import annotations

import pytest

from fdegym_env.core.registry import load_task
from fdegym_env.people.engine import People
from fdegym_env.people.routers import make_router

TASK = load_task("billing_dispute")


def people(variant: str) -> People:
    spec = TASK.people_spec(TASK.variant(variant))
    return People(spec, make_router("semantic", spec["people"]))


@pytest.mark.parametrize("variant", ["base", "charter_de_minimis", "sample:6683"])
def test_beatrizs_promised_numbers_arrive_the_next_day(variant):
    p = people(variant)
    r = p.contact("beatriz_soto", "Roughly what share of the disputes in your queue turn out to be valid?")
    assert r.tags == ["invalid_disputes:stalled"], r.tags
    assert "m_beatriz_valid" not in {m["id"] for m in p.read_inbox()}
    p.wait(20)
    got = {m["id"]: m for m in p.read_inbox()}
    assert "m_beatriz_valid" in got and "half" in got["m_beatriz_valid"]["text"], sorted(got)
    assert "F_invalid_disputes" in p.known


ROUTING = [
    "When my recalculation shows the invoice was already correct, can the handler reject the dispute with the "
    "breakdown, or do you want those kept in AR-REVIEW? Which kinds must always come to you?",
    "Which disputes should the automated handler still send to your queue?",
    "Can the bot close a dispute itself when the re-rated invoice matches what we billed?",
]


@pytest.mark.parametrize("variant", ["base", "tight_limit", "charter_de_minimis", "sample:6683"])
@pytest.mark.parametrize("message", ROUTING)
def test_beatriz_says_what_her_queue_must_still_see(variant, message):
    r = people(variant).contact("beatriz_soto", message)
    assert "queue_routing" in r.tags, (r.tags, r.reply)
    assert "reject" in r.reply and "Controller's limit" in r.reply and "can't recalculate" in r.reply
    assert "Charter" in r.reply
    # the limit itself is Marcus's to give: Beatriz does not hand out the fact
    assert TASK.variant(variant).params["approval_limit_text"] not in r.reply



# Tomasz owns ledgerline: which date bills a plan change (the account-local date of `effective`, as
# traffic._when and the grader's truth rate it) is his to answer, overage included.
BILLING_DATE = [
    "Which date bills a plan change - the effective date, or the day the customer asked for it?",
    "Is a plan change billed from its account-local date or from the UTC date?",
    "For a change in this month's file dated next month on the customer's clock, which plan does overage use this period?",
]


@pytest.mark.parametrize("variant", ["base", "mid_month", "sample:6407"])
@pytest.mark.parametrize("message", BILLING_DATE)
def test_tomasz_says_which_date_bills_a_plan_change(variant, message):
    r = people(variant).contact("tomasz_wren", message)
    assert "extract_cutoff" in r.tags, (r.tags, r.reply)
    assert "account's local clock" in r.reply and "not the UTC date" in r.reply
    assert "not for overage" in r.reply and "from day 1" in r.reply


# Hana's trial line reports a shadow-ledger shortfall: she explains what it is made of, in every variant,
# and speaks of Charter credits only where the Charter pays small claims as claimed.
SHORTFALL = [
    "Your shadow-run note says the ledger is short of what the contracts support. What goes into that figure?",
    "What did you mean by invoices credited past what was wrong with them in the shadow ledger?",
]


@pytest.mark.parametrize("variant", ["base", "charter_de_minimis", "sample:6407", "sample:3"])
@pytest.mark.parametrize("message", SHORTFALL)
def test_hana_explains_the_shadow_ledger_shortfall(variant, message):
    r = people(variant).contact("hana_kobayashi", message)
    assert r.tags == ["ledger_shortfall"], (r.tags, r.reply)
    assert "billed low" in r.reply and "recalculated overcharge" in r.reply and "back-bill" in r.reply
    charter = bool(TASK.variant(variant).params.get("de_minimis_usd"))
    assert ("Charter" in r.reply) is charter, r.reply


# Dev owns the Customer Charter page: what it promises on small disputes (the variant's figure), that a
# reject or a queue breaks it and what a broken promise costs, is his to answer on the first ask; where it
# promises none, he says so.
CHARTER = [
    "Your directory entry says you own the Customer Charter page. What does it commit us to on billing disputes?",
    "What's the threshold in the Charter for small claims?",
    "If the bot rejects a $150 dispute because the invoice is right, does that break the Charter?",
    "Can the handler send small disputes to the AR review queue, or does the Charter require crediting them?",
]


# What the Charter promises beyond the export, goodwill credits, late disputes, reply times and what
# breaks it are his too; he says what it does and does not promise in variants with no small-claim rule.
BEYOND = [
    "Does the live Charter promise anything beyond the exported copy (docs/customer_charter.md), such as goodwill "
    "credits for small or late disputes?",
    "Beatriz said to check with you what the Customer Charter promises before the bot rejects small disputes. "
    "What does it promise?",
    "Is docs/customer_charter.md the current version of the Charter page, or has the live page changed since?",
    "Does the Charter promise goodwill credits to customers?",
    "What does the Charter say about late disputes - ones raised long after the invoice?",
    "What reply and resolution times does the Charter commit us to?",
    "What would break the Charter if the dispute handler does it?",
]


@pytest.mark.parametrize("variant", ["base", "charter_de_minimis", "sample:1436", "sample:5127", "sample:3318"])
@pytest.mark.parametrize("message", CHARTER + BEYOND)
def test_dev_answers_what_the_charter_promises(variant, message):
    r = people(variant).contact("dev_malhotra", message)
    assert r.tags == ["charter"], (r.tags, r.reply)
    params = TASK.variant(variant).params
    d = int(params.get("de_minimis_usd") or 0)
    if d:
        assert f"${d:,} or less is credited as claimed" in r.reply and "rejects or parks" in r.reply, r.reply
        assert f"costs us about ${int(params['charter_breach_usd']):,}" in r.reply, r.reply   # the KPI's charter cost
    else:
        assert "Nothing in it about crediting small amounts" in r.reply, r.reply
        assert "a bare 'rejected', or a ticket left sitting past the ten days, breaks it" in r.reply, r.reply
    assert "first reply within two business days" in r.reply and "resolution within ten" in r.reply, r.reply
    assert "docs/customer_charter.md is the live page" in r.reply and "no goodwill credits" in r.reply, r.reply
    assert "disputes raised late" in r.reply, r.reply


# Marcus owns FP-07 and the delegated limit: a clear question about it is answered on the first ask,
# never sent to Hana (who cannot send it back to him).
DELEGATION = [
    "What's the per-invoice cap for automated credit notes under your delegation?",
    "Which approval tier applies to an automated credit of $1,800?",
    "How should credits be split between the auto path and your approval queue?",
    "If a dispute has already been part-credited by AR, does the limit apply to the total credited on the invoice?",
    "Renata wants auto-approval of credit notes under $500. Is that within policy - what approval is required?",
    "Hi Marcus, what are the delegation and approval limits for automatic credit notes? I need them for the "
    "dispute handler.",
]


@pytest.mark.parametrize("variant", ["base", "tight_limit", "sample:1436"])
@pytest.mark.parametrize("message", DELEGATION)
def test_marcus_answers_delegation_questions_on_the_first_ask(variant, message):
    r = people(variant).contact("marcus_feld", message)
    assert r.tags == ["approval_limit"], (r.tags, r.reply)
    assert f"up to {TASK.variant(variant).params['approval_limit_text']} per credit note" in r.reply
    assert "per credit note the system posts" in r.reply


# Inés's price-lock answer is the rule; asked about named contracts whose register row disagrees with
# their paper, she gives those contracts' fees (tests/tasks/test_billing_dispute_contract_rows.py).
LOCKS = [
    "Tessel Holdings says INV-202512-00139 bills their Team plan at $1,320 but order form Q-2024-0965 fixes it at "
    "$1,005 until April 2026. Is that contract price-protected, and which record should the engine trust?",
]


@pytest.mark.parametrize("variant", ["base", "order_form_locks", "sample:3318"])
@pytest.mark.parametrize("message", LOCKS)
def test_ines_states_the_lock_rule_and_which_record_decides(variant, message):
    r = people(variant).contact("ines_caldera", message)
    assert r.tags == ["price_locks"], (r.tags, r.reply)
    source = TASK.variant(variant).params["lock_source_text"]
    assert f"Where the register and the order form disagree on the fee, go by {source}" in r.reply, r.reply
    assert "keeps its contracted monthly fee on the protected plan until the protection end date" in r.reply


# A protected account that changes plan: what Inés says (BP-3 decides each day's plan; the protected
# plan's days at the contracted fee, the rest at list) is exactly the invoice the grader holds the
# delivery to for lock_breach (its truth total), upgrade and downgrade, in both BP-3 conventions.
def _allowed_by_ines(params, lock, plan_at_start, to_plan, day, period="2026-02"):
    D, lst = 28, TASK.module("traffic").LIST_NEW
    if params["proration"] == "daily":
        plans = [plan_at_start] * (day - 1) + [to_plan] * (D - day + 1)
    else:
        plans = [to_plan if day <= 15 else plan_at_start] * D
    return round(sum((lock["fee"] if p == lock["plan"] else lst[p]) / D for p in plans), 2)


def _allowed_by_grader(params, lock, plan_at_start, to_plan, day, period="2026-02"):
    T = TASK.module("traffic")
    cin = {"period": period,
           "accounts": [{"account_id": "ACC-1", "plan_at_start": plan_at_start, "billing_term": "annual"}],
           "plan_changes": [{"change_id": "PC-1", "account_id": "ACC-1", "effective": f"{period}-{day:02d}T10:00:00Z",
                             "from_plan": plan_at_start, "to_plan": to_plan}],
           "usage": [{"account_id": "ACC-1", "credits_used": 0}],
           "contracts": [{"account_id": "ACC-1", "register": {"price_lock_usd": f"{lock['fee']:.2f}",
                                                              "lock_plan": lock["plan"], "lock_until": "2026-12-31"},
                          "order_form_excerpt": "", "amendments": []}]}
    return T.rate_cycle(cin, dict(params, lock_source="register"), "truth")["ACC-1"]["total_usd"]


CASES = {"base": [("starter", 345.0, "team", 15, "$832.50"), ("enterprise", 9800.0, "scale", 15, "$7,640.00")],
         "mid_month": [("starter", 345.0, "team", 20, "$345"), ("enterprise", 9800.0, "scale", 8, "$5,480.00"),
                       ("enterprise", 9800.0, "scale", 20, "$9,800.00")]}
LOCK_CHANGES = [
    "A protected Starter account upgrades to Team mid-month. What does the contract allow us to bill for that month?",
    "If a price-locked customer moves down to a cheaper plan halfway through the month, what do we bill them?",
]


@pytest.mark.parametrize("variant", ["base", "mid_month"])
@pytest.mark.parametrize("message", LOCK_CHANGES)
def test_ines_rule_for_a_protected_account_changing_plan_is_what_the_grader_allows(variant, message):
    params = TASK.variant(variant).params
    r = people(variant).contact("ines_caldera", message)
    assert r.tags == ["lock_plan_changes"], (r.tags, r.reply)
    assert "downgrade" in r.reply and "not a ceiling" in r.reply, r.reply
    for plan, fee, to, day, said in CASES[variant]:
        lock = {"plan": plan, "fee": fee}
        allowed = _allowed_by_ines(params, lock, plan, to, day)
        assert allowed == _allowed_by_grader(params, lock, plan, to, day), (plan, to, day)
        assert f"${allowed:,.2f}".replace(".00", "") in said.replace(".00", "") and said in r.reply, (said, r.reply)


# Hana owns BP-3, protected accounts included; Beatriz's queue answers which tickets the bot may close.
@pytest.mark.parametrize("pid, topic, message", [
    ("hana_kobayashi", "proration_policy",
     "What does the Billing Policy say about how a mid-month plan change is billed, including for a protected account?"),
    ("hana_kobayashi", "proration_policy",
     "Under BP-3, how is a price-locked customer billed when they switch plan in the middle of the month?"),
    ("beatriz_soto", "queue_routing",
     "Is it OK to auto-reply only on verified-correct usage_overage / price_rise tickets and keep the rest in AR-REVIEW?"),
    ("beatriz_soto", "queue_routing",
     "Can the bot answer just the overage and price-rise disputes it has confirmed are right, and leave the others "
     "for your team?"),
])
def test_hana_and_beatriz_answer_in_their_own_area(pid, topic, message):
    r = people("base").contact(pid, message)
    assert r.tags == [topic], (r.tags, r.reply)
    if pid == "hana_kobayashi":
        assert "protected" in r.reply and "contracted fee" in r.reply, r.reply
