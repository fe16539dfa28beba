"""Median cost of one stakeholder contact step (goal with the default ``semantic`` router: <= 5 ms;
``--router lexical``: < 1 ms), and the first contact of the process (the model load).

Measures ``People.contact`` (routing + the state machine + the ledger) on every people spec it can
load: the hand-written tests/people/data set, tiny_task and each shipped task with a people.yaml.
Messages are the routing-set questions when there are any, else generic ones; a fresh engine
is used every 20 messages so patience never runs out.

    python bench/bench_contact.py [--repeat 5] [--router semantic|lexical|regex]
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from fdegym_env.people import People, make_router
from fdegym_env.people.routing_report import cases, find_sets
from fdegym_env.people.spec import validate_people

ROOT = Path(__file__).resolve().parents[1]
ROUTER = "semantic"
GENERIC = ["How does the nightly job work?", "Who owns the config?", "What does a P1 cost?",
           "Tell me everything.", "how long do refnds take", "What are the complaints about?"]


def specs():
    out = [(name, spec, [(pid, q) for _, pid, q, _ in cases(rset)]) for name, spec, rset in find_sets(ROOT / "tests")]
    seen = {n for n, _, _ in out}
    import yaml

    from fdegym_env.core.registry import list_tasks, load_task
    tiny = ROOT / "tests" / "fixtures" / "tiny_task" / "people.yaml"
    cands = [("tiny_task", lambda: validate_people(yaml.safe_load(tiny.read_text().replace("{{threshold}}", "5")), "tiny"))]
    for tid in list_tasks():
        if tid not in seen:
            cands.append((tid, lambda tid=tid: load_task(tid).people_spec(load_task(tid).variant("base"))))
    for name, load in cands:
        try:
            spec = load()
        except Exception as e:  # scenarios still being written
            print(f"  (skipping {name}: {type(e).__name__}: {str(e)[:80]})")
            continue
        ids = [p["id"] for p in spec["people"]]
        out.append((name, spec, [(ids[i % len(ids)], GENERIC[i % len(GENERIC)]) for i in range(60)]))
    return out


def load_task_spec():
    from fdegym_env.core.registry import load_task
    task = load_task("news_incident")
    return task.people_spec(task.variant("base"))


def bench(spec, msgs, repeat):
    router = make_router(ROUTER, spec["people"])
    times = []
    for _ in range(repeat):
        for i in range(0, len(msgs), 20):
            people = People(spec, router)
            for pid, q in msgs[i:i + 20]:
                t0 = time.perf_counter()
                people.contact(pid, q)
                times.append(time.perf_counter() - t0)
    return times


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--router", default="semantic", choices=["semantic", "lexical", "regex"])
    a = ap.parse_args()
    global ROUTER
    ROUTER = a.router
    goal = 5.0 if ROUTER == "semantic" else 1.0
    t0 = time.perf_counter()
    first_spec = load_task_spec()
    People(first_spec, make_router(ROUTER, first_spec["people"])).contact(first_spec["people"][0]["id"], GENERIC[0])
    print(f"first contact of the process (model load, router build, one message): "
          f"{(time.perf_counter() - t0) * 1000:.0f} ms")
    all_t = []
    print(f"{'spec':<22} {'contacts':>8} {'median ms':>10} {'p95 ms':>8} {'build ms':>9}")
    for name, spec, msgs in specs():
        t0 = time.perf_counter()
        make_router(ROUTER, spec["people"])
        build = (time.perf_counter() - t0) * 1000
        t = bench(spec, msgs, a.repeat)
        all_t += t
        q = statistics.quantiles(t, n=20)
        print(f"{name:<22} {len(t):>8} {statistics.median(t) * 1000:>10.3f} {q[18] * 1000:>8.3f} {build:>9.2f}")
    med = statistics.median(all_t) * 1000
    print(f"{'ALL':<22} {len(all_t):>8} {med:>10.3f}   goal <= {goal:g} ms: {'met' if med <= goal else 'NOT met'}")


if __name__ == "__main__":
    main()
