"""billing_dispute: Inés, asked which record wins for named contracts whose Deal Desk register row
disagrees with their paper, gives each contract's fee in force and why (the variant's
``register_disagreements_text``, built from the workspace's contracts), and that fee is the one the
grader bills; the trial day reports its figures in billing_correctness's own terms."""

from __future__ import annotations

import pytest

from fdegym_env.core.registry import load_task
from tests.tasks.people_of import people_of

TASK = load_task("billing_dispute")
T = TASK.module("traffic")

# the playtest's question (sample:6394, an order-form variant: these two rows carry a register fee
# the order form does not), and paraphrases short and long
ASKED = [
    "Inés, two contracts where the Deal Desk register and the signed order form disagree: Q-2024-0338 (Summit "
    "Analytics Co) has price_lock_usd 2,590.00 in the register, but its order form says Provider will not increase "
    "the monthly Growth fee above USD 2,350.00 before 31 January 2027; Q-2025-0198 (Pine Foods) shows 2,570.00 in "
    "the register against a price hold of US$ 2,450.00/month through 2026-09-30. Is there an amendment behind the "
    "register figures, or does the order form win - and which fee should we bill for these two?",
    "Register vs order form for Q-2024-0338 and Q-2025-0198: which one wins, and what fee do we bill?",
    "Q-2024-0338 and Q-2025-0198 - the register and the order forms give different locked fees. Which record wins?",
    "For Q-2024-0338 the register says 2,590.00 but the order form caps the fee at 2,350.00. Which one is right?",
    "I'm rebuilding the price-lock lookup for the invoice run. I cross-checked every annual contract's register row "
    "against the order_form_excerpt in the contract feed; most agree or the register is blank, but Q-2024-0338 and "
    "Q-2025-0198 don't - the register's price_lock_usd is higher than the fee in the order form. Before I hard-code "
    "anything: for those two, which figure is the contracted monthly fee we should bill?",
    "Which fee is in force for Q-2025-0198 - the 2,570 in the register or the 2,450 in the order form?",
]


@pytest.mark.parametrize("variant", ["sample:6394", "order_form_locks", "sample:4"])
@pytest.mark.parametrize("message", ASKED)
def test_ines_gives_the_fee_of_the_contracts_named(variant, message):
    r = people_of("billing_dispute", variant).contact("ines_caldera", message)
    assert "disagreeing_rows" in r.tags, (r.tags, r.reply)
    assert ("Q-2024-0338 (Summit Analytics Co): the register says $2,590.00, the order form fixes Growth at "
            "$2,350.00 a month to 31 January 2027, so bill $2,350.00") in r.reply, r.reply
    assert ("Q-2025-0198 (Pine Foods): the register says $2,570.00, the order form fixes Growth at $2,450.00 a "
            "month to 30 September 2026, so bill $2,450.00") in r.reply, r.reply


@pytest.mark.parametrize("message", ASKED[1:3])
def test_where_the_register_decides_she_says_the_row_is_the_fee(message):
    r = people_of("billing_dispute", "base").contact("ines_caldera", message)
    assert "disagreeing_rows" in r.tags, (r.tags, r.reply)
    assert r.reply.startswith("The register row is the fee"), r.reply
    assert "Q-2025-0552 (Iron Health)" in r.reply and "$360.00 a month" in r.reply, r.reply


@pytest.mark.parametrize("variant", ["base", "order_form_locks"])
def test_named_variants_carry_the_generated_text(variant):
    params = TASK.variant(variant).params
    assert params["register_disagreements_text"] == T.register_disagreements_text(params)


def _stated(row: dict, when: str) -> dict | None:
    """The lock Inés states for one of her rows in force on the first of the month `when`."""
    am = (row["amendments"] or [None])[0]
    if am and f"{when}-01" >= am["effective"]:
        return None if am["kind"] == "end" else {"fee": am["fee"], "plan": am["plan"], "until": am["until"]}
    return row["lock"]


@pytest.mark.parametrize("variant", ["base", "order_form_locks", "mid_month", "sample:6394", "sample:3318",
                                     "sample:4", "sample:5", "sample:19"])
def test_her_fee_is_the_one_the_grader_bills(variant):
    params = dict(TASK.variant(variant).params)
    text = params["register_disagreements_text"]
    rows = T.register_disagreements(params)
    assert rows and text == T.register_disagreements_text(params)
    dev_amended = {r["contract_id"] for r in rows if r["amendments"]}
    held = T.held_out(params, TASK.held_out_seed)
    checked = 0
    for cyc in [held["legacy_cycle"]] + [c["input"] for c in held["cycles"]]:
        per = cyc["period"]
        contracts = {c["contract_id"]: c for c in cyc["contracts"]}
        for row in rows:
            c = contracts.get(row["contract_id"])
            if c is None:
                continue
            later = [a for a in c.get("amendments") or [] if a["signed"] > "2025-12-31"]
            if later and row["contract_id"] not in dev_amended:
                continue            # countersigned after she spoke: the feed carries it (her answer says so)
            want = _stated(row, per)
            got = T.true_lock(c, params, per)
            if want and want["until"] < f"{per}-01":
                want = None
            if got and got["until"] < f"{per}-01":
                got = None
            assert (want and want["fee"], want and want["plan"]) == (got and got["fee"], got and got["plan"]), \
                (variant, per, row["contract_id"], want, got)
            checked += 1
            if want:
                assert f"${T.money(want['fee'])}" in text, (row["contract_id"], text)
    assert checked >= 8, checked


# --- the trial's ledger line: a nearly-right delivery hears its figures; the reference hears a quiet cycle

class _Bumped:
    """The reference's invoices, one account billed `bump` dollars over and one under; disputes reviewed."""

    def __init__(self, params, bump):
        self.task, self.params, self.bump = TASK, params, bump

    def call(self, module, function, arg, timeout_s=None):
        if function == "run_cycle":
            truth = T.rate_cycle(arg, self.params, "truth")
            ids = sorted(truth)
            value = {"invoices": [{"account_id": aid, "invoice_no": f"INV-{arg['period'].replace('-', '')}-{i:05d}",
                                   "total_usd": round(r["total_usd"] + (self.bump if i == 0 else -self.bump if i == 1
                                                                        else 0.0), 2), "lines": r["lines"]}
                                  for i, (aid, r) in enumerate(zip(ids, (truth[a] for a in ids)))]}
        else:
            value = {"decisions": [{"dispute_id": p["dispute_id"], "action": "reject"} for p in arg["disputes"]]}
        return type("R", (), {"ok": True, "value": value, "error": None})()


def test_the_trial_reports_the_days_figures_in_the_metrics_terms():
    params = dict(TASK.variant("sample:6394").params)
    traffic = T.shadow(params, 1)
    out = TASK.module("trial").run(_Bumped(params, 400.0), params, 1, traffic)
    lines = out["feedback"].splitlines()
    led = next(x for x in lines if x.startswith("Finance Ops (shadow ledger, billing correctness)"))
    assert "still over-billed by $" in led and "under-billed by $" in led and "(e.g. INV-202602-" in led, led
    assert "dispute(s) went to AR review" in led and "credit note" in led, led
    assert not any("quiet shadow cycle" in x for x in lines), lines
