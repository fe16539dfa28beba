"""The verdict teaches: the formula with the person's numbers, the incident cap and the resolved
threshold, the incidents, the person's diff beside the reference's, and no "you delivered 0" when the
system crashed."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402

from fdegym_env.web import create_app  # noqa: E402
from fdegym_env.web.teach import explain, system_failed  # noqa: E402


def _start(c, task="helpdesk_tutorial") -> str:
    r = c.post("/start", data={"task": task, "level": "L3", "variant": "base", "seed": "0"}, follow_redirects=False)
    assert r.status_code == 303, r.text
    return r.headers["location"].rsplit("/", 1)[1]


def test_formula_uses_the_numbers_and_the_cap():
    r = {"kpi": 3.0, "kpi_baseline": 1.0, "kpi_reference": 5.0, "incidents": ["case 7: wrong queue"],
         "contact_cost": 0.25, "resolved": False}
    f = explain(r)
    assert "(3 − 1) / (5 − 1) = 0.5" in f["uplift"]
    assert "caps U at 0" in f["cap"] and "= 0" in f["cap"]
    assert f["score"].endswith("= -0.25")
    assert "0.8" in f["resolved"] and "incident" in f["resolved"]
    assert not system_failed(r) and system_failed({"incidents": ["entry_point_failed: route raised: KeyError"]})


def test_verdict_page_shows_formula_and_both_diffs(tmp_path):
    with TestClient(create_app(runs_dir=tmp_path, sandbox="bwrap")) as c:
        eid = _start(c)
        c.post(f"/api/work/{eid}/act", json={"tool": "write_file", "path": "system/NOTES.md", "content": "my note\n"})
        end = c.post(f"/api/work/{eid}/act", json={"tool": "submit"}).json()
        assert end["terminated"]
        page = c.get(f"/work/{eid}/verdict").text
        formula = re.search(r'id="verdict-formula".*?</ol>', page, re.S).group(0)
        assert "U = (kpi" in formula and ("caps U at 0" in formula or "not capped" in formula)
        assert "0.8" in formula
        yours = re.search(r'id="diff-yours"[^>]*>(.*?)</pre>', page, re.S).group(1)
        assert "b/system/NOTES.md" in yours and "+my note" in yours
        ref = re.search(r'id="diff-reference"[^>]*>(.*?)</pre>', page, re.S).group(1)
        assert "+++ b/system/" in ref and "NOTES.md" not in ref


def test_a_crashed_system_is_not_a_measured_kpi(tmp_path):
    with TestClient(create_app(runs_dir=tmp_path, sandbox="bwrap")) as c:
        eid = _start(c)
        files = [f["path"] for f in c.get(f"/api/work/{eid}/state").json()["files"] if f["path"].startswith("system/")
                 and f["path"].endswith(".py")]
        for path in files:
            c.post(f"/api/work/{eid}/act", json={"tool": "write_file", "path": path, "content": "raise SystemExit(3)\n"})
        c.post(f"/api/work/{eid}/act", json={"tool": "submit"})
        page = c.get(f"/work/{eid}/verdict").text
        kpi = re.search(r'id="verdict-kpi">(.*?)</td>', page, re.S).group(1)
        assert "not measured" in kpi
        assert 'id="verdict-incidents"' in page
        incidents = re.search(r'id="verdict-incidents".*?</ul>', page, re.S).group(0)
        assert "SystemExit: 3" in incidents               # the failure's own output, not just "it failed"


def test_key_facts_do_not_name_hidden_variants():
    from fdegym_env.web.sessions import _unname
    text = _unname("14 base, 4 in thin_desk; kills per {{fact_kill}}", ["thin_desk", "legal_widened"])
    assert "thin_desk" not in text and "{{" not in text and "some engagements" in text


def test_facts_learnt_from_documents_and_the_shell_are_credited(tmp_path):
    """news_incident's truth says F_versions can be learnt from docs/tickets/WIRE-212 and F_ukns_kill
    from data/wire: reading the ticket (read_file) or searching the wire in the shell counts on the
    verdict; a fact whose sources are only people (and the inbox) is not credited for reading files."""
    from fdegym_env.web.teach import document_sources, learnt_from
    assert document_sources("Sources: wire_editor, docs/tickets/WIRE-212.") == ["docs/tickets/WIRE-212"]
    assert learnt_from("Sources: night_editor, data/wire.", set(), ["grep -ril 'do not use' data/wire | head"]) == "data/wire"
    assert learnt_from("Sources: night_editor, data/wire.", {"data/wirelog.txt"}, ["cat data/wirelog.txt"]) is None
    assert learnt_from("Sources: night_editor, data/wire.", set(), ["ls -la data/wire"]) is None    # names only
    with TestClient(create_app(runs_dir=tmp_path, sandbox="bwrap")) as c:
        eid = _start(c, "news_incident")
        c.post(f"/api/work/{eid}/act", json={"tool": "read_file", "path": "docs/tickets/WIRE-212.md"})
        ran = c.post(f"/api/work/{eid}/act", json={"tool": "run", "command": "grep -il kill data/wire/* | head -3"}).json()
        assert ran["valid"]
        c.post(f"/api/work/{eid}/act", json={"tool": "submit"})
        page = c.get(f"/work/{eid}/verdict").text

        def fact(fid):
            return re.search(rf'<li class="(\w+)" data-fact="{fid}">(.*?)</li>', page, re.S).groups()
        cls, text = fact("F_versions")
        assert cls == "good" and "learnt from <code>docs/tickets/WIRE-212.md</code>" in text
        cls, text = fact("F_ukns_kill")                       # Sources: wire_editor, data/wire
        assert cls == "good" and "learnt from <code>data/wire</code>" in text
        cls, text = fact("F_legal_scope")                     # people and the inbox only
        assert cls == "bad" and "learnt from" not in text
