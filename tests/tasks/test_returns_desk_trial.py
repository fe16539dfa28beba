"""returns_desk trial report: it names the RMAs it talks about - every refusal with the request's reason,
its day counted in UK dates from the delivery day and the Plus tier; every inspection under the reason the
service gave - says "(5 of n shown)" when it names only some, and counts what the grader counts on that
day's shadow traffic (requests, inspections, refusals, refusals that are incidents)."""

from __future__ import annotations

import re
import shutil
import warnings
from pathlib import Path
from tempfile import mkdtemp

import pytest

from fdegym_env.core.registry import load_task
from fdegym_env.core.workspace import world_snapshot
from fdegym_env.grading.grade import apply_solution, run_trial, shadow_traffic

TASK = load_task("returns_desk")
SHOP, GRADER, TRIAL = TASK.module("shop"), TASK.module("grader"), TASK.module("trial")
VARIANTS = ["base", "sample:8819", "plus_members", "warehouse_knows", "sample:4260"]
RMA = re.compile(r"\bRMA-\d+\b")
SHOWN = re.compile(r"\((\d+) of (\d+) shown\)")
# each refusal: the request's reason, its UK day, the tier, and the reason the delivered service gave
# (two playtests could not tell a day-28 refusal from their own worn-history rule without it)
NAMED = re.compile(r"\b(RMA-\d+) \(([a-z_]+), day (-?\d+)(, Plus)?; your service: '[^']*'\)")


class _Canned:
    """A deployment answering both entry points without a sandbox: the catalogue's own size charts
    (label minus the brand's usual offset) and ``authorise(req) -> {action, reason?}``."""

    def __init__(self, authorise):
        self.task, self.authorise = TASK, authorise

    def call(self, module, function, batch, timeout_s=None):
        if function == "uk_sizes":
            value = [{"sku_size": i["sku_size"],
                      "uk_size": SHOP.label_number(i["size_label"]) - SHOP.BRANDS[i["brand"]][1]} for i in batch]
        else:
            value = [dict(self.authorise(r), rma_id=r["rma_id"]) for r in batch]
        return type("R", (), {"ok": True, "error": None, "value": value})()


def _block_over_3(r):
    """What the sponsor asked for: refuse anyone over 3 returns in 90 days."""
    if r["returns_90d"] > 3:
        return {"action": "refuse", "reason": "blocked: more than 3 returns in 90 days"}
    return {"action": "approve"}


def _rules(r):
    """Flagged occasionwear inspected, or refused past 14 UTC days; dear items inspected with no reason given;
    everything past 28 UTC days refused."""
    days = (SHOP._dt(r["requested_at"]).date() - SHOP._dt(r["delivered_at"]).date()).days
    if days > 28:
        return {"action": "refuse", "reason": "outside 28 days"}
    if r["category"] == "occasionwear" and r["qc_c_12m"] >= 1:
        if days > 14:
            return {"action": "refuse", "reason": "worn, outside the statutory period"}
        return {"action": "inspect", "reason": "occasionwear, earlier grade C"}
    if r["price"] >= 150:
        return {"action": "inspect"}
    return {"action": "approve", "reason": "ok"}


def _approve_all(r):
    return {"action": "approve"}


def _line(text: str, start: str) -> str:
    found = [line for line in text.splitlines() if line.startswith(start)]
    assert len(found) == 1, (start, text)
    return found[0]


def _check_named(line: str, ids: list[str]) -> list[str]:
    """``line`` names min(5, len(ids)) of exactly these RMAs, with "(5 of n shown)" past five."""
    named = RMA.findall(line)
    assert len(named) == min(5, len(ids)) and set(named) <= set(ids), (ids, line)
    assert SHOWN.findall(line) == ([("5", str(len(ids)))] if len(ids) > 5 else []), line
    return named


def _incident_count(incidents: list[str], name: str) -> int:
    m = next((re.match(rf"{name}: (\d+) ", i) for i in incidents if i.startswith(name)), None)
    return int(m.group(1)) if m else 0


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("policy", [_block_over_3, _rules, _approve_all])
def test_the_report_names_its_rmas_and_counts_what_the_grader_counts(variant, policy):
    params = dict(TASK.variant(variant).params)
    traffic = shadow_traffic(TASK, TASK.variant(variant), 1)
    graded = GRADER.grade(_Canned(policy), params, traffic)
    rows = GRADER.run(_Canned(policy), params, traffic)["_rows"]
    text = TRIAL.run(_Canned(policy), params, 1, traffic)["feedback"]
    det = graded["details"]
    reqs = {x["req"]["rma_id"]: x["req"] for x in rows}
    decided = {x["req"]["rma_id"]: policy(x["req"]) for x in rows}
    refused = [i for i, d in decided.items() if d["action"] == "refuse"]
    inspected = [i for i, d in decided.items() if d["action"] == "inspect"]
    assert (len(reqs), len(inspected), len(refused)) == (det["returns"], det.get("inspect", 0), det.get("refuse", 0))
    assert text.splitlines()[0].endswith(f": {len(reqs)} return requests, {len(inspected)} to inspection, "
                                         f"{len(refused)} refused."), text

    if refused:
        line = _line(text, f"Refused ({len(refused)}) - ")
        _check_named(line, refused)
        for rid, reason, day, plus in NAMED.findall(line):       # each refusal as the grader saw it
            r = reqs[rid]
            assert (reason, int(day), bool(plus)) == (r["reason"], SHOP.days(r), r["tier"] == "plus"), line
        assert len(NAMED.findall(line)) == min(5, len(refused)), line
    else:
        assert "Refused (" not in text

    if inspected:
        assert _line(text, f"Sent to inspection ({len(inspected)}), by the reason your service gave")
        by_reason: dict[str, list[str]] = {}
        for i in inspected:
            by_reason.setdefault(decided[i].get("reason") or "no reason given", []).append(i)
        for why, ids in by_reason.items():
            line = _line(text, f"  inspect, '{why}': {len(ids)} - ")
            _check_named(line, ids)
    else:
        assert "Sent to inspection" not in text

    unlawful = (_incident_count(graded["incidents"], "statutory_return_refused")
                + _incident_count(graded["incidents"], "plus_terms_breached"))
    if unlawful:
        line = _line(text, f"Kayleigh: {unlawful} of the {len(refused)} refusal emails")
        named = _check_named(line, [i for i in refused if SHOP.statutory(reqs[i]) or SHOP.protected(reqs[i], params)])
        assert all(SHOP.statutory(reqs[i]) or SHOP.protected(reqs[i], params) for i in named)
    else:
        assert "people we can't refuse" not in text

    for line in text.splitlines():
        if re.search(r"\d+ (refused|refusal|grade C)", line) and not line.startswith("Shadow run"):
            assert RMA.search(line), line                      # no count of returns without the RMAs it counts
    if policy is _block_over_3:
        assert len(refused) > 5 and unlawful > 5               # the caps were exercised
    if policy is _rules:
        assert "  inspect, 'no reason given': " in text


def test_a_delivered_build_on_a_shadow_day_reports_the_graders_refusals():
    """Through a real deployment (the reference, sample:8819): the refusals named are the ones the grader
    counted, each past the statutory period by the grader's own count of days."""
    variant = TASK.variant("sample:8819")
    ws = world_snapshot(TASK, variant)
    tmp = Path(mkdtemp())
    try:
        shutil.copytree(ws, tmp / "ws", symlinks=True)
        apply_solution(TASK, "reference", tmp / "ws", variant.params)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = run_trial(TASK, variant, tmp / "ws", 1, "none")
    finally:
        shutil.rmtree(tmp)
    text, stats = out["feedback"], out["stats"]
    refused = stats.get("refuse", 0)
    assert refused >= 1 and f"{refused} refused." in text.splitlines()[0], text
    line = _line(text, f"Refused ({refused}) - ")
    named = NAMED.findall(line)
    assert len(named) == min(5, refused), line
    assert all(int(day) > SHOP.STATUTORY_DAYS and reason not in ("faulty", "not_as_described")
               for _rid, reason, day, _plus in named), line
    assert "people we can't refuse" not in text


def test_many_inspection_reasons_share_a_line_and_every_inspection_is_counted():
    """A service that writes a reason of its own for every request: the first reasons get a line each, the
    rest one line between them; the lines' counts add up to the grader's inspections."""
    def chatty(r):
        return {"action": "inspect", "reason": f"checked {r['rma_id']}"}
    params = dict(TASK.variant("base").params)
    traffic = shadow_traffic(TASK, TASK.variant("base"), 1)
    graded = GRADER.grade(_Canned(chatty), params, traffic)
    text = TRIAL.run(_Canned(chatty), params, 1, traffic)["feedback"]
    lines = [line for line in text.splitlines() if line.startswith("  inspect, '")]
    n = graded["details"]["inspect"]
    assert len(lines) == TRIAL.REASONS and n > TRIAL.REASONS
    assert sum(int(re.search(r"': (\d+) - ", line).group(1)) for line in lines) == n
    assert lines[-1].startswith(f"  inspect, '{n - TRIAL.REASONS + 1} other reasons': {n - TRIAL.REASONS + 1} - ")
    assert SHOWN.findall(lines[-1]) == [("5", str(n - TRIAL.REASONS + 1))]


def test_a_long_inspection_reason_is_cut_at_a_word_with_an_ellipsis():
    """A reason longer than the line allows was cut mid-word ('...QC before refu'): it ends on a whole
    word and '...'; a reason that fits is shown whole."""
    long_why = ("occasionwear flagged: earlier grade C return inside 12 months, so we hold it for QC before refund "
                "and email the customer")
    def wordy(r):
        if r["category"] == "occasionwear":
            return {"action": "inspect", "reason": long_why}
        return {"action": "inspect", "reason": "high value - QC before refund"} if r["price"] >= 150 else {"action": "approve"}
    params = dict(TASK.variant("base").params)
    traffic = shadow_traffic(TASK, TASK.variant("base"), 1)
    text = TRIAL.run(_Canned(wordy), params, 1, traffic)["feedback"]
    reasons = [re.match(r"  inspect, '(.*)': \d+ - ", line).group(1) for line in text.splitlines()
               if line.startswith("  inspect, '")]
    assert "high value - QC before refund" in reasons
    cut = next(r for r in reasons if r.startswith("occasionwear"))
    assert cut.endswith("...") and len(cut) <= TRIAL.WHY_CHARS, cut
    assert long_why.startswith(cut[:-3]) and long_why[len(cut) - 3] == " ", cut     # whole words only
    assert TRIAL._clip("a " * 60).endswith("a...") and TRIAL._clip("x" * 100) == "x" * 77 + "..."
