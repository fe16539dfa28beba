"""A person's limits in a real headless Chromium: the turn and hour counters, and `Wait` asks for
confirmation (Cancel does nothing, a wait past the tool's maximum is refused before any dialog)."""

from __future__ import annotations

import pytest

from tests.web.helpers_web import chromium, click, have_browser, serve, wait_for

pytest.importorskip("selenium")
pytestmark = pytest.mark.skipif(not have_browser(), reason="needs Debian's chromium and chromium-driver "
                                "(apt-get install chromium chromium-driver)")


def test_wait_asks_first_and_counters_move(tmp_path):
    from selenium.webdriver.common.by import By

    from fdegym_env.web import create_app
    with serve(create_app(runs_dir=tmp_path, sandbox="bwrap")) as url, chromium() as driver:
        driver.get(url + "/")
        form = wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, 'form[data-task="helpdesk_tutorial"]'),
                        what="the catalog")
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        wait_for(driver, lambda d: d.find_elements(By.ID, "status-turns-left"), what="the work page")
        left0 = int(driver.find_element(By.ID, "status-turns-left").text)
        hours0 = float(driver.find_element(By.ID, "status-hours-left").text)
        box = driver.find_element(By.ID, "wait-hours")
        box.clear()
        box.send_keys("1000000000")
        driver.find_element(By.ID, "btn-wait").click()
        wait_for(driver, lambda d: "336" in d.find_element(By.ID, "output").text, what="the refusal")
        assert not driver.find_element(By.ID, "confirm-wait").get_attribute("open")
        box.clear()
        box.send_keys("5")
        driver.find_element(By.ID, "btn-wait").click()
        dialog = wait_for(driver, lambda d: d.find_element(By.ID, "confirm-wait").get_attribute("open") is not None
                          and d.find_element(By.ID, "confirm-wait"), what="the confirmation")
        assert "Wait 5 customer hour" in dialog.text
        dialog.find_element(By.CSS_SELECTOR, "button[value=cancel]").click()
        assert driver.find_element(By.ID, "status-turn").text == "0"       # cancelled: no action taken
        driver.find_element(By.ID, "btn-wait").click()
        driver.find_element(By.ID, "btn-wait-confirm").click()
        wait_for(driver, lambda d: d.find_element(By.ID, "status-turn").text == "1", what="the wait")
        assert int(driver.find_element(By.ID, "status-turns-left").text) == left0 - 1
        assert float(driver.find_element(By.ID, "status-hours-left").text) == pytest.approx(hours0 - 5)


def _start_tutorial(driver, url):
    from selenium.webdriver.common.by import By
    driver.get(url + "/")
    wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, 'form[data-task="helpdesk_tutorial"]'),
             what="the catalog").find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait_for(driver, lambda d: d.find_elements(By.ID, "file-tree"), what="the work page")
    return driver.current_url.rsplit("/", 1)[1]


@pytest.mark.parametrize("wall_seconds, alive", [(None, True), (600, False)])
def test_a_fifteen_minute_idle_episode_in_the_browser(tmp_path, wall_seconds, alive):
    """A person thinks for 15 minutes, then reads a file: the episode goes on. With the limit setting
    lowered to the tutorial's agent limit (600 s) the same pause ends it, as it used to."""
    from selenium.webdriver.common.by import By

    from fdegym_env.web import create_app
    options = {} if wall_seconds is None else {"wall_seconds": wall_seconds}
    app = create_app(runs_dir=tmp_path, sandbox="bwrap", **options)
    with serve(app) as url, chromium() as driver:
        eid = _start_tutorial(driver, url)
        app.state.store._episodes[eid].core._started -= 15 * 60      # fifteen minutes of thought
        click(driver, 'a.file[data-path="docs/desk_handbook.md"]')     # the file tree re-renders: find it again
        if alive:
            wait_for(driver, lambda d: d.find_element(By.ID, "status-turn").text == "1", what="read_file")
            assert "/verdict" not in driver.current_url
            wait_for(driver, lambda d: "desk_handbook" in d.find_element(By.ID, "output").text, what="the file")
        else:
            wait_for(driver, lambda d: "/verdict" in d.current_url, what="the verdict")
            assert "max_wall_seconds" in driver.find_element(By.ID, "verdict").text


def test_the_last_turn_and_a_final_trial_day_ask_first(tmp_path):
    from selenium.webdriver.common.by import By

    from fdegym_env.web import create_app
    app = create_app(runs_dir=tmp_path, sandbox="bwrap")
    turn = lambda d: d.find_element(By.ID, "status-turn").text  # noqa: E731
    dialog_open = lambda d: d.find_element(By.ID, "confirm-end").get_attribute("open") is not None  # noqa: E731
    with serve(app) as url, chromium() as driver:
        eid = _start_tutorial(driver, url)
        core = app.state.store._episodes[eid].core
        core.max_customer_days = 0.5                     # 12 customer hours: one trial day (24 h) would end it
        driver.refresh()
        wait_for(driver, lambda d: d.find_elements(By.ID, "file-tree"), what="the work page")
        driver.find_element(By.ID, "btn-trial").click()
        wait_for(driver, dialog_open, what="the trial's confirmation")
        assert "ends the engagement" in driver.find_element(By.ID, "confirm-end-text").text
        driver.find_element(By.CSS_SELECTOR, "#confirm-end button[value=cancel]").click()
        assert turn(driver) == "0" and not dialog_open(driver)          # cancelled: no action taken
        core.max_customer_days, core.max_turns = 14, 2
        driver.refresh()
        wait_for(driver, lambda d: d.find_elements(By.ID, "file-tree"), what="the work page")
        driver.find_element(By.ID, "btn-directory").click()            # turn 1 of 2: no question
        wait_for(driver, lambda d: turn(d) == "1", what="directory")
        assert not dialog_open(driver)
        driver.find_element(By.ID, "btn-inbox").click()                # the last turn asks
        wait_for(driver, dialog_open, what="the last turn's confirmation")
        assert "last action" in driver.find_element(By.ID, "confirm-end-text").text
        driver.find_element(By.CSS_SELECTOR, "#confirm-end button[value=cancel]").click()
        assert turn(driver) == "1"
        driver.find_element(By.ID, "btn-inbox").click()
        wait_for(driver, dialog_open, what="the confirmation again")
        driver.find_element(By.ID, "btn-end-confirm").click()
        wait_for(driver, lambda d: "/verdict" in d.current_url, what="the verdict")
        assert "max_turns" in driver.find_element(By.ID, "verdict").text
