"""Screenshots of the four workbench pages for docs/ (run from the repository root):

    python -m tests.web.screenshots docs/img

It records a few baseline agents into a scratch runs folder, serves the workbench on loopback,
works news_incident at L3 in headless Chromium (read a file, open the directory, ask the night
editor) and saves: catalog, work, watch (a reference agent's run at its verdict) and leaderboard.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from tests.web.helpers_web import chromium, click, serve, wait_for


def record_agents(runs: Path) -> None:
    from fdegym_env.agents import make_agent, run_episode
    from fdegym_env.wrappers import Recorder

    from fdegym_env.core.env import FDEGymEnv
    for task in ("helpdesk_tutorial", "news_incident"):
        for agent in ("reference", "literal", "do-nothing"):
            for seed in (0, 1):
                env = Recorder(FDEGymEnv(task, level="L3"), runs / "agents" / f"{task}-{agent}-{seed}.jsonl")
                run_episode(env, make_agent(agent), seed=seed)
                env.close()


def main(argv: list[str] | None = None) -> int:
    from selenium.webdriver.common.by import By

    from fdegym_env.web import create_app
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", type=Path)
    a = ap.parse_args(argv)
    a.out.mkdir(parents=True, exist_ok=True)
    runs = Path(tempfile.mkdtemp(prefix="fdegym-shots-"))
    record_agents(runs)
    with serve(create_app(runs_dir=runs)) as url, chromium(1500, 950) as d:
        d.get(url + "/")
        wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, "form.task"), what="the catalog")
        d.save_screenshot(str(a.out / "workbench_catalog.png"))
        from selenium.webdriver.support.ui import Select
        Select(d.find_element(By.CSS_SELECTOR, 'form[data-task="news_incident"] select[name=mode]')).select_by_value("practice")
        d.find_element(By.CSS_SELECTOR, 'form[data-task="news_incident"] button[type=submit]').click()
        turn = lambda d: d.find_element(By.ID, "status-turn").text  # noqa: E731
        click(d, 'a.file[data-path="docs/desk_handbook.md"]')
        wait_for(d, lambda d: turn(d) == "1", what="read_file")
        d.find_element(By.ID, "btn-directory").click()
        click(d, 'li[data-person="night_editor"]')
        d.find_element(By.ID, "chat-message").send_keys("How do agency kill notices reach the desk overnight?")
        d.find_element(By.CSS_SELECTOR, "#chat-form button").click()
        wait_for(d, lambda d: turn(d) == "3", what="the reply")
        d.find_element(By.ID, "command").send_keys("ls system && python3 -c 'import sys; print(sys.version)'")
        d.find_element(By.CSS_SELECTOR, "#terminal button").click()
        wait_for(d, lambda d: turn(d) == "4", what="the command")
        d.find_element(By.ID, "btn-hint").click()
        wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#hints .hint"), what="a hint")
        d.save_screenshot(str(a.out / "workbench_work.png"))
        d.find_element(By.ID, "btn-submit").click()
        d.find_element(By.ID, "btn-submit-confirm").click()
        wait_for(d, lambda d: d.find_elements(By.ID, "verdict-formula"), timeout=180, what="the verdict")
        d.set_window_size(1500, 2400)
        d.save_screenshot(str(a.out / "workbench_verdict.png"))
        d.set_window_size(1500, 950)
        d.get(url + "/runs")
        links = d.find_elements(By.CSS_SELECTOR, "a.watch-link")
        ref = next(x for x in links if "news_incident-reference-0" in x.get_attribute("href"))
        ref.click()
        wait_for(d, lambda d: d.find_elements(By.ID, "watch-last"), what="the viewer")
        d.find_element(By.ID, "watch-last").click()
        d.save_screenshot(str(a.out / "workbench_watch.png"))
        d.get(url + "/leaderboard")
        wait_for(d, lambda d: d.find_elements(By.ID, "leaderboard-table"), what="the leaderboard")
        d.execute_script("window.scrollTo(0, 0)")
        d.set_window_size(1500, 1500)
        d.save_screenshot(str(a.out / "workbench_leaderboard.png"))
    for p in sorted(a.out.glob("workbench_*.png")):
        print(p)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
