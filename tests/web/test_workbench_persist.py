"""Nothing lost: episodes survive a server restart (replayed from their recording), are listed and
resumable, and only long-idle episodes (or the starter's own) leave memory to make room."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402

from fdegym_env.web import create_app  # noqa: E402

FORM = {"task": "helpdesk_tutorial", "level": "L3", "variant": "base", "seed": "0"}


def _start(c) -> str:
    r = c.post("/start", data=FORM, follow_redirects=False)
    assert r.status_code == 303, r.text
    return r.headers["location"].rsplit("/", 1)[1]


def test_restart_and_resume(tmp_path):
    with TestClient(create_app(runs_dir=tmp_path, sandbox="bwrap")) as c:
        eid = _start(c)
        c.post(f"/api/work/{eid}/act", json={"tool": "read_file", "path": "docs/desk_handbook.md"})
        c.post(f"/api/work/{eid}/act", json={"tool": "write_file", "path": "notes.txt", "content": "kept\n"})
        c.post(f"/api/work/{eid}/act", json={"tool": "directory"})
        before = c.get(f"/api/work/{eid}/state").json()
        cookie = c.cookies.get("fdegym_sid")
    with TestClient(create_app(runs_dir=tmp_path, sandbox="bwrap"), cookies={"fdegym_sid": cookie}) as c2:
        assert f'href="/work/{eid}"' in c2.get("/").text          # listed, resumable
        after = c2.get(f"/api/work/{eid}/state").json()
        assert after["timeline"] == before["timeline"] and after["directory"] == before["directory"]
        assert after["status"]["turn"] == 3
        r = c2.post(f"/api/work/{eid}/act", json={"tool": "read_file", "path": "notes.txt"}).json()
        assert r["valid"] and "kept" in r["text"] and r["turn"] == 4
        assert c2.get(f"/api/work/{eid}/file", params={"path": "docs/desk_handbook.md"}).status_code == 200
        end = c2.post(f"/api/work/{eid}/act", json={"tool": "submit", "note": ""}).json()
        assert end["terminated"]
        assert f'href="/work/{eid}/verdict"' in c2.get("/").text
    with TestClient(create_app(runs_dir=tmp_path, sandbox="bwrap")) as stranger:
        assert stranger.get(f"/api/work/{eid}/state").status_code == 404
    from fdegym_env.wrappers.recorder import replay
    rep = replay(next((tmp_path / "workbench").glob("*.jsonl")))
    assert rep.ok, rep.summary()


def test_eviction_spares_other_peoples_recent_episodes(tmp_path):
    app = create_app(runs_dir=tmp_path, sandbox="bwrap", max_episodes=2, evict_idle_seconds=3600)
    with TestClient(app) as a, TestClient(app) as b, TestClient(app) as late:
        ea = _start(a)
        eb1 = _start(b)
        eb2 = _start(b)                                          # full: b's own older episode makes room
        store = app.state.store
        assert set(store._episodes) == {ea, eb2}
        r = late.post("/start", data=FORM, follow_redirects=False)
        assert r.status_code == 503 and "recent use" in r.text       # nobody else's recent episode is closed
        store._episodes[ea].last_used -= 2 * 3600                    # a idle for two hours
        _start(late)
        assert ea not in store._episodes
        assert a.get(f"/api/work/{ea}/state").status_code == 200     # still resumable from its recording
        assert b.get(f"/api/work/{eb1}/state").status_code == 200


def test_inbox_is_a_thread_that_stays(tmp_path):
    with TestClient(create_app(runs_dir=tmp_path, sandbox="bwrap")) as c:
        eid = _start(c)
        first = c.post(f"/api/work/{eid}/act", json={"tool": "inbox"}).json()
        c.post(f"/api/work/{eid}/act", json={"tool": "list_files", "path": "."})
        c.post(f"/api/work/{eid}/act", json={"tool": "wait", "hours": 24})
        second = c.post(f"/api/work/{eid}/act", json={"tool": "inbox"}).json()
        thread = c.get(f"/api/work/{eid}/state").json()["inbox"]
        assert [m["text"] for m in thread] == [first["text"], second["text"]]
        assert first["text"] in c.get(f"/work/{eid}").text.replace("&#39;", "'").replace("&#34;", '"')
