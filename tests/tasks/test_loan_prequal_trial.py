"""loan_prequal trial report: every line that counts applications names them, says "(5 of n shown)" when it
names only some, and counts what the grader counts on that day's traffic (declines by principal reason code,
declines without a usable reason, split matched pairs, applications left without a decision, income typed as
text, approvals outside the committee's appetite)."""

from __future__ import annotations

import re
import warnings

import pytest

from fdegym_env.core.registry import load_task

TASK = load_task("loan_prequal")
VARIANTS = ["base", "new_codes", "partner_feed", "tight_appetite", "sample:5172", "sample:2"]
APP = re.compile(r"\bBCB-\d{7}\b")
SHOWN = re.compile(r"\((\d+) of (\d+) shown\)")


class _Canned:
    def __init__(self, decide):
        self.decide, self.task = decide, TASK

    def call(self, module, function, apps, timeout_s=None):
        return type("R", (), {"ok": True, "value": [d for a in apps if (d := self.decide(a)) is not None]})()


def _approve_all(params, truth):
    return lambda a: {"app_id": a["app_id"], "decision": "approve"}


def _decline_all(params, truth):
    code = params["notice_codes"]["income"]
    return lambda a: {"app_id": a["app_id"], "decision": "decline", "reasons": [code]}


def _untidy(params, truth):
    """Some left out, some declines blank or off-list, coded declines on two codes, the rest approved."""
    codes = params["notice_codes"]

    def decide(a):
        k = int(a["app_id"][4:]) % 9
        if k == 0:
            return None
        if k == 1:
            return {"app_id": a["app_id"], "decision": "decline", "reasons": []}
        if k == 2:
            return {"app_id": a["app_id"], "decision": "decline", "reasons": ["ZZ99"]}
        if k in (3, 4, 5):
            return {"app_id": a["app_id"], "decision": "decline", "reasons": [codes["dti"], codes["income"]]}
        if k == 6:
            return {"app_id": a["app_id"], "decision": "decline", "reasons": [codes["credit_score"]]}
        return {"app_id": a["app_id"], "decision": "approve"}
    return decide


def _check(part: str, ids: list[str]) -> None:
    """``part`` names min(5, len(ids)) of exactly these applications, with "(5 of n shown)" past five."""
    named = APP.findall(part)
    assert len(named) == min(5, len(ids)) and set(named) <= set(ids), (ids, part)
    assert SHOWN.findall(part) == ([("5", str(len(ids)))] if len(ids) > 5 else []), part


def _line(text: str, mark: str) -> str | None:
    return next((x for x in text.splitlines() if x.startswith(mark)), None)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("policy", [_approve_all, _decline_all, _untidy])
def test_each_line_names_its_applications_and_counts_what_the_grader_counts(variant, policy):
    params = dict(TASK.variant(variant).params)
    traffic = TASK.module("traffic").shadow(params, 1)
    truth = traffic["truth"]
    decide = policy(params, truth)
    graded = TASK.module("grader").grade(_Canned(decide), params, traffic)
    det = graded["details"]
    text = TASK.module("trial").run(_Canned(decide), params, 1, traffic)["feedback"]
    apps = traffic["weeks"][0]
    got = {a["app_id"]: d for a in apps if (d := decide(a)) is not None}
    valid = set(params["notice_codes"].values())

    assert text.splitlines()[0] == (f"Shadow run, today: {det['applications']} applications, {det['approved']} would "
                                    "have been approved."), text
    # applications with no decision: the grader's malformed count
    missing = [a["app_id"] for a in apps if a["app_id"] not in got]
    assert len(missing) == det["malformed"]
    line = _line(text, "LOS intake (Marisol): the shadow job")
    assert (line is None) == (not missing), text
    if missing:
        assert f"for {len(missing)} application(s)" in line
        _check(line, missing)
    # declines by principal reason, and those without a usable reason (the grader's declines_without_reasons)
    declined = {i: d for i, d in got.items() if d["decision"] == "decline"}
    blank = [i for i, d in declined.items() if not d["reasons"] or any(c not in valid for c in d["reasons"])]
    assert len(blank) == det["declines_without_reasons"]
    coded: dict[str, list[str]] = {}
    for i, d in declined.items():
        if i not in blank:
            coded.setdefault(d["reasons"][0], []).append(i)
    line = _line(text, "Denise's team, notice preview:")
    assert (line is None) == (not coded), text
    if coded:
        assert f": {sum(map(len, coded.values()))} decline(s) by principal reason - " in line, line
        for code, ids in coded.items():
            part = next(p for p in line.split(" - ", 1)[1].split("; ") if p.startswith(f"{code} "))
            assert part.startswith(f"{code} {len(ids)} ("), part
            _check(part, ids)
    assert ("blank reason box" in text) == bool(blank), text
    line = _line(text, "Denise: ")
    if blank:
        assert line.startswith(f"Denise: {len(blank)} decline(s)"), line
        _check(line, blank)
    # matched pairs decided differently
    split = [(t["twin_of"], i) for i, t in truth.items() if t["twin_of"] and i in got and t["twin_of"] in got
             and got[i]["decision"] != got[t["twin_of"]]["decision"]]
    assert len(split) == det["split_twins"]
    line = next((x for x in text.splitlines() if "matched-pair test" in x), None)
    assert (line is None) == (not split), text
    if split:
        assert f"flagged {len(split)} pair(s)" in line
        pairs = re.findall(r"(BCB-\d{7})/(BCB-\d{7})", line)
        assert len(pairs) == min(5, len(split)) and set(pairs) <= set(split), line
    # income typed as text: the grader's free-text class
    typed = [a["app_id"] for a in apps if isinstance(a["income_amount"], str)]
    assert len(typed) == det["by_kind"].get("se_messy", {}).get("n", 0)
    if typed:
        line = next(x for x in text.splitlines() if "income typed as text" in x)
        assert f"{len(typed)} application(s) came in with the income typed as text" in line, line
        _check(line, typed)
        for i in APP.findall(line):
            assert f'{i} "{next(a for a in apps if a["app_id"] == i)["income_amount"]}" (' in line, line
        n_ok = sum(got.get(i, {}).get("decision") == "approve" for i in typed)
        n_no = sum(got.get(i, {}).get("decision") == "decline" for i in typed)
        assert f"prequal approved {n_ok} and declined {n_no} of them" in line, line
    else:
        assert "income typed as text" not in text
    # approvals outside appetite: the grader's loans booked at expected loss
    bad = sum(k["bad_loans"] for k in det["by_kind"].values())
    line = _line(text, "Anita's team")
    assert (line is None) == (not bad), text
    if bad:
        assert f": {bad} would be outside appetite" in line, line
        cap = float(params["appetite_dti"])
        flagged = [i for i, d in got.items() if d["decision"] == "approve"
                   and TASK.module("lending").value(truth[i], params) < 0]
        by_dti = [i for i in flagged if truth[i]["dti"] > cap]
        parts = re.findall(r"(\d+) (with DTI over|under the \d+ floor|under the income floor)[^(]*(\([^)]*\)(?: \(\d+ of \d+ shown\))?)", line)
        assert sum(int(n) for n, _w, _p in parts) == bad, line
        dti_part = next(p for n, w, p in parts if w == "with DTI over") if by_dti else None
        if by_dti:
            _check(dti_part, by_dti)
    # Ken's remark names the declines it talks about
    line = _line(text, "Underwriting:")
    if line:
        n = int(next(g for g in re.search(r"- (\d+) of them \(|\((\d+): ", line).groups() if g))
        named = APP.findall(line)
        assert len(named) == min(5, n) and all(got[i]["decision"] == "decline" for i in named), line
    for x in text.splitlines():                     # no count of applications without the applications it counts
        if re.search(r"\d+ (?:decline|application|pair)\(s\)|would be outside appetite", x) and not x.startswith("Shadow run"):
            assert APP.search(x), x
    if policy is _decline_all:                      # every class this policy exercises shows up
        assert SHOWN.search(_line(text, "Denise's team")) and _line(text, "Underwriting:"), text
    if policy is _approve_all:
        assert SHOWN.search(_line(text, "Anita's team")), text
    if policy is _untidy:
        assert missing and blank and split and len(coded) == 2, text


def test_the_playtest_day_names_examples_for_the_engine_as_found():
    """sample:5172 as found: the report names the declines per code, the text incomes and the odd declines."""
    from fdegym_env import FDEGymEnv
    env = FDEGymEnv(task="loan_prequal", sandbox="none", variant="sample:5172")
    try:
        env.reset(seed=61)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            text = env.step({"tool": "trial"})[0]["text"]
    finally:
        env.close()
    for mark in ("Denise's team, notice preview:", "Underwriting:"):
        line = next(x for x in text.splitlines() if x.startswith(mark))
        assert APP.search(line), line
    assert re.search(r'BCB-\d{7} "[^"]+" \(declined', text), text
