"""claims_fasttrack, from an L3 playtest (sample:5135, a photo_email draw):

- Marcus (SIU analyst), asked whether the intake's FNOL-to-SIU referral rule is right from SIU's
  side, said only "The ring file is Renata's". What SIU wants referred (flag hits, the ring's copies
  of earlier claims on a different policy; not whole shops, double reports or two-car crashes) is
  his to say; only the ring file itself (which shops, how they dress copies up) is Renata's.
- A trial day said only queue counts ("desk 32, siu 3, photo_link 18"): nothing on what the day
  cost in the customer's own metric, nor from the people the files land on. It now gives the day's
  cost in the metric's parts, with counts, and a line from each person affected; Gloria and the
  pilot proposal say what claims_cost_fortnight is made of.
- Three rounds of players took manual 7.1's "not permitted" at its word and never asked Compliance:
  the manual, the proposal, the changelog and Gloria now point at Compliance as the one who grants
  straight-through authority (never saying whether, or up to what amount).
- The sandbox's clock is the real date, not the customer's: nothing in the customer's code reads the
  machine clock, and its README says dates come from the FNOL.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from fdegym_env.core.registry import load_task
from fdegym_env.core.workspace import world_snapshot
from fdegym_env.grading.grade import apply_solution, run_trial
from tests.tasks.people_of import people_of

TASK = load_task("claims_fasttrack")

# --- 1. Marcus on what SIU wants referred ---------------------------------------------------------

REFERRAL_ASKS = [
    # the playtest's message, reconstructed
    "Marcus - a question from SIU's side on the FNOL-to-SIU referral rule in my intake change. It refers a new "
    "FNOL to SIU when a photo hash (app photos or the snapclaim images) hits siu_flags, or when two or more of its "
    "damage photos already sit on an earlier claim under a different policy at a Crestline / Delta Precision / "
    "River City shop (EIN 68-0491177); same policy and same loss date goes to the desk to be merged. On the shadow "
    "day it sent 3 claims to SIU. Is that rule right from SIU's side - are those the claims SIU wants referred, "
    "and are the current referrals what you want?",
    "Is my referral rule right from SIU's side?",
    "Which claims does SIU want intake to refer, and which not? Looking at the referral sheet.",
    "The trial sent 3 referrals to SIU - are those the ones you'd want, or is intake referring the wrong claims?",
    "Quick check before go-live: from SIU's point of view, should intake refer only flag-table hits and "
    "reused-photo copies on a different policy, or more than that?",
]


@pytest.mark.parametrize("variant", ["base", "sample:5135", "ring_vin", "siu_handover", "sample:0"])
@pytest.mark.parametrize("message", REFERRAL_ASKS, ids=range(len(REFERRAL_ASKS)))
def test_marcus_says_what_siu_wants_referred(variant, message):
    params = TASK.variant(variant).params
    r = people_of("claims_fasttrack", variant).contact("marcus_lindqvist", message)
    assert "referral_rule" in r.tags, (variant, r.tags, r.reply)
    text = r.reply
    assert "The ring file is Renata's" not in text, text
    # what the grader rewards: flag hits and the ring's copies to SIU; doubles, two-car crashes and
    # whole shops not (each referral costs, an honest claimant waits)
    assert "siu_flags" in text and "different policy" in text, text
    assert "same loss date" in text and "two-car" in text and "240" in text, text
    assert ("last eight characters" in text) == (params["ring_key"] == "vin"), text
    assert ("damage photos that already sit" in text) == (params["ring_key"] == "photo"), text
    # the ring file itself (which shops) stays with whoever holds it
    if params["siu_holder"] == "renata_okafor":
        assert "that's Renata's" in text, text
    else:
        assert "mine since January" in text and "Renata" in text, text
    if "ring_current" not in r.tags:          # the referral answer alone names no shop: that is the ring file
        for shop in ("Crestline", "Northgate", "68-0"):
            assert shop not in text, text


@pytest.mark.parametrize("variant", ["base", "siu_handover", "sample:5135"])
def test_marcus_still_answers_the_ring_and_the_flags_on_their_own(variant):
    r = people_of("claims_fasttrack", variant).contact(
        "marcus_lindqvist", "Looking at siu_referrals_2026.csv, which shops is the ring filing through now?")
    assert r.tags == ["ring_current"], (r.tags, r.reply)
    r = people_of("claims_fasttrack", variant).contact("marcus_lindqvist", "How is the flag table loaded?")
    assert r.tags == ["flag_loads"], (r.tags, r.reply)


# --- 2. the trial day speaks the metric, and the people it lands on -------------------------------

ALL_TO_SIU = '''def triage_batch(fnols):
    return [{"claim_id": f["claim_id"], "queue": "siu", "reason": "everything to SIU"} for f in fnols]
'''


def _trial(tmp_path: Path, variant: str, solution: str | None) -> str:
    var = TASK.variant(variant)
    ws = tmp_path / "ws"
    shutil.copytree(world_snapshot(TASK, var), ws, symlinks=True)
    if solution == "all_to_siu":
        (ws / "system" / "claimdesk" / "intake.py").write_text(ALL_TO_SIU, encoding="utf-8")
    elif solution:
        apply_solution(TASK, solution, ws, var.params)
    return run_trial(TASK, var, ws, 1, "none")["feedback"]


_USD = r"([\d,]+) USD"


@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize("variant", ["base", "sample:5135"])
@pytest.mark.parametrize("solution", [None, "literal", "reference", "all_to_siu"])
def test_trial_day_gives_the_days_cost_in_the_metrics_parts(tmp_path, variant, solution):
    text = _trial(tmp_path, variant, solution)
    line = next(s for s in text.split("\n") if s.startswith("Claims Ops pilot scorecard"))
    assert "claims_cost_fortnight" in line, line
    m = re.search(rf"rental {_USD} \((\d+) rental-days at 42 USD; (\d+) of (\d+) claimants", line)
    s = re.search(rf"SIU referrals {_USD} \((\d+) x 240\)", line)
    a = re.search(rf"field appraisals {_USD} \((\d+) x 185\)", line)
    leak = re.search(rf"paid but not owed {_USD}", line)
    total = re.search(rf"- {_USD} in all", line)
    assert m and s and a and leak and total, line
    num = lambda x: int(x.replace(",", ""))  # noqa: E731
    assert abs(num(m[1]) - 42 * int(m[2])) <= 1 and num(s[1]) == 240 * int(s[2]) and num(a[1]) == 185 * int(a[2]), line
    assert abs(num(total[1]) - (num(m[1]) + num(s[1]) + num(a[1]) + num(leak[1]))) <= 3, line
    # the people the day's files land on, in their own terms
    assert re.search(r"^Gloria: .*days on average from first notice to payment", text, re.M), text
    if solution == "all_to_siu":
        assert re.search(r"^Renata: \d+ referral\(s\) in one day - [\d,]+ USD of investigator time; \d+ of them honest", text, re.M), text
    else:
        assert re.search(r"^Tom: \d+ of these land on the desk", text, re.M), text
    # never the rule: no shop, EIN, key or signature
    for word in ("Crestline", "Delta Precision", "Northgate", "68-0", "different policy", "same loss date", "EIN", "vin8"):
        assert word not in text, (word, text)


@pytest.mark.filterwarnings("ignore")
def test_trial_day_with_everything_on_the_desk_shows_what_waiting_costs(tmp_path):
    text = _trial(tmp_path, "base", None)
    assert "nothing paid straight through" in text and "the plan says 7" in text, text
    assert re.search(r"^Marcus: \d+ on the desk's list looks? like ours", text, re.M), text


SCORECARD_ASKS = [
    "The brief says the customer judges this work by claims_cost_fortnight. Gloria, what goes into that number - "
    "which costs, in what units?",
    "What is claims_cost_fortnight made of?",
    "How is the pilot going to be scored - only cycle time, or do SIU referrals and appraisals count as well?",
    "Hi Gloria - before I decide how much to send to SIU versus fast track, I need to understand the trade-off in "
    "your numbers. Does an SIU referral or a field appraisal cost us anything in the measure you'll be judged on, "
    "and does leakage count?",
]


@pytest.mark.parametrize("variant", ["base", "sample:5135", "authority_1500"])
@pytest.mark.parametrize("message", SCORECARD_ASKS, ids=range(len(SCORECARD_ASKS)))
def test_gloria_says_what_the_metric_is_made_of(variant, message):
    r = people_of("claims_fasttrack", variant).contact("gloria_estrada", message)
    assert r.tags == ["scorecard"], (r.tags, r.reply)
    for part in ("claims_cost_fortnight", "leakage", "42 dollars a day", "240", "185", "lower is better"):
        assert part in r.reply, (part, r.reply)


def test_gloria_keeps_her_cycle_time_answer():
    for q in ("What does the cycle time look like today?", "What number are you judged on - median days to payment?",
              "What does a rental day cost?"):
        r = people_of("claims_fasttrack").contact("gloria_estrada", q)
        assert r.tags == ["cycle_time"], (q, r.tags)


@pytest.mark.parametrize("variant", ["base", "sample:5135"])
def test_the_proposal_states_the_metrics_parts_and_units(variant):
    text = (world_snapshot(TASK, TASK.variant(variant)) / "docs" / "fast_track_pilot_proposal.md").read_text(encoding="utf-8")
    assert "`claims_cost_fortnight`" in text and "USD per fortnight" in text and "lower is better" in text, text
    for part in ("leakage (money paid that was not owed)", "42 USD per claimant-day", "240 USD", "185 USD"):
        assert part in text, part


# --- 3. a clear pointer to Compliance, never the answer -------------------------------------------

@pytest.mark.parametrize("variant", ["base", "authority_1500", "treaty_march", "sample:5135"])
def test_the_manual_the_proposal_and_the_changelog_send_the_authority_question_to_compliance(variant):
    ws = world_snapshot(TASK, TASK.variant(variant))
    manual = (ws / "docs" / "claims_handling_manual_excerpt.md").read_text(encoding="utf-8")
    section = manual.split("## 7.1", 1)[1]
    assert "Exceptions to this section" in section and "granted and recorded by Compliance" in section, section
    assert "A. Park" in section, section
    proposal = (ws / "docs" / "fast_track_pilot_proposal.md").read_text(encoding="utf-8")
    assert "Compliance grants and records any straight-through authority" in proposal, proposal
    changelog = (ws / "system" / "CHANGELOG.md").read_text(encoding="utf-8")
    assert "A. Park's to confirm" in changelog, changelog
    # the pointer never says the answer: no limit in the notes
    for text in (section, proposal.split("Aileen P.", 1)[1], changelog.split("A. Park's", 1)[1].split("\n", 1)[0]):
        assert not re.search(r"1,?[25]00|2,?000", text), text


@pytest.mark.parametrize("variant", ["base", "authority_1500", "sample:5135"])
def test_gloria_says_the_limit_is_aileens_when_she_signs_off(variant):
    r = people_of("claims_fasttrack", variant).contact(
        "gloria_estrada", "Do I have your go-ahead for a different scope from what you asked, as long as cycle time comes down?")
    assert r.tags == ["signoff"], (r.tags, r.reply)
    assert "Aileen keeps the authority matrix" in r.reply, r.reply


EXCEPTION_ASKS = [
    "Manual 7.1 says straight-through payment is not permitted, and the note under it says Compliance grants "
    "exceptions. Can you grant one for the fast-track pilot, and up to what amount?",
    "Can Compliance grant an exception to manual 7.1 for fast track?",
    "Is there an exception to the 2023 authority matrix for straight-through payment of small claims?",
]


@pytest.mark.parametrize("variant", ["base", "treaty_march", "sample:5135"])
@pytest.mark.parametrize("message", EXCEPTION_ASKS, ids=range(len(EXCEPTION_ASKS)))
def test_aileen_answers_the_exception_question_with_the_authority(variant, message):
    eng = people_of("claims_fasttrack", variant)
    eng.wait(24)                                   # back from the DOI hearing
    r = eng.contact("aileen_park", message)
    assert r.tags == ["authority"], (r.tags, r.reply)
    assert "7.1" in r.reply, r.reply


# --- 4. dates come from the FNOL, not the machine clock -------------------------------------------

CLOCK = re.compile(r"\b(date|datetime)\.(today|now|utcnow)\(|\btime\.time\(")


def test_the_customers_code_never_reads_the_machine_clock_and_the_readme_says_so():
    ws = world_snapshot(TASK, TASK.variant("base"))
    code = list((ws / "system").rglob("*.py")) + list((TASK.path / "solutions" / "menu").rglob("*.py"))
    assert code
    for path in code:
        assert not CLOCK.search(path.read_text(encoding="utf-8")), path
    readme = (ws / "system" / "README.md").read_text(encoding="utf-8")
    dates = readme.split("## Dates", 1)[1].split("\n## ", 1)[0]
    assert "`fnol_date`" in dates and "never from the" in dates and "machine clock" in dates, dates
