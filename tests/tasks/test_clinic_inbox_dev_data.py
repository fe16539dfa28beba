"""clinic_inbox dev export: a staff note never contradicts the message it is written on.

A note that names a template (T01-T05) or what was sent ("sent opening times") names the template for the
question the patient asked, and templates are pasted by the front desk, not by the pharmacist or the
nurses. Checked both on the generator (with each message's hidden truth) and on the export as the agent
reads it (note against subject and body)."""
from __future__ import annotations

import datetime as dt
import json
import random
import re

import pytest

from fdegym_env.core.registry import load_task
from fdegym_env.core.workspace import world_snapshot

TASK = load_task("clinic_inbox")
TRAFFIC = TASK.module("traffic")
CODE = {"opening": "T01", "address": "T02", "repeat_howto": "T03", "fees": "T04", "registration": "T05"}
SENT = {"sent opening times": "opening"}
# words of each admin question, as patients write them (the export's body and subject)
WORDS = {"opening": r"open|hours|close|easter|good friday|bank holiday|weekend",
         "address": r"address|moved|mobile|phone|number|details|records",
         "repeat_howto": r"online|app|repeat",
         "fees": r"charge|fee|how much|cost|form|letter|insurance",
         "registration": r"regist"}
VARIANTS = ["base", "saturday_hub", "sample:6620", "sample:5"]


def _codes(note: str) -> set[str]:
    return set(re.findall(r"\bT0[1-5]\b", note))


@pytest.mark.parametrize("variant", VARIANTS)
def test_generated_notes_name_the_template_for_the_question_asked(variant):
    params = dict(TASK.variant(variant).params)
    rng = random.Random(17)
    seen = 0
    for d in range(10):
        for item in TRAFFIC.gen_day(rng, params, dt.date(2026, 2, 16) + dt.timedelta(days=d)):
            t = item["truth"]
            if "faq" not in t or t["kind"] == "red_flag":
                continue
            for _ in range(6):                      # several draws of the note for the same message
                note = TRAFFIC._note(rng, t["kind"], "front_desk", t, item["msg"])
                assert _codes(note) <= {CODE[t["faq"]]}, (t, note)
                if "sent opening times" in note:
                    assert t["faq"] == "opening", (t, note)
                if _codes(note):
                    assert not {"HQ", "NB"} & set(re.findall(r"\b[A-Z]{2}\b", note.replace("rx to HQ", ""))), (t, note)
                    seen += 1
    assert seen > 20


@pytest.mark.parametrize("variant", VARIANTS)
def test_export_notes_agree_with_the_messages_they_are_on(variant):
    export = world_snapshot(TASK, TASK.variant(variant)) / "data" / "portal_messages_2026-02-16_to_22.jsonl"
    rows = [json.loads(line) for line in export.read_text(encoding="utf-8").splitlines()]
    checked = 0
    for r in rows:
        note = r.get("staff_note") or ""
        text = f"{r.get('subject') or ''} {r.get('body') or ''}".lower()
        named = [faq for faq, code in CODE.items() if code in _codes(note)]
        named += [faq for phrase, faq in SENT.items() if phrase in note]
        for faq in named:
            assert re.search(WORDS[faq], text), (r["id"], note, text[:160])
            checked += 1
        if _codes(note) and r.get("category") in ("Admin query", "Other") and not r.get("items"):
            who = re.findall(r"\b[A-Z]{2}\b", note.replace("rx to HQ", ""))
            assert not {"HQ", "NB"} & set(who), (r["id"], note)
    assert checked > 10
