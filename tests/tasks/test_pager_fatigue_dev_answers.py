"""pager_fatigue, from the round-9 playtest (sample:4665): Dev's first reply to a question about the
batch window - his own area - was "Come back once you've got her answer" (Compliance's). His
batch-window and replica topics were gated on the contract fact, so a factual question in his area was
held back until the agent had paid Aisling. What the replicas do and when lag is expected is his to
say whoever has been asked before; his caution about quietening alerts stays in what he says."""

from __future__ import annotations

import pytest

from tests.tasks.people_of import people_of

VARIANTS = ["base", "sample:4665", "sample:2", "sample:0"]   # Dev is not yet on leave at the start

BATCH_WINDOW = [
    # the playtest's first message to Dev, as the brief gives it: a question about the batch window
    "Hi Dev - I'm working on OPS-1240 (pager noise). PgReplicationLagHigh on pg-ledger-replica-01 and -02 "
    "pages most nights in the small hours, and the pg-replication runbook says lag is expected during the "
    "settlement batch, 00:00-02:00 UTC. The pages I see run later than that. What is the batch window "
    "these days, in UK time, and is lag inside it expected?",
    "When does the overnight ledger batch run now, and is replica lag during it benign?",
    "Is the 00:00-02:00 UTC batch window in the pg runbook still right?",
    "Quick one: which hours is replication lag on the ledger replicas expected, and does that move with "
    "the clocks?",
    "I'm tuning alert routing. The pager log shows PgReplicationLagHigh firing between 01:00 and 03:30 "
    "UK time most nights while the settlement batch runs. Before I decide anything: when exactly are "
    "the batch windows, and outside them is the lag real?",
]
REPLICAS = [
    "Who reads from the ledger replicas, and which consumer is on which one?",
    "If replica-01 lags outside the batch, how bad is it - does the STIP balance cache read stale data?",
    "Which replica matters more when it falls behind, 01 or 02?",
]


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("msg", BATCH_WINDOW, ids=lambda m: m[:40])
def test_dev_answers_the_batch_window_before_compliance_is_asked(variant, msg):
    eng = people_of("pager_fatigue", variant)
    r = eng.contact("dev_raghunathan", msg)
    assert r.tags == ["batch_lag"], (r.tags, r.reply)
    assert "F_batch_windows" in r.facts
    assert "Come back" not in r.reply and "Aisling" in r.reply       # his caution is said, not a gate


@pytest.mark.parametrize("variant", ["base", "sample:4665"])
@pytest.mark.parametrize("msg", REPLICAS, ids=lambda m: m[:40])
def test_dev_says_what_reads_the_replicas_before_compliance_is_asked(variant, msg):
    eng = people_of("pager_fatigue", variant)
    r = eng.contact("dev_raghunathan", msg)
    assert r.tags == ["replica_use"], (r.tags, r.reply)
    assert "STIP" in r.reply
