"""Restart and resume in a real headless Chromium: a person reads a file, the server stops, a new one
starts on the same runs folder, and the catalog links back to the episode with its timeline intact."""

from __future__ import annotations

import pytest

from tests.web.helpers_web import chromium, click, have_browser, serve, wait_for

pytest.importorskip("selenium")
pytestmark = pytest.mark.skipif(not have_browser(), reason="needs Debian's chromium and chromium-driver "
                                "(apt-get install chromium chromium-driver)")


def test_restart_and_resume_in_the_browser(tmp_path):
    from selenium.webdriver.common.by import By

    from fdegym_env.web import create_app
    turn = lambda d: d.find_element(By.ID, "status-turn").text  # noqa: E731
    with chromium() as driver:
        with serve(create_app(runs_dir=tmp_path, sandbox="bwrap")) as url:
            driver.get(url + "/")
            wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, 'form[data-task="helpdesk_tutorial"]'),
                     what="the catalog").find_element(By.CSS_SELECTOR, "button[type=submit]").click()
            wait_for(driver, lambda d: d.find_elements(By.ID, "file-tree"), what="the work page")
            eid = driver.current_url.rsplit("/", 1)[1]
            click(driver, 'a.file[data-path="docs/desk_handbook.md"]')
            wait_for(driver, lambda d: turn(d) == "1", what="read_file")
            driver.find_element(By.ID, "btn-inbox").click()
            wait_for(driver, lambda d: turn(d) == "2" and d.find_elements(By.CSS_SELECTOR, "#inbox-thread .inbox-item"),
                     what="the inbox thread")
        with serve(create_app(runs_dir=tmp_path, sandbox="bwrap")) as url2:      # a fresh server
            driver.get(url2 + "/")
            wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, f'a.my-episode[data-eid="{eid}"]'),
                     what="the link back to the open episode")[0].click()
            wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#timeline li"), what="the resumed timeline")
            assert turn(driver) == "2"
            assert len(driver.find_elements(By.CSS_SELECTOR, "#timeline li")) == 2
            assert driver.find_elements(By.CSS_SELECTOR, "#inbox-thread .inbox-item")
            driver.find_element(By.ID, "btn-directory").click()
            wait_for(driver, lambda d: turn(d) == "3", what="an action after the restart")
