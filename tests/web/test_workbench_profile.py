"""People and profile: a name per browser (a cookie), recordings tagged with it, and a profile page
with the history, best score per task and time spent."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402

from fdegym_env.web import create_app  # noqa: E402


def test_name_profile_history_and_best_score(tmp_path):
    with TestClient(create_app(runs_dir=tmp_path, sandbox="bwrap")) as c:
        r = c.post("/name", data={"name": "Ada <b>L</b>"}, follow_redirects=False)
        assert r.status_code == 303 and c.cookies.get("fdegym_name").strip('"') == "Ada bLb"
        scores = []
        for _ in range(2):
            loc = c.post("/start", data={"task": "helpdesk_tutorial", "level": "L3", "variant": "base", "seed": "0"},
                         follow_redirects=False).headers["location"]
            eid = loc.rsplit("/", 1)[1]
            end = c.post(f"/api/work/{eid}/act", json={"tool": "submit"}).json()
            assert end["terminated"]
        rec = next((tmp_path / "workbench").glob("*.jsonl"))
        header = json.loads(rec.read_text().splitlines()[0])
        assert header["agent"] == "person:Ada bLb"
        for m in c.app.state.store.mine(c.cookies.get("fdegym_sid")):
            scores.append(m["score"])
        page = c.get("/profile").text
        assert 'id="history"' in page and page.count("verdict</a>") == 2
        assert f"{max(scores):.3f}" in page and "helpdesk_tutorial" in page
        assert "<b>" not in page
        assert "person:Ada bLb" in c.get("/leaderboard").text        # people rank beside agents
    with TestClient(create_app(runs_dir=tmp_path, sandbox="bwrap")) as other:
        assert "helpdesk_tutorial" not in other.get("/profile").text
