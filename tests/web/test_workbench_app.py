"""The workbench app through Starlette's test client: pages, the action API, sessions, and every
error as a clear page or JSON message (never a traceback)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time

import pytest

pytest.importorskip("starlette")
pytest.importorskip("jinja2")
from starlette.testclient import TestClient  # noqa: E402

from fdegym_env.web import create_app  # noqa: E402


@pytest.fixture()
def client(tmp_path):
    with TestClient(create_app(runs_dir=tmp_path, sandbox="bwrap"), raise_server_exceptions=False) as c:
        yield c


def _start(c, task="helpdesk_tutorial", **form) -> str:
    r = c.post("/start", data={"task": task, "level": "L3", "variant": "base", "seed": "0", **form},
               follow_redirects=False)
    assert r.status_code == 303, r.text
    return r.headers["location"].rsplit("/", 1)[1]


def test_catalog_lists_every_task_without_the_hidden_problem(client):
    from fdegym_env.core.registry import list_tasks, load_task
    page = client.get("/").text
    for tid in list_tasks():
        t = load_task(tid)
        assert f'data-task="{tid}"' in page
        assert t.title not in page, f"the catalog shows {tid}'s catalog title, which names the hidden problem"


def test_actions_go_through_the_env_and_are_recorded(client, tmp_path):
    eid = _start(client)
    r = client.post(f"/api/work/{eid}/act", json={"tool": "list_files", "path": "docs"}).json()
    assert r["valid"] and r["turn"] == 1 and "desk_handbook.md" in r["text"]
    bad = client.post(f"/api/work/{eid}/act", json={"tool": "read_file"}).json()     # an agent mistake
    assert not bad["valid"] and "path" in bad["error"] and bad["turn"] == 2
    outside = client.post(f"/api/work/{eid}/act", json={"tool": "read_file", "path": "../../etc/passwd"}).json()
    assert not outside["valid"] and "root:" not in outside["text"]
    state = client.get(f"/api/work/{eid}/state").json()
    assert [t["tool"] for t in state["timeline"]] == ["list_files", "read_file", "read_file"]
    assert state["directory"] == []                       # nobody listed until the directory action
    lines = [json.loads(x) for x in next((tmp_path / "workbench").glob("*.jsonl")).read_text().splitlines()]
    assert [x["type"] for x in lines] == ["reset", "step", "step", "step"]


def test_editor_gets_only_files_already_read_and_saves_through_write_file(client):
    eid = _start(client)
    r = client.get(f"/api/work/{eid}/file", params={"path": "docs/desk_handbook.md"})
    assert r.status_code == 403 and "read_file" in r.json()["error"]
    client.post(f"/api/work/{eid}/act", json={"tool": "read_file", "path": "docs/desk_handbook.md"})
    text = client.get(f"/api/work/{eid}/file", params={"path": "docs/desk_handbook.md"}).json()["content"]
    assert len(text) > 100
    w = client.post(f"/api/work/{eid}/act", json={"tool": "write_file", "path": "notes/plan.md", "content": "x"}).json()
    assert w["valid"] and any(f["path"] == "notes/plan.md" for f in client.get(f"/api/work/{eid}/state").json()["files"])


def test_submit_then_verdict_matches_the_result(client):
    eid = _start(client, mode="practice")                  # practice shows the running return
    assert client.get(f"/work/{eid}/verdict", follow_redirects=False).status_code == 303   # not ended yet
    r = client.post(f"/api/work/{eid}/act", json={"tool": "submit"}).json()
    assert r["terminated"] and r["verdict_url"] == f"/work/{eid}/verdict"
    page = client.get(f"/work/{eid}/verdict").text
    shown = float(re.search(r'id="verdict-score">([^<]+)<', page).group(1))
    assert shown == pytest.approx(r["return"], abs=5e-4)
    assert "Key facts" in page and "Incidents" in page
    again = client.post(f"/api/work/{eid}/act", json={"tool": "list_files"}).json()
    assert not again["valid"] and "ended" in again["text"]


def test_episodes_belong_to_their_browser(client, tmp_path):
    eid = _start(client)
    with TestClient(client.app, raise_server_exceptions=False) as other:
        assert other.get(f"/work/{eid}").status_code == 404
        r = other.post(f"/api/work/{eid}/act", json={"tool": "list_files"})
        assert r.status_code == 404 and "no such episode" in r.json()["error"]


@pytest.mark.parametrize("form, message", [
    ({"task": "no_such_task"}, "unknown task"),
    ({"seed": "abc"}, "seed must be a whole number"),
    ({"seed": "-1"}, "seed must be 0 or more"),
    ({"variant": "nonexistent_variant"}, "nonexistent_variant"),
])
def test_bad_start_forms_get_a_clear_page(client, form, message):
    r = client.post("/start", data={"task": "helpdesk_tutorial", "level": "L3", "variant": "base", "seed": "0", **form})
    assert r.status_code == 400 and message.lower() in r.text.lower()
    assert 'id="error-page"' in r.text and "Traceback" not in r.text


def test_api_rejects_non_json_and_non_objects(client):
    eid = _start(client)
    assert client.post(f"/api/work/{eid}/act", content=b"{not json").json()["error"].startswith("the body must be")
    assert "expected a JSON object" in client.post(f"/api/work/{eid}/act", json=[1]).json()["error"]


def test_watch_refuses_paths_outside_the_runs_folder(client, tmp_path):
    (tmp_path.parent / "secret.jsonl").write_text('{"type": "reset"}\n')
    for rel in ("../secret.jsonl", "/etc/passwd", ""):
        r = client.get("/watch", params={"path": rel})
        assert r.status_code == 400 and 'id="error-page"' in r.text


def test_a_crash_is_a_page_not_a_traceback(client, monkeypatch):
    def boom(*a, **k):
        raise RuntimeError("sandbox exploded")
    monkeypatch.setattr(client.app.state.store, "start", boom)
    r = client.post("/start", data={"task": "helpdesk_tutorial", "level": "L3", "variant": "base", "seed": "0"})
    assert r.status_code == 500 and "sandbox exploded" in r.text and "Traceback" not in r.text


def test_leaderboard_reads_bench_results_and_recordings(client, tmp_path):
    rows = [{"run_id": f"r{i}", "task": t, "agent": a, "level": "L3", "score": s, "uplift": s, "contact_cost": 0.0,
             "resolved": s >= 0.8, "incidents": []}
            for i, (t, a, s) in enumerate([("news_incident", "reference", 1.0), ("clinic_inbox", "reference", 0.97),
                                           ("news_incident", "do-nothing", 0.0), ("clinic_inbox", "do-nothing", 0.0)])]
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "results.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    page = client.get("/leaderboard").text
    table = page.split('id="leaderboard-table"')[1].split("</table>")[0]
    assert table.index("reference") < table.index("do-nothing")          # best first
    assert "+0.985" in table and "2/2" in table
    png = client.get("/leaderboard.png")
    assert png.status_code == 200 and png.content[:8] == b"\x89PNG\r\n\x1a\n"


def test_serve_warns_when_bound_beyond_this_machine(tmp_path):
    proc = subprocess.Popen([sys.executable, "-m", "fdegym_env.cli.main", "serve", "--host", "0.0.0.0", "--port", "0",
                             "--runs", str(tmp_path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 30
        err = ""
        while time.monotonic() < deadline and "warning" not in err:
            line = proc.stderr.readline()
            if not line:
                break
            err += line
        assert "warning: binding to 0.0.0.0" in err
    finally:
        proc.kill()
        proc.wait()
