"""news_incident trial report: every kind of miss is counted as the grader counts it and its examples
are named by wire ID, with "(k of n shown)" when only some are; each trial day is its own day of
wire (its own date on the customer clock, no guid shared with another day)."""

from __future__ import annotations

import re

import pytest

from fdegym_env import FDEGymEnv
from fdegym_env.core.registry import load_task
from tests.tasks.trial_clock import trial_on_the_clock

TASK = load_task("news_incident")
VARIANTS = ["base", "legal_widened", "ukns_text_kills", "sample:5"]
GUID = re.compile(r"urn:ukns:\d{8}:\d{6}|tag:meridianwire\.com,\d{4}:newsml_L\d+X\d+|KNA/\d{6}/\d{4}-[A-H]\d")
SHOWN = re.compile(r"\((\d+) of (\d+) shown\)")


class _Canned:
    """A deployment whose process_batch returns ``decide(item)`` for each item it is sent."""

    def __init__(self, decide):
        self.decide, self.task = decide, TASK

    def call(self, module, function, items, timeout_s=None):
        return type("R", (), {"ok": True, "value": [dict(self.decide(it), guid=it["guid"]) for it in items]})()


def _publish_everything(truth):
    return lambda it: {"action": "publish"}


def _meddle(truth):
    """Publish stories and notices alike, write each correction over the day's first clean story and
    answer each kill by pulling that story: every kind of miss the desk reports."""
    clean = [g for g, t in sorted(truth.items(), key=lambda kv: kv[1]["t"])
             if t["kind"] == "story" and not t.get("killed") and not t.get("embargo_utc")][0]

    def decide(it):
        kind = truth[it["guid"]]["kind"]
        if kind == "version" and it["guid"] != clean:
            return {"action": "update", "story": clean}
        if kind == "kill":
            return {"action": "unpublish", "story": clean}
        return {"action": "publish"}
    return decide


def _trial(params, day, policy):
    traffic = TASK.module("traffic").shadow(params, day)
    graded = TASK.module("grader").grade(_Canned(policy(traffic["truth"])), params, traffic)
    out = TASK.module("trial").run(_Canned(policy(traffic["truth"])), params, day, traffic)
    return traffic, graded["details"], out["feedback"]


def _block(text: str, head: str) -> list[str]:
    """The report lines from the first one starting ``head`` through its indented sub-lines."""
    lines = text.splitlines()
    starts = [i for i, line in enumerate(lines) if line.startswith(head)]
    if not starts:
        return []
    i = starts[0]
    j = i + 1
    while j < len(lines) and lines[j].startswith("    "):
        j += 1
    return lines[i:j]


def _check_named(line: str, total: int, ok) -> list[str]:
    """``line`` names min(total, 3) wire IDs, each passing ``ok``, and says "(3 of total shown)" when capped."""
    guids = GUID.findall(line)
    assert len(guids) == min(total, 3), (total, line)
    assert all(ok(g) for g in guids), line
    shown = SHOWN.findall(line)
    assert shown == ([("3", str(total))] if total > 3 else []), line
    return guids


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("policy", [_publish_everything, _meddle])
def test_every_kind_of_miss_is_counted_as_graded_and_named_by_wire_id(variant, policy):
    params = dict(TASK.variant(variant).params)
    seen = set()
    for day in (1, 2, 3):
        traffic, d, text = _trial(params, day, policy)
        truth = traffic["truth"]
        classes = [  # (line start, the grader's count, what each named guid must be)
            ("- Niamh", d["killed_exposed"], lambda g, truth=truth: truth[g]["kind"] == "story" and truth[g].get("killed")),
            ("- Tomasz", d["embargo_broken"], lambda g, truth=truth: truth[g]["kind"] == "story" and truth[g].get("embargo_utc")),
            ("- Ashok (day desk): readers", d["stale_corrections"], lambda g, truth=truth: truth[g]["kind"] == "version"),
            ("- Ashok: ", d["advisories_published"], lambda g, truth=truth: truth[g]["kind"] in ("advisory", "kill")),
        ]
        for head, total, ok in classes:
            block = _block(text, head)
            assert bool(block) is (total > 0), (head, total, text)
            if total:
                assert re.search(rf"\b{total} ", block[0]), (total, block[0])
                seen.update(_check_named(block[0], total, ok))
        wrong = [line for line in text.splitlines() if "vanished from the site" in line or "went over a live story" in line]
        assert sum(int(re.search(r": (\d+) ", line).group(1)) for line in wrong) == d["wrong_unpublish"], text
        for line in wrong:                            # the story taken down, or the item written over one
            n = int(re.search(r": (\d+) ", line).group(1))
            seen.update(_check_named(line, n, lambda g, truth=truth: g in truth and not truth[truth[g]["family"] or g].get("killed")))
        legal = _block(text, "- Harriet (legal)")
        assert bool(legal) is (d["legal_autopublished"] > 0), text
        if legal:
            assert legal[0].startswith(f"- Harriet (legal): {d['legal_autopublished']} court or crime stor"), legal[0]
            stages = TASK.module("trial").STAGE
            assert len(legal) - 1 == len(d["legal_by_stage"]), legal      # one line per stage, each with examples
            for stage, n in d["legal_by_stage"].items():
                assert f"{n} {stages[stage]}" in legal[0], (stage, n, legal[0])
                sub = next(line for line in legal[1:] if line.strip().startswith(f"{stages[stage]}:"))
                seen.update(_check_named(sub, n, lambda g, truth=truth: truth[g]["kind"] == "story" and truth[g]["legal"]))
        if policy is _publish_everything:
            assert d["legal_autopublished"] > 3 and d["stale_corrections"] > 3, d
        else:
            assert d["wrong_unpublish"] and d["advisories_published"], d
    assert seen


@pytest.mark.parametrize("variant", VARIANTS)
def test_trial_days_are_successive_days_with_no_guid_in_common(variant):
    params = dict(TASK.variant(variant).params)
    days = [TASK.module("traffic").shadow(params, n) for n in (1, 2, 3)]
    assert [d["days"][0]["date"] for d in days] == ["2026-04-13", "2026-04-14", "2026-04-15"]
    guids = [set(d["truth"]) for d in days]
    assert not (guids[0] & guids[1] or guids[0] & guids[2] or guids[1] & guids[2])
    dev = TASK.module("traffic").generate(params, TASK.module("traffic").DEV_SEED, TASK.module("traffic").DEV_START,
                                          7, "dev")
    assert not set(dev["truth"]) & set().union(*guids)


def _counter(guid: str) -> int:
    return int(re.search(r"(\d+)(?:-[A-H]\d|X\d+)?$", guid).group(1))


def test_agency_counters_run_on_from_the_archived_week():
    params = dict(TASK.variant("base").params)
    traffic = TASK.module("traffic")
    dev = traffic.generate(params, traffic.DEV_SEED, traffic.DEV_START, 7, "dev")
    top = {}
    for g, t in dev["truth"].items():
        top[t["agency"]] = max(top.get(t["agency"], 0), _counter(g))
    for n in (1, 2, 3):
        for g, t in traffic.shadow(params, n)["truth"].items():
            assert _counter(g) > top[t["agency"]], (n, g, top)


def test_each_trial_reports_its_own_day_on_the_clock():
    env = FDEGymEnv(task="news_incident", sandbox="none", variant="base")
    try:
        env.reset(seed=1)
        named = []
        for _ in range(3):
            before = env.people.clock.now()
            text, _after = trial_on_the_clock(env, f"Shadow run, {before:%a %d %b}:")
            named.append(set(GUID.findall(text)))
        assert all(named) and not (named[0] & named[1] or named[1] & named[2] or named[0] & named[2])
    finally:
        env.close()


def _oracle(truth):
    """Every decision right from the answer key: what a finished ingest does (a kill takes its story down,
    a correction updates it, legal copy is held, an embargo is scheduled at its UTC time)."""
    def decide(it):
        t = truth[it["guid"]]
        if t["kind"] == "kill":
            return {"action": "unpublish", "story": t["family"]}
        if t["kind"] == "version":            # cms-bridge updates live stories only: a queued one is held again
            story = truth[t["family"]]
            if story["legal"]:
                return {"action": "hold"}
            if story.get("embargo_utc") and story["embargo_utc"] > t["t"]:
                return {"action": "schedule", "publish_at": story["embargo_utc"]}
            return {"action": "update", "story": t["family"]}
        if t["kind"] != "story":
            return {"action": "drop"}
        if t["legal"]:
            return {"action": "hold"}
        if t.get("embargo_utc"):
            return {"action": "schedule", "publish_at": t["embargo_utc"]}
        return {"action": "publish"}
    return decide


TALLY = "The day in the publishing-quality terms (docs/metrics.md):"


def _tally_lines(text: str) -> dict[str, str]:
    lines = text.splitlines()
    i = lines.index(TALLY)
    out = {}
    for line in lines[i + 1:]:
        if not line.startswith("  ") or line.startswith("    "):
            break
        out[line.split(":")[0].strip()] = line
    return out


def _n(line: str, words: str) -> int:
    return int(re.search(rf"(\d+) {words}", line).group(1))


# From a playtest (sample:8920): a day the ingest got right said only "Kofi (nights): 8 held stories in the
# queue; manageable." - nothing on kills, embargoes, corrections or legal, the things the score weighs. The
# report now opens with the day in the score's terms, each term counted (zero too) with one example.
@pytest.mark.parametrize("variant", VARIANTS + ["sample:8920", "thin_desk"])
@pytest.mark.parametrize("policy", [_oracle, _publish_everything, _meddle])
def test_the_report_counts_the_day_in_the_scores_terms_with_an_example_each(variant, policy):
    params = dict(TASK.variant(variant).params)
    traffic, d, text = _trial(params, 1, policy)
    truth = traffic["truth"]
    assert TALLY in text, text
    t = _tally_lines(text)
    assert list(t) == ["stories", "kills", "embargoes", "corrections", "legal", "Held queue", "other"], t
    assert _n(t["stories"], "out on time") == d["published_on_time"]
    assert _n(t["stories"], "out from the Held queue") == d["held"]
    assert _n(t["kills"], "still up more than an hour") == d["killed_exposed"]
    assert _n(t["embargoes"], "before the embargo lifted") == d["embargo_broken"]
    fixes = _n(t["corrections"], "run as a second story") + _n(t["corrections"], "not applied")
    assert fixes == d["stale_corrections"]
    assert _n(t["legal"], "out without it") == d["legal_autopublished"]
    assert _n(t["Held queue"], "of them stale") == d["overflow"]
    assert _n(t["other"], "agency notices") == d["advisories_published"]
    assert _n(t["other"], "live stories taken down") == d["wrong_unpublish"]
    killed = [g for g, x in truth.items() if x["kind"] == "story" and x.get("killed")]
    versions = [g for g, x in truth.items() if x["kind"] == "version"]
    assert _n(t["kills"], "stor(?:y|ies) withdrawn") == len(killed) > 0
    assert _n(t["corrections"], "corrected versions?") == len(versions) > 0
    checks = {"stories": lambda g: truth[g]["kind"] == "story",
              "kills": lambda g: g in killed,
              "embargoes": lambda g: bool(truth[g].get("embargo_utc")),
              "corrections": lambda g: g in versions,
              "legal": lambda g: truth[g]["kind"] == "story" and truth[g]["legal"],
              "Held queue": lambda g: truth[g]["kind"] == "story"}
    for key, ok in checks.items():
        total = sum(int(x) for x in re.findall(r"(\d+) [a-z]", t[key].split(":", 1)[1].split("(e.g.")[0]))
        named = GUID.findall(t[key])
        assert len(named) == (1 if total and (key != "Held queue" or d["held"]) else 0), (key, t[key])
        assert all(ok(g) for g in named), (key, t[key])
    if policy is _oracle:            # a day the ingest got right still says what it did with each
        assert "taken down within the hour" in t["kills"] and _n(t["kills"], "taken down within") > 0
        assert _n(t["corrections"], "applied to their story") > 0 and fixes == 0
        assert d["killed_exposed"] == d["embargo_broken"] == d["legal_autopublished"] == 0, d
