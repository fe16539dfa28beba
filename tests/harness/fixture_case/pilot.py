"""One trial day: the delivered review on 30 shadow payments; ops say what they saw."""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402


def run(workspace, day):
    p = common.params()
    items = common.items(5000 + day, 30, common.DEV_FX, p["flag_word"])
    r = subprocess.run([sys.executable, "-c", common.DRIVER], cwd=os.path.join(workspace, "system"),
                       input=json.dumps(items), capture_output=True, text=True, timeout=60)
    try:
        got = json.loads(r.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return {"feedback": "The review crashed on the trial day: %s" % r.stderr[-300:], "stats": {"ok": False}}
    fine = sum(1 for g, it in zip(got, items) if g == "hold" and common.truth(it, common.DEV_FX, p["limit"], p["flag_word"]) == "pay")
    return {"feedback": "Ops cleared %d held payments; %d of them were fine to pay." % (got.count("hold"), fine),
            "facts": ["F_pilot"], "topics": ["pilot"], "stats": {"held": got.count("hold"), "fine": fine}}
