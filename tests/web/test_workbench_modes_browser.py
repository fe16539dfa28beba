"""Exam vs practice in a real headless Chromium: an exam shows no cost or hint button; practice shows
the cost, each Hint click adds the next rung, and the verdict lists the hints with a retry button."""

from __future__ import annotations

import pytest

from tests.web.helpers_web import chromium, have_browser, serve, wait_for

pytest.importorskip("selenium")
pytestmark = pytest.mark.skipif(not have_browser(), reason="needs Debian's chromium and chromium-driver "
                                "(apt-get install chromium chromium-driver)")


def _start(driver, url, mode):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select
    driver.get(url + "/")
    form = wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, 'form[data-task="helpdesk_tutorial"]'),
                    what="the catalog")
    Select(form.find_element(By.NAME, "mode")).select_by_value(mode)
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait_for(driver, lambda d: d.find_elements(By.ID, "file-tree"), what="the work page")


def test_exam_and_practice_in_the_browser(tmp_path):
    from selenium.webdriver.common.by import By

    from fdegym_env.web import create_app
    with serve(create_app(runs_dir=tmp_path, sandbox="bwrap")) as url, chromium() as driver:
        _start(driver, url, "exam")
        assert driver.find_element(By.ID, "mode").text == "exam"
        assert not driver.find_elements(By.ID, "status-cost") and not driver.find_elements(By.ID, "btn-hint")
        _start(driver, url, "practice")
        assert driver.find_elements(By.ID, "status-cost")
        for n in (1, 2):
            driver.find_element(By.ID, "btn-hint").click()
            wait_for(driver, lambda d, n=n: len(d.find_elements(By.CSS_SELECTOR, "#hints .hint")) == n, what=f"hint {n}")
        assert "nudge" in driver.find_elements(By.CSS_SELECTOR, "#hints .hint")[0].text
        driver.find_element(By.ID, "btn-submit").click()
        driver.find_element(By.ID, "btn-submit-confirm").click()
        hints = wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#verdict-hints li"), timeout=120,
                         what="the verdict's hints")
        assert [h.text.split(" (")[0] for h in hints] == ["nudge", "where to look"]
        driver.find_element(By.CSS_SELECTOR, "#retry button").click()
        wait_for(driver, lambda d: d.find_elements(By.ID, "btn-hint"), what="the retried practice episode")


def test_verdict_formula_and_reference_diff_in_the_browser(tmp_path):
    from selenium.webdriver.common.by import By

    from fdegym_env.web import create_app
    with serve(create_app(runs_dir=tmp_path, sandbox="bwrap")) as url, chromium() as driver:
        _start(driver, url, "exam")
        driver.find_element(By.ID, "btn-submit").click()
        driver.find_element(By.ID, "btn-submit-confirm").click()
        formula = wait_for(driver, lambda d: d.find_elements(By.ID, "verdict-formula"), timeout=120,
                           what="the verdict's formula")[0]
        assert "U = (kpi" in formula.text and "0.8" in formula.text
        assert "+++ b/system/" in driver.find_element(By.ID, "diff-reference").text
        assert driver.find_element(By.ID, "diff-yours").text == "(no change)"
        assert "Exam mode" in driver.find_element(By.ID, "verdict-hints").text


def test_name_and_profile_in_the_browser(tmp_path):
    from selenium.webdriver.common.by import By

    from fdegym_env.web import create_app
    with serve(create_app(runs_dir=tmp_path, sandbox="bwrap")) as url, chromium() as driver:
        driver.get(url + "/profile")
        box = wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, "#name-form input[name=name]"), what="profile")
        box.send_keys("Grace")
        driver.find_element(By.CSS_SELECTOR, "#name-form button").click()
        wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, "#name-form input").get_attribute("value") == "Grace",
                 what="the saved name")
        _start(driver, url, "exam")
        driver.get(url + "/profile")

        def history_rows(d):  # header plus at least one run, read in one go so a re-render cannot stale them
            texts = [r.text for r in d.find_elements(By.CSS_SELECTOR, "#history tr")]
            return texts if len(texts) > 1 else None
        texts = wait_for(driver, history_rows, what="the history rows")
        assert len(texts) == 2 and "helpdesk_tutorial" in texts[1] and "resume" in texts[1]
