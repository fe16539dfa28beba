"""One trial day for loan_prequal: a day of LOS intake is mirrored to the delivered engine (no
notices sent, nothing booked) and the people who look at its output say what they saw, naming the
applications (never the answer key)."""

from __future__ import annotations

from fdegym_env.tasklib import evaluation

from . import grader

POLICY = {"min_fico": 640, "max_dti": 0.43, "min_monthly_income": 1500, "max_amount": 35000}   # CC-2025-11
SHOWN = 5       # applications named per class; the rest are counted


def _named(ids: list[str], note: dict[str, str] | None = None) -> str:
    """'BCB-2603012, BCB-2603019' or, past SHOWN, 'BCB-.., ... (5 of 11 shown)'; with ``note``, each
    application's note follows its number."""
    def one(i: str) -> str:
        return f"{i} {note[i]}" if note and i in note else i
    return ", ".join(one(i) for i in ids[:SHOWN]) + (f" ({SHOWN} of {len(ids)} shown)" if len(ids) > SHOWN else "")


def _outcome(r: dict | None) -> str:
    """'approved', 'declined AA11' (its principal reason), 'declined, no reason' or 'no decision'."""
    if r is None:
        return "no decision"
    if r["decision"] == "approve":
        return "approved"
    return f"declined {r['reasons'][0]}" if r["reasons"] and isinstance(r["reasons"][0], str) else "declined, no reason"


def _clears_policy(t: dict) -> bool:
    """What an underwriter sees with the return in hand: the application passes the credit policy on its true income."""
    return (t["fico"] >= POLICY["min_fico"] and t["dti"] <= POLICY["max_dti"] and not t["bankruptcy"]
            and t["income"] >= POLICY["min_monthly_income"] and t["amount"] <= POLICY["max_amount"])


def _appetite_line(bad: list[dict], se_bad: list[dict], truth: dict, params: dict) -> str:
    """Credit risk's re-run: approvals outside the committee's appetite on the income the file would verify,
    counted by the measure that puts each outside (DTI past the max, score under the floor, the rest)."""
    cap, floor = float(params["appetite_dti"]), int(params["appetite_fico"])
    ids = [r["app"]["app_id"] for r in bad]
    by_dti = [i for i in ids if truth[i]["dti"] > cap]
    by_fico = [i for i in ids if truth[i]["dti"] <= cap and truth[i]["fico"] < floor]
    other = [i for i in ids if i not in by_dti and i not in by_fico]
    why = [f"{len(by_dti)} with DTI over {cap:.0%} on the income the return would show ({_named(by_dti)})" if by_dti else "",
           f"{len(by_fico)} under the {floor} floor ({_named(by_fico)})" if by_fico else "",
           f"{len(other)} under the income floor or with a recent bankruptcy ({_named(other)})" if other else ""]
    se = [r["app"]["app_id"] for r in se_bad]
    return (f"Anita's team re-ran affordability on the approvals against {params['policy_version']} "
            f"({cap:.0%} max DTI, {floor} FICO floor): {len(bad)} would be outside appetite on our own numbers - "
            + ", ".join(w for w in why if w)
            + (f"; {len(se)} of them self-employed ({_named(se)})." if se else "."))


def _declines_line(rows: list[dict], valid: set[str]) -> str:
    """The notice preview: coded declines by principal (first) reason, most frequent first."""
    by_code: dict[str, list[str]] = {}
    for r in rows:
        if r["decision"] == "decline" and r["reasons"] and all(c in valid for c in r["reasons"]):
            by_code.setdefault(r["reasons"][0], []).append(r["app"]["app_id"])
    if not by_code:
        return ""
    n = sum(len(v) for v in by_code.values())
    parts = [f"{code} {len(ids)} ({_named(ids)})" for code, ids in sorted(by_code.items(), key=lambda kv: (-len(kv[1]), kv[0]))]
    return f"Denise's team, notice preview: {n} decline(s) by principal reason - " + "; ".join(parts) + "."


def run(deploy, params: dict, day: int, traffic: dict) -> dict:
    out = evaluation.evaluate_on(deploy, grader.evaluate, params, traffic)
    det = out["details"]
    rows = out["_rows"]
    apps = [a for week in traffic["weeks"] for a in week]
    decided = {r["app"]["app_id"]: r for r in rows}
    lines = [f"Shadow run, today: {det['applications']} applications, {det['approved']} would have been approved."]
    facts: list[str] = []
    missing = [a["app_id"] for a in apps if a["app_id"] not in decided]
    if missing:
        lines.append(f"LOS intake (Marisol): the shadow job got nothing usable back for {len(missing)} application(s) "
                     f"({_named(missing)}) - in production those applicants would sit in 'pending' with no answer.")
    valid = set(params["notice_codes"].values())
    coded = _declines_line(rows, valid)
    if coded:
        lines.append(coded)
    blank = [r["app"]["app_id"] for r in rows if r["decision"] == "decline"
             and not (r["reasons"] and all(c in valid for c in r["reasons"]))]
    if blank:
        lines.append(f"Denise: {len(blank)} decline(s) came through with a blank reason box on the notice preview "
                     f"({_named(blank)}). That can't go out - every adverse action notice needs its reasons.")
    truth = traffic["truth"]
    split = sorted((t["twin_of"], a) for a, t in truth.items() if t["twin_of"] and a in decided and t["twin_of"] in decided
                   and decided[a]["decision"] != decided[t["twin_of"]]["decision"])
    if split:
        pairs = [f"{a}/{b}" for a, b in split]
        lines.append(f"Denise: my matched-pair test flagged {len(split)} pair(s) ({_named(pairs)}) - same income, "
                     "debts, score and amount, different decision. I need to know why before anything ships.")
    typed = [a["app_id"] for a in apps if isinstance(a["income_amount"], str)]
    if typed:
        n_ok = sum(1 for i in typed if i in decided and decided[i]["decision"] == "approve")
        n_no = sum(1 for i in typed if i in decided and decided[i]["decision"] == "decline")
        note = {a["app_id"]: f'"{a["income_amount"]}" ({_outcome(decided.get(a["app_id"]))})' for a in apps
                if isinstance(a["income_amount"], str)}
        lines.append(f"LOS intake (Marisol): {len(typed)} application(s) came in with the income typed as text rather "
                     f"than a number ({_named(typed, note)}); prequal approved {n_ok} and declined {n_no} of them.")
    se = [r for r in rows if r["kind"] in ("se_new_form", "se_messy", "se_inflight") and r["decision"] == "decline"]
    # Ken rereads the file: only a decline the tax return would have cleared under CC-2025-11 looks wrong to him
    good_se = [r["app"]["app_id"] for r in se if r["kind"] != "se_inflight" and _clears_policy(truth[r["app"]["app_id"]])]
    ch = params["quirk_channel"]
    if len(good_se) >= 3:
        lines.append(f"Underwriting: we pulled the self-employed declines from the {ch} channel - {len(good_se)} of them "
                     f"({_named(good_se)}). For the ones with a tax return on file the "
                     "engine's monthly income is nowhere near what the return shows.")
    elif good_se:
        lines.append(f"Underwriting: a couple of {ch} self-employed declines look odd to us ({len(good_se)}: "
                     f"{_named(good_se)}); the rest of the self-employed declines we'd sign off.")
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
