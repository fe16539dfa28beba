"""Replay jsonl event files (data/events/*.jsonl) through route_batch and summarise.

    python3 tools/replay.py ../data/events/2026-02-17.jsonl [more files] [--summary] [--calendar PATH]

Each file is replayed as one batch (one on-call shift, 09:00 to 09:00 UK time). Bad lines are
skipped and counted (the archive has a half-written line where the bridge restarted mid-write,
OPS-1214; production got those events whole). Uses a temporary dedup state, never var/dedup_state.sqlite3.
"""
import collections
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from alertrouter import router, timeutil  # noqa: E402


def load_calendar(path):
    if not path or not os.path.exists(path):
        return None
    with open(path) as f:
        text = f.read()
    return json.loads(text) if path.endswith(".json") else text


def main(argv):
    summary = "--summary" in argv
    cal_path = None
    if "--calendar" in argv:
        cal_path = argv[argv.index("--calendar") + 1]
    else:
        here = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        for cand in ("change_calendar_export.json", "change_calendar_export.ics"):
            p = os.path.join(here, "data", cand)
            if os.path.exists(p):
                cal_path = p
    files = [a for a in argv if a.endswith(".jsonl")]
    tmp = tempfile.mkdtemp(prefix="replay_")
    os.environ["ALERTROUTER_STATE"] = os.path.join(tmp, "state.sqlite3")
    calendar = load_calendar(cal_path)
    total = collections.Counter()
    keys = collections.Counter()
    for fn in files:
        events, bad = [], 0
        with open(fn) as f:
            for line in f:
                line = line.strip()
                if not line:
                    continue
                try:
                    events.append(json.loads(line))
                except ValueError:
                    bad += 1
        res = router.route_batch({"events": events, "change_calendar": calendar})
        acts = collections.Counter(d["action"] for d in res["decisions"])
        night = 0
        by_id = {e.get("id"): e for e in events}
        for d in res["decisions"]:
            if d["action"] == "page":
                keys[d["dedup_key"].rsplit("|", 1)[0] if d["dedup_key"] else "?"] += 1
                ts = timeutil.parse_ts(by_id[d["id"]].get("ts"))
                if ts is not None:
                    h = timeutil.london(ts).hour
                    night += h >= 23 or h < 7   # the handbook's night: 23:00-07:00 UK time
        total.update(acts)
        print("%s: %d events (%d bad lines) -> %s; pages 23:00-07:00: %d"
              % (os.path.basename(fn), len(events), bad, dict(acts), night))
    if summary:
        print("\nall files:", dict(total))
        print("top paging keys (alert|instance):")
        for k, n in keys.most_common(15):
            print("  %5d  %s" % (n, k))


if __name__ == "__main__":
    main(sys.argv[1:])
