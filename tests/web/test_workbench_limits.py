"""A person's limits: no agent wall clock (turns and customer days stay, with counters and a warning),
and a ``wait`` beyond the tool's documented range is refused with a clear message."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402

from fdegym_env.web import create_app  # noqa: E402

IDLE_SECONDS = 15 * 60


def _start(c) -> str:
    r = c.post("/start", data={"task": "helpdesk_tutorial", "level": "L3", "variant": "base", "seed": "0"},
               follow_redirects=False)
    assert r.status_code == 303, r.text
    return r.headers["location"].rsplit("/", 1)[1]


def _idle_then_act(tmp_path, **store_options) -> dict:
    with TestClient(create_app(runs_dir=tmp_path, sandbox="bwrap", **store_options)) as c:
        eid = _start(c)
        ws = c.app.state.store.get(eid, c.cookies.get("fdegym_sid"))
        ws.core._started -= IDLE_SECONDS                   # as if the person had thought for 15 minutes
        return c.post(f"/api/work/{eid}/act", json={"tool": "list_files", "path": "docs"}).json()


def test_a_fifteen_minute_idle_episode_is_still_alive(tmp_path):
    out = _idle_then_act(tmp_path)
    assert out["valid"] and not out["terminated"] and not out["done"]


def test_the_wall_limit_setting_still_applies_when_lowered(tmp_path):
    out = _idle_then_act(tmp_path, wall_seconds=600)       # the agent limit the tutorial had
    assert out["terminated"] and out["done"]


def test_counters_and_warning_before_the_last_turns(tmp_path):
    with TestClient(create_app(runs_dir=tmp_path, sandbox="bwrap")) as c:
        eid = _start(c)
        st = c.get(f"/api/work/{eid}/state").json()["status"]
        assert st["turns_left"] == st["max_turns"] and st["warnings"] == []
        assert st["hours_left"] == st["max_hours"] > 0
        ws = c.app.state.store.get(eid, c.cookies.get("fdegym_sid"))
        ws.core.max_turns = 3
        st = c.post(f"/api/work/{eid}/act", json={"tool": "list_files", "path": "."}).json()
        assert st["turns_left"] == 2 and "2 turn(s) left" in st["warnings"][0]
        page = c.get(f"/work/{eid}").text
        assert 'id="limit-warning"' in page and "2 turn(s) left" in page


@pytest.mark.parametrize("hours", [1e9, 337, 0, -5, "soon"])
def test_wait_beyond_the_tools_range_is_refused(tmp_path, hours):
    with TestClient(create_app(runs_dir=tmp_path, sandbox="bwrap")) as c:
        eid = _start(c)
        r = c.post(f"/api/work/{eid}/act", json={"tool": "wait", "hours": hours})
        assert r.status_code == 400 and "336" in r.json()["error"]
        st = c.get(f"/api/work/{eid}/state").json()
        assert st["timeline"] == [] and not st["status"]["done"]
        ok = c.post(f"/api/work/{eid}/act", json={"tool": "wait", "hours": 2}).json()
        assert ok["valid"] and not ok["terminated"]
        edge = c.post(f"/api/work/{eid}/act", json={"tool": "wait", "hours": 336}).json()
        assert edge["valid"]                               # the documented maximum itself is allowed
