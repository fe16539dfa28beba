"""Median cost of one stakeholder contact step with the lexical router (goal: < 1 ms).

Measures ``People.contact`` (routing + the state machine + the ledger) on every people spec it can
load: the hand-written tests/people/data set, tiny_task and each shipped task with a people.yaml.
Messages are the routing-set questions when there are any, else generic ones; a fresh engine
is used every 20 messages so patience never runs out.

    python bench/bench_contact.py [--repeat 5]
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
GENERIC = ["How does the nightly job work?", "Who owns the config?", "What does a P1 cost?",
           "Tell me everything.", "how long do refnds take", "What are the complaints about?"]


def specs():
    out = [(name, spec, [(pid, q) for _, pid, q, _ in cases(rset)]) for name, spec, rset in find_sets(ROOT / "tests")]
    seen = {n for n, _, _ in out}
    from fdegym_env.core.registry import list_tasks, load_task
    import yaml
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


def bench(spec, msgs, repeat):
    router = make_router("lexical", spec["people"])
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
    a = ap.parse_args()
    all_t = []
    print(f"{'spec':<22} {'contacts':>8} {'median ms':>10} {'p95 ms':>8} {'build ms':>9}")
    for name, spec, msgs in specs():
        t0 = time.perf_counter()
        make_router("lexical", spec["people"])
        build = (time.perf_counter() - t0) * 1000
        t = bench(spec, msgs, a.repeat)
        all_t += t
        q = statistics.quantiles(t, n=20)
        print(f"{name:<22} {len(t):>8} {statistics.median(t) * 1000:>10.3f} {q[18] * 1000:>8.3f} {build:>9.2f}")
    med = statistics.median(all_t) * 1000
    print(f"{'ALL':<22} {len(all_t):>8} {med:>10.3f}   goal < 1 ms: {'met' if med < 1 else 'NOT met'}")


if __name__ == "__main__":
    main()
