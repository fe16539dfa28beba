"""clinic_inbox: what the documents and the people say agrees with what the grader applies.

- Opening hours: the March rota states the grader's hours (its opening windows, day by day); the
  website FAQ states the core weekday hours, and anything the grader adds to them is a 2026 session the
  rota dates after the FAQ's export; the portal config's 18:00 is named on the rota as the stale 2021
  setting.
- Pharmacy desk: the rota carries the grader's daily capacity (`pharm_cap`), the figure Hamza gives.
- Out-of-hours wording: where the policy folder's copy is the text the grader checks, it is marked
  current and Kerry sends the agent to it; where it is another text, Kerry quotes the graded one word
  for word and the folder marks its copy superseded on the date Kerry gives, no later than the
  episode's start.
"""
from __future__ import annotations

import datetime as dt
import json
import re

import pytest

from fdegym_env.core.registry import load_task
from fdegym_env.core.workspace import world_snapshot
from fdegym_env.people.engine import People
from fdegym_env.people.routers import make_router

TASK = load_task("clinic_inbox")
G = TASK.module("grader")
NAMED = list(TASK.variants)
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
KEYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
WEEK = dt.date(2026, 3, 9)      # a Monday; no bank holiday that week


def _samples(axis: str, k: int = 4) -> list[str]:
    out = [f"sample:{n}" for n in range(1, 80) if axis in (TASK.variant(f"sample:{n}").angle or "").split("+")]
    return out[:k]


def _doc(variant: str, rel: str) -> str:
    return (world_snapshot(TASK, TASK.variant(variant)) / rel).read_text(encoding="utf-8")


def _grader_week(params: dict) -> dict:
    """weekday key -> (open, close) as the grader's opening windows have it, or None when closed."""
    out = dict.fromkeys(KEYS)
    for a, b in G.windows(params, WEEK, 7):
        out[KEYS[a.weekday()]] = (f"{a:%H:%M}", f"{b:%H:%M}")
    return out


def _rota_week(rota: str) -> dict:
    """The 'Opening hours:' line of the rota, read as a reader would: core weekdays, then later closes,
    earlier opens and a Saturday session."""
    line = next(x for x in rota.splitlines() if x.startswith("Opening hours:"))
    day = "(?:" + "|".join(DAYS) + ")"
    core = re.search(r"Monday(?: to |-)Friday (\d\d:\d\d)-(\d\d:\d\d)", line)
    assert core, line
    week = {k: [core.group(1), core.group(2)] if k not in ("sat", "sun") else None for k in KEYS}
    for m in re.finditer(rf"({day}(?:(?:, | and ){day})*) until (\d\d:\d\d)", line):
        for d in re.findall(day, m.group(1)):
            week[KEYS[DAYS.index(d)]][1] = m.group(2)
    for m in re.finditer(rf"({day}) from (\d\d:\d\d)", line):
        week[KEYS[DAYS.index(m.group(1))]][0] = m.group(2)
    for m in re.finditer(rf"({day}) (\d\d:\d\d)-(\d\d:\d\d)", line):
        if m.group(1) != "Friday":
            week[KEYS[DAYS.index(m.group(1))]] = [m.group(2), m.group(3)]
    return {k: tuple(v) if v else None for k, v in week.items()}


HOURS_VARIANTS = NAMED + _samples("hours") + ["sample:2288"]


@pytest.mark.parametrize("variant", HOURS_VARIANTS)
def test_the_rota_states_the_hours_the_grader_applies(variant):
    params = TASK.variant(variant).params
    assert _rota_week(_doc(variant, "docs/rota/portal_cover_rota_2026-03.md")) == _grader_week(params)


@pytest.mark.parametrize("variant", HOURS_VARIANTS)
def test_the_faq_and_the_config_agree_with_the_rota_or_are_explained_there(variant):
    params = TASK.variant(variant).params
    rota = _doc(variant, "docs/rota/portal_cover_rota_2026-03.md")
    flat = " ".join(rota.split())
    graded = _grader_week(params)
    # the FAQ: core weekday hours, the same as the rota's core
    faq = _doc(variant, "docs/website_faq.md")
    m = re.search(r"open Monday to Friday, (\d{1,2})(?::(\d\d))?am to (\d{1,2})(?::(\d\d))?pm", faq)
    assert m, "the FAQ states no weekday hours"
    faq_core = (f"{int(m.group(1)):02d}:{m.group(2) or '00'}", f"{int(m.group(3)) + 12:02d}:{m.group(4) or '00'}")
    assert f"Weekday core hours have been {faq_core[0]}-{faq_core[1]}" in flat
    extra = {k: v for k, v in graded.items() if v != (faq_core if k not in ("sat", "sun") else None)}
    if extra:   # sessions beyond the FAQ are the 2026 enhanced access, dated on the rota after the export
        export = dt.date.fromisoformat(re.search(r"exported from the website CMS (\d{4}-\d\d-\d\d)", faq).group(1))
        since = re.search(r"From (\d{1,2} \w+ 2026)", flat)
        assert since and dt.datetime.strptime(since.group(1), "%d %B %Y").date() > export, flat
    # the portal config: its own hours, named on the rota as the stale setting
    cfg = json.loads(_doc(variant, "system/config/practice.json"))
    cfg_close = cfg["opening_hours"]["mon"][1]
    assert cfg_close != graded["mon"][1]
    assert re.search(rf"The {cfg_close} close in the portal's config \(system/config/practice.json\) is the "
                     rf"{cfg['_updated'][:4]} setting", flat), flat
    # and the grader counts the minutes between the config's close and the real one as open
    mon = dt.datetime.combine(WEEK, dt.time.fromisoformat(cfg_close)) + dt.timedelta(minutes=15)
    assert G.is_open(G.windows(params, WEEK, 7), mon)


CAP_VARIANTS = list(dict.fromkeys(NAMED + _samples("capacity") + ["sample:2288", "sample:5"]))


@pytest.mark.parametrize("variant", CAP_VARIANTS)
def test_the_rota_carries_the_desk_capacity_the_grader_applies(variant):
    params = TASK.variant(variant).params
    flat = " ".join(_doc(variant, "docs/rota/portal_cover_rota_2026-03.md").split())
    m = re.search(r"Pharmacy desk capacity \(HQ's figure for March\):\*\* about (\d+) repeat requests a working "
                  r"day, counted by the day a request comes in - weekend requests land on Monday's pile", flat)
    assert m, flat
    assert int(m.group(1)) == int(params["pharm_cap"])
    assert re.search(rf"about {params['pharm_cap']} repeat requests a day", params["pharm_answer_hamza"], re.I)


def test_the_named_short_desk_variant_keeps_to_the_rota():
    """The rota has the technician (BR) on the desk all March, so the short desk is not her absence."""
    rota = _doc("pharmacy_short", "docs/rota/portal_cover_rota_2026-03.md")
    assert "HQ + BR" in rota
    answer = TASK.variant("pharmacy_short").params["pharm_answer_hamza"].lower()
    assert not re.search(r"maternity|on leave|no cover|just me", answer), answer


OOH_VARIANTS = NAMED + _samples("stale_doc", 6) + ["sample:2288"]


def _kerry_says(variant: str) -> str:
    spec = TASK.people_spec(TASK.variant(variant))
    p = People(spec, make_router("semantic", spec["people"]))
    r = p.contact("kerry_ashdown", "What's the approved wording of the out-of-hours safety-netting reply, word for "
                                   "word? Which version is current?")
    assert r.tags == ["ooh_reply"], r.reply
    return r.reply


@pytest.mark.parametrize("variant", OOH_VARIANTS)
def test_kerry_quotes_the_wording_the_grader_checks_and_the_folder_agrees(variant):
    params = TASK.variant(variant).params
    reply = _kerry_says(variant)
    doc = _doc(variant, "docs/policies/ooh_safety_netting.md")
    quoted = " ".join(x.strip()[1:].strip() for x in doc.splitlines() if x.strip().startswith(">"))
    if quoted == params["ooh_reply"]:   # Kerry quotes it or sends the reader to the folder's current copy
        assert params["ooh_reply"] in reply or ("v3 wording in docs/policies" in reply and "Version 3" in doc)
        assert "CURRENT" in doc and "SUPERSEDED" not in doc
        return
    # the folder's copy is not the graded text: Kerry gives that, and the folder says it is superseded,
    # on the date Kerry gives
    assert params["ooh_reply"] in reply
    assert "CURRENT" not in doc
    m = re.search(r"\*\*SUPERSEDED \(policy register, (\d{1,2} \w+ 2026)\):\*\* Clinical Governance approved "
                  r"v4 of this wording on \1", doc)
    assert m, doc
    assert "K. Ashdown" in doc and "v4" in reply and f"v4 on {m.group(1).replace(' 2026', '')}" in reply
    start = dt.datetime.fromisoformat(TASK.people_spec(TASK.variant(variant))["clock"]["start"]).date()
    assert dt.datetime.strptime(m.group(1), "%d %B %Y").date() <= start
    assert params["ooh_reply"] not in doc      # the text itself is Kerry's to give
