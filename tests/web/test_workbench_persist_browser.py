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


def test_a_click_right_after_the_turn_moves_is_not_dropped(tmp_path):
    """The turn counter moves only when the page is ready for the next action. It used to move while
    the page still fetched the state after an action, and a click in that window was dropped as busy
    (the restart test above failed now and then at its Inbox click); a slow state answer makes the
    window wide."""
    import asyncio

    from selenium.webdriver.common.by import By

    from fdegym_env.web import create_app
    app = create_app(runs_dir=tmp_path, sandbox="bwrap")

    async def slow_state(scope, receive, send):
        if scope["type"] == "http" and scope["path"].endswith("/state"):
            await asyncio.sleep(1.0)
        await app(scope, receive, send)
    turn = lambda d: d.find_element(By.ID, "status-turn").text  # noqa: E731
    with serve(slow_state) as url, chromium() as driver:
        driver.get(url + "/")
        wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, 'form[data-task="helpdesk_tutorial"]'),
                 what="the catalog").find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        wait_for(driver, lambda d: d.find_elements(By.ID, "file-tree"), what="the work page")
        click(driver, 'a.file[data-path="docs/desk_handbook.md"]')
        wait_for(driver, lambda d: turn(d) == "1", what="read_file")
        driver.find_element(By.ID, "btn-inbox").click()
        wait_for(driver, lambda d: turn(d) == "2", timeout=15, what="the inbox action, not dropped")


def test_eviction_in_two_browsers(tmp_path):
    """One place for an episode: a second person cannot push out the first one's recent episode (a
    clear 503 page); once that episode has been idle for hours it leaves memory to make room, and its
    owner resumes it (replayed from its recording) with nothing lost."""
    from selenium.webdriver.common.by import By

    from fdegym_env.web import create_app
    app = create_app(runs_dir=tmp_path, sandbox="bwrap", max_episodes=1, evict_idle_seconds=3600)
    turn = lambda d: d.find_element(By.ID, "status-turn").text  # noqa: E731

    def start(d, url):
        d.get(url + "/")
        wait_for(d, lambda d: d.find_element(By.CSS_SELECTOR, 'form[data-task="helpdesk_tutorial"]'),
                 what="the catalog").find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        wait_for(d, lambda d: d.find_elements(By.ID, "file-tree") or d.find_elements(By.ID, "error-page"),
                 what="the work page or an error")
    with serve(app) as url, chromium() as a, chromium() as b:
        start(a, url)
        ea = a.current_url.rsplit("/", 1)[1]
        click(a, 'a.file[data-path="docs/desk_handbook.md"]')
        wait_for(a, lambda d: turn(d) == "1", what="a's read_file")
        start(b, url)
        assert "recent use" in b.find_element(By.ID, "error-page").text     # a's recent episode is kept
        a.find_element(By.ID, "btn-directory").click()
        wait_for(a, lambda d: turn(d) == "2", what="a works on")
        store = app.state.store
        store._episodes[ea].last_used -= 2 * 3600                           # a leaves it for two hours
        start(b, url)
        assert b.find_elements(By.ID, "file-tree") and ea not in store._episodes
        a.refresh()                                                         # a comes back: restored
        wait_for(a, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#timeline li")) == 2, what="a's timeline")
        assert turn(a) == "2"
        a.find_element(By.ID, "btn-inbox").click()
        wait_for(a, lambda d: turn(d) == "3", what="a's next action after the eviction")
