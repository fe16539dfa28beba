"""claims_fasttrack, from an L3 playtest (sample:3253, seed 37):

- Jorge, who wrote intake and whose own changelog says he took the flag lookup out because it took
  4 s a claim "on the old db server" ("TODO put back once db moved?"), was asked whether claims.db is
  still on that server or per-FNOL lookups at intake are fast now, and said "I don't have that
  detail to hand - Marcus would have it". It is his: claims.db is a local sqlite file now, a lookup
  is sub-millisecond, and ClaimCenter allows triage_batch 20 seconds to answer.
- Marcus, asked the same database question, replied "As I said: <the ring rule>": any message to
  him that mentioned the flag table met his ring topic's evidence gate, and quoted evidence picks
  the gated topic whatever it scores, when no topic is picked outright. His flag-loading answer now
  takes the question (the flag table and the nightly extract are his) and says where claims.db sits
  and how fast intake can query it is Jorge's side, not SIU's; when a flag reaches the extract is his.
- claims.db noted "under ded, closed no pay" on claims with status PAID and a paid amount, and
  "two-car, see linked claim" on claims that had no two-car partner: notes now agree with the file.
"""

from __future__ import annotations

import sqlite3

import pytest

from fdegym_env.core.registry import load_task
from fdegym_env.core.workspace import world_snapshot
from tests.tasks.people_of import people_of

TASK = load_task("claims_fasttrack")
VARIANTS = ["base", "sample:3253"]

# --- 1. Jorge on where claims.db lives and how fast a lookup is -------------------------------------

DB_SPEED_ASKS = [
    # the playtest's message
    "Jorge - engineer working on intake with Gloria. I'm putting SIU screening back into triage_batch: per FNOL, "
    "a lookup of its photo hashes/VIN tail in siu_flags and of its photo hashes in claims.db photos (indexed on "
    "sha1), plus a small sqlite file intake keeps in data/ of FNOLs seen since the nightly load. Your 2025-09 "
    "changelog says you took the flag lookup out because it was 4s/claim on the old db server. Against the local "
    "data/claims.db it runs ~0.3 ms per FNOL here. In production, is claims.db still on that slow server, or is it "
    "the local file now - i.e. is it safe for intake to query it per FNOL, including a post-outage backlog batch?",
    "Is claims.db still on the slow db server?",
    "Has the database moved since you pulled the flag lookup? Can intake afford a query per claim now?",
    "The changelog's TODO says to put the flag-table lookup back once the db moved. Did it move, and how fast is "
    "a lookup against claims.db in production these days?",
    "Before I ship: I'm adding two sqlite lookups per FNOL in triage_batch (siu_flags and the photos table). "
    "After an outage the whole backlog arrives in one batch. Will that be quick enough in production, or is the "
    "database still slow like it was last September?",
]


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("message", DB_SPEED_ASKS, ids=range(len(DB_SPEED_ASKS)))
def test_jorge_says_where_claims_db_lives_and_how_fast_it_is(variant, message):
    r = people_of("claims_fasttrack", variant).contact("jorge_castellanos", message)
    assert r.tags == ["claims_db_speed"], (variant, r.tags, r.reply)
    assert "sqlite file" in r.reply and "under a millisecond" in r.reply and "20 seconds" in r.reply, r.reply
    assert "Marcus" not in r.reply, r.reply


@pytest.mark.parametrize("message", ["How is triage_batch called?", "How often does the FNOL job call intake?",
                                     "How big are the batches?", "Can I keep state between runs?"])
def test_jorge_intake_questions_still_get_the_intake_answer(message):
    r = people_of("claims_fasttrack").contact("jorge_castellanos", message)
    assert r.tags == ["intake_code"], (r.tags, r.reply)


# --- 2. Marcus: the database question is not his ring answer ----------------------------------------

MARCUS_FIRST = (
    "Hi Marcus - I'm changing ClaimDesk intake (the FNOL router). I plan to check each new FNOL at intake, before "
    "any fast-track payment, against (a) siu_flags (photo hashes + VIN tail) and (b) photo hashes already on another "
    "claim in claims.db with a different policy and a different loss date, and send those to the siu queue. Same "
    "policy + same loss date I'd treat as a duplicate report (desk, not SIU), and different policy + same loss date "
    "as a legit two-car loss (desk). Does that match how you tell ring reuse from dups/two-car? And is the siu_flags "
    "table current (how often do you load it)?")

MARCUS_DB_ASKS = [
    # the playtest's message
    "Quick one, Marcus - Jorge says you'd know: the claims.db that intake reads (nightly extract incl. siu_flags) - "
    "is it still on the old slow db server where a flag lookup took ~4s per claim, or has it moved so per-FNOL "
    "lookups at intake are fast now?",
    "Is the flag table still on the slow database server?",
    "Marcus, would a siu_flags lookup per FNOL at intake be fast enough now, or is the db server still slow?",
    "The changelog says the flag lookup came out of intake because the old db server took 4 seconds a claim. "
    "Has claims.db moved since, so intake can check the flag table on every claim?",
]


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("message", MARCUS_DB_ASKS, ids=range(len(MARCUS_DB_ASKS)))
def test_marcus_does_not_answer_the_db_question_with_the_ring(variant, message):
    people = people_of("claims_fasttrack", variant)
    first = people.contact("marcus_lindqvist", MARCUS_FIRST)
    assert "ring_current" in first.tags, first.tags
    r = people.contact("marcus_lindqvist", message)
    assert not any(t.startswith("ring_current") for t in r.tags), (r.tags, r.reply)
    assert r.tags in (["flag_loads"], ["flag_loads:repeat"]), (r.tags, r.reply)
    assert "Delta" not in r.reply and "Jorge's side, not SIU's" in r.reply, r.reply
    fresh = people_of("claims_fasttrack", variant).contact("marcus_lindqvist", message)
    assert fresh.tags == ["flag_loads"] and "Jorge's side, not SIU's" in fresh.reply, (fresh.tags, fresh.reply)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("message", [
    "When you add a row to siu_flags, how soon does it show up in the claims.db extract?",
    "How often does siu_flags get refreshed in claims.db?",
    "How is the flag table loaded?",
])
def test_marcus_flag_loading_questions_get_the_flag_loads_answer(variant, message):
    r = people_of("claims_fasttrack", variant).contact("marcus_lindqvist", message)
    assert r.tags == ["flag_loads"], (r.tags, r.reply)


@pytest.mark.parametrize("variant", VARIANTS)
def test_marcus_ring_answer_still_needs_and_takes_evidence(variant):
    r = people_of("claims_fasttrack", variant).contact(
        "marcus_lindqvist", "For claim SVM-26-003391 on the referral sheet, what was the giveaway - the photo or the VIN?")
    assert r.tags == ["ring_current"], (r.tags, r.reply)
    r = people_of("claims_fasttrack", variant).contact("marcus_lindqvist", "What's the ring doing now?")
    assert r.tags == ["ring_current:gated"], (r.tags, r.reply)


# --- 3. claims.db notes agree with the file ---------------------------------------------------------

@pytest.mark.parametrize("variant", ["base", "sample:3253", "sample:0", "sample:5135", "ring_vin"])
def test_claims_db_notes_agree_with_status(variant):
    con = sqlite3.connect(world_snapshot(TASK, TASK.variant(variant)) / "system" / "data" / "claims.db")
    rows = con.execute("SELECT claim_id, status, paid_usd, note, loss_date FROM claims").fetchall()
    hashes: dict[str, set[str]] = {}
    for cid, sha in con.execute("SELECT claim_id, sha1 FROM photos"):
        hashes.setdefault(cid, set()).add(sha)
    loss = {cid: ld for cid, _s, _p, _n, ld in rows}
    paid = [(cid, p, n) for cid, st, p, n, _ld in rows if st == "PAID"]
    assert paid
    for cid, amount, note in paid:
        assert amount and amount > 0, (cid, amount)
        assert "no pay" not in note and "denied" not in note.lower() and "dup" not in note.lower(), (cid, note)
    for cid, _st, _p, note, ld in rows:
        if note.startswith("two-car"):
            partners = [o for o, hs in hashes.items()
                        if o != cid and loss.get(o) == ld and hs & hashes.get(cid, set())]
            assert partners, (cid, note)
    con.close()


@pytest.mark.parametrize("variant", ["base", "sample:6021", "sample:3"])
def test_marcus_says_which_shop_claims_not_to_refer(variant):
    """A playtest read Marcus's "Don't refer: every claim from a shop" literally (refer no shop's claims at all).
    He means the ring's shops: only their copies are SIU's, the rest of what comes through them is not."""
    from tests.tasks.people_of import people_of
    res = people_of("claims_fasttrack", variant).contact(
        "marcus_lindqvist", "Which new FNOLs should intake refer to SIU, and which should it not refer?")
    assert "referral_rule" in res.tags, res.tags
    assert "every claim from a shop" not in res.reply
    assert "one of the ring's shops - only its copies are ours" in res.reply, res.reply
