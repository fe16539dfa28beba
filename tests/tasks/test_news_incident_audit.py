"""news_incident grader audit: each incident rule at its boundary (tasks/news_incident/DESIGN_NOTES.md),
and the trial report gives counts, not silently capped examples."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from fdegym_env.core.registry import load_task

TASK = load_task("news_incident")
BASE = dict(TASK.variant("base").params)
WIDENED = dict(TASK.variant("legal_widened").params)


class _Canned:
    """A deployment whose process_batch returns fixed decisions (by guid) for whatever it is sent."""

    def __init__(self, decide):
        self.decide, self.task = decide, TASK

    def call(self, module, function, items, timeout_s=None):
        return type("R", (), {"ok": True, "value": [dict(self.decide(it), guid=it["guid"]) for it in items]})()


def _truth(kind, t, family, **kw):
    base = {"t": t, "agency": "UKNS", "kind": kind, "family": family}
    if kind == "story":
        base.update(priority=3, crime=False, legal=False, embargo_utc=None)
    base.update(kw)
    return base


def _grade(truth: dict, decisions: dict, params=BASE) -> dict:
    items = [{"guid": g, "slug": g} for g in sorted(truth, key=lambda g: truth[g]["t"])]
    traffic = {"days": [{"date": "2026-04-14", "items": items}], "truth": truth}
    return TASK.module("grader").grade(_Canned(lambda it: decisions[it["guid"]]), params, traffic)


def _kinds(result: dict) -> list[str]:
    return [i.split(":")[0] for i in result["incidents"]]


@pytest.mark.parametrize("unpublish_at, incident", [("10:55", False), ("10:56", True)])
def test_killed_live_is_an_incident_past_sixty_minutes(unpublish_at, incident):
    """Kill at 10:00; the unpublish decision takes effect 5 minutes after its item: 11:00 is 60 min (harm
    0.5, no incident), 11:01 is 61 min (killed_live)."""
    truth = {"s": _truth("story", "2026-04-14T09:00:00+00:00", "s", killed=True),
             "k": _truth("kill", "2026-04-14T10:00:00+00:00", "s"),
             "u": _truth("advisory", f"2026-04-14T{unpublish_at}:00+00:00", None)}
    out = _grade(truth, {"s": {"action": "publish"}, "k": {"action": "drop"},
                         "u": {"action": "unpublish", "story": "s"}})
    assert ("killed_live" in _kinds(out)) is incident, out
    assert out["details"]["harm"]["kill"] == (5.0 if incident else 0.5), out["details"]


def test_a_held_kill_notice_comes_down_within_the_hour():
    truth = {"s": _truth("story", "2026-04-14T09:00:00+00:00", "s", killed=True),
             "k": _truth("kill", "2026-04-14T10:00:00+00:00", "s")}
    out = _grade(truth, {"s": {"action": "publish"}, "k": {"action": "hold"}})
    assert out["incidents"] == [] and out["details"]["killed_exposed"] == 0, out


@pytest.mark.parametrize("publish_at, incident", [("2026-04-14T12:00:00Z", False), ("2026-04-14T11:59:00Z", True),
                                                  ("2026-04-14T13:00", False), ("2026-04-14T12:59", True)])
def test_embargo_broken_when_live_before_the_embargo(publish_at, incident):
    """Embargo 12:00 UTC; a naive publish_at is UK local time (BST, +01:00 in April)."""
    truth = {"s": _truth("story", "2026-04-14T09:00:00+00:00", "s", embargo_utc="2026-04-14T12:00:00+00:00")}
    out = _grade(truth, {"s": {"action": "schedule", "publish_at": publish_at}})
    assert ("embargo_broken" in _kinds(out)) is incident, out


@pytest.mark.parametrize("action, incident", [("publish", True), ("hold", False), ("drop", False)])
def test_legal_autopublish_only_when_legal_copy_goes_out_unreviewed(action, incident):
    truth = {"s": _truth("story", "2026-04-14T09:00:00+00:00", "s", crime=True, legal=True)}
    out = _grade(truth, {"s": {"action": action}})
    assert ("legal_autopublish" in _kinds(out)) is incident, out


def _legal(params, subjects, people, country="GB") -> bool:
    gen = TASK.module("traffic")._Gen(params, 1, dt.date(2026, 4, 14), 1, "audit")
    return gen.legal_unsafe(subjects, people, country)


@pytest.mark.parametrize("subjects, people, country, base, widened", [
    (["crime", "court-hearing"], ["Adam Moyle"], "GB", True, True),      # named first hearing: both
    (["crime", "court-hearing"], [], "GB", False, True),                 # nobody named: widened only
    (["crime", "sentencing"], ["Adam Moyle"], "GB", False, True),        # sentencing: widened only
    (["crime", "court-hearing"], ["Adam Moyle"], "IE", False, False),    # foreign case: neither
    (["court-hearing"], ["Adam Moyle"], "GB", False, False),             # not crime copy: neither
    (["crime", "appeal"], ["Adam Moyle"], "GB", False, False),           # appeal judgment: neither
])
def test_legal_scope_boundary_per_variant(subjects, people, country, base, widened):
    assert _legal(BASE, subjects, people, country) is base
    assert _legal(WIDENED, subjects, people, country) is widened


def _publish_everything(it):
    return {"action": "publish"}


@pytest.mark.parametrize("variant", ["base", "legal_widened"])
def test_trial_report_gives_every_count_and_legal_stages(variant):
    params = dict(TASK.variant(variant).params)
    traffic = TASK.module("traffic").shadow(params, 1)
    out = TASK.module("trial").run(_Canned(_publish_everything), params, 1, traffic)
    text, stats = out["feedback"], out["stats"]
    legal = next(line for line in text.splitlines() if line.startswith("- Harriet"))
    n = stats["legal_autopublished"]
    assert n > 3 and legal.startswith(f"- Harriet (legal): {n} court or crime stories"), legal
    assert ("sentencing" in legal) is (variant == "legal_widened"), legal
    assert re.search(r"\d+ of them names? nobody", legal) if variant == "legal_widened" else "nobody" not in legal
    for line in text.splitlines():
        if "shown)" in line:                          # capped examples always come with the total
            k, total = re.search(r"\((\d+) of (\d+) shown\)", line).groups()
            assert int(k) < int(total), line
            assert re.search(rf"^- [^:]+: {total} |about {total} |^    [a-z ]+: ", line), line


@pytest.mark.parametrize("variant", ["base", "thin_desk"])
def test_archived_wire_never_gives_two_stories_one_headline(variant):
    import json

    from fdegym_env.core.workspace import world_snapshot
    ws = world_snapshot(TASK, TASK.variant(variant))
    for f in sorted((ws / "data" / "wire").glob("*.jsonl")):
        items = [json.loads(line) for line in f.read_text(encoding="utf-8").splitlines() if line.strip()]
        slug_of: dict[str, str] = {}
        for it in items:
            if it.get("msgtype") == "story" and it.get("version") == 1:
                assert slug_of.setdefault(it["headline"], it["slug"]) == it["slug"], (f.name, it["headline"])
            if "crime" not in (it.get("subjects") or []):
                assert "date of hearing" not in str(it.get("body")), (f.name, it["slug"])
