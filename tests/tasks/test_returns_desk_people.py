"""returns_desk: Shaun answers for his bench on first ask (inspection capacity as a figure the grader bears out,
cost, when inspecting is a bad idea, what triggers an inspection, the QC grades); Priya answers partial refunds inside the statutory period; a sizing question reaches
whoever knows in every variant without a referral circle (the buyer is away only in warehouse_knows);
the trial report names no week before the clock; the portal log and the returns extract agree."""

from __future__ import annotations

import csv
import re
import warnings
from datetime import datetime

import pytest

from fdegym_env.core.registry import load_task
from fdegym_env.core.workspace import world_snapshot
from fdegym_env.people.engine import People
from fdegym_env.people.routers import make_router

TASK = load_task("returns_desk")


def people(variant: str) -> People:
    spec = TASK.people_spec(TASK.variant(variant))
    return People(spec, make_router("semantic", spec["people"]))


INSPECT = [
    "If the RMA service sent more returns to inspect, for customers with an earlier grade C, could the bench "
    "grade them before the 14-day refund deadline? Any reason inspecting them is a bad idea?",
    "Can the bench cope with more inspect RMAs?",
    "What does an inspect cost you compared with an approve?",
]


@pytest.mark.parametrize("variant", ["base", "warehouse_knows", "sample:4260"])
@pytest.mark.parametrize("message", INSPECT)
def test_shaun_answers_for_inspection_on_his_bench(variant, message):
    r = people(variant).contact("shaun_whitaker", message)
    assert {"inspection", "reverse_logistics"} & set(r.tags), (r.tags, r.reply)
    assert "dont_know" not in r.tags


def test_shauns_inspection_answer_agrees_with_the_grader():
    shop = TASK.module("shop")
    r = people("base").contact("shaun_whitaker", INSPECT[0])
    assert "inspection" in r.tags
    assert f"£{shop.QC:.2f}" in r.reply                   # bench time per inspected parcel
    assert "half" in r.reply and shop.DEDUCT == 0.5         # a worn C has its refund cut by half
    assert "mint" in r.reply and shop.DELAY_CLV > 0         # an unworn return only waits longer for its refund


@pytest.mark.parametrize("variant", ["base", "warehouse_knows"])
def test_the_trial_report_names_no_week_before_the_clock(variant):
    from fdegym_env import FDEGymEnv
    env = FDEGymEnv(task="returns_desk", sandbox="none", variant=variant)
    try:
        env.reset(seed=1)
        clock = env.people.clock.now()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            text = env.step({"tool": "trial"})[0]["text"]
    finally:
        env.close()
    assert "Trial day 1" in text and "trial day 1" in text, text
    for m in re.finditer(r"\b(Mon|Tue|Wed|Thu|Fri|Sat|Sun) (\d{2}) (Jan|Feb|Mar|Apr)\b", text):
        named = datetime.strptime(f"{m.group(2)} {m.group(3)} {clock.year}", "%d %b %Y").date()
        assert named >= clock.date(), (m.group(0), clock, text)
    assert "Shadow week from" not in text


@pytest.mark.parametrize("variant", ["base", "sample:4260"])
def test_the_portal_log_shows_the_extracts_decisions(variant):
    ws = world_snapshot(TASK, TASK.variant(variant))
    rows = list(csv.DictReader((ws / "data" / "returns_extract.csv").open(encoding="utf-8")))
    log = (ws / "logs" / "rma_portal.log").read_text(encoding="utf-8")
    batches = [(int(n), int(k)) for n, k in re.findall(r"rma\.authorise batch n=(\d+) refused=(\d+)", log)]
    assert sum(n for n, _ in batches) == len(rows)
    assert sum(k for _, k in batches) == sum(1 for r in rows if r["decision"] == "refuse")
    assert "every return request" in (ws / "data" / "README.md").read_text(encoding="utf-8")


# --- who answers what, in every variant: no deflection from owners, no referral circles ---------------------

VARIANTS = ["base", "two_sizes", "nordic_brand", "warehouse_knows", "plus_members", "plus_spring",
            "sample:1904", "sample:4260", "sample:8385", "sample:1", "sample:2", "sample:5", "sample:6", "sample:8"]

PARTIAL_REFUNDS = [
    "I'm replacing the proposed block with an inspect rule: customers whose earlier returns were graded C at "
    "Kirkstall get a label as usual, but the refund waits for QC, who can refund part of it if the item comes back "
    "worn. Some of these requests will be inside the 14-day cancellation period. Is a partial refund lawful there, "
    "and is there a limit on how long we can hold the money?",
    "How long are we allowed to hold a refund while the item is checked?",
    "A dress comes back on day six with fake tan on it and the tag pinned back on. She's inside her cancellation "
    "period - can we refund less than the full price, and how much can we take off?",
]


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("message", PARTIAL_REFUNDS)
def test_priya_answers_partial_refunds_inside_the_statutory_period(variant, message):
    """Consumer law is Priya's own area: asked about inspecting and refunding in part inside the 14 days,
    she answers (the refund deadline, deductions for diminished value), never refers it to CS."""
    r = people(variant).contact("priya_chandra", message)
    assert "statutory_rights" in r.tags, (r.tags, r.reply)
    assert "dont_know" not in r.tags and not any(t.startswith("refer:") for t in r.tags), r.tags
    assert "fourteen days from when we get the item back" in r.reply
    assert "no restocking fees" in r.reply


@pytest.mark.parametrize("variant", ["plus_members", "plus_spring", "sample:1904"])
def test_priyas_inspection_answer_states_the_plus_window(variant):
    days = TASK.variant(variant).params["plus_days"]
    r = people(variant).contact("priya_chandra", PARTIAL_REFUNDS[1])
    assert f"{days} days" in r.reply and "never refuse" in r.reply, r.reply


SIZING = [
    "Which brand's woven lines are coming back too small, and what offset should its size chart use?",
    "The returns extract shows one brand's dresses and tailoring sent back 'too small' in grade A. Does its label "
    "size match the UK size we list, and what should the conversion be?",
    "Has anyone checked that brand's garments against our size spec - what UK size does the label really fit?",
]


def _named(eng: People, reply: str, me: str) -> list[str]:
    return [pid for pid, p in eng.people.items() if pid != me and p["name"] in reply]


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("message", SIZING)
def test_a_sizing_question_reaches_whoever_knows_without_a_circle(variant, message):
    """Start with the buyer, follow whoever each reply points to (an auto-reply or a referral): the
    person named can answer, and nobody sends the agent back to someone already asked."""
    eng = people(variant)
    who, seen = "francesca_lowe", []
    for _ in range(3):
        assert who not in seen, f"referral circle {seen + [who]}"
        seen.append(who)
        r = eng.contact(who, message)
        if "F_size_chart" in r.facts:
            return
        nxt = [t.split(":", 1)[1] for t in r.tags if t.startswith("refer:")] or _named(eng, r.reply, who)
        assert nxt, (seen, r.tags, r.reply)
        who = nxt[0]
    raise AssertionError(f"nobody gave the size chart fact along {seen}")


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_buyer_is_away_only_where_the_variant_says_so(variant):
    away = bool(TASK.variant(variant).params["buyer_gone_at"])
    eng = people(variant)
    entry = next(p for p in eng.directory() if p["id"] == "francesca_lowe")
    assert entry["reachable"] is (not away)
    r = eng.contact("francesca_lowe", SIZING[0])
    if away:
        assert r.tags == ["gone"] and "Shaun" in r.reply and r.cost == 0
        shaun = eng.contact("shaun_whitaker", SIZING[0])
        assert "F_size_chart" in shaun.facts and "Francesca" not in shaun.reply, shaun.reply
    else:
        assert "brand_sizing" in r.tags and "F_size_chart" in r.facts, (r.tags, r.reply)
        assert "auto-reply" not in r.reply and "annual leave" not in r.reply


@pytest.mark.parametrize("variant", ["base", "warehouse_knows", "sample:1904"])
@pytest.mark.parametrize("message", [
    "How many earlier C grades should a customer have before her returns go to inspect - is one enough?",
    "Should a single worn grade on a customer's history be enough to send her next party dress to inspect?",
])
def test_shaun_says_which_customers_to_inspect(variant, message):
    r = people(variant).contact("shaun_whitaker", message)
    assert {"inspection", "worn_returns"} & set(r.tags) and "dont_know" not in r.tags, (r.tags, r.reply)
    assert "had a C before" in r.reply


# --- Shaun on his own bench: capacity, what triggers an inspection, grading (first ask, every variant) ---------

BENCH_VARIANTS = ["base", "sample:8819", "two_sizes", "nordic_brand", "warehouse_knows", "plus_members", "plus_spring",
                  "sample:4260", "sample:1"]
CAPACITY_AND_TRIGGER = [
    "Thanks for your note about people taking the mick. Rather than block anyone, I'd send returns from customers "
    "who already have a grade C (worn) return on record in the past year (qc_c_12m >= 1) to inspection. Is that the "
    "right trigger from where you sit, and could your bench absorb roughly 1-2 additional inspections per day?",
    "Could Kirkstall absorb a couple more inspect RMAs every day?",
    "What's the most inspections your team could take on per day?",
    "If I flag customers with at least one C grade in the last twelve months for inspection, is that a sensible threshold?",
    "Should the inspect rule apply to all returns from flagged customers or only occasionwear?",
    "How much bench capacity is there for inspections?",
]
GRADING = [
    "Can you explain the QC grades - A, B, C, D?",
    "What makes your graders mark something as a C?",
    "What's the difference between a grade B and a grade C at the bench?",
]


@pytest.mark.parametrize("variant", BENCH_VARIANTS)
@pytest.mark.parametrize("message", CAPACITY_AND_TRIGGER)
def test_shaun_answers_bench_capacity_and_the_inspection_trigger_on_first_ask(variant, message):
    """Inspection capacity and what should send a return to inspect are Shaun's own area: he answers on the
    first ask, with a figure, never "I don't have that detail" or a referral."""
    r = people(variant).contact("shaun_whitaker", message)
    assert "inspection" in r.tags, (r.tags, r.reply)
    assert "dont_know" not in r.tags and not any(t.startswith("refer:") for t in r.tags), r.tags
    assert "forty more a day" in r.reply and "qc_c_12m" in r.reply and "occasionwear" in r.reply


@pytest.mark.parametrize("variant", BENCH_VARIANTS)
@pytest.mark.parametrize("message", GRADING)
def test_shaun_explains_the_grades_on_first_ask(variant, message):
    r = people(variant).contact("shaun_whitaker", message)
    assert "qc_grading" in r.tags and "dont_know" not in r.tags, (r.tags, r.reply)
    for grade in ("A is", "B is", "C is worn", "D is faulty"):
        assert grade in r.reply


def test_shaun_answers_his_inbox_invitation():
    """His welcome message invites a talk about 'people taking the mick': asking him that is answered."""
    r = people("sample:8819").contact("shaun_whitaker", "You said to talk to you about people taking the mick - who?")
    assert {"worn_returns", "inspection"} & set(r.tags) and "dont_know" not in r.tags, (r.tags, r.reply)


@pytest.mark.parametrize("variant", ["base", "sample:8819", "warehouse_knows"])
def test_shauns_capacity_and_trigger_agree_with_the_grader(variant):
    """The grader charges £2.50 a parcel for inspection and has no capacity limit: the spare capacity he gives
    covers inspecting every return of the held-out weeks. Worn (grade C) returns are only occasionwear, none of a
    flagged customer's other returns is worn (inspecting those only delays the refund), and most occasionwear
    returns from a customer with exactly one earlier C are worn (one is enough)."""
    shop, traffic = TASK.module("shop"), TASK.module("traffic")
    r = people(variant).contact("shaun_whitaker", CAPACITY_AND_TRIGGER[0])
    assert f"£{shop.QC:.2f}" in r.reply and "forty more a day" in r.reply and "one is enough" in r.reply
    params = dict(TASK.variant(variant).params)
    held = traffic.held_out(params, TASK.held_out_seed)
    listed = traffic._legacy_listing(list(held["prods"].values()))      # as found: the most returns
    reqs, truth, _, _ = shop.shop(held["lines"], held["prods"], listed, params)
    assert len(reqs) / 28 < 40
    worn = [q for q in reqs if truth[q["rma_id"]]["worn"]]
    assert worn and {q["category"] for q in worn} == {"occasionwear"}
    assert not any(truth[q["rma_id"]]["worn"] for q in reqs if q["qc_c_12m"] >= 1 and q["category"] != "occasionwear")
    one_c = [truth[q["rma_id"]]["worn"] for q in reqs if q["category"] == "occasionwear" and q["qc_c_12m"] == 1]
    assert one_c and sum(one_c) / len(one_c) > 0.5
    assert shop.outcome({"price": 100.0}, {"worn": False}, "inspect") > shop.outcome({"price": 100.0}, {"worn": False},
                                                                                       "approve")
