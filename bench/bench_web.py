"""The workbench's speed (goals: `fdegym serve` answers within 3 s of starting; an action's round
trip in the browser, median, within 100 ms).

Starts ``fdegym serve`` as a user would (a subprocess) and times it to the first 200 from ``/``;
then opens an episode of news_incident in headless Chromium and times ``list_files`` actions
issued by the page's own fetch (browser -> server -> env -> server -> browser), against the same
action through ``env.step`` in this process, so the ratio shows what the web layer adds.

    python bench/bench_web.py [--actions 40]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def serve_startup(runs: Path, port: int) -> float:
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "fdegym_env.cli.main", "serve", "--port", str(port), "--runs", str(runs)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=1) as r:
                    if r.status == 200:
                        return time.perf_counter() - t0
            except OSError:
                if proc.poll() is not None:
                    raise RuntimeError("fdegym serve exited") from None
                if time.perf_counter() - t0 > 60:
                    raise RuntimeError("fdegym serve did not answer within 60 s") from None
                time.sleep(0.02)
    finally:
        proc.terminate()
        proc.wait()


def browser_round_trips(n: int) -> list[float]:
    from selenium.webdriver.common.by import By

    from fdegym_env.web import create_app
    from tests.web.helpers_web import chromium, serve, wait_for
    with serve(create_app(runs_dir=tempfile.mkdtemp(prefix="fdegym-bench-web-"))) as url, chromium() as d:
        d.get(url + "/")
        d.find_element(By.CSS_SELECTOR, 'form[data-task="news_incident"] button[type=submit]').click()
        wait_for(d, lambda d: "/work/" in d.current_url, what="the work page")
        eid = d.current_url.rsplit("/", 1)[1]
        ms = d.execute_async_script("""
            const [eid, n, done] = arguments; const out = [];
            (async () => { for (let i = 0; i < n; i++) { const t0 = performance.now();
                const r = await fetch(`/api/work/${eid}/act`, {method: "POST", headers: {"Content-Type": "application/json"},
                                      body: JSON.stringify({tool: "list_files", path: "docs"})});
                await r.json(); out.push(performance.now() - t0); } done(out); })();""", eid, n)
    return [m / 1000 for m in ms]


def env_steps(n: int) -> list[float]:
    from fdegym_env.core.env import FDEGymEnv
    env = FDEGymEnv("news_incident", level="L3")
    env.reset(seed=0)
    out = []
    for _ in range(n):
        t0 = time.perf_counter()
        env.step({"tool": "list_files", "path": "docs"})
        out.append(time.perf_counter() - t0)
    env.close()
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--actions", type=int, default=40)
    ap.add_argument("--port", type=int, default=8799)
    a = ap.parse_args()
    start = [serve_startup(Path(tempfile.mkdtemp()), a.port) for _ in range(3)]
    trips = browser_round_trips(a.actions)
    direct = env_steps(a.actions)
    med_trip, med_env = statistics.median(trips), statistics.median(direct)
    print(f"fdegym serve to first page: median {statistics.median(start):.2f} s of {len(start)} starts "
          f"(goal <= 3 s): {'OK' if statistics.median(start) <= 3 else 'SLOW'}")
    print(f"action round trip in the browser: median {med_trip * 1000:.1f} ms, p90 "
          f"{sorted(trips)[int(0.9 * len(trips))] * 1000:.1f} ms over {len(trips)} (goal <= 100 ms): "
          f"{'OK' if med_trip <= 0.1 else 'SLOW'}")
    print(f"the same action through env.step: median {med_env * 1000:.2f} ms; the web layer adds "
          f"{(med_trip - med_env) * 1000:.1f} ms ({med_trip / med_env:.0f}x)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
