"""Exam and practice: an exam shows what an agent sees (no running cost, no rewards, no hints);
practice shows the running cost, gives the task's hint ladder one rung at a time, records each hint
(through a restart too) and shows them on the verdict with a one-click retry."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402

from fdegym_env.web import create_app  # noqa: E402

TASKS = Path(__file__).resolve().parents[2] / "tasks"


def _start(c, mode) -> str:
    r = c.post("/start", data={"task": "helpdesk_tutorial", "level": "L3", "variant": "base", "seed": "3",
                               "mode": mode}, follow_redirects=False)
    assert r.status_code == 303, r.text
    return r.headers["location"].rsplit("/", 1)[1]


@pytest.mark.parametrize("task", sorted(p.name for p in TASKS.iterdir() if (p / "task.yaml").is_file()))
def test_every_task_has_a_three_rung_ladder_that_names_no_variant(task):
    ladder = yaml.safe_load((TASKS / task / "hints.yaml").read_text())["hints"]
    assert [h["rung"] for h in ladder] == ["nudge", "where to look", "who to ask"]
    from fdegym_env.core.registry import load_task
    variants = [v for v in load_task(task).variants if v != "base"]
    for h in ladder:
        for v in variants:
            assert v.lower() not in h["text"].lower() and v.replace("_", " ") not in h["text"].lower(), \
                f"{task}'s hint names variant {v}"


def test_exam_hides_cost_rewards_and_hints(tmp_path):
    with TestClient(create_app(runs_dir=tmp_path, sandbox="bwrap")) as c:
        eid = _start(c, "exam")
        out = c.post(f"/api/work/{eid}/act", json={"tool": "directory"}).json()
        assert out["contact_cost"] is None and out["return"] is None
        st = c.get(f"/api/work/{eid}/state").json()
        assert all(t["reward"] is None and t["cost_so_far"] is None for t in st["timeline"])
        page = c.get(f"/work/{eid}").text
        assert 'id="status-cost"' not in page and 'id="btn-hint"' not in page
        r = c.post(f"/api/work/{eid}/hint")
        assert r.status_code == 403 and "practice" in r.json()["error"]


def test_practice_hints_are_recorded_and_shown_with_a_retry(tmp_path):
    ladder = yaml.safe_load((TASKS / "helpdesk_tutorial" / "hints.yaml").read_text())["hints"]
    with TestClient(create_app(runs_dir=tmp_path, sandbox="bwrap")) as c:
        eid = _start(c, "practice")
        page = c.get(f"/work/{eid}").text
        assert 'id="status-cost"' in page and 'id="btn-hint"' in page
        h1 = c.post(f"/api/work/{eid}/hint").json()
        assert h1["text"] == ladder[0]["text"] and h1["left"] == 2
        c.post(f"/api/work/{eid}/act", json={"tool": "directory"})
        cookie = c.cookies.get("fdegym_sid")
    with TestClient(create_app(runs_dir=tmp_path, sandbox="bwrap"), cookies={"fdegym_sid": cookie}) as c:
        h2 = c.post(f"/api/work/{eid}/hint").json()                # the ladder continues after a restart
        assert h2["text"] == ladder[1]["text"] and h2["turn"] == 1
        c.post(f"/api/work/{eid}/hint")
        assert "no more hints" in c.post(f"/api/work/{eid}/hint").json()["error"]
        c.post(f"/api/work/{eid}/act", json={"tool": "submit"})
        verdict = c.get(f"/work/{eid}/verdict").text
        assert 'id="verdict-hints"' in verdict and verdict.count("<li><strong>") >= 3
        assert 'name="seed" value="3"' in verdict and 'name="mode" value="practice"' in verdict
        retry = c.post("/start", data={"task": "helpdesk_tutorial", "level": "L3", "variant": "base", "seed": "3",
                                       "mode": "practice"}, follow_redirects=False)
        assert retry.status_code == 303
    from fdegym_env.wrappers.recorder import load_recording
    rec = next(p for p in (tmp_path / "workbench").glob("*.jsonl") if eid in p.name)
    assert [h["rung"] for h in load_recording(rec)[0].annotations["hints"]] == ["nudge", "where to look", "who to ask"]
