import json
import os
import sys

ws = sys.argv[1]
p = json.loads(os.environ.get("FDEGYM_VARIANT_PARAMS") or "{}")
path = os.path.join(ws, "system", "payments", "review.py")
src = open(path).read()
src += "\n\ndef decide(items):\n    return [\"hold\"] * len(items)\n"
open(path, "w").write(src)
