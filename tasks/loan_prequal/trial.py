"""One trial day for loan_prequal: a day of LOS intake is mirrored to the delivered engine (no
notices sent, nothing booked) and the people who look at its output say what they saw - never
the answer key."""

from __future__ import annotations

from fdegym_env.tasklib import evaluation

from . import grader

POLICY = {"min_fico": 640, "max_dti": 0.43, "min_monthly_income": 1500, "max_amount": 35000}   # CC-2025-11


def _clears_policy(t: dict) -> bool:
    """What an underwriter sees with the return in hand: the application passes the credit policy on its true income."""
    return (t["fico"] >= POLICY["min_fico"] and t["dti"] <= POLICY["max_dti"] and not t["bankruptcy"]
            and t["income"] >= POLICY["min_monthly_income"] and t["amount"] <= POLICY["max_amount"])


def _appetite_line(bad: list[dict], se_bad: list[dict], truth: dict, params: dict) -> str:
    """Credit risk's re-run: approvals outside the committee's appetite on the income the file would verify,
    counted by the measure that puts each outside (DTI past the max, score under the floor, the rest)."""
    cap, floor = float(params["appetite_dti"]), int(params["appetite_fico"])
    ts = [truth[r["app"]["app_id"]] for r in bad]
    n_dti = sum(t["dti"] > cap for t in ts)
    n_fico = sum(t["dti"] <= cap and t["fico"] < floor for t in ts)
    n_other = len(ts) - n_dti - n_fico
    why = [f"{n_dti} with DTI over {cap:.0%} on the income the return would show" if n_dti else "",
           f"{n_fico} under the {floor} floor" if n_fico else "",
           f"{n_other} under the income floor or with a recent bankruptcy" if n_other else ""]
    return (f"Anita's team re-ran affordability on the approvals against {params['policy_version']} "
            f"({cap:.0%} max DTI, {floor} FICO floor): {len(bad)} would be outside appetite on our own numbers - "
            + ", ".join(w for w in why if w)
            + (f"; {len(se_bad)} of them self-employed." if se_bad else "."))


def run(deploy, params: dict, day: int, traffic: dict) -> dict:
    out = evaluation.evaluate_on(deploy, grader.evaluate, params, traffic)
    det = out["details"]
    rows = out["_rows"]
    lines = [f"Shadow run, today: {det['applications']} applications, {det['approved']} would have been approved."]
    facts: list[str] = []
    if det["malformed"] or not rows:
        lines.append("LOS intake (Marisol): the shadow job got nothing usable back for part of the day - in "
                     "production those applicants would sit in 'pending' with no answer.")
    if det["declines_without_reasons"]:
        lines.append(f"Denise: {det['declines_without_reasons']} decline(s) came through with a blank reason box on "
                     "the notice preview. That can't go out - every adverse action notice needs its reasons.")
    if det["split_twins"]:
        lines.append(f"Denise: my matched-pair test flagged {det['split_twins']} pair(s) - same income, debts, "
                     "score and amount, different decision. I need to know why before anything ships.")
    se = [r for r in rows if r["kind"] in ("se_new_form", "se_messy", "se_inflight") and r["decision"] == "decline"]
    truth = traffic["truth"]
    # Ken rereads the file: only a decline the tax return would have cleared under CC-2025-11 looks wrong to him
    good_se = [r for r in se if r["kind"] != "se_inflight" and _clears_policy(truth[r["app"]["app_id"]])]
    ch = params["quirk_channel"]
    if len(good_se) >= 3:
        lines.append(f"Underwriting: we pulled the self-employed declines from the {ch} channel - {len(good_se)} of them. "
                     "For the ones with a tax return on file the engine's monthly income is nowhere near what "
                     "the return shows.")
    elif good_se:
        lines.append(f"Underwriting: a couple of {ch} self-employed declines look odd to us ({len(good_se)}); the rest "
                     "of the self-employed declines we'd sign off.")
    bad = [r for r in rows if r["decision"] == "approve" and r["value"] < 0]
    se_bad = [r for r in bad if r["kind"].startswith("se") or r["kind"] == "other_se"]
    if bad:
        lines.append(_appetite_line(bad, se_bad, truth, params))
    rate = det["approved"] / max(1, det["applications"])
    lines.append(f"Tom: approval rate on the shadow day {rate:.0%}" + (" - that's more like it." if rate >= 0.5 else "."))
    return {"feedback": "\n".join(lines), "facts": sorted(set(facts)), "topics": [],
            "stats": {"approved": det["approved"], "applications": det["applications"],
                      "declines_without_reasons": det["declines_without_reasons"], "split_twins": det["split_twins"]},
            "extra_cost": 0.0}
