"""pager_fatigue: a late page is reported from the incident's first alert, never as something production
did: a playtest read "production caught the 3DS ACS challenge failures at 18:13 straight away" against a
pager log where production paged 3DS only at its first critical, minutes later."""

from __future__ import annotations

from fdegym_env.core.registry import load_task
from tests.tasks.people_of import people_of

TASK = load_task("pager_fatigue")


class _Canned:
    """A router that suppresses an incident's first alert and pages the second, eight minutes on."""

    def __init__(self, acts):
        self.task, self.acts = TASK, acts

    def call(self, module, function, batch, timeout_s=None):
        return type("R", (), {"ok": True, "error": None, "value": {
            "decisions": [{"id": e["id"], "action": self.acts.get(e["id"], "page")} for e in batch["events"]]}})()


def test_a_late_page_is_counted_from_the_first_alert_and_claims_nothing_of_production():
    events = [{"id": "e1", "ts": "2026-03-03T18:13:00Z", "alert": "ThreeDSAcsErrorRate", "instance": "acs-1",
               "service": "3ds-acs"},
              {"id": "e2", "ts": "2026-03-03T18:21:00Z", "alert": "ThreeDSAcsErrorRate", "instance": "acs-1",
               "service": "3ds-acs"}]
    traffic = {"days": [{"batch": {"shift_start": "2026-03-03T18:00:00Z", "events": events},
                         "truth": {"e1": "INC-1", "e2": "INC-1"}}],
               "incidents": {"INC-1": {"start": "2026-03-03T18:13:00Z", "sev": "sev2", "alert": "ThreeDSAcsErrorRate",
                                       "instance": "acs-1", "summary": "3DS ACS challenge failures", "kind": "real"}},
               "contract_alerts": []}
    text = TASK.module("trial").run(_Canned({"e1": "suppress"}), dict(TASK.variant("base").params), 1,
                                    traffic)["feedback"]
    line = next(s for s in text.splitlines() if "3DS ACS challenge failures" in s)
    assert "production" not in line and "straight away" not in line, line
    assert "began at 18:13 UK time with its first alert" in line and "8 minutes later, at 18:21" in line, line


def test_aislings_recap_names_the_alerts_the_contract_covers():
    """sample:26: asked whether ThreeDSAcsErrorRate is covered like the card-auth alerts, after her clause 4.3
    answer, she recapped "the contract-bound alerts always page" without saying which they are."""
    for variant, covered in (("sample:26", False), ("sample:5258", True)):
        eng = people_of("pager_fatigue", variant)
        eng.contact("aisling_brennan", "What does Schedule 4 clause 4.3 of the Dunmore Bank MSA require of the "
                    "card-auth alerts CardAuthLatencyP99High and CardAuthErrorRate?")
        r = eng.contact("aisling_brennan", "Is ThreeDSAcsErrorRate covered by Schedule 4 like clause 4.3 covers the "
                        "two card-auth alerts, i.e. must it page at its first alert?")
        assert "CardAuthErrorRate" in r.reply and ("ThreeDSAcsErrorRate" in r.reply) == covered, (variant, r.reply)
