"""The workbench in a real headless browser (Debian chromium + chromedriver, selenium): a person
works news_incident at L3 — reads a file, asks a person, submits — and sees the same score the env
gives for the same actions; the recording then plays back in the viewer with that verdict."""

from __future__ import annotations

import json

import pytest

from tests.web.helpers_web import chromium, have_browser, serve, wait_for, work_an_episode

pytest.importorskip("selenium")
pytestmark = pytest.mark.skipif(not have_browser(), reason="needs Debian's chromium and chromium-driver "
                                "(apt-get install chromium chromium-driver; .ci/run installs them)")

ACTIONS = [{"tool": "read_file", "path": "docs/desk_handbook.md"},
           {"tool": "directory"},
           {"tool": "contact", "to": "night_editor", "message": "How do agency kill notices arrive?"},
           {"tool": "submit", "note": ""}]


def _env_score() -> float:
    from fdegym_env.core.env import FDEGymEnv
    env = FDEGymEnv("news_incident", level="L3", variant="base")
    env.reset(seed=0)
    info = {}
    for a in ACTIONS:
        _, _, done, _, info = env.step(a)
    env.close()
    assert done
    return info["result"]["score"]


def test_work_submit_verdict_and_watch(tmp_path):
    from selenium.webdriver.common.by import By

    from fdegym_env.web import create_app
    expected = _env_score()
    with serve(create_app(runs_dir=tmp_path)) as url, chromium() as driver:
        shown = work_an_episode(driver, url, "news_incident", "docs/desk_handbook.md", "night_editor",
                                "How do agency kill notices arrive?")
        assert float(shown) == pytest.approx(expected, abs=5e-4)
        recordings = list((tmp_path / "workbench").glob("*.jsonl"))
        assert len(recordings) == 1
        driver.get(url + "/runs")
        wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "a.watch-link"), what="the runs page")
        driver.find_element(By.CSS_SELECTOR, "a.watch-link").click()
        wait_for(driver, lambda d: d.find_elements(By.ID, "watch-next"), what="the viewer")
        brief = json.loads(recordings[0].read_text().splitlines()[0])["observation"]["text"]
        assert driver.find_element(By.ID, "watch-text").text.strip()[:60] == brief.strip()[:60]   # the brief first
        driver.find_element(By.ID, "watch-next").click()
        assert "docs/desk_handbook.md" in driver.find_element(By.ID, "watch-action").text
        driver.find_element(By.ID, "watch-last").click()
        line = wait_for(driver, lambda d: d.find_element(By.ID, "watch-verdict-line"), what="the verdict line").text
        assert f"score {expected:.3f}" in line
    from fdegym_env.wrappers.recorder import replay
    rep = replay(recordings[0])
    assert rep.ok, rep.summary()
    assert rep.replayed_score == pytest.approx(expected, abs=1e-9)


def test_two_browsers_get_two_episodes(tmp_path):
    from selenium.webdriver.common.by import By

    from fdegym_env.web import create_app
    with serve(create_app(runs_dir=tmp_path)) as url, chromium() as a, chromium() as b:
        urls = []
        for d in (a, b):
            d.get(url + "/")
            wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, 'form[data-task="helpdesk_tutorial"]'), what="catalog")
            d.find_element(By.CSS_SELECTOR, 'form[data-task="helpdesk_tutorial"] button[type=submit]').click()
            wait_for(d, lambda d: "/work/" in d.current_url, what="the work page")
            urls.append(d.current_url)
        assert urls[0] != urls[1]
        a.get(urls[1])                                     # someone else's episode: a clear page, no traceback
        assert "no such episode" in a.find_element(By.ID, "error-page").text
        assert "Traceback" not in a.page_source
