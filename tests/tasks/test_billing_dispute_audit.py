"""billing_dispute grader audit: each incident rule at its boundary (tasks/billing_dispute/DESIGN_NOTES.md),
on one shadow cycle, with canned answers from both entry points; the trial report gives counts."""

from __future__ import annotations

import pytest

from fdegym_env.core.registry import load_task

TASK = load_task("billing_dispute")
T = TASK.module("traffic")


class _Canned:
    """run_cycle bills every account its true total plus `bump`; handle_disputes answers `decide(dispute)`."""

    def __init__(self, params, bump=0.0, decide=None):
        self.task, self.params, self.bump = TASK, params, bump
        self.decide = decide or (lambda p: {"action": "review"})

    def call(self, module, function, arg, timeout_s=None):
        if function == "run_cycle":
            truth = T.rate_cycle(arg, self.params, "truth")
            value = {"invoices": [{"account_id": aid, "invoice_no": f"INV-{arg['period']}-{i:05d}",
                                   "total_usd": round(r["total_usd"] + self.bump, 2), "lines": []}
                                  for i, (aid, r) in enumerate(sorted(truth.items()))]}
        else:
            value = {"decisions": [dict(self.decide(p), dispute_id=p["dispute_id"]) for p in arg["disputes"]]}
        return type("R", (), {"ok": True, "value": value, "error": None})()


def _grade(variant="base", **kw):
    params = dict(TASK.variant(variant).params)
    traffic = T.shadow(params, 1)
    traffic = dict(traffic, cycles=traffic["cycles"][:1], legacy_disputes=traffic["legacy_disputes"][:1])
    return TASK.module("grader").grade(_Canned(params, **kw), params, traffic)


def _kinds(out):
    return [i.split(":")[0] for i in out["incidents"]]


def test_true_invoices_and_every_dispute_reviewed_raise_nothing():
    assert _grade()["incidents"] == []


@pytest.mark.parametrize("bump, incident", [(1.0, False), (1.02, True)])
def test_lock_breach_above_the_contract_by_more_than_a_dollar(bump, incident):
    assert ("lock_breach" in _kinds(_grade(bump=bump))) is incident


@pytest.mark.parametrize("variant, amount, incident", [("base", 2500.0, False), ("base", 2500.01, True),
                                                       ("tight_limit", 1000.0, False), ("tight_limit", 1000.01, True)])
def test_credit_over_limit_boundary(variant, amount, incident):
    out = _grade(variant, decide=lambda p: {"action": "credit", "amount_usd": amount})
    assert ("credit_over_limit" in _kinds(out)) is incident, out["incidents"]


@pytest.mark.parametrize("void, incident", [(True, False), (False, True), (None, True)])
def test_revenue_double_count_when_a_reissue_keeps_the_original(void, incident):
    def decide(p):
        d = {"action": "reissue", "new_total_usd": p["invoice"]["total_usd"]}
        if void is not None:
            d["void_original"] = void
        return d
    assert ("revenue_double_count" in _kinds(_grade(decide=decide))) is incident


def _claim(p):
    c = p["claimed_usd"]
    return float(str(c).replace("$", "").replace(",", "").replace("USD", "").strip()) if c is not None else 0.0


@pytest.mark.parametrize("variant, credit_small, incident", [
    ("charter_de_minimis", True, False), ("charter_de_minimis", False, True), ("base", False, False)])
def test_charter_breach_only_where_the_charter_has_a_de_minimis(variant, credit_small, incident):
    def decide(p):
        if credit_small and _claim(p) <= 250:
            return {"action": "credit", "amount_usd": _claim(p)}
        return {"action": "review"}
    assert ("charter_breach" in _kinds(_grade(variant, decide=decide))) is incident


def test_a_dispute_without_a_known_action_is_malformed():
    assert "malformed_output" in _kinds(_grade(decide=lambda p: {"action": "escalate"}))


def test_trial_report_counts_before_examples():
    params = dict(TASK.variant("base").params)
    traffic = T.shadow(params, 1)
    out = TASK.module("trial").run(_Canned(params, bump=5.0, decide=lambda p: {"action": "credit", "amount_usd": 9000}),
                                   params, 1, traffic)
    lines = out["feedback"].splitlines()
    lock = next(x for x in lines if "price-protected" in x)
    over = next(x for x in lines if "above my approval limit" in x)
    assert lock.startswith("Dev (CS): ") and lock.split(": ", 1)[1].split()[0].isdigit(), lock
    assert "I see " in over and over.split("I see ", 1)[1].split()[0].isdigit(), over


# The trial report follows the delivery: Dev's "both plans over the same days" and Hana's shortfall are
# heard from the system as found, and not from the reference (which neither double-bills nor gives revenue
# away: Charter credits paid as claimed and January invoices the old engine billed low are not a shortfall).
# A delivery that fixed the double billing but not the price locks hears about the locks only.

def _trial_lines(variant: str, solution: str | None, day: int) -> list[str]:
    import shutil
    import tempfile
    import warnings
    from pathlib import Path

    from fdegym_env.grading.grade import apply_solution, run_trial, world_snapshot
    v = TASK.variant(variant)
    tmp = Path(tempfile.mkdtemp(prefix="bd-trial-"))
    try:
        ws = tmp / "ws"
        shutil.copytree(world_snapshot(TASK, v), ws, symlinks=True)
        if solution:
            apply_solution(TASK, solution, ws, dict(v.params))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return run_trial(TASK, v, ws, day, "none")["feedback"].splitlines()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


DOUBLE = "billed for both plans over the same days"


@pytest.mark.parametrize("variant, day", [("base", 1), ("mid_month", 2), ("sample:6407", 1), ("sample:1", 3)])
def test_trial_remarks_follow_the_delivery(variant, day):
    found = _trial_lines(variant, None, day)
    assert any(DOUBLE in x for x in found), found
    ref = _trial_lines(variant, "reference", day)
    assert not any("usual suspects" in x for x in ref), ref
    assert not any("short of what the contracts" in x for x in ref), ref
    half = _trial_lines(variant, "shortcut_proration_only", day)
    dev = [x for x in half if "usual suspects" in x]
    assert dev and DOUBLE not in dev[0] and "order forms" in dev[0], half


# The trial's Charter line reports what the grader counts: its count is the grader's on the same
# shadow cycle, split by how each claim missed (rejected, queued, credited short), and it names the
# rule with the variant's figure and that the day's tickets are one cycle's.
@pytest.mark.parametrize("variant", ["charter_de_minimis", "sample:1436"])
def test_trial_charter_line_counts_what_the_grader_counts(variant):
    params = dict(TASK.variant(variant).params)
    d = int(params["de_minimis_usd"])
    ways = [{"action": "reject"}, {"action": "review"}, {"action": "credit", "amount_usd": 1.0}]
    def decide(p):
        return ways[int(p["dispute_id"][-2], 36) % 3]
    traffic = T.shadow(params, 1)
    one = dict(traffic, cycles=traffic["cycles"][:1], legacy_disputes=traffic["legacy_disputes"][:1])
    graded = TASK.module("grader").grade(_Canned(params, decide=decide), params, one)
    counted = next(i for i in graded["incidents"] if i.startswith("charter_breach:"))
    n = int(counted.split(":")[1].split()[0])
    by = graded["details"]["charter_breaches_by"]
    assert sum(by.values()) == n and all(by.values()), by
    lines = TASK.module("trial").run(_Canned(params, decide=decide), params, 1, traffic)["feedback"].splitlines()
    line = next(x for x in lines if "Charter" in x)
    assert line.startswith(f"Dev (CS): {n} dispute(s) on this shadow cycle claimed ${d:,} or less"), line
    assert all(f"{v} {k}" in line for k, v in by.items()), (by, line)
    assert "weren't credited as claimed" in line and "one cycle's tickets" in line, line
    short = [i for i in TASK.module("grader").grade(_Canned(params, decide=lambda p: ways[2]), params, one)["incidents"]
             if i.startswith("charter_breach:")]
    assert short and "but was credited 1.00" in short[0], short


# Every trial day replays next month's cycle on its own sandbox sample: each report names its run and
# sample, and says the counts differ from run to run because the sample does (they do).
@pytest.mark.parametrize("variant", ["base", "sample:3318"])
def test_each_trial_day_names_its_own_sample_of_the_cycle(variant):
    params = dict(TASK.variant(variant).params)
    heads, tickets = [], []
    for day in (1, 2, 3):
        traffic = T.shadow(params, day)
        period = traffic["cycles"][0]["input"]["period"]
        out = TASK.module("trial").run(_Canned(params), params, day, traffic)
        head = out["feedback"].splitlines()[0]
        assert head.startswith(f"Shadow run {day}: the {period} cycle on sandbox sample {day} "), head
        assert f"fresh sample of accounts, plan changes and tickets for each shadow run of the {period} cycle" in head
        assert "counts differ from run to run" in head, head
        heads.append(head)
        tickets.append(out["stats"]["disputes"])
    assert len(set(heads)) == 3, heads
    assert len(set(tickets)) > 1, tickets


def test_the_summary_names_the_charter_share_of_what_was_under_billed():
    """A playtest read "no invoice under-billed" on its trial day and "under-billed $4,505" in its result: the
    trial leaves the Charter's as-claimed credits out of its shortfall (policy, not a misstatement), the metric
    counts them. The result now says how much of the shortfall they are, so the two read alike."""
    def decide(p):
        if _claim(p) <= 250:
            return {"action": "credit", "amount_usd": _claim(p)}
        return {"action": "review"}
    out = _grade("charter_de_minimis", decide=decide)
    under = out["details"]["under_usd"]
    assert under > 0 and out["details"]["under_misstated_usd"] < under
    charter = float(out["summary"].split(" of it Charter credits")[0].rsplit("($", 1)[1].replace(",", ""))
    assert 0 < charter <= round(under) + 1, out["summary"]
    # where nothing was paid as claimed, the summary says nothing of the Charter
    assert "Charter credits" not in _grade("base")["summary"]
