"""Shared by the fixture case's generator, grader and pilot (never copied into a workspace)."""
import json
import os
import random

DEV_FX, PROD_FX = 1.0, 1.6
AS_FOUND_LIMIT, AS_FOUND_FLAGS = 1000, ("EMBARGO",)


def params():
    return json.loads(os.environ.get("FDEGYM_VARIANT_PARAMS") or "{}") or {"limit": 250, "flag_word": "EMBARGO"}


def items(seed, n, fx, flag_word):
    """Payments whose settled value (amount * fx) is 20% in (0,100], 60% in (100,250], 20% in (250,400];
    one in ten carries the flag word in its memo."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        u = rng.random()
        lo, hi = (1, 100) if u < 0.2 else ((100, 250) if u < 0.8 else (250, 400))
        value = rng.uniform(lo, hi)
        memo = ("%s per counsel" % flag_word) if rng.random() < 0.1 else "invoice %d" % rng.randrange(10000)
        out.append({"id": "p%d" % i, "amount": round(value / fx, 2), "memo": memo})
    return out


def truth(item, fx, limit, flag_word):
    return "hold" if item["amount"] * fx > limit or flag_word in item["memo"].upper() else "pay"


def as_found(item, fx):
    return "hold" if item["amount"] * fx > AS_FOUND_LIMIT or any(f in item["memo"].upper() for f in AS_FOUND_FLAGS) else "pay"


DRIVER = ("import json, sys\nsys.path.insert(0, '.')\nfrom payments.review import decide\n"
          "items = json.loads(sys.stdin.read())\nprint(json.dumps(decide(items)))\n")
