"""Ergonomics in a real headless Chromium: the brief rendered from Markdown (no raw markup), opening
a file to edit costs one read, and the terminal keeps scrollback and a command history."""

from __future__ import annotations

import pytest

from tests.web.helpers_web import chromium, click, have_browser, serve, wait_for

pytest.importorskip("selenium")
pytestmark = pytest.mark.skipif(not have_browser(), reason="needs Debian's chromium and chromium-driver "
                                "(apt-get install chromium chromium-driver)")


def test_brief_editor_open_and_terminal(tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    from fdegym_env.web import create_app
    turn = lambda d: d.find_element(By.ID, "status-turn").text  # noqa: E731
    with serve(create_app(runs_dir=tmp_path, sandbox="bwrap")) as url, chromium() as driver:
        driver.get(url + "/")
        wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, 'form[data-task="helpdesk_tutorial"]'),
                 what="the catalog").find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        wait_for(driver, lambda d: d.find_elements(By.ID, "file-tree"), what="the work page")
        assert driver.find_elements(By.CSS_SELECTOR, "#brief-md h1, #brief-md h2, #brief-md p")
        click(driver, 'a.file[data-path="docs/desk_handbook.md"]')
        wait_for(driver, lambda d: turn(d) == "1", what="read_file")
        driver.find_element(By.CSS_SELECTOR, '.tab[data-tab="editor"]').click()
        driver.find_element(By.ID, "btn-open").click()
        wait_for(driver, lambda d: d.find_element(By.ID, "editor").get_attribute("value"), what="the editor")
        assert turn(driver) == "1"                               # no second read
        cmd = driver.find_element(By.ID, "command")
        for c in ("echo first", "echo second"):
            cmd.send_keys(c, Keys.ENTER)
            wait_for(driver, lambda d, c=c: f"$ {c}" in d.find_element(By.ID, "terminal-log").text, what=c)
        log = driver.find_element(By.ID, "terminal-log").text
        assert "$ echo first\nfirst" in log and "$ echo second\nsecond" in log
        assert log.count("$ echo first") == 1, log             # each command echoed once, not twice
        cmd.send_keys(Keys.ARROW_UP)
        cmd.send_keys(Keys.ARROW_UP)
        assert cmd.get_attribute("value") == "echo first"
