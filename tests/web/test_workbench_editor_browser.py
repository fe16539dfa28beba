"""The CodeMirror editor in a real headless Chromium: line numbers, Ctrl+S saves through write_file,
Revert goes back to the text as last saved, Diff shows the change."""

from __future__ import annotations

import pytest

from tests.web.helpers_web import chromium, click, have_browser, serve, wait_for

pytest.importorskip("selenium")
pytestmark = pytest.mark.skipif(not have_browser(), reason="needs Debian's chromium and chromium-driver "
                                "(apt-get install chromium chromium-driver)")


def test_editor_save_revert_and_diff(tmp_path):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    from fdegym_env.web import create_app
    turn = lambda d: d.find_element(By.ID, "status-turn").text  # noqa: E731
    content = lambda d: d.find_element(By.CSS_SELECTOR, "#cm-editor .cm-content").text  # noqa: E731
    with serve(create_app(runs_dir=tmp_path, sandbox="bwrap")) as url, chromium() as driver:
        driver.get(url + "/")
        wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, 'form[data-task="helpdesk_tutorial"]'),
                 what="the catalog").find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        wait_for(driver, lambda d: d.find_elements(By.ID, "file-tree"), what="the work page")
        eid = driver.current_url.rsplit("/", 1)[1]
        click(driver, 'a.file[data-path="docs/desk_handbook.md"]')
        wait_for(driver, lambda d: turn(d) == "1", what="read_file")
        driver.find_element(By.CSS_SELECTOR, '.tab[data-tab="editor"]').click()
        driver.find_element(By.ID, "btn-open").click()
        wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#cm-editor .cm-lineNumbers"), what="CodeMirror")
        original = content(driver)
        driver.find_element(By.CSS_SELECTOR, "#cm-editor .cm-content").click()
        ActionChains(driver).key_down(Keys.CONTROL).send_keys(Keys.END).key_up(Keys.CONTROL).send_keys("\nSAVED LINE").perform()
        ActionChains(driver).key_down(Keys.CONTROL).send_keys("s").key_up(Keys.CONTROL).perform()
        wait_for(driver, lambda d: turn(d) == "2", what="Ctrl+S = write_file")
        wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, "#cm-editor .cm-content").is_displayed()
                 and not d.find_elements(By.CSS_SELECTOR, "body.busy"), timeout=20, what="the editor again")
        driver.find_element(By.CSS_SELECTOR, "#cm-editor .cm-content").click()
        ActionChains(driver).key_down(Keys.CONTROL).send_keys(Keys.HOME).key_up(Keys.CONTROL).send_keys("UNSAVED ").perform()
        wait_for(driver, lambda d: "UNSAVED" in content(d), what="typing")
        import re
        classes = lambda d: set(re.findall(r'class="([^"]*)"', d.find_element(By.ID, "cm-editor").get_attribute("innerHTML")))  # noqa: E731
        driver.find_element(By.ID, "btn-diff").click()
        classes = lambda d: set(re.findall(r'class="([^"]*)"', d.find_element(By.ID, "cm-editor").get_attribute("innerHTML")))  # noqa: E731
        wait_for(driver, lambda d: any("cm-changed" in c or "cm-deleted" in c or "cm-inserted" in c for c in classes(d)),
                 timeout=10, what="the diff view")
        driver.find_element(By.ID, "btn-revert").click()
        text = lambda d: d.execute_script("return window.FdegymEditor.value()")  # noqa: E731
        wait_for(driver, lambda d: "UNSAVED" not in text(d) and text(d).rstrip().endswith("SAVED LINE"), timeout=10,
                 what="revert to the saved text")
        assert text(driver).startswith(original.splitlines()[0])
    saved = (tmp_path / "workbench")
    assert any('"SAVED LINE' in p.read_text() or "SAVED LINE" in p.read_text() for p in saved.glob("*.jsonl")), eid
