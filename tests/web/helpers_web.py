"""Helpers for the workbench tests and screenshots: a real uvicorn server on a loopback socket in a
thread, and headless Debian Chromium driven by selenium."""

from __future__ import annotations

import contextlib
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"


def have_browser() -> bool:
    return Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists()


@contextlib.contextmanager
def serve(app) -> Iterator[str]:
    """Run ``app`` with uvicorn on 127.0.0.1 (a socket bound once, so no port race); yields its URL."""
    import uvicorn
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the workbench server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=20)
        sock.close()


@contextlib.contextmanager
def chromium(width: int = 1500, height: int = 950) -> Iterator[object]:
    """Headless Chromium (Debian's package) under selenium, with the flags a closed network needs."""
    import tempfile

    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    profile = tempfile.mkdtemp(prefix="fdegym-chromium-")
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", f"--window-size={width},{height}", f"--user-data-dir={profile}"):
        opts.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
    driver.set_page_load_timeout(60)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def wait_for(driver, predicate, timeout: float = 60.0, what: str = "the page"):
    """Poll ``predicate`` until it returns something truthy; an element that vanished or went stale
    because the page re-rendered between finding and reading it counts as "not yet"."""
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait
    return WebDriverWait(driver, timeout, poll_frequency=0.1,
                         ignored_exceptions=(NoSuchElementException, StaleElementReferenceException)
                         ).until(predicate, message=f"waiting for {what}")


def click(driver, css: str, timeout: float = 30.0) -> None:
    """Click the element ``css`` names, finding it again if the page re-rendered it in between
    (the work page rebuilds its file tree and people list after every action)."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By

    def attempt(d):
        try:
            els = d.find_elements(By.CSS_SELECTOR, css)
            if not els:
                return False
            els[0].click()
            return True
        except StaleElementReferenceException:
            return False
    wait_for(driver, attempt, timeout, what=f"a clickable {css}")


def work_an_episode(driver, url: str, task: str, path: str, person: str, message: str) -> str:
    """Catalog -> start ``task`` at L3 -> read ``path`` -> ask ``person`` -> submit; returns the verdict score text."""
    from selenium.webdriver.common.by import By
    driver.get(url + "/")
    form = wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, f'form[data-task="{task}"]'), what="the catalog")
    assert form.find_element(By.NAME, "level").get_attribute("value") == "L3"
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait_for(driver, lambda d: "/work/" in d.current_url and d.find_elements(By.ID, "file-tree"), what="the work page")
    turn = lambda d: d.find_element(By.ID, "status-turn").text  # noqa: E731
    click(driver, f'a.file[data-path="{path}"]')
    wait_for(driver, lambda d: turn(d) == "1" and path in d.find_element(By.ID, "output").text, what="read_file")
    driver.find_element(By.ID, "btn-directory").click()
    click(driver, f'li[data-person="{person}"]')
    driver.find_element(By.ID, "chat-message").send_keys(message)
    driver.find_element(By.CSS_SELECTOR, "#chat-form button").click()
    wait_for(driver, lambda d: turn(d) == "3" and len(d.find_elements(By.CSS_SELECTOR, "#chat-log .them")) == 1,
             what="the reply")
    driver.find_element(By.ID, "btn-submit").click()
    driver.find_element(By.ID, "btn-submit-confirm").click()
    score = wait_for(driver, lambda d: d.find_elements(By.ID, "verdict-score"), timeout=180, what="the verdict")
    return score[0].text
