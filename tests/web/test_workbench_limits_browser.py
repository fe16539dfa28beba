"""A person's limits in a real headless Chromium: the turn and hour counters, and `Wait` asks for
confirmation (Cancel does nothing, a wait past the tool's maximum is refused before any dialog)."""

from __future__ import annotations

import pytest

from tests.web.helpers_web import chromium, have_browser, serve, wait_for

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
